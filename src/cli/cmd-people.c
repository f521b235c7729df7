/*
 * cmd-people.c - `maintstat people`: the whole list's people and
 * companies, as the netdev development report ranks them (people.h
 * decides; review's loading reads; this file only prints).
 */
#include "cli-activity.h"
#include "cli-date.h"
#include "cli-people-out.h"
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
	"people\").  Text as the netdev development report: ranked lists\n"
	"of the top reviewers, authors and scores (--limit rows each, 20),\n"
	"then every figure by reviewer score (--sort: author_score,\n"
	"authored, messages, threads, replied, first_responses, tags_given,\n"
	"tags_received, ml_stat.reviewer_cs, ...); the same for companies,\n"
	"each the sum of its people, with its review balance.\n"
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
	"--by month|quarter|year|release computes it all again per interval\n"
	"(JSON: each row's \"intervals\"; text: the table's figures of\n"
	"its rows per interval).\n"
	"--check prints instead what a list owner should fix, as ml-stat's\n"
	"--check (with --json: one document); --suggest-mailmap the\n"
	".mailmap lines that fix it.",
	"  maintstat people --archive linux-rdma-2023.mbox.gz --tree ~/linux \\\n"
	"      --employers domain-map --limit 30",
};

/* The figures the text ranks, in pairs as the netdev report's columns
 * ("Top reviewers (cs)" beside "Top reviewers (msg)"), and their
 * titles. */
static const char *const sections[][2][2] = {
	{ { "ml_stat.reviewer_cs", "Top reviewers (change sets)" },
	  { "ml_stat.reviewer_messages", "Top reviewers (messages)" } },
	{ { "ml_stat.author_cs", "Top authors (change sets)" },
	  { "ml_stat.author_messages", "Top authors (messages)" } },
	{ { "reviewer_score", "Top scores (positive)" },
	  { "author_score", "Top scores (negative)" } },
};
#define NR_FIGURES (G_N_ELEMENTS(sections) * 2)
#define PREV_SCORE 4            /* sections[2][0]: reviewer_score */

struct people_args {
	const char *employers, *sort, *compare, *by, *release_tags;
	bool json, check, suggest;
	struct ms_employers *emp;
	/* --compare: per figure of `sections`, then --sort's: the earlier
	 * people's and companies' */
	GHashTable *prev[NR_FIGURES + 1][2];
};

/* The figure of `sections` number i. */
static const char *section_key(size_t i)
{
	return sections[i / 2][i % 2][0];
}

/* --compare FILE: its people's and companies' figures, each of
 * `sections` and --sort's. */
static int read_compare(struct people_args *a)
{
	const char *keys[NR_FIGURES + 1];

	for (size_t f = 0; f < NR_FIGURES; f++)
		keys[f] = section_key(f);
	keys[NR_FIGURES] = a->sort ? a->sort : "reviewer_score";
	return cli_people_read_compare(a->compare, keys, NR_FIGURES + 1,
				       a->prev);
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

	if (a->json && a->suggest)
		return cli_usage_error("people", "--json and --suggest-mailmap "
				       "exclude each other");
	if (a->sort && !g_strv_contains(ms_people_sort_keys, a->sort))
		return cli_usage_error("people", "--sort: unknown figure '%s'",
				       a->sort);
	if (a->compare && read_compare(a) != CLI_CONTINUE)
		return EXIT_RUNTIME;
	return a->employers ? cli_people_employers(a->employers, &a->emp) :
	       CLI_CONTINUE;
}

/* `text` in `width` columns (characters, not bytes): cut or padded. */
static void cell(GString *out, const char *text, size_t width)
{
	size_t n = (size_t)g_utf8_strlen(text, -1);
	char *cut = n > width ? g_utf8_substring(text, 0, (glong)width) :
		    NULL;

	g_string_append(out, cut ? cut : text);
	for (; n < width; n++)
		g_string_append_c(out, ' ');
	g_free(cut);
}

/* A row's move since the earlier run, as stat-print.py writes it: "( +2)",
 * "(   )" at the same rank, "(***)" new or up from below twice the rows
 * shown. */
static void text_rank_move(GString *out, size_t prev, size_t rank,
			   size_t max)
{
	if (!prev || (prev > rank && prev - rank > 2 * max))
		g_string_append(out, " (***)");
	else if (prev == rank)
		g_string_append(out, " (   )");
	else
		g_string_append_printf(out, " (%+3" G_GINT64_FORMAT ")",
				       (int64_t)prev - (int64_t)rank);
}

#define COLUMN 40

/* One ranked column of the netdev report: the top `max` people (or
 * companies) by figure `key`, with their moves under --compare. */
static GPtrArray *column(struct ms_people *pp, bool companies,
			 const char *key, const char *title, size_t max,
			 GHashTable *const *prev)
{
	GPtrArray *all = companies ? pp->companies : pp->people;
	GPtrArray *rows = g_ptr_array_new();
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	int width = 1;
	size_t unknown = 0; /* "(Unknown)"'s earlier rank: not ranked here */

	ms_people_sort(pp, key);
	if (prev)
		ms_people_compare(pp, key, prev[0], prev[1]);
	for (guint i = 0; i < all->len; i++)
		if (!companies || !((struct ms_people_company *)
				    all->pdata[i])->unknown)
			g_ptr_array_add(rows, all->pdata[i]);
		else
			unknown = ((struct ms_people_company *)
				   all->pdata[i])->prev_rank;
	max = MIN(max, rows->len);
	for (size_t i = 0; i < max; i++) {
		const struct ms_people_counts *c = companies ?
			&((struct ms_people_company *)rows->pdata[i])->c :
			&((struct ms_people_person *)rows->pdata[i])->c;
		char b[24];

		width = MAX(width, snprintf(b, sizeof b, "%" G_GINT64_FORMAT,
					    ms_people_figure(c, key)));
	}
	g_ptr_array_add(lines, g_strdup_printf("%s:", title));
	for (size_t i = 0; i < max; i++) {
		const struct ms_people_person *p = rows->pdata[i];
		const struct ms_people_company *co = rows->pdata[i];
		GString *l = g_string_new(NULL);

		g_string_append_printf(l, "  %3zu", i + 1);
		if (prev)
			text_rank_move(l, companies ? co->prev_rank -
				       (unknown && unknown < co->prev_rank) :
				       p->prev_rank, i + 1, max);
		g_string_append_printf(l, " [%*" G_GINT64_FORMAT "] ", width,
				       ms_people_figure(companies ? &co->c :
							&p->c, key));
		g_string_append(l, companies ? co->name : *p->name ? p->name :
				p->email);
		g_ptr_array_add(lines, g_string_free(l, FALSE));
	}
	g_ptr_array_unref(rows);
	return lines;
}

/* The netdev report's ranked columns, two side by side. */
static void text_sections(struct ms_people *pp, bool companies, size_t max,
			  GHashTable *const (*prev)[2])
{
	for (size_t s = 0; s < G_N_ELEMENTS(sections); s++) {
		GPtrArray *l = column(pp, companies, sections[s][0][0],
				      sections[s][0][1], max,
				      prev ? prev[2 * s] : NULL);
		GPtrArray *r = column(pp, companies, sections[s][1][0],
				      sections[s][1][1], max,
				      prev ? prev[2 * s + 1] : NULL);
		GString *line = g_string_new(NULL);

		for (guint i = 0; i < MAX(l->len, r->len); i++) {
			g_string_truncate(line, 0);
			cell(line, i < l->len ? l->pdata[i] : "", COLUMN);
			g_string_append_printf(line, " %s", i < r->len ?
					       (char *)r->pdata[i] : "");
			printf("%s\n", g_strchomp(line->str));
		}
		printf("\n");
		g_string_free(line, TRUE);
		g_ptr_array_unref(l);
		g_ptr_array_unref(r);
	}
}

/* The earlier rank and the figure's change, in a table. */
static void text_move(size_t prev_rank, int64_t change, bool compare)
{
	char r[24], c[24];

	if (!compare)
		return;
	snprintf(r, sizeof r, "%zu", prev_rank);
	snprintf(c, sizeof c, "%+" G_GINT64_FORMAT, change);
	printf(" %5s %6s", prev_rank ? r : "new", prev_rank ? c : "-");
}

/* maintstat's figures of the top people by --sort, in one table. */
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
		GString *l = g_string_new(NULL);
		char med[32];

		ms_duration_format(p->median_first_response, med, 32);
		printf("  %4zu", i + 1);
		text_move(p->prev_rank, p->score_change, compare);
		cell(l, *p->name ? p->name : p->email, 30);
		g_string_append_c(l, ' ');
		cell(l, p->company, 18);
		printf(" %7" G_GINT64_FORMAT "  %s %5zu %5zu %5zu %5zu %5zu "
		       "%5zu %5zu %7s\n", p->c.reviewer_score, l->str,
		       p->c.authored, p->c.messages, p->c.threads,
		       p->c.replied, p->c.first_responses, p->c.tags_given,
		       p->c.tags_received, med);
		g_string_free(l, TRUE);
	}
	cli_print_more(stdout, "  ", max, pp->people->len);
}

static void text_companies(const struct ms_people *pp, size_t max,
			   const char *sort, bool compare)
{
	printf("Top companies by %s:\n", sort);
	printf("  %4s%s %7s  %-30s %6s %5s %5s %5s %5s %5s %7s\n", "rank",
	       compare ? "  prev change" : "", "score", "company", "people",
	       "auth", "msgs", "repl", "tag+", "tag-", "balance");
	for (size_t i = 0; i < max; i++) {
		const struct ms_people_company *c = pp->companies->pdata[i];
		GString *l = g_string_new(NULL);
		char bal[32] = "-";

		if (c->review_balance >= 0)
			snprintf(bal, sizeof bal, "%.2f", c->review_balance);
		printf("  %4zu", i + 1);
		text_move(c->prev_rank, c->score_change, compare);
		cell(l, c->name, 30);
		printf(" %7" G_GINT64_FORMAT "  %s %6zu %5zu %5zu "
		       "%5zu %5zu %5zu %7s\n", c->c.reviewer_score,
		       l->str, (size_t)c->people->len, c->c.authored, c->c.messages,
		       c->c.replied, c->c.tags_given, c->c.tags_received, bal);
		g_string_free(l, TRUE);
	}
	cli_print_more(stdout, "  ", max, pp->companies->len);
}

/* stat-print.py's "How top authors rank in scores": the companies that
 * sent the most messages as authors, each with the percentile of its
 * rank by reviewer score (p0: the top) and that score. */
static void text_author_balance(struct ms_people *pp, size_t max)
{
	GHashTable *rank = g_hash_table_new(NULL, NULL);
	GPtrArray *rows = g_ptr_array_new();
	size_t n = 0;

	ms_people_sort(pp, "reviewer_score");
	for (guint i = 0; i < pp->companies->len; i++)
		if (!((struct ms_people_company *)
		      pp->companies->pdata[i])->unknown)
			g_hash_table_insert(rank, pp->companies->pdata[i],
					    GSIZE_TO_POINTER(n++));
	ms_people_sort(pp, "ml_stat.author_messages");
	for (guint i = 0; i < pp->companies->len; i++)
		if (g_hash_table_contains(rank, pp->companies->pdata[i]))
			g_ptr_array_add(rows, pp->companies->pdata[i]);
	printf("How top authors rank in scores:\n");
	for (size_t i = 0; i < MIN(max, n); i++) {
		const struct ms_people_company *c = rows->pdata[i];
		size_t r = GPOINTER_TO_SIZE(g_hash_table_lookup(rank, c));
		char pct[24];

		snprintf(pct, sizeof pct, "p%zu", r * 100 / n);
		printf("  %3zu  %4s [%5" G_GINT64_FORMAT "]  %s\n", i + 1, pct,
		       c->c.reviewer_score, c->name);
	}
	g_ptr_array_unref(rows);
	g_hash_table_unref(rank);
}

/* --by in text: the figures of the tables' first `max` rows (people, or
 * companies) in each interval, a line per interval under the row's name;
 * "-" where it sent nothing. */
static void text_series(const struct ms_people *pp, bool companies,
			size_t max, const struct cli_act_series *ser,
			const char *by)
{
	GPtrArray *rows = companies ? pp->companies : pp->people;
	GString *l = g_string_new(NULL);

	printf("By %s:\n  %-30s %-10s %7s%s %5s %5s %5s %5s %5s %5s %5s\n",
	       by, companies ? "company" : "name", "from", "score",
	       companies ? " people" : "", "auth", "msgs", "thr", "repl",
	       "first", "tag+", "tag-");
	for (size_t r = 0; r < max; r++) {
		const struct ms_people_person *p = rows->pdata[r];
		const struct ms_people_company *c = rows->pdata[r];

		for (size_t i = 0; i < pp->nr_intervals; i++) {
			const struct ms_people_company *ic = companies ?
				ms_people_find_company(pp->intervals[i],
						       c->name) : NULL;
			const struct ms_people_person *ip = companies ? NULL :
				ms_people_find(pp->intervals[i], p->person);
			const struct ms_people_counts *n = ic ? &ic->c :
							   ip ? &ip->c : NULL;

			g_string_assign(l, "  ");
			cell(l, i ? "" : companies ? c->name :
			     *p->name ? p->name : p->email, 30);
			g_string_append_c(l, ' ');
			cell(l, ser->labels ? ser->labels->pdata[i] :
			     ser->day[i], 10);
			if (!n) {
				printf("%s %7s\n", l->str, "-");
				continue;
			}
			printf("%s %7" G_GINT64_FORMAT, l->str,
			       n->reviewer_score);
			if (ic)
				printf(" %6u", ic->people->len);
			printf(" %5zu %5zu %5zu %5zu %5zu %5zu %5zu\n",
			       n->authored, n->messages, n->threads,
			       n->replied, n->first_responses, n->tags_given,
			       n->tags_received);
		}
	}
	g_string_free(l, TRUE);
}

/* The text: the netdev report's ranked lists, people then companies,
 * each with maintstat's table of every figure by --sort. */
static void text_document(const struct cli_review_view *v,
			  struct ms_people *pp, long limit,
			  const struct people_args *a,
			  const struct cli_act_series *ser)
{
	const char *sort = a->sort ? a->sort : "reviewer_score";
	GHashTable *const (*prev)[2] = a->compare ?
		(GHashTable *const (*)[2])a->prev : NULL;
	size_t max = cli_limit(limit, false, pp->people->len);

	cli_review_print_context(stdout, v);
	printf("People: %u (bots left out); figures over the whole window, "
	       "not per week\n\n", pp->people->len);
	text_sections(pp, false, max, prev);
	ms_people_sort(pp, sort);
	if (prev)
		ms_people_compare(pp, sort, prev[NR_FIGURES][0],
				  prev[NR_FIGURES][1]);
	text_people(pp, max, sort, prev != NULL);
	if (a->by) {
		printf("\n");
		text_series(pp, false, max, ser, a->by);
	}
	max = cli_limit(limit, false, pp->companies->len);
	printf("\nCompanies: %u\n\n", pp->companies->len);
	text_sections(pp, true, max, prev);
	ms_people_sort(pp, sort);
	text_companies(pp, max, sort, prev != NULL);
	if (a->by) {
		printf("\n");
		text_series(pp, true, max, ser, a->by);
	}
	printf("\n");
	text_author_balance(pp, max);
}

/* The figures every person and company has, in JSON. */
static void json_counts(struct ms_out *o, const struct ms_people_counts *c,
			bool entries)
{
	ms_out_kv_int(o, "authored", (int64_t)c->authored);
	ms_out_kv_int(o, "series", (int64_t)c->series);
	ms_out_kv_begin_object(o, "projects");
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
	ms_out_kv_begin_object(o, "ml_stat");
	ms_out_kv_int(o, "reviewer_cs", (int64_t)c->reviewer_cs);
	ms_out_kv_int(o, "reviewer_threads", (int64_t)c->reviewer_threads);
	ms_out_kv_int(o, "reviewer_messages", (int64_t)c->reviewer_messages);
	ms_out_kv_int(o, "author_cs", (int64_t)c->author_cs);
	ms_out_kv_int(o, "author_threads", (int64_t)c->author_threads);
	ms_out_kv_int(o, "author_messages", (int64_t)c->author_messages);
	ms_out_end_object(o);
	if (!entries)
		return;
	ms_out_kv_int(o, "entries_listed", (int64_t)c->entries_listed);
	ms_out_kv_int(o, "entries_answered", (int64_t)c->entries_answered);
}

static void json_person(struct ms_out *o, const struct ms_people *pp,
			const struct cli_act_series *ser,
			const struct ms_people_person *p, bool compare);

/* Key "people": the persons `people` (of `pp`), each as json_person()
 * writes it. */
static void json_people(struct ms_out *o, const struct ms_people *pp,
			const struct cli_act_series *ser,
			const GPtrArray *people, size_t max, bool compare)
{
	ms_out_kv_begin_list(o, "people");
	for (size_t i = 0; i < MIN(max, people->len); i++)
		json_person(o, pp, ser, people->pdata[i], compare);
	ms_out_end_list(o);
}

/* Key "intervals" (--by) of person `p` or company `c`: per interval its
 * start and end as counted, and its figures there, every one null when
 * it sent nothing in it. */
static void json_intervals(struct ms_out *o, const struct ms_people *pp,
			   const struct cli_act_series *ser,
			   const struct ms_people_person *p,
			   const struct ms_people_company *c)
{
	static const char *const figures[] = {
		"authored", "series", "projects", "messages", "threads",
		"replied", "first_responses", "tags_given", "tags_received",
		"reviewer_score", "author_score", "ml_stat",
	};

	if (!pp->nr_intervals)
		return;
	ms_out_kv_begin_list(o, "intervals");
	for (size_t i = 0; i < pp->nr_intervals; i++) {
		const struct ms_people *iv = pp->intervals[i];
		const struct ms_people_person *ip = p ?
			ms_people_find(iv, p->person) : NULL;
		const struct ms_people_company *ic = c ?
			ms_people_find_company(iv, c->name) : NULL;

		cli_act_series_open(o, ser, i, false, NULL, 0);
		if (p && ip) {
			ms_out_kv_string(o, "company", ip->company);
			json_counts(o, &ip->c, false);
			cli_json_hours(o, "median_latency_hours",
				       ip->median_first_response);
		} else if (c && ic) {
			json_people(o, iv, ser, ic->people, SIZE_MAX, false);
			json_counts(o, &ic->c, false);
		} else {
			ms_out_kv_null(o, p ? "company" : "people");
			for (size_t k = 0; k < G_N_ELEMENTS(figures); k++)
				ms_out_kv_null(o, figures[k]);
			if (p)
				ms_out_kv_null(o, "median_latency_hours");
		}
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* Person `p` of `pp`: every figure, its stretches by employer when it
 * moved, with --compare its move, with --by its intervals. */
static void json_person(struct ms_out *o, const struct ms_people *pp,
			const struct cli_act_series *ser,
			const struct ms_people_person *p, bool compare)
{
	/* the window's, not an interval's (which counts no entries) */
	bool whole = pp->intervals != NULL;

	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", p->name);
	ms_out_kv_string(o, "email", p->email);
	ms_out_kv_begin_list(o, "addresses");
	for (size_t k = 0; p->addresses[k]; k++)
		ms_out_string(o, p->addresses[k]);
	ms_out_end_list(o);
	ms_out_kv_string(o, "company", p->company);
	ms_out_kv_begin_list(o, "employers");
	for (size_t k = 0; k < p->nr_employers; k++) {
		const struct ms_people_employer *e = &p->employers[k];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "company", e->company);
		/* 0: the window's start, when no --since bounds it */
		cli_json_date(o, "since", e->since != 0, e->since);
		cli_json_date(o, "until", e->until != 0, e->until);
		json_counts(o, &e->c, whole);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	json_counts(o, &p->c, whole);
	cli_json_hours(o, "median_latency_hours", p->median_first_response);
	json_move(o, p->prev_rank, p->score_change, compare);
	if (ser)
		json_intervals(o, pp, ser, p, NULL);
	else if (pp->nr_intervals)
		ms_out_kv_null(o, "intervals");
	ms_out_end_object(o);
}

static void json_document(struct ms_out *o, const struct ms_people *pp,
			  long limit, bool compare,
			  const struct cli_act_series *ser)
{
	json_people(o, pp, ser, pp->people,
		    cli_limit(limit, true, pp->people->len), compare);
	ms_out_kv_begin_list(o, "companies");
	for (size_t i = 0; i < cli_limit(limit, true, pp->companies->len);
	     i++) {
		const struct ms_people_company *c = pp->companies->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", c->name);
		/* its people's intervals: the top-level list's (the
		 * company's own hold its split) */
		json_people(o, pp, NULL, c->people, SIZE_MAX, compare);
		json_counts(o, &c->c, true);
		if (c->review_balance >= 0)
			ms_out_kv_real(o, "review_balance", c->review_balance);
		else
			ms_out_kv_null(o, "review_balance");
		json_move(o, c->prev_rank, c->score_change, compare);
		json_intervals(o, pp, ser, NULL, c);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* --check: what to fix (in JSON: {"schema_version", "to_fix": [{"kind",
 * "what", "mailmap"}]}), or with --suggest-mailmap the .mailmap lines. */
static int print_check(const struct ms_people *pp, bool suggest,
		       struct ms_out *o)
{
	GPtrArray *pr = ms_people_check(pp);

	if (o) {
		ms_out_begin_document(o);
		ms_out_kv_begin_list(o, "to_fix");
	}
	for (guint i = 0; i < pr->len; i++) {
		const struct ms_people_problem *x = pr->pdata[i];

		if (o) {
			ms_out_begin_object(o);
			ms_out_kv_string(o, "kind", x->kind);
			ms_out_kv_string(o, "what", x->what);
			if (x->mailmap)
				ms_out_kv_string(o, "mailmap", x->mailmap);
			else
				ms_out_kv_null(o, "mailmap");
			ms_out_end_object(o);
		} else if (!suggest) {
			printf("%s\n", x->what);
		} else if (x->mailmap) {
			printf("%s\n", x->mailmap);
		}
	}
	if (!o && !pr->len && !suggest)
		printf("Nothing to fix.\n");
	g_ptr_array_unref(pr);
	if (o) {
		ms_out_end_list(o);
		ms_out_end_object(o);
		return ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	}
	return fflush(stdout) || ferror(stdout) ?
	       cli_error("cannot write the output") : EXIT_OK;
}

/* --by: the intervals of the window, as activity's and review's. */
static int intervals(const struct cli_review_view *v,
		     const struct people_args *a, struct cli_act_series *ser,
		     struct ms_review_opts *rvo)
{
	int64_t lo = rvo->since, first, last;
	int rc;

	rvo->bounds = NULL;
	rvo->nr_intervals = 0;
	if (!lo && ms_mail_index_span(v->idx, &first, &last, NULL))
		lo = MIN(first, rvo->until);
	rc = cli_act_series_bounds("people", a->by, a->release_tags,
				   v->opts->repo, lo, rvo->until, ser);
	if (rc != CLI_CONTINUE || !a->by)
		return rc;
	rvo->bounds = (const int64_t *)(void *)ser->bounds->data;
	rvo->nr_intervals = ser->nr_intervals;
	return CLI_CONTINUE;
}

static int sink(const struct cli_review_view *v, void *data)
{
	const struct people_args *a = data;
	long limit = v->limit;
	struct cli_act_series ser = { 0 };
	struct ms_review_opts rvo = *v->rvo;
	struct ms_people *pp;
	struct ms_out *o;
	bool cmp = a->compare != NULL;
	int rc = intervals(v, a, &ser, &rvo);

	if (rc != CLI_CONTINUE)
		return rc;
	pp = ms_people_compute(v->lm, v->map, v->commits, &rvo, v->rv,
			       a->emp);
	o = ms_out_new(a->json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);

	if (a->check || a->suggest) {
		rc = print_check(pp, a->suggest, a->json ? o : NULL);
		ms_out_free(o);
		ms_people_free(pp);
		cli_act_series_release(&ser);
		return rc;
	}
	ms_out_begin_document(o);
	if (a->json) {
		/* previous_rank and score_change: by reviewer score */
		if (cmp)
			ms_people_compare(pp, "reviewer_score",
					  a->prev[PREV_SCORE][0],
					  a->prev[PREV_SCORE][1]);
		if (a->sort)
			ms_people_sort(pp, a->sort);
		json_document(o, pp, limit, cmp, &ser);
		ms_out_end_object(o);
	} else {
		text_document(v, pp, limit, a, &ser);
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	ms_people_free(pp);
	cli_act_series_release(&ser);
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
		  "without a company (with --json: one document)" },
		{ CLI_OPT_FLAG, "suggest-mailmap", 0, &a.suggest, NULL,
		  "--check as .mailmap lines (questions commented out)" },
		{ CLI_OPT_STRING, "sort", 0, &a.sort, "FIGURE",
		  "rank by this figure (default reviewer_score)" },
		CLI_ACT_SERIES_OPTIONS(&a.by, &a.release_tags),
		CLI_OPT_JSON(&a.json),
		CLI_OPTION_END,
	};
	const struct cli_review_caller caller = {
		.name = "people", .help = &help, .options = opts, .check = check,
		.sink = sink, .data = &a,
	};
	int rc = cli_review_main(argc, argv, &caller);

	ms_employers_free(a.emp);
	for (size_t f = 0; f <= NR_FIGURES; f++)
		for (int i = 0; i < 2; i++)
			if (a.prev[f][i])
				g_hash_table_unref(a.prev[f][i]);
	return rc;
}
