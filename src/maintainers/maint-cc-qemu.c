/*
 * maint-cc-qemu.c - what a tree's own get_maintainer.pl changes in the
 * answer: its @penguin_chief (U-Boot's Tom Rini; QEMU's script has none),
 * and whether it is QEMU's, whose dialect maint-cc.h describes (its
 * .ignoredmailmap is read here too).
 */
#include "maint-cc-qemu.h"
#include "maint-cc-perl.h"
#include "maint-cc.h"
#include "tree.h"

#include <string.h>

/* get_maintainer.pl's @penguin_chief */
#define CHIEF_NAME "Linus Torvalds"
#define CHIEF_ADDR "torvalds@linux-foundation.org"

/*
 * The next match at or after *from of `r`, a pattern whose matches
 * start with `lit`: tried only where `lit` is (*mi set, *from past it),
 * not at every byte of the script (PCRE took 9M instructions a scan).
 */
static bool next_match(GRegex *r, const char *buf, size_t len,
		       const char *lit, size_t *from, GMatchInfo **mi)
{
	const char *p;

	while (*from < len &&
	       (p = memmem(buf + *from, len - *from, lit, strlen(lit)))) {
		gint s, e;

		g_match_info_free(*mi);
		*mi = NULL;
		if (g_regex_match_full(r, buf, (gssize)len, (gint)(p - buf),
				       G_REGEX_MATCH_ANCHORED, mi, NULL)) {
			g_match_info_fetch_pos(*mi, 0, &s, &e);
			*from = (size_t)MAX(e, s + 1);
			return true;
		}
		*from = (size_t)(p - buf) + 1;
	}
	return false;
}

/* Xen's fork: "my $V = '0.26-xen';" */
static bool is_xen_script(const char *buf, size_t len)
{
	GRegex *r = g_regex_new("^my \\$V = '[^']*-xen';", G_REGEX_MULTILINE |
				G_REGEX_RAW, 0, NULL);
	GMatchInfo *mi = NULL;
	size_t from = 0;
	bool yes = next_match(r, buf, len, "my $V = '", &from, &mi);

	g_match_info_free(mi);

	g_regex_unref(r);
	return yes;
}

/*
 * What the tree's own scripts/get_maintainer.pl says: its @penguin_chief
 * (U-Boot's names Tom Rini, QEMU's has none) and whose dialect it speaks;
 * without one, the kernel's: Linus Torvalds.
 */
GPtrArray *mcc_read_script(const struct ms_tree *tree,
			   enum maint_dialect *dialect)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	GRegex *r = g_regex_new("^push\\(@penguin_chief, \"(.*)\"\\);",
				G_REGEX_MULTILINE | G_REGEX_RAW, 0, NULL);
	GMatchInfo *mi = NULL;
	size_t from = 0;
	char *buf;
	size_t len;

	*dialect = MAINT_DIALECT_KERNEL;
	if (ms_tree_read(tree, "scripts/get_maintainer.pl", &buf, &len) < 0) {
		ms_error_clear();
		g_ptr_array_add(out, g_strdup(CHIEF_NAME ":" CHIEF_ADDR));
		g_regex_unref(r);
		return out;
	}
	if (g_strstr_len(buf, (gssize)len, "a QEMU source tree"))
		*dialect = MAINT_DIALECT_QEMU;
	else if (is_xen_script(buf, len))
		*dialect = MAINT_DIALECT_XEN;
	while (next_match(r, buf, len, "push(@penguin_chief, \"", &from,
			  &mi)) {
		char *v = g_match_info_fetch(mi, 1);
		GString *s = g_string_new(NULL);

		/* a Perl double-quoted string: \@ is @ */
		for (const char *p = v; *p; p++) {
			if (*p == '\\' && p[1])
				p++;
			g_string_append_c(s, *p);
		}
		g_ptr_array_add(out, g_string_free(s, FALSE));
		g_free(v);
	}
	g_match_info_free(mi);
	g_regex_unref(r);
	g_free(buf);
	return out;
}

/*
 * QEMU's read_ignoredmailmap(): '#' comments, and the address of each
 * "Name <addr>" or "Name <addr> <other>" line ("<addr>" alone matches
 * neither of its patterns, so it ignores nothing).
 */
GHashTable *mcc_read_ignoredmailmap(const struct ms_tree *tree)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	GRegex *one = g_regex_new("^([^<]+)<([^>]+)>$", G_REGEX_RAW, 0, NULL);
	GRegex *two = g_regex_new("^(.+)<([^>]+)>\\s*<([^>]+)>$",
				  G_REGEX_RAW, 0, NULL);
	char *buf, **lines;
	size_t len;

	if (ms_tree_read(tree, ".ignoredmailmap", &buf, &len) < 0) {
		ms_error_clear();
		g_regex_unref(one);
		g_regex_unref(two);
		return set;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *hash = strchr(*l, '#');
		GMatchInfo *mi = NULL;

		if (hash)
			*hash = '\0';
		g_strstrip(*l);
		if (!**l)
			continue;
		if (g_regex_match(one, *l, 0, &mi) ||
		    (g_match_info_free(mi), mi = NULL,
		     g_regex_match(two, *l, 0, &mi))) {
			char *name, *address;

			mcc_group_email(mi, 1, &name, &address);
			g_hash_table_add(set, address);
			g_free(name);
		}
		g_match_info_free(mi);
	}
	g_strfreev(lines);
	g_free(buf);
	g_regex_unref(one);
	g_regex_unref(two);
	return set;
}

enum maint_dialect maint_cc_tree_dialect(const struct ms_tree *tree,
					 enum maint_dialect asked)
{
	enum maint_dialect d;

	if (asked != MAINT_DIALECT_AUTO)
		return asked;
	g_ptr_array_free(mcc_read_script(tree, &d), TRUE);
	return d;
}
