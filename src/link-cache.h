/*
 * link-cache.h - mail-to-commit links kept in the store, so that a warm
 * `link` or `review` links only the commits it has not linked before.
 *
 * A commit's link depends on the commit and on the set of messages
 * (link.h), never on the other commits.  Each stored link records the
 * state of the messages it was computed against: their number and a
 * SHA-1 of every field the linker reads, record after record.  A stored
 * link is reused when it is of the same linking logic (MS_LINK_VERSION)
 * and options, its state is a prefix of the current messages (lists
 * grow by appending), and none of the messages after that prefix can be
 * found under a key the linker looks the commit up by: the Message-IDs
 * of its Link:/Message-Id: trailers, its patch-id, its author date, its
 * subject key, and the subject keys and patch-ids of its linked posting
 * and that posting's versions.  Other commits are linked again.  Keep
 * these keys in step with link.c (and bump MS_LINK_VERSION) when it
 * changes how it looks messages up.
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
