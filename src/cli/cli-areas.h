/*
 * cli-areas.h - what `areas` and `recruit` share on the CLI side:
 * loading the activity model with each commit's paths, and the areas.
 */
#ifndef MS_CLI_AREAS_H
#define MS_CLI_AREAS_H

#include "areas.h"
#include "cli-activity.h"

/* The threshold of cutting an area: not --min-commits, whose meaning
 * differs (docs/cli.md). */
#define CLI_SPLIT_COMMITS_OPTION(p) \
	{ CLI_OPT_COUNT, "split-commits", 0, (p), "N", \
	  "cut an area into parts only while it holds N commits of the " \
	  "window (default " G_STRINGIFY(MS_AREAS_MIN_COMMITS) ")" }


/*
 * Open the project of `ao` and load its history (cli_act_load(), the
 * default window), select the entries named in argv (and --file), get each
 * commit's paths (the walk, the store, git) and compute the areas for
 * `q` (its window set here; its entries a new array to g_free).  With
 * `ser` (may be NULL), the intervals of --by `by` (NULL: none) and
 * --release-tags `tags` are set in it (cli_act_series_release()) and
 * counted too.  With `cutoff`, the --inactive-after point of `ao`
 * (cli_act_load(): every command's, ms_verdict_window()); with `facts`,
 * the list facts opened as cli_act_load() opens them.  Prints
 * warnings and errors.  Returns CLI_CONTINUE, *proj (cli_project_close;
 * set even on failure), *a (borrowed from it) and *out (ms_areas_free),
 * or an exit code.
 */
struct ms_project;
int cli_areas_load(const char *cmd, struct cli_act_opts *ao, int argc,
		   char **argv, const struct cli_strings *files,
		   const char *by, const char *tags, struct cli_act_series *ser,
		   struct ms_areas_query *q, int64_t *cutoff,
		   struct cli_list_facts **facts, struct ms_project **proj,
		   struct ms_activity **a, struct ms_areas **out);

#endif
