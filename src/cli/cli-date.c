/*
 * cli-date.c - a --since/--until value: a date or a revision's date.
 */
#include "cli-date.h"
#include "activity.h"
#include "history.h"

int cli_date_or_rev(const char *cmd, const char *opt, const char *repo,
		    const char *s, bool end_of_day, int64_t *out)
{
	int rc;

	if (ms_act_parse_date(s, end_of_day, out) == 0)
		return CLI_CONTINUE;
	if (!repo)
		return cli_usage_error(cmd, "--%s: '%s' is not a date "
				       "(YYYY-MM-DD)", opt, s);
	rc = ms_history_resolve(repo, s, NULL, out);
	if (rc == MS_EBADREV)
		return cli_usage_error(cmd, "--%s: '%s' is neither a date "
				       "(YYYY-MM-DD) nor a revision", opt, s);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}
