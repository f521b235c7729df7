/*
 * cli-areas.c - loading the areas (cli-areas.h).
 */
#include "activity.h"
#include "areas.h"
#include "cli-areas.h"
#include "store.h"
#include "verdict.h"

#include <glib.h>
#include <stdlib.h>

int cli_areas_load(const char *cmd, struct cli_act_opts *ao, int argc,
		   char **argv, const struct cli_strings *files,
		   const char *by, const char *tags, struct cli_act_series *ser,
		   struct ms_areas_query *q, int64_t *cutoff,
		   struct cli_list_facts **facts, struct ms_project **proj,
		   struct ms_activity **a, struct ms_areas **out)
{
	struct ms_activity_query aq = { 0 };
	const struct maint_entry **sel = NULL;
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_commit_paths *cp = NULL;
	struct ms_store *store = NULL;
	int rc;

	*out = NULL;
	ao->keep_paths = true;
	rc = cli_act_load(cmd, ao, MS_DEFAULT_WINDOW_YEARS, proj, a, &q->since,
			  &q->until, cutoff, facts);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_act_select(cmd, *a, argc, argv, files, &aq, &sel);
	if (rc != CLI_CONTINUE)
		return rc;
	q->entries = sel;
	q->nr_entries = aq.nr_entries;
	if (!q->entries)
		q->nr_entries = 0;
	if (ser) {
		rc = cli_act_series_bounds(cmd, by, tags, ao->repo, q->since,
					   q->until, ser);
		if (rc != CLI_CONTINUE)
			return rc;
		if (ser->bounds) {
			q->bounds = (const int64_t *)(void *)ser->bounds->data;
			q->nr_intervals = ser->nr_intervals;
		}
	}
	rc = cli_store_open(&ao->store, ao->repo, &store);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = ms_commit_paths_load(*a, store, ao->rev, ao->merges, &cp,
				  &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc == 0 && getenv("MS_AREAS_TRACE")) {
		size_t w, s, r;

		ms_commit_paths_sources(cp, &w, &s, &r);
		fprintf(stderr, "maintstat: paths of %zu commits from the "
			"walk, %zu from the store, %zu read from git\n", w, s,
			r);
	}
	ms_store_free(store);
	if (rc < 0)
		return cli_error_last();
	rc = ms_areas_compute(*a, cp, q, out);
	ms_commit_paths_free(cp);
	return rc < 0 ? cli_error_last() : CLI_CONTINUE;
}
