/*
 * git-graph.h - commit headers (committer time and parents) read one at
 * a time, for the store's incremental walk (store.c), which orders the
 * commits it already knows without a full libgit2 revwalk; and whether
 * the repository holds a blob or a branch a path, for review's rules on
 * which project a patch belongs to.
 *
 * Implemented in git-graph.c, a libgit2 adapter.
 */
#ifndef MS_GIT_GRAPH_H
#define MS_GIT_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

struct ms_git_graph;

/*
 * Open `gitdir` for header reads.  Errors as ms_history_walk()'s
 * (MS_ENOTFOUND "not a git repository: 'X'").  Free with
 * ms_git_graph_free().
 */
int ms_git_graph_open(const char *gitdir, struct ms_git_graph **out);
void ms_git_graph_free(struct ms_git_graph *g);

/*
 * The header of commit `raw` (20 bytes) as libgit2's revwalk sees it:
 * the committer time into *time, the parents' raw ids (20 bytes each)
 * into a new array *parents (g_free it) and their count into *nr.
 * Returns 0, or MS_ENOTFOUND when the commit cannot be read or parsed.
 */
int ms_git_graph_header(struct ms_git_graph *g, const unsigned char *raw,
			int64_t *time, unsigned char **parents, unsigned *nr);

/*
 * Whether the object database holds exactly one object whose id begins
 * with `hex` (at least 7 hex digits, as a diff's "index" line abbreviates
 * it), and that object is a blob, or with `commit` a commit.  An
 * ambiguous prefix, an unreadable database or another type: false.
 */
bool ms_git_graph_has_object(struct ms_git_graph *g, const char *hex,
			     bool commit);

/*
 * Whether the tip of a branch (a local head) has `path`, a file or a
 * directory: a file added on a branch of its own (erofs-utils' tests/ on
 * experimental-tests) is the project's though --rev never had it.  The
 * tips are read on the first call; an unreadable one is skipped.
 */
bool ms_git_graph_branch_path(struct ms_git_graph *g, const char *path);

#endif
