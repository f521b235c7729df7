/*
 * maint-cc-git.c - what get_maintainer.pl adds from git to an answer
 * (maint-cc.h): each file's recent signers and authors (--git, the git
 * fallback), the signers of the commits that last changed a patch's
 * lines (--git-blame), and of the commits its Fixes: lines name.  The
 * git commands and their greps are in maint-cc-vcs.c.
 */
#include "maint-cc-internal.h"
#include "maint-cc-perl.h"
#include "maint-cc-vcs.h"

#include <string.h>

/* One address of vcs_assign() and how often it came. */
struct tally {
	char *line;
	long n;
};

static int cmp_tally(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->line, y->line);
}

/*
 * vcs_assign(): `lines` (`weights[i]` times each; NULL: once), mailmapped
 * and counted, the most frequent first, pushed with `role` until one
 * comes fewer than --git-min-signatures times, below --git-min-percent
 * of `divisor`, or after --git-max-maintainers.  The script's order
 * among equal counts is Perl's hash order, which changes from run to
 * run; here it is the addresses' byte order.
 */
static void vcs_assign(struct maint_cc *cc, const char *role, long divisor,
		       GPtrArray *lines, const long *weights)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	GArray *t = g_array_new(FALSE, FALSE, sizeof(struct tally));
	GHashTableIter it;
	gpointer k, v;
	long count = 0;

	if (!lines->len)
		goto out;
	if (divisor <= 0)
		divisor = 1;
	for (guint i = 0; i < lines->len; i++) {
		char *m = mcc_mailmap_email(cc, lines->pdata[i]);
		long w = weights ? weights[i] : 1;
		long had = GPOINTER_TO_SIZE(g_hash_table_lookup(h, m));

		g_hash_table_replace(h, m, GSIZE_TO_POINTER((gsize)(had + w)));
	}
	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct tally x = { k, (long)GPOINTER_TO_SIZE(v) };

		if (x.n > 0)
			g_array_append_val(t, x);
	}
	g_array_sort(t, cmp_tally);
	for (guint i = 0; i < t->len; i++) {
		const struct tally *x = &g_array_index(t, struct tally, i);
		double percent = (double)x->n * 100 / (double)divisor;
		bool ignored = false;
		char *r;

		if (percent > 100)
			percent = 100;
		for (guint j = 0; j < cc->git_ignore->len && !ignored; j++)
			ignored = !strcmp(cc->git_ignore->pdata[j], x->line);
		if (ignored)
			continue;
		if (x->n < cc->o.git_min_signatures ||
		    ++count > cc->o.git_max_maintainers ||
		    percent < cc->o.git_min_percent)
			break;
		mcc_push_email_address(cc, x->line, "", 'G', NULL);
		r = cc->o.rolestats ? g_strdup_printf("%s:%ld/%ld=%.0f%%", role,
						      x->n, divisor, percent) :
			g_strdup(role);
		mcc_add_role(cc, x->line, r);
		g_free(r);
	}
out:
	g_array_free(t, TRUE);
	g_hash_table_destroy(h);
}

/* extract_formatted_signatures(): each line cut and deduplicated. */
static void extract_formatted(struct maint_cc *cc, GPtrArray *lines)
{
	for (guint i = 0; i < lines->len; i++) {
		char *c = mcc_vcs_cut(lines->pdata[i]);

		g_free(lines->pdata[i]);
		lines->pdata[i] = mcc_deduplicate_email(cc, c);
		g_free(c);
	}
}

/* The added_lines and removed_lines roles: each author weighted by the
 * lines of the file their commits added and removed. */
static void vcs_line_roles(struct maint_cc *cc, struct mcc_vcs_found *f)
{
	GPtrArray *u = mcc_vcs_uniq(f->authors);
	GPtrArray *who = g_ptr_array_new_with_free_func(g_free), *tmp;
	GPtrArray *each = g_ptr_array_new_with_free_func(g_free);
	long added = 0, removed = 0, *wa, *wr;

	for (guint i = 0; i < f->added->len; i++) {
		added += g_array_index(f->added, long, i);
		removed += g_array_index(f->removed, long, i);
	}
	for (guint i = 0; i < u->len; i++)
		g_ptr_array_add(who, mcc_deduplicate_email(cc, u->pdata[i]));
	for (guint i = 0; i < f->authors->len; i++)
		g_ptr_array_add(each, mcc_deduplicate_email(cc,
							f->authors->pdata[i]));
	tmp = mcc_vcs_uniq(who);
	wa = g_new0(long, tmp->len + 1);
	wr = g_new0(long, tmp->len + 1);
	for (guint a = 0; a < tmp->len; a++) {
		for (guint i = 0; i < each->len; i++) {
			if (strcmp(tmp->pdata[a], each->pdata[i]))
				continue;
			wa[a] += g_array_index(f->added, long, i);
			wr[a] += g_array_index(f->removed, long, i);
		}
	}
	vcs_assign(cc, "added_lines", added, tmp, wa);
	vcs_assign(cc, "removed_lines", removed, tmp, wr);
	g_free(wa);
	g_free(wr);
	g_ptr_array_free(tmp, TRUE);
	g_ptr_array_free(u, TRUE);
	g_ptr_array_free(who, TRUE);
	g_ptr_array_free(each, TRUE);
}

/* vcs_find_signers() on the `lines` of a log (taken), then the
 * signers' addresses deduplicated as its callers do. */
static void vcs_find_signers(struct maint_cc *cc, GPtrArray *lines,
			     const char *file, struct mcc_vcs_found *f)
{
	GRegex *chief = cc->o.chief_penguins ? NULL :
			mcc_vcs_chief_re(cc->chiefs);

	mcc_vcs_grep(lines, file, cc->o.git_all_signature_types, f);
	g_ptr_array_free(lines, TRUE);
	if (!f->signatures->len) {
		/* it returns no count and the raw lines */
		f->commits = 0;
	} else {
		for (guint i = 0; chief && i < f->signatures->len;) {
			if (g_regex_match(chief, f->signatures->pdata[i], 0,
					  NULL))
				g_ptr_array_remove_index(f->signatures, i);
			else
				i++;
		}
		/* QEMU's and Xen's return no authors */
		if (cc->dialect == MAINT_DIALECT_KERNEL)
			extract_formatted(cc, f->authors);
		extract_formatted(cc, f->signatures);
	}
	for (guint i = 0; i < f->signatures->len; i++) {
		char *d = mcc_deduplicate_email(cc, f->signatures->pdata[i]);

		g_free(f->signatures->pdata[i]);
		f->signatures->pdata[i] = d;
	}
	g_clear_pointer(&chief, g_regex_unref);
}

static struct mcc_vcs vcs_of(const struct maint_cc *cc)
{
	struct mcc_vcs v = { cc->o.vcs_dir, cc->o.vcs_bare, cc->o.vcs_rev,
			     cc->o.git_since, false, 0,
			     cc->dialect != MAINT_DIALECT_KERNEL };

	return v;
}

/* vcs_file_signoffs(): the recent signers and authors of `file`. */
static void vcs_file_signoffs(struct maint_cc *cc, const char *file)
{
	struct mcc_vcs v = vcs_of(cc);
	struct mcc_vcs_found f;

	vcs_find_signers(cc, cc->o.vcs_log ? cc->o.vcs_log(file,
		cc->o.vcs_log_data) : mcc_vcs_log(&v, file), file, &f);
	vcs_assign(cc, "commit_signer", f.commits, f.signatures, NULL);
	/* QEMU's and Xen's forks count signers only */
	if (cc->dialect == MAINT_DIALECT_KERNEL) {
		vcs_assign(cc, "authored", f.commits, f.authors, NULL);
		if (f.authors->len == f.added->len)
			vcs_line_roles(cc, &f);
	}
	mcc_vcs_found_release(&f);
}

/* find_commit_signers_cmd's or find_commit_author_cmd's lines (a new
 * array): from the objects where they can say, else from git; once a
 * run for each (the script asks again for a commit blamed in several
 * files or hunks).  The author's (!body) is read for its GitAuthor line
 * alone: its numstat lines cannot matter, nor a blob its diff lacks (git
 * prints the header, then dies), so it is made without them. */
static GPtrArray *commit_log(struct maint_cc *cc, const struct mcc_vcs *v,
			     const char *id, bool body)
{
	char *key = g_strdup_printf("%d%s", body, id), *out;
	GPtrArray *lines = g_hash_table_lookup(cc->commit_logs, key), *copy;

	if (lines) {
		g_free(key);
	} else {
		out = cc->o.vcs_commit_log ? cc->o.vcs_commit_log(id, body,
			body && !v->old, cc->o.vcs_blame_data) : NULL;
		lines = out ? mcc_vcs_split(out) :
			mcc_vcs_commit_log(v, id, body);
		g_hash_table_insert(cc->commit_logs, key, lines);
	}
	copy = g_ptr_array_new_full(lines->len, g_free);
	for (guint i = 0; i < lines->len; i++)
		g_ptr_array_add(copy, g_strdup(lines->pdata[i]));
	return copy;
}

/* vcs_add_commit_signers(): the signers of each commit a patch's
 * "Fixes:" lines name, as "blamed_fixes" (the script runs it whenever
 * the tree is a git work tree, --git or not). */
void mcc_fixes_signers(struct maint_cc *cc)
{
	struct mcc_vcs v = vcs_of(cc);
	GPtrArray *u;

	if (!cc->o.email || !cc->o.vcs_dir)
		return;
	u = mcc_vcs_uniq(cc->fixes);
	for (guint i = 0; i < u->len; i++) {
		struct mcc_vcs_found f;

		vcs_find_signers(cc, commit_log(cc, &v, u->pdata[i], true),
				 "", &f);
		vcs_assign(cc, "blamed_fixes", 1, f.signatures, NULL);
		mcc_vcs_found_release(&f);
	}
	g_ptr_array_free(u, TRUE);
}

/* The commits of blame_range_cmd or blame_file_cmd: from the objects
 * where they can say, else from git. */
static GPtrArray *blame(struct maint_cc *cc, const struct mcc_vcs *v,
			const char *file, const char *start,
			const char *length)
{
	GPtrArray *ids = cc->o.vcs_blame ? cc->o.vcs_blame(file, start, length,
		cc->o.vcs_blame_data) : NULL;

	return ids ? ids : mcc_vcs_blame(v, file, start, length);
}

/* vcs_blame(): the commits git blame gives each changed line of `file`
 * (each hunk's old lines of a patch), or each line of it. */
static GPtrArray *vcs_blame(struct maint_cc *cc, const struct mcc_vcs *v,
			    const char *file)
{
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	GRegex *range = g_regex_new("^(.+):(.+):(.+)$", G_REGEX_RAW, 0, NULL);

	if (!v->bare) {
		char *p = g_build_filename(v->dir, file, NULL);
		bool there = g_file_test(p, G_FILE_TEST_IS_REGULAR);

		g_free(p);
		if (!there)
			goto out;
	}
	if (!cc->ranges->len) {
		g_ptr_array_extend_and_steal(ids, blame(cc, v, file, NULL,
							 NULL));
		goto out;
	}
	for (guint i = 0; i < cc->ranges->len; i++) {
		GMatchInfo *mi = NULL;

		if (g_regex_match(range, cc->ranges->pdata[i], 0, &mi)) {
			char *f = g_match_info_fetch(mi, 1);
			char *a = g_match_info_fetch(mi, 2);
			char *b = g_match_info_fetch(mi, 3);

			if (!strcmp(f, file))
				g_ptr_array_extend_and_steal(ids,
					blame(cc, v, file, a, b));
			g_free(f);
			g_free(a);
			g_free(b);
		}
		g_match_info_free(mi);
	}
out:
	g_regex_unref(range);
	return ids;
}

/* vcs_find_author(): the first author of commit `id`, formatted and
 * deduplicated; NULL when the log (chief penguins' lines left out) has
 * none. */
static char *blamed_author(struct maint_cc *cc, const struct mcc_vcs *v,
			   const char *id, GRegex *chief)
{
	GPtrArray *lines = commit_log(cc, v, id, false);
	char *r = NULL;

	for (guint i = 0; i < lines->len && !r; i++) {
		const char *l = lines->pdata[i];
		char *name, *address, *a;

		if ((chief && g_regex_match(chief, l, 0, NULL)) ||
		    strncmp(l, "GitAuthor: ", 11))
			continue;
		maint_cc_parse_email(l + 11, &name, &address);
		a = mcc_format_email(name, address, true);
		r = mcc_deduplicate_email(cc, a);
		g_free(a);
		g_free(name);
		g_free(address);
	}
	g_ptr_array_free(lines, TRUE);
	return r;
}

/* vcs_file_blame(): the signers of the commits that last touched the
 * lines of `file` a patch changes (all of it for a file named), as
 * "modified commits", or for files named "commits" and, with
 * --rolestats, their authors weighted by lines as "authored lines". */
static void vcs_file_blame(struct maint_cc *cc, const char *file)
{
	struct mcc_vcs v = vcs_of(cc);
	GPtrArray *all = vcs_blame(cc, &v, file);
	GPtrArray *commits = mcc_vcs_uniq(all);
	GPtrArray *signers = g_ptr_array_new_with_free_func(g_free);
	GRegex *chief = cc->o.chief_penguins ? NULL :
			mcc_vcs_chief_re(cc->chiefs);

	for (guint i = 0; cc->o.git_blame_signatures && i < commits->len;
	     i++) {
		struct mcc_vcs_found f;

		vcs_find_signers(cc, commit_log(cc, &v, commits->pdata[i],
							true), file, &f);
		g_ptr_array_extend_and_steal(signers, f.signatures);
		f.signatures = g_ptr_array_new();
		mcc_vcs_found_release(&f);
	}
	if (cc->o.from_filename && cc->o.rolestats) {
		GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);

		for (guint i = 0; i < commits->len; i++) {
			char *a = blamed_author(cc, &v, commits->pdata[i],
						chief);

			/* grep(/$commit/, @all_commits) */
			for (guint j = 0; a && j < all->len; j++)
				if (strstr(all->pdata[j], commits->pdata[i]))
					g_ptr_array_add(lines, g_strdup(a));
			g_free(a);
		}
		vcs_assign(cc, "authored lines", (long)all->len, lines, NULL);
		g_ptr_array_free(lines, TRUE);
	}
	/* the script deduplicates them once more here: vcs_find_signers()
	 * above did that already */
	vcs_assign(cc, cc->o.from_filename ? "commits" : "modified commits",
		   (long)commits->len, signers, NULL);
	g_clear_pointer(&chief, g_regex_unref);
	g_ptr_array_free(signers, TRUE);
	g_ptr_array_free(commits, TRUE);
	g_ptr_array_free(all, TRUE);
}

/*
 * The git signers of each file, for --git or the git fallback: the
 * kernel's falls back for a file no entry matches exactly (but a
 * MAINTAINERS file), Xen's for any such file, QEMU's only when the
 * answer has no address at all and neither --git nor --git-blame is
 * given (it says so on stderr).
 */
void mcc_git_signers(struct maint_cc *cc)
{
	bool fallback = cc->o.git_fallback;

	if (!cc->o.email || !cc->o.vcs_dir)
		return;
	if (cc->dialect == MAINT_DIALECT_QEMU && fallback &&
	    (cc->email_to->len || cc->o.git || cc->o.git_blame))
		fallback = false;
	if (cc->dialect == MAINT_DIALECT_QEMU && fallback && cc->diags)
		ms_diags_add(cc->diags, NULL, 0, "No maintainers found, "
			     "printing recent contributors.  Do not blindly "
			     "cc: them on patches!  Use common sense.");
	for (guint i = 0; i < cc->files->len; i++) {
		const char *file = cc->files->pdata[i];
		size_t n = strlen(file);
		bool mfile = cc->dialect == MAINT_DIALECT_KERNEL && n >= 11 &&
			     !strcmp(file + n - 11, "MAINTAINERS");

		if (cc->o.git || (fallback && !mfile &&
				  !g_hash_table_contains(cc->exact, file)))
			vcs_file_signoffs(cc, file);
		if (cc->o.git_blame)
			vcs_file_blame(cc, file);
	}
}

