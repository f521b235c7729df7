/*
 * maint-cc-vcs.h - what get_maintainer.pl reads from git for --git and
 * its git fallback: the output of its find_signers_cmd for one file, run
 * as the script runs it, and the lines it greps from it.
 *
 * The script runs, in the top of the tree,
 *   git log --no-color --follow --since=SINCE --numstat --no-merges
 *       --format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate: %aD%n
 *                 GitSubject: %s%n%b%n" -- FILE
 * through the shell, strips the leading white space of every line and
 * splits the rest into lines.  QEMU's and Xen's forks (of about 2010)
 * run it without --numstat and --no-merges (`old`).  mcc_vcs_log() runs the same command (so
 * git's own date parsing resolves SINCE against the same wall clock, and
 * --follow follows renames as git does) and returns those lines.
 */
#ifndef MS_MAINT_CC_VCS_H
#define MS_MAINT_CC_VCS_H

#include <glib.h>
#include <stdbool.h>

/* Where the script's git commands run. */
struct mcc_vcs {
	const char *dir;      /* a work tree, or with `bare` a repository */
	bool bare;
	const char *rev;      /* NULL: HEAD */
	const char *since;    /* --git-since as given */
	bool resolved;        /* log with --max-age=max_age, not --since */
	gint64 max_age;       /* `since` as git resolved it */
	bool old;             /* QEMU's and Xen's log: merges, no numstat */
};

/*
 * What git makes of v->rev and v->since now (git rev-parse REV
 * --since=SINCE): the commit's hex id into `id`, the date into *max_age.
 * Returns false when git says nothing usable (no repository, a bad
 * revision, a SINCE the shell would split into words).
 */
bool mcc_vcs_resolve(const struct mcc_vcs *v, char id[41], gint64 *max_age);

/*
 * The committer dates of every commit reachable from `id` (git rev-list
 * --timestamp), sorted, into `out` (gint64).  false when git fails.
 * Two --since dates give the same log of any file when no date lies
 * between them: git's walk compares each commit's date with them.
 */
bool mcc_vcs_dates(const struct mcc_vcs *v, const char *id, GArray *out);

/*
 * The lines (a new array of new strings) of find_signers_cmd for `file`,
 * as git_execute_cmd() makes them: leading white space removed, blank
 * lines dropped.  An empty array when git fails or prints nothing, as
 * the script's backticks give.
 */
GPtrArray *mcc_vcs_log(const struct mcc_vcs *v, const char *file);

/* git's output `out` (taken; NULL: none) as git_execute_cmd() splits
 * it: leading white space removed, blank lines dropped; a new array. */
GPtrArray *mcc_vcs_split(char *out);

/*
 * The lines of find_commit_signers_cmd (with `body`) or of
 * find_commit_author_cmd (without: no %b in the format) for commit `id`
 * (a Fixes: line's hex id, a blamed commit), split as mcc_vcs_log()
 * splits them:
 *   git log --no-color --numstat --format=... -1 ID
 * (QEMU's and Xen's forks: without --numstat).  An empty array when git
 * knows no such commit.
 */
GPtrArray *mcc_vcs_commit_log(const struct mcc_vcs *v, const char *id,
			      bool body);

/*
 * vcs_save_commits() of blame_range_cmd (`start`, `length` given:
 *   git blame -l -L START,+LENGTH FILE) or of blame_file_cmd (NULL:
 *   git blame -l FILE): the commit ids (^([0-9a-f]+) ) of git's lines,
 * as a new array of new strings; empty when git fails.  A bare
 * repository blames `rev` (or HEAD) -- FILE: it has no work tree.
 */
GPtrArray *mcc_vcs_blame(const struct mcc_vcs *v, const char *file,
			 const char *start, const char *length);

/* vcs_list_files() of the script's --self-test: `git ls-files ./` in
 * the work tree, split as mcc_vcs_log() splits; empty when git fails. */
GPtrArray *mcc_vcs_ls_files(const struct mcc_vcs *v);

/* What vcs_find_signers() greps from the lines of one file's log. */
struct mcc_vcs_found {
	long commits;        /* lines matching ^GitCommit: [0-9a-f]{40} */
	GPtrArray *authors;  /* the ^GitAuthor: lines, whole */
	GPtrArray *signatures; /* the signature lines, whole */
	GArray *added, *removed; /* long: each numstat line of the file */
};

/*
 * Grep `lines` as vcs_find_signers() does: the signature lines are those
 * matching ^[ \t]*(Signed-off-by:|Reviewed-by:|Acked-by:).*@.*$, or
 * with `all_types` ^[ \t]*(.+?)[Bb][Yy]:.*@.*$; a numstat line is
 * ^(\d+)\t(\d+)\t$file$ with `file` read as a regex, as the script
 * interpolates it.  Release with mcc_vcs_found_release().
 */
void mcc_vcs_grep(GPtrArray *lines, const char *file, bool all_types,
		  struct mcc_vcs_found *out);
void mcc_vcs_found_release(struct mcc_vcs_found *f);

/* extract_formatted_signatures()'s cut: the text after the last ':'
 * that has something after it, leading blanks skipped; a new string. */
char *mcc_vcs_cut(const char *line);

/*
 * The tree's .get_maintainer.ignore as the kernel's script reads it
 * (lines trimmed, then a '#' and what follows cut; kept when an RFC 822
 * address): a new array of new strings, empty without the file.
 */
struct ms_tree;
GPtrArray *mcc_vcs_read_ignore(const struct ms_tree *tree);

/* The script's /$penguin_chiefs/i for `chiefs` ("Name:address" each):
 * a new regex of their names, or NULL without any. */
GRegex *mcc_vcs_chief_re(GPtrArray *chiefs);

/* uniq(): the strings of `a` without repeats, the first kept; a new
 * array of borrowed strings. */
GPtrArray *mcc_vcs_uniq(GPtrArray *a);

#endif
