/*
 * git-mirror.h - the fetcher's libgit2 adapter (internal to fetch/): clone
 * or update one public-inbox epoch over smart HTTP into a bare repository.
 * git-mirror.c is the only file in fetch/ that includes <git2.h>.
 */
#ifndef MS_FETCH_GIT_MIRROR_H
#define MS_FETCH_GIT_MIRROR_H

#include <stdbool.h>
#include <stddef.h>

struct ms_http;

/*
 * Bring the bare repository `path` up to date with the epoch at `url`
 * (".../git/N.git").  When `path` does not exist, the epoch is fetched
 * into "`path`.partial" (removed first if an interrupted run left it) and
 * renamed to `path` when complete; otherwise new commits are fetched and
 * the branches move only once everything arrived.  Network failures are
 * retried with the session's rules.  Stores whether the epoch is new, the
 * number of new commits (one per message) and the hex id of the head in
 * `tip` (41 bytes).  Returns 0 or a negative MS_E* code.
 */
int ms_git_mirror_epoch(struct ms_http *h, const char *url,
			const char *path, const char *what, bool *is_new,
			size_t *new_messages, char *tip);

#endif
