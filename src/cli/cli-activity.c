/*
 * cli-activity.c - loading the activity model for a command.
 */
#include "cli-activity.h"
#include "activity.h"
#include "cli-date.h"
#include "cli-project.h"
#include "project.h"
#include "cli-result.h"
#include "cli-review.h"
#include "error.h"
#include "history.h"
#include "ident.h"
#include "maintainers.h"
#include "output.h"
#include "series.h"
#include "verdict.h"
#include "store.h"

#include <glib.h>
#include <string.h>

int cli_act_set_range(const char *cmd, struct ms_activity *a,
		      const char *repo, const char *rev, const char *since,
		      int64_t since_time)
{
	struct cli_range *range = NULL;
	int rc = cli_since_range(cmd, repo, rev, since, &range);

	if (rc != CLI_CONTINUE || !range)
		return rc;
	ms_activity_set_range(a, cli_range_has, range, since_time);
	cli_range_free(range);
	return CLI_CONTINUE;
}

/* A window that misses the history is an error naming its real range. */
static int check_window(const char *cmd, const struct ms_activity *a,
			int64_t since, int64_t until)
{
	int64_t old = ms_activity_oldest(a), new = ms_activity_newest(a);
	char s[32], u[32], o[32], n[32];

	if (!ms_activity_nr_commits(a) || (since <= new && until >= old))
		return CLI_CONTINUE;
	ms_act_format(since, 0, false, true, s);
	ms_act_format(until, 0, false, true, u);
	ms_act_format(old, 0, false, true, o);
	ms_act_format(new, 0, false, true, n);
	return cli_usage_error(cmd, "the window %s to %s lies outside the "
			       "history, which runs from %s to %s", s, u, o,
			       n);
}

void cli_act_print_context(FILE *fp, const struct cli_act_opts *o,
			   int64_t since, int64_t until, int64_t active_since)
{
	char id[41] = "", s[32], u[32], a[32];

	if (ms_history_resolve(o->repo, o->rev, id, NULL) < 0)
		snprintf(id, sizeof(id), "?");
	ms_act_format(since, 0, false, true, s);
	ms_act_format(until, 0, false, true, u);
	ms_act_format(active_since, 0, false, true, a);
	fprintf(fp, "Repository %s at %s (%.12s)\n", o->repo,
		o->rev ? o->rev : "HEAD", id);
	if (o->maintainers.nr) {
		fprintf(fp, "MAINTAINERS:");
		for (int i = 0; i < o->maintainers.nr; i++)
			fprintf(fp, "%s %s", i ? "," : "",
				o->maintainers.items[i]);
		fprintf(fp, "\n");
	} else if (o->find_maintainer_files) {
		fprintf(fp, "MAINTAINERS: every */MAINTAINERS of %s\n",
			o->rev ? o->rev : "HEAD");
	}
	fprintf(fp, "Window: commits dated %s to %s (UTC)%s\n", s, u,
		o->merges ? ", merges included" : "");
	/* a project that merges on GitHub: its maintainers' merge commits
	 * are most of what they do, and nothing without --merges */
	fprintf(fp, "Inactive: listed people with nothing since %s%s\n", a,
		o->merges ? "" : " (merge commits left out: --merges counts "
		"them)");
	fprintf(fp, "Identities: %s's .mailmap", o->rev ? o->rev : "HEAD");
	for (int i = 0; i < o->mailmaps.nr; i++)
		fprintf(fp, ", mailmap %s", o->mailmaps.items[i]);
	if (o->aliases)
		fprintf(fp, ", aliases %s", o->aliases);
	fprintf(fp, ", changes of address in MAINTAINERS%s%s\n\n",
		o->no_name_join ? "" : ", equal names",
		o->no_plus_fold ? "" : ", plus-address folding");
}

/* The window of the options over model `a` (ms_verdict_window(), the
 * cutoff when `cutoff` is not NULL), checked against the history. */
static int act_window(const char *cmd, const struct cli_act_opts *o,
		      int default_years, const struct ms_activity *a,
		      int64_t s, int64_t u, int64_t *since, int64_t *until,
		      int64_t *cutoff)
{
	struct ms_activity_query q = { 0 };
	int rc = ms_verdict_window(a, o->since != NULL, s, o->until != NULL,
				   u, default_years,
				   cutoff ? o->inactive_after : NULL, &q);

	if (rc < 0)
		return cli_usage_error(cmd, "--inactive-after: %s",
				       ms_error_last());
	if (rc) {
		char d[32], n[32];

		ms_act_format(u, 0, false, true, d);
		ms_act_format(q.until, 0, false, true, n);
		cli_warning("the window ends %s, after the last commit (%s): "
			    "it ends there instead", d, n);
	}
	*since = q.since;
	*until = q.until;
	if (cutoff)
		*cutoff = q.active_since;
	rc = check_window(cmd, a, *since, *until);
	if (rc != CLI_CONTINUE)
		return rc;
	if (*since > *until)
		return cli_usage_error(cmd, "the window is empty: --since is "
				       "after --until");
	if (ms_activity_nr_commits(a) &&
	    !ms_activity_nr_in_window(a, *since, *until)) {
		char f[32], t[32];

		ms_act_format(*since, 0, false, true, f);
		ms_act_format(*until, 0, false, true, t);
		return cli_usage_error(cmd, "no commit is dated from %s to "
				       "%s: a report of that window would "
				       "call everyone inactive (see --since "
				       "and --until)", f, t);
	}
	return CLI_CONTINUE;
}

int cli_act_load(const char *cmd, const struct cli_act_opts *o,
		 int default_years, struct ms_project **proj,
		 struct ms_activity **out, int64_t *since, int64_t *until,
		 int64_t *cutoff, struct cli_list_facts **facts)
{
	int64_t s, u;
	int rc;

	*out = NULL;
	*proj = NULL;
	if (!o->repo)
		return cli_usage_error(cmd, "--repo GITDIR is required");
	/* bad dates fail before the walk, not after it */
	rc = cli_window_parse(cmd, o->repo, o->since, o->until, &s, &u);
	if (rc == CLI_CONTINUE && cutoff)
		rc = cli_inactive_after(cmd, o->inactive_after, 0, cutoff);
	if (rc == CLI_CONTINUE)
		rc = cli_project_open(o, proj);
	if (rc == CLI_CONTINUE)
		rc = cli_project_store(&o->store, *proj);
	if (rc == CLI_CONTINUE && o->mail)
		ms_project_set_mail_index(*proj, o->mail);
	/* the list's senders join people as review joins them, so that
	 * the list facts are counted for the same people */
	else if (rc == CLI_CONTINUE && facts)
		rc = cli_list_facts_open(cmd, o, *proj, facts);
	if (rc == CLI_CONTINUE)
		rc = cli_project_history(*proj, out);
	if (rc == CLI_CONTINUE)
		rc = cli_act_set_range(cmd, *out, o->repo, o->rev, o->since,
				       s);
	if (rc == CLI_CONTINUE)
		rc = act_window(cmd, o, default_years, *out, s, u, since,
				until, cutoff);
	if (rc != CLI_CONTINUE) {
		cli_project_close(*proj);
		*proj = NULL;
		*out = NULL;
		if (facts) {
			cli_list_facts_free(*facts);
			*facts = NULL;
		}
	}
	return rc;
}

void cli_act_print_also(FILE *fp, const struct ms_act_person *p)
{
	if (!p->also || !p->also[0])
		return;
	fprintf(fp, " (also: ");
	for (size_t i = 0; p->also[i]; i++)
		fprintf(fp, "%s%s", i ? ", " : "", p->also[i]);
	fprintf(fp, ")");
}

/* Key `key`: the newest commit `l`, or null. */
static void json_last(struct ms_out *o, const char *key,
		      const struct ms_act_last *l, bool tag)
{
	char date[32];

	ms_out_key(o, key);
	if (!l->set) {
		ms_out_null(o);
		return;
	}
	ms_act_format(l->time, l->offset, true, false, date);
	ms_out_begin_object(o);
	ms_out_kv_string(o, "commit", l->id);
	ms_out_kv_string(o, "date", date);
	ms_out_kv_int(o, "count", (int64_t)l->count);
	if (tag)
		ms_out_kv_string(o, "tag", l->tag);
	ms_out_end_object(o);
}

void cli_act_json_lasts(struct ms_out *o, const struct ms_act_last *author,
			const struct ms_act_last *committer,
			const struct ms_act_last *tags)
{
	json_last(o, "last_authored", author, false);
	json_last(o, "last_committed", committer, false);
	json_last(o, "last_tagged", tags, true);
}

void cli_act_json_tallies(struct ms_out *o, char role, const char *name,
			  const char *email, const struct ms_act_last *author,
			  const struct ms_act_last *committer,
			  const struct ms_act_last *tags)
{
	char r[2] = { role, 0 };

	ms_out_begin_object(o);
	ms_out_kv_string(o, "role", r);
	cli_json_person(o, name, email);
	ms_out_kv_int(o, "authored", (int64_t)author->count);
	ms_out_kv_int(o, "committed", (int64_t)committer->count);
	ms_out_kv_int(o, "tagged", (int64_t)tags->count);
	ms_out_end_object(o);
}

static void json_also(struct ms_out *o, const struct ms_activity *a,
		      const struct ms_act_person *p)
{
	ms_out_kv_begin_list(o, "also");
	for (size_t i = 0; p->also && p->also[i]; i++)
		ms_out_string(o, p->also[i]);
	ms_out_end_list(o);
	cli_ident_json_joins(o, "joins", ms_activity_ident(a),
			     p->also && p->also[0] ? p->person :
			     MS_IDENT_NONE, p->email);
}

void cli_act_json_person(struct ms_out *o, const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 const struct ms_act_entry *e,
			 const struct ms_act_person *p,
			 const struct cli_list_facts *lf)
{
	char role[2] = { p->role, 0 }, date[32];
	struct ms_verdict v;
	int64_t when;
	bool elsewhere;

	ms_out_begin_object(o);
	ms_out_kv_string(o, "role", role);
	cli_json_person(o, p->name, p->email);
	cli_act_json_lasts(o, &p->author, &p->committer, &p->tags);
	ms_act_format(p->last_time, p->last_offset, true, false, date);
	ms_out_kv_string(o, "last_activity", p->has_last ? date : NULL);
	ms_out_kv_bool(o, "seen_anywhere", p->seen_anywhere);
	cli_act_verdict(e, p, lf, q->active_since, &v);
	cli_json_verdict(o, &v);
	ms_out_kv_bool(o, "listed_late", p->listed_late);
	elsewhere = ms_verdict_elsewhere(a, q, p, &when);
	ms_act_format(elsewhere ? when : 0, 0, true, false, date);
	ms_out_kv_string(o, "active_elsewhere_until", elsewhere ? date : NULL);
	json_also(o, a, p);
	ms_out_end_object(o);
}

void cli_json_verdict(struct ms_out *o, const struct ms_verdict *v)
{
	if (ms_verdict_judged(v))
		ms_out_kv_bool(o, "inactive", ms_verdict_inactive(v));
	else
		ms_out_kv_null(o, "inactive");
	ms_out_kv_string(o, "verdict", ms_verdict_name(v));
	ms_out_kv_bool(o, "role_address", ms_verdict_role_address(v));
}

struct joins_text {
	GString *s;
	const char *listed;
};

static void add_join(const struct ms_ident_addr *a, void *data)
{
	struct joins_text *j = data;
	const char *ev = a->join_evidence;

	if (!strcmp(a->email, j->listed))
		return;
	if (j->s->len)
		g_string_append(j->s, ", ");
	g_string_append_printf(j->s, "%s (%s", a->email,
			       ms_ident_source_name(a->source));
	if (*ev && a->source != MS_IDENT_NAME)
		g_string_append_printf(j->s, " %.*s", (int)(
			strlen(ev) == 40 ? 12 : strlen(ev)), ev);
	g_string_append_c(j->s, ')');
}

char *cli_ident_joins(const struct ms_ident *id, unsigned person,
		      const char *shown)
{
	struct joins_text j;
	char *listed;

	if (person == MS_IDENT_NONE)
		return NULL;
	listed = g_ascii_strdown(shown ? shown : "", -1);
	j.s = g_string_new(NULL);
	j.listed = listed;
	ms_ident_foreach_address(id, person, add_join, &j);
	g_free(listed);
	if (!j.s->len) {
		g_string_free(j.s, TRUE);
		return NULL;
	}
	return g_string_free(j.s, FALSE);
}

char *cli_act_joins(const struct ms_activity *a,
		    const struct ms_act_person *p)
{
	if (!p->also || !p->also[0])
		return NULL;
	return cli_ident_joins(ms_activity_ident(a), p->person, p->email);
}

struct joins_json {
	struct ms_out *o;
	const char *shown;
};

static void json_join(const struct ms_ident_addr *a, void *data)
{
	struct joins_json *j = data;

	if (!strcmp(a->email, j->shown))
		return;
	ms_out_begin_object(j->o);
	ms_out_kv_string(j->o, "email", a->email);
	ms_out_kv_string(j->o, "source", ms_ident_source_name(a->source));
	ms_out_kv_string(j->o, "join_evidence", a->join_evidence);
	ms_out_kv_string(j->o, "first_seen", a->first_seen ?
			 a->first_seen : "");
	ms_out_end_object(j->o);
}

void cli_ident_json_joins(struct ms_out *o, const char *key,
			  const struct ms_ident *id, unsigned person,
			  const char *shown)
{
	char *low = g_ascii_strdown(shown ? shown : "", -1);
	struct joins_json j = { o, low };

	ms_out_kv_begin_list(o, key);
	if (person != MS_IDENT_NONE)
		ms_ident_foreach_address(id, person, json_join, &j);
	ms_out_end_list(o);
	g_free(low);
}

static void text_last(FILE *fp, const char *what,
		      const struct ms_act_last *l)
{
	char date[32];

	if (!l->set)
		return;
	/* the date with its own UTC offset, as git log prints it */
	ms_act_format(l->time, l->offset, false, false, date);
	fprintf(fp, "    %s %.12s %s (%zu in window)\n", what, l->id, date,
		l->count);
}

void cli_act_print_lasts(FILE *fp, const struct ms_act_person *p)
{
	text_last(fp, "Author", &p->author);
	text_last(fp, "Committer", &p->committer);
	text_last(fp, "Tags", &p->tags);
}

void cli_act_verdict(const struct ms_act_entry *e,
		     const struct ms_act_person *p,
		     const struct cli_list_facts *list_facts, int64_t cutoff,
		     struct ms_verdict *v)
{
	ms_verdict_person(e, p, NULL,
			  cli_list_facts_entry(list_facts, e->entry->name),
			  list_facts != NULL, cutoff, v);
}

/* The verdict lines of entry `e`'s people: what the verdict engine flags
 * (ms_verdict_flag()). */
static void print_verdicts(FILE *fp, const struct ms_activity *a,
			   const struct ms_activity_query *q,
			   const struct ms_act_entry *e,
			   const struct cli_list_facts *list_facts)
{
	for (size_t i = 0; i < e->nr_people; i++) {
		const struct ms_act_person *p = &e->people[i];
		char why[MS_VERDICT_WHY_SIZE];
		struct ms_verdict v;
		const char *flag;

		cli_act_verdict(e, p, list_facts, q->active_since, &v);
		flag = ms_verdict_flag(a, q, p, &v, why);
		if (!flag)
			continue;
		fprintf(fp, "  %s %s ", flag, p->role == 'M' ? "MAINTAINER" :
			"REVIEWER");
		cli_person_label(fp, p->name, p->email);
		fprintf(fp, "%s\n", why);
	}
}

void cli_act_print_entry(FILE *fp, const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 const struct ms_act_entry *e,
			 const struct cli_list_facts *list_facts)
{
	char date[32];

	fprintf(fp, "Subsystem %s\n", e->entry->name);
	fprintf(fp, "  Changes: reviewed %zu of %zu commits (%u%%)\n",
		e->reviewed, e->commits, cli_percent(e->reviewed, e->commits));
	if (e->has_last_activity) {
		ms_act_format(e->last_activity, e->last_activity_offset,
			      false, true, date);
		fprintf(fp, "  Last activity: %s\n", date);
	} else {
		fprintf(fp, "  Last activity: never\n");
	}
	if (!ms_verdict_entry_judged(e))
		fprintf(fp, "  No files in this tree (its code lives "
			"elsewhere): no verdict\n");
	cli_list_facts_text(fp, list_facts, e->entry->name);
	for (size_t i = 0; i < e->nr_people; i++) {
		const struct ms_act_person *p = &e->people[i];

		fprintf(fp, "  ");
		cli_person_label(fp, p->name, p->email);
		cli_act_print_also(fp, p);
		fprintf(fp, ":\n");
		cli_act_print_lasts(fp, p);
	}
	if (e->nr_top_reviewers) {
		fprintf(fp, "  Top reviewers (tags in window):\n");
		for (size_t i = 0; i < e->nr_top_reviewers; i++) {
			const struct ms_act_count *c = &e->top_reviewers[i];

			fprintf(fp, "    [%zu]: ", c->count);
			cli_person_label(fp, c->name, c->email);
			fputc('\n', fp);
		}
	}
	print_verdicts(fp, a, q, e, list_facts);
}

int cli_act_select(const char *cmd, const struct ms_activity *a, int argc,
		   char **argv, const struct cli_strings *files,
		   struct ms_activity_query *q,
		   const struct maint_entry ***sel)
{
	size_t nr;
	int rc = cli_select_entries(cmd, ms_activity_maintainers(a),
				    ms_activity_index(a), argc, argv, files,
				    sel, &nr);

	if (rc == CLI_CONTINUE && *sel) {
		q->entries = *sel;
		q->nr_entries = nr;
	}
	return rc;
}

void cli_act_json_counts(struct ms_out *o, const char *key,
			 const struct ms_act_count *c, size_t nr)
{
	ms_out_kv_begin_list(o, key);
	for (size_t i = 0; i < nr; i++) {
		ms_out_begin_object(o);
		cli_json_person(o, c[i].name, c[i].email);
		ms_out_kv_int(o, "count", (int64_t)c[i].count);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* Interval i of `s` as counted: [*from, *to), cut by the window. */
static void interval(const struct cli_act_series *s, size_t i,
		     int64_t *from, int64_t *to)
{
	*from = MAX(g_array_index(s->bounds, int64_t, i), s->since);
	*to = MIN(g_array_index(s->bounds, int64_t, i + 1), s->until + 1);
}

/* The intervals of `s` (its bounds set) cut by the window [since,
 * until], and their dates as the reports write them. */
static void series_dates(struct cli_act_series *s, int64_t since,
			 int64_t until)
{
	s->nr_intervals = s->bounds->len - 1;
	s->since = since;
	s->until = until;
	g_free(s->start);
	g_free(s->end);
	g_free(s->day);
	s->start = g_malloc_n(s->bounds->len, sizeof(*s->start));
	s->end = g_malloc_n(s->bounds->len, sizeof(*s->end));
	s->day = g_malloc_n(s->bounds->len, sizeof(*s->day));
	for (size_t i = 0; i < s->nr_intervals; i++) {
		int64_t from, to;

		interval(s, i, &from, &to);
		ms_act_format(from, 0, true, false, s->start[i]);
		ms_act_format(to, 0, true, false, s->end[i]);
		ms_act_format(from, 0, false, true, s->day[i]);
	}
}

/* The windows of series `s` for query `q`. */
static struct ms_activity_query *series_windows(
	const struct ms_activity_query *q, struct cli_act_series *s)
{
	struct ms_activity_query *qs;

	series_dates(s, q->since, q->until);
	s->res = g_new0(struct ms_act_entry *, s->nr_intervals);
	qs = g_new(struct ms_activity_query, s->nr_intervals ?
		   s->nr_intervals : 1);
	for (size_t i = 0; i < s->nr_intervals; i++) {
		int64_t lo = g_array_index(s->bounds, int64_t, i);
		int64_t hi = g_array_index(s->bounds, int64_t, i + 1) - 1;

		qs[i] = *q;
		qs[i].since = lo > q->since ? lo : q->since;
		qs[i].until = hi < q->until ? hi : q->until;
		qs[i].active_since = qs[i].since;
	}
	return qs;
}

int cli_act_series_bounds(const char *cmd, const char *by, const char *tags,
			  const char *repo, int64_t since, int64_t until,
			  struct cli_act_series *s)
{
	enum ms_series_unit unit;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!by)
		return CLI_CONTINUE;
	if (ms_series_parse_unit(by, &unit) < 0)
		return cli_usage_error(cmd, "--by: %s", ms_error_last());
	if (unit == MS_SERIES_RELEASE)
		rc = ms_series_releases(repo, tags ? tags : "v*", since,
					until, &s->bounds, &s->labels);
	else
		rc = ms_series_calendar(since, until, unit, &s->bounds);
	if (rc == MS_EUSAGE)
		return cli_usage_error(cmd, "--by: %s", ms_error_last());
	if (rc < 0)
		return cli_error_last();
	series_dates(s, since, until);
	return CLI_CONTINUE;
}

int cli_act_series_run(const char *cmd, const char *by, const char *tags,
		       const char *repo, const struct ms_activity *a,
		       const struct ms_activity_query *q,
		       struct cli_act_series *s)
{
	int rc = cli_act_series_bounds(cmd, by, tags, repo, q->since,
				       q->until, s);

	if (rc != CLI_CONTINUE || !by)
		return rc;
	return cli_act_series_query(a, q, s);
}

int cli_act_series_query(const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 struct cli_act_series *s)
{
	struct ms_activity_query *qs = series_windows(q, s);
	int rc = CLI_CONTINUE;

	/* one pass over the records, not one per interval */
	if (ms_activity_query_series(a, qs, s->nr_intervals, s->res,
				     &s->nr) < 0) {
		rc = cli_error_last();
		cli_act_series_release(s);
	}
	g_free(qs);
	return rc;
}

void cli_act_series_release(struct cli_act_series *s)
{
	for (size_t i = 0; s->res && i < s->nr_intervals; i++)
		ms_act_entries_free(s->res[i], s->nr);
	g_free(s->res);
	g_free(s->start);
	g_free(s->end);
	g_free(s->day);
	if (s->bounds)
		g_array_free(s->bounds, TRUE);
	if (s->labels)
		g_ptr_array_unref(s->labels);
	memset(s, 0, sizeof(*s));
}

/* Whether anything happened in the entry in the interval. */
static bool act_empty(const struct ms_act_entry *e)
{
	if (e->commits)
		return false;
	for (size_t i = 0; i < e->nr_people; i++)
		if (e->people[i].author.count || e->people[i].committer.count ||
		    e->people[i].tags.count)
			return false;
	return true;
}

bool cli_act_series_open(struct ms_out *o, const struct cli_act_series *s,
			 size_t i, bool empty, const char *const *figures,
			 size_t nr_figures)
{
	ms_out_begin_object(o);
	ms_out_kv_string(o, "start", s->start[i]);
	ms_out_kv_string(o, "end", s->end[i]);
	if (s->labels)
		ms_out_kv_string(o, "release", s->labels->pdata[i]);
	if (!empty)
		return true;
	for (size_t f = 0; f < nr_figures; f++)
		ms_out_kv_null(o, figures[f]);
	ms_out_end_object(o);
	return false;
}

void cli_act_series_json(struct ms_out *o, const struct cli_act_series *s,
			 size_t k)
{
	static const char *const figures[] = { "commits", "reviewed",
		"people", "top_reviewers", "top_committers" };

	ms_out_kv_begin_list(o, "intervals");
	for (size_t i = 0; i < s->nr_intervals; i++) {
		const struct ms_act_entry *e = &s->res[i][k];

		if (!cli_act_series_open(o, s, i, act_empty(e), figures,
					 G_N_ELEMENTS(figures)))
			continue;
		ms_out_kv_int(o, "commits", (int64_t)e->commits);
		ms_out_kv_int(o, "reviewed", (int64_t)e->reviewed);
		ms_out_kv_begin_list(o, "people");
		for (size_t p = 0; p < e->nr_people; p++) {
			const struct ms_act_person *ap = &e->people[p];

			cli_act_json_tallies(o, ap->role, ap->name, ap->email,
					     &ap->author, &ap->committer,
					     &ap->tags);
		}
		ms_out_end_list(o);
		cli_act_json_counts(o, "top_reviewers", e->top_reviewers,
				    e->nr_top_reviewers);
		cli_act_json_counts(o, "top_committers", e->top_committers,
				    e->nr_top_committers);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

void cli_act_series_text(FILE *fp, const struct cli_act_series *s, size_t k)
{
	fprintf(fp, "  By interval:\n    %-12s %7s %8s %7s  %s\n", "start",
		"commits", "reviewed", "listed", "top committer");
	for (size_t i = 0; i < s->nr_intervals; i++) {
		const struct ms_act_entry *e = &s->res[i][k];
		size_t active = 0;

		fprintf(fp, "    %-12s", s->day[i]);
		if (act_empty(e)) {
			fprintf(fp, " %7s", "-");
		} else {
			for (size_t p = 0; p < e->nr_people; p++)
				if (e->people[p].author.count ||
				    e->people[p].committer.count ||
				    e->people[p].tags.count)
					active++;
			fprintf(fp, " %7zu %8zu %3zu/%-3zu", e->commits,
				e->reviewed, active, e->nr_people);
			if (e->nr_top_committers)
				fprintf(fp, "  %s (%zu)",
					e->top_committers[0].email,
					e->top_committers[0].count);
		}
		if (s->labels && s->labels->pdata[i])
			fprintf(fp, "  (until %s)",
				(const char *)s->labels->pdata[i]);
		fputc('\n', fp);
	}
}
