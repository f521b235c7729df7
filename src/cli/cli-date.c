/*
 * cli-date.c - a --since/--until value: a date, a duration back from
 * now, or a revision's date.
 */
#include "cli-date.h"
#include "activity.h"
#include "history.h"
#include "output.h"
#include "when.h"

#include <time.h>

static void range_add(const char *id, int64_t time, void *data)
{
	struct cli_range *r = data;

	g_hash_table_add(r->ids, g_strdup(id));
	if (time < r->oldest)
		r->oldest = time;
}

int cli_since_range(const char *cmd, const char *repo, const char *rev,
		    const char *since, struct cli_range **out)
{
	struct cli_range *r;
	int64_t t;
	int rc;

	*out = NULL;
	/* dates and durations are points in time, not revisions */
	if (!since || !repo ||
	    ms_when_parse(since, (int64_t)time(NULL), false, &t) == 0)
		return CLI_CONTINUE;
	r = g_new0(struct cli_range, 1);
	r->ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	r->oldest = INT64_MAX;
	rc = ms_history_range(repo, since, rev, range_add, r);
	if (rc < 0) {
		cli_range_free(r);
		if (rc == MS_EBADREV)
			return cli_usage_error(cmd, "--since: '%s' is neither "
					       "a date (YYYY-MM-DD), a "
					       "duration (1y, 18m, 2w) nor a "
					       "revision", since);
		return cli_error_last();
	}
	*out = r;
	return CLI_CONTINUE;
}

void cli_range_free(struct cli_range *r)
{
	if (!r)
		return;
	g_hash_table_destroy(r->ids);
	g_free(r);
}

bool cli_range_has(const char *id, void *data)
{
	const struct cli_range *r = data;

	return g_hash_table_contains(r->ids, id);
}

/* One end of cli_window_parse()'s, --`opt` `s`, into *out. */
static int date_or_rev(const char *cmd, const char *opt, const char *repo,
		       const char *s, bool end_of_day, int64_t *out)
{
	int rc;

	/* a date, a duration back from now ("1 year ago", git's sense), or
	 * a revision's commit date */
	if (ms_when_parse(s, (int64_t)time(NULL), end_of_day, out) == 0)
		return CLI_CONTINUE;
	if (!repo)
		return cli_usage_error(cmd, "--%s: %s", opt, ms_error_last());
	rc = ms_history_resolve(repo, s, NULL, out);
	if (rc == MS_EBADREV)
		return cli_usage_error(cmd, "--%s: '%s' is neither a date "
				       "(YYYY-MM-DD), a duration (1y, 18m, "
				       "2w, '1 year ago') nor a revision",
				       opt, s);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

int cli_window_parse(const char *cmd, const char *repo, const char *since,
		     const char *until, int64_t *s, int64_t *u)
{
	int rc = CLI_CONTINUE;

	*s = 0;
	*u = INT64_MAX;
	if (until)
		rc = date_or_rev(cmd, "until", repo, until, true, u);
	if (rc == CLI_CONTINUE && since)
		rc = date_or_rev(cmd, "since", repo, since, false, s);
	return rc;
}

void cli_json_date(struct ms_out *o, const char *key, bool set, int64_t t)
{
	char d[32];

	if (!set) {
		ms_out_kv_null(o, key);
		return;
	}
	ms_act_format(t, 0, true, false, d);
	ms_out_kv_string(o, key, d);
}

void cli_json_window(struct ms_out *o, bool since_set, int64_t since,
		     int64_t until)
{
	ms_out_kv_begin_object(o, "window");
	cli_json_date(o, "since", since_set, since);
	cli_json_date(o, "until", true, until);
	ms_out_end_object(o);
}

int cli_inactive_after(const char *cmd, const char *value, int64_t until,
		       int64_t *cutoff)
{
	*cutoff = 0;
	if (value && ms_when_parse(value, until, false, cutoff) < 0)
		return cli_usage_error(cmd, "--inactive-after: %s",
				       ms_error_last());
	return CLI_CONTINUE;
}
