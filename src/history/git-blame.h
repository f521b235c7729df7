/*
 * git-blame.h - the commits `git blame -l [-L START,+LENGTH] FILE` gives
 * a file's lines (maint-cc-vcs.h's mcc_vcs_blame()), found in the
 * repository's objects instead of by running git per file: git 2.39's
 * blame.c without -M, -C or ignored revisions, ported.
 *
 * Implemented in git-blame.c, a libgit2 adapter.
 */
#ifndef MS_GIT_BLAME_H
#define MS_GIT_BLAME_H

#include <glib.h>
#include <stdbool.h>

struct ms_blame;

/*
 * Blame in `dir`, the top of a work tree (its files as git blame reads
 * them), or with `bare` a repository (revision `rev`, NULL: HEAD).
 * Returns 0, or a negative code (the error recorded) when the
 * repository cannot be opened or this cannot say what git does for any
 * file: a shallow clone, replace refs, blame.ignoreRevsFile, a merge in
 * progress, `dir` not the top of the work tree.  Free with
 * ms_blame_free() (NULL is a no-op).
 */
int ms_blame_open(const char *dir, bool bare, const char *rev,
		  struct ms_blame **out);
void ms_blame_free(struct ms_blame *b);

/*
 * What mcc_vcs_blame() returns for `file` (`start` and `length` as the
 * script's -L has them, or NULL for the whole file), as a new array of
 * new strings (a work tree's uncommitted lines: 40 zeros, as git blame
 * says); NULL when git must say: a path git would normalise or split,
 * an -L other than digits, a work tree file that a conversion may change
 * (an attribute or core.autocrlf) or that is not a regular file, one
 * HEAD lacks where the index deletes a file (git would look for a
 * rename) or has a conflict, a diff driver, an object missing.  The signature of maint_cc_opts.vcs_blame
 * (`b` the struct ms_blame).
 */
GPtrArray *ms_blame_lines(const char *file, const char *start,
			  const char *length, void *b);

/* mcc_vcs_commit_log()'s git output from the objects, its numstat lines
 * left out (git-log.h's ms_git_log_show()): the signature of
 * maint_cc_opts.vcs_commit_log. */
char *ms_blame_commit_log(const char *id, bool body, bool stat, void *b);

/* Whether git takes `file` as one literal path of the tree: no glob, no
 * magic, no blank (the script's shell splits at blanks), no "." or ".."
 * component, nothing to normalise. */
bool ms_git_plain_path(const char *file);

#endif
