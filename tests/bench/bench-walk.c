/*
 * bench-walk - walk a repository's history the way `maintstat activity`
 * does (no merges, trailers, touched paths) and print what it saw, so that
 * tests/bench/bench-walk.py can time it against git log.
 *
 *   bench-walk [--list] GITDIR [REV] [THREADS]
 *
 * --list prints each commit instead, one line per commit in walk order:
 * its id and its touched paths, separated by tabs (tests/cli/
 * test-walk.py compares them with git log's).
 */
#include "history.h"
#include "walk-count.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list(const struct ms_commit *c, void *data)
{
	(void)data;
	fputs(c->id, stdout);
	for (size_t i = 0; i < c->nr_paths; i++)
		printf("\t%s", c->paths[i]);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	struct ms_walk_opts opts = { 0 };
	struct ms_walk_stats st;
	struct ms_diags diags = MS_DIAGS_INIT;
	struct totals t = { 0 };
	bool listing = argc > 1 && strcmp(argv[1], "--list") == 0;
	int rc;

	if (listing) {
		argc--;
		argv++;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: bench-walk [--list] GITDIR [REV] "
			"[THREADS]\n");
		return 2;
	}
	opts.rev = argc > 2 ? argv[2] : NULL;
	opts.nr_threads = argc > 3 ? atoi(argv[3]) : 0;
	opts.fn = listing ? list : count;
	opts.data = &t;
	rc = ms_history_walk(argv[1], &opts, &st, &diags);
	if (walk_done("bench-walk", rc, &diags))
		return 1;
	if (!listing)
		printf("commits %zu paths %zu trailers %zu merges-skipped %zu\n",
	       t.commits, t.paths, t.trailers, st.merges);
	return 0;
}
