/*
 * git-follow.h - what `git log --follow` makes of a commit that adds the
 * file it follows to its parent's tree: git looks for the file's source
 * among all the parent's files (find_copies_harder), an identical blob
 * first, then by content similarity (50% at least), and follows the
 * source's path from there on.  Used by git-log.c; implemented in
 * git-follow.c, a libgit2 adapter (it takes libgit2's types).
 */
#ifndef MS_GIT_FOLLOW_H
#define MS_GIT_FOLLOW_H

#include "git-log.h"

#include <git2.h>
#include <glib.h>

/*
 * git's diff_filespec_is_binary() for blob `b` (NULL: none) at `path`:
 * its "diff" attribute (`diff` text, `-diff` binary), else a NUL in the
 * first 8,000 bytes, into *binary.  Returns 0; 1 when the attribute names
 * a diff driver (git must say); negative on errors.
 */
int ms_git_is_binary(git_repository *repo, const char *path,
		     const git_blob *b, bool *binary);

/*
 * The path git follows from the commit whose tree is `tree` and whose
 * parent's is `ptree`, which adds `path` (entry `dst`): into *src (a new
 * string; NULL when git finds none and keeps `path`).  With `renames`,
 * blame's find_rename() instead: only the files the commit deletes are
 * sources, and git 2.39's basename match comes before the inexact pass
 * (the one deleted file of the same basename, if 75% similar).
 * Returns 0; MS_GIT_LOG_DIES (a blob it reads is missing:
 * a partial clone without a promisor remote); 1 when this cannot say what git does (more sources
 * than diff.renameLimit squared, a blob with CRLF whose "diff" attribute
 * names a driver); negative on errors.
 */
int ms_git_follow(git_repository *repo, git_tree *ptree, git_tree *tree,
		  const char *path, const git_tree_entry *dst, bool renames,
		  char **src);

#endif
