/*
 * cli-people-out.c - the people page of the report (cli-people-out.h).
 */
#include "cli-people-out.h"
#include "activity.h"
#include "cli-activity.h"
#include "cli-review.h"
#include "html.h"
#include "output.h"
#include "people.h"
#include "review.h"
#include "when.h"

#include <glib.h>
#include <math.h>

int cli_people_employers(const char *file, struct ms_employers **out)
{
	char *text;
	size_t len;
	int rc = cli_read_file(file, &text, &len);

	if (rc != CLI_CONTINUE)
		return rc;
	if (ms_employers_parse(file, text, len, out) < 0)
		rc = cli_error_last();
	g_free(text);
	return rc;
}

static void add_prev(const char *key, int64_t score, void *data)
{
	g_hash_table_insert(data, g_strdup(key), g_memdup2(&score,
							   sizeof score));
}

int cli_people_read_compare(const char *file, const char *const *keys,
			    size_t nr, GHashTable *(*out)[2])
{
	char *text;
	size_t len;
	int rc = cli_read_file(file, &text, &len);

	if (rc != CLI_CONTINUE)
		return rc;
	for (size_t f = 0; f < nr && rc == CLI_CONTINUE; f++) {
		for (int i = 0; i < 2; i++)
			out[f][i] = g_hash_table_new_full(
				g_str_hash, g_str_equal, g_free, g_free);
		if (ms_json_read_list(file, text, len, "people", "email",
				      keys[f], add_prev, out[f][0]) < 0 ||
		    ms_json_read_list(file, text, len, "companies", "name",
				      keys[f], add_prev, out[f][1]) < 0)
			rc = cli_error_last();
	}
	g_free(text);
	return rc;
}

/* A number cell that sorts by its value. */
static void num(FILE *fp, int64_t v)
{
	fprintf(fp, "<td class=\"n\" data-sort=\"%" G_GINT64_FORMAT "\">%"
		G_GINT64_FORMAT "</td>", v, v);
}

static void counts(FILE *fp, const struct ms_people_counts *c)
{
	num(fp, (int64_t)c->authored);
	num(fp, (int64_t)c->messages);
	num(fp, (int64_t)c->threads);
	num(fp, (int64_t)c->replied);
	num(fp, (int64_t)c->first_responses);
	num(fp, (int64_t)c->tags_given);
	num(fp, (int64_t)c->tags_received);
	fprintf(fp, "<td class=\"n\" data-sort=\"%" G_GINT64_FORMAT "\">%"
		G_GINT64_FORMAT, c->reviewer_score, c->reviewer_score);
}

/* The reviewer score's trend, per quarter (nothing sent: no point),
 * closing the score's cell; person `p` or company `c`. */
static void trend(FILE *fp, const struct ms_people *pp,
		  const struct cli_act_series *ser,
		  const struct ms_people_person *p,
		  const struct ms_people_company *c)
{
	double *v = g_new(double, pp->nr_intervals + 1);
	const char **day = g_new(const char *, pp->nr_intervals + 1);
	struct ms_html_series sp = { "reviewer score", v, 0 };

	for (size_t i = 0; i < pp->nr_intervals; i++) {
		const struct ms_people_person *ip = p ?
			ms_people_find(pp->intervals[i], p->person) : NULL;
		const struct ms_people_company *ic = c ?
			ms_people_find_company(pp->intervals[i], c->name) :
			NULL;

		day[i] = ser->day[i];
		v[i] = ip ? (double)ip->c.reviewer_score : ic ?
		       (double)ic->c.reviewer_score : NAN;
	}
	ms_html_plot(fp, "line", "reviewer score per quarter", "quarter",
		     "score", day, pp->nr_intervals, &sp, 1, 1);
	g_free(v);
	g_free(day);
	fputs("</td>", fp);
}

/* --compare's cells: the earlier rank and the score's change. */
static void move(FILE *fp, size_t prev_rank, int64_t change, bool compare)
{
	if (!compare)
		return;
	if (!prev_rank) {
		fputs("<td class=\"n\" data-sort=\"999999\">new</td>"
		      "<td class=\"n\" data-sort=\"0\">–</td>", fp);
		return;
	}
	fprintf(fp, "<td class=\"n\">%zu</td>", prev_rank);
	fprintf(fp, "<td class=\"n\" data-sort=\"%" G_GINT64_FORMAT "\">%+"
		G_GINT64_FORMAT "</td>", change, change);
}

static void head(FILE *fp, const char *id, const char *first,
		 const char *second, const char *last, bool compare)
{
	fprintf(fp, "<div class=\"wide\">"
		    "<table class=\"sortable\" id=\"%s\">\n<thead><tr>"
		"<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
		"<th scope=\"col\">Patches authored</th>"
		"<th scope=\"col\">Messages</th><th scope=\"col\">Threads</th>"
		"<th scope=\"col\">Others' patches replied to</th>"
		"<th scope=\"col\">First responses</th>"
		"<th scope=\"col\">Tags given</th>"
		"<th scope=\"col\">Tags received</th>"
		"<th scope=\"col\">Reviewer score</th>"
		"<th scope=\"col\">%s</th>%s</tr></thead>\n<tbody>\n", id,
		first, second, last, compare ?
		"<th scope=\"col\">Previous rank</th>"
		"<th scope=\"col\">Score change</th>" : "");
}

/* A person whose employer changed in the window: each company with its
 * stretch, oldest first, under the company of their newest message. */
static void stretches(FILE *fp, const struct ms_people_person *p)
{
	char d[32];

	if (!p->nr_employers)
		return;
	fputs("<br><small>", fp);
	for (size_t k = 0; k < p->nr_employers; k++) {
		const struct ms_people_employer *e = &p->employers[k];

		ms_html_printf(fp, k ? ", %s" : "%s", e->company);
		if (k) {
			ms_act_format(e->since, 0, false, true, d);
			fprintf(fp, " from %s", d);
		}
		if (k + 1 < p->nr_employers) {
			ms_act_format(e->until, 0, false, true, d);
			fprintf(fp, " until %s", d);
		}
	}
	fputs("</small>", fp);
}

static void page(FILE *fp, const struct ms_people *pp, bool compare,
		 const struct cli_act_series *ser)
{
	ms_html_begin(fp, "maintstat report: the list's people");
	fputs("<h1>The list's people</h1>\n<p>Everyone on the list over the "
	      "window, bots left out, as <code>maintstat people</code> counts "
	      "(the definitions: docs/review.md, \"The list's people\"); "
	      "the scores are linux-netdev/ml-stat's, each with its trend "
	      "per quarter (a quarter without a message of theirs has no "
	      "point).</p>\n", fp);
	if (compare)
		fputs("<p>Previous rank and score change: by reviewer score in "
		      "the earlier <code>people --json</code> given "
		      "(<code>--compare</code>), as the netdev report's "
		      "release-to-release moves.</p>\n", fp);
	head(fp, "people", "Person", "Company",
	     "Median first response", compare);
	for (guint i = 0; i < pp->people->len; i++) {
		const struct ms_people_person *p = pp->people->pdata[i];
		char d[32];

		ms_html_printf(fp, "<tr><th scope=\"row\">%s &lt;%s&gt;</th>"
			       "<td>%s", p->name, p->email, p->company);
		stretches(fp, p);
		fputs("</td>", fp);
		counts(fp, &p->c);
		trend(fp, pp, ser, p, NULL);
		/* hours below a day, days above, as every page and text */
		ms_duration_format(p->median_first_response, d, 32);
		if (p->median_first_response < 0)
			fputs("<td class=\"n\" data-sort=\"-1\">–</td>", fp);
		else
			fprintf(fp, "<td class=\"n\" data-sort=\"%.2f\">%s"
				"</td>", (double)p->median_first_response /
				3600, d);
		move(fp, p->prev_rank, p->score_change, compare);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n<h2>Companies</h2>\n", fp);
	head(fp, "companies", "Company", "People",
	     "Review balance (review over author points)", compare);
	for (guint i = 0; i < pp->companies->len; i++) {
		const struct ms_people_company *c = pp->companies->pdata[i];

		ms_html_printf(fp, "<tr><th scope=\"row\">%s</th>", c->name);
		fprintf(fp, "<td class=\"n\">%u</td>", c->people->len);
		counts(fp, &c->c);
		trend(fp, pp, ser, NULL, c);
		if (c->review_balance < 0)
			fputs("<td class=\"n\" data-sort=\"-1\">–</td>", fp);
		else
			fprintf(fp, "<td class=\"n\">%.2f</td>",
				c->review_balance);
		move(fp, c->prev_rank, c->score_change, compare);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n", fp);
	ms_html_end(fp);
}

int cli_people_page_read(struct cli_people_page *pg)
{
	static const char *const score[] = { "reviewer_score" };

	if (pg->compare && cli_people_read_compare(pg->compare, score, 1,
						   pg->prev) != CLI_CONTINUE)
		return EXIT_RUNTIME;
	return pg->employers ? cli_people_employers(pg->employers, &pg->emp) :
	       CLI_CONTINUE;
}

void cli_people_page_release(struct cli_people_page *pg)
{
	ms_employers_free(pg->emp);
	for (int i = 0; i < 2; i++)
		if (pg->prev[0][i])
			g_hash_table_unref(pg->prev[0][i]);
}

void cli_people_page(FILE *fp, const struct cli_review_view *v,
		     const struct cli_people_page *pg)
{
	struct ms_review_opts rvo = *v->rvo;
	struct cli_act_series ser = { 0 };
	struct ms_people *pp;
	int64_t lo = rvo.since, first, last;

	if (!lo && ms_mail_index_span(v->idx, &first, &last, NULL))
		lo = MIN(first, rvo.until);
	rvo.nr_intervals = 0;
	rvo.bounds = NULL;
	if (cli_act_series_bounds("report", "quarter", NULL, NULL, lo,
				  rvo.until, &ser) == CLI_CONTINUE) {
		rvo.bounds = (const int64_t *)(void *)ser.bounds->data;
		rvo.nr_intervals = ser.nr_intervals;
	}
	pp = ms_people_compute(v->lm, v->map, v->commits, &rvo, v->rv,
			       pg->emp);
	if (pg->compare)
		ms_people_compare(pp, "reviewer_score", pg->prev[0][0],
				  pg->prev[0][1]);
	page(fp, pp, pg->compare != NULL, &ser);
	ms_people_free(pp);
	cli_act_series_release(&ser);
}
