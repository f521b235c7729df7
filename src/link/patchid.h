/*
 * patchid.h - what linking mail to commits needs from a commit beyond the
 * history walk: its summary line and its stable patch-id, the one
 * `git show C | git patch-id --stable` prints.  Implemented in
 * git-patchid.c (libgit2's git_diff_patchid()).
 */
#ifndef MS_PATCHID_H
#define MS_PATCHID_H

#include "error.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Compute the stable patch-id of commit `id` (hex) of `gitdir` against
 * its first parent (the empty tree for a root commit) into `hex` (40 hex
 * digits and a NUL; "" when the commit changes nothing) and, when
 * `summary` is not NULL, its summary line into *summary (g_free it).
 *
 * `paths` (may be NULL), the paths the commit touches as the history walk
 * lists them, limit the tree diff to those paths: the same diff, without
 * comparing every tree of a large repository.
 *
 * Thread-safe: each calling thread keeps its own repository handle,
 * opened on first use and closed when the thread exits.  Returns 0,
 * MS_ENOTFOUND for a missing repository or commit, MS_ERROR otherwise.
 */
int ms_commit_patchid(const char *gitdir, const char *id,
		      const char *const *paths, size_t nr_paths, char hex[41],
		      char **summary);

#endif
