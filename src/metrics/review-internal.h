/*
 * review-internal.h - what review.c and review-map.c share: the map of
 * patch postings to MAINTAINERS entries.  Not for other files.
 */
#ifndef MS_REVIEW_INTERNAL_H
#define MS_REVIEW_INTERNAL_H

#include "review.h"
#include "maintainers.h"

#include <glib.h>

struct kpat {
	size_t entry;
	GRegex *re;
	const struct maint_field *field;
	gint limit_hits;     /* lines on which it hit the match limits */
};

struct ms_review_map {
	const struct maint_file *mf;
	const struct maint_index *idx;
	GArray *kpats;               /* struct kpat */
	GPtrArray *recs;             /* per record: GArray of size_t, or NULL */
	GPtrArray *foreign;          /* per record: sibling project, or NULL */
	const GRegex *foreign_re;    /* --foreign-subject, or NULL */
};

#endif
