/*
 * cli-people-out.h - the people page of `maintstat report` (people.h's
 * figures as two sortable tables), beside `maintstat people`'s text and
 * JSON in cmd-people.c, and the files both read (--employers,
 * --compare).
 */
#ifndef MS_CLI_PEOPLE_OUT_H
#define MS_CLI_PEOPLE_OUT_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

struct ms_employers;
struct ms_people;

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

/* The page: everyone and every company of `pp`, by reviewer score; with
 * `compare` (ms_people_compare() by reviewer score done) each row's
 * earlier rank and score change. */
void cli_people_page(FILE *fp, const struct ms_people *pp, bool compare);

#endif
