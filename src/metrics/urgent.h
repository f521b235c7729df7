/*
 * urgent.h - LWN's categories of the urgent entries (docs/review.md): why
 * a busy entry has no active maintainer, from its git activity
 * (activity.h) and its list review (review.h).  Library code: it computes
 * and explains, the CLI prints.
 */
#ifndef MS_URGENT_H
#define MS_URGENT_H

#include "activity.h"
#include "maintainers.h"
#include "review.h"
#include "tree.h"

#include <stdbool.h>
#include <stdint.h>

struct ms_urgent;

/*
 * What the categories are judged on: the list review `rv` of the entries
 * of `mf` (indexed by `idx`), the tree `tree` those entries' patterns
 * match files of, and the cutoff `active_since` from which a listed
 * person's newest list message makes them active.  All borrowed until
 * ms_urgent_free().  Never fails.
 */
struct ms_urgent *ms_urgent_new(const struct maint_file *mf,
				const struct maint_index *idx,
				const struct ms_tree *tree,
				const struct ms_review *rv,
				int64_t active_since);
/* Free `u`; NULL is a no-op. */
void ms_urgent_free(struct ms_urgent *u);

/* The list review of entry `name` (borrowed), or NULL when it had no
 * patches. */
const struct ms_rv_entry *ms_urgent_entry(const struct ms_urgent *u,
					  const char *name);

/* Whether urgent speaks of listed person `p` of entry `e`: its
 * maintainers, and its reviewers only when it lists no maintainer (they
 * are then who is left to answer for it). */
bool ms_urgent_speaks_for(const struct ms_act_entry *e,
			  const struct ms_act_person *p);

/*
 * LWN's category of an urgent entry `e`: "corporate_alias" (a listed
 * address answered by others of its domain), "overlap" (most of its
 * files, or without files most of its patches, also belong to an active
 * entry), "defacto_maintainer" (an unlisted person handles its patches or
 * commits most of them) or "unmaintained".  `all`/`nr_all` are the
 * activity of every entry: the first call works out, once, which files
 * of the tree each entry shares with active entries, so pass the same
 * `all` every time.  An active entry is one with an active maintainer
 * (ms_verdict_entry_active()).  With `why`, a one-line explanation
 * (g_free it).
 */
const char *ms_urgent_category(struct ms_urgent *u,
			       const struct ms_act_entry *e,
			       const struct ms_act_entry *all, size_t nr_all,
			       char **why);

#endif
