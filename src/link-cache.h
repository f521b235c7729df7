/*
 * link-cache.h - mail-to-commit links kept in the store, so that a warm
 * `link` or `review` links only the commits it has not linked before.
 *
 * A commit's link depends on the commit and on the whole set of messages
 * (link.h), never on the other commits.  So a stored link is reused when
 * it was computed by the same linking logic (MS_LINK_VERSION), with the
 * same options, against the same messages: a fingerprint of every field
 * of every index record the matcher reads, in index order.  New commits
 * are linked and added; new or changed messages change the fingerprint,
 * and every commit of the window is linked again.
 */
#ifndef MS_LINK_CACHE_H
#define MS_LINK_CACHE_H

#include "link.h"

/*
 * The linking logic.  Bump it whenever link.c changes what ms_link_run()
 * or ms_link_commits_load() yield: stored links of another version are
 * computed again (and replaced).
 */
#define MS_LINK_VERSION 2

struct ms_store;

/*
 * ms_link_run() through the store `s`: the same result, with the links
 * of commits already linked against the same messages read from the
 * store, and the others computed and stored.  With `s` NULL this is
 * ms_link_run().  Returns 0 and the result in *out
 * (ms_link_result_free), or the store's error (MS_EBUSY, MS_ERROR).
 */
int ms_link_run_stored(struct ms_store *s, const struct ms_link_mail *lm,
		       const GPtrArray *commits,
		       const struct ms_link_opts *opts,
		       struct ms_link_result **out);

/* The fingerprint of the messages of `lm` (g_free it). */
char *ms_link_mail_state(const struct ms_link_mail *lm);

#endif
