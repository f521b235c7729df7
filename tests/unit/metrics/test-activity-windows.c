/*
 * test-activity-windows.c - ms_activity_query_series() answers, window by
 * window, exactly what ms_activity_query() answers for each window (a
 * series of one): on a generated repository whose commits share commit
 * times and author dates (with other offsets), where the first record of
 * the newest date decides a "last" fact's commit and offset; and both
 * answer what the test reads from the records themselves (the commit
 * and date of each "last" fact, each count of the window).  And ms_activity_seen() (review asks
 * it of listed addresses never seen on a list) answers from the first
 * commit time at which each person authored, committed or was named in a
 * trailer, and ms_activity_last_seen() with the last one up to a time.
 */
#include "test.h"
#include "activity.h"
#include "ident.h"
#include "error.h"
#include "maintainers.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const people[] = {
	"Alice Active <alice@example.org>", "Bob Busy <bob@example.org>",
	"Rita Reviewer <rita@example.org>", "Xena Outside <xena@example.net>",
	"Yuri Outside <yuri@example.net>",
};

#define MAINT_TEXT \
	"ALPHA\nM:\tAlice Active <alice@example.org>\n" \
	"R:\tRita Reviewer <rita@example.org>\nS:\tMaintained\n" \
	"F:\tdrivers/alpha/\n\n" \
	"BETA\nM:\tBob Busy <bob@example.org>\nM:\tAlice Active " \
	"<alice@example.org>\nS:\tMaintained\nF:\tdrivers/beta/\n\n" \
	"THE FILE\nM:\tAlice Active <alice@example.org>\nF:\tMAINTAINERS\n"

/* the commit time at which each of people[] first shows, and every
 * commit time at which each shows */
static int64_t first_seen[G_N_ELEMENTS(people)];
static GArray *seen_at[G_N_ELEMENTS(people)];

static void saw(const char *who, int64_t t)
{
	for (size_t i = 0; i < G_N_ELEMENTS(people); i++) {
		if (people[i] != who)
			continue;
		if (!first_seen[i] || t < first_seen[i])
			first_seen[i] = t;
		if (!seen_at[i])
			seen_at[i] = g_array_new(FALSE, FALSE, sizeof(t));
		g_array_append_val(seen_at[i], t);
	}
}

/* The newest time person i shows at up to `until`, or 0. */
static int64_t last_seen(size_t i, int64_t until)
{
	int64_t last = 0;

	for (guint k = 0; seen_at[i] && k < seen_at[i]->len; k++) {
		int64_t t = g_array_index(seen_at[i], int64_t, k);

		if (t <= until && t > last)
			last = t;
	}
	return last;
}

/* 120 commits over about a year, in pairs and triples of one commit
 * time, author dates shared with other offsets. */
static GString *stream(void)
{
	GString *s = g_string_new(NULL);
	int64_t t = 1700000000;
	unsigned seed = 7;

	g_string_append_printf(s, "commit refs/heads/main\ncommitter %s %lld "
			       "+0000\ndata 5\nroot\nM 100644 inline "
			       "MAINTAINERS\ndata %zu\n%s\n", people[0],
			       (long long)t, strlen(MAINT_TEXT), MAINT_TEXT);
	saw(people[0], t);
	for (int i = 0; i < 120; i++) {
		char msg[256];
		const char *au, *cm, *rv;
		int offs[] = { 0, 120, -300, 330 };

		seed = seed * 1103515245 + 12345;
		if (seed % 3)
			t += 86400 * (1 + (seed >> 8) % 5);
		au = people[(seed >> 4) % 5];
		cm = people[(seed >> 7) % 2];
		rv = people[(seed >> 10) % 5];
		saw(au, t);
		saw(cm, t);
		saw(rv, t);
		snprintf(msg, sizeof(msg), "change %d\n\nReviewed-by: %s\n"
			 "Tested-by: %s\nSigned-off-by: %s\n", i, rv, au, cm);
		g_string_append_printf(s, "commit refs/heads/main\n"
				       "author %s %lld %+05d\ncommitter %s "
				       "%lld +0000\ndata %zu\n%s"
				       "M 100644 inline drivers/%s/f%d.c\n"
				       "data 2\nx\n\n", au,
				       (long long)(t - (seed >> 12) % 2 *
						   3600),
				       offs[(seed >> 14) % 4], cm,
				       (long long)t, strlen(msg), msg,
				       (seed >> 16) % 3 ? "alpha" : "beta", i);
	}
	return s;
}

static bool same_last(const struct ms_act_last *x, const struct ms_act_last *y)
{
	return x->set == y->set && (!x->set ||
	       (!strcmp(x->id, y->id) && x->time == y->time &&
		x->offset == y->offset && x->count == y->count &&
		!g_strcmp0(x->tag, y->tag)));
}

static bool same_counts(const struct ms_act_count *x,
			const struct ms_act_count *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].person != y[i].person || x[i].count != y[i].count)
			return false;
	return true;
}

static bool same_entry(const struct ms_act_entry *x,
		       const struct ms_act_entry *y)
{
	if (x->entry != y->entry || x->commits != y->commits ||
	    x->reviewed != y->reviewed ||
	    x->has_last_activity != y->has_last_activity ||
	    x->last_activity != y->last_activity ||
	    x->last_activity_offset != y->last_activity_offset ||
	    x->nr_people != y->nr_people ||
	    x->nr_top_reviewers != y->nr_top_reviewers ||
	    x->nr_top_committers != y->nr_top_committers ||
	    !same_counts(x->top_reviewers, y->top_reviewers,
			 x->nr_top_reviewers) ||
	    !same_counts(x->top_committers, y->top_committers,
			 x->nr_top_committers))
		return false;
	for (size_t i = 0; i < x->nr_people; i++) {
		const struct ms_act_person *p = &x->people[i];
		const struct ms_act_person *q = &y->people[i];

		if (p->person != q->person || strcmp(p->email, q->email) ||
		    !same_last(&p->author, &q->author) ||
		    !same_last(&p->committer, &q->committer) ||
		    !same_last(&p->tags, &q->tags) ||
		    p->inactive != q->inactive ||
		    p->seen_anywhere != q->seen_anywhere ||
		    p->has_last != q->has_last ||
		    (p->has_last && (p->last_time != q->last_time ||
				     p->last_offset != q->last_offset)))
			return false;
	}
	return true;
}

/* Whether record `r` touches entry `ent` and names `person` as its author
 * (kind 0), committer (1) or in a trailer (2). */
static bool names(const struct ms_activity *a, size_t i,
		  const struct ms_act_record *r, size_t ent, unsigned person,
		  int kind)
{
	bool in = false;

	for (size_t k = 0; k < r->nr_entries; k++)
		in = in || r->entries[k] == ent;
	if (!in || kind < 2)
		return in && (kind ? r->committer : r->author) == person;
	for (size_t t = 0; t < r->nr_tags; t++) {
		unsigned p;
		const char *token;
		bool review;

		ms_activity_record_tag(a, i, t, &p, &token, &review);
		if (p == person)
			return true;
	}
	return false;
}

/* The "last" fact of `kind` (names()) for `person` in entry `ent` up to
 * q's end, read from the records in walk order (the first of the newest
 * date wins), and how many such records the window holds. */
static struct ms_act_last expect_last(const struct ms_activity *a,
				      const struct ms_activity_query *q,
				      size_t ent, unsigned person, int kind)
{
	struct ms_act_last l = { 0 };

	for (size_t i = 0; i < ms_activity_nr_commits(a); i++) {
		struct ms_act_record r;
		int64_t t;

		ms_activity_record(a, i, &r);
		if (r.ctime > q->until || !names(a, i, &r, ent, person, kind))
			continue;
		t = kind ? r.ctime : r.atime;
		if (!l.set || t > l.time) {
			l.set = true;
			l.time = t;
			memcpy(l.id, r.id, sizeof(l.id));
		}
		l.count += r.ctime >= q->since;
	}
	return l;
}

/* Whether entry `e`, answered for `q`, holds what the records say. */
static bool as_recorded(const struct ms_activity *a,
			const struct ms_activity_query *q,
			const struct ms_act_entry *e)
{
	size_t ent = e->entry->index, commits = 0, cutoff = 0;

	for (size_t i = 0; i < ms_activity_nr_commits(a); i++) {
		struct ms_act_record r;
		bool in = false;

		ms_activity_record(a, i, &r);
		for (size_t k = 0; k < r.nr_entries; k++)
			in = in || r.entries[k] == ent;
		if (!in || r.ctime > q->until)
			continue;
		commits += r.ctime >= q->since;
		cutoff += r.ctime >= q->active_since;
	}
	if (e->commits != commits || e->cutoff_commits != cutoff)
		return false;
	for (size_t j = 0; j < e->nr_people; j++) {
		const struct ms_act_person *p = &e->people[j];
		const struct ms_act_last *got[] = {
			&p->author, &p->committer, &p->tags,
		};

		for (int kind = 0; kind < 3; kind++) {
			struct ms_act_last l = expect_last(a, q, ent,
							   p->person, kind);

			if (l.set != got[kind]->set ||
			    l.count != got[kind]->count ||
			    (l.set && (l.time != got[kind]->time ||
				       strcmp(l.id, got[kind]->id))))
				return false;
		}
	}
	return true;
}

int main(void)
{
	char *dir = g_dir_make_tmp("ms-series-XXXXXX", NULL);
	char *git = g_build_filename(dir, "r.git", NULL);
	char *cmd = g_strdup_printf("git init -q --bare '%s' && git "
				    "--git-dir='%s' symbolic-ref HEAD "
				    "refs/heads/main && git --git-dir='%s' "
				    "fast-import --quiet", git, git, git);
	GString *s = stream();
	FILE *fp = popen(cmd, "w");
	struct ms_activity_load_opts lo = { 0 };
	struct ms_activity *a = NULL;
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_activity_query qs[14];
	struct ms_act_entry *series[14], *one;
	size_t nr = 0, nr1 = 0, busy = 0, recorded = 0;
	int64_t start = 1700000000 - 86400 * 20;

	ok(fp != NULL, "git fast-import runs");
	fwrite(s->str, 1, s->len, fp);
	is_int(pclose(fp), 0, "the repository is made");
	lo.gitdir = git;
	is_int(ms_activity_load(&lo, &a, &diags), 0, "the model loads");
	is_int(ms_activity_nr_commits(a), 121, "121 commits (the root "
	       "too)");
	/* windows of 30 days, the last ones past the newest commit */
	for (size_t k = 0; k < G_N_ELEMENTS(qs); k++) {
		memset(&qs[k], 0, sizeof(qs[k]));
		qs[k].since = start + (int64_t)k * 30 * 86400;
		qs[k].until = qs[k].since + 30 * 86400 - 1;
		qs[k].active_since = qs[k].since;
	}
	is_int(ms_activity_query_series(a, qs, G_N_ELEMENTS(qs), series, &nr),
	       0, "the series");
	is_int(nr, 3, "three entries (one touched by the root commit only)");
	for (size_t k = 0; k < G_N_ELEMENTS(qs); k++) {
		bool same = true;
		char what[64];

		is_int(ms_activity_query(a, &qs[k], &one, &nr1), 0, "a window");
		for (size_t i = 0; i < nr1 && i < nr; i++) {
			same = same && same_entry(&series[k][i], &one[i]);
			busy += one[i].commits > 0;
			recorded += as_recorded(a, &qs[k], &one[i]) &&
				as_recorded(a, &qs[k], &series[k][i]);
		}
		snprintf(what, sizeof(what), "window %zu: the one-by-one "
			 "answer", k);
		ok(same && nr1 == nr, what);
		ms_act_entries_free(one, nr1);
		ms_act_entries_free(series[k], nr);
	}
	ok(busy > 10, "the windows hold commits");
	is_int(recorded, G_N_ELEMENTS(qs) * nr, "every entry of every window "
	       "as its records say");
	for (size_t i = 0; i < G_N_ELEMENTS(people); i++) {
		char *name = g_strndup(people[i], strcspn(people[i], "<") - 1);
		char *mail = g_strndup(strchr(people[i], '<') + 1,
				       strcspn(strchr(people[i], '<') + 1,
					       ">"));
		unsigned p = ms_ident_lookup(ms_activity_ident(a), name, mail);
		char what[96];

		ok(p != MS_IDENT_NONE && first_seen[i], "a person of the "
		   "history");
		snprintf(what, sizeof(what), "%s: not seen before %lld", name,
			 (long long)first_seen[i]);
		ok(!ms_activity_seen(a, p, first_seen[i] - 1), what);
		snprintf(what, sizeof(what), "%s: seen from then", name);
		ok(ms_activity_seen(a, p, first_seen[i]), what);
		ok(ms_activity_seen(a, p, INT64_MAX), "and at any later time");
		g_free(name);
		g_free(mail);
	}
	/* the last time up to an `until`: from the index of all records
	 * when none is later, else from one of the records up to it, made
	 * again as `until` changes */
	{
		const int64_t untils[] = {
			first_seen[1] + 86400 * 100, INT64_MAX,
			first_seen[1] + 86400 * 30, first_seen[1] - 1,
			first_seen[1] + 86400 * 100, first_seen[1] + 86400 * 200,
		};
		size_t bad = 0;

		for (size_t u = 0; u < G_N_ELEMENTS(untils); u++) {
			for (size_t i = 0; i < G_N_ELEMENTS(people); i++) {
				char *name = g_strndup(people[i],
					strcspn(people[i], "<") - 1);
				char *mail = g_strndup(
					strchr(people[i], '<') + 1,
					strcspn(strchr(people[i], '<') + 1,
						">"));
				unsigned p = ms_ident_lookup(
					ms_activity_ident(a), name, mail);
				int64_t when = 0, want = last_seen(i,
								   untils[u]);
				bool got = ms_activity_last_seen(a, p,
								 untils[u],
								 &when);

				bad += got != (want != 0) ||
				       (got && when != want);
				g_free(name);
				g_free(mail);
			}
		}
		is_int(bad, 0, "ms_activity_last_seen(): the newest time up "
		       "to each of six untils, in and out of order");
	}
	ok(!ms_activity_seen(a, MS_IDENT_NONE, INT64_MAX), "nobody is never "
	   "seen");
	ok(!ms_activity_seen(a, ms_ident_count(ms_activity_ident(a)) + 5,
			     INT64_MAX), "nor an id past the resolver's");
	ms_activity_free(a);
	for (size_t i = 0; i < G_N_ELEMENTS(people); i++)
		if (seen_at[i])
			g_array_free(seen_at[i], TRUE);
	ms_diags_release(&diags);
	g_string_free(s, TRUE);
	g_free(cmd);
	cmd = g_strdup_printf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cannot remove %s\n", dir);
	g_free(cmd);
	g_free(git);
	g_free(dir);
	return test_done();
}
