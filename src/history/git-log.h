/*
 * git-log.h - one commit's part of get_maintainer.pl's `git log
 * --no-color --follow --numstat --no-merges --format=... -- FILE`
 * (maint-cc-vcs.h), made from the repository's objects instead of
 * running git: the store's history model says which commits touch the
 * file, this prints what git prints for each.
 *
 * Implemented in git-log.c, a libgit2 adapter.
 */
#ifndef MS_GIT_LOG_H
#define MS_GIT_LOG_H

#include <glib.h>
#include <stdbool.h>

struct ms_git_log;

/* ms_git_log_commit()'s "git dies at this commit" */
#define MS_GIT_LOG_DIES 2

/* Open `gitdir` (a work tree or a repository); errors as
 * ms_git_graph_open()'s.  Free with ms_git_log_free(). */
int ms_git_log_open(const char *gitdir, struct ms_git_log **out);
void ms_git_log_free(struct ms_git_log *g);

/*
 * Append to `out` what git log prints for commit `id` (40 hex digits, a
 * commit with at most one parent) and `path` with the format
 *   GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate: %aD%nGitSubject: %s%n%b%n
 * and, with `stat`, --numstat (QEMU's and Xen's log has none; their log
 * shows no merge either, as --follow never does): the message as git's
 * pretty.c cuts it, the numstat
 * line of `path` (git's binary rule: the worktree's "diff" attribute,
 * else a NUL in the first 8,000 bytes; line counts of libgit2's xdiff,
 * git's own).  Where the commit adds `path` to its parent's tree,
 * --follow looks for its source among all the parent's files
 * (git-follow.h): when it finds one the numstat line names both
 * ("pfx{a => b}sfx") and *follow is set to the source's path (a new
 * string), which git follows from then on; NULL otherwise.
 * Returns 0; MS_GIT_LOG_DIES when git dies at this commit (a blob the
 * source search reads is missing) and nothing was appended; 1 when this
 * cannot say what git says, and nothing was appended: `path` is a
 * directory, a submodule or changes type there, the commit declares an
 * encoding, its author line is not "name <mail>", a diff driver applies,
 * or ms_git_follow() cannot say; negative on errors.
 */
int ms_git_log_commit(struct ms_git_log *g, const char *id, const char *path,
		      bool stat, GString *out, char **follow);

struct git_repository;

/*
 * What `git log --no-color --numstat --format=F -1 ID` prints in the
 * top of a work tree (or in a repository), F the format above (without
 * "%b%n" unless `body`), `id` the script's (hex, perhaps abbreviated),
 * without --numstat unless `stat` (QEMU's and Xen's forks run none),
 * and then without the numstat lines of paths with no '@': the script
 * greps a commit's log for its commit, author and signature lines only,
 * and a numstat line ("N\tM\t" or "-\t-\t", then a name made of changed
 * paths) can only be a signature line, which wants an '@', when a path
 * has one (then it is there, in git's order).  A new string, "" when
 * git dies (no such commit); NULL when git must say: a changed blob
 * missing (git dies in the diff), a path with an '@' added or deleted
 * beside other files added and deleted (git's renames could pair them),
 * or quoted, a submodule or changing type; a ref of that name, an
 * abbreviation of several objects or of none with a file of that name,
 * not a commit, a declared encoding, an author line not "name <mail>",
 * the configuration changing the output or making git die
 * (diff.renames other than true, diff.algorithm, log.showSignature and
 * others).
 */
char *ms_git_log_show(struct git_repository *repo, const char *id,
		      bool body, bool stat);

#endif
