/*
 * cmd-people.c - `maintstat people`: the whole list's people and
 * companies, as the netdev development report ranks them (people.h
 * decides; review's loading reads; this file only prints).
 */
#include "cli-review.h"
#include "cli-review-out.h"
#include "commands.h"
#include "output.h"
#include "people.h"
#include "when.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat people --archive PATH [--archive PATH...] [--repo GITDIR "
	"| --tree DIR] [options]",
	"Everyone on the list over the window, bots left out and people\n"
	"joined as review joins them: patches authored (postings; series;\n"
	"the tree's own, another project's, stable backports), messages\n"
	"sent, threads, others' patches replied to, first responses, review\n"
	"tags given and received (per patch), median first response, the\n"
	"entries listing them and those they answered, and the reviewer and\n"
	"author scores of linux-netdev/ml-stat (docs/review.md, \"The list's\n"
	"people\").  Ranked by reviewer score (--sort: author_score,\n"
	"authored, messages, threads, replied, first_responses, tags_given,\n"
	"tags_received), top 20 in text; then the companies, each the sum of\n"
	"its people, with its review balance.\n"
	"\n"
	"Companies: --employers FILE, gitdm's domain-map or aliases lines\n"
	"('domain-or-address Company [< YYYY-MM-DD]') or ml-stat's db.json\n"
	"(its corpmap); else the address's organisation (linux.ibm.com is\n"
	"ibm.com) when someone else uses it too, and \"(Unknown)\" for\n"
	"mail anyone can have (gmail.com, kernel.org, ...) and a domain of\n"
	"one person (a vanity domain).  The other options are\n"
	"review's; stable backports and other projects' patches always\n"
	"count here.  --compare FILE.json (an earlier people --json) adds\n"
	"each row's rank there by reviewer score and its score's change\n"
	"(\"new\" when it was not there), as ml-stat's stat-print.py.\n"
	"--check prints instead what a list owner should fix, as ml-stat's\n"
	"--check; --suggest-mailmap the .mailmap lines that fix it.",
	"  maintstat people --archive linux-rdma-2023.mbox.gz --tree ~/linux \\\n"
	"      --employers domain-map --limit 30",
};

struct people_args {
	const char *employers, *sort, *compare;
	bool json, check, suggest;
	struct ms_employers *emp;
	GHashTable *prev[2];         /* --compare: people, companies */
};

static void add_prev(const char *key, int64_t score, void *data)
{
	g_hash_table_insert(data, g_strdup(key), g_memdup2(&score,
							   sizeof score));
}

/* --compare FILE: its people's and companies' reviewer scores. */
static int read_compare(struct people_args *a)
{
	GError *err = NULL;
	char *text;
	size_t len;
	int rc = CLI_CONTINUE;

	if (!g_file_get_contents(a->compare, &text, &len, &err)) {
		rc = cli_error("cannot read '%s': %s", a->compare,
			       err->message);
		g_error_free(err);
		return rc;
	}
	for (int i = 0; i < 2; i++)
		a->prev[i] = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, g_free);
	if (ms_json_read_list(a->compare, text, len, "people", "email",
			      "reviewer_score", add_prev, a->prev[0]) < 0 ||
	    ms_json_read_list(a->compare, text, len, "companies", "name",
			      "reviewer_score", add_prev, a->prev[1]) < 0)
		rc = cli_error_last();
	g_free(text);
	return rc;
}

/* The earlier rank and the score's change, in text. */
static void text_move(size_t prev_rank, int64_t change, bool compare)
{
	char r[24], c[24];

	if (!compare)
		return;
	snprintf(r, sizeof r, "%zu", prev_rank);
	snprintf(c, sizeof c, "%+" G_GINT64_FORMAT, change);
	printf(" %5s %6s", prev_rank ? r : "new", prev_rank ? c : "-");
}

static void json_move(struct ms_out *o, size_t prev_rank, int64_t change,
		      bool compare)
{
	if (!compare)
		return;
	if (prev_rank) {
		ms_out_kv_int(o, "previous_rank", (int64_t)prev_rank);
		ms_out_kv_int(o, "score_change", change);
	} else {
		ms_out_kv_null(o, "previous_rank");
		ms_out_kv_null(o, "score_change");
	}
}

static int check(void *data)
{
	struct people_args *a = data;
	GError *err = NULL;
	char *text;
	size_t len;
	int rc = CLI_CONTINUE;

	if (a->json && (a->check || a->suggest))
		return cli_usage_error("people", "--json and --check exclude "
				       "each other");
	if (a->sort && !g_strv_contains(ms_people_sort_keys, a->sort))
		return cli_usage_error("people", "--sort: unknown figure '%s'",
				       a->sort);
	if (a->compare && read_compare(a) != CLI_CONTINUE)
		return EXIT_RUNTIME;
	if (!a->employers)
		return CLI_CONTINUE;
	if (!g_file_get_contents(a->employers, &text, &len, &err)) {
		rc = cli_error("cannot read '%s': %s", a->employers,
			       err->message);
		g_error_free(err);
		return rc;
	}
	if (ms_employers_parse(a->employers, text, len, &a->emp) < 0)
		rc = cli_error_last();
	g_free(text);
	return rc;
}

/* "3d", "17.1h" (the one duration format), or "-". */
static void hours(const struct ms_people_person *p, char buf[32])
{
	if (p->median_first_response < 0)
		strcpy(buf, "-");
	else
		ms_duration_format(p->median_first_response, buf, 32);
}

static void text_people(const struct ms_people *pp, size_t max,
			const char *sort, bool compare)
{
	printf("Top people by %s:\n", sort);
	printf("  %4s%s %7s  %-30s %-18s %5s %5s %5s %5s %5s %5s %5s %7s\n",
	       "rank", compare ? "  prev change" : "", "score", "name",
	       "company", "auth", "msgs", "thr", "repl", "first", "tag+",
	       "tag-", "median");
	for (size_t i = 0; i < max; i++) {
		const struct ms_people_person *p = pp->people->pdata[i];
		char med[32];

		hours(p, med);
		printf("  %4zu", i + 1);
		text_move(p->prev_rank, p->score_change, compare);
		printf(" %7" G_GINT64_FORMAT "  %-30.30s %-18.18s %5zu "
		       "%5zu %5zu %5zu %5zu %5zu %5zu %7s\n",
		       p->c.reviewer_score, *p->name ? p->name : p->email,
		       p->company, p->c.authored, p->c.messages, p->c.threads,
		       p->c.replied, p->c.first_responses, p->c.tags_given,
		       p->c.tags_received, med);
	}
	cli_print_more(stdout, "  ", max, pp->people->len);
}

static void text_companies(const struct ms_people *pp, size_t max,
			   bool compare)
{
	printf("\nTop companies:\n");
	printf("  %4s%s %7s  %-30s %6s %5s %5s %5s %5s %5s %7s\n", "rank",
	       compare ? "  prev change" : "", "score", "company", "people", "auth", "msgs", "repl", "tag+",
	       "tag-", "balance");
	for (size_t i = 0; i < max; i++) {
		const struct ms_people_company *c = pp->companies->pdata[i];
		char bal[32] = "-";

		if (c->review_balance >= 0)
			snprintf(bal, sizeof bal, "%.2f", c->review_balance);
		printf("  %4zu", i + 1);
		text_move(c->prev_rank, c->score_change, compare);
		printf(" %7" G_GINT64_FORMAT "  %-30.30s %6zu %5zu %5zu "
		       "%5zu %5zu %5zu %7s\n", c->c.reviewer_score,
		       c->name, c->people, c->c.authored, c->c.messages,
		       c->c.replied, c->c.tags_given, c->c.tags_received, bal);
	}
	cli_print_more(stdout, "  ", max, pp->companies->len);
}

/* The figures every person and company has, in JSON. */
static void json_counts(struct ms_out *o, const struct ms_people_counts *c)
{
	ms_out_kv_int(o, "authored", (int64_t)c->authored);
	ms_out_kv_int(o, "series", (int64_t)c->series);
	ms_out_key(o, "projects");
	ms_out_begin_object(o);
	ms_out_kv_int(o, "own", (int64_t)c->own);
	ms_out_kv_int(o, "other", (int64_t)c->other);
	ms_out_kv_int(o, "stable", (int64_t)c->stable);
	ms_out_end_object(o);
	ms_out_kv_int(o, "messages", (int64_t)c->messages);
	ms_out_kv_int(o, "threads", (int64_t)c->threads);
	ms_out_kv_int(o, "replied", (int64_t)c->replied);
	ms_out_kv_int(o, "first_responses", (int64_t)c->first_responses);
	ms_out_kv_int(o, "tags_given", (int64_t)c->tags_given);
	ms_out_kv_int(o, "tags_received", (int64_t)c->tags_received);
	ms_out_kv_int(o, "reviewer_score", c->reviewer_score);
	ms_out_kv_int(o, "author_score", c->author_score);
	ms_out_key(o, "ml_stat");
	ms_out_begin_object(o);
	ms_out_kv_int(o, "reviewer_cs", (int64_t)c->reviewer_cs);
	ms_out_kv_int(o, "reviewer_threads", (int64_t)c->reviewer_threads);
	ms_out_kv_int(o, "reviewer_messages", (int64_t)c->reviewer_messages);
	ms_out_kv_int(o, "author_cs", (int64_t)c->author_cs);
	ms_out_kv_int(o, "author_threads", (int64_t)c->author_threads);
	ms_out_kv_int(o, "author_messages", (int64_t)c->author_messages);
	ms_out_end_object(o);
	ms_out_kv_int(o, "entries_listed", (int64_t)c->entries_listed);
	ms_out_kv_int(o, "entries_answered", (int64_t)c->entries_answered);
}

static void json_document(struct ms_out *o, const struct ms_people *pp,
			  long limit, bool compare)
{
	ms_out_key(o, "people");
	ms_out_begin_list(o);
	for (size_t i = 0; i < cli_limit(limit, true, pp->people->len); i++) {
		const struct ms_people_person *p = pp->people->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", p->name);
		ms_out_kv_string(o, "email", p->email);
		ms_out_key(o, "addresses");
		ms_out_begin_list(o);
		for (size_t k = 0; p->addresses[k]; k++)
			ms_out_string(o, p->addresses[k]);
		ms_out_end_list(o);
		ms_out_kv_string(o, "company", p->company);
		json_counts(o, &p->c);
		if (p->median_first_response >= 0)
			ms_out_kv_real(o, "median_first_response_hours",
				       (double)p->median_first_response / 3600);
		else
			ms_out_kv_null(o, "median_first_response_hours");
		json_move(o, p->prev_rank, p->score_change, compare);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_key(o, "companies");
	ms_out_begin_list(o);
	for (size_t i = 0; i < cli_limit(limit, true, pp->companies->len);
	     i++) {
		const struct ms_people_company *c = pp->companies->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", c->name);
		ms_out_kv_int(o, "people", (int64_t)c->people);
		json_counts(o, &c->c);
		if (c->review_balance >= 0)
			ms_out_kv_real(o, "review_balance", c->review_balance);
		else
			ms_out_kv_null(o, "review_balance");
		json_move(o, c->prev_rank, c->score_change, compare);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* --check: what to fix, or with --suggest-mailmap the .mailmap lines. */
static int print_check(const struct ms_people *pp, bool suggest)
{
	GPtrArray *pr = ms_people_check(pp);

	for (guint i = 0; i < pr->len; i++) {
		const struct ms_people_problem *x = pr->pdata[i];

		if (!suggest)
			printf("%s\n", x->what);
		else if (x->mailmap)
			printf("%s\n", x->mailmap);
	}
	if (!pr->len && !suggest)
		printf("Nothing to fix.\n");
	g_ptr_array_unref(pr);
	return fflush(stdout) || ferror(stdout) ?
	       cli_error("cannot write the output") : EXIT_OK;
}

static int sink(const struct cli_review_view *v, void *data)
{
	const struct people_args *a = data;
	long limit = ((const struct cli_review_run *)v->priv)->limit;
	struct ms_people *pp = ms_people_compute(v->lm, v->map, v->commits,
						 v->rvo, v->rv, a->emp);
	struct ms_out *o = ms_out_new(a->json ? MS_OUT_JSON : MS_OUT_TEXT,
				      stdout);
	bool cmp = a->compare != NULL;
	int rc;

	if (a->check || a->suggest) {
		rc = print_check(pp, a->suggest);
		ms_out_free(o);
		ms_people_free(pp);
		return rc;
	}
	if (cmp)
		ms_people_compare(pp, a->prev[0], a->prev[1]);
	if (a->sort)
		ms_people_sort(pp, a->sort);
	ms_out_begin_document(o);
	if (a->json) {
		json_document(o, pp, limit, cmp);
		ms_out_end_object(o);
	} else {
		cli_review_view_context(stdout, v);
		text_people(pp, cli_limit(limit, false, pp->people->len),
			    a->sort ? a->sort : "reviewer_score", cmp);
		text_companies(pp, cli_limit(limit, false,
					     pp->companies->len), cmp);
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	ms_people_free(pp);
	return rc;
}

int cmd_people(int argc, char **argv)
{
	struct people_args a = { 0 };
	const struct cli_option opts[] = {
		{ CLI_OPT_STRING, "employers", 0, &a.employers, "FILE",
		  "address or domain to company: gitdm's domain-map/aliases "
		  "or ml-stat's db.json (default: the address's domain)" },
		{ CLI_OPT_STRING, "compare", 0, &a.compare, "FILE.json",
		  "an earlier people --json: each row's rank there and its "
		  "score's change (default: none)" },
		{ CLI_OPT_FLAG, "check", 0, &a.check, NULL,
		  "print what to fix instead: addresses that look like one "
		  "person, joins made by name only, domains of several people "
		  "without a company" },
		{ CLI_OPT_FLAG, "suggest-mailmap", 0, &a.suggest, NULL,
		  "--check as .mailmap lines (questions commented out)" },
		{ CLI_OPT_STRING, "sort", 0, &a.sort, "FIGURE",
		  "rank by this figure (default reviewer_score)" },
		CLI_OPT_JSON(&a.json),
		CLI_OPTION_END,
	};
	const struct cli_review_caller caller = {
		.help = &help, .options = opts, .check = check,
		.sink = sink, .data = &a,
	};
	int rc = cli_review_main(argc, argv, &caller);

	ms_employers_free(a.emp);
	for (int i = 0; i < 2; i++)
		if (a.prev[i])
			g_hash_table_unref(a.prev[i]);
	return rc;
}
