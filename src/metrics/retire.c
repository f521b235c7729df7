/*
 * retire.c - writing the retire series: MAINTAINERS and CREDITS edited
 * patch after patch.
 */
#include "retire.h"
#include "activity.h"
#include "credits.h"
#include "diff.h"
#include "maintainers.h"
#include "person.h"

#include <stdlib.h>
#include <string.h>

char *retire_patch_name(size_t nr, const char *subject)
{
	GString *s = g_string_new(NULL);
	char *name;
	bool dash = false;

	for (const char *p = subject; *p && s->len < 52; p++) {
		unsigned char c = (unsigned char)*p;

		if (g_ascii_isalnum(c) || c == '.' || c == '_') {
			if (dash && s->len)
				g_string_append_c(s, '-');
			dash = false;
			g_string_append_c(s, (char)c);
		} else {
			dash = true;
		}
	}
	while (s->len && (s->str[s->len - 1] == '.' ||
			  s->str[s->len - 1] == '-'))
		g_string_truncate(s, s->len - 1);
	if (!s->len)
		g_string_append(s, "patch");
	name = g_strdup_printf("%04zu-%s.patch", nr, nr ? s->str :
			       "cover-letter");
	g_string_free(s, TRUE);
	return name;
}

char *retire_wrap(const char *text, size_t width)
{
	GString *out = g_string_new(NULL);
	char **paras = g_strsplit(text, "\n\n", -1);

	for (char **p = paras; *p; p++) {
		char **words = g_strsplit_set(*p, " \n", -1);
		size_t col = 0;

		if (p != paras)
			g_string_append(out, "\n\n");
		for (char **w = words; *w; w++) {
			size_t n = g_utf8_strlen(*w, -1);

			if (!n)
				continue;
			if (col && col + 1 + n > width) {
				g_string_append_c(out, '\n');
				col = 0;
			} else if (col) {
				g_string_append_c(out, ' ');
				col++;
			}
			g_string_append(out, *w);
			col += n;
		}
		g_strfreev(words);
	}
	g_strfreev(paras);
	return g_string_free(out, FALSE);
}

/* Words that join a name's parts: a name cut after one reads cut off. */
static bool joining_word(const char *w, size_t n)
{
	static const char *const words[] = { "and", "or", "for", "of", "the",
		"with", "to", "in", "on", "&", NULL };

	for (const char *const *j = words; *j; j++)
		if (strlen(*j) == n && !g_ascii_strncasecmp(w, *j, n))
			return true;
	return false;
}

/*
 * A name of more than 40 characters cut to at most 40: before its first
 * joining word past the 20th character ("LIBIBUMAD USERSPACE LIBRARY
 * FOR SMP AND GMP MAD PROCESSING" -> "LIBIBUMAD USERSPACE LIBRARY"), else
 * at its last space past the 20th.
 */
static void cut_name(GString *s)
{
	char *end = g_utf8_offset_to_pointer(s->str, 40);
	char *space;

	for (char *p = s->str + 20; p < end; p++) {
		size_t n = strcspn(p + 1, " ");

		if (*p == ' ' && joining_word(p + 1, n)) {
			g_string_truncate(s, (gsize)(p - s->str));
			return;
		}
	}
	*end = '\0';
	space = strrchr(s->str, ' ');
	if (space && space - s->str > 20)
		*space = '\0';
	g_string_set_size(s, strlen(s->str));
}

char *retire_short_name(const char *entry)
{
	GString *s = g_string_new(NULL);
	int depth = 0;

	/* "ARM/Allwinner sunXi SoC support (xyz)": drop parentheses */
	for (const char *p = entry; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (!depth)
			g_string_append_c(s, *p);
	}
	g_strstrip(s->str);
	g_string_set_size(s, strlen(s->str));
	if (!s->len)
		g_string_assign(s, entry);
	if (g_utf8_strlen(s->str, -1) > 40)
		cut_name(s);
	return g_string_free(s, FALSE);
}

static char *norm(const char *email, bool fold)
{
	return email ? ms_email_normalize(email, fold) : NULL;
}

static const char *display(const struct retire_person *p)
{
	return p->name && *p->name ? p->name : p->email;
}

/* Does any M:/R: line of `mf` name this address? */
static bool still_listed(const struct maint_file *mf, const char *email,
			 bool fold)
{
	bool found = false;

	for (size_t i = 0; i < maint_file_nr_entries(mf) && !found; i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t k = 0; k < e->nr_fields && !found; k++) {
			char *n, *m, *x;

			if (e->fields[k].key != 'M' && e->fields[k].key != 'R')
				continue;
			maint_parse_person(e->fields[k].value, &n, &m);
			x = norm(m, fold);
			found = x && !strcmp(x, email);
			g_free(n);
			g_free(m);
			g_free(x);
		}
	}
	return found;
}

static const struct maint_field *find_field(const struct maint_entry *e,
					    const struct retire_person *p,
					    bool fold)
{
	char *want = norm(p->email, fold);
	const struct maint_field *f = NULL;

	for (size_t k = 0; k < e->nr_fields && !f; k++) {
		char *n, *m, *x;

		if (e->fields[k].key != p->role)
			continue;
		maint_parse_person(e->fields[k].value, &n, &m);
		x = norm(m, fold);
		if (want ? (x && !strcmp(x, want)) :
		    (n && p->name && !strcmp(n, p->name)))
			f = &e->fields[k];
		g_free(n);
		g_free(m);
		g_free(x);
	}
	g_free(want);
	return f;
}

/* "A", "A and B", "A, B and C" */
static void append_names(GString *s, GPtrArray *names)
{
	for (guint i = 0; i < names->len; i++) {
		if (i)
			g_string_append(s, i + 1 == names->len ? " and " :
					", ");
		g_string_append(s, names->pdata[i]);
	}
}

/* The names' last words: "Ann Example" -> "Example". */
static GPtrArray *surnames(GPtrArray *names)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < names->len; i++) {
		const char *n = names->pdata[i];
		const char *sp = strrchr(n, ' ');

		g_ptr_array_add(out, g_strdup(sp && sp[1] && !strchr(n, '@') ?
					      sp + 1 : n));
	}
	return out;
}

char *retire_file_tag(const char *path)
{
	char **parts = g_strsplit(path, "/", -1);
	guint n = g_strv_length(parts);
	GString *s = g_string_new(NULL);

	if (n > 1 && !strcmp(parts[n - 1], "MAINTAINERS"))
		n--;
	for (guint i = 0; i < n; i++) {
		if (!*parts[i])
			continue;
		if (s->len)
			g_string_append(s, ": ");
		g_string_append(s, parts[i]);
	}
	g_strfreev(parts);
	return g_string_free(s, FALSE);
}

/* Not the top-level MAINTAINERS: a board's or a directory's. */
static bool is_sub_file(const char *path)
{
	return strchr(path, '/') != NULL;
}

/*
 * "TAG: NAME: remove A, remove B from reviewers"; no "NAME: " when `name`
 * is empty; in another file than the top-level one, whose tag does not
 * say MAINTAINERS, "remove A from MAINTAINERS".
 */
static void subject_form(GString *subj, const char *tag, const char *name,
			 bool sub, GPtrArray *moved, GPtrArray *removed,
			 GPtrArray *reviewers)
{
	g_string_printf(subj, "%s: ", tag);
	if (*name)
		g_string_append_printf(subj, "%s: ", name);
	if (moved->len) {
		g_string_append(subj, "move ");
		append_names(subj, moved);
		g_string_append(subj, " to CREDITS");
	}
	if (removed->len) {
		g_string_append(subj, moved->len ? ", remove " : "remove ");
		append_names(subj, removed);
		if (sub)
			g_string_append(subj, " from MAINTAINERS");
	}
	if (reviewers->len) {
		g_string_append(subj, moved->len || removed->len ?
				", remove " : "remove ");
		append_names(subj, reviewers);
		g_string_append(subj, " from reviewers");
	}
}

#define SUBJECT_MAX 75

/*
 * The subject within SUBJECT_MAX characters: full names, else surnames
 * (in another file than the top-level one, first with " from
 * MAINTAINERS", then without), else a count, else the entry's name cut.
 */
static void fit_subject(GString *subj, const char *tag,
			const char *short_name, bool sub, GPtrArray *moved,
			GPtrArray *removed, GPtrArray *reviewers)
{
	GPtrArray *m = surnames(moved), *r = surnames(removed),
		  *v = surnames(reviewers);
	size_t n = moved->len + removed->len + reviewers->len;
	bool fits = false;
	char *name, *tail;

	for (int suffix = 1; suffix >= (sub ? 0 : 1) && !fits; suffix--) {
		subject_form(subj, tag, short_name, sub && suffix, moved,
			     removed, reviewers);
		fits = g_utf8_strlen(subj->str, -1) <= SUBJECT_MAX;
		if (!fits) {
			subject_form(subj, tag, short_name, sub && suffix, m,
				     r, v);
			fits = g_utf8_strlen(subj->str, -1) <= SUBJECT_MAX;
		}
	}
	g_ptr_array_free(m, TRUE);
	g_ptr_array_free(r, TRUE);
	g_ptr_array_free(v, TRUE);
	if (fits)
		return;
	tail = g_strdup_printf("retire %zu inactive %s", n,
			       n == 1 ? "person" : "people");
	name = retire_subject(tag, short_name, tail);
	g_string_assign(subj, name);
	g_free(name);
	g_free(tail);
}

char *retire_subject(const char *tag, const char *name, const char *tail)
{
	char *n = g_strdup(name);
	GString *s = g_string_new(NULL);

	for (;;) {
		char *space;

		g_string_printf(s, "%s: ", tag);
		if (*n)
			g_string_append_printf(s, "%s: ", n);
		g_string_append(s, tail);
		if (g_utf8_strlen(s->str, -1) <= SUBJECT_MAX || !*n)
			break;
		/* its last word off, or a lone word's last character */
		space = strrchr(n, ' ');
		if (space)
			*space = '\0';
		else
			*g_utf8_offset_to_pointer(n, g_utf8_strlen(n, -1) - 1)
				= '\0';
		g_strchomp(n);
	}
	g_free(n);
	return g_string_free(s, FALSE);
}

/*
 * Add "[name] <address>" to `ccs` unless the address, in lowercase and
 * with user+tag folded when `fold`, is in `seen`.
 */
static void add_cc(GArray *ccs, GHashTable *seen, const char *name,
		   const char *address, const struct retire_person *who,
		   enum retire_cc_kind kind, bool fold)
{
	struct retire_cc cc = { 0 };
	char *key = norm(address, fold);

	if (g_hash_table_contains(seen, key)) {
		g_free(key);
		return;
	}
	g_hash_table_add(seen, key);
	cc.line = ms_person_format(name, address);
	cc.address = g_strdup(address);
	cc.who = who;
	cc.kind = kind;
	g_array_append_val(ccs, cc);
}

/*
 * Add the addresses of entry `e`'s `key` fields ('L', or the M: and R:
 * not in `drop`) to `ccs`, as `kind`.
 */
static void add_fields(GArray *ccs, GHashTable *seen,
		       const struct maint_entry *e, const char *keys,
		       GHashTable *drop, enum retire_cc_kind kind, bool fold)
{
	for (size_t k = 0; k < e->nr_fields; k++) {
		const struct maint_field *f = &e->fields[k];
		char *name = NULL, *email = NULL;

		if (!strchr(keys, f->key) ||
		    g_hash_table_contains(drop, GUINT_TO_POINTER(f->line)))
			continue;
		maint_parse_person(f->value, &name, &email);
		if (email && *email)
			add_cc(ccs, seen, f->key == 'L' ? NULL : name, email,
			       NULL, kind, fold);
		g_free(name);
		g_free(email);
	}
}

/*
 * The Cc: lines of a patch: the people it removes (at the listed address,
 * and at the one they used last when it is another), the M: and R: people
 * the entry keeps (they ack or apply it), and the entry's lists.  Their
 * addresses are added to `seen`.
 */
static GArray *patch_cc(const struct maint_entry *e, GPtrArray *found,
			GHashTable *drop, GHashTable *seen, bool fold)
{
	GArray *ccs = g_array_new(FALSE, TRUE, sizeof(struct retire_cc));

	for (guint k = 0; k < found->len; k++) {
		const struct retire_person *rp = found->pdata[k];

		if (rp->email)
			add_cc(ccs, seen, rp->name, rp->email, rp,
			       RETIRE_CC_LISTED, fold);
		/* a no-op when it is the listed one, as the model compares
		 * addresses */
		if (rp->last_email && *rp->last_email)
			add_cc(ccs, seen, rp->name, rp->last_email, rp,
			       RETIRE_CC_LAST_USED, fold);
	}
	add_fields(ccs, seen, e, "MR", drop, RETIRE_CC_REMAINING, fold);
	add_fields(ccs, seen, e, "L", drop, RETIRE_CC_LIST, fold);
	return ccs;
}

/* The To: header of plan `pl`'s patch: its `to` not in `seen`. */
static GArray *patch_to(const struct retire_plan *pl, GHashTable *seen,
			bool fold)
{
	GArray *to = g_array_new(FALSE, TRUE, sizeof(struct retire_cc));

	for (size_t k = 0; k < pl->nr_to; k++) {
		const struct retire_to *t = &pl->to[k];
		struct retire_cc cc = { 0 };
		char *key;

		if (!t->address || !*t->address)
			continue;
		key = norm(t->address, fold);
		if (g_hash_table_contains(seen, key)) {
			g_free(key);
			continue;
		}
		g_hash_table_add(seen, key);
		cc.line = g_strdup(t->line && *t->line ? t->line :
				   t->address);
		cc.address = g_strdup(t->address);
		cc.kind = t->kind == 'L' ? RETIRE_TO_LIST :
			  t->kind == 'R' ? RETIRE_TO_REVIEWER :
			  RETIRE_TO_MAINTAINER;
		g_array_append_val(to, cc);
	}
	return to;
}

static void cc_free(struct retire_cc *cc, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		g_free(cc[i].line);
		g_free(cc[i].address);
	}
	g_free(cc);
}

static void cc_array_free(GArray *a)
{
	size_t n;

	if (!a)
		return;
	n = a->len;
	cc_free((struct retire_cc *)(void *)g_array_free(a, FALSE), n);
}

/*
 * Rewrite `text` without the lines in `drop` (1-based line numbers, in a
 * hash set), with entry `e`'s S: set to Orphan when `orphan`.
 */
static char *edit_text(const char *text, GHashTable *drop,
		       const struct maint_entry *e, bool orphan)
{
	GString *out = g_string_new(NULL);
	unsigned line = 0, last_kept_people = e->line, s_line = 0;
	size_t pos = 0, len = strlen(text);

	for (size_t k = 0; k < e->nr_fields; k++) {
		const struct maint_field *f = &e->fields[k];

		if (f->key == 'S' && !s_line)
			s_line = f->line;
		if (strchr("MRL", f->key) &&
		    !g_hash_table_contains(drop, GUINT_TO_POINTER(f->line)))
			last_kept_people = f->line;
	}
	while (pos < len) {
		const char *l = text + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) + 1 : len - pos;

		line++;
		pos += n;
		if (g_hash_table_contains(drop, GUINT_TO_POINTER(line)))
			continue;
		if (orphan && line == s_line) {
			g_string_append(out, "S:\tOrphan\n");
			continue;
		}
		g_string_append_len(out, l, (gssize)n);
		if (orphan && !s_line && line == last_kept_people)
			g_string_append(out, "S:\tOrphan\n");
	}
	return g_string_free(out, FALSE);
}

static void patch_free(struct retire_patch *p)
{
	g_free(p->file_name);
	g_free(p->subject);
	g_free(p->people);
	cc_free(p->cc, p->nr_cc);
	cc_free(p->to, p->nr_to);
	if (p->text)
		g_string_free(p->text, TRUE);
}

void retire_series_free(struct retire_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		patch_free(&s->patches[i]);
	g_free(s->patches);
	for (size_t i = 0; i < s->nr_files; i++)
		g_free(s->files[i].text);
	g_free(s->files);
	g_free(s->credits);
	g_free(s);
}

const char *retire_series_text(const struct retire_series *s,
			       const char *path)
{
	for (size_t i = 0; i < s->nr_files; i++)
		if (!strcmp(s->files[i].path, path))
			return s->files[i].text;
	return NULL;
}

struct pending {
	const char *entry;
	const char *path;         /* the file it edits */
	char *subject;
	char *body;
	char *old_m, *new_m, *old_c, *new_c;
	bool credits_changed, orphaned;
	GPtrArray *people;        /* struct retire_person *, borrowed */
	GArray *cc, *to;          /* struct retire_cc, or NULL once given
				   * to the patch */
};

static void pending_free(gpointer p)
{
	struct pending *x = p;

	if (x->people)
		g_ptr_array_free(x->people, TRUE);
	cc_array_free(x->cc);
	cc_array_free(x->to);
	g_free(x->subject);
	g_free(x->body);
	g_free(x->old_m);
	g_free(x->new_m);
	g_free(x->old_c);
	g_free(x->new_c);
	g_free(x);
}

/*
 * Every file of `files` as the texts `cur` have it, file `which` as
 * `text`: whether someone is still listed anywhere.
 */
static struct maint_file *parse_all(const struct retire_text *files,
				    char **cur, size_t nr, size_t which,
				    const char *text)
{
	struct maint_file *mf = maint_file_new();
	struct ms_diags ignore = MS_DIAGS_INIT;

	for (size_t i = 0; i < nr; i++) {
		const char *t = i == which ? text : cur[i];

		maint_file_parse(mf, files[i].path, t, strlen(t), &ignore);
	}
	ms_diags_release(&ignore);
	return mf;
}

/*
 * Sort the people `found` in entry `entry` (as CREDITS names it) into
 * reviewers, maintainers moved to CREDITS (*new_c edited; none still
 * listed elsewhere in `after`) and maintainers only removed.  `left`
 * collects, per address, every entry a maintainer left so far in the
 * series.
 */
static void sort_people(GPtrArray *found, const char *entry,
			const struct maint_file *after, GHashTable *left,
			bool plus_fold, char **new_c, struct pending *p,
			GPtrArray *moved, GPtrArray *removed,
			GPtrArray *reviewers)
{
	for (guint k = 0; k < found->len; k++) {
		const struct retire_person *rp = found->pdata[k];
		char *key = norm(rp->email, plus_fold);
		GPtrArray *entries;

		if (rp->role == 'R') {
			g_ptr_array_add(reviewers,
					(gpointer)display(rp));
			g_free(key);
			continue;
		}
		if (!key || !*new_c) {
			g_ptr_array_add(removed, (gpointer)display(rp));
			g_free(key);
			continue;
		}
		entries = g_hash_table_lookup(left, key);
		if (!entries) {
			entries = g_ptr_array_new_with_free_func(
				g_free);
			g_hash_table_insert(left, g_strdup(key),
					    entries);
		}
		if (!g_ptr_array_find_with_equal_func(entries, entry,
						       g_str_equal, NULL))
			g_ptr_array_add(entries, g_strdup(entry));
		if (still_listed(after, key, plus_fold)) {
			g_ptr_array_add(removed, (gpointer)display(rp));
		} else {
			for (guint d = 0; d < entries->len; d++) {
				char *c = credits_add(
					*new_c, display(rp), rp->email,
					rp->also, entries->pdata[d]);

				g_free(*new_c);
				*new_c = c;
			}
			g_ptr_array_add(moved, (gpointer)display(rp));
			p->credits_changed = true;
		}
		g_free(key);
	}

}

/*
 * The commit message of the patch for plan `pl` after its subject, with
 * the Cc: lines `ccs`.
 */
static char *commit_body(const struct retire_plan *pl, const char *path,
			 GPtrArray *found, const struct pending *p,
			 GPtrArray *moved, GArray *ccs,
			 const struct retire_opts *opts)
{
	GString *body;
	char *where = is_sub_file(path) ? g_strdup_printf(" in %s", path) :
		      g_strdup("");

	body = g_string_new(NULL);
	for (guint k = 0; k < found->len; k++) {
		const struct retire_person *rp = found->pdata[k];

		g_string_append_printf(body, "%s%s, listed as %s of "
				       "%s%s, has %s.", k ? " " : "",
				       display(rp),
				       rp->role == 'M' ? "maintainer" :
				       "reviewer", pl->entry, where,
				       rp->why ? rp->why :
				       "been inactive");
		for (guint c = 0; c < ccs->len; c++) {
			const struct retire_cc *cc =
				&g_array_index(ccs, struct retire_cc, c);
			char date[32];

			if (cc->who != rp || cc->kind != RETIRE_CC_LAST_USED)
				continue;
			ms_act_format(rp->last_time, 0, false, true, date);
			g_string_append_printf(body, " %s is also Cc'd at %s, "
					       "the address last used on %s",
					       display(rp), cc->address, date);
			if (rp->last_commit && *rp->last_commit)
				g_string_append_printf(body, " (commit %.12s)",
						       rp->last_commit);
			g_string_append_c(body, '.');
		}
	}
	g_free(where);
	if (p->orphaned)
		g_string_append(body, " No maintainer remains, so the "
				"entry becomes Orphan.");
	if (moved->len)
		g_string_append(body, " Thank you for your work; "
				"CREDITS keeps it on record.");
	{
		char *w = retire_wrap(body->str, 72);

		g_string_assign(body, w);
		g_free(w);
	}
	g_string_append(body, "\n\n");
	if (pl->report && *pl->report) {
		g_string_append(body, pl->report);
		if (body->str[body->len - 1] != '\n')
			g_string_append_c(body, '\n');
		g_string_append_c(body, '\n');
	}
	for (guint c = 0; c < ccs->len; c++)
		g_string_append_printf(body, "Cc: %s\n", g_array_index(
			ccs, struct retire_cc, c).line);
	g_string_append_printf(body, "Signed-off-by: %s\n", opts->from);
	return g_string_free(body, FALSE);
}

static int cmp_patch_file(const void *a, const void *b)
{
	return strcmp(((const struct ms_patch_file *)a)->path,
		      ((const struct ms_patch_file *)b)->path);
}

/* The cover letter: the subjects of `pend` and the diffstat of the
 * whole series (the files `cur` changed, in path order, as git). */
static int format_cover(struct retire_patch *rp, struct ms_patch *mp,
			GPtrArray *pend, const struct retire_text *files,
			size_t nr_files, char **cur, const char *credits,
			const char *cur_c, const struct retire_opts *opts)
{
	GString *b = g_string_new(opts->cover_intro ? opts->cover_intro : "");
	GArray *pf = g_array_new(FALSE, TRUE, sizeof(struct ms_patch_file));
	int rc;

	if (b->len && b->str[b->len - 1] != '\n')
		g_string_append_c(b, '\n');
	g_string_append(b, "\n");
	for (size_t k = 0; k < pend->len; k++) {
		struct pending *p = pend->pdata[k];

		g_string_append_printf(b, "  %s\n", p->subject);
	}
	if (cur_c) {
		struct ms_patch_file f = { "CREDITS", credits ? credits : "",
					   cur_c };

		g_array_append_val(pf, f);
	}
	for (size_t i = 0; i < nr_files; i++) {
		struct ms_patch_file f = { files[i].path, files[i].text,
					   cur[i] };

		if (strcmp(f.old, f.new))
			g_array_append_val(pf, f);
	}
	g_array_sort(pf, cmp_patch_file);
	rp->subject = g_strdup("MAINTAINERS: retire inactive maintainers "
			       "and reviewers");
	mp->subject = rp->subject;
	mp->body = b->str;
	mp->files = (const struct ms_patch_file *)(void *)pf->data;
	mp->nr_files = pf->len;
	mp->stat_only = true;
	rp->text = g_string_new(NULL);
	rc = ms_format_patch(mp, rp->text);
	g_string_free(b, TRUE);
	g_array_free(pf, TRUE);
	return rc;
}

/* The patch of `p`: its files in path order, its To: header. */
static int format_one(struct retire_patch *rp, struct ms_patch *mp,
		      struct pending *p)
{
	struct ms_patch_file files[2];
	const char **to;
	size_t nf = 0;
	int rc;

	if (p->credits_changed)
		files[nf++] = (struct ms_patch_file){ "CREDITS", p->old_c,
						      p->new_c };
	files[nf++] = (struct ms_patch_file){ p->path, p->old_m, p->new_m };
	qsort(files, nf, sizeof(files[0]), cmp_patch_file);
	mp->files = files;
	mp->nr_files = nf;
	rp->entry = p->entry;
	rp->path = p->path;
	rp->subject = g_strdup(p->subject);
	mp->subject = rp->subject;
	mp->body = p->body;
	rp->credits_changed = p->credits_changed;
	rp->orphaned = p->orphaned;
	rp->nr_people = p->people->len;
	rp->people = (const struct retire_person **)
		g_ptr_array_free(p->people, FALSE);
	p->people = NULL;
	rp->nr_cc = p->cc->len;
	rp->cc = (struct retire_cc *)(void *)g_array_free(p->cc, FALSE);
	p->cc = NULL;
	rp->nr_to = p->to->len;
	rp->to = (struct retire_cc *)(void *)g_array_free(p->to, FALSE);
	p->to = NULL;
	to = g_new0(const char *, rp->nr_to + 1);
	for (size_t k = 0; k < rp->nr_to; k++)
		to[k] = rp->to[k].line;
	mp->to = to;
	mp->nr_to = rp->nr_to;
	rp->text = g_string_new(NULL);
	rc = ms_format_patch(mp, rp->text);
	g_free(to);
	return rc;
}

/* The cover letter, then one patch per entry of `pend`, into `s`. */
static int format_series(struct retire_series *s, GPtrArray *pend,
			 const struct retire_text *files, size_t nr_files,
			 char **cur, const char *credits, const char *cur_c,
			 const struct retire_opts *opts)
{
	int rc = 0;

	s->nr = pend->len + 1;
	s->patches = g_new0(struct retire_patch, s->nr);
	for (size_t i = 0; i <= pend->len && rc == 0; i++) {
		struct retire_patch *rp = &s->patches[i];
		struct ms_patch mp = { 0 };

		mp.from = opts->from;
		mp.date = opts->date;
		mp.date_offset = opts->date_offset;
		mp.nr = (unsigned)i;
		mp.total = (unsigned)pend->len;
		if (i == 0)
			rc = format_cover(rp, &mp, pend, files, nr_files, cur,
					  credits, cur_c, opts);
		else
			rc = format_one(rp, &mp, pend->pdata[i - 1]);
		rp->file_name = retire_patch_name(i, rp->subject);
	}
	return rc;
}

/* The `nth` entry called `name` of `mf` (0: the first), or NULL. */
static const struct maint_entry *find_nth(const struct maint_file *mf,
					  const char *name, unsigned nth)
{
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		if (!strcmp(e->name, name) && nth-- == 0)
			return e;
	}
	return NULL;
}

static size_t find_text(const struct retire_text *files, size_t nr,
			const char *path)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(files[i].path, path))
			return i;
	return nr;
}

/* What retire_build() keeps from plan to plan. */
struct build {
	const struct retire_text *files;
	size_t nr_files;
	char **cur;               /* each file as the series leaves it */
	char *cur_c;              /* CREDITS so (NULL: no_credits) */
	GHashTable *left;         /* address -> entries left (char *) */
	GPtrArray *pend;          /* struct pending */
	const struct retire_opts *opts;
};

/* The patch of plan `pl` onto `b`, or a diagnostic why there is none. */
static void plan_patch(struct build *b, const struct retire_plan *pl,
		       struct ms_diags *diags)
{
	const char *path = pl->path ? pl->path : "MAINTAINERS";
	size_t fi = find_text(b->files, b->nr_files, path);
	struct maint_file *mf = NULL, *after = NULL;
	const struct maint_entry *e;
	GHashTable *drop = g_hash_table_new(g_direct_hash, g_direct_equal);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	GPtrArray *moved = g_ptr_array_new();
	GPtrArray *removed = g_ptr_array_new();
	GPtrArray *reviewers = g_ptr_array_new();
	GPtrArray *found = g_ptr_array_new();
	struct ms_diags ignore = MS_DIAGS_INIT;
	bool plus_fold = b->opts->plus_fold;
	size_t had_m = 0, kept_m = 0, kept_r = 0;
	struct pending *p;
	char *new_m, *new_c = b->cur_c ? g_strdup(b->cur_c) : NULL;
	char *short_name, *tag, *credit;
	GString *subj;

	if (fi == b->nr_files) {
		ms_diags_add(diags, pl->where, pl->line, "no file '%s' to "
			     "edit for entry '%s': skipped", path, pl->entry);
		goto done;
	}
	mf = maint_file_new();
	maint_file_parse(mf, path, b->cur[fi], strlen(b->cur[fi]), &ignore);
	e = find_nth(mf, pl->entry, pl->nth);
	if (!e) {
		ms_diags_add(diags, pl->where, pl->line, "no entry '%s' in "
			     "%s: skipped", pl->entry, path);
		goto done;
	}
	for (size_t k = 0; k < pl->nr_people; k++) {
		const struct maint_field *f =
			find_field(e, &pl->people[k], plus_fold);

		if (!f) {
			ms_diags_add(diags, pl->where, pl->line, "entry '%s' "
				     "has no %c: line for '%s': skipped",
				     pl->entry, pl->people[k].role,
				     display(&pl->people[k]));
			continue;
		}
		g_hash_table_add(drop, GUINT_TO_POINTER(f->line));
		g_ptr_array_add(found, &pl->people[k]);
	}
	if (!found->len)
		goto done;
	for (size_t k = 0; k < e->nr_fields; k++) {
		char key = e->fields[k].key;

		if (key != 'M' && key != 'R')
			continue;
		had_m += key == 'M';
		if (!g_hash_table_contains(drop, GUINT_TO_POINTER(
			    e->fields[k].line)))
			key == 'M' ? kept_m++ : kept_r++;
	}
	p = g_new0(struct pending, 1);
	/* Orphan when the last maintainer leaves, or the last person of an
	 * entry that never had one: an entry of reviewers alone keeps its
	 * status while one of them stays */
	p->orphaned = !kept_m && (had_m || !kept_r);
	new_m = edit_text(b->cur[fi], drop, e, p->orphaned);

	/* who stays listed matters only to CREDITS */
	if (new_c)
		after = parse_all(b->files, b->cur, b->nr_files, fi, new_m);
	/* the D: line: U-Boot's boards of one name in several files are
	 * told apart by their directory */
	credit = is_sub_file(path) ? g_strdup_printf("%s (%.*s)", pl->entry,
		(int)(strrchr(path, '/') - path), path) : g_strdup(pl->entry);
	sort_people(found, credit, after, b->left, plus_fold, &new_c, p,
		    moved, removed, reviewers);
	g_free(credit);
	short_name = is_sub_file(path) && maint_file_nr_entries(mf) == 1 ?
		     g_strdup("") : retire_short_name(pl->entry);
	tag = retire_file_tag(path);
	subj = g_string_new(NULL);
	fit_subject(subj, tag, short_name, is_sub_file(path), moved, removed,
		    reviewers);
	p->cc = patch_cc(e, found, drop, seen, plus_fold);
	p->to = patch_to(pl, seen, plus_fold);
	p->body = commit_body(pl, path, found, p, moved, p->cc, b->opts);
	p->people = g_ptr_array_copy(found, NULL, NULL);
	p->entry = pl->entry;
	p->path = b->files[fi].path;
	p->subject = g_string_free(subj, FALSE);
	p->old_m = b->cur[fi];
	p->new_m = g_strdup(new_m);
	p->old_c = b->cur_c ? g_strdup(b->cur_c) : NULL;
	p->new_c = new_c ? g_strdup(new_c) : NULL;
	g_ptr_array_add(b->pend, p);
	b->cur[fi] = new_m;
	g_free(b->cur_c);
	b->cur_c = new_c;
	new_c = NULL;
	g_free(short_name);
	g_free(tag);
done:
	g_free(new_c);
	ms_diags_release(&ignore);
	g_ptr_array_free(found, TRUE);
	g_ptr_array_free(moved, TRUE);
	g_ptr_array_free(removed, TRUE);
	g_ptr_array_free(reviewers, TRUE);
	g_hash_table_destroy(drop);
	g_hash_table_destroy(seen);
	maint_file_free(after);
	maint_file_free(mf);
}

int retire_build(const struct retire_text *files, size_t nr_files,
		 const char *credits, const struct retire_plan *plans,
		 size_t nr_plans, const struct retire_opts *opts,
		 struct retire_series **out, struct ms_diags *diags)
{
	struct build b = { 0 };
	struct retire_series *s = g_new0(struct retire_series, 1);
	int rc;

	*out = NULL;
	b.files = files;
	b.nr_files = nr_files;
	b.cur = g_new0(char *, nr_files + 1);
	for (size_t i = 0; i < nr_files; i++)
		b.cur[i] = g_strdup(files[i].text);
	b.cur_c = opts->no_credits ? NULL : g_strdup(credits ? credits : "");
	b.left = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       (GDestroyNotify)g_ptr_array_unref);
	b.pend = g_ptr_array_new_with_free_func(pending_free);
	b.opts = opts;
	for (size_t i = 0; i < nr_plans; i++)
		plan_patch(&b, &plans[i], diags);

	rc = format_series(s, b.pend, files, nr_files, b.cur, credits,
			   b.cur_c, opts);
	s->nr_files = nr_files;
	s->files = g_new0(struct retire_file, nr_files + 1);
	for (size_t i = 0; i < nr_files; i++) {
		s->files[i].path = files[i].path;
		s->files[i].text = b.cur[i];
	}
	g_free(b.cur);
	s->credits = b.cur_c;
	g_ptr_array_free(b.pend, TRUE);
	g_hash_table_destroy(b.left);
	if (rc < 0) {
		retire_series_free(s);
		return rc;
	}
	*out = s;
	return 0;
}
