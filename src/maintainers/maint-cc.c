/*
 * maint-cc.c - get_maintainer.pl's answer (who to Cc), computed the way
 * the script computes it: see maint-cc.h.  Its regexes and address
 * helpers are in maint-cc-perl.c.
 */
#include "maint-cc.h"
#include "bytes.h"
#include "maint-cc-internal.h"
#include "maint-cc-perl.h"
#include "maint-cc-qemu.h"
#include "maint-cc-vcs.h"
#include "maintainers.h"
#include "tree.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#define SECTION_MAXLEN 50
#define QEMU_SECTION_MAXLEN 20

struct keyword {
	const struct maint_field *field;
	const struct maint_entry *entry;
	GRegex *re;        /* the value, /x */
	GRegex *patch_re;  /* "^[+-].*" . value, /x */
	GRegex *joined;    /* re, multi-line, on all K: lines: k_maybe() */
	unsigned long limit_hits; /* matches that hit MCC_RE_LIMITS */
};

/*
 * Does keyword `kw` (its regex `re`) match `len` bytes at `s`?  A match
 * that hits the limits is taken as none, and the keyword is not tried
 * again: a catastrophic pattern costs one limit, not one per line.
 */
static bool kw_match(struct keyword *kw, GRegex *re, const char *s,
		     size_t len)
{
	GError *err = NULL;
	bool m;

	if (kw->limit_hits)
		return false;
	m = g_regex_match_full(re, s, (gssize)len, 0, 0, NULL, &err);
	if (!err)
		return m;
	g_error_free(err);
	kw->limit_hits++;
	return false;
}

static void scan_emails(struct maint_cc *cc, const char *buf, size_t len,
			GPtrArray *out);


/* The tree's .mailmap, as read_mailmap() reads it. */
static void read_mailmap(struct maint_cc *cc)
{
	char *buf, **lines;
	size_t len;

	if (ms_tree_read(cc->tree, ".mailmap", &buf, &len) < 0) {
		ms_error_clear();
		return;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *hash = strchr(*l, '#');
		GMatchInfo *mi = NULL;
		char *n, *a;
		size_t ll;

		if (hash)
			*hash = '\0';
		g_strstrip(*l);
		ll = strlen(*l);
		if (!ll)
			continue;
		if (mcc_match(mcc_rx.mm1, *l, ll, &mi)) {
			mcc_group_email(mi, 1, &n, &a);
			g_hash_table_replace(cc->mm_names, a, n);
		} else if (mcc_match(mcc_rx.mm2, *l, ll, &mi)) {
			g_hash_table_replace(cc->mm_addresses, mcc_group(mi, 2),
					     mcc_group(mi, 1));
		} else if (mcc_match(mcc_rx.mm3, *l, ll, &mi)) {
			char *wa = mcc_group(mi, 3);

			mcc_group_email(mi, 1, &n, &a);
			g_hash_table_replace(cc->mm_names, g_strdup(wa), n);
			g_hash_table_replace(cc->mm_addresses, wa, a);
		} else if (mcc_match(mcc_rx.mm4, *l, ll, &mi)) {
			char *wn, *wa, *we;

			mcc_group_email(mi, 1, &n, &a);
			mcc_group_email(mi, 3, &wn, &wa);
			we = mcc_format_email(wn, wa, true);
			g_hash_table_replace(cc->mm_names, g_strdup(we), n);
			g_hash_table_replace(cc->mm_addresses, we, a);
			g_free(wn);
			g_free(wa);
		}
		g_match_info_free(mi);
	}
	g_strfreev(lines);
	g_free(buf);
}

void maint_cc_opts_init(struct maint_cc_opts *o)
{
	*o = (struct maint_cc_opts){
		.email = true, .maintainer = true, .reviewer = true,
		.list = true, .moderated = true, .subscriber = false,
		.usename = true, .remove_duplicates = true, .mailmap = true,
		.keywords = true, .file_emails = false,
		.chief_penguins = false, .git_fallback = true,
		.rolestats = true, .fixes = true, .git_min_signatures = 1,
		.git_max_maintainers = 5, .git_min_percent = 5,
		.git_since = "1-year-ago",
	};
}

static void item_clear(gpointer p)
{
	struct item *it = p;

	g_free(it->email);
	g_free(it->role);
}

static void line_clear(gpointer p)
{
	struct maint_cc_line *l = p;

	g_free(l->email);
	g_free(l->name);
	g_free(l->address);
	g_free(l->role);
}

struct maint_cc *maint_cc_new(const struct maint_file *mf,
			      const struct maint_index *idx,
			      const struct ms_tree *tree,
			      const struct maint_cc_opts *o)
{
	struct maint_cc *cc = g_new0(struct maint_cc, 1);
	size_t nkw = 0;

	mcc_rx_init();
	cc->mf = mf;
	cc->idx = idx;
	cc->tree = tree;
	cc->o = *o;
	cc->mm_names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					     g_free);
	cc->mm_addresses = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, g_free);
	if (o->mailmap)
		read_mailmap(cc);
	cc->files = g_ptr_array_new_with_free_func(g_free);
	cc->keyword_tv = g_array_new(FALSE, FALSE, sizeof(unsigned));
	cc->kw_by_tv = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t k = 0; k < e->nr_fields; k++)
			nkw += e->fields[k].key == 'K';
	}
	cc->kw = g_new0(struct keyword, nkw ? nkw : 1);
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t k = 0; k < e->nr_fields; k++) {
			const struct maint_field *f = &e->fields[k];
			struct keyword *kw = &cc->kw[cc->nr_kw];

			if (f->key != 'K')
				continue;
			kw->field = f;
			kw->entry = e;
			kw->re = mcc_keyword_re("", f->value, 0);
			kw->patch_re = mcc_keyword_re("^[+-].*", f->value, 0);
			if (maint_k_joinable(f->value))
				kw->joined = mcc_keyword_re("", f->value,
					G_REGEX_MULTILINE | G_REGEX_OPTIMIZE);
			if (!kw->re || !kw->patch_re) {
				/* Perl would die; we skip it */
				g_clear_pointer(&kw->re, g_regex_unref);
				g_clear_pointer(&kw->patch_re, g_regex_unref);
				g_clear_pointer(&kw->joined, g_regex_unref);
				continue;
			}
			g_hash_table_insert(cc->kw_by_tv,
					    GUINT_TO_POINTER(f->tv), kw);
			cc->nr_kw++;
		}
	}
	cc->email_to = g_array_new(FALSE, FALSE, sizeof(struct item));
	g_array_set_clear_func(cc->email_to, item_clear);
	cc->list_to = g_array_new(FALSE, FALSE, sizeof(struct item));
	g_array_set_clear_func(cc->list_to, item_clear);
	cc->list_seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	cc->hash_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	cc->hash_address = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	cc->dedup_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       (GDestroyNotify)g_strfreev);
	cc->dedup_address = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free,
						  (GDestroyNotify)g_strfreev);
	cc->parsed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)g_strfreev);
	for (int i = 0; i < 4; i++)
		cc->values[i] = g_ptr_array_new_with_free_func(g_free);
	cc->entries = g_ptr_array_new();
	cc->entry_seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	{
		enum maint_dialect d;

		cc->chiefs = mcc_read_script(tree, &d);
		cc->dialect = o->dialect == MAINT_DIALECT_AUTO ? d :
			      o->dialect;
	}
	if (cc->dialect == MAINT_DIALECT_QEMU)
		cc->ignored = mcc_read_ignoredmailmap(tree);
	cc->path_emails = g_ptr_array_new_with_free_func(g_free);
	/* QEMU's and Xen's scripts read no .get_maintainer.ignore */
	cc->git_ignore = cc->dialect == MAINT_DIALECT_KERNEL ?
			 mcc_vcs_read_ignore(tree) :
			 g_ptr_array_new_with_free_func(g_free);
	cc->exact = g_hash_table_new(g_str_hash, g_str_equal);
	cc->fixes = g_ptr_array_new_with_free_func(g_free);
	cc->ranges = g_ptr_array_new_with_free_func(g_free);
	cc->commit_logs = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, (GDestroyNotify)g_ptr_array_unref);
	cc->lines = g_array_new(FALSE, FALSE, sizeof(struct maint_cc_line));
	g_array_set_clear_func(cc->lines, line_clear);
	return cc;
}

void maint_cc_free(struct maint_cc *cc)
{
	if (!cc)
		return;
	g_hash_table_destroy(cc->mm_names);
	g_hash_table_destroy(cc->mm_addresses);
	g_ptr_array_free(cc->files, TRUE);
	g_array_free(cc->keyword_tv, TRUE);
	for (size_t i = 0; i < cc->nr_kw; i++) {
		g_regex_unref(cc->kw[i].re);
		g_regex_unref(cc->kw[i].patch_re);
		g_clear_pointer(&cc->kw[i].joined, g_regex_unref);
	}
	g_free(cc->kw);
	g_hash_table_destroy(cc->kw_by_tv);
	g_array_free(cc->email_to, TRUE);
	g_array_free(cc->list_to, TRUE);
	g_hash_table_destroy(cc->list_seen);
	g_hash_table_destroy(cc->hash_name);
	g_hash_table_destroy(cc->hash_address);
	g_hash_table_destroy(cc->dedup_name);
	g_hash_table_destroy(cc->dedup_address);
	g_hash_table_destroy(cc->parsed);
	for (int i = 0; i < 4; i++)
		g_ptr_array_free(cc->values[i], TRUE);
	g_ptr_array_free(cc->entries, TRUE);
	g_hash_table_destroy(cc->entry_seen);
	g_array_free(cc->lines, TRUE);
	g_ptr_array_free(cc->chiefs, TRUE);
	g_clear_pointer(&cc->ignored, g_hash_table_destroy);
	g_ptr_array_free(cc->path_emails, TRUE);
	g_ptr_array_free(cc->git_ignore, TRUE);
	g_hash_table_destroy(cc->exact);
	g_ptr_array_free(cc->fixes, TRUE);
	g_ptr_array_free(cc->ranges, TRUE);
	g_hash_table_destroy(cc->commit_logs);
	g_free(cc);
}

void maint_cc_add_path(struct maint_cc *cc, const char *path)
{
	char *buf;
	size_t len;
	/* QEMU's and Xen's scripts read the addresses of a path (any file
	 * but the top MAINTAINERS) here, and only with --file-emails */
	bool emails = cc->dialect != MAINT_DIALECT_KERNEL && cc->o.file_emails;

	g_ptr_array_add(cc->files, g_strdup(path));
	if ((!cc->o.keywords && !emails) || !strcmp(path, "MAINTAINERS") ||
	    !ms_tree_has_file(cc->tree, path))
		return;
	if (ms_tree_read(cc->tree, path, &buf, &len) < 0) {
		ms_error_clear();
		return;
	}
	for (size_t i = 0; cc->o.keywords && i < cc->nr_kw; i++)
		if (kw_match(&cc->kw[i], cc->kw[i].re, buf, len))
			g_array_append_val(cc->keyword_tv,
					   cc->kw[i].field->tv);
	if (emails)
		scan_emails(cc, buf, len, cc->path_emails);
	g_free(buf);
}

/* @files = sort_and_mcc_vcs_uniq(@files) */
static void sort_uniq_files(struct maint_cc *cc)
{
	GPtrArray *f = cc->files;
	guint n = 0;

	g_ptr_array_sort(f, ms_cmp_str);
	for (guint i = 0; i < f->len; i++) {
		if (n && !strcmp(f->pdata[n - 1], f->pdata[i])) {
			g_free(f->pdata[i]);
			continue;
		}
		f->pdata[n++] = f->pdata[i];
	}
	/* no free: the tail was moved or freed already */
	g_ptr_array_set_free_func(f, NULL);
	g_ptr_array_set_size(f, n);
	g_ptr_array_set_free_func(f, g_free);
}

static void add_file(struct maint_cc *cc, char *name)
{
	g_ptr_array_add(cc->files, name);
}

/* mcc_match() of a regex whose matches start with `lit`, tried only on
 * a line that does (a patch's lines are mostly neither). */
static bool line_match(GRegex *r, const char *lit, const char *l, size_t n,
		       GMatchInfo **mi)
{
	size_t k = strlen(lit);

	return n >= k && !memcmp(l, lit, k) && mcc_match(r, l, n, mi);
}

/* A line of a patch that get_maintainer.pl matches K: patterns on. */
struct kline {
	const char *p;
	size_t n;        /* its newline included */
	bool prefixed;   /* after a "+++" or "---" line: kw.patch_re's */
};

/*
 * Whether K: pattern `kw` may match one of the lines `all` holds
 * (maint_k_maybe()).  A line L that "^[+-].*" . value (kw.patch_re)
 * matches holds a match of the value alone, and so does `all`
 * (maint_k_joinable()); a value with an alternation matches L alone in
 * another branch, and `all` too.  kw.patch_re is anchored, so one match
 * limit counts a whole line where kw.joined has one per offset: a miss
 * there could in principle spare a line the limit hit (and its
 * warning), never a match.
 */
static bool k_maybe(const struct keyword *kw, const GString *all)
{
	return maint_k_maybe(kw->joined, all->str, all->len);
}

/*
 * The K: patterns on `lines`, as the script matches them line by line
 * (kw_match()), but each first on all of them joined (k_maybe()): a
 * pattern that misses there is not tried on them.  Each line is followed
 * by an empty one, so that a pattern that ends a line's match after its
 * newline (/foo\s$/) meets a "$" there as at the end of the line alone.
 */
static void k_lines(struct maint_cc *cc, const GArray *lines)
{
	GString *all = g_string_new(NULL);

	for (guint j = 0; j < lines->len; j++) {
		const struct kline *l = &g_array_index(lines, struct kline, j);

		g_string_append_len(all, l->p, (gssize)l->n);
		if (!l->n || l->p[l->n - 1] != '\n')
			g_string_append_c(all, '\n');
		g_string_append_c(all, '\n');
	}
	for (size_t i = 0; lines->len && i < cc->nr_kw; i++) {
		struct keyword *kw = &cc->kw[i];

		if (!k_maybe(kw, all))
			continue;
		for (guint j = 0; j < lines->len; j++) {
			const struct kline *l = &g_array_index(lines,
							       struct kline, j);

			if (kw_match(kw, l->prefixed ? kw->patch_re : kw->re,
				     l->p, l->n))
				g_array_append_val(cc->keyword_tv,
						   kw->field->tv);
		}
	}
	g_string_free(all, TRUE);
}

size_t maint_cc_add_patch(struct maint_cc *cc, const char *buf, size_t len)
{
	size_t before = cc->files->len, pos = 0;
	const char *prefix = "";
	char *lastfile = NULL;
	GMatchInfo *mi = NULL;
	/* QEMU's script takes file names from "+++" lines only, and looks
	 * for K: patterns in every other line but "@@" ones */
	bool k = cc->dialect != MAINT_DIALECT_QEMU;
	GArray *klines = g_array_new(FALSE, FALSE, sizeof(struct kline));

	while (pos < len) {
		const char *l = buf + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) + 1 : len - pos;

		pos += n;
		if (k && (line_match(mcc_rx.p_mode, " mode change ", l, n,
				     &mi) ||
			  line_match(mcc_rx.p_rename, "rename ", l, n, &mi))) {
			add_file(cc, mcc_group(mi, 1));
		} else if (k && line_match(mcc_rx.p_diff, "diff --git a/", l, n,
					   &mi)) {
			add_file(cc, mcc_group(mi, 1));
			add_file(cc, mcc_group(mi, 2));
		} else if (k && cc->dialect != MAINT_DIALECT_XEN &&
			   line_match(mcc_rx.p_fixes, "Fixes:", l, n, &mi)) {
			if (cc->o.fixes)
				g_ptr_array_add(cc->fixes, mcc_group(mi, 1));
		} else if (line_match(mcc_rx.p_plus, "+++", l, n, &mi) ||
			   (k && line_match(mcc_rx.p_minus, "---", l, n,
					    &mi))) {
			char *f = mcc_group(mi, 1);
			char *slash = strchr(f, '/');

			prefix = "^[+-].*";
			/* Xen's script leaves out the /dev/null of a new or
			 * deleted file; the kernel's reads it as dev/null */
			if (cc->dialect == MAINT_DIALECT_XEN &&
			    !strcmp(f, "/dev/null")) {
				g_free(f);
			} else {
				if (slash)
					memmove(f, slash + 1,
						strlen(slash + 1) + 1);
				g_free(lastfile);
				lastfile = g_strdup(f);
				add_file(cc, f);
			}
		} else if (line_match(mcc_rx.p_hunk, "@@ -", l, n, &mi)) {
			char *a = mcc_group(mi, 1), *b = mcc_group(mi, 2);

			if (cc->o.git_blame)
				g_ptr_array_add(cc->ranges, g_strdup_printf(
					"%s:%s:%s", lastfile ? lastfile : "",
					a, b));
			g_free(a);
			g_free(b);
		} else if (cc->o.keywords) {
			struct kline kl = { l, n, *prefix != '\0' };

			g_array_append_val(klines, kl);
		}
		if (mi) {
			g_match_info_free(mi);
			mi = NULL;
		}
	}
	g_free(lastfile);
	k_lines(cc, klines);
	g_array_free(klines, TRUE);
	{
		size_t found = cc->files->len - before;

		sort_uniq_files(cc);
		return found;
	}
}

/* $typevalue[find_starting_index()]: the line above an entry's fields,
 * the underline of a title that has one (QEMU's, Xen's and DPDK's files;
 * every script's find_starting_index() stops there). */
static const char *entry_line(const struct maint_entry *e)
{
	return e->underline ? e->underline : e->name;
}

/* get_subsystem_name(); QEMU's (since 2023, 00a0870b26) drops the
 * parentheses of a name it cuts, so that git send-email takes the role */
static char *subsystem_name(const struct maint_cc *cc,
			    const struct maint_entry *e)
{
	const char *name = entry_line(e);
	size_t max = cc->dialect != MAINT_DIALECT_KERNEL ?
		QEMU_SECTION_MAXLEN : SECTION_MAXLEN;
	char *s, *r, *w;

	if (strlen(name) <= max)
		return g_strdup(name);
	s = g_strndup(name, max - 3);
	g_strchomp(s);
	w = s;
	for (const char *p = s; *p; p++)
		if (cc->dialect != MAINT_DIALECT_QEMU || (*p != '(' &&
							  *p != ')'))
			*w++ = *p;
	*w = '\0';
	r = g_strconcat(s, "...", NULL);
	g_free(s);
	return r;
}

/* get_maintainer_role() */
static char *maintainer_role(const struct maint_cc *cc,
			     const struct maint_entry *e)
{
	const char *status = "unknown";
	char *role, *sub, *r;
	static const char *const map[][2] = {
		{ "supported", "supporter" },
		{ "maintained", "maintainer" },
		{ "odd fixes", "odd fixer" },
		{ "orphan", "orphan minder" },
		{ "obsolete", "obsolete minder" },
		{ "buried alive in reporters", "chief penguin" },
	};

	for (size_t i = 0; i < e->nr_fields; i++)
		if (e->fields[i].key == 'S')
			status = e->fields[i].value;
	role = g_ascii_strdown(status, -1);
	for (size_t i = 0; i < G_N_ELEMENTS(map); i++) {
		if (!strcmp(role, map[i][0])) {
			g_free(role);
			role = g_strdup(map[i][1]);
			break;
		}
	}
	sub = subsystem_name(cc, e);
	r = g_strdup_printf("%s:%s", role, sub);
	g_free(role);
	g_free(sub);
	return r;
}

/* push_email_addresses() */
static void push_email_addresses(struct maint_cc *cc, const char *value,
				 const char *role, char kind,
				 const struct maint_entry *e,
				 const struct maint_field *f)
{
	char *s = mcc_rfc822_strip_comments(value);
	size_t len = strlen(s);

	if (g_regex_match_full(mcc_rx.rfc_valid, s, (gssize)len, 0, 0, NULL,
			       NULL)) {
		mcc_push_email_address(cc, value, role, kind, e);
	} else if (g_regex_match_full(mcc_rx.rfc_list, s, (gssize)len, 0, 0,
				      NULL, NULL)) {
		GMatchInfo *mi = NULL;

		g_regex_match_full(mcc_rx.rfc_each, s, (gssize)len, 0, 0, &mi,
				   NULL);
		while (g_match_info_matches(mi)) {
			char *one = mcc_group(mi, 1);

			/* "while (my $entry = shift(...))": stops at "" */
			if (!*one) {
				g_free(one);
				break;
			}
			mcc_push_email_address(cc, one, role, kind, e);
			g_free(one);
			g_match_info_next(mi, NULL);
		}
		g_match_info_free(mi);
	} else if (!mcc_push_email_address(cc, value, role, kind, e)) {
		ms_diags_add(cc->diags, f->file, f->line,
			     "invalid MAINTAINERS address '%s'", value);
	}
	g_free(s);
}

static void add_value(struct maint_cc *cc, int slot, const char *v)
{
	g_ptr_array_add(cc->values[slot], g_strdup(v));
}

/*
 * The value of M: or R: field `k` of `e` as pushed: QEMU's script names a
 * bare address by a P: field right above it ("P: Name", "M: addr").
 */
static char *person_value(const struct maint_cc *cc,
			  const struct maint_entry *e, size_t k)
{
	const struct maint_field *f = &e->fields[k];
	char *name, *address, *r;

	if (cc->dialect != MAINT_DIALECT_QEMU || k == 0 ||
	    e->fields[k - 1].key != 'P')
		return g_strdup(f->value);
	maint_cc_parse_email(f->value, &name, &address);
	r = *name ? g_strdup(f->value) :
		mcc_format_email(e->fields[k - 1].value, address,
				 cc->o.usename);
	g_free(name);
	g_free(address);
	return r;
}

/* An L: value as add_categories() splits it: Xen's script reads it as an
 * address first ("Team <list@x>" is list@x, "" when it has none). */
static char *list_value(const struct maint_cc *cc, const char *v)
{
	char *name, *address;

	if (cc->dialect != MAINT_DIALECT_XEN)
		return g_strdup(v);
	maint_cc_parse_email(v, &name, &address);
	g_free(name);
	return address;
}

/* add_categories() */
static void add_categories(struct maint_cc *cc, const struct maint_entry *e)
{
	if (!g_hash_table_contains(cc->entry_seen, e)) {
		g_hash_table_add(cc->entry_seen, (gpointer)e);
		g_ptr_array_add(cc->entries, (gpointer)e);
	}
	add_value(cc, 0, entry_line(e));
	for (size_t i = 0; i < e->nr_fields; i++) {
		const struct maint_field *f = &e->fields[i];

		if (f->key == 'L') {
			char *address, *additional, *lrole, *sub, *lc;
			GMatchInfo *mi = NULL;
			const char *kindname = NULL;

			sub = subsystem_name(cc, e);
			lrole = strcmp(sub, "THE REST") ?
				g_strconcat(":", sub, NULL) : g_strdup("");
			g_free(sub);
			char *lv = list_value(cc, f->value);

			if (mcc_match(mcc_rx.list_split, lv, strlen(lv), &mi)) {
				address = mcc_group(mi, 1);
				additional = mcc_group(mi, 2);
				g_match_info_free(mi);
			} else {
				address = g_strdup(lv);
				additional = g_strdup("");
			}
			g_free(lv);
			lc = g_ascii_strdown(address, -1);
			if (strstr(additional, "subscribers-only")) {
				if (cc->o.subscriber)
					kindname = "subscriber list";
			} else if (cc->o.list) {
				if (!strstr(additional, "moderated"))
					kindname = "open list";
				else if (cc->o.moderated)
					kindname = "moderated list";
			}
			if (kindname && !g_hash_table_contains(cc->list_seen,
							       lc)) {
				char *role = g_strconcat(kindname, lrole,
							 NULL);

				g_hash_table_add(cc->list_seen, lc);
				lc = NULL;
				mcc_push_item(cc->list_to, address, role, 'L', e);
				address = NULL;
				g_free(role);
			}
			g_free(lc);
			g_free(address);
			g_free(additional);
			g_free(lrole);
		} else if (f->key == 'M' && cc->o.maintainer) {
			char *role = maintainer_role(cc, e);
			char *v = person_value(cc, e, i);

			push_email_addresses(cc, v, role, 'M', e, f);
			g_free(role);
			g_free(v);
		} else if (f->key == 'R' && cc->o.reviewer) {
			char *sub = subsystem_name(cc, e);
			char *role = cc->dialect == MAINT_DIALECT_XEN ?
				g_strdup("reviewer") :
				g_strconcat("reviewer:", sub, NULL);
			char *v = person_value(cc, e, i);

			push_email_addresses(cc, v, role, 'R', e, f);
			g_free(role);
			g_free(sub);
			g_free(v);
		} else if (f->key == 'T') {
			add_value(cc, 2, f->value);
		} else if (f->key == 'W') {
			add_value(cc, 3, f->value);
		} else if (f->key == 'S') {
			add_value(cc, 1, f->value);
		}
	}
}

static int cmp_tv(const void *a, const void *b)
{
	char x[16], y[16];

	/* Perl's sort: the indexes compared as strings */
	g_snprintf(x, sizeof(x), "%u", *(const unsigned *)a);
	g_snprintf(y, sizeof(y), "%u", *(const unsigned *)b);
	return strcmp(x, y);
}

/* clean_file_emails() for one address */
static char *clean_file_email(struct maint_cc *cc, const char *raw)
{
	char *e = g_regex_replace(mcc_rx.file_clean, raw, -1, 0, "<\\1>", 0, NULL);
	char *name, *address, *r;
	char **nw;
	int nr = 0;

	maint_cc_parse_email(e, &name, &address);
	g_free(e);
	if (!strcmp(name, "\"[,\\.]\"")) {
		g_free(name);
		name = g_strdup("");
	}
	nw = g_regex_split(mcc_rx.file_split, name, 0);
	nr = (int)g_strv_length(nw);
	/* Perl's split drops trailing empty fields */
	while (nr > 0 && !*nw[nr - 1])
		nr--;
	if (nr > 2) {
		const char *first = nw[nr - 3], *middle = nw[nr - 2];
		const char *last = nw[nr - 1];
		size_t fl = strlen(first), ml = strlen(middle);

		g_free(name);
		if ((fl == 1 && g_ascii_isalpha(first[0])) ||
		    (fl == 2 && first[1] == '.') ||
		    ml == 1 || (ml == 2 && middle[1] == '.'))
			name = g_strdup_printf("%s %s %s", first, middle,
					       last);
		else
			name = g_strdup_printf("%s %s", middle, last);
	}
	g_strfreev(nw);
	{
		size_t n = strlen(name);

		if (n && strchr(",.", name[n - 1]))
			name[n - 1] = '\0';
		else if (n >= 2 && name[n - 1] == '"' &&
			 strchr(",.", name[n - 2])) {
			name[n - 2] = '"';
			name[n - 1] = '\0';
		}
		n = strlen(name);
		if (n && strchr(",.", name[0]))
			memmove(name, name + 1, n);
		else if (n >= 2 && name[0] == '"' && strchr(",.", name[1]))
			memmove(name + 1, name + 2, n - 1);
	}
	r = mcc_format_email(name, address, cc->o.usename);
	g_free(name);
	g_free(address);
	return r;
}

/* The addresses in a file's text (`len` bytes of `buf`), cleaned. */
static void scan_emails(struct maint_cc *cc, const char *buf, size_t len,
			GPtrArray *out)
{
	GMatchInfo *mi = NULL;

	g_regex_match_full(mcc_rx.file_addr, buf, (gssize)len, 0, 0, &mi, NULL);
	while (g_match_info_matches(mi)) {
		char *raw = mcc_group(mi, 0);

		g_ptr_array_add(out, clean_file_email(cc, raw));
		g_free(raw);
		g_match_info_next(mi, NULL);
	}
	g_match_info_free(mi);
}

/* maintainers_in_file(): addresses in .yaml (or any, --file-emails) files */
static void file_emails(struct maint_cc *cc, const char *file, GPtrArray *out)
{
	char *buf;
	size_t len, flen = strlen(file);

	/* QEMU's and Xen's scripts read a path's addresses when it is
	 * given (maint_cc_add_path), a patch's files never */
	if (cc->dialect != MAINT_DIALECT_KERNEL)
		return;
	/* m@\bMAINTAINERS$@ */
	if (flen >= 11 && !strcmp(file + flen - 11, "MAINTAINERS") &&
	    (flen == 11 || (!g_ascii_isalnum(file[flen - 12]) &&
			    file[flen - 12] != '_')))
		return;
	if (!cc->o.file_emails && (flen < 5 || strcmp(file + flen - 5, ".yaml")))
		return;
	if (!ms_tree_has_file(cc->tree, file))
		return;
	if (ms_tree_read(cc->tree, file, &buf, &len) < 0) {
		ms_error_clear();
		return;
	}
	scan_emails(cc, buf, len, out);
	g_free(buf);
}

/*
 * The addresses found in files, "(in file)": the kernel's script reads
 * them from each file looked up, through the .mailmap; QEMU's from the
 * paths given, mcc_vcs_uniq()'d, as they are.
 */
static void push_file_emails(struct maint_cc *cc, GPtrArray *femails)
{
	/* QEMU's: the addresses of the paths, mcc_vcs_uniq()'d, and not mailmapped */
	for (guint i = 0; i < cc->path_emails->len; i++) {
		const char *e = cc->path_emails->pdata[i];
		bool seen = false;

		for (guint k = 0; k < femails->len && !seen; k++)
			seen = !strcmp(femails->pdata[k], e);
		if (!seen)
			g_ptr_array_add(femails, g_strdup(e));
	}
	if (cc->o.email) {
		for (guint i = 0; i < femails->len; i++) {
			char *mm = cc->dialect != MAINT_DIALECT_KERNEL ?
				g_strdup(femails->pdata[i]) :
				mcc_mailmap_email(cc, femails->pdata[i]);
			char *name, *address, *tmp;

			maint_cc_parse_email(mm, &name, &address);
			tmp = mcc_format_email(name, address, cc->o.usename);
			mcc_push_email_address(cc, tmp, "", 'F', NULL);
			mcc_add_role(cc, tmp, "in file");
			g_free(tmp);
			g_free(name);
			g_free(address);
			g_free(mm);
		}
	}
}

#define THE_REST_SUPPORTER "supporter:THE REST"

/*
 * Xen's rule: when no file is THE REST's alone (every file matched some
 * entry whose role is not THE REST's supporter) and some address has a
 * role other than THE REST's supporter and "reviewer", THE REST's
 * supporters are dropped.  Only with two addresses or more.
 */
static void drop_the_rest_supporters(struct maint_cc *cc)
{
	bool other = false;

	if (cc->email_to->len < 2)
		return;
	for (guint i = 0; i < cc->email_to->len && !other; i++) {
		const struct item *it = &g_array_index(cc->email_to,
						       struct item, i);

		other = strcmp(it->role, THE_REST_SUPPORTER) &&
			strcmp(it->role, "reviewer");
	}
	for (guint i = 0; other && i < cc->email_to->len;) {
		const struct item *it = &g_array_index(cc->email_to,
						       struct item, i);

		if (!strcmp(it->role, THE_REST_SUPPORTER))
			g_array_remove_index(cc->email_to, i);
		else
			i++;
	}
}

/*
 * get_maintainer.pl's %exact_pattern_match_hash: an F: of the entry
 * matches `file` at least as deep as the file lies, and the entry is
 * maintained (an S: saying maintain or support) and has an M:.
 */
static bool is_exact(const char *file, const struct maint_match *m)
{
	int file_pd = 0;
	bool maintained = false, has_m = false;

	for (const char *p = file; *p; p++)
		file_pd += *p == '/';
	if (m->f_depth < file_pd)
		return false;
	for (size_t i = 0; i < m->entry->nr_fields; i++) {
		const struct maint_field *f = &m->entry->fields[i];

		has_m = has_m || f->key == 'M';
		if (f->key == 'S' && !maintained) {
			char *lc = g_ascii_strdown(f->value, -1);

			maintained = strstr(lc, "maintain") ||
				     strstr(lc, "support");
			g_free(lc);
		}
	}
	return maintained && has_m;
}

/* The entries of each file, into the answer; whether some file is THE
 * REST's supporters' alone (or nobody's), for Xen's rule. */
static bool add_files(struct maint_cc *cc, GPtrArray *femails)
{
	bool rest_alone = false;

	for (guint i = 0; i < cc->files->len; i++) {
		const char *file = cc->files->pdata[i];
		struct maint_match local[64], *m = local;
		size_t n = maint_index_match_depth(cc->idx, file, local, 64);
		bool alone = true;

		if (n > 64) {
			m = g_new(struct maint_match, n);
			maint_index_match_depth(cc->idx, file, m, n);
		}
		for (size_t k = 0; k < n; k++) {
			char *role = maintainer_role(cc, m[k].entry);

			if (is_exact(file, &m[k]))
				g_hash_table_add(cc->exact, (char *)file);
			alone = alone && !strcmp(role, THE_REST_SUPPORTER);
			g_free(role);
			add_categories(cc, m[k].entry);
		}
		rest_alone = rest_alone || alone;
		if (m != local)
			g_free(m);
		file_emails(cc, file, femails);
	}
	return rest_alone;
}

void maint_cc_run(struct maint_cc *cc, struct ms_diags *diags)
{
	GPtrArray *femails = g_ptr_array_new_with_free_func(g_free);
	GHashTable *saw;

	cc->diags = diags;
	for (size_t i = 0; i < cc->nr_kw; i++)
		if (cc->kw[i].limit_hits)
			ms_diags_add(diags, cc->kw[i].field->file,
				     cc->kw[i].field->line, "K: pattern '%s' "
				     "is too costly to match (it hit the "
				     "regex match limit): taken as no match",
				     cc->kw[i].field->value);
	if (!add_files(cc, femails) && cc->o.drop_the_rest_supporter)
		drop_the_rest_supporters(cc);
	if (cc->o.keywords) {
		unsigned last = 0;

		g_array_sort(cc->keyword_tv, cmp_tv);
		for (guint i = 0; i < cc->keyword_tv->len; i++) {
			unsigned tv = g_array_index(cc->keyword_tv,
						    unsigned, i);
			struct keyword *kw;

			if (i && tv == last)
				continue;
			last = tv;
			kw = g_hash_table_lookup(cc->kw_by_tv,
						 GUINT_TO_POINTER(tv));
			if (kw)
				add_categories(cc, kw->entry);
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		GArray *a = pass ? cc->list_to : cc->email_to;

		for (guint i = 0; i < a->len; i++) {
			struct item *it = &g_array_index(a, struct item, i);
			char *d = mcc_deduplicate_email(cc, it->email);

			g_free(it->email);
			it->email = d;
		}
	}
	mcc_git_signers(cc);
	for (guint c = 0; cc->o.email && c < cc->chiefs->len; c++) {
		const char *spec = cc->chiefs->pdata[c];
		const char *colon = strrchr(spec, ':');
		char *cname = colon ? g_strndup(spec, (gsize)(colon - spec)) :
			g_strdup("");
		char *chief = colon ? mcc_format_email(cname, colon + 1,
						   cc->o.usename) : NULL;

		g_free(cname);
		if (!chief)
			continue;
		if (cc->o.chief_penguins) {
			mcc_push_item(cc->email_to, chief, "chief penguin", 'M',
				  NULL);
			chief = NULL;
		} else {
			GRegex *r = g_regex_new(chief, G_REGEX_RAW, 0, NULL);

			for (guint i = 0; r && i < cc->email_to->len;) {
				struct item *it = &g_array_index(
					cc->email_to, struct item, i);

				if (g_regex_match(r, it->email, 0, NULL))
					g_array_remove_index(cc->email_to, i);
				else
					i++;
			}
			g_clear_pointer(&r, g_regex_unref);
		}
		g_free(chief);
	}
	push_file_emails(cc, femails);
	g_ptr_array_free(femails, TRUE);
	mcc_fixes_signers(cc);

	/* merge_email(): the first of each printed address */
	saw = g_hash_table_new(g_str_hash, g_str_equal);
	for (int pass = 0; pass < 2; pass++) {
		GArray *a = pass ? cc->list_to : cc->email_to;

		if (pass == 0 && !cc->o.email)
			continue;
		if (pass == 1 && !cc->o.list)
			continue;
		for (guint i = 0; i < a->len; i++) {
			struct item *it = &g_array_index(a, struct item, i);
			struct maint_cc_line l;

			if (g_hash_table_contains(saw, it->email))
				continue;
			g_hash_table_add(saw, it->email);
			l.email = g_strdup(it->email);
			maint_cc_parse_email(it->email, &l.name, &l.address);
			l.role = g_strdup(it->role);
			l.kind = it->kind;
			l.entry = it->entry;
			g_array_append_val(cc->lines, l);
		}
	}
	g_hash_table_destroy(saw);
	/* mcc_vcs_uniq() of the --subsystem, --status, --scm and --web values */
	for (int i = 0; i < 4; i++) {
		GPtrArray *v = cc->values[i];
		GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
		guint n = 0;

		for (guint k = 0; k < v->len; k++) {
			if (g_hash_table_contains(seen, v->pdata[k])) {
				g_free(v->pdata[k]);
				continue;
			}
			g_hash_table_add(seen, v->pdata[k]);
			v->pdata[n++] = v->pdata[k];
		}
		g_ptr_array_set_free_func(v, NULL);
		g_ptr_array_set_size(v, n);
		g_ptr_array_set_free_func(v, g_free);
		g_hash_table_destroy(seen);
	}
	cc->diags = NULL;
}

size_t maint_cc_nr_lines(const struct maint_cc *cc)
{
	return cc->lines->len;
}

const struct maint_cc_line *maint_cc_line(const struct maint_cc *cc,
					  size_t i)
{
	return &g_array_index(cc->lines, struct maint_cc_line, i);
}

size_t maint_cc_nr_files(const struct maint_cc *cc)
{
	return cc->files->len;
}

const char *maint_cc_file(const struct maint_cc *cc, size_t i)
{
	return cc->files->pdata[i];
}

static int value_slot(char what)
{
	switch (what) {
	case 'N': return 0;
	case 'S': return 1;
	case 'T': return 2;
	default: return 3;
	}
}

size_t maint_cc_nr_values(const struct maint_cc *cc, char what)
{
	return cc->values[value_slot(what)]->len;
}

const char *maint_cc_value(const struct maint_cc *cc, char what, size_t i)
{
	return cc->values[value_slot(what)]->pdata[i];
}

size_t maint_cc_nr_entries(const struct maint_cc *cc)
{
	return cc->entries->len;
}

const struct maint_entry *maint_cc_entry(const struct maint_cc *cc, size_t i)
{
	return cc->entries->pdata[i];
}

bool maint_cc_line_listed(const struct maint_cc_line *l)
{
	return l->kind == 'M' || l->kind == 'R';
}
