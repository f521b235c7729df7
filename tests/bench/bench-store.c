/*
 * bench-store - one history walk the way `maintstat activity` does it (no
 * merges; trailers and touched paths), through the store at DB, or
 * straight from git with "-"; prints the wall time and what it saw, for
 * tests/bench/bench-store.sh.
 *
 *   bench-store GITDIR DB|- [REV]
 */
#include "history.h"
#include "store.h"
#include "walk-count.h"

#include <glib.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct ms_walk_opts opts = { 0 };
	struct ms_walk_stats st;
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_store *s = NULL;
	struct totals t = { 0 };
	gint64 t0 = g_get_monotonic_time();
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-store GITDIR DB|- [REV]\n");
		return 2;
	}
	if (g_strcmp0(argv[2], "-") &&
	    ms_store_open(argv[2], NULL, &s, &diags) < 0) {
		fprintf(stderr, "bench-store: %s\n", ms_error_last());
		return 1;
	}
	opts.rev = argc > 3 ? argv[3] : NULL;
	opts.fn = count;
	opts.data = &t;
	rc = ms_store_history_walk(s, argv[1], &opts, &st, &diags);
	ms_store_free(s);
	if (walk_done("bench-store", rc, &diags))
		return 1;
	printf("%.3f s commits %zu paths %zu trailers %zu\n",
	       (double)(g_get_monotonic_time() - t0) / 1e6, t.commits,
	       t.paths, t.trailers);
	return 0;
}
