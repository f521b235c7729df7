/*
 * maint-cc-args.c - get_maintainer.pl's options as Getopt::Long reads
 * them (see maint-cc-args.h): the union of the scripts' GetOptions()
 * tables, each option marked with the dialects whose script has it.
 */
#include "maint-cc-args.h"
#include "error.h"
#include "tree.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

/* Which scripts have an option. */
#define K (1u << MAINT_DIALECT_KERNEL)
#define Q (1u << MAINT_DIALECT_QEMU)
#define X (1u << MAINT_DIALECT_XEN)

struct spec {
	const char *names;   /* Getopt::Long's "a|b" */
	char type;           /* '!' negatable, 0 plain, 'i' =i, 's' =s,
			      * ':' :s */
	unsigned dialects;
	long def;            /* the default of a switch or =i */
	long def_xen;
};

static const struct spec specs[MCC_ARG_NR] = {
	[MCC_ARG_EMAIL] = { "email", '!', K | Q | X, 1, 1 },
	[MCC_ARG_GIT] = { "git", '!', K | Q | X, 0, 0 },
	[MCC_ARG_GIT_ALL_SIGNATURE_TYPES] = { "git-all-signature-types", '!',
					     K | Q | X, 0, 0 },
	[MCC_ARG_GIT_BLAME] = { "git-blame", '!', K | Q | X, 0, 0 },
	[MCC_ARG_GIT_BLAME_SIGNATURES] = { "git-blame-signatures", '!',
					  K | Q | X, 1, 1 },
	[MCC_ARG_GIT_FALLBACK] = { "git-fallback", '!', K | Q | X, 1, 0 },
	[MCC_ARG_GIT_CHIEF_PENGUINS] = { "git-chief-penguins", '!', K | X,
					0, 0 },
	[MCC_ARG_GIT_MIN_SIGNATURES] = { "git-min-signatures", 'i',
					K | Q | X, 1, 1 },
	[MCC_ARG_GIT_MAX_MAINTAINERS] = { "git-max-maintainers", 'i',
					 K | Q | X, 5, 5 },
	[MCC_ARG_GIT_MIN_PERCENT] = { "git-min-percent", 'i', K | Q | X,
				     5, 5 },
	[MCC_ARG_GIT_SINCE] = { "git-since", 's', K | Q | X, 0, 0 },
	[MCC_ARG_HG_SINCE] = { "hg-since", 's', K | Q | X, 0, 0 },
	[MCC_ARG_INTERACTIVE] = { "i|interactive", '!', K | Q | X, 0, 0 },
	[MCC_ARG_REMOVE_DUPLICATES] = { "remove-duplicates", '!', K | Q | X,
				       1, 0 },
	[MCC_ARG_MAILMAP] = { "mailmap", '!', K | Q | X, 1, 1 },
	[MCC_ARG_DROP_THE_REST_SUPPORTER] = { "drop_the_rest_supporter", '!',
					     X, 1, 1 },
	[MCC_ARG_M] = { "m", '!', K | Q | X, 1, 1 },
	[MCC_ARG_R] = { "r", '!', K | Q | X, 1, 1 },
	[MCC_ARG_N] = { "n", '!', K | Q | X, 1, 1 },
	[MCC_ARG_L] = { "l", '!', K | Q | X, 1, 1 },
	[MCC_ARG_FIXES] = { "fixes", '!', K, 1, 1 },
	[MCC_ARG_MODERATED] = { "moderated", '!', K, 1, 1 },
	[MCC_ARG_S] = { "s", '!', K | Q | X, 0, 0 },
	[MCC_ARG_MULTILINE] = { "multiline", '!', K | Q | X, 1, 1 },
	[MCC_ARG_ROLES] = { "roles", '!', K | Q | X, 0, 0 },
	[MCC_ARG_ROLESTATS] = { "rolestats", '!', K | Q | X, 1, 0 },
	[MCC_ARG_SEPARATOR] = { "separator", 's', K | Q | X, 0, 0 },
	[MCC_ARG_SUBSYSTEM] = { "subsystem", '!', K | Q | X, 0, 0 },
	[MCC_ARG_STATUS] = { "status", '!', K | Q | X, 0, 0 },
	[MCC_ARG_SCM] = { "scm", '!', K | Q | X, 0, 0 },
	[MCC_ARG_TREE] = { "tree", '!', K, 1, 1 },
	[MCC_ARG_WEB] = { "web", '!', K | Q | X, 0, 0 },
	[MCC_ARG_LETTERS] = { "letters", 's', K, 0, 0 },
	[MCC_ARG_PATTERN_DEPTH] = { "pattern-depth", 'i', K | Q | X, 0, 0 },
	[MCC_ARG_KEYWORDS] = { "k|keywords", '!', K | Q | X, 1, 1 },
	[MCC_ARG_SECTIONS] = { "sections", '!', K | Q | X, 0, 0 },
	[MCC_ARG_FILE_EMAILS] = { "fe|file-emails", '!', K | Q | X, 0, 0 },
	[MCC_ARG_FILE] = { "f|file", 0, K | Q | X, 0, 0 },
	[MCC_ARG_FIND_MAINTAINER_FILES] = { "find-maintainer-files", 0, K,
					   0, 0 },
	[MCC_ARG_MAINTAINER_PATH] = { "mpath|maintainer-path", 's', K, 0, 0 },
	[MCC_ARG_SELF_TEST] = { "self-test", ':', K, 0, 0 },
	[MCC_ARG_VERSION] = { "v|version", 0, K | Q | X, 0, 0 },
	[MCC_ARG_HELP] = { "h|help|usage", 0, K | Q | X, 0, 0 },
};

/* Whether `name` (`n` bytes, any case) is one of `names` ("a|b"). */
static bool has_name(const char *names, const char *name, size_t n)
{
	const char *p = names;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !g_ascii_strncasecmp(p, name, n))
			return true;
		if (!bar)
			break;
		p = bar + 1;
	}
	return false;
}

/* Which option `name` (`n` bytes) spells, and whether negated: -1 if
 * none. */
static int lookup(const char *name, size_t n, bool *neg)
{
	for (int i = 0; i < MCC_ARG_NR; i++) {
		*neg = false;
		if (has_name(specs[i].names, name, n))
			return i;
		if (specs[i].type != '!' || n < 3 ||
		    g_ascii_strncasecmp(name, "no", 2))
			continue;
		*neg = true;
		if (has_name(specs[i].names, name + 2, n - 2) ||
		    (name[2] == '-' &&
		     has_name(specs[i].names, name + 3, n - 3)))
			return i;
	}
	*neg = false;
	return -1;
}

/* Getopt::Long's integer: [-+]?[0-9]+ */
static bool parse_int(const char *s, long *out)
{
	const char *p = s + (*s == '-' || *s == '+');

	if (!*p || strspn(p, "0123456789") != strlen(p))
		return false;
	*out = strtol(s, NULL, 10);
	return true;
}

int maint_cc_args_take(struct maint_cc_args *a, int argc, char **argv)
{
	const char *arg = argv[0], *name, *eq;
	const char *value = NULL;
	size_t n;
	bool neg;
	int id, used = 1;

	if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--"))
		return 0;
	name = arg + 1 + (arg[1] == '-');
	eq = strchr(name, '=');
	n = eq ? (size_t)(eq - name) : strlen(name);
	id = lookup(name, n, &neg);
	if (id < 0)
		return 0;
	if (eq)
		value = eq + 1;
	switch (specs[id].type) {
	case '!':
	case 0:
		if (value) {
			ms_error_set(MS_EPARSE, "option %.*s does not take an argument",
				     (int)n, name);
			return -1;
		}
		a->num[id] = !neg;
		break;
	case 'i':
	case 's':
		if (!value && argc > 1) {
			value = argv[1];
			used = 2;
		}
		if (!value || !*value) {
			ms_error_set(MS_EPARSE, "option %.*s requires an argument",
				     (int)n, name);
			return -1;
		}
		if (specs[id].type == 'i' && !parse_int(value, &a->num[id])) {
			ms_error_set(MS_EPARSE, "value \"%s\" invalid for option %.*s "
				     "(number expected)", value, (int)n, name);
			return -1;
		}
		a->str[id] = value;
		break;
	case ':':
		if (!value && argc > 1 && argv[1][0] != '-') {
			value = argv[1];
			used = 2;
		}
		a->str[id] = value ? value : "";
		break;
	}
	a->given[id] = true;
	a->spelled[id] = arg;
	return used;
}

int maint_cc_args_check(const struct maint_cc_args *a, enum maint_dialect d)
{
	static const char *const whose[] = {
		[MAINT_DIALECT_KERNEL] = "the kernel's",
		[MAINT_DIALECT_QEMU] = "QEMU's",
		[MAINT_DIALECT_XEN] = "Xen's",
	};

	for (int i = 0; i < MCC_ARG_NR; i++) {
		if (a->given[i] && !(specs[i].dialects & (1u << d))) {
			ms_error_set(MS_EPARSE, "'%s' is not an option of %s "
				     "get_maintainer.pl", a->spelled[i],
				     whose[d]);
			return -1;
		}
	}
	return 0;
}

long maint_cc_args_get(const struct maint_cc_args *a, enum maint_cc_arg id,
		       enum maint_dialect d)
{
	if (a->given[id])
		return a->num[id];
	return d == MAINT_DIALECT_XEN ? specs[id].def_xen : specs[id].def;
}

void maint_cc_args_apply(const struct maint_cc_args *a, enum maint_dialect d,
			 struct maint_cc_opts *o)
{
#define GET(id) (maint_cc_args_get(a, (id), d) != 0)
	o->dialect = d;
	o->email = GET(MCC_ARG_EMAIL);
	o->maintainer = GET(MCC_ARG_M);
	o->reviewer = GET(MCC_ARG_R);
	o->list = GET(MCC_ARG_L);
	/* QEMU's and Xen's scripts have no --moderated: always on */
	o->moderated = GET(MCC_ARG_MODERATED);
	o->subscriber = GET(MCC_ARG_S);
	o->usename = GET(MCC_ARG_N);
	o->remove_duplicates = GET(MCC_ARG_REMOVE_DUPLICATES);
	o->mailmap = GET(MCC_ARG_MAILMAP);
	o->keywords = GET(MCC_ARG_KEYWORDS);
	o->file_emails = GET(MCC_ARG_FILE_EMAILS);
	o->chief_penguins = GET(MCC_ARG_GIT_CHIEF_PENGUINS);
	o->fixes = GET(MCC_ARG_FIXES);
	o->git_blame_signatures = GET(MCC_ARG_GIT_BLAME_SIGNATURES);
	o->from_filename = a->given[MCC_ARG_FILE];
	o->drop_the_rest_supporter = d == MAINT_DIALECT_XEN &&
				     GET(MCC_ARG_DROP_THE_REST_SUPPORTER);
#undef GET
}

/* The words of .get_maintainer.conf (`len` bytes of `buf`). */
static char **conf_words(const char *buf, size_t len)
{
	GPtrArray *out = g_ptr_array_new();
	char *text = g_strndup(buf, len);
	char **lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++) {
		char **w = g_strsplit_set(g_strstrip(*l), " \t\r\f\v", -1);

		for (char **p = w; **l != '#' && *p; p++) {
			if (**p == '#')
				break;
			if (**p)
				g_ptr_array_add(out, g_strdup(*p));
		}
		g_strfreev(w);
	}
	g_strfreev(lines);
	g_free(text);
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

int maint_cc_args_conf(struct maint_cc_args *a, const struct ms_tree *tree,
		       char ***words)
{
	struct maint_cc_args conf = { 0 };
	char *buf;
	size_t len;
	int n;

	*words = NULL;
	if (ms_tree_read(tree, ".get_maintainer.conf", &buf, &len) < 0) {
		ms_error_clear();
		return 0;
	}
	*words = conf_words(buf, len);
	g_free(buf);
	n = (int)g_strv_length(*words);
	for (int i = 0; i < n;) {
		int used = maint_cc_args_take(&conf, n - i, *words + i);

		if (used < 0) {
			char *m = g_strdup(ms_error_last());

			ms_error_set(MS_EPARSE, ".get_maintainer.conf: %s", m);
			g_free(m);
			return -1;
		}
		if (used == 0)
			return ms_error_set(MS_EPARSE, ".get_maintainer.conf: "
					    "'%s' is not an option of the "
					    "script", (*words)[i]);
		i += used;
	}
	for (int id = 0; id < MCC_ARG_NR; id++) {
		if (a->given[id] || !conf.given[id] ||
		    id == MCC_ARG_FIND_MAINTAINER_FILES ||
		    id == MCC_ARG_MAINTAINER_PATH)
			continue;
		a->given[id] = true;
		a->num[id] = conf.num[id];
		a->str[id] = conf.str[id];
		a->spelled[id] = conf.spelled[id];
		a->from_conf[id] = true;
	}
	return 0;
}
