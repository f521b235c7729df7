/*
 * cmd-urgent.c - maintstat urgent: LWN's selection of the entries that
 * most need a maintainer, with who in fact commits their changes.
 */
#include "activity.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "cli-review.h"
#include "commands.h"
#include "maintainers.h"
#include "output.h"
#include "urgent.h"
#include "when.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat urgent [--repo GITDIR] [options]",
	"Entries with files but no listed maintainer (M:) (but a catch-all,\n"
	"F: *, listing none: the project's default route), or whose\n"
	"maintainers all did nothing there (author, commit, *-by: trailer)\n"
	"for at least --inactive-after, and at least --min-commits commits since\n"
	"--since (default: one year before --until), busiest first; the\n"
	"verdicts and defaults are every command's (docs/cli.md).  Each\n"
	"shows who committed its changes (the committer, or the last\n"
	"Signed-off-by when the committer is a bot): a de-facto maintainer\n"
	"at a glance.  --never lists entries whose maintainers appear nowhere\n"
	"in the history, --nomaint those with no maintainer at all.\n"
	"--by month|quarter|year|release adds each selected entry's commits,\n"
	"active listed people and top committer per interval (maintstat\n"
	"activity --help).",
	"  maintstat urgent --repo ~/linux --inactive-after 6m --min-commits 50\n"
	"  maintstat urgent --nomaint --json",
};

/*
 * With --archive: the list facts of issue 6 (cli-review.h) and every
 * entry's facts, for LWN's four categories; else NULL.
 */
static struct cli_list_facts *list_facts;
static const struct ms_act_entry *all_entries;
static size_t nr_all_entries;
static int64_t cutoff;
/* Each selection as the text names it; the JSON's without "--". */
static const char *const mode_name[] = {
	[MS_VERDICT_SELECT_URGENT] = "urgent",
	[MS_VERDICT_SELECT_NEVER] = "--never",
	[MS_VERDICT_SELECT_NOMAINT] = "--nomaint",
};

/* The verdict engine's category of `e` (ms_verdict_urgency()), and with
 * `why` its reason. */
static const char *category(const struct ms_act_entry *e, char **why)
{
	return ms_verdict_urgency(cli_list_facts_urgent(list_facts), e,
				  all_entries, nr_all_entries, cutoff, why);
}

static int category_rank(const struct ms_act_entry *e)
{
	return ms_verdict_category_rank(category(e, NULL));
}

static int by_commits(const void *x, const void *y)
{
	const struct ms_act_entry *const *a = x, *const *b = y;

	if ((*a)->commits != (*b)->commits)
		return (*a)->commits > (*b)->commits ? -1 : 1;
	return strcmp((*a)->entry->name, (*b)->entry->name);
}

static int by_category(const void *x, const void *y)
{
	const struct ms_act_entry *a = *(const struct ms_act_entry *const *)x;
	const struct ms_act_entry *b = *(const struct ms_act_entry *const *)y;
	int ra = category_rank(a), rb = category_rank(b);

	if (ra != rb)
		return ra - rb;
	return by_commits(x, y);
}

static void print_text(FILE *fp, const struct ms_activity *a,
		       const struct ms_activity_query *q,
		       const struct ms_act_entry *e, const char *since)
{
	fprintf(fp, "Subsystem %s\n", e->entry->name);
	fprintf(fp, "  Commits %zu since %s\n", e->commits, since);
	if (!e->nr_maintainers)
		fprintf(fp, "  No maintainer listed%s\n", e->nr_people ?
			"; its reviewers (R:):" : "");
	for (size_t i = 0; i < e->nr_people; i++) {
		const struct ms_act_person *p = &e->people[i];
		struct ms_verdict v;
		char *why;

		if (!ms_urgent_speaks_for(e, p))
			continue;
		cli_act_verdict(e, p, list_facts, q->active_since, &v);
		why = ms_verdict_person_text(a, q, p, &v);
		fprintf(fp, "  %s ", p->role == 'M' ? "Maintainer" :
			"Reviewer");
		cli_person_label(fp, p->name, p->email);
		cli_act_print_also(fp, p);
		fprintf(fp, ": %s\n", why);
		g_free(why);
	}
	if (e->nr_top_committers) {
		fprintf(fp, "  Committed by:\n");
		for (size_t i = 0; i < e->nr_top_committers; i++) {
			fprintf(fp, "    [%zu]: ", e->top_committers[i].count);
			cli_person_label(fp, e->top_committers[i].name,
			      e->top_committers[i].email);
			fputc('\n', fp);
		}
	}
	if (list_facts) {
		char *why = NULL;
		const char *cat = category(e, &why);

		fprintf(fp, "  Category: %s (%s)\n", cat, why);
		g_free(why);
		cli_list_facts_text(fp, list_facts, e->entry->name);
	}
}

static const struct cli_act_series *series;

/* The entry's M: ("maintainers") or R: ("reviewers") people. */
static void json_people(struct ms_out *o, const struct ms_activity *a,
			const struct ms_activity_query *q,
			const struct ms_act_entry *e, char role)
{
	ms_out_kv_begin_list(o, role == 'M' ? "maintainers" : "reviewers");
	for (size_t i = 0; i < e->nr_people; i++)
		if (e->people[i].role == role)
			cli_act_json_person(o, a, q, e, &e->people[i],
					    list_facts);
	ms_out_end_list(o);
}

static void print_json(struct ms_out *o, const struct ms_activity *a,
		       const struct ms_activity_query *q,
		       const struct ms_act_entry *e, size_t k)
{
	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", e->entry->name);
	ms_out_kv_string(o, "status", e->status);
	ms_out_kv_int(o, "commits", (int64_t)e->commits);
	ms_out_kv_string(o, "reason", ms_verdict_urgent_reason(e));
	if (list_facts) {
		char *why = NULL;

		ms_out_kv_string(o, "category", category(e, &why));
		ms_out_kv_string(o, "category_reason", why);
		g_free(why);
		cli_list_facts_json(o, list_facts, e->entry->name);
	}
	json_people(o, a, q, e, 'M');
	json_people(o, a, q, e, 'R');
	cli_act_json_counts(o, "committers", e->top_committers, e->nr_top_committers);
	if (series && series->nr_intervals)
		cli_act_series_json(o, series, k);
	ms_out_end_object(o);
}

/* The JSON document's head: the window and the selection's settings. */
static void json_head(struct ms_out *o, const struct ms_activity_query *q,
		      enum ms_verdict_selection mode,
		      const char *inactive_after, long min_commits)
{
	struct ms_duration idle;

	ms_out_begin_document(o);
	cli_json_window(o, true, q->since, q->until);
	ms_out_kv_string(o, "selection", mode_name[mode] +
			 strspn(mode_name[mode], "-"));
	/* whole months, as --months said; else null */
	if (ms_duration_parse(inactive_after, &idle) < 0 || idle.seconds)
		ms_out_kv_null(o, "months");
	else
		ms_out_kv_int(o, "months", idle.months);
	cli_json_date(o, "active_since", true, q->active_since);
	ms_out_kv_int(o, "min_commits", min_commits);
}

/* The text of each entry of `pick` (of `res`), with its series. */
static void print_text_all(const struct ms_activity *a,
			   const struct ms_activity_query *q,
			   const GPtrArray *pick,
			   const struct ms_act_entry *res,
			   const struct cli_act_series *ser,
			   const char *since, size_t max)
{
	for (guint i = 0; i < max; i++) {
		if (i)
			fputc('\n', stdout);
		print_text(stdout, a, q, pick->pdata[i], since);
		if (ser->nr_intervals)
			cli_act_series_text(stdout, ser, (size_t)(
				(const struct ms_act_entry *)pick->pdata[i] -
				res));
	}
	if (max < pick->len)
		fputc('\n', stdout);
	cli_print_more(stdout, "", max, pick->len);
}

int cmd_urgent(int argc, char **argv)
{
	struct cli_act_opts ao = { 0 };
	bool json = false, never = false, nomaint = false;
	long months = -1, min_commits = MS_DEFAULT_MIN_COMMITS;
	long limit = -1;
	char months_arg[32];
	const char *by = NULL, *tags = NULL;
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&ao, CLI_URGENT_WINDOW_HELP),
		CLI_INACTIVE_AFTER_OPTION(&ao.inactive_after),
		{ CLI_OPT_INT, "months", 0, &months, "N",
		  "the same as --inactive-after Nm (no default of its own)" },
		CLI_MIN_COMMITS_OPTION(&min_commits),
		{ CLI_OPT_FLAG, "never", 0, &never, NULL,
		  "entries whose maintainers never appear in the history" },
		{ CLI_OPT_FLAG, "nomaint", 0, &nomaint, NULL,
		  "entries with no maintainer at all" },
		CLI_OPT_ARCHIVE(&ao.archives, "list archives: list facts and "
				"LWN's four categories"),
		CLI_ACT_SERIES_OPTIONS(&by, &tags),
		CLI_OPT_LIMIT_ROWS(&limit),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	struct ms_activity *a = NULL;
	struct ms_project *proj = NULL;
	struct ms_activity_query q = { 0 };
	struct ms_act_entry *res = NULL;
	GPtrArray *pick = NULL;
	enum ms_verdict_selection mode;
	struct cli_act_series ser = { 0 };
	size_t nr = 0;
	struct ms_out *o;
	char since[32];
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_default_repo("urgent", &ao.repo, true);
	if (rc != CLI_CONTINUE)
		return rc;
	if (argc)
		return cli_usage_error("urgent", "unexpected argument '%s'",
				       argv[0]);
	if (never && nomaint)
		return cli_usage_error("urgent", "--never and --nomaint "
				       "exclude each other");
	if (months != -1 && ao.inactive_after)
		return cli_usage_error("urgent", "--months is another name "
				       "of --inactive-after: give one");
	if (months != -1) {
		if (months < 0 || months > 12 * 1000)
			return cli_usage_error("urgent", "--months takes a "
					       "number of months, not %ld",
					       months);
		g_snprintf(months_arg, sizeof(months_arg), "%ldm", months);
		ao.inactive_after = months_arg;
	}
	if (!ao.inactive_after)
		ao.inactive_after = MS_DEFAULT_INACTIVE_AFTER;
	mode = never ? MS_VERDICT_SELECT_NEVER : nomaint ?
		MS_VERDICT_SELECT_NOMAINT : MS_VERDICT_SELECT_URGENT;
	rc = cli_act_load("urgent", &ao, MS_DEFAULT_URGENT_WINDOW_YEARS,
			  &proj, &a, &q.since, &q.until, &q.active_since,
			  &list_facts);
	if (rc != CLI_CONTINUE)
		return rc;
	if (ms_activity_query(a, &q, &res, &nr) < 0) {
		rc = cli_error_last();
		goto out;
	}
	rc = cli_act_series_run("urgent", by, tags, ao.repo, a, &q,
				&ser);
	if (rc != CLI_CONTINUE)
		goto out;
	series = &ser;
	rc = cli_list_facts_load("urgent", &ao, q.since, q.until,
				 q.active_since, a, &list_facts);
	if (rc != CLI_CONTINUE)
		goto out;
	all_entries = res;
	nr_all_entries = nr;
	cutoff = q.active_since;
	pick = g_ptr_array_new();
	for (size_t i = 0; i < nr; i++)
		if (ms_verdict_selected(mode, &res[i],
					cli_list_facts_urgent(list_facts),
					cutoff, min_commits))
			g_ptr_array_add(pick, &res[i]);
	g_ptr_array_sort(pick, list_facts ? by_category : by_commits);

	ms_act_format(q.since, 0, false, true, since);
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	if (json) {
		json_head(o, &q, mode, ao.inactive_after, min_commits);
		ms_out_kv_begin_list(o, "entries");
		for (guint i = 0; i < cli_limit_rows(limit, pick->len); i++)
			print_json(o, a, &q, pick->pdata[i], (size_t)(
				(const struct ms_act_entry *)pick->pdata[i] -
				res));
		ms_out_end_list(o);
	} else {
		cli_act_print_context(stdout, &ao, q.since, q.until,
				      q.active_since);
		print_text_all(a, &q, pick, res, &ser, since,
			       cli_limit_rows(limit, pick->len));
		if (!pick->len)
			fprintf(stdout, "No entry matches (%s, --min-commits "
				"%ld).\n", mode_name[mode], min_commits);
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	series = NULL;
	cli_act_series_release(&ser);
	if (pick)
		g_ptr_array_free(pick, TRUE);
	ms_act_entries_free(res, nr);
	cli_project_close(proj);
	cli_list_facts_free(list_facts);     /* after the project */
	list_facts = NULL;
	return rc;
}
