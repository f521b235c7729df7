/*
 * cli-people-out.h - the people page of `maintstat report` (people.h's
 * figures as two sortable tables), beside `maintstat people`'s text and
 * JSON in cmd-people.c, and the files both read (--employers,
 * --compare).
 */
#ifndef MS_CLI_PEOPLE_OUT_H
#define MS_CLI_PEOPLE_OUT_H

#include "cli.h"

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

struct ms_employers;

/* --employers FILE (people.h, ms_employers_parse()): CLI_CONTINUE and
 * *out, or an exit code after printing the error. */
int cli_people_employers(const char *file, struct ms_employers **out);

/*
 * --compare FILE (an earlier people --json): for each of the `nr`
 * figures `keys` (ms_people_sort_keys), out[k][0] the earlier people's
 * (address -> int64_t *) and out[k][1] companies' (name -> ...), new
 * tables (g_hash_table_unref).  CLI_CONTINUE, or an exit code after
 * printing the error.
 */
int cli_people_read_compare(const char *file, const char *const *keys,
			    size_t nr, GHashTable *(*out)[2]);

/* The report's people page: its options, what they read, the page. */
struct cli_people_page {
	const char *employers, *compare;
	struct ms_employers *emp;
	GHashTable *prev[1][2];      /* --compare: reviewer scores */
};

#define CLI_PEOPLE_PAGE_OPTIONS(pg) \
	{ CLI_OPT_STRING, "employers", 0, &(pg)->employers, "FILE", \
	  "people.html's companies, as people --employers (default: the " \
	  "address's organisation)" }, \
	{ CLI_OPT_STRING, "compare", 0, &(pg)->compare, "FILE.json", \
	  "an earlier people --json: people.html's earlier ranks and score " \
	  "changes, as people --compare (default: none)" }

/* Read --employers and --compare: CLI_CONTINUE, or an exit code after
 * printing the error. */
int cli_people_page_read(struct cli_people_page *pg);
void cli_people_page_release(struct cli_people_page *pg);

/* The page: everyone and every company of what `v` read over its window
 * (not review's intervals), by reviewer score, with --compare's earlier
 * rank and score change of each row. */
struct cli_review_view;
void cli_people_page(FILE *fp, const struct cli_review_view *v,
		     const struct cli_people_page *pg);

#endif
