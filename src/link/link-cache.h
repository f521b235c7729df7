/*
 * link-cache.h - the mail-to-commit links, kept in the store for
 * dashboards (docs/store.md: `links`, `commit_links`).
 *
 * Links are computed by ms_link_run() on every run: its last-resort pass
 * (a similar subject) takes only postings no other commit took, so a
 * commit's link depends on every other commit's, and reusing stored
 * links for part of the window would change results.  (What is costly
 * per commit, its patch-id, is kept in the store: link.c,
 * ms_store_patchids_get().)  Each row records the state of the messages
 * it was computed against: their number and a SHA-1 of every field the
 * linker reads, record after record.  A run rewrites only rows that are
 * missing, differ, or belong to a message set that is no longer a prefix
 * of the current one (those are deleted).
 */
#ifndef MS_LINK_CACHE_H
#define MS_LINK_CACHE_H

#include "link.h"

/*
 * The linking logic.  Bump it whenever link.c changes what ms_link_run()
 * or ms_link_commits_load() yield: stored links of another version are
 * computed again (and replaced).
 */
#define MS_LINK_VERSION 5

struct ms_store;

/*
 * ms_link_run(), its links then kept in the store `s` (rows that changed
 * only), in two halves, so that a report prints while its links are
 * written: _begin() returns the result in *out (ms_link_result_free) as
 * soon as it is computed (the stored links are read, and the messages'
 * state computed, on a second thread while the matcher runs), the rows
 * being written on a thread of their own; ms_link_run_stored_end() waits
 * for them and returns 0 or the store's error (MS_EBUSY, MS_ERROR).  In
 * between, `s`, `lm`, `commits` and the result must stay as they are, and
 * `s` must not be used elsewhere; every successful _begin() needs its
 * _end() (*pending NULL, when `s` is NULL, is a no-op for it: with `s`
 * NULL this is ms_link_run()).  An error of _begin() leaves *out and
 * *pending NULL.
 */
struct ms_link_stored;
int ms_link_run_stored_begin(struct ms_store *s,
			     const struct ms_link_mail *lm,
			     const GPtrArray *commits,
			     const struct ms_link_opts *opts,
			     struct ms_link_result **out,
			     struct ms_link_stored **pending);
int ms_link_run_stored_end(struct ms_link_stored *pending);

/* The fingerprint of the messages of `lm` (g_free it). */
char *ms_link_mail_state(const struct ms_link_mail *lm);

#endif
