/*
 * walk-count.h - what bench-walk and bench-store count of a history walk
 * (commits, touched paths, trailers), and how they report a failure and
 * the walk's warnings.  Included by each (static functions).
 */
#ifndef MS_BENCH_WALK_COUNT_H
#define MS_BENCH_WALK_COUNT_H

#include "error.h"
#include "history.h"

#include <stdio.h>

struct totals {
	size_t commits, paths, trailers;
};

static int count(const struct ms_commit *c, void *data)
{
	struct totals *t = data;

	t->commits++;
	t->paths += c->nr_paths;
	t->trailers += c->nr_trailers;
	return 0;
}

/* 1 after printing the walk's error when rc < 0; else print the
 * warnings in `diags`, release them and return 0. */
static int walk_done(const char *prog, int rc, struct ms_diags *diags)
{
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, ms_error_last());
		ms_diags_release(diags);
		return 1;
	}
	for (size_t i = 0; i < diags->nr; i++)
		fprintf(stderr, "%s: warning: %s\n", prog,
			diags->items[i].message);
	ms_diags_release(diags);
	return 0;
}

#endif
