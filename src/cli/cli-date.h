/*
 * cli-date.h - the --since/--until values every history command takes.
 */
#ifndef MS_CLI_DATE_H
#define MS_CLI_DATE_H

#include "cli.h"

#include <glib.h>
#include <stdint.h>

/*
 * --until `until` and --since `since` (NULL: unset) into *u (else
 * INT64_MAX) and *s (else 0), --until first: each a date (YYYY-MM-DD,
 * YYYY or ISO 8601), a duration back from now (when.h: "1y", "2 weeks
 * ago"), else the commit date of that revision of `repo` (NULL: dates
 * only).  Returns CLI_CONTINUE, or an exit code after printing the error.
 */
int cli_window_parse(const char *cmd, const char *repo, const char *since,
		     const char *until, int64_t *s, int64_t *u);

/*
 * The point --inactive-after `value` names counted back from `until` (0
 * when `value` is NULL): CLI_CONTINUE, or the usage error
 * "--inactive-after: ..." of `cmd` after printing it.  The one parser of
 * the option, for every command that takes it.
 */
int cli_inactive_after(const char *cmd, const char *value, int64_t until,
		       int64_t *cutoff);

/*
 * --since REV: the commits of REV..rev (git rev-list's meaning: reachable
 * from `rev`, NULL meaning HEAD, and not from REV), whatever their dates:
 * a branch merged after REV brings commits dated before it, and a commit
 * of REV's own history may carry a later date.  Their commit dates go
 * from `oldest` up.
 */
struct cli_range {
	GHashTable *ids;              /* hex ids (owned) */
	int64_t oldest;               /* INT64_MAX when the range is empty */
};

/*
 * When `since` is not a date but a revision of `repo`, *out is its range
 * (cli_range_free()); otherwise (no --since, a date, or no repo) *out is
 * NULL.  Returns CLI_CONTINUE, or an exit code after printing the error.
 */
int cli_since_range(const char *cmd, const char *repo, const char *rev,
		    const char *since, struct cli_range **out);
void cli_range_free(struct cli_range *r);

/* Whether commit `id` is in the range `data` (a struct cli_range). */
bool cli_range_has(const char *id, void *data);

/* Key `key`: time `t` in ISO 8601 (UTC), or null when not `set`. */
void cli_json_date(struct ms_out *o, const char *key, bool set, int64_t t);

/* Key "window": {"since", "until"} as cli_json_date() writes them,
 * "since" null when not `since_set`. */
void cli_json_window(struct ms_out *o, bool since_set, int64_t since,
		     int64_t until);

#endif
