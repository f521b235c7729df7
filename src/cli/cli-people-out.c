/*
 * cli-people-out.c - the people page of the report (cli-people-out.h).
 */
#include "cli-people-out.h"
#include "html.h"
#include "people.h"
#include "when.h"

#include <glib.h>

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
	num(fp, c->reviewer_score);
}

static void head(FILE *fp, const char *id, const char *first,
		 const char *second, const char *last)
{
	fprintf(fp, "<table class=\"sortable\" id=\"%s\">\n<thead><tr>"
		"<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
		"<th scope=\"col\">Patches authored</th>"
		"<th scope=\"col\">Messages</th><th scope=\"col\">Threads</th>"
		"<th scope=\"col\">Others' patches replied to</th>"
		"<th scope=\"col\">First responses</th>"
		"<th scope=\"col\">Tags given</th>"
		"<th scope=\"col\">Tags received</th>"
		"<th scope=\"col\">Reviewer score</th>"
		"<th scope=\"col\">%s</th></tr></thead>\n<tbody>\n", id, first,
		second, last);
}

void cli_people_page(FILE *fp, const struct ms_people *pp)
{
	ms_html_begin(fp, "maintstat report: the list's people");
	fputs("<h1>The list's people</h1>\n<p>Everyone on the list over the "
	      "window, bots left out, as <code>maintstat people</code> counts "
	      "(the definitions: docs/review.md, \"The list's people\"); "
	      "the scores are linux-netdev/ml-stat's.</p>\n", fp);
	head(fp, "people", "Person", "Company",
	     "Median first response");
	for (guint i = 0; i < pp->people->len; i++) {
		const struct ms_people_person *p = pp->people->pdata[i];
		char d[32];

		ms_html_printf(fp, "<tr><th scope=\"row\">%s &lt;%s&gt;</th>"
			       "<td>%s</td>", p->name, p->email, p->company);
		counts(fp, &p->c);
		/* hours below a day, days above, as every page and text */
		ms_duration_format(p->median_first_response, d, 32);
		if (p->median_first_response < 0)
			fputs("<td class=\"n\" data-sort=\"-1\">–</td>", fp);
		else
			fprintf(fp, "<td class=\"n\" data-sort=\"%.2f\">%s"
				"</td>", (double)p->median_first_response /
				3600, d);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n<h2>Companies</h2>\n", fp);
	head(fp, "companies", "Company", "People",
	     "Review balance (review over author points)");
	for (guint i = 0; i < pp->companies->len; i++) {
		const struct ms_people_company *c = pp->companies->pdata[i];

		ms_html_printf(fp, "<tr><th scope=\"row\">%s</th>", c->name);
		fprintf(fp, "<td class=\"n\">%zu</td>", c->people);
		counts(fp, &c->c);
		if (c->review_balance < 0)
			fputs("<td class=\"n\" data-sort=\"-1\">–</td>", fp);
		else
			fprintf(fp, "<td class=\"n\">%.2f</td>",
				c->review_balance);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	ms_html_end(fp);
}
