/*
 * maint-cc-args.h - get_maintainer.pl's command line, read as the
 * script's Getopt::Long reads it.
 *
 * Every script (the kernel's, U-Boot's, QEMU's, Xen's) configures
 * Getopt::Long with no_auto_abbrev: an option is one of its spellings or
 * nothing, never a prefix of one.  A spelling is `--name` or `-name` in
 * any case; a negatable switch ("name!") also takes `--noname` and
 * `--no-name`; a value comes inline (`--name=V`) or as the next argument
 * (a mandatory value takes the next argument whatever it is; an optional
 * one only when it does not start with '-').  Which options exist depends
 * on the dialect (maint_cc_args_check()); their defaults too
 * (maint_cc_args_get()).
 */
#ifndef MS_MAINT_CC_ARGS_H
#define MS_MAINT_CC_ARGS_H

#include "maint-cc.h"

#include <stdbool.h>

/* The script's options, in the order of the kernel's GetOptions(). */
enum maint_cc_arg {
	MCC_ARG_EMAIL, MCC_ARG_GIT, MCC_ARG_GIT_ALL_SIGNATURE_TYPES,
	MCC_ARG_GIT_BLAME, MCC_ARG_GIT_BLAME_SIGNATURES, MCC_ARG_GIT_FALLBACK,
	MCC_ARG_GIT_CHIEF_PENGUINS, MCC_ARG_GIT_MIN_SIGNATURES,
	MCC_ARG_GIT_MAX_MAINTAINERS, MCC_ARG_GIT_MIN_PERCENT,
	MCC_ARG_GIT_SINCE, MCC_ARG_HG_SINCE, MCC_ARG_INTERACTIVE,
	MCC_ARG_REMOVE_DUPLICATES, MCC_ARG_MAILMAP,
	MCC_ARG_DROP_THE_REST_SUPPORTER, MCC_ARG_M, MCC_ARG_R, MCC_ARG_N,
	MCC_ARG_L, MCC_ARG_FIXES, MCC_ARG_MODERATED, MCC_ARG_S,
	MCC_ARG_MULTILINE, MCC_ARG_ROLES, MCC_ARG_ROLESTATS,
	MCC_ARG_SEPARATOR, MCC_ARG_SUBSYSTEM, MCC_ARG_STATUS, MCC_ARG_SCM,
	MCC_ARG_TREE, MCC_ARG_WEB, MCC_ARG_LETTERS, MCC_ARG_PATTERN_DEPTH,
	MCC_ARG_KEYWORDS, MCC_ARG_SECTIONS, MCC_ARG_FILE_EMAILS, MCC_ARG_FILE,
	MCC_ARG_FIND_MAINTAINER_FILES, MCC_ARG_MAINTAINER_PATH,
	MCC_ARG_SELF_TEST, MCC_ARG_VERSION, MCC_ARG_HELP,
	MCC_ARG_NR
};

/* The options given: for each, the last value given, as the script
 * keeps the last. */
struct maint_cc_args {
	bool given[MCC_ARG_NR];
	long num[MCC_ARG_NR];         /* a switch's 0/1, an =i value */
	const char *str[MCC_ARG_NR];  /* an =s or :s value (borrowed) */
	const char *spelled[MCC_ARG_NR]; /* the last spelling (borrowed) */
	bool from_conf[MCC_ARG_NR];   /* given by .get_maintainer.conf only */
};

/*
 * Whether argv[0] (of `argc` arguments) is one of the script's options:
 * 0 when it is none; the number of arguments it takes (1 or 2), recorded
 * in `a`; or -1 when it is one but its value is missing or wrong (the
 * message in ms_error_last(), as Getopt::Long says it).
 */
int maint_cc_args_take(struct maint_cc_args *a, int argc, char **argv);

/*
 * 0 when every option given exists in `d`'s script; else -1 with the
 * first that does not in ms_error_last().
 */
int maint_cc_args_check(const struct maint_cc_args *a, enum maint_dialect d);

/* The value of switch or =i option `id`: the one given, else `d`'s
 * script's default. */
long maint_cc_args_get(const struct maint_cc_args *a, enum maint_cc_arg id,
		       enum maint_dialect d);

/*
 * The tree's .get_maintainer.conf as the script reads it, options first
 * then the command line's: '#' lines and everything after a '#' word
 * left out, the rest split at white space.  Its options go into `a`
 * where the command line gave none (`a` must hold the command line's);
 * --find-maintainer-files and --mpath are left to maint_file_load(),
 * which reads them from the same file.  *words receives the words (the
 * caller g_strfreev()s them after `a`).  0, or -1 with the message in
 * ms_error_last() for a word that is no option of the script (Getopt::
 * Long would die) or a bad value.  No file: 0, nothing changed.
 */
struct ms_tree;
int maint_cc_args_conf(struct maint_cc_args *a, const struct ms_tree *tree,
		       char ***words);

/*
 * Set `o` (after maint_cc_opts_init()) from the script's defaults in `d`
 * and the options given: everything maint_cc_opts holds.
 */
void maint_cc_args_apply(const struct maint_cc_args *a, enum maint_dialect d,
			 struct maint_cc_opts *o);

#endif
