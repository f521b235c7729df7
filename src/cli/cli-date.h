/*
 * cli-date.h - the --since/--until values every history command takes.
 */
#ifndef MS_CLI_DATE_H
#define MS_CLI_DATE_H

#include "cli.h"

/*
 * A --since/--until value: a date (YYYY-MM-DD or ISO 8601), else the
 * commit date of revision `s` of `repo` (NULL: dates only).  Returns
 * CLI_CONTINUE, or an exit code after printing the error.
 */
int cli_date_or_rev(const char *cmd, const char *opt, const char *repo,
		    const char *s, bool end_of_day, int64_t *out);

#endif
