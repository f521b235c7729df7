/*
 * cli-review.c - loading the models of `link` and `review`.
 */
#include "cli-review.h"
#include "activity.h"
#include "history.h"

#include <glib.h>

static int date_or_rev(const char *cmd, const char *opt, const char *repo,
		       const char *s, bool end_of_day, int64_t *out)
{
	int rc;

	if (ms_act_parse_date(s, end_of_day, out) == 0)
		return CLI_CONTINUE;
	if (!repo)
		return cli_usage_error(cmd, "--%s: '%s' is not a date "
				       "(YYYY-MM-DD)", opt, s);
	rc = ms_history_resolve(repo, s, NULL, out);
	if (rc == MS_ENOTFOUND && !g_str_has_prefix(ms_error_last(),
						    "not a git"))
		return cli_usage_error(cmd, "--%s: '%s' is neither a date "
				       "(YYYY-MM-DD) nor a revision", opt, s);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

int cli_rev_window(const char *cmd, const struct cli_rev_opts *o,
		   int64_t *since, int64_t *until)
{
	int rc;

	*since = 0;
	*until = INT64_MAX;
	if (o->until) {
		rc = date_or_rev(cmd, "until", o->repo, o->until, true, until);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (o->since) {
		rc = date_or_rev(cmd, "since", o->repo, o->since, false,
				 since);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (*since > *until)
		return cli_usage_error(cmd, "the window is empty: --since is "
				       "after --until");
	return CLI_CONTINUE;
}

int cli_rev_load_mail(const char *cmd, const struct cli_rev_opts *o,
		      unsigned parse_flags, ms_link_mail_hook hook,
		      void *hook_data, struct ms_link_mail **out)
{
	struct ms_link_mail_opts mo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	int rc;

	if (!o->archives.nr)
		return cli_usage_error(cmd, "--archive PATH is required");
	mo.archives = o->archives.items;
	mo.nr_archives = (size_t)o->archives.nr;
	mo.parse_flags = parse_flags;
	mo.hook = hook;
	mo.hook_data = hook_data;
	cli_progress_start("reading mail", 0);
	rc = ms_link_mail_load(&mo, out, &diags);
	cli_progress_done();
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

int cli_rev_load_commits(const char *cmd, const struct cli_rev_opts *o,
			 int64_t since, int64_t until, GPtrArray **out)
{
	struct ms_link_commits_opts co = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	int rc;

	if (!o->repo)
		return cli_usage_error(cmd, "--repo GITDIR is required");
	co.gitdir = o->repo;
	co.rev = o->rev;
	co.since = since;
	co.until = until;
	cli_progress_start("walking history", 0);
	rc = ms_link_commits_load(&co, out, &diags);
	cli_progress_done();
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}
