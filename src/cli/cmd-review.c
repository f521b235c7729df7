/*
 * cmd-review.c - maintstat review: how each entry's patches are answered
 * on the list, joined with the git facts of `activity` (docs/review.md).
 * The options, the reading and the computation; the text and JSON are
 * cli-review-out.c's.
 */
#include "activity.h"
#include "cli-review.h"
#include "cli-review-out.h"
#include "cli-result.h"
#include "commands.h"
#include "mail.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "project.h"
#include "tree.h"
#include "verdict.h"
#include "history.h"
#include "ident.h"
#include "inbox-url.h"
#include "link.h"
#include "maintainers.h"
#include "output.h"
#include "when.h"
#include "review.h"
#include "series.h"
#include "store.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat review --archive PATH [--archive PATH...] "
	"[--repo GITDIR | --tree DIR] [options] [ENTRY...]",
	"For each MAINTAINERS entry (all with patches, or those named): the\n"
	"patches posted in the window (mapped by the files their diffs touch\n"
	"and K: patterns on their changed lines), the share answered by a\n"
	"human other than the author, time to first response, to the first\n"
	"reply of a listed M:/R: person and to the first Reviewed-by/Acked-by\n"
	"(median and p90), patches ignored for --ignore-after, the share\n"
	"merged and the posting-to-commit time; per listed person their\n"
	"replies, latency, tags and scores, with the git facts of `activity`;\n"
	"the tag ledger, corporate aliases and de-facto maintainers.  List\n"
	"addresses are joined to people as activity joins git ones: the\n"
	".mailmap of --rev, --aliases and plus-address folding.  Every\n"
	"metric is defined in docs/review.md.\n"
	"\n"
	"--by month|quarter|year|release adds a time series: each entry's\n"
	"patches are split by the date of their first posting and every\n"
	"figure is computed again over each interval (release: between the\n"
	"tags of --repo matching --release-tags, default 'v*', without\n"
	"-rc ones); an interval without patches is null.",
	"  maintstat review --archive linux-rdma-2023.mbox.gz \\\n"
	"      --since 2023-01-01 --until 2023-12-31 'INFINIBAND SUBSYSTEM'",
};

/* Oldest message date of the archive (the series' start without
 * --since), or INT64_MAX; misdated ones left out (ms_mail_index_span()). */
static int64_t oldest_mail(const struct ms_mail_index *idx)
{
	int64_t first, last;

	return ms_mail_index_span(idx, &first, &last, NULL) ? first :
	       INT64_MAX;
}

/* Newest message date of the archive (the default --until). */
static int64_t newest_mail(const struct ms_mail_index *idx)
{
	int64_t first, last;

	return ms_mail_index_span(idx, &first, &last, NULL) ? last : 0;
}

int cmd_review(int argc, char **argv)
{
	return cli_review_main(argc, argv, NULL);
}

/* What `maintstat review` was asked: its options, and what they say. */
struct review_args {
	const char *cmd;             /* the command, for its messages */
	/* the repository, archives, window and store, the tree and its
	 * MAINTAINERS, who is who (--aliases, --mailmap, --no-name-join,
	 * --no-plus-fold) */
	struct cli_act_opts io;
	struct cli_strings files;
	bool json, include_stable, include_foreign;
	bool list_aside;             /* --set-aside */
	const char *ignore_arg, *target_arg, *list_url;
	const char *by, *release_tags, *foreign_subject;
	long limit;
	int argc;                    /* the ENTRY arguments */
	char **argv;
	struct ms_duration ignore_d, target_d;
	enum ms_series_unit unit;    /* of --by */
	GRegex *foreign_re;          /* --foreign-subject, or NULL */
};

/* What review reads and computes, freed by review_data_release(). */
struct review_data {
	int64_t since, until;
	int64_t inactive_since;      /* with --repo: nothing in git since */
	struct ms_project *proj;     /* the tree, who is who, the history */
	const struct ms_tree *tree;
	const struct maint_file *mf;
	const struct maint_index *idx;
	const struct maint_entry **sel;
	struct ms_review_map *map;
	struct ms_link_mail *lm;
	GPtrArray *commits, *history_paths;
	struct ms_link_opts lo;
	struct ms_link_result *links;
	GArray *bounds, *qbounds;    /* --by intervals, the report's quarters */
	GPtrArray *labels;           /* --by release: their names */
	struct ms_review_opts rvo;
	struct ms_activity *act;     /* with --repo, the project's */
	struct cli_git_seen seen;
	struct ms_review *rv, *rvq;
	struct ms_act_entry **act_for;
	GPtrArray *act_results;
	char *inbox_url;
};

/* Parse the command line into `a`: review's shared options, then its
 * own or the caller's; CLI_CONTINUE or the exit code. */
static int review_parse(int *argc, char ***argv, struct review_args *a,
			const struct cli_review_caller *caller)
{
	const struct cli_option shared[] = {
		CLI_REV_OPTIONS(&a->io),
		{ CLI_OPT_STRING, "aliases", 0, &a->io.aliases, "FILE",
		  "gitdm-style aliases: 'alias canonical' addresses per line "
		  "(default: none; .mailmap is always read)" },
		{ CLI_OPT_FLAG, "no-plus-fold", 0, &a->io.no_plus_fold, NULL,
		  "keep user+tag@domain apart from user@domain" },
		CLI_IDENT_OPTIONS(&a->io),
		{ CLI_OPT_STRING, "tree", 0, &a->io.tree, "DIR",
		  "without --repo: the source tree whose MAINTAINERS (and "
		  ".mailmap) to use (default: the enclosing git "
		  "repository's)" },
		{ CLI_OPT_STRING_LIST, "maintainers", 0, &a->io.maintainers,
		  "FILE", "read this MAINTAINERS file (default: the tree's)" },
		{ CLI_OPT_FLAG, "find-maintainer-files", 0,
		  &a->io.find_maintainer_files, NULL,
		  "also read every */MAINTAINERS below the tree" },
		{ CLI_OPT_STRING, "ignore-after", 0, &a->ignore_arg,
		  "DURATION", "a patch without reply this long is ignored "
		  "(48h, 2w; default " MS_DEFAULT_IGNORE_AFTER ")" },
		{ CLI_OPT_STRING, "target", 0, &a->target_arg, "DURATION",
		  "the response target of the scores (default "
		  MS_DEFAULT_TARGET ")" },
		CLI_INACTIVE_AFTER_OPTION(&a->io.inactive_after),
		{ CLI_OPT_STRING, "list-url", 0, &a->list_url, "URL",
		  "the archive's base URL, http:// or https://, for links to "
		  "messages (default: the remote a public-inbox mirror was "
		  "fetched from)" },
		{ CLI_OPT_FLAG, "include-stable", 0, &a->include_stable, NULL,
		  "count stable backports ([PATCH AUTOSEL], [PATCH 6.1.y], "
		  "[PATCH 5.15 012/123]) as patches" },
		{ CLI_OPT_FLAG, "include-foreign", 0, &a->include_foreign,
		  NULL, "count patches of other projects sharing the list" },
		{ CLI_OPT_STRING, "foreign-subject", 0, &a->foreign_subject,
		  "REGEX", "patches whose subject matches belong to another "
		  "project too (default: none)" },
		CLI_ENTRY_FILE_OPTION(&a->files),
		CLI_OPT_LIMIT(&a->limit),
		CLI_OPTION_END,
	};
	const struct cli_option own[] = {
		{ CLI_OPT_STRING, "by", 0, &a->by, "UNIT",
		  "a time series: month, quarter, year or release "
		  "(default: none)" },
		{ CLI_OPT_STRING, "release-tags", 0, &a->release_tags, "GLOB",
		  "--by release: the tags that end a release (default 'v*', "
		  "-rc tags never)" },
		{ CLI_OPT_FLAG, "set-aside", 0, &a->list_aside, NULL,
		  "list the patch postings set aside, by rule, each with "
		  "its evidence (at most --limit of a rule; --json always "
		  "has them)" },
		CLI_OPT_JSON(&a->json),
		CLI_OPTION_END,
	};
	struct cli_option *opts = cli_options_join(shared, caller ?
						    caller->options : own);
	int rc = cli_parse_options(argc, argv, opts, caller ?
				   caller->help : &help);

	g_free(opts);
	if (rc == CLI_CONTINUE && caller && caller->check)
		rc = caller->check(caller->data);
	return rc;
}

/* What the options say: the repository (without --tree, the enclosing
 * one if any), the durations, --by, --foreign-subject.  CLI_CONTINUE or
 * the exit code after the usage error. */
static int review_check(struct review_args *a)
{
	int64_t t;
	int rc;

	if (!a->io.tree) {
		rc = cli_default_repo(a->cmd, &a->io.repo, false);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (!a->io.archives.nr)
		return cli_usage_error(a->cmd, "--archive PATH is required");
	if (a->io.tree && a->io.repo)
		return cli_usage_error(a->cmd, "--tree and --repo exclude "
				       "each other");
	if (a->io.rev && !a->io.repo)
		return cli_usage_error(a->cmd, "--rev needs --repo");
	if (a->list_url && !ms_url_is_web(a->list_url))
		return cli_usage_error(a->cmd, "--list-url takes an http:// "
				       "or https:// address, not '%s'",
				       a->list_url);
	rc = cli_inactive_after(a->cmd, a->io.inactive_after, 0, &t);
	if (rc == CLI_CONTINUE)
		rc = cli_parse_duration(a->cmd, "ignore-after",
					a->ignore_arg, &a->ignore_d);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_parse_duration(a->cmd, "target", a->target_arg,
				&a->target_d);
	if (rc != CLI_CONTINUE)
		return rc;
	if (ms_duration_seconds(&a->target_d) <= 0)
		return cli_usage_error(a->cmd, "--target must be positive");
	if (a->by && ms_series_parse_unit(a->by, &a->unit) < 0)
		return cli_usage_error(a->cmd, "--by: %s", ms_error_last());
	if (a->by && a->unit == MS_SERIES_RELEASE && !a->io.repo)
		return cli_usage_error(a->cmd, "--by release needs --repo "
				       "(its tags)");
	if (a->foreign_subject) {
		GError *err = NULL;

		a->foreign_re = g_regex_new(a->foreign_subject, G_REGEX_RAW,
					    0, &err);
		if (!a->foreign_re) {
			rc = cli_usage_error(a->cmd, "invalid "
					     "--foreign-subject '%s': %s",
					     a->foreign_subject, err->message);
			g_error_free(err);
			return rc;
		}
	}
	return CLI_CONTINUE;
}

/* The project (its tree and MAINTAINERS, --aliases and --mailmap read)
 * and the entries selected. */
static int review_open(struct review_args *a, struct review_data *d)
{
	size_t nr_sel;
	int rc;

	rc = cli_project_open(&a->io, &d->proj);
	if (rc == CLI_CONTINUE)
		rc = cli_project_tree(d->proj, &d->tree, &d->mf, &d->idx);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_select_entries(a->cmd, d->mf, d->idx, a->argc, a->argv,
				&a->files, &d->sel, &nr_sel);
	if (rc != CLI_CONTINUE)
		return rc;
	if (d->sel) {
		d->rvo.entries = d->sel;
		d->rvo.nr_entries = nr_sel;
	}
	return CLI_CONTINUE;
}

/* The archives mapped to the entries, the history of --repo and the
 * links between them; without --until, the window ends at the newest
 * message. */
static int review_load(const struct review_args *a, struct review_data *d)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct cli_act_opts ro = a->io;
	int rc;

	d->map = ms_review_map_new(d->mf, d->idx, &diags);
	ms_review_map_foreign_subject(d->map, a->foreign_re);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	/* its K: answers go through the store with the archives */
	ro.kmap = d->map;
	rc = cli_rev_load(a->cmd, &ro, d->since, INT64_MAX,
			  MS_MAIL_PARSE_KEEP_BODY, ms_review_map_hook, d->map,
			  &d->commits, &d->lm);
	if (rc != CLI_CONTINUE)
		return rc;
	ms_project_set_mail(d->proj, d->lm);
	if (!a->io.until)
		d->until = newest_mail(ms_link_mail_index(d->lm));
	if (a->io.repo)
		return cli_rev_link(&a->io, d->lm, d->commits, &d->lo,
				    &d->links);
	return CLI_CONTINUE;
}

/* The review's options: the window, the thresholds, what is set aside,
 * and with --by the bounds of its intervals. */
static int review_intervals(const struct review_args *a,
			    struct review_data *d)
{
	struct ms_review_opts *rvo = &d->rvo;
	int64_t lo;
	int rc;

	rvo->since = d->since;
	rvo->until = d->until;
	rvo->ignore_after = ms_duration_seconds(&a->ignore_d);
	rvo->target = ms_duration_seconds(&a->target_d);
	rvo->include_stable = a->include_stable;
	rvo->include_foreign = a->include_foreign;
	rvo->tree = d->tree;
	if (!a->by)
		return CLI_CONTINUE;
	lo = d->since ? d->since : oldest_mail(ms_link_mail_index(d->lm));
	if (lo > d->until)
		lo = d->until;
	if (a->unit == MS_SERIES_RELEASE)
		rc = ms_series_releases(a->io.repo, a->release_tags, lo,
					d->until, &d->bounds, &d->labels);
	else
		rc = ms_series_calendar(lo, d->until, a->unit, &d->bounds);
	if (rc == MS_EUSAGE)
		return cli_usage_error(a->cmd, "--by: %s", ms_error_last());
	if (rc < 0)
		return cli_error_last();
	rvo->bounds = (const int64_t *)(void *)d->bounds->data;
	rvo->nr_intervals = d->bounds->len - 1;
	return CLI_CONTINUE;
}

/* With --repo: people resolve as activity's git side does (the .mailmap
 * of --rev, --aliases, case and plus-folding, MAINTAINERS history, equal
 * names of commits and of the list's senders, as with --tree), and the
 * history says who was seen and which paths the project had. */
static int review_ident_git(const struct review_args *a,
			    struct review_data *d)
{
	int rc;

	rc = cli_project_store(&a->io.store, d->proj);
	if (rc == CLI_CONTINUE)
		rc = cli_project_history(d->proj, &d->act);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_act_set_range(a->cmd, d->act, a->io.repo, a->io.rev,
			       a->io.since, d->since);
	if (rc != CLI_CONTINUE)
		return rc;
	d->seen.until = a->io.until ? d->until : INT64_MAX;
	cli_review_history(&d->rvo, d->act, d->proj, &d->seen,
			   &d->history_paths);
	return CLI_CONTINUE;
}

/* The review; for the report (`quarters`, with --by), the same
 * computation over quarters, from the mail already read. */
static int review_compute(struct review_data *d, bool quarters)
{
	struct ms_review_opts qo = d->rvo;

	d->rv = ms_review_compute(d->lm, d->map, d->mf, d->commits,
				  d->links, &d->rvo);
	if (!quarters || !d->bounds)
		return CLI_CONTINUE;
	if (ms_series_calendar(d->rvo.bounds[0], d->until, MS_SERIES_QUARTER,
			       &d->qbounds) < 0)
		return cli_error_last();
	qo.bounds = (const int64_t *)(void *)d->qbounds->data;
	qo.nr_intervals = d->qbounds->len - 1;
	d->rvq = ms_review_compute(d->lm, d->map, d->mf, d->commits,
				   d->links, &qo);
	return CLI_CONTINUE;
}

/* With --repo: the git facts of `activity` over the same window, per
 * entry of the review. */
static int review_git_facts(const struct review_args *a,
			    struct review_data *d)
{
	struct ms_activity_query q = { 0 };
	const struct maint_file *amf = ms_activity_maintainers(d->act);

	d->act_for = g_new0(struct ms_act_entry *, d->rv->entries->len);
	d->act_results = g_ptr_array_new();
	/* the review's window: without --since it starts with the oldest
	 * message, as the report says (the whole history made no one
	 * inactive who ever committed, and counted commits from before
	 * the list began) */
	q.since = d->since ? d->since :
		  MIN(oldest_mail(ms_link_mail_index(d->lm)), d->until);
	if (q.since == INT64_MAX)
		q.since = 0;
	/* inactive: nothing in git, and no list message, for
	 * --inactive-after before the history's end (or --until, never
	 * after the newest commit): every command's window and cutoff
	 * (ms_verdict_window()), whatever the list's own end */
	if (ms_verdict_window(d->act, true, q.since, a->io.until != NULL,
			      d->until, 0, a->io.inactive_after, &q) < 0)
		return cli_usage_error(a->cmd, "--inactive-after: %s",
				       ms_error_last());
	/* no dated message, no --until: no window, so no cutoff to say */
	d->inactive_since = d->until || a->io.until ? q.active_since : 0;
	for (guint i = 0; i < d->rv->entries->len; i++) {
		const struct ms_rv_entry *e = d->rv->entries->pdata[i];
		const struct maint_entry *ae =
			maint_file_find(amf, e->entry->name);
		struct ms_act_entry *res = NULL;
		size_t nr = 0;

		if (!ae)
			continue;
		q.entries = &ae;
		q.nr_entries = 1;
		if (ms_activity_query(d->act, &q, &res, &nr) < 0)
			return cli_error_last();
		d->act_for[i] = res;
		g_ptr_array_add(d->act_results, res);
	}
	return CLI_CONTINUE;
}

/* The result, to the caller's sink (the report) or printed as text or
 * JSON. */
static int review_output(const struct review_args *a, struct review_data *d,
			 const struct cli_review_caller *caller)
{
	struct cli_review_view r = { 0 };
	const char *list_url = a->list_url;
	struct ms_out *o;
	int rc;

	/* evidence URLs: --list-url, else the archive's own address */
	for (int i = 0; !list_url && i < a->io.archives.nr; i++) {
		d->inbox_url = ms_inbox_base_url(a->io.archives.items[i]);
		list_url = d->inbox_url;
	}
	r.idx = ms_link_mail_index(d->lm);
	r.rv = d->rv;
	r.by = a->by;
	r.labels = d->labels;
	r.commits = d->commits;
	r.list_url = list_url;
	r.target = d->rvo.target;
	r.since = d->since;
	r.until = d->until;
	r.inactive_since = d->act ? d->inactive_since : 0;
	r.ignore_after = d->rvo.ignore_after;
	r.act = d->act_for;
	r.limit = a->limit;
	r.act_model = d->act;
	r.rv_quarter = d->rvq;
	r.ident = d->rvo.ident;
	r.lm = d->lm;
	r.map = d->map;
	r.rvo = &d->rvo;
	r.opts = &a->io;
	if (caller)
		return caller->sink(&r, caller->data);
	o = ms_out_new(a->json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	if (a->json) {
		cli_review_print_document(o, &r);
	} else {
		cli_review_print_context(stdout, &r);
		for (guint i = 0; i < d->rv->entries->len; i++) {
			const struct ms_rv_entry *e = d->rv->entries->pdata[i];

			if (i)
				fputc('\n', stdout);
			cli_review_print_text(stdout, &r, d->rv, e,
					      d->act_for ? d->act_for[i] : NULL);
			if (a->by)
				cli_review_print_series(stdout, &r, e);
		}
		cli_review_print_aside(stdout, &r, a->list_aside);
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	return rc;
}

static void review_data_release(struct review_data *d)
{
	if (d->proj)
		ms_review_map_report(d->map, ms_project_late(d->proj));
	if (!CLI_FREE_AT_END) {
		cli_project_close(d->proj);
		return;
	}
	if (d->act_results) {
		for (guint i = 0; i < d->act_results->len; i++)
			ms_act_entries_free(d->act_results->pdata[i], 1);
		g_ptr_array_unref(d->act_results);
	}
	g_free(d->act_for);
	ms_review_free(d->rv);
	ms_review_free(d->rvq);
	if (d->qbounds)
		g_array_free(d->qbounds, TRUE);
	if (d->bounds)
		g_array_free(d->bounds, TRUE);
	if (d->labels)
		g_ptr_array_unref(d->labels);
	g_free(d->inbox_url);
	ms_link_result_free(d->links);
	if (d->commits)
		g_ptr_array_unref(d->commits);
	if (d->history_paths)
		g_ptr_array_unref(d->history_paths);
	ms_review_map_free(d->map);
	g_free(d->sel);
	if (!d->proj || ms_project_mail(d->proj) != d->lm)
		ms_link_mail_free(d->lm);
	cli_project_close(d->proj);
}

/* Where the tree of --tree (or the working directory) is, without
 * --repo; NULL with it (its tree is the revision's). */
static const char *tree_dir(const struct review_args *a)
{
	return a->io.repo ? NULL : a->io.tree ? a->io.tree : ".";
}

/* The store review reads the archives through (cli_rev_load_mail()). */
static const char *store_for(const struct review_args *a)
{
	return a->io.repo ? a->io.repo : a->io.archives.items[0];
}

/*
 * The key of review's result (cli-result.h): besides the command line,
 * the window as resolved dates (a relative --since names other dates
 * tomorrow), the archives' states and the default list URL they give,
 * and every input of the project (cli_result_add_project()).  The
 * tree's part is kept as facts (tree_dir()).
 */
static void review_key(struct review_args *a, const struct review_data *d,
		       struct cli_result *res)
{
	cli_result_add_int(res, "since", d->since);
	cli_result_add_int(res, "until", d->until);
	cli_result_add_archives(res, &a->io.archives);
	for (int i = 0; !a->list_url && i < a->io.archives.nr; i++) {
		char *url = ms_inbox_base_url(a->io.archives.items[i]);

		cli_result_add_str(res, "list url", url);
		g_free(url);
	}
	cli_result_add_project(res, &a->io);
}

int cli_review_main(int argc, char **argv,
		    const struct cli_review_caller *caller)
{
	struct review_args a = { 0 };
	struct review_data d = { 0 };
	struct cli_result res = { 0 };
	char **argv0 = g_new(char *, (size_t)argc + 1);
	int rc, argc0 = argc;

	memcpy(argv0, argv, sizeof(*argv) * (size_t)argc);
	a.cmd = caller && caller->name ? caller->name : "review";
	a.ignore_arg = MS_DEFAULT_IGNORE_AFTER;
	a.target_arg = MS_DEFAULT_TARGET;
	a.io.inactive_after = MS_DEFAULT_INACTIVE_AFTER;
	a.release_tags = "v*";
	a.limit = -1;
	a.unit = MS_SERIES_MONTH;
	if (caller)
		a.by = caller->by;
	rc = review_parse(&argc, &argv, &a, caller);
	if (rc != CLI_CONTINUE) {
		g_free(argv0);
		return rc;
	}
	a.argc = argc;
	a.argv = argv;
	rc = review_check(&a);
	if (rc == CLI_CONTINUE)
		rc = cli_rev_window(a.cmd, &a.io, &d.since, &d.until);
	if (rc != CLI_CONTINUE)
		goto out;
	/* the same inputs as a saved result: print it (cli-result.h) */
	cli_result_begin(&res, caller && caller->result ? caller->result :
			 "review", a.json || (caller && caller->json &&
					   *caller->json), argc0, argv0,
			 caller && !caller->result);
	if (caller && caller->result_key)
		cli_result_add_str(&res, "caller", *caller->result_key);
	review_key(&a, &d, &res);
	rc = cli_result_serve(&res, &a.io.store, store_for(&a),
			      tree_dir(&a));
	if (rc != CLI_CONTINUE)
		goto out;
	a.io.tree_blobs = res.blobs;
	rc = review_open(&a, &d);
	if (rc == CLI_CONTINUE)
		rc = review_load(&a, &d);
	if (rc == CLI_CONTINUE)
		rc = review_intervals(&a, &d);
	if (rc == CLI_CONTINUE && a.io.repo)
		rc = review_ident_git(&a, &d);
	else if (rc == CLI_CONTINUE)
		rc = cli_project_ident(d.proj, &d.rvo.ident);
	if (rc == CLI_CONTINUE)
		rc = review_compute(&d, caller != NULL);
	if (rc == CLI_CONTINUE && a.io.repo)
		rc = review_git_facts(&a, &d);
	if (rc == CLI_CONTINUE)
		rc = review_output(&a, &d, caller);
	rc = cli_result_end(&res, rc, &a.io.store, store_for(&a),
			    tree_dir(&a) ? d.tree : NULL);
	review_data_release(&d);
out:
	cli_result_keep(&res);
	cli_result_release(&res);
	g_free(argv0);
	if (a.foreign_re)
		g_regex_unref(a.foreign_re);
	return rc;
}
