/*
 * cmd-activity.c - maintstat activity: who really authors, commits and
 * reviews in each MAINTAINERS entry (the layout of the netdev series
 * "MAINTAINERS: remove inactive folks from networking").
 */
#include "activity.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "cli-review.h"
#include "commands.h"
#include "maintainers.h"
#include "output.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat activity [--repo GITDIR] [options] [ENTRY...]",
	"For each MAINTAINERS entry (all, or those named): the commits of the\n"
	"window touching its files and how many were reviewed or acked by\n"
	"someone other than the author; when each listed M: and R: person\n"
	"last authored, committed or was named in a *-by: trailer there; the\n"
	"top 3 reviewers not listed; and the listed people inactive for\n"
	"--inactive-after.  The window is the " CLI_WINDOW_HELP " by\n"
	"commit date.  People are one person under all their addresses:\n"
	"the revision's .mailmap and --mailmap, --aliases, MAINTAINERS\n"
	"changes of address, equal names (not with --no-name-join) and\n"
	"plus-address folding (docs/identities.md).  Entries with no file\n"
	"in the tree and role addresses get no verdict.  --by\n"
	"month|quarter|year|release adds each entry's figures per interval\n"
	"(a commit counts in the interval of its date; release: between\n"
	"tags, see maintstat review).",
	"  maintstat activity\n"
	"  maintstat activity --repo ~/linux --since '2 years ago' TLS\n"
	"  maintstat activity --inactive-after 18m --min-commits 10 --json",
};

/* With --archive: the list facts of issue 6 (cli-review.h), else NULL. */
static struct cli_list_facts *list_facts;

static const struct cli_act_series *series;

static void print_json(struct ms_out *o, const struct ms_activity *a,
		       const struct ms_activity_query *q,
		       const struct ms_act_entry *e, size_t k)
{
	char date[32];

	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", e->entry->name);
	ms_out_kv_string(o, "status", e->status);
	ms_out_kv_int(o, "commits", (int64_t)e->commits);
	ms_out_kv_int(o, "reviewed", (int64_t)e->reviewed);
	ms_out_kv_bool(o, "no_files", e->no_files);
	if (e->has_last_activity) {
		ms_act_format(e->last_activity, e->last_activity_offset,
			      true, false, date);
		ms_out_kv_string(o, "last_activity", date);
	} else {
		ms_out_kv_null(o, "last_activity");
	}
	ms_out_kv_begin_list(o, "people");
	for (size_t i = 0; i < e->nr_people; i++)
		cli_act_json_person(o, a, q, e, &e->people[i], list_facts);
	ms_out_end_list(o);
	cli_act_json_counts(o, "top_reviewers", e->top_reviewers, e->nr_top_reviewers);
	if (list_facts)
		cli_list_facts_json(o, list_facts, e->entry->name);
	if (series && series->nr_intervals)
		cli_act_series_json(o, series, k);
	ms_out_end_object(o);
}

int cmd_activity(int argc, char **argv)
{
	struct cli_act_opts ao = {
		.inactive_after = MS_DEFAULT_INACTIVE_AFTER };
	struct cli_strings files = { 0 };
	bool json = false;
	const char *by = NULL, *tags = NULL;
	long min_commits = MS_DEFAULT_MIN_COMMITS, limit = -1;
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&ao, CLI_WINDOW_HELP),
		CLI_INACTIVE_AFTER_OPTION(&ao.inactive_after),
		CLI_MIN_COMMITS_OPTION(&min_commits),
		CLI_OPT_ARCHIVE(&ao.archives, "list archives: add list facts "
				"(see maintstat review)"),
		CLI_ACT_SERIES_OPTIONS(&by, &tags),
		CLI_ENTRY_FILE_OPTION(&files),
		CLI_OPT_LIMIT_ROWS(&limit),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	const struct maint_entry **sel = NULL;
	struct ms_activity *a = NULL;
	struct ms_project *proj = NULL;
	struct ms_activity_query q = { 0 };
	struct ms_act_entry *res = NULL;
	struct cli_act_series ser = { 0 };
	size_t nr = 0;
	struct ms_out *o;
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_default_repo("activity", &ao.repo, true);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_act_load("activity", &ao, MS_DEFAULT_WINDOW_YEARS, &proj, &a,
			  &q.since, &q.until, &q.active_since, &list_facts);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_act_select("activity", a, argc, argv, &files, &q, &sel);
	if (rc != CLI_CONTINUE)
		goto out;
	if (ms_activity_query(a, &q, &res, &nr) < 0) {
		rc = cli_error_last();
		goto out;
	}
	rc = cli_act_series_run("activity", by, tags, ao.repo, a, &q,
				&ser);
	if (rc != CLI_CONTINUE)
		goto out;
	series = &ser;
	rc = cli_list_facts_load("activity", &ao, q.since, q.until,
				 q.active_since, a, &list_facts);
	if (rc != CLI_CONTINUE)
		goto out;

	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	if (json) {
		ms_out_begin_document(o);
		cli_json_window(o, true, q.since, q.until);
		cli_json_date(o, "active_since", true, q.active_since);
		ms_out_kv_begin_list(o, "entries");
	}
	else
		cli_act_print_context(stdout, &ao, q.since, q.until,
				      q.active_since);
	{
		size_t rows = 0, shown = 0, max;

		for (size_t i = 0; i < nr; i++)
			rows += ms_verdict_busy(&res[i], min_commits);
		max = cli_limit_rows(limit, rows);
		for (size_t i = 0; i < nr && shown < max; i++) {
			if (!ms_verdict_busy(&res[i], min_commits))
				continue;
			if (json) {
				shown++;
				print_json(o, a, &q, &res[i], i);
				continue;
			}
			if (shown++)
				fputc('\n', stdout);
			cli_act_print_entry(stdout, a, &q, &res[i],
					    list_facts);
			if (ser.nr_intervals)
				cli_act_series_text(stdout, &ser, i);
		}
		if (!json && shown < rows)
			fputc('\n', stdout);
		if (!json)
			cli_print_more(stdout, "", shown, rows);
	}
	if (json)
		ms_out_end_list(o);
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	series = NULL;
	cli_act_series_release(&ser);
	ms_act_entries_free(res, nr);
	g_free(sel);
	cli_project_close(proj);
	cli_list_facts_free(list_facts);     /* after the project */
	list_facts = NULL;
	return rc;
}
