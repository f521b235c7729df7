/*
 * maintainers.h - MAINTAINERS files: parsing and get_maintainer.pl-exact
 * matching of paths to entries.
 *
 * A struct maint_file holds every entry of one or more MAINTAINERS files
 * (U-Boot keeps one per board; get_maintainer.pl --find-maintainer-files).
 * A struct maint_index, built once from a maint_file and the tree's list of
 * files, answers "which entries match this path, in get_maintainer.pl's
 * order" without scanning every pattern for every file.
 *
 * Ownership: everything returned by a getter is borrowed from its parent
 * and valid until the parent is freed.
 *
 * The parser lives in maintainers.c, the matching index in maint-index.c.
 */
#ifndef MS_MAINTAINERS_H
#define MS_MAINTAINERS_H

#include "error.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

struct ms_tree;

/* One "X:\tvalue" line of an entry. */
struct maint_field {
	char key;          /* 'M', 'R', 'L', 'S', 'W', 'Q', 'B', 'C', 'P',
			    * 'T', 'F', 'X', 'N', 'K' */
	char *value;       /* the text after "X:" and its blanks, the rest
			    * as written (get_maintainer.pl matches it so) */
	const char *file;  /* the MAINTAINERS file it came from */
	unsigned line;     /* 1-based */
	unsigned tv;       /* its index in get_maintainer.pl's @typevalue:
			    * the lines that are neither blank nor comments,
			    * counted over every file read */
};

struct maint_entry {
	char *name;        /* the entry's title line */
	char *underline;   /* the "-----" line right under it, as written,
			    * or NULL: QEMU's get_maintainer.pl names the
			    * entry by it (maint-cc.h) */
	const char *file;
	unsigned line;     /* of the title line */
	size_t index;      /* position among all entries of the maint_file */
	struct maint_field *fields;
	size_t nr_fields;
};

struct maint_file;

/* An empty set of MAINTAINERS files.  Free with maint_file_free(). */
struct maint_file *maint_file_new(void);
void maint_file_free(struct maint_file *mf);

/*
 * Read the files parsed from now on as QEMU's get_maintainer.pl reads
 * MAINTAINERS (`on`), or as the kernel's (the default).  QEMU's takes any
 * byte before ':' for a field letter (^(.):, the kernel's ^([A-Z]):) and
 * keeps '#' lines as section titles where the kernel's skips them: a '#'
 * line right above the fields names the entry, and one between two
 * fields ends the entry, the fields after it making a new one.
 */
void maint_file_set_qemu_syntax(struct maint_file *mf, bool on);

/*
 * Parse the MAINTAINERS text `buf` (`len` bytes, need not be
 * NUL-terminated) named `name` (for messages) and append its entries.
 * Problems that leave the rest usable (a key before any entry, an
 * over-long line, binary garbage) are added to `diags` with file and line;
 * returns 0, or a negative code when nothing could be parsed (MS_EPARSE
 * for a file over 32 MiB).
 */
int maint_file_parse(struct maint_file *mf, const char *name,
		     const char *buf, size_t len, struct ms_diags *diags);

size_t maint_file_nr_entries(const struct maint_file *mf);
const struct maint_entry *maint_file_entry(const struct maint_file *mf,
					   size_t i);
/* The entry called `name` (exact), or NULL. */
const struct maint_entry *maint_file_find(const struct maint_file *mf,
					  const char *name);

/* Whether entry `e` is a catch-all: an F: pattern of it is a lone star,
 * or a star and a slash (THE REST), so that it names no path in
 * particular. */
bool maint_entry_catch_all(const struct maint_entry *e);

/*
 * Can K: pattern `v` first be matched once on many lines joined, each
 * ended by a newline, under G_REGEX_MULTILINE, so that a miss there
 * spares matching it line by line?  Then a line the pattern matches
 * alone, or hits the match limits on, makes the joined text match or hit
 * the limits too: the line's bytes are the same and the newlines around
 * it answer ^, $ and \b as its ends do.  Not so for a pattern that looks
 * past a line's ends (lookarounds, \A \z \Z \G), commits to the longest
 * match (atomic groups, possessive quantifiers, \R, \X and (*VERB)s) or
 * turns multi-line off ((?-m), (?^)); nor for \Q, which this scan does
 * not follow.  A false answer costs only speed (review-map.c,
 * maint-cc.c).
 */
bool maint_k_joinable(const char *v);

/*
 * Whether a K: pattern compiled for the joined text (`joined`, or NULL
 * when maint_k_joinable() said no) may match one of the lines `all`
 * joins (`len` bytes): false only when it misses them all without
 * hitting the match limits.
 */
bool maint_k_maybe(const GRegex *joined, const char *all, size_t len);

/*
 * Split a person field ("Name <addr>", "addr", "Name <addr> (comment)")
 * into newly allocated name and address (g_free them).  Either may come
 * back NULL when absent.
 */
void maint_parse_person(const char *value, char **name, char **email);

/* Where the MAINTAINERS files come from (get_maintainer.pl's options). */
struct maint_load_opts {
	const char *const *maintainers; /* files on disk (--maintainers) */
	size_t nr_maintainers;
	bool find_maintainer_files;     /* also every * /MAINTAINERS below */
	bool qemu_syntax;               /* maint_file_set_qemu_syntax() */
};

/*
 * Load the MAINTAINERS files of `tree` as get_maintainer.pl finds them:
 * the files named in `opts` if any; else the tree's .get_maintainer.conf
 * settings (--find-maintainer-files, --mpath) and `opts`; else the tree's
 * top-level MAINTAINERS.  MS_ENOTFOUND when there is none.  The result is
 * the caller's (maint_file_free).
 */
int maint_file_load(const struct ms_tree *tree,
		    const struct maint_load_opts *opts,
		    struct maint_file **out, struct ms_diags *diags);

struct maint_index;

/*
 * Build the matching index for `mf` over the files of `tree` (needed
 * because get_maintainer.pl treats a pattern naming an existing directory
 * differently).  Invalid N: regexes are reported in `diags` and skipped.
 * The index borrows `mf` and `tree`.  Returns 0 or a negative code.
 */
int maint_index_new(const struct maint_file *mf, const struct ms_tree *tree,
		    struct maint_index **out, struct ms_diags *diags);
void maint_index_free(struct maint_index *idx);

/*
 * A digest of everything maint_index_match() answers from: the entries'
 * fields and the tree's answers to the directory questions the patterns
 * asked.  Two indexes with the same fingerprint match every path alike,
 * so answers saved under it (activity.c keeps them in the store) hold for
 * any tree giving it.  A new string (g_free).
 */
char *maint_index_fingerprint(const struct maint_index *idx);

/* How many matches so far hit the regex limits (maint_index_report()). */
unsigned long maint_index_limit_hits(const struct maint_index *idx);

/*
 * One diagnostic per F:/X:/N: pattern whose regex hit the match limits
 * on some path so far (file:line of the pattern, how many paths, the
 * first): such a match is unknown and was taken as a match.
 */
void maint_index_report(const struct maint_index *idx,
			struct ms_diags *diags);

/*
 * Store in `out` (room for `max`) the entries matching `path`, in the
 * order get_maintainer.pl --no-git --no-keywords --subsystem prints them;
 * returns how many matched (which may exceed `max`).  Thread-safe: an
 * index may be queried from several threads at once.
 */
size_t maint_index_match(const struct maint_index *idx, const char *path,
			 const struct maint_entry **out, size_t max);

/*
 * Does the glob `p` (literal characters, '*' for any run, '?' for any one
 * character) match a prefix of `s`?  That is what "^regex" without an end
 * anchor means for F: and X: patterns (get_maintainer.pl's m@^$pattern@).
 */
bool maint_glob_prefix(const char *p, const char *s);

/* One match with its weight (get_maintainer.pl's pattern depth). */
struct maint_match {
	const struct maint_entry *entry;
	int depth;
	int f_depth;  /* the deepest matching F:'s depth; INT_MIN if none */
};

/* Like maint_index_match(), with each entry's depth. */
size_t maint_index_match_depth(const struct maint_index *idx,
			       const char *path, struct maint_match *out,
			       size_t max);

/*
 * Like maint_index_match_depth(), and also set marks[id] = 1 for every
 * pattern (F:, X: or N: field, numbered 0 .. maint_index_nr_patterns()-1)
 * that matches `path`, whether or not its entry is excluded.  `marks` may
 * be NULL.
 */
size_t maint_index_match_marks(const struct maint_index *idx,
			       const char *path, struct maint_match *out,
			       size_t max, unsigned char *marks);
size_t maint_index_nr_patterns(const struct maint_index *idx);
/* The field of pattern `id`; borrowed from the maint_file. */
const struct maint_field *maint_index_pattern(const struct maint_index *idx,
					      size_t id);

#endif
