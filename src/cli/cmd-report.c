/*
 * cmd-report.c - maintstat report: the review as a self-contained static
 * site (DIR/index.html, a page per entry and per listed person, the JSON
 * behind them in DIR/data/), readable from disk without a server or the
 * network.  The figures are `review`'s (the same options, computed once
 * with --by month); plots are drawn by Chart.js, copied from Debian's
 * libjs-chart.js into DIR/assets/ when the report is written.
 */
#include "activity.h"
#include "cli-activity.h"
#include "cli-outdir.h"
#include "cli-people-out.h"
#include "cli-review.h"
#include "cli-review-out.h"
#include "commands.h"
#include "html.h"
#include "ident.h"
#include "mail.h"
#include "maintainers.h"
#include "output.h"
#include "trailer.h"
#include "review.h"
#include "when.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHARTJS_DEFAULT "/usr/share/javascript/chart.js/chart.min.js"

static const struct cli_command_help help = {
	"maintstat report --archive PATH [--archive PATH...] [--repo GITDIR | "
	"--tree DIR] [options] [ENTRY...] --output-dir DIR",
	"Write the review of each entry (all with patches, or those named) as\n"
	"a static site in DIR: index.html, an overview of the entries,\n"
	"busiest first (sortable, with monthly sparklines, and with --repo the category\n"
	"`maintstat urgent --archive` gives each); a page per entry (time to\n"
	"first response, its monthly trend, the listed people per quarter,\n"
	"with --repo their git activity per month, the inactive faded;\n"
	"ignored patches with links to the list, de-facto maintainers,\n"
	"corporate aliases, every patch); a page per listed person (entries,\n"
	"replies, latency, tag ledger, addresses joined); and the JSON behind\n"
	"them in DIR/data/ (review.json is `review --json --by month`,\n"
	"entry-N.json one entry each, with its urgent category and git\n"
	"timeline).  Open DIR/index.html from disk: nothing is fetched.\n"
	"Tables read without JavaScript; plots need it and Chart.js, copied\n"
	"from " CHARTJS_DEFAULT "\n"
	"(Debian's libjs-chart.js; "
	"MS_CHARTJS=FILE chooses another copy).\n"
	"\n"
	"The options are review's (maintstat review --help) but --by,\n"
	"--release-tags, --set-aside and --json: the report is by month\n"
	"and is HTML.",
	"  maintstat report --archive linux-rdma-2023.mbox.gz --tree ~/linux \\\n"
	"      --output-dir rdma-site 'INFINIBAND SUBSYSTEM'",
};

struct site {
	const char *dir;         /* where files are written: staging */
	const char *final;       /* --output-dir */
	const struct cli_review_view *v;
	char **months;               /* "YYYY-MM" per interval */
	size_t nr;
	/* the listed people, in order: the first listing of each email
	 * (struct ms_rv_person *, borrowed), and the first name one of
	 * its listings gives (or NULL) */
	GPtrArray *people, *names;
	long min_patches;            /* --min-patches: the overview's cut */
	struct cli_people_page people_page;
	GHashTable *person_of;       /* email -> index + 1 */
	/* per entry: the category `urgent` gives it, "not urgent", or NULL
	 * without the git history; and why (owned) */
	const char **urgent;
	char **urgent_why;
	/* the listed people's git activity per month: one series of the
	 * history's model over the months (cli-activity.h); tl_of maps an
	 * entry to its place in each month's result, SIZE_MAX: none */
	struct cli_act_series tl;
	size_t *tl_of;
};

/* Files go to the staging directory beside the report's (cli-outdir.h):
 * never through a link planted there, and the old report is replaced
 * only by a complete new one. */
static FILE *open_out(const struct site *s, const char *name)
{
	return cli_outdir_open(s->dir, name);
}

static int close_out(const struct site *s, FILE *fp, const char *name)
{
	return cli_outdir_close(fp, s->dir, name) == CLI_CONTINUE ? 0 : -1;
}

/* `len` bytes of `data` into the report's file `name`: 0 or EXIT_FAILURE. */
static int write_file(const struct site *s, const char *name,
		      const char *data, size_t len)
{
	FILE *fp = open_out(s, name);

	if (!fp)
		return EXIT_FAILURE;
	fwrite(data, 1, len, fp);
	return close_out(s, fp, name) ? EXIT_FAILURE : 0;
}

static int write_assets(const struct site *s)
{
	const char *src = getenv("MS_CHARTJS");
	char *data = NULL;
	gsize len = 0;
	GError *err = NULL;
	int rc;

	if (!src || !*src)
		src = CHARTJS_DEFAULT;
	if (!g_file_get_contents(src, &data, &len, &err)) {
		rc = cli_error("cannot read the charting library '%s': %s "
			       "(install Debian's libjs-chart.js)", src,
			       err->message);
		g_error_free(err);
		return rc;
	}
	rc = write_file(s, "assets/chart.min.js", data, len);
	g_free(data);
	if (!rc)
		rc = write_file(s, "assets/report.js", ms_html_report_js,
				strlen(ms_html_report_js));
	if (!rc)
		rc = write_file(s, "assets/report.css", ms_html_report_css,
				strlen(ms_html_report_css));
	return rc;
}

/*
 * What `maintstat urgent --archive` says of each entry, with its window
 * and cutoff (ms_verdict_window(): the year before the history's newest
 * commit or --until, --inactive-after before its end), but without a
 * --min-commits threshold: the report shows entries by their patches.
 * The list facts are `urgent`'s, read again from the archives (through
 * the store).
 */
static int compute_urgent(struct site *s)
{
	const struct cli_review_view *v = s->v;
	size_t n = v->rv->entries->len;
	struct ms_activity_query q = { 0 };
	struct ms_act_entry *res = NULL;
	struct cli_list_facts *f = NULL;
	size_t nr = 0;
	int rc;

	s->urgent = g_new0(const char *, n ? n : 1);
	s->urgent_why = g_new0(char *, n ? n : 1);
	if (!v->act_model)
		return 0;
	if (ms_verdict_window(v->act_model, false, 0, v->opts->until != NULL,
			      v->rv->until, MS_DEFAULT_URGENT_WINDOW_YEARS,
			      v->opts->inactive_after, &q) < 0)
		return cli_usage_error("report", "--inactive-after: %s",
				       ms_error_last());
	if (ms_activity_query(v->act_model, &q, &res, &nr) < 0)
		return cli_error_last();
	rc = cli_list_facts_load("report", v->opts, q.since, q.until,
				 q.active_since, v->act_model, &f);
	if (rc != CLI_CONTINUE) {
		ms_act_entries_free(res, nr);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ms_rv_entry *e = v->rv->entries->pdata[i];
		const struct ms_act_entry *r = NULL;

		for (size_t k = 0; !r && k < nr; k++)
			if (!strcmp(res[k].entry->name, e->entry->name))
				r = &res[k];
		if (!r)
			continue;
		s->urgent[i] = ms_verdict_urgency(cli_list_facts_urgent(f), r,
						  res, nr, q.active_since,
						  &s->urgent_why[i]);
	}
	cli_list_facts_free(f);
	ms_act_entries_free(res, nr);
	return 0;
}

/*
 * The listed people's git activity per month, for every entry at once:
 * the history's model queried once a month over the review's months.
 */
static int compute_timeline(struct site *s)
{
	const struct ms_review *rv = s->v->rv;
	const struct maint_file *amf;
	const struct maint_entry **sel;
	struct ms_activity_query q = { 0 };
	size_t n = rv->entries->len, k = 0;
	int rc;

	s->tl_of = g_new(size_t, n ? n : 1);
	for (size_t i = 0; i < n; i++)
		s->tl_of[i] = SIZE_MAX;
	if (!s->v->act_model || !s->nr)
		return 0;
	amf = ms_activity_maintainers(s->v->act_model);
	sel = g_new(const struct maint_entry *, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		const struct ms_rv_entry *e = rv->entries->pdata[i];
		const struct maint_entry *me = maint_file_find(amf,
							       e->entry->name);

		if (me) {
			s->tl_of[i] = k;
			sel[k++] = me;
		}
	}
	s->tl.bounds = g_array_sized_new(FALSE, FALSE, sizeof(int64_t),
					 (guint)s->nr + 1);
	g_array_append_vals(s->tl.bounds, rv->bounds, (guint)s->nr + 1);
	q.entries = sel;
	q.nr_entries = k;
	q.since = rv->bounds[0];
	q.until = rv->bounds[s->nr] - 1;
	rc = k ? cli_act_series_query(s->v->act_model, &q, &s->tl) :
		CLI_CONTINUE;
	g_free(sel);
	return rc == CLI_CONTINUE ? 0 : rc;
}

/* Person `p` of entry `ei` in month `m` of the timeline. */
static const struct ms_act_person *tl_person(const struct site *s,
					     size_t ei, size_t m, size_t p)
{
	return &s->tl.res[m][s->tl_of[ei]].people[p];
}

static size_t tl_count(const struct ms_act_person *ap)
{
	return ap->author.count + ap->committer.count + ap->tags.count;
}

/* The timeline's table: a row per person, a column per month; an
 * inactive person's row is faded and says so. */
static void timeline_table(FILE *fp, const struct site *s, size_t ei,
			   size_t np)
{
	fputs("<div class=\"wide\">"
	      "<table id=\"timeline-table\"><thead><tr><th scope=\"col\">"
	      "Person</th>", fp);
	for (size_t i = 0; i < s->nr; i++)
		ms_html_printf(fp, "<th scope=\"col\">%s</th>", s->months[i]);
	fputs("</tr></thead><tbody>\n", fp);
	for (size_t p = 0; p < np; p++) {
		const struct ms_act_person *ap = tl_person(s, ei, 0, p);
		const char *mark = cli_review_view_mark(s->v, ei, ap->email);

		fputs(mark ? "<tr class=\"faded\"><th scope=\"row\">" :
		      "<tr><th scope=\"row\">", fp);
		ms_html_text(fp, *ap->email ? ap->email : ap->name);
		if (mark) {
			char *low = g_ascii_strdown(mark, -1);

			ms_html_printf(fp, " (%s)", low);
			g_free(low);
		}
		fputs("</th>", fp);
		for (size_t i = 0; i < s->nr; i++)
			fprintf(fp, "<td class=\"n\">%zu</td>",
				tl_count(tl_person(s, ei, i, p)));
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n<p class=\"note\">Commits touching the "
	      "entry each person authored, committed or was named in a "
	      "*-by: trailer of (Signed-off-by, Reviewed-by, Acked-by...), "
	      "by commit date (a commit counts once per role).  Faded, "
	      "marked (inactive): the people the verdict above calls "
	      "inactive.</p>\n", fp);
}

/*
 * Each listed person's commits in the entry per month (authored,
 * committed or tagged), from the series of the history's model: a table
 * and a plot, the inactive people faded.
 */
static void git_timeline(FILE *fp, const struct site *s, size_t ei)
{
	size_t np, nm = s->nr ? s->nr : 1;
	struct ms_html_series *hs;
	double **v;

	fputs("<h2 id=\"timeline\">Git activity of the listed people, per "
	      "month</h2>\n", fp);
	if (s->tl_of[ei] == SIZE_MAX || !s->tl.res) {
		fputs("<p>The history's MAINTAINERS has no such entry.</p>\n",
		      fp);
		return;
	}
	np = s->tl.res[0][s->tl_of[ei]].nr_people;
	if (!np) {
		fputs("<p>No listed person.</p>\n", fp);
		return;
	}
	timeline_table(fp, s, ei, np);
	v = g_new0(double *, np);
	hs = g_new0(struct ms_html_series, np);
	for (size_t p = 0; p < np; p++) {
		const struct ms_act_person *ap = tl_person(s, ei, 0, p);

		v[p] = g_new(double, nm);
		for (size_t i = 0; i < s->nr; i++)
			v[p][i] = (double)tl_count(tl_person(s, ei, i, p));
		hs[p].name = *ap->email ? ap->email : ap->name;
		hs[p].values = v[p];
		hs[p].faded = cli_review_view_mark(s->v, ei,
						   ap->email) != NULL;
	}
	ms_html_plot(fp, "line", "Git activity of each listed person "
		     "per month", "month (commit date)",
		     "commits (authored, committed, tagged)",
		     (const char *const *)s->months, s->nr, hs, np, 0);
	for (size_t p = 0; p < np; p++)
		g_free(v[p]);
	g_free(v);
	g_free(hs);
}

/* Key "urgent" of data/entry-N.json: the category, null without the
 * history. */
static void urgent_json(struct ms_out *o, const struct site *s, size_t i)
{
	ms_out_key(o, "urgent");
	if (!s->urgent[i]) {
		ms_out_null(o);
		return;
	}
	ms_out_begin_object(o);
	ms_out_kv_string(o, "category", s->urgent[i]);
	ms_out_kv_string(o, "reason", s->urgent_why[i]);
	ms_out_end_object(o);
}

/* The urgent category's cell of the overview, sorting in `urgent`'s
 * order ("not judged" last). */
static void cell_urgent(FILE *fp, const struct site *s, size_t i)
{
	ms_html_printf(fp, "<td data-sort=\"%d\"><a href=\"entry-%d.html"
		       "#urgent\">%s</a></td>",
		       ms_verdict_category_rank(s->urgent[i]),
		       (int)i, s->urgent[i] ? s->urgent[i] : "not judged");
}

/* Key "git_timeline" of data/entry-N.json: the timeline's numbers. */
static void timeline_json(struct ms_out *o, const struct site *s, size_t ei)
{
	static const char *const keys[] = { "authored_per_month",
		"committed_per_month", "tagged_per_month" };
	size_t np;

	ms_out_key(o, "git_timeline");
	if (s->tl_of[ei] == SIZE_MAX || !s->tl.res) {
		ms_out_null(o);
		return;
	}
	np = s->tl.res[0][s->tl_of[ei]].nr_people;
	ms_out_begin_object(o);
	ms_out_kv_strings(o, "month_labels", (const char *const *)s->months,
			  s->nr);
	ms_out_kv_begin_list(o, "people");
	for (size_t p = 0; p < np; p++) {
		const struct ms_act_person *ap = tl_person(s, ei, 0, p);
		char role[2] = { ap->role, 0 };

		ms_out_begin_object(o);
		cli_json_person(o, ap->name, ap->email);
		ms_out_kv_string(o, "role", role);
		ms_out_kv_bool(o, "inactive",
			       cli_review_view_mark(s->v, ei, ap->email) != NULL);
		for (size_t k = 0; k < G_N_ELEMENTS(keys); k++) {
			ms_out_kv_begin_list(o, keys[k]);
			for (size_t i = 0; i < s->nr; i++) {
				const struct ms_act_person *x =
					tl_person(s, ei, i, p);
				const struct ms_act_last *l = k == 0 ?
					&x->author : k == 1 ? &x->committer :
					&x->tags;

				ms_out_int(o, (int64_t)l->count);
			}
			ms_out_end_list(o);
		}
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_end_object(o);
}

static int write_json(const struct site *s, const char *name, int entry)
{
	FILE *fp = open_out(s, name);
	struct ms_out *o;
	int rc;

	if (!fp)
		return EXIT_FAILURE;
	o = ms_out_new(MS_OUT_JSON, fp);
	if (entry < 0) {
		cli_review_print_document(o, s->v);
	} else {
		cli_review_view_entry(s->v, o, (size_t)entry);
		urgent_json(o, s, (size_t)entry);
		timeline_json(o, s, (size_t)entry);
	}
	rc = ms_out_finish(o);
	ms_out_free(o);
	if (rc < 0) {
		fclose(fp);
		return cli_error_last();
	}
	return close_out(s, fp, name) ? EXIT_FAILURE : 0;
}

static double hours_or_nan(int64_t v)
{
	return v < 0 ? NAN : (double)v / 3600.0;
}

/* A latency as every command's text writes it (45min, 3.2h, 17.1d). */
static const char *duration(int64_t v, char d[32])
{
	ms_duration_format(v, d, 32);
	return d;
}

/* A latency in a cell (sorted by hours), "–" when there is none; the
 * cell is left open when `open` (for a plot beside the number). */
static void cell_hours_open(FILE *fp, int64_t v, const char *href, bool open)
{
	char d[32];

	if (v < 0) {
		fputs("<td class=\"n\" data-sort=\"-1\">–", fp);
	} else {
		fprintf(fp, "<td class=\"n\" data-sort=\"%.2f\">",
			(double)v / 3600);
		if (href)
			ms_html_printf(fp, "<a href=\"%s\">", href);
		fputs(duration(v, d), fp);
		if (href)
			fputs("</a>", fp);
	}
	if (!open)
		fputs("</td>", fp);
}

static void cell_hours(FILE *fp, int64_t v, const char *href)
{
	cell_hours_open(fp, v, href, false);
}

static void cell_share(FILE *fp, size_t num, size_t den, const char *href)
{
	double v = den ? 100.0 * (double)num / (double)den : 0;

	fprintf(fp, "<td class=\"n\" data-sort=\"%.2f\">", v);
	if (href)
		ms_html_printf(fp, "<a href=\"%s\">", href);
	fprintf(fp, "%zu/%zu (%u%%)", num, den, cli_percent(num, den));
	fputs(href ? "</a></td>" : "</td>", fp);
}

static const struct ms_rv_entry *interval(const struct ms_rv_entry *e,
					  size_t i)
{
	return e->intervals ? e->intervals->pdata[i] : NULL;
}

/* Per month: patches and median time to first response (hours). */
static void monthly(const struct site *s, const struct ms_rv_entry *e,
		    double *patches, double *median, double *p90)
{
	for (size_t i = 0; i < s->nr; i++) {
		const struct ms_rv_entry *m = interval(e, i);

		patches[i] = m ? (double)m->patches->len : NAN;
		median[i] = m ? hours_or_nan(m->ttfr_median) : NAN;
		if (p90)
			p90[i] = m ? hours_or_nan(m->ttfr_p90) : NAN;
	}
}

static size_t inactive_listed(const struct site *s, size_t i)
{
	const struct ms_rv_entry *e = s->v->rv->entries->pdata[i];
	size_t n = 0;

	for (guint k = 0; k < e->listed->len; k++)
		if (cli_review_view_mark(s->v, i, ((const struct
			ms_rv_person *)e->listed->pdata[k])->email))
			n++;
	return n;
}

/* A table cell: the verdict engine's phrase on listed person `p` of
 * entry `i` (without the git history it judges no one inactive). */
static void verdict_cell(FILE *fp, const struct site *s, size_t i,
			 const struct ms_rv_person *p)
{
	struct ms_verdict v;
	char *text;

	cli_review_view_verdict(s->v, i, p->email, &v);
	text = ms_verdict_text(&v);
	ms_html_printf(fp, "<td>%s</td></tr>\n", text);
	g_free(text);
}

static void window_line(FILE *fp, const struct site *s)
{
	char a[32], b[32];

	/* without --since, the window starts with the oldest message */
	ms_act_format(s->v->rv->since || !s->nr ? s->v->rv->since :
		      s->v->rv->bounds[0], 0, false, true, a);
	ms_act_format(s->v->rv->until, 0, false, true, b);
	ms_html_printf(fp, "<p class=\"note\">Patches posted from %s to %s "
		       "(UTC).  Times as in the text: minutes, hours below a day, days "
		       "above.  Definitions: <a href=\"file://" MS_DOCDIR
		       "/review.md\">" MS_DOCDIR "/review.md</a> "
		       "of maintstat.  The data behind each page: "
		       "<a href=\"data/review.json\">data/review.json</a>."
		       "</p>\n", a, b);
}

/* The overview's order: busiest first (most patches), then by name. */
static const struct ms_review *order_rv;

static gint by_patches(gconstpointer a, gconstpointer b)
{
	const struct ms_rv_entry *x = order_rv->entries->pdata[
		*(const guint *)a];
	const struct ms_rv_entry *y = order_rv->entries->pdata[
		*(const guint *)b];

	if (x->patches->len != y->patches->len)
		return x->patches->len > y->patches->len ? -1 : 1;
	return strcmp(x->entry->name, y->entry->name);
}

static void person_link(FILE *fp, const struct site *s, const char *name,
			const char *email)
{
	gpointer k = g_hash_table_lookup(s->person_of, email);

	if (k)
		ms_html_printf(fp, "<a href=\"person-%d.html\">",
			       GPOINTER_TO_INT(k) - 1);
	if (name && *name)
		ms_html_printf(fp, "%s &lt;%s&gt;", name, email);
	else
		ms_html_text(fp, email);
	if (k)
		fputs("</a>", fp);
}

static int write_index(const struct site *s)
{
	const struct ms_review *rv = s->v->rv;
	FILE *fp = open_out(s, "index.html");
	double *pat = g_new(double, s->nr ? s->nr : 1);
	double *med = g_new(double, s->nr ? s->nr : 1);

	if (!fp) {
		g_free(pat);
		g_free(med);
		return EXIT_FAILURE;
	}
	ms_html_begin(fp, "maintstat review: overview");
	fputs("<h1>Review of the MAINTAINERS entries</h1>\n", fp);
	window_line(fp, s);
	fputs("<p><a href=\"people.html\">The list's people and companies"
	      "</a></p>\n", fp);
	fputs("<div class=\"wide\">"
	      "<table class=\"sortable\" id=\"overview\">\n<thead><tr>"
	      "<th scope=\"col\">Entry</th>"
	      "<th scope=\"col\">Patches (per month)</th>"
	      "<th scope=\"col\">Median time to first response (per month)"
	      "</th>"
	      "<th scope=\"col\">Ignored</th>"
	      "<th scope=\"col\">Open patches (accepted of decided)</th>"
	      "<th scope=\"col\">Responsiveness</th>"
	      "<th scope=\"col\">Commits</th>"
	      "<th scope=\"col\">Reviewed commits</th>"
	      "<th scope=\"col\">Inactive listed people (with the git "
	      "history only)</th>"
	      "<th scope=\"col\" id=\"col-urgent\">Urgent category "
	      "(maintstat urgent)</th>"
	      "</tr></thead>\n<tbody>\n", fp);
	guint *order = g_new(guint, rv->entries->len + 1);

	for (guint i = 0; i < rv->entries->len; i++)
		order[i] = i;
	order_rv = rv;
	qsort(order, rv->entries->len, sizeof(*order), by_patches);
	for (guint oi = 0; oi < rv->entries->len; oi++) {
		guint i = order[oi];
		const struct ms_rv_entry *e = rv->entries->pdata[i];
		const struct ms_act_entry *ae = s->v->act ? s->v->act[i] :
						NULL;
		size_t n = e->patches->len;

		if ((long)n < s->min_patches)
			continue;
		struct ms_html_series sp = { "patches", pat, 0 };
		struct ms_html_series sm = { "median hours", med, 0 };
		char href[64], pc[16];

		monthly(s, e, pat, med, NULL);
		ms_html_printf(fp, "<tr data-entry=\"%s\"><th scope=\"row\">"
			       "<a href=\"entry-%d.html\">%s</a></th>",
			       e->entry->name, (int)i, e->entry->name);
		g_snprintf(href, sizeof(href), "entry-%u.html#patches", i);
		fprintf(fp, "<td class=\"n\" data-sort=\"%zu\" "
			"data-key=\"patches\"><a href=\"%s\">%zu</a>", n,
			href, n);
		ms_html_plot(fp, "line", "patches per month", "month",
			     "patches", (const char *const *)s->months, s->nr,
			     &sp, 1, 1);
		fputs("</td>", fp);
		g_snprintf(href, sizeof(href), "entry-%u.html#ttfr", i);
		cell_hours_open(fp, e->ttfr_median, href, true);
		ms_html_plot(fp, "line", "median hours to first response per "
			     "month", "month", "hours",
			     (const char *const *)s->months, s->nr, &sm, 1, 1);
		fputs("</td>", fp);
		g_snprintf(href, sizeof(href), "entry-%u.html#ignored", i);
		cell_share(fp, e->ignored, n, href);
		fprintf(fp, "<td class=\"n\" data-sort=\"%zu\"><a href=\""
			"entry-%u.html#states\">%zu</a> (%s)</td>", e->open,
			i, e->open, cli_share_text(pc, e->accept_rate));
		fprintf(fp, "<td class=\"n\" data-sort=\"%.2f\">%s</td>",
			e->responsiveness * 100,
			cli_share_text(pc, e->responsiveness));
		if (s->v->commits)
			fprintf(fp, "<td class=\"n\" data-sort=\"%zu\">%zu"
				"</td>", e->commits, e->commits);
		else
			fputs("<td class=\"n\" data-sort=\"-1\">–</td>", fp);
		if (ae)
			cell_share(fp, ae->reviewed, ae->commits, NULL);
		else
			fputs("<td class=\"n\" data-sort=\"-1\">–</td>", fp);
		g_snprintf(href, sizeof(href), "entry-%u.html#git", i);
		if (!s->v->act_model)
			ms_html_printf(fp, "<td data-sort=\"-1\"><a href=\"%s\">"
				       "not judged</a></td>", href);
		else
			ms_html_printf(fp, "<td class=\"n\" data-sort=\"%zu\">"
				       "<a href=\"%s\">%zu of %zu</a></td>",
				       inactive_listed(s, i), href,
				       inactive_listed(s, i),
				       (size_t)e->listed->len);
		cell_urgent(fp, s, i);
		fputs("</tr>\n", fp);
	}
	g_free(order);
	fputs("</tbody></table></div>\n<h2>Listed people</h2>\n<ul>\n", fp);
	for (guint i = 0; i < s->people->len; i++) {
		fputs("<li>", fp);
		person_link(fp, s, s->names->pdata[i], ((const struct
			ms_rv_person *)s->people->pdata[i])->email);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	ms_html_end(fp);
	g_free(pat);
	g_free(med);
	return close_out(s, fp, "index.html") ? EXIT_FAILURE : 0;
}

static void msg_link(FILE *fp, const struct site *s, const char *msgid,
		     const char *text)
{
	char *url = cli_review_msg_url(s->v->list_url, msgid);

	if (url)
		ms_html_printf(fp, "<a href=\"%s\">%s</a>", url, text);
	else
		ms_html_printf(fp, "%s &lt;%s&gt;", text, msgid);
	g_free(url);
}

static void last_cell(FILE *fp, const struct ms_act_last *l)
{
	char d[32];

	if (!l->set) {
		fputs("<td>never</td>", fp);
		return;
	}
	ms_act_format(l->time, l->offset, false, true, d);
	ms_html_printf(fp, "<td>%s (commit <code>%s</code>)</td>", d, l->id);
}

/*
 * The listed people per quarter: patches each replied to and the median
 * of their first replies (who carries the load, who faded), a table and
 * a plot.
 */
static void people_quarters(FILE *fp, const struct site *s, size_t ei,
			    const struct ms_rv_entry *e)
{
	const struct ms_review *q = s->v->rv_quarter;
	const struct ms_rv_entry *qe;
	size_t nq, nm;
	char **labels, d[32];
	double **v;
	struct ms_html_series *hs;

	fputs("<h2 id=\"people\">Listed people per quarter</h2>\n", fp);
	if (!q || ei >= q->entries->len ||
	    ((const struct ms_rv_entry *)q->entries->pdata[ei])->entry !=
	    e->entry) {
		fputs("<p>No quarters computed.</p>\n", fp);
		return;
	}
	qe = q->entries->pdata[ei];
	nq = q->nr_intervals;
	nm = nq ? nq : 1;
	labels = g_new0(char *, nm + 1);
	for (size_t i = 0; i < nq; i++) {
		char d[32];
		int month;

		ms_act_format(q->bounds[i], 0, false, true, d);
		month = atoi(d + 5);
		labels[i] = g_strdup_printf("%.4s-Q%d", d, (month + 2) / 3);
	}
	fputs("<p class=\"note\">Patches (first posted in the quarter) each "
	      "replied to / median time of their first reply.</p>\n"
	      "<div class=\"wide\">"
	      "<table id=\"people-quarters\"><thead><tr><th scope=\"col\">"
	      "Person</th>", fp);
	for (size_t i = 0; i < nq; i++)
		ms_html_printf(fp, "<th scope=\"col\">%s</th>", labels[i]);
	fputs("</tr></thead><tbody>\n", fp);
	v = g_new0(double *, e->listed->len ? e->listed->len : 1);
	hs = g_new0(struct ms_html_series, e->listed->len ? e->listed->len : 1);
	for (guint k = 0; k < e->listed->len; k++) {
		const struct ms_rv_person *p = e->listed->pdata[k];

		v[k] = g_new(double, nm);
		fputs("<tr><th scope=\"row\">", fp);
		person_link(fp, s, p->name, p->email);
		fputs("</th>", fp);
		for (size_t i = 0; i < nq; i++) {
			const struct ms_rv_person *x =
				ms_verdict_listed(interval(qe, i), p->email);

			v[k][i] = x ? (double)x->replied : NAN;
			if (!x)
				fputs("<td class=\"n\">–</td>", fp);
			else if (x->has_latency)
				fprintf(fp, "<td class=\"n\">%zu / %s</td>",
					x->replied, duration(x->median_latency,
							     d));
			else
				fprintf(fp, "<td class=\"n\">%zu</td>",
					x->replied);
		}
		fputs("</tr>\n", fp);
		hs[k].name = p->email;
		hs[k].values = v[k];
	}
	fputs("</tbody></table></div>\n", fp);
	if (e->listed->len)
		ms_html_plot(fp, "line", "Patches each listed person replied "
			     "to, per quarter", "quarter (first posting)",
			     "patches replied to", (const char *const *)labels,
			     nq, hs, e->listed->len, 0);
	for (guint k = 0; k < e->listed->len; k++)
		g_free(v[k]);
	g_free(v);
	g_free(hs);
	g_strfreev(labels);
}

/* The entry's figures, a table linking to their evidence below. */
static void entry_figures(FILE *fp, const struct site *s,
			  const struct ms_rv_entry *e)
{
	size_t n = e->patches->len;
	char pc[16];

	fputs("<div class=\"wide\"><table id=\"figures\"><tbody>\n", fp);
	ms_html_printf(fp, "<tr><th scope=\"row\">Patches</th><td class=\"n\">"
		       "<a href=\"#patches\">%zu</a> (series %zu)</td></tr>\n",
		       n, e->series);
	fputs("<tr><th scope=\"row\">Replied</th>", fp);
	cell_share(fp, e->replied, n, "#patches");
	fputs("</tr>\n<tr><th scope=\"row\">Replied by a listed person</th>",
	      fp);
	cell_share(fp, e->replied_maint, n, "#patches");
	fputs("</tr>\n<tr><th scope=\"row\">Ignored</th>", fp);
	cell_share(fp, e->ignored, n, "#ignored");
	fputs("</tr>\n<tr><th scope=\"row\">Time to first response, median"
	      "</th>", fp);
	cell_hours(fp, e->ttfr_median, "#ttfr");
	fputs("</tr>\n<tr><th scope=\"row\">Time to first response, p90"
	      "</th>", fp);
	cell_hours(fp, e->ttfr_p90, "#ttfr");
	fprintf(fp, "</tr>\n<tr><th scope=\"row\">Responsiveness</th>"
		"<td class=\"n\">%s</td></tr>\n",
		cli_share_text(pc, e->responsiveness));
	if (s->v->commits) {
		fputs("<tr><th scope=\"row\">Merged</th>", fp);
		cell_share(fp, e->merged, n, "#patches");
		fprintf(fp, "</tr>\n<tr><th scope=\"row\">Commits</th>"
			"<td class=\"n\">%zu</td></tr>\n", e->commits);
	}
	fputs("</tbody></table></div>\n", fp);
}

/* Where the entry's patches stand (docs/review.md): a count per state,
 * then the acceptance and open-queue figures. */
static void states_section(FILE *fp, const struct ms_rv_entry *e)
{
	char a[32], b[32], c[32], d[32], pc[16], rv[24];

	fputs("<h2 id=\"states\">Where its patches stand</h2>\n"
	      "<div class=\"wide\"><table>"
	      "<tbody>\n", fp);
	for (int k = 0; k < MS_RV__STATES; k++)
		fprintf(fp, "<tr><th scope=\"row\">%s</th><td class=\"n\">"
			"%zu</td></tr>\n", ms_rv_state_name(k), e->states[k]);
	if (e->revisions_median < 0)
		snprintf(rv, sizeof(rv), "-");
	else
		snprintf(rv, sizeof(rv), "%lld", (long long)e->revisions_median);
	fputs("</tbody></table></div>\n<p class=\"note\">Each patch counts "
	      "once, in its newest version's state; superseded counts the "
	      "older versions, so the rows add up to more than the "
	      "patches.</p>\n", fp);
	fprintf(fp, "<p>Accepted of decided %s, "
		"versions until accepted (median) %s, to acceptance: "
		"median %s, p90 %s; open %zu, waiting: median %s, p90 %s "
		"(<a href=\"#patches\">each patch's state</a>).</p>\n",
		cli_share_text(pc, e->accept_rate), rv,
		duration(e->accept_median, a), duration(e->accept_p90, b),
		e->open, duration(e->open_median, c),
		duration(e->open_p90, d));
}

/* Time to first response: a histogram, median and p90 in its title. */
static void ttfr_histogram(FILE *fp, const struct ms_rv_entry *e)
{
	static const double edges[] = { 0, 1, 4, 12, 24, 48, 96, 168, 336 };
	static const char *const bins[] = { "0-1", "1-4", "4-12", "12-24",
		"24-48", "48-96", "96-168", "168-336", "336+" };
	double hist[G_N_ELEMENTS(bins)] = { 0 };
	struct ms_html_series hs = { "patches", hist, 0 };
	char m1[32], m2[32], title[160];

	for (guint i = 0; i < e->patches->len; i++) {
		const struct ms_rv_patch *pt = &g_array_index(e->patches,
			struct ms_rv_patch, i);
		double h;
		size_t b = 0;

		if (!pt->has_first)
			continue;
		h = (double)pt->first.latency / 3600.0;
		while (b + 1 < G_N_ELEMENTS(edges) && h >= edges[b + 1])
			b++;
		hist[b]++;
	}
	if (e->ttfr_median >= 0) {
		ms_duration_format(e->ttfr_median, m1, sizeof(m1));
		ms_duration_format(e->ttfr_p90, m2, sizeof(m2));
	} else {
		strcpy(m1, "none");
		strcpy(m2, "none");
	}
	g_snprintf(title, sizeof(title), "Time to first response: "
		   "median %s, p90 %s (%zu of %zu patches answered)",
		   m1, m2, e->replied, (size_t)e->patches->len);
	fputs("<h2 id=\"ttfr\">Time to first response</h2>\n", fp);
	ms_html_plot(fp, "bar", title, "hours to first response",
		     "patches", bins, G_N_ELEMENTS(bins), &hs, 1, 0);
}

/* The monthly trend: two plots and the table of months. */
static void monthly_trend(FILE *fp, const struct site *s,
			  const struct ms_rv_entry *e)
{
	size_t nm = s->nr ? s->nr : 1;
	double *pat = g_new(double, nm), *med = g_new(double, nm);
	double *p90 = g_new(double, nm);
	struct ms_html_series ts[2] = { { "median hours", med, 0 },
					{ "p90 hours", p90, 0 } };
	struct ms_html_series ps = { "patches", pat, 0 };

	monthly(s, e, pat, med, p90);
	fputs("<h2 id=\"trend\">Monthly trend</h2>\n", fp);
	ms_html_plot(fp, "line", "Time to first response per month "
		     "(median and p90; a gap: no patch)", "month "
		     "(first posting)", "hours",
		     (const char *const *)s->months, s->nr, ts, 2, 0);
	ms_html_plot(fp, "bar", "Patches per month", "month (first "
		     "posting)", "patches",
		     (const char *const *)s->months, s->nr, &ps, 1, 0);
	fputs("<div class=\"wide\">"
	      "<table class=\"sortable\" id=\"months\"><thead><tr>"
	      "<th scope=\"col\">Month</th><th scope=\"col\">Patches</th>"
	      "<th scope=\"col\">Replied</th><th scope=\"col\">Ignored</th>"
	      "<th scope=\"col\">Median hours</th><th scope=\"col\">p90 hours"
	      "</th></tr></thead><tbody>\n", fp);
	for (size_t i = 0; i < s->nr; i++) {
		const struct ms_rv_entry *m = interval(e, i);

		ms_html_printf(fp, "<tr><th scope=\"row\">%s</th>",
			       s->months[i]);
		if (!m) {
			fputs("<td class=\"n\">–</td><td class=\"n\">–</td>"
			      "<td class=\"n\">–</td><td class=\"n\">–</td>"
			      "<td class=\"n\">–</td></tr>\n", fp);
			continue;
		}
		fprintf(fp, "<td class=\"n\">%u</td><td class=\"n\">%zu</td>"
			"<td class=\"n\">%zu</td>", m->patches->len,
			m->replied, m->ignored);
		cell_hours(fp, m->ttfr_median, NULL);
		cell_hours(fp, m->ttfr_p90, NULL);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n", fp);
	g_free(pat);
	g_free(med);
	g_free(p90);
}

/* The listed people's last activity in git and on the list, and the
 * verdict on each. */
static void listed_verdicts(FILE *fp, const struct site *s, size_t ei,
			    const struct ms_rv_entry *e)
{
	const struct ms_act_entry *ae = s->v->act ? s->v->act[ei] : NULL;
	char a[32];

	fputs("<h2 id=\"git\">Listed people: last activity and verdict</h2>\n"
	      "<div class=\"wide\">"
	      "<table id=\"git-table\"><thead><tr><th scope=\"col\">Person"
	      "</th><th scope=\"col\">Role</th><th scope=\"col\">Last "
	      "authored</th><th scope=\"col\">Last committed</th>"
	      "<th scope=\"col\">Last tag given</th><th scope=\"col\">Last "
	      "list message</th><th scope=\"col\">Verdict</th></tr>"
	      "</thead><tbody>\n", fp);
	for (guint k = 0; k < e->listed->len; k++) {
		const struct ms_rv_person *p = e->listed->pdata[k];
		const struct ms_act_person *ap =
			ms_act_entry_person(ae, p->email, NULL);

		fputs("<tr><th scope=\"row\">", fp);
		person_link(fp, s, p->name, p->email);
		fprintf(fp, "</th><td>%c</td>", p->role);
		if (ap) {
			last_cell(fp, &ap->author);
			last_cell(fp, &ap->committer);
			last_cell(fp, &ap->tags);
		} else {
			fputs("<td colspan=\"3\">no git history read</td>", fp);
		}
		if (p->has_last_list) {
			ms_act_format(p->last_list, 0, false, true, a);
			ms_html_printf(fp, "<td>%s</td>", a);
		} else {
			fputs("<td>never</td>", fp);
		}
		verdict_cell(fp, s, ei, p);
	}
	fputs("</tbody></table></div>\n", fp);
}

/* De-facto maintainers and corporate aliases. */
static void defacto_aliases(FILE *fp, const struct site *s,
			    const struct ms_rv_entry *e)
{
	fputs("<h2 id=\"defacto\">De-facto maintainers</h2>\n", fp);
	if (!e->defacto->len)
		fputs("<p>None.</p>\n", fp);
	else
		fputs("<ul>\n", fp);
	for (guint k = 0; k < e->defacto->len; k++) {
		const struct ms_rv_person *p = e->defacto->pdata[k];

		fputs("<li>", fp);
		person_link(fp, s, p->name, p->email);
		if (s->v->commits)
			fprintf(fp, ": applied %zu", p->applied);
		else
			fputs(": applied n/a", fp);
		fprintf(fp, ", accepted by notice %zu, first responses %zu, "
			"tags %zu</li>\n", p->accepted_by_notice,
			p->first_responses, p->reviewed_by + p->acked_by);
	}
	if (e->defacto->len)
		fputs("</ul>\n", fp);
	fputs("<h2 id=\"aliases\">Corporate aliases</h2>\n", fp);
	if (!e->aliases->len)
		fputs("<p>None.</p>\n", fp);
	for (guint k = 0; k < e->aliases->len; k++) {
		const struct ms_rv_alias *al = e->aliases->pdata[k];

		ms_html_printf(fp, "<p>%s never writes; for its domain:",
			       al->email);
		for (guint x = 0; x < al->people->len; x++) {
			const struct ms_rv_person *p = al->people->pdata[x];

			fputs(x ? ", " : " ", fp);
			person_link(fp, s, p->name, p->email);
		}
		fputs("</p>\n", fp);
	}
}

/* The ignored patches, with links to the list. */
static void ignored_list(FILE *fp, const struct site *s,
			 const struct ms_rv_entry *e)
{
	char a[32];

	fputs("<h2 id=\"ignored\">Ignored patches</h2>\n<ul>\n", fp);
	for (guint i = 0; i < e->patches->len; i++) {
		const struct ms_rv_patch *pt = &g_array_index(e->patches,
			struct ms_rv_patch, i);
		const struct ms_mail_rec *r = ms_mail_index_get(s->v->idx,
			g_array_index(pt->postings, uint32_t, 0));

		if (!pt->ignored)
			continue;
		ms_act_format(r->date, 0, false, true, a);
		ms_html_printf(fp, "<li>%s ", a);
		msg_link(fp, s, r->message_id, r->subject ? r->subject :
			 r->message_id);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

/* Every patch: posted, first response (linked), ignored, merged. */
static void patch_table(FILE *fp, const struct site *s,
			const struct ms_rv_entry *e)
{
	char a[32];

	fputs("<h2 id=\"patches\">Patches</h2>\n"
	      "<div class=\"wide\">"
	      "<table class=\"sortable\" id=\"patch-table\"><thead><tr>"
	      "<th scope=\"col\">Posted</th><th scope=\"col\">Patch</th>"
	      "<th scope=\"col\">First response</th><th scope=\"col\">"
	      "Ignored</th><th scope=\"col\">Merged</th><th scope=\"col\">"
	      "State (commit its applied notice gives)</th></tr></thead>"
	      "<tbody>\n", fp);
	for (guint i = 0; i < e->patches->len; i++) {
		const struct ms_rv_patch *pt = &g_array_index(e->patches,
			struct ms_rv_patch, i);
		const struct ms_mail_rec *r = ms_mail_index_get(s->v->idx,
			g_array_index(pt->postings, uint32_t, 0));

		ms_act_format(r->date, 0, false, true, a);
		ms_html_printf(fp, "<tr><td>%s</td><td>", a);
		msg_link(fp, s, r->message_id, r->subject ? r->subject :
			 r->message_id);
		fputs("</td>", fp);
		if (pt->has_first) {
			const struct ms_mail_rec *q = ms_mail_index_get(
				s->v->idx, pt->first.rec);
			char t[32];

			duration(pt->first.latency, t);
			fprintf(fp, "<td class=\"n\" data-sort=\"%.2f\">",
				(double)pt->first.latency / 3600);
			msg_link(fp, s, q->message_id, t);
			fputs("</td>", fp);
		} else {
			fputs("<td class=\"n\" data-sort=\"-1\">none</td>", fp);
		}
		fprintf(fp, "<td>%s</td>", pt->ignored ? "yes" : "no");
		if (pt->merged) {
			const struct ms_link_commit *lc =
				s->v->commits->pdata[pt->commit];

			ms_html_printf(fp, "<td><code>%s</code></td>", lc->id);
		} else {
			fputs("<td>–</td>", fp);
		}
		ms_html_printf(fp, "<td>%s%s%s%s</td>", ms_rv_state_name(
			pt->state), pt->why.applied ? " (" : "",
			pt->why.applied ? pt->why.applied : "",
			pt->why.applied ? ")" : "");
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n", fp);
}

/* The page of entry `ei`: the sections above, in reading order. */
static int write_entry(const struct site *s, size_t ei)
{
	const struct ms_rv_entry *e = s->v->rv->entries->pdata[ei];
	char name[64];
	FILE *fp;

	g_snprintf(name, sizeof(name), "entry-%zu.html", ei);
	fp = open_out(s, name);
	if (!fp)
		return EXIT_FAILURE;
	ms_html_begin(fp, e->entry->name);
	ms_html_printf(fp, "<p><a href=\"index.html\">Overview</a></p>\n"
		       "<h1>%s</h1>\n", e->entry->name);
	window_line(fp, s);
	ms_html_printf(fp, "<p class=\"note\">This entry's data: <a href=\""
		       "data/entry-%zu.json\">data/entry-%zu.json</a></p>\n",
		       ei, ei);
	entry_figures(fp, s, e);
	if (s->urgent[ei])
		ms_html_printf(fp, "<p id=\"urgent\">Urgent category (what "
			       "maintstat urgent --archive says, with its "
			       "defaults): <strong>%s</strong>, %s.</p>\n",
			       s->urgent[ei], s->urgent_why[ei]);
	else
		fputs("<p id=\"urgent\">Urgent category: not judged (no git "
		      "history read).</p>\n", fp);
	states_section(fp, e);
	ttfr_histogram(fp, e);
	monthly_trend(fp, s, e);
	people_quarters(fp, s, ei, e);
	listed_verdicts(fp, s, ei, e);
	if (s->v->act_model)
		git_timeline(fp, s, ei);
	defacto_aliases(fp, s, e);
	ignored_list(fp, s, e);
	patch_table(fp, s, e);
	ms_html_end(fp);
	return close_out(s, fp, name) ? EXIT_FAILURE : 0;
}

/* Whether a tag's giver is the listed `email` (directly or joined). */
static bool tag_of(const struct site *s, const struct ms_rv_tag *t,
		   unsigned person, const char *email)
{
	if (!t->email)
		return false;
	if (!g_ascii_strcasecmp(t->email, email))
		return true;
	return person != MS_IDENT_NONE && s->v->ident &&
	       ms_ident_resolve(s->v->ident, t->name, t->email) == person;
}

/*
 * The tag ledger of one person: Reviewed-by/Acked-by given on the list
 * per entry, those of merged patches the commit dropped, and those in
 * commits the list never saw (commit ids as evidence).
 */
static void tag_ledger(FILE *fp, const struct site *s, const char *email,
		       unsigned id)
{
	const struct ms_review *rv = s->v->rv;

	fputs("<h2 id=\"ledger\">Tag ledger: on the list and in the merged "
	      "commits</h2>\n", fp);
	if (!s->v->commits) {
		fputs("<p>No git history was read: only the list side is "
		      "known (above).</p>\n", fp);
		return;
	}
	fputs("<div class=\"wide\">"
	      "<table id=\"ledger-table\"><thead><tr><th scope=\"col\">"
	      "Entry</th><th scope=\"col\">Given on the list</th>"
	      "<th scope=\"col\">Dropped from the merged commit</th>"
	      "<th scope=\"col\">In a commit, never on the list</th>"
	      "</tr></thead><tbody>\n", fp);
	for (guint i = 0; i < rv->entries->len; i++) {
		const struct ms_rv_entry *e = rv->entries->pdata[i];
		const struct ms_rv_person *p = NULL;
		const GArray *sides[2] = { e->tags_dropped, e->tags_untraced };

		for (guint k = 0; k < e->listed->len; k++)
			if (!strcmp(((const struct ms_rv_person *)
				     e->listed->pdata[k])->email, email))
				p = e->listed->pdata[k];
		if (!p)
			continue;
		ms_html_printf(fp, "<tr><th scope=\"row\"><a href=\"entry-%d"
			       ".html\">%s</a></th><td class=\"n\">%zu</td>",
			       (int)i, e->entry->name,
			       p->reviewed_by + p->acked_by);
		for (int side = 0; side < 2; side++) {
			size_t n = 0;

			fputs("<td>", fp);
			for (guint k = 0; k < sides[side]->len; k++) {
				const struct ms_rv_tag *t = &g_array_index(
					sides[side], struct ms_rv_tag, k);
				const struct ms_link_commit *lc;

				if (!tag_of(s, t, id, email))
					continue;
				lc = s->v->commits->pdata[t->commit];
				ms_html_printf(fp, "%s<code>%s</code> (%s)",
					       n ? ", " : "", lc->id,
					       ms_trailer_kind_name(t->kind));
				n++;
			}
			fprintf(fp, "%s</td>", n ? "" : "none");
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n", fp);
}

/* The addresses joined as this person: list senders resolving to the
 * same identity (.mailmap, --aliases, case, plus-folding). */
static void joined(FILE *fp, const struct site *s, const char *email,
		   unsigned id)
{
	GHashTable *seen;
	GPtrArray *out;

	fputs("<h2 id=\"identities\">Addresses joined as this person</h2>"
	      "\n", fp);
	if (id == MS_IDENT_NONE || !s->v->ident) {
		ms_html_printf(fp, "<p>%s only.</p>\n", email);
		return;
	}
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	out = g_ptr_array_new();
	g_hash_table_add(seen, g_ascii_strdown(email, -1));
	g_ptr_array_add(out, (gpointer)email);
	for (size_t i = 0; i < ms_mail_index_count(s->v->idx); i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(s->v->idx, i);
		char *low;

		if (!r->sender_email || !*r->sender_email)
			continue;
		low = g_ascii_strdown(r->sender_email, -1);
		if (g_hash_table_contains(seen, low) ||
		    ms_ident_resolve(s->v->ident, r->sender_name,
				     r->sender_email) != id) {
			g_free(low);
			continue;
		}
		g_hash_table_add(seen, low);
		g_ptr_array_add(out, (gpointer)r->sender_email);
	}
	fputs("<ul>\n", fp);
	for (guint i = 0; i < out->len; i++)
		ms_html_printf(fp, "<li>%s%s</li>\n",
			       (const char *)out->pdata[i],
			       i ? "" : " (as listed)");
	fputs("</ul>\n", fp);
	g_ptr_array_unref(out);
	g_hash_table_unref(seen);
}

static int write_person(const struct site *s, size_t pi)
{
	const struct ms_review *rv = s->v->rv;
	const struct ms_rv_person *first = s->people->pdata[pi];
	const char *email = first->email;
	const char *shown = s->names->pdata[pi];
	char name[64], a[32];
	FILE *fp;

	g_snprintf(name, sizeof(name), "person-%zu.html", pi);
	fp = open_out(s, name);
	if (!fp)
		return EXIT_FAILURE;
	if (!shown)
		shown = email;
	ms_html_begin(fp, shown);
	ms_html_printf(fp, "<p><a href=\"index.html\">Overview</a></p>\n"
		       "<h1>%s &lt;%s&gt;</h1>\n", shown, email);
	window_line(fp, s);
	fputs("<h2>Listed in</h2>\n"
	      "<div class=\"wide\"><table class=\"sortable\" id=\"entries\">"
	      "<thead><tr><th scope=\"col\">Entry</th><th scope=\"col\">Role"
	      "</th><th scope=\"col\">Patches replied to</th>"
	      "<th scope=\"col\">Median latency</th>"
	      "<th scope=\"col\">Reviewed-by on the list</th>"
	      "<th scope=\"col\">Acked-by on the list</th>"
	      "<th scope=\"col\">Messages</th>"
	      "<th scope=\"col\">Commits</th>"
	      "<th scope=\"col\">Last list message</th>"
	      "<th scope=\"col\">Verdict</th></tr></thead><tbody>\n", fp);
	for (guint i = 0; i < rv->entries->len; i++) {
		const struct ms_rv_entry *e = rv->entries->pdata[i];

		for (guint k = 0; k < e->listed->len; k++) {
			const struct ms_rv_person *p = e->listed->pdata[k];
			char href[64];

			if (strcmp(p->email, email))
				continue;
			ms_html_printf(fp, "<tr><th scope=\"row\"><a href=\""
				       "entry-%d.html\">%s</a></th><td>",
				       (int)i, e->entry->name);
			fprintf(fp, "%c</td>", p->role);
			g_snprintf(href, sizeof(href), "entry-%u.html#people",
				   i);
			/* as review's text and replied_share: over the
			 * patches the person did not write */
			cell_share(fp, p->replied,
				   e->patches->len - p->own_patches, href);
			cell_hours(fp, p->has_latency ? p->median_latency : -1,
				   href);
			fprintf(fp, "<td class=\"n\">%zu</td><td class=\"n\">"
				"%zu</td><td class=\"n\">%zu</td>",
				p->reviewed_by, p->acked_by, p->messages);
			if (s->v->commits)
				fprintf(fp, "<td class=\"n\">%zu</td>",
					p->commits);
			else
				fputs("<td class=\"n\">n/a</td>", fp);
			if (p->has_last_list)
				ms_act_format(p->last_list, 0, false, true, a);
			else
				strcpy(a, "never");
			ms_html_printf(fp, "<td>%s</td>", a);
			verdict_cell(fp, s, i, p);
		}
	}
	fputs("</tbody></table></div>\n", fp);
	tag_ledger(fp, s, email, first->person);
	joined(fp, s, email, first->person);
	ms_html_end(fp);
	return close_out(s, fp, name) ? EXIT_FAILURE : 0;
}

/* people.html: the whole list's people and companies (people.h). */
static int write_people(const struct site *s)
{
	FILE *fp = open_out(s, "people.html");

	if (fp)
		cli_people_page(fp, s->v, &s->people_page);
	return !fp || close_out(s, fp, "people.html") ? EXIT_FAILURE : 0;
}

static int write_site(const struct cli_review_view *v, void *data)
{
	struct site *s = data;
	const struct ms_review *rv = v->rv;
	char *tmp = NULL;
	int rc = 0;

	s->v = v;
	rc = cli_outdir_stage(s->final, &tmp);
	if (rc != CLI_CONTINUE)
		return rc;
	s->dir = tmp;
	s->nr = rv->nr_intervals;
	s->months = g_new0(char *, s->nr + 1);
	for (size_t i = 0; i < s->nr; i++) {
		char d[32];

		ms_act_format(rv->bounds[i], 0, false, true, d);
		d[7] = 0;
		s->months[i] = g_strdup(d);
	}
	s->people = g_ptr_array_new();
	s->names = g_ptr_array_new();
	s->person_of = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < rv->entries->len; i++) {
		const struct ms_rv_entry *e = rv->entries->pdata[i];

		for (guint k = 0; k < e->listed->len; k++) {
			const struct ms_rv_person *p = e->listed->pdata[k];
			int at = GPOINTER_TO_INT(g_hash_table_lookup(
				s->person_of, p->email));

			if (!at) {
				g_ptr_array_add(s->people, (gpointer)p);
				g_ptr_array_add(s->names, NULL);
				at = (int)s->people->len;
				g_hash_table_insert(s->person_of,
					(gpointer)p->email,
					GINT_TO_POINTER(at));
			}
			if (p->name && *p->name && !s->names->pdata[at - 1])
				s->names->pdata[at - 1] = (gpointer)p->name;
		}
	}
	rc = compute_urgent(s);
	if (!rc)
		rc = compute_timeline(s);
	if (!rc)
		rc = write_assets(s);
	if (!rc)
		rc = write_json(s, "data/review.json", -1);
	for (guint i = 0; !rc && i < rv->entries->len; i++) {
		char name[64];

		g_snprintf(name, sizeof(name), "data/entry-%u.json", i);
		rc = write_json(s, name, (int)i);
		if (!rc)
			rc = write_entry(s, i);
	}
	for (guint i = 0; !rc && i < s->people->len; i++)
		rc = write_person(s, i);
	if (!rc)
		rc = write_people(s);
	if (!rc)
		rc = write_index(s);
	if (!rc && cli_outdir_replace(&tmp, s->final) != CLI_CONTINUE)
		rc = EXIT_RUNTIME;
	cli_outdir_discard(&tmp);
	if (!rc)
		printf("%s/index.html\n", s->final);
	g_strfreev(s->months);
	g_ptr_array_unref(s->people);
	g_ptr_array_unref(s->names);
	g_hash_table_unref(s->person_of);
	for (size_t i = 0; s->urgent_why && i < rv->entries->len; i++)
		g_free(s->urgent_why[i]);
	g_free(s->urgent_why);
	g_free(s->urgent);
	g_free(s->tl_of);
	cli_act_series_release(&s->tl);
	return rc;
}

/* --output-dir is required, and new, empty or a report. */
static int check_dir(void *data)
{
	struct site *s = data;

	if (!s->final || !*s->final)
		return cli_usage_error("report", "--output-dir DIR is "
				       "required");
	if (!cli_outdir_is_report(s->final))
		return cli_error("'%s' holds files but no maintstat report: "
				 "the report replaces a directory whole, so "
				 "choose an empty or new --output-dir",
				 s->final);
	return cli_people_page_read(&s->people_page);
}

int cmd_report(int argc, char **argv)
{
	struct site s = { .min_patches = 1 };
	/* review's options and this one; the report is by month, in HTML
	 * (no --by, --release-tags or --json) */
	const struct cli_option opts[] = {
		/* -o: git format-patch's spelling */
		{ CLI_OPT_STRING, "output-dir", 'o', &s.final, "DIR",
		  "the directory to write (required): new, empty, or a "
		  "report, which is replaced whole" },
		{ CLI_OPT_INT, "min-patches", 0, &s.min_patches, "N",
		  "the overview lists, busiest first, only the entries with "
		  "at least N patches (default 1: every entry with a patch, "
		  "one-patch cross-posts last; each keeps its page)" },
		CLI_PEOPLE_PAGE_OPTIONS(&s.people_page),
		CLI_OPTION_END,
	};
	const struct cli_review_caller caller = {
		.name = "report", .help = &help, .options = opts, .by = "month",
		.check = check_dir, .sink = write_site, .data = &s,
	};
	int rc = cli_review_main(argc, argv, &caller);

	cli_people_page_release(&s.people_page);
	return rc;
}
