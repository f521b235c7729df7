/*
 * cli-activity.c - loading the activity model for a command.
 */
#include "cli-activity.h"
#include "activity.h"
#include "history.h"
#include "store.h"

#include <glib.h>

/* A date, or the commit date of a revision of `repo`. */
static int date_or_rev(const char *cmd, const char *opt, const char *repo,
		       const char *s, bool end_of_day, int64_t *out)
{
	int rc;

	if (ms_act_parse_date(s, end_of_day, out) == 0)
		return CLI_CONTINUE;
	rc = ms_history_resolve(repo, s, NULL, out);
	if (rc == MS_ENOTFOUND && !g_str_has_prefix(ms_error_last(),
						    "not a git"))
		return cli_usage_error(cmd, "--%s: '%s' is neither a date "
				       "(YYYY-MM-DD) nor a revision", opt, s);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

int cli_act_load(const char *cmd, const struct cli_act_opts *o,
		 int default_years, struct ms_activity **out,
		 int64_t *since, int64_t *until)
{
	struct ms_activity_load_opts lo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	char *aliases = NULL;
	gsize aliases_len = 0;
	int64_t s = 0, u = 0;
	int rc;

	*out = NULL;
	if (!o->repo)
		return cli_usage_error(cmd, "--repo GITDIR is required");
	/* bad dates fail before the walk, not after it */
	if (o->until) {
		rc = date_or_rev(cmd, "until", o->repo, o->until, true, &u);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (o->since) {
		rc = date_or_rev(cmd, "since", o->repo, o->since, false, &s);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (o->aliases) {
		GError *err = NULL;

		if (!g_file_get_contents(o->aliases, &aliases, &aliases_len,
					 &err)) {
			rc = cli_error("cannot read '%s': %s", o->aliases,
				       err->message);
			g_error_free(err);
			return rc;
		}
	}
	lo.gitdir = o->repo;
	lo.rev = o->rev;
	lo.merges = o->merges;
	lo.no_plus_fold = o->no_plus_fold;
	lo.aliases = aliases;
	lo.aliases_len = aliases_len;
	lo.aliases_name = o->aliases;
	rc = cli_store_open(&o->store, o->repo, &lo.store);
	if (rc != CLI_CONTINUE) {
		g_free(aliases);
		return rc;
	}
	rc = ms_activity_load(&lo, out, &diags);
	ms_store_free(lo.store);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	g_free(aliases);
	if (rc < 0)
		return cli_error_last();

	*until = o->until ? u : ms_activity_newest(*out);
	*since = o->since ? s : ms_act_date_shift(*until, -default_years, 0,
						  0);
	if (*since > *until) {
		ms_activity_free(*out);
		*out = NULL;
		return cli_usage_error(cmd, "the window is empty: --since is "
				       "after --until");
	}
	return CLI_CONTINUE;
}
