/*
 * maint-cc-vcs.c - get_maintainer.pl's `git log` of one file, and what it
 * greps from it (see maint-cc-vcs.h).  The one place maintstat runs the
 * git program: --follow's renames and --since's dates are git's own, so
 * the answer is the script's whatever git's version or configuration.
 */
#include "maint-cc-vcs.h"
#include "bytes.h"
#include "error.h"
#include "maint-cc-perl.h"
#include "tree.h"

#include <stdlib.h>
#include <string.h>

#define FORMAT "--format=GitCommit: %H%nGitAuthor: %an <%ae>%n" \
	"GitDate: %aD%nGitSubject: %s%n%b%n"

/* Perl's \s on bytes. */
static bool perl_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f' || c == '\v';
}

/* The shell's word splitting of an unquoted `$var`, appended to argv. */
static void add_words(GPtrArray *argv, const char *prefix, const char *s)
{
	char **w = g_strsplit_set(s, " \t\n", -1);
	bool first = true;

	for (char **p = w; *p; p++) {
		if (!**p)
			continue;
		g_ptr_array_add(argv, first && prefix ?
				g_strconcat(prefix, *p, NULL) : g_strdup(*p));
		first = false;
	}
	if (first && prefix)
		g_ptr_array_add(argv, g_strdup(prefix));
	g_strfreev(w);
}

/*
 * git's standard output for `args` (NULL-terminated), or NULL; with
 * `any_status` whatever git exits with (the script reads `git log`'s
 * output without looking at its status).
 */
static char *run_git(const struct mcc_vcs *v, const char *const *args,
		     bool any_status)
{
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	char *out = NULL;
	gint status = 0;

	g_ptr_array_add(argv, g_strdup("git"));
	/* -C, not a working directory: GLib then spawns with posix_spawn
	 * (vfork), where a fork would copy the page tables and make each
	 * page this process writes afterwards fault (340 faults, about 10%
	 * of a warm `--git` run on U-Boot) */
	g_ptr_array_add(argv, v->bare ? g_strconcat("--git-dir=", v->dir,
						    NULL) : g_strdup("-C"));
	if (!v->bare)
		g_ptr_array_add(argv, g_strdup(v->dir));
	for (; *args; args++)
		g_ptr_array_add(argv, g_strdup(*args));
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_LEAVE_DESCRIPTORS_OPEN |
			  G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
			  &status, NULL) ||
	    (!any_status && !g_spawn_check_wait_status(status, NULL))) {
		g_free(out);
		out = NULL;
	}
	g_ptr_array_free(argv, TRUE);
	return out;
}

/* git's output `out` (taken; NULL: none) as git_execute_cmd() splits
 * it: each line's leading white space removed, then split("\n"): no
 * blank line. */
GPtrArray *mcc_vcs_split(char *out)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);

	for (const char *p = out; p && *p;) {
		const char *eol;

		while (perl_space(*p))
			p++;
		if (!*p)
			break;
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		g_ptr_array_add(lines, g_strndup(p, (gsize)(eol - p)));
		p = eol;
	}
	g_free(out);
	return lines;
}

static GPtrArray *log_lines(const struct mcc_vcs *v, GPtrArray *args)
{
	char *out;

	g_ptr_array_add(args, NULL);
	out = run_git(v, (const char *const *)args->pdata, true);
	g_ptr_array_free(args, TRUE);
	return mcc_vcs_split(out);
}

GPtrArray *mcc_vcs_log(const struct mcc_vcs *v, const char *file)
{
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(args, g_strdup("log"));
	g_ptr_array_add(args, g_strdup("--no-color"));
	g_ptr_array_add(args, g_strdup("--follow"));
	if (v->resolved)
		g_ptr_array_add(args, g_strdup_printf("--max-age=%" G_GINT64_FORMAT,
						      v->max_age));
	else
		add_words(args, "--since=", v->since);
	if (!v->old) {
		g_ptr_array_add(args, g_strdup("--numstat"));
		g_ptr_array_add(args, g_strdup("--no-merges"));
	}
	g_ptr_array_add(args, g_strdup(FORMAT));
	if (v->rev)
		g_ptr_array_add(args, g_strdup(v->rev));
	g_ptr_array_add(args, g_strdup("--"));
	add_words(args, NULL, file);
	return log_lines(v, args);
}

GPtrArray *mcc_vcs_commit_log(const struct mcc_vcs *v, const char *id,
			      bool body)
{
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(args, g_strdup("log"));
	g_ptr_array_add(args, g_strdup("--no-color"));
	if (!v->old)
		g_ptr_array_add(args, g_strdup("--numstat"));
	g_ptr_array_add(args, g_strdup(body ? FORMAT : "--format=GitCommit: "
		"%H%nGitAuthor: %an <%ae>%nGitDate: %aD%nGitSubject: %s%n"));
	g_ptr_array_add(args, g_strdup("-1"));
	add_words(args, NULL, id);
	return log_lines(v, args);
}

GPtrArray *mcc_vcs_blame(const struct mcc_vcs *v, const char *file,
			 const char *start, const char *length)
{
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *lines, *ids = g_ptr_array_new_with_free_func(g_free);
	GRegex *commit = g_regex_new("^([0-9a-f]+) ", G_REGEX_RAW, 0, NULL);

	g_ptr_array_add(args, g_strdup("blame"));
	g_ptr_array_add(args, g_strdup("-l"));
	if (start) {
		g_ptr_array_add(args, g_strdup("-L"));
		add_words(args, NULL, start);
		/* "$diff_start,+$diff_length": one word unless it has blanks */
		g_free(args->pdata[args->len - 1]);
		args->pdata[args->len - 1] = g_strdup_printf("%s,+%s",
							     start, length);
	}
	if (v->bare && v->rev)
		g_ptr_array_add(args, g_strdup(v->rev));
	if (v->bare)
		g_ptr_array_add(args, g_strdup("--"));
	add_words(args, NULL, file);
	lines = log_lines(v, args);
	for (guint i = 0; i < lines->len; i++) {
		GMatchInfo *mi = NULL;

		if (g_regex_match(commit, lines->pdata[i], 0, &mi))
			g_ptr_array_add(ids, g_match_info_fetch(mi, 1));
		g_match_info_free(mi);
	}
	g_regex_unref(commit);
	g_ptr_array_free(lines, TRUE);
	return ids;
}

GPtrArray *mcc_vcs_ls_files(const struct mcc_vcs *v)
{
	const char *args[] = { "ls-files", "./", NULL };

	return mcc_vcs_split(run_git(v, args, false));
}

bool mcc_vcs_resolve(const struct mcc_vcs *v, char id[41], gint64 *max_age)
{
	char *since = g_strconcat("--since=", v->since, NULL);
	const char *args[] = { "rev-parse", v->rev ? v->rev : "HEAD", since,
			       NULL };
	char *out = strpbrk(v->since, " \t\n") ? NULL :
		    run_git(v, args, false);
	char **l = out ? g_strsplit(out, "\n", -1) : NULL;
	bool ok = false;

	bool have_id = false, have_age = false;

	for (int i = 0; l && l[i]; i++) {
		if (g_str_has_prefix(l[i], "--max-age=")) {
			*max_age = g_ascii_strtoll(l[i] + 10, NULL, 10);
			have_age = true;
		} else if (strlen(l[i]) == 40) {
			memcpy(id, l[i], 40);
			id[40] = 0;
			have_id = true;
		}
	}
	ok = have_id && have_age;
	g_strfreev(l);
	g_free(out);
	g_free(since);
	return ok;
}

bool mcc_vcs_dates(const struct mcc_vcs *v, const char *id, GArray *out)
{
	const char *args[] = { "rev-list", "--timestamp", id, NULL };
	char *text = run_git(v, args, false);

	if (!text)
		return false;
	for (const char *p = text; *p;) {
		gint64 t = g_ascii_strtoll(p, NULL, 10);
		const char *eol = strchr(p, '\n');

		g_array_append_val(out, t);
		if (!eol)
			break;
		p = eol + 1;
	}
	g_free(text);
	g_array_sort(out, ms_cmp_i64);
	return true;
}

static GRegex *re(const char *pattern)
{
	return g_regex_new(pattern, G_REGEX_RAW | G_REGEX_OPTIMIZE, 0, NULL);
}

void mcc_vcs_grep(GPtrArray *lines, const char *file, bool all_types,
		  struct mcc_vcs_found *out)
{
	/* compiled once: a warm --git run greps a log per file */
	static GRegex *rx[4];
	GRegex *commit, *author, *sig;
	char *sp = g_strconcat("^(\\d+)\\t(\\d+)\\t", file, "$", NULL);
	GRegex *stat;

	if (g_once_init_enter(&rx[3])) {
		rx[0] = re("^GitCommit: ([0-9a-f]{40,40})");
		rx[1] = re("^GitAuthor: (.*)");
		rx[2] = re("^[ \\t]*(.+?)[Bb][Yy]:.*\\@.*$");
		g_once_init_leave(&rx[3], re("^[ \\t]*(Signed-off-by:|"
					     "Reviewed-by:|Acked-by:).*\\@.*$"));
	}
	commit = rx[0];
	author = rx[1];
	sig = rx[all_types ? 2 : 3];
	/* used on a few lines: not worth a JIT compile */
	stat = g_regex_new(sp, G_REGEX_RAW, 0, NULL);
	g_free(sp);
	out->commits = 0;
	out->authors = g_ptr_array_new_with_free_func(g_free);
	out->signatures = g_ptr_array_new_with_free_func(g_free);
	out->added = g_array_new(FALSE, FALSE, sizeof(long));
	out->removed = g_array_new(FALSE, FALSE, sizeof(long));
	for (guint i = 0; i < lines->len; i++) {
		const char *l = lines->pdata[i];
		GMatchInfo *mi = NULL;

		out->commits += g_regex_match(commit, l, 0, NULL);
		if (g_regex_match(author, l, 0, NULL))
			g_ptr_array_add(out->authors, g_strdup(l));
		if (g_regex_match(sig, l, 0, NULL))
			g_ptr_array_add(out->signatures, g_strdup(l));
		if (stat && g_regex_match(stat, l, 0, &mi)) {
			char *a = g_match_info_fetch(mi, 1);
			char *d = g_match_info_fetch(mi, 2);
			long na = strtol(a, NULL, 10), nd = strtol(d, NULL, 10);

			g_array_append_val(out->added, na);
			g_array_append_val(out->removed, nd);
			g_free(a);
			g_free(d);
		}
		g_match_info_free(mi);
	}
	g_clear_pointer(&stat, g_regex_unref);
}

void mcc_vcs_found_release(struct mcc_vcs_found *f)
{
	g_ptr_array_free(f->authors, TRUE);
	g_ptr_array_free(f->signatures, TRUE);
	g_array_free(f->added, TRUE);
	g_array_free(f->removed, TRUE);
}

char *mcc_vcs_cut(const char *line)
{
	static GRegex *cut;
	char *r;

	if (g_once_init_enter(&cut))
		g_once_init_leave(&cut, re("\\s*.*:\\s*(.+)\\s*"));
	r = g_regex_replace(cut, line, -1, 0, "\\1", 0, NULL);
	return r ? r : g_strdup(line);
}

/*
 * The tree's .get_maintainer.ignore as the kernel's script reads it:
 * each line trimmed, a '#' and what follows cut, kept when it is one
 * RFC 822 address.
 */
GPtrArray *mcc_vcs_read_ignore(const struct ms_tree *tree)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	char *buf, **lines;
	size_t len;

	if (ms_tree_read(tree, ".get_maintainer.ignore", &buf, &len) < 0) {
		ms_error_clear();
		return out;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *hash, *s;

		/* trimmed, then "s/#.*$//": a blank before '#' stays */
		g_strstrip(*l);
		hash = strchr(*l, '#');
		if (hash)
			*hash = 0;
		if (!*l[0] || strspn(*l, " \t\r\f\v") == strlen(*l))
			continue;
		s = mcc_rfc822_strip_comments(*l);
		if (g_regex_match(mcc_rx.rfc_valid, s, 0, NULL))
			g_ptr_array_add(out, g_strdup(*l));
		g_free(s);
	}
	g_strfreev(lines);
	g_free(buf);
	return out;
}

GRegex *mcc_vcs_chief_re(GPtrArray *chiefs)
{
	GString *re = g_string_new("(");
	GRegex *r;

	for (guint c = 0; c < chiefs->len; c++) {
		const char *spec = chiefs->pdata[c];
		const char *colon = strrchr(spec, ':');

		if (!colon)
			continue;
		if (re->len > 1)
			g_string_append_c(re, '|');
		g_string_append_len(re, spec, colon - spec);
	}
	g_string_append_c(re, ')');
	r = re->len > 2 ? g_regex_new(re->str, G_REGEX_RAW | G_REGEX_CASELESS,
				      0, NULL) : NULL;
	g_string_free(re, TRUE);
	return r;
}

GPtrArray *mcc_vcs_uniq(GPtrArray *a)
{
	GPtrArray *out = g_ptr_array_new();
	GHashTable *saw = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < a->len; i++)
		if (g_hash_table_add(saw, a->pdata[i]))
			g_ptr_array_add(out, a->pdata[i]);
	g_hash_table_destroy(saw);
	return out;
}
