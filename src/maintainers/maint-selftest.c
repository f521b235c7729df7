/*
 * maint-selftest.c - the checks of get_maintainer.pl --self-test that
 * need no network (maint-cc.h): "sections" (duplicate headers, a
 * section without an address, a status or a file pattern) and
 * "patterns" (an F: or X: that no file of `git ls-files` matches), read
 * from the kernel's self_test(), line for line.
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
	if (r)
		g_regex_unref(r);
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

int maint_self_test(const struct ms_tree *t, const char *name,
		    const char *buf, size_t len, GPtrArray *lsfiles,
		    bool sections, bool patterns, GPtrArray *out)
{
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
		}
		g_free(where);
	}
	g_ptr_array_free(files, TRUE);
	g_ptr_array_free(headers, TRUE);
	g_strfreev(lines);
	g_free(text);
	return rc;
}
