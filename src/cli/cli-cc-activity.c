/*
 * cli-cc-activity.c - `maintainers --activity`: the history's and the
 * lists' facts of the people of an answer (cli-cc-activity.h).
 */
#include "cli-cc-activity.h"
#include "activity.h"
#include "cli-activity.h"
#include "cli-project.h"
#include "cli-review.h"
#include "maint-cc.h"
#include "maintainers.h"
#include "output.h"
#include "review.h"
#include "verdict.h"
#include "when.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/*
 * --activity: what the history says of the people of one answer.  The
 * facts come from the activity model (activity.h), as `maintstat
 * activity` reports them, and the verdicts from the engine (verdict.h),
 * as every command's.  With --archive, the
 * list facts are review's (cli-review.h): the patches of the entry each
 * person replied to and the median time of their first replies.
 */
struct cc_act {
	struct ms_activity *a;
	struct ms_project *proj;  /* owns a */
	struct cli_list_facts *lf;   /* with --archive, else NULL */
	struct ms_activity_query q;
	struct ms_act_entry *ents;   /* of the current answer */
	size_t nr;
	bool done_defacto;           /* printed for the current answer */
	bool active_only;
};

void cc_act_compute(struct cc_act *ac, const struct maint_cc *cc)
{
	const struct maint_entry **sel;
	size_t n = maint_cc_nr_entries(cc);

	ms_act_entries_free(ac->ents, ac->nr);
	ac->ents = NULL;
	ac->nr = 0;
	ac->done_defacto = false;
	if (!n || !ac->a)
		return;
	sel = g_new(const struct maint_entry *, n);
	for (size_t i = 0; i < n; i++)
		sel[i] = maint_cc_entry(cc, i);
	ac->q.entries = sel;
	ac->q.nr_entries = n;
	if (ms_activity_query(ac->a, &ac->q, &ac->ents, &ac->nr) < 0) {
		cli_warning("%s", ms_error_last());
		ac->ents = NULL;
		ac->nr = 0;
	}
	g_free(sel);
	ac->q.entries = NULL;
}

static const struct ms_act_entry *act_entry(const struct cc_act *ac,
					    const struct maint_entry *e)
{
	for (size_t i = 0; ac && i < ac->nr; i++)
		if (ac->ents[i].entry == e)
			return &ac->ents[i];
	return NULL;
}

/* The listed person a line stands for (by address, then by name). */
static const struct ms_act_person *act_person(const struct cc_act *ac,
					      const struct maint_cc_line *l)
{
	return maint_cc_line_listed(l) ?
	       ms_act_entry_person(act_entry(ac, l->entry), l->address,
				   l->name) : NULL;
}

/* The verdict (verdict.h) on the listed person line `l` stands for
 * (`p`: their history facts, NULL without a history or when not found). */
static void act_verdict(const struct cc_act *ac,
			const struct maint_cc_line *l,
			const struct ms_act_person *p, struct ms_verdict *v)
{
	const struct ms_act_entry *ae = p ? act_entry(ac, l->entry) : NULL;

	ms_verdict_person(ae, p, l->address, l->entry ?
			  cli_list_facts_entry(ac->lf, l->entry->name) : NULL,
			  ac->lf != NULL, ac->q.active_since, v);
}

/* The list's figures of the person of verdict `v` (a listed line of
 * --archive): the entry's review (NULL: no patch to it on the list) and
 * the person in it, under the address the verdict looked at. */
static const struct ms_rv_entry *list_person(const struct cc_act *ac,
					     const struct maint_cc_line *l,
					     const struct ms_verdict *v,
					     const struct ms_rv_person **out)
{
	const struct ms_rv_entry *e = l->entry ?
		cli_list_facts_entry(ac->lf, l->entry->name) : NULL;

	*out = ms_verdict_listed(e, v->email);
	return e;
}

/* ", 41 replies, median 1.2d" (or ", no patch on the list"), or NULL
 * without --archive, for listed line `l` of verdict `v`; g_free it. */
static char *list_note(const struct cc_act *ac,
		       const struct maint_cc_line *l,
		       const struct ms_verdict *v)
{
	const struct ms_rv_person *p;
	const struct ms_rv_entry *e;
	char d[32];

	if (!ac->lf)
		return NULL;
	e = list_person(ac, l, v, &p);
	if (!e)
		return g_strdup(", no patch on the list");
	if (!p || !p->replied)
		return g_strdup(", 0 replies");
	ms_duration_format(p->has_latency ? p->median_latency : -1, d,
			   sizeof(d));
	return g_strdup_printf(", %zu repl%s, median %s", p->replied,
			       p->replied == 1 ? "y" : "ies", d);
}

/*
 * The de-facto reviewers: the entry's top Reviewed-by/Acked-by givers of
 * the window who are not listed, once each, after the people (before the
 * lists, as get_maintainer.pl puts people first): those
 * ms_verdict_defacto_reviewers() gives.
 */
void cc_act_defacto(struct cc_act *ac, const struct maint_cc *cc,
		    GPtrArray *items, bool roles, bool to_cc)
{
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);

	if (ac->done_defacto) {
		g_hash_table_destroy(seen);
		return;
	}
	ac->done_defacto = true;
	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++)
		g_hash_table_add(seen, g_ascii_strdown(
			maint_cc_line(cc, i)->address, -1));
	for (size_t i = 0; i < ac->nr; i++) {
		const struct ms_act_entry *ae = &ac->ents[i];
		const struct ms_act_count *top;
		size_t nr = ms_verdict_defacto_reviewers(ae, &top);

		for (size_t k = 0; k < nr; k++) {
			const struct ms_act_count *c = &top[k];
			char *lc = g_ascii_strdown(c->email, -1);
			char *who;

			if (!*c->email || g_hash_table_contains(seen, lc)) {
				g_free(lc);
				continue;
			}
			g_hash_table_add(seen, lc);
			who = *c->name ? g_strdup_printf("%s <%s>", c->name,
							  c->email) :
				g_strdup(c->email);
			if (to_cc)
				g_ptr_array_add(items,
						cli_send_email_arg("--cc",
								   c->email));
			else if (roles)
				g_ptr_array_add(items, g_strdup_printf(
					"%s (de-facto reviewer:%s, %zu "
					"review%s)", who, ae->entry->name,
					c->count, c->count == 1 ? "" : "s"));
			else
				g_ptr_array_add(items, g_strdup(who));
			g_free(who);
		}
	}
	g_hash_table_destroy(seen);
}

/* Key "on_list" of a person's activity (the person's figures, not an
 * entry's "list"): null without --archive. */
static void list_json(struct ms_out *o, const struct cc_act *ac,
		      const struct maint_cc_line *l, const struct ms_verdict *v)
{
	const struct ms_rv_person *p = NULL;
	const struct ms_rv_entry *e = NULL;

	ms_out_key(o, "on_list");
	if (!ac->lf) {
		ms_out_null(o);
		return;
	}
	if (maint_cc_line_listed(l))
		e = list_person(ac, l, v, &p);
	ms_out_begin_object(o);
	ms_out_kv_int(o, "patches", e ? (int64_t)e->patches->len : 0);
	ms_out_kv_int(o, "replied", p ? (int64_t)p->replied : 0);
	cli_json_hours(o, "median_latency_hours",
		       p && p->has_latency ? p->median_latency : -1);
	ms_out_kv_bool(o, "active_on_list", ms_verdict_list_active(v));
	ms_out_end_object(o);
}

/*
 * --archive without --repo: the list's facts alone, over the five years
 * before the archive's newest message.  Nobody is called inactive: a
 * quiet list is no evidence (the person may commit, or answer
 * elsewhere), so --active-only has nothing to go by (cmd-maintainers.c
 * refuses it).
 */
static int load_list_only(struct cc_act *act, const struct cli_act_opts *ao)
{
	char from[32], to[32];
	int rc;

	rc = cli_list_facts_load_tree("maintainers", ao, MS_DEFAULT_WINDOW,
				      &act->q.since, &act->q.until, &act->lf);
	if (rc != CLI_CONTINUE)
		return rc;
	ms_act_format(act->q.since, 0, false, true, from);
	ms_act_format(act->q.until, 0, false, true, to);
	fprintf(stderr, "maintstat: list facts only (no --repo): replies to "
		"the entries' patches and median time to a first reply, "
		"%s to %s; no commit facts, and nobody is called inactive\n",
		from, to);
	return CLI_CONTINUE;
}

/* --activity: load the history's model into `act`; CLI_CONTINUE or the
 * exit code. */
static int load_activity(struct cc_act *act, const struct cc_act_args *a)
{
	struct cli_act_opts ao = { 0 };
	int rc;

	ao.maintainers = a->topts->maintainers;
	ao.find_maintainer_files = a->topts->find_maintainer_files;
	ao.store = *a->store;
	ao.archives = *a->archives;
	ao.inactive_after = a->inactive_after ? a->inactive_after :
		MS_DEFAULT_INACTIVE_AFTER;
	if (!a->topts->repo) {
		ao.tree = a->topts->tree;
		return load_list_only(act, &ao);
	}
	ao.repo = a->topts->repo;
	ao.rev = a->topts->rev;
	rc = cli_act_load("maintainers", &ao, MS_DEFAULT_WINDOW_YEARS,
			  &act->proj, &act->a, &act->q.since, &act->q.until,
			  &act->q.active_since, &act->lf);
	if (rc != CLI_CONTINUE)
		return rc;
	/* the list from the window's start to the archive's end: a list
	 * goes on after the newest commit of a checkout */
	rc = cli_list_facts_load("maintainers", &ao, act->q.since, INT64_MAX,
				 act->q.active_since, act->a, &act->lf);
	if (rc != CLI_CONTINUE) {
		cli_project_close(act->proj);
		act->proj = NULL;
		act->a = NULL;
		cli_list_facts_free(act->lf);
		act->lf = NULL;
	}
	return rc;
}


int cc_act_load(const struct cc_act_args *a, struct cc_act **out)
{
	struct cc_act *ac = g_new0(struct cc_act, 1);
	int rc = load_activity(ac, a);

	*out = NULL;
	if (rc != CLI_CONTINUE) {
		g_free(ac);
		return rc;
	}
	ac->active_only = a->active_only;
	*out = ac;
	return CLI_CONTINUE;
}

void cc_act_free(struct cc_act *ac)
{
	if (!ac)
		return;
	ms_act_entries_free(ac->ents, ac->nr);
	cli_project_close(ac->proj);
	cli_list_facts_free(ac->lf);         /* after the project */
	g_free(ac);
}

char *cc_act_note(const struct cc_act *ac, const struct maint_cc_line *l,
		  bool *drop)
{
	struct ms_verdict v;
	char *note = NULL, *ln;

	*drop = false;
	if (!maint_cc_line_listed(l))
		return NULL;
	act_verdict(ac, l, act_person(ac, l), &v);
	if (ms_verdict_mark(&v)) {
		char *text;

		if (ac->active_only) {
			*drop = true;
			return NULL;
		}
		text = ms_verdict_text(&v);
		note = g_strconcat(", ", text, NULL);
		g_free(text);
	}
	ln = list_note(ac, l, &v);
	if (ln) {
		char *both = g_strconcat(ln, note ? note : "", NULL);

		g_free(note);
		g_free(ln);
		note = both;
	}
	return note;
}

void cc_act_json(struct ms_out *o, const struct cc_act *ac,
		 const struct maint_cc_line *l)
{
	const struct ms_act_person *p = act_person(ac, l);
	struct ms_verdict v;
	char d[32];

	ms_out_key(o, "activity");
	if (!p && ac->a) {
		ms_out_null(o);
		return;
	}
	act_verdict(ac, l, p, &v);
	ms_out_begin_object(o);
	cli_json_verdict(o, &v);
	if (!p) {
		/* no history (--archive alone): its keys are null */
		static const char *const keys[] = {
			"seen_anywhere", "last_activity", "authored",
			"committed", "tagged",
		};

		for (size_t k = 0; k < G_N_ELEMENTS(keys); k++)
			ms_out_kv_null(o, keys[k]);
		list_json(o, ac, l, &v);
		ms_out_end_object(o);
		return;
	}
	ms_out_kv_bool(o, "seen_anywhere", p->seen_anywhere);
	if (p->has_last) {
		ms_act_format(p->last_time, p->last_offset, true, false, d);
		ms_out_kv_string(o, "last_activity", d);
	} else {
		ms_out_kv_null(o, "last_activity");
	}
	ms_out_kv_int(o, "authored", (int64_t)p->author.count);
	ms_out_kv_int(o, "committed", (int64_t)p->committer.count);
	ms_out_kv_int(o, "tagged", (int64_t)p->tags.count);
	list_json(o, ac, l, &v);
	ms_out_end_object(o);
}
