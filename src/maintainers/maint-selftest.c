/*
 * maint-selftest.c - the checks of get_maintainer.pl --self-test
 * (maint-cc.h): "sections" (duplicate headers, a section without an
 * address, a status or a file pattern), "patterns" (an F: or X: that no
 * file of `git ls-files` matches), "links" and "scm" (W:, Q:, B: and T:
 * that the script's wget and git ls-remote do not reach), read from the
 * kernel's self_test(), line for line.
 */
#include "maint-cc.h"
#include "maint-cc-perl.h"
#include "bytes.h"
#include "error.h"
#include "tree.h"

#include <string.h>

/* Perl's \s on bytes. */
static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f' || c == '\v';
}

/* /^([A-Z]):\s*(.*)/ (`nonblank`: /^([A-Z]):\s*(\S.*)/): the value, or
 * NULL. */
static const char *field(const char *l, bool nonblank)
{
	if (l[0] < 'A' || l[0] > 'Z' || l[1] != ':')
		return NULL;
	for (l += 2; space(*l); l++)
		;
	return nonblank && !*l ? NULL : l;
}

/* The literal start of regex `re` (what every match begins with; none
 * when it has a '|', whose other side could begin otherwise). */
static char *literal_start(const char *re)
{
	GString *s = g_string_new(NULL);

	for (const char *p = strchr(re, '|') ? "" : re; *p;) {
		char c = *p;
		size_t adv = 1;

		if (c == '\\' && p[1] && !g_ascii_isalnum(p[1])) {
			c = p[1];
			adv = 2;
		} else if (strchr("\\^$.|?*+()[]{}", c)) {
			break;
		}
		if (p[adv] && strchr("?*{", p[adv]))
			break;  /* optional: not a start */
		g_string_append_c(s, c);
		p += adv;
		if (*p == '+')
			break;
	}
	return g_string_free(s, FALSE);
}

/* grep(m@^$value@, @lsfiles) on the sorted `files`: 1, 0, or -1 when
 * the regex does not compile (Perl would die). */
static int any_match(const char *value, GPtrArray *files)
{
	char *re = g_strconcat("^", value, NULL);
	char *lit = literal_start(value);
	GRegex *r = mcc_re_try(re);
	size_t n = strlen(lit);
	guint lo = 0, hi = files->len;
	int found = r ? 0 : -1;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (strcmp(files->pdata[mid], lit) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (guint i = lo; r && !found && i < files->len &&
	     !strncmp(files->pdata[i], lit, n); i++)
		found = g_regex_match(r, files->pdata[i], 0, NULL);
	g_clear_pointer(&r, g_regex_unref);
	g_free(re);
	g_free(lit);
	return found;
}

/* The F:/X: value as read_maintainer_file() converts it, then a '/'
 * added when it names a directory of the tree. */
static char *pattern(const struct ms_tree *t, const char *v)
{
	GString *s = g_string_new(NULL);
	char *full;

	for (; *v; v++) {
		if (*v == '.')
			g_string_append(s, "\\.");
		else if (*v == '*')
			g_string_append(s, ".*");
		else if (*v == '?')
			g_string_append_c(s, '.');
		else
			g_string_append_c(s, *v);
	}
	full = g_build_filename(ms_tree_root(t), s->str, NULL);
	if (s->len && s->str[s->len - 1] != '/' &&
	    g_file_test(full, G_FILE_TEST_IS_DIR))
		g_string_append_c(s, '/');
	g_free(full);
	return g_string_free(s, FALSE);
}

/* The sections check of the header at lines[i]: its warnings. */
static void section(char **lines, guint i, const char *where,
		    GPtrArray *headers, GPtrArray *out)
{
	const char *x = lines[i], *v, *status = "";
	bool has_s = false, has_f = false, has_ml = false, dup = false;
	char *lc;

	for (guint k = 0; k < headers->len && !dup; k++)
		dup = g_str_has_prefix(headers->pdata[k], x);
	if (dup)
		g_ptr_array_add(out, g_strdup_printf("%s: warning: duplicate "
						     "section header\t%s",
						     where, x));
	else
		g_ptr_array_add(headers, (char *)x);
	for (guint j = i + 1; lines[j] && (v = field(lines[j], true)); j++) {
		char type = lines[j][0];

		if (type == 'S') {
			has_s = true;
			status = v;
		}
		has_f = has_f || type == 'F' || type == 'N';
		has_ml = has_ml || type == 'M' || type == 'R' || type == 'L';
	}
	lc = g_ascii_strdown(status, -1);
	if (!has_ml && !strstr(lc, "orphan") && !strstr(lc, "obsolete"))
		g_ptr_array_add(out, g_strdup_printf("%s: warning: section "
						     "without email address\t%s",
						     where, x));
	g_free(lc);
	if (!has_s)
		g_ptr_array_add(out, g_strdup_printf("%s: warning: section "
						     "without status \t%s",
						     where, x));
	if (!has_f)
		g_ptr_array_add(out, g_strdup_printf("%s: warning: section "
						     "without file pattern\t%s",
						     where, x));
}

/* What makes Perl's backticks run a command line through sh (doio.c);
 * the git line always has them (its quotes and redirections). */
#define PERL_META "$&*(){}[]'\";\\|?<>~`\n"

/* A shell assignment word, NAME=VALUE. */
static bool assignment(const char *w)
{
	if (!g_ascii_isalpha(*w) && *w != '_')
		return false;
	while (g_ascii_isalnum(*w) || *w == '_')
		w++;
	return *w == '=';
}

/*
 * How the script's command line reads `text`, the part it interpolates
 * unquoted: Perl runs a line without any of its shell metacharacters
 * itself, split at blanks (`sh` false: a '#' is a word), else sh does: 0 when the command runs with the words of its
 * first part (into `args`); 1 when sh's status is 0 whatever the command
 * does (the line goes on after '&' with assignments alone, or ends with
 * '&': a kernel B: link's "...?component=X&product=Y" is never checked);
 * -1 when sh would fail, or run something else, which maintstat never
 * runs: a word starting '#' ends the line, ';' and '&' end a command,
 * and any other character special to sh makes it bad.
 */
static int shell_words(const char *text, bool sh, GPtrArray *args)
{
	char **cmds, **w;
	guint n;
	int rc = 0;

	if (!sh) {              /* Perl splits it and runs the command */
		cmds = g_strsplit_set(text, " \t\n\r\f", -1);
		for (w = cmds; *w; w++)
			if (**w)
				g_ptr_array_add(args, g_strdup(*w));
		g_strfreev(cmds);
		return 0;
	}
	if (strpbrk(text, "|<>()$`\\\"'\n"))
		return -1;
	cmds = g_strsplit_set(text, ";&", -1);
	n = g_strv_length(cmds);
	for (guint i = 0; i < n && rc >= 0; i++) {
		char **words = g_strsplit_set(cmds[i], " \t", -1);
		bool any = false, assigns = true;

		for (w = words; *w && **w != '#'; w++) {
			if (!**w)
				continue;
			any = true;
			assigns = assigns && assignment(*w);
			if (i == 0)
				g_ptr_array_add(args, g_strdup(*w));
		}
		if (*w) {               /* a comment: the rest is gone */
			n = i + 1;
			rc = i == 0 ? 0 : !any || assigns ? 1 : -1;
		} else if (i == n - 1 && i > 0) {
			/* the last command decides: nothing after a '&'
			 * (or ';': the one before it) or assignments only */
			rc = !any ? (text[strlen(text) - 1] == '&' ? 1 : 0) :
			     assigns ? 1 : -1;
		}
		g_strfreev(words);
	}
	g_strfreev(cmds);
	return rc;
}

/*
 * Whether the script's `cmd ... "$quoted" $text` exits 0 in the top of
 * `t`, as its backticks' $? says (not when the command cannot run), sh's
 * reading of `text` reproduced by shell_words() and nothing run through
 * a shell.  git is told not to ask for a password (the script would
 * wait for one at a terminal).
 */
static bool reaches(const struct ms_tree *t, const char *const *cmd,
		    const char *quoted, const char *text)
{
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	char **env;
	int status = 0, sh;
	bool ok;

	for (; *cmd; cmd++)
		g_ptr_array_add(argv, g_strdup(*cmd));
	if (quoted && strpbrk(quoted, "$`\\\""))
		sh = -1;
	else {
		if (quoted)
			g_ptr_array_add(argv, g_strdup(quoted));
		sh = shell_words(text ? text : "", quoted ||
				 strpbrk(text, PERL_META), argv);
	}
	if (sh != 0) {
		g_ptr_array_free(argv, TRUE);
		return sh > 0;
	}
	g_ptr_array_add(argv, NULL);
	env = g_environ_setenv(g_get_environ(), "GIT_TERMINAL_PROMPT", "0",
			       TRUE);
	ok = g_spawn_sync(ms_tree_root(t), (char **)argv->pdata, env,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
			  G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL,
			  &status, NULL) &&
	     g_spawn_check_wait_status(status, NULL);
	g_strfreev(env);
	g_ptr_array_free(argv, TRUE);
	return ok;
}

static const char *const WGET[] = { "wget", "--spider", "-q",
	"--no-check-certificate", "--timeout", "10", "--tries", "1", NULL };
static const char *const LS_REMOTE[] = { "git", "ls-remote", "--exit-code",
	"-h", NULL };

/* The links or scm check of the line `x` (field letter, value `v`): its
 * warning into `out`; `good` and `bad` the values seen (@good_links,
 * @bad_links). */
static void reach(const struct ms_tree *t, const char *x, const char *v,
		  const char *where, GHashTable *good, GHashTable *bad,
		  GPtrArray *out)
{
	GRegex *git = g_regex_new("^git\\s+(\\S+)(\\s+([^\\(]+\\S+))?",
				  G_REGEX_RAW, 0, NULL);
	GRegex *web = g_regex_new("^(?:quilt|hg)\\s+(https?:\\S+)",
				  G_REGEX_RAW, 0, NULL);
	GMatchInfo *mi = NULL;
	bool isbad = false, checked = true;

	if (g_hash_table_contains(good, v))
		goto done;
	if (g_hash_table_contains(bad, v)) {
		isbad = true;
		checked = false;
	} else if (x[0] != 'T') {
		isbad = !reaches(t, WGET, NULL, v);
	} else if (!g_regex_match_simple("^(?:git|quilt|hg)\\s+\\S", v,
					 G_REGEX_RAW, 0)) {
		g_ptr_array_add(out, g_strdup_printf("%s: warning: malformed "
						     "entry\t%s", where, x));
		checked = false;
	} else if (g_regex_match(git, v, 0, &mi)) {
		char *url = g_match_info_fetch(mi, 1);
		char *branch = g_match_info_fetch(mi, 3);

		isbad = !reaches(t, LS_REMOTE, url, branch);
		g_free(url);
		g_free(branch);
	} else if (g_match_info_free(mi), mi = NULL,
		   g_regex_match(web, v, 0, &mi)) {
		char *url = g_match_info_fetch(mi, 1);

		isbad = !reaches(t, WGET, NULL, url);
		g_free(url);
	} else {
		checked = false;
	}
	if (checked)
		g_hash_table_add(isbad ? bad : good, g_strdup(v));
	if (isbad)
		g_ptr_array_add(out, g_strdup_printf("%s: warning: possible bad "
						     "link\t%s", where, x));
done:
	g_match_info_free(mi);
	g_regex_unref(git);
	g_regex_unref(web);
}

int maint_self_test(const struct ms_tree *t, const char *name,
		    const char *buf, size_t len, GPtrArray *lsfiles,
		    unsigned checks, GPtrArray *out)
{
	bool sections = checks & MAINT_SELF_TEST_SECTIONS;
	bool patterns = checks & MAINT_SELF_TEST_PATTERNS;
	GHashTable *good = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	GHashTable *bad = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	char *text = g_strndup(buf, len);
	char **lines = g_strsplit(text, "\n", -1);
	guint n = g_strv_length(lines);
	GPtrArray *headers = g_ptr_array_new();
	GPtrArray *files = g_ptr_array_copy(lsfiles, NULL, NULL);
	int rc = 0;

	/* Perl's lines: a last "\n" ends a line, it does not start one */
	if (n && !*lines[n - 1]) {
		g_free(lines[--n]);
		lines[n] = NULL;
	}
	g_ptr_array_set_free_func(files, NULL);  /* borrowed */
	g_ptr_array_sort(files, ms_cmp_str);
	for (guint i = 0; i < n && rc == 0; i++) {
		const char *x = lines[i], *v;
		char *where = g_strdup_printf("%s:%u", name, i + 1);

		if (sections && x[0] && !space(x[0]) && x[1] && x[1] != ':' &&
		    lines[i + 1] && field(lines[i + 1], true))
			section(lines, i, where, headers, out);
		v = field(x, false);
		if (v && patterns && (x[0] == 'F' || x[0] == 'X')) {
			char *p = pattern(t, v);

			rc = any_match(p, files);
			if (rc == 0)
				g_ptr_array_add(out, g_strdup_printf(
					"%s: warning: no file matches\t%s",
					where, x));
			rc = rc < 0 ? ms_error_set(MS_ERROR, "%s: the pattern "
						   "'%s' is no regex (the "
						   "script dies there)",
						   where, p) : 0;
			g_free(p);
		} else if (v && (checks & MAINT_SELF_TEST_LINKS) &&
			   strchr("WQB", x[0]) && (g_str_has_prefix(v, "http:") ||
						   g_str_has_prefix(v, "https:"))) {
			reach(t, x, v, where, good, bad, out);
		} else if (v && (checks & MAINT_SELF_TEST_SCM) && x[0] == 'T') {
			reach(t, x, v, where, good, bad, out);
		}
		g_free(where);
	}
	g_hash_table_destroy(good);
	g_hash_table_destroy(bad);
	g_ptr_array_free(files, TRUE);
	g_ptr_array_free(headers, TRUE);
	g_strfreev(lines);
	g_free(text);
	return rc;
}
