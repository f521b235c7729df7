/*
 * cli-review.c - loading the models of `link` and `review`.
 */
#include "cli-review.h"
#include "cli-date.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "project.h"
#include "activity.h"
#include "history.h"
#include "ident.h"
#include "link-cache.h"
#include "mail.h"
#include "maintainers.h"
#include "output.h"
#include "review.h"
#include "store.h"
#include "tree.h"
#include "urgent.h"
#include "verdict.h"
#include "when.h"

#include <glib.h>

int cli_rev_window(const char *cmd, const struct cli_act_opts *o,
		   int64_t *since, int64_t *until)
{
	int rc = cli_window_parse(cmd, o->repo, o->since, o->until, since,
				  until);

	if (rc != CLI_CONTINUE)
		return rc;
	if (*since > *until)
		return cli_usage_error(cmd, "the window is empty: --since is "
				       "after --until");
	return CLI_CONTINUE;
}

/* What cli_rev_load_mail() and cli_rev_load() read the archives with
 * (the store and progress callback are theirs to add). */
static void mail_opts(const struct cli_act_opts *o, unsigned parse_flags,
		      ms_link_mail_hook hook, void *hook_data,
		      struct ms_link_mail_opts *mo)
{
	*mo = (struct ms_link_mail_opts){ 0 };
	mo->archives = o->archives.items;
	mo->nr_archives = (size_t)o->archives.nr;
	mo->parse_flags = parse_flags;
	mo->hook = hook;
	mo->hook_data = hook_data;
	/* the review map's answers go with the mail snapshot */
	if (o->kmap && hook_data == o->kmap) {
		mo->hook_dump = ms_review_map_dump;
		mo->hook_load = ms_review_map_load;
	}
}

/*
 * ms_link_mail_load(), with the K: answers of o->kmap read from the store
 * before and the new ones saved after.
 */
static int kmap_load(const struct cli_act_opts *o,
		     const struct ms_link_mail_opts *mo,
		     struct ms_link_mail **out, struct ms_diags *diags)
{
	int rc;

	if (o->kmap)
		ms_review_map_read_saved(o->kmap, mo->store);
	rc = ms_link_mail_load(mo, out, diags);
	/* the answers are right all the same: not keeping them costs the
	 * next run time, and is said */
	if (rc == 0 && o->kmap && ms_review_map_save(o->kmap, mo->store) < 0) {
		cli_warning("the K: answers were not kept in the store: %s",
			    ms_error_last());
		ms_error_clear();
	}
	return rc;
}

int cli_rev_load_mail(const char *cmd, const struct cli_act_opts *o,
		      unsigned parse_flags, ms_link_mail_hook hook,
		      void *hook_data, struct ms_link_mail **out)
{
	struct ms_link_mail_opts mo;
	struct ms_diags diags = MS_DIAGS_INIT;
	int rc;

	if (!o->archives.nr)
		return cli_usage_error(cmd, "--archive PATH is required");
	mail_opts(o, parse_flags, hook, hook_data, &mo);
	/* the repository's store holds the messages too (store.h);
	 * without a repository, the first archive's, as `mail stats` */
	rc = cli_store_open(&o->store, o->repo ? o->repo :
			    o->archives.items[0], &mo.store);
	if (rc != CLI_CONTINUE)
		return rc;
	mo.progress = cli_progress_count;
	cli_progress_start("reading the archives", 0);
	rc = kmap_load(o, &mo, out, &diags);
	ms_store_free(mo.store);
	cli_progress_done();
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

/* The history walk of cli_rev_load(), on a thread of its own. */
struct bg_walk {
	struct ms_link_commits_opts co;
	struct ms_diags diags;
	GPtrArray *commits;
	char *error;            /* its ms_error_last(), on failure */
	int rc;
	gint walked;            /* commits so far, for the progress line */
	gint done;
};

static void bg_progress(size_t n, void *data)
{
	struct bg_walk *w = data;

	g_atomic_int_set(&w->walked, (gint)MIN(n, (size_t)G_MAXINT));
}

static gpointer bg_main(gpointer data)
{
	struct bg_walk *w = data;

	w->rc = ms_link_commits_load(&w->co, &w->commits, &w->diags);
	if (w->rc < 0)
		w->error = g_strdup(ms_error_last());
	g_atomic_int_set(&w->done, 1);
	return NULL;
}

static void fg_progress(size_t n, void *data)
{
	struct bg_walk *w = data;

	cli_progress_update2(n, "walking history",
			     (uint64_t)g_atomic_int_get(&w->walked));
}

int cli_rev_load(const char *cmd, const struct cli_act_opts *o,
		 int64_t since, int64_t until, unsigned parse_flags,
		 ms_link_mail_hook hook, void *hook_data,
		 GPtrArray **commits, struct ms_link_mail **lm)
{
	struct ms_link_mail_opts mo;
	struct ms_diags diags = MS_DIAGS_INIT;
	struct bg_walk w = { 0 };
	struct cli_range *range = NULL;
	char *merr = NULL;
	GThread *t;
	size_t messages = 0;
	int rc, mrc;

	*commits = NULL;
	*lm = NULL;
	if (!o->repo)
		return cli_rev_load_mail(cmd, o, parse_flags, hook, hook_data,
					 lm);
	if (!o->archives.nr)
		return cli_usage_error(cmd, "--archive PATH is required");
	/* --since REV: the commits of REV..rev, whatever their dates */
	rc = cli_since_range(cmd, o->repo, o->rev, o->since, &range);
	if (rc != CLI_CONTINUE)
		return rc;
	if (range && range->oldest < since)
		since = range->oldest;
	mail_opts(o, parse_flags, hook, hook_data, &mo);
	/* one store connection each: SQLite lets them work side by side */
	rc = cli_store_open(&o->store, o->repo, &w.co.store);
	if (rc != CLI_CONTINUE) {
		cli_range_free(range);
		return rc;
	}
	rc = cli_store_open(&o->store, o->repo, &mo.store);
	if (rc != CLI_CONTINUE) {
		ms_store_free(w.co.store);
		cli_range_free(range);
		return rc;
	}
	w.co.gitdir = o->repo;
	w.co.rev = o->rev;
	w.co.since = since;
	w.co.until = until;
	w.co.progress = bg_progress;
	w.co.progress_data = &w;
	t = g_thread_new("ms-history", bg_main, &w);

	mo.progress = fg_progress;
	mo.progress_data = &w;
	cli_progress_start("reading the archives", 0);
	mrc = kmap_load(o, &mo, lm, &diags);
	if (mrc < 0)
		merr = g_strdup(ms_error_last());
	else
		messages = ms_mail_index_count(ms_link_mail_index(*lm));
	/* the walk may outlast the archives: keep its count moving */
	while (cli_progress_shown() && !g_atomic_int_get(&w.done)) {
		cli_progress_update2(messages, "walking history",
				     (uint64_t)g_atomic_int_get(&w.walked));
		g_usleep(20000);
	}
	g_thread_join(t);
	cli_progress_done();
	ms_store_free(mo.store);
	ms_store_free(w.co.store);
	/* what the two loads one after the other print: commits first */
	cli_print_diags(&w.diags);
	ms_diags_release(&w.diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	*commits = w.commits;
	if (range && *commits) {
		/* keep the range's commits, in order; the others to the end,
		 * where they are freed */
		GPtrArray *a = *commits;
		guint k = 0;

		for (guint i = 0; i < a->len; i++) {
			gpointer c = a->pdata[i];

			if (cli_range_has(((struct ms_link_commit *)c)->id,
					  range)) {
				a->pdata[i] = a->pdata[k];
				a->pdata[k++] = c;
			}
		}
		g_ptr_array_remove_range(a, k, a->len - k);
	}
	cli_range_free(range);
	rc = CLI_CONTINUE;
	if (w.rc < 0)
		rc = cli_error("%s", *w.error ? w.error : "unknown error");
	else if (mrc < 0)
		rc = cli_error("%s", *merr ? merr : "unknown error");
	g_free(w.error);
	g_free(merr);
	if (rc != CLI_CONTINUE) {
		if (*commits)
			g_ptr_array_unref(*commits);
		ms_link_mail_free(*lm);
		*commits = NULL;
		*lm = NULL;
	}
	return rc;
}

struct cli_rev_linking {
	struct ms_store *st;
	struct ms_link_stored *writing;
};

int cli_rev_link_begin(const struct cli_act_opts *o,
		       const struct ms_link_mail *lm,
		       const GPtrArray *commits,
		       const struct ms_link_opts *lo,
		       struct ms_link_result **out,
		       struct cli_rev_linking **pending)
{
	struct cli_rev_linking *p;
	struct ms_store *st = NULL;
	int rc;

	*out = NULL;
	*pending = NULL;
	if (o->repo) {
		rc = cli_store_open(&o->store, o->repo, &st);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	p = g_new0(struct cli_rev_linking, 1);
	p->st = st;
	rc = ms_link_run_stored_begin(st, lm, commits, lo, out, &p->writing);
	if (rc < 0) {
		ms_store_free(st);
		g_free(p);
		return cli_error_last();
	}
	*pending = p;
	return CLI_CONTINUE;
}

int cli_rev_link_end(struct cli_rev_linking *p)
{
	int rc;

	if (!p)
		return CLI_CONTINUE;
	rc = ms_link_run_stored_end(p->writing);
	ms_store_free(p->st);
	g_free(p);
	return rc < 0 ? cli_error_last() : CLI_CONTINUE;
}

int cli_rev_link(const struct cli_act_opts *o, const struct ms_link_mail *lm,
		 const GPtrArray *commits, const struct ms_link_opts *lo,
		 struct ms_link_result **out)
{
	struct cli_rev_linking *p;
	int rc = cli_rev_link_begin(o, lm, commits, lo, out, &p);

	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_rev_link_end(p);
	if (rc != CLI_CONTINUE) {
		ms_link_result_free(*out);
		*out = NULL;
	}
	return rc;
}

/* ---- list facts for `activity` and `urgent` ---- */

struct cli_list_facts {
	struct ms_project *proj;     /* the tree, the list, who is who */
	const struct ms_tree *tree;
	const struct maint_file *mf;
	const struct maint_index *idx;
	struct ms_review_map *map;
	struct ms_link_mail *lm;     /* the project's */
	struct ms_review *rv;
	struct ms_urgent *urgent;    /* the entries' review by name, and
					urgent's categories */
	int64_t active_since;
	struct cli_git_seen seen;
};

static bool git_seen(unsigned person, void *data)
{
	const struct cli_git_seen *s = data;

	return ms_activity_seen(s->act, person, s->until);
}

void cli_rev_print_archives(FILE *fp, const struct cli_act_opts *o,
			    const struct ms_mail_index *idx)
{
	int64_t first, last;
	char a[32], b[32], c[32];

	fprintf(fp, "Archives:");
	for (int i = 0; i < o->archives.nr; i++)
		fprintf(fp, "%s %s", i ? "," : "", o->archives.items[i]);
	cli_format_count(ms_mail_index_count(idx), a);
	fprintf(fp, " (%s messages", a);
	/* the span every window and table takes, misdated ones left out */
	if (ms_mail_index_span(idx, &first, &last, NULL)) {
		ms_act_format(first, 0, false, true, b);
		ms_act_format(last, 0, false, true, c);
		fprintf(fp, ", %s to %s", b, c);
	}
	fprintf(fp, ")\n");
}

static void add_history_path(const char *path, void *data)
{
	g_ptr_array_add(data, (gpointer)path);
}

void cli_review_history(struct ms_review_opts *rvo, struct ms_activity *act,
			struct ms_project *proj, struct cli_git_seen *seen,
			GPtrArray **paths)
{
	rvo->ident = ms_activity_ident(act);
	seen->act = act;
	rvo->git_seen = git_seen;
	rvo->git_seen_data = seen;
	*paths = g_ptr_array_new();
	ms_activity_foreach_path(act, add_history_path, *paths);
	rvo->history_paths = *paths;
	rvo->objects = ms_project_objects(proj);
}

/*
 * New list facts with the project of `o` (its tree and MAINTAINERS), its
 * review map, and the archives of `o` (through its store and repository)
 * read through the map.  CLI_CONTINUE, or the exit code after the error
 * was printed.
 */
static int facts_open(const char *cmd, struct cli_act_opts *o,
		      struct cli_list_facts **out)
{
	struct cli_list_facts *f = g_new0(struct cli_list_facts, 1);
	struct ms_diags diags = MS_DIAGS_INIT;
	int rc;

	*out = NULL;
	rc = cli_project_open(o, &f->proj);
	if (rc == CLI_CONTINUE)
		rc = cli_project_tree(f->proj, &f->tree, &f->mf, &f->idx);
	if (rc != CLI_CONTINUE) {
		cli_list_facts_free(f);
		return rc;
	}
	f->map = ms_review_map_new(f->mf, f->idx, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	o->kmap = f->map;
	rc = cli_rev_load_mail(cmd, o, MS_MAIL_PARSE_KEEP_BODY,
			       ms_review_map_hook, f->map, &f->lm);
	if (rc != CLI_CONTINUE) {
		cli_list_facts_free(f);
		return rc;
	}
	ms_project_set_mail(f->proj, f->lm);
	*out = f;
	return CLI_CONTINUE;
}

int cli_list_facts_open(const char *cmd, const struct cli_act_opts *ao,
			struct ms_project *history,
			struct cli_list_facts **out)
{
	struct cli_act_opts o = { 0 };
	int rc;

	*out = NULL;
	if (!ao->archives.nr)
		return CLI_CONTINUE;
	/* the entries of the model, from the same MAINTAINERS files; the
	 * archives go through the repository's store, as for review */
	o.repo = ao->repo;
	o.rev = ao->rev;
	o.maintainers = ao->maintainers;
	o.find_maintainer_files = ao->find_maintainer_files;
	o.archives = ao->archives;
	o.store = ao->store;
	rc = facts_open(cmd, &o, out);
	if (rc == CLI_CONTINUE && history)
		ms_project_set_mail_index(history,
					  ms_link_mail_index((*out)->lm));
	return rc;
}

int cli_list_facts_load(const char *cmd, const struct cli_act_opts *ao,
			int64_t since, int64_t until, int64_t active_since,
			struct ms_activity *act, struct cli_list_facts **out)
{
	struct cli_list_facts *f = *out;
	struct ms_review_opts rvo = MS_VERDICT_REVIEW_OPTS_INIT;
	GPtrArray *history_paths;
	int rc;

	if (!f) {
		rc = cli_list_facts_open(cmd, ao, NULL, &f);
		if (rc != CLI_CONTINUE || !f)
			return rc;
	}
	rvo.since = since;
	rvo.until = until;
	f->active_since = active_since;
	f->seen.until = until;
	/* the same patches as review counts: stable backports and other
	 * projects' patches (by subject, or by paths the project never
	 * had) set aside */
	rvo.tree = f->tree;
	cli_review_history(&rvo, act, f->proj, &f->seen, &history_paths);
	f->rv = ms_review_compute(f->lm, f->map, f->mf, NULL, NULL, &rvo);
	g_ptr_array_unref(history_paths);
	f->urgent = ms_urgent_new(f->mf, f->idx, f->tree,
				  f->rv, active_since);
	*out = f;
	return CLI_CONTINUE;
}

int cli_list_facts_load_tree(const char *cmd, const struct cli_act_opts *ao,
			     const char *window, int64_t *since,
			     int64_t *until, struct cli_list_facts **out)
{
	struct cli_list_facts *f;
	struct cli_act_opts o = *ao;
	struct ms_review_opts rvo = MS_VERDICT_REVIEW_OPTS_INIT;
	int rc;

	*out = NULL;
	/* without a history, people resolve as `review --tree` resolves
	 * them: the tree's .mailmap, then the names the list's senders
	 * give (the project's identity model) */
	rc = facts_open(cmd, &o, &f);
	if (rc != CLI_CONTINUE)
		return rc;
	/* the list's own end is "now": its newest message, misdated ones
	 * left out as review leaves them out (ms_mail_index_span()) */
	if (!ms_mail_index_span(ms_link_mail_index(f->lm), since, until, NULL))
		*until = 0;
	rc = ms_when_parse(window, *until, false, since) < 0 ?
		cli_error_last() :
		cli_inactive_after(cmd, ao->inactive_after, *until,
				   &f->active_since);
	if (rc == CLI_CONTINUE)
		rc = cli_project_ident(f->proj, &rvo.ident);
	if (rc != CLI_CONTINUE) {
		cli_list_facts_free(f);
		return rc;
	}
	rvo.since = *since;
	rvo.until = *until;
	rvo.tree = f->tree;
	f->rv = ms_review_compute(f->lm, f->map, f->mf, NULL, NULL, &rvo);
	f->urgent = ms_urgent_new(f->mf, f->idx, f->tree,
				  f->rv, f->active_since);
	*out = f;
	return CLI_CONTINUE;
}

void cli_list_facts_free(struct cli_list_facts *f)
{
	if (!f)
		return;
	ms_urgent_free(f->urgent);
	ms_review_free(f->rv);
	if (f->proj)
		ms_review_map_report(f->map, ms_project_late(f->proj));
	ms_review_map_free(f->map);
	if (!f->proj || ms_project_mail(f->proj) != f->lm)
		ms_link_mail_free(f->lm);
	cli_project_close(f->proj);
	g_free(f);
}

const struct ms_rv_entry *cli_list_facts_entry(const struct cli_list_facts *f,
					       const char *name)
{
	return f ? ms_urgent_entry(f->urgent, name) : NULL;
}

void cli_list_facts_text(FILE *fp, const struct cli_list_facts *f,
			 const char *name)
{
	const struct ms_rv_entry *e = cli_list_facts_entry(f, name);
	size_t n;
	char a[32], b[32];

	if (!f)
		return;
	if (!e) {
		fprintf(fp, "  List: no patches\n");
		return;
	}
	n = e->patches->len;
	ms_duration_format(e->ttfr_median, a, 32);
	ms_duration_format(e->ttmr_median, b, 32);
	fprintf(fp, "  List: patches %zu, replied %zu (%u%%), median first "
		"response %s (listed person %s), ignored %zu\n", n,
		e->replied, cli_percent(e->replied, n), a, b, e->ignored);
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		if (!ms_verdict_list_evidence(p))
			continue;
		ms_duration_format(p->has_latency ? p->median_latency : -1,
				   a, 32);
		/* over the patches they did not write, as review's */
		fprintf(fp, "  List ");
		cli_person_label(fp, p->name, p->email);
		fprintf(fp, ": replied %zu/%zu, median %s, Reviewed-by %zu, "
			"Acked-by %zu\n", p->replied, n - p->own_patches, a,
			p->reviewed_by, p->acked_by);
	}
}

void cli_rv_json_person(struct ms_out *o, const struct ms_rv_person *p,
			size_t n, bool git)
{
	if (p->role) {
		char role[2] = { p->role, 0 };

		ms_out_kv_string(o, "role", role);
	}
	cli_json_person(o, p->name, p->email);
	ms_out_kv_int(o, "replied", (int64_t)p->replied);
	ms_out_kv_int(o, "own_patches", (int64_t)p->own_patches);
	cli_json_share(o, "replied_share", p->replied, n - p->own_patches);
	cli_json_hours(o, "median_latency_hours",
		       p->has_latency ? p->median_latency : -1);
	ms_out_kv_int(o, "within_target", (int64_t)p->within_target);
	if (p->responsiveness < 0)
		ms_out_kv_null(o, "responsiveness");
	else
		ms_out_kv_real(o, "responsiveness", p->responsiveness);
	ms_out_kv_begin_object(o, "tags");
	ms_out_kv_int(o, "reviewed_by", (int64_t)p->reviewed_by);
	ms_out_kv_int(o, "acked_by", (int64_t)p->acked_by);
	ms_out_kv_int(o, "tested_by", (int64_t)p->tested_by);
	ms_out_end_object(o);
	ms_out_kv_int(o, "messages", (int64_t)p->messages);
	ms_out_kv_int(o, "threads", (int64_t)p->threads);
	ms_out_kv_int(o, "authored", (int64_t)p->authored);
	ms_out_kv_int(o, "first_responses", (int64_t)p->first_responses);
	cli_json_count(o, "commits", git, p->commits);
	cli_json_count(o, "applied", git, p->applied);
	ms_out_kv_int(o, "accepted_by_notice", (int64_t)p->accepted_by_notice);
	ms_out_kv_int(o, "netdev_score", p->netdev_score);
	if (!p->role)
		ms_out_kv_bool(o, "via_list", p->via_list);
	cli_json_date(o, "last_list_activity", p->has_last_list, p->last_list);
}

void cli_rv_json_people(struct ms_out *o, const char *key,
			const GPtrArray *people, size_t n, bool git)
{
	ms_out_kv_begin_list(o, key);
	for (guint i = 0; i < people->len; i++) {
		ms_out_begin_object(o);
		cli_rv_json_person(o, people->pdata[i], n, git);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

void cli_list_facts_json(struct ms_out *o, const struct cli_list_facts *f,
			 const char *name)
{
	const struct ms_rv_entry *e = cli_list_facts_entry(f, name);

	ms_out_key(o, "list");
	if (!e) {
		ms_out_null(o);
		return;
	}
	ms_out_begin_object(o);
	ms_out_kv_int(o, "patches", (int64_t)e->patches->len);
	ms_out_kv_int(o, "replied", (int64_t)e->replied);
	ms_out_kv_int(o, "replied_by_listed", (int64_t)e->replied_maint);
	ms_out_kv_int(o, "ignored", (int64_t)e->ignored);
	cli_json_quant(o, "time_to_first_response", e->ttfr_median,
		       e->ttfr_p90);
	ms_out_kv_real(o, "responsiveness", e->responsiveness);
	ms_out_kv_begin_list(o, "people");
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];
		struct ms_verdict v;

		/* the list's side of the verdict: no history passed */
		ms_verdict_person(NULL, NULL, p->email, e, true,
				  f->active_since, &v);
		ms_out_begin_object(o);
		/* no history passed to this review: no commit counts */
		cli_rv_json_person(o, p, e->patches->len, false);
		ms_out_kv_bool(o, "active_on_list",
			       ms_verdict_list_active(&v));
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_end_object(o);
}

struct ms_urgent *cli_list_facts_urgent(const struct cli_list_facts *f)
{
	return f ? f->urgent : NULL;
}
