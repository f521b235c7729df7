/*
 * review-state.c - where each patch stands (review.h, ms_rv_patch_state;
 * docs/review.md, "Where each patch stands"), the entry's figures over
 * its patches' states, and freeing a report's entries.
 */
#include "review-internal.h"
#include "bytes.h"
#include "ident.h"

#include <string.h>

static const char *const state_names[MS_RV__STATES] = {
	"accepted", "rejected", "withdrawn", "superseded",
	"changes_requested", "waiting_for_maintainer", "waiting", "ignored",
};

const char *ms_rv_state_name(enum ms_rv_state s)
{
	return s < MS_RV__STATES ? state_names[s] : "unknown";
}

bool ms_rv_state_open(enum ms_rv_state s)
{
	return s > MS_RV_SUPERSEDED && s < MS_RV__STATES;
}

bool ms_rv_quantiles(GArray *v, int64_t *median, int64_t *p90)
{
	size_t n = v->len, k;

	*median = *p90 = -1;
	if (!n)
		return false;
	g_array_sort(v, ms_cmp_i64);
	if (n % 2)
		*median = g_array_index(v, int64_t, n / 2);
	else    /* (x + y) / 2 without overflow */
		*median = g_array_index(v, int64_t, n / 2 - 1) / 2 +
			  g_array_index(v, int64_t, n / 2) / 2 +
			  (g_array_index(v, int64_t, n / 2 - 1) % 2 +
			   g_array_index(v, int64_t, n / 2) % 2) / 2;
	k = (size_t)((90 * n + 99) / 100);   /* ceil(0.9 n) */
	*p90 = g_array_index(v, int64_t, k ? k - 1 : 0);
	return true;
}

enum ms_mail_notice ms_rv_notice_for(const struct ms_mail_index *idx,
				     const struct ms_mail_rec *rr,
				     const GPtrArray *keys, const char **commit)
{
	const struct ms_mail_tag *a = ms_mail_index_applied(idx, rr);

	*commit = NULL;
	if (rr->notice != MS_MAIL_NOTICE_APPLIED || !a)
		return (enum ms_mail_notice)rr->notice;
	for (uint16_t k = 0; k < rr->n_applied; k++)
		for (guint v = 0; v < keys->len; v++)
			if (!g_strcmp0(a[k].name, keys->pdata[v])) {
				*commit = a[k].email;
				return MS_MAIL_NOTICE_APPLIED;
			}
	return MS_MAIL_NOTICE_NOTE;
}

/* Event `e` is earlier than the one `why` holds (or it holds none). */
static void take(struct ms_rv_evidence *why, const struct ms_rv_event *e)
{
	if (why->by == MS_RV_BY_NONE || e->date < why->date) {
		why->by = MS_RV_BY_MESSAGE;
		why->rec = e->rec;
		why->applied = e->applied;
		why->date = e->date;
	}
}

/* Whether `e` tells that the patch was applied: an applied notice from
 * a bot, a listed person or a committer of the entry, or from anyone
 * when it names the commit (a b4 ty item's "commit: <sha>"; on
 * linux-leds, Lee Jones' notices after he took over LED, beside a
 * MAINTAINERS of before) or is a pull request whose shortlog names the
 * patch (linux-watchdog's maintainer applies without a word, then asks
 * Linus to pull). */
static bool applies(const struct ms_rv_event *e)
{
	return e->notice == MS_MAIL_NOTICE_APPLIED &&
	       (e->kind == MS_MAIL_BOT || e->kind == MS_MAIL_PULL ||
		e->by_listed || e->by_committer ||
		(e->applied && *e->applied));
}

/* The author takes the newest version back: "please ignore", or a NAK
 * of their own. */
static bool withdraws(const struct ms_rv_event *e)
{
	return e->newest && e->by_author && e->kind != MS_MAIL_BOT &&
	       (e->notice == MS_MAIL_NOTICE_WITHDRAWN ||
		e->notice == MS_MAIL_NOTICE_REJECTED);
}

static bool rejects(const struct ms_rv_event *e)
{
	return e->newest && !e->by_author && e->by_listed &&
	       e->notice == MS_MAIL_NOTICE_REJECTED;
}

/* The decided states, first that holds: accepted, withdrawn, rejected. */
static bool decided(const struct ms_rv_event *ev, size_t n,
		    const struct ms_rv_patch *pt, int64_t commit_time,
		    struct ms_rv_evidence *why, enum ms_rv_state *state)
{
	bool (*const rules[])(const struct ms_rv_event *) = {
		applies, withdraws, rejects,
	};
	const enum ms_rv_state states[] = {
		MS_RV_ACCEPTED, MS_RV_WITHDRAWN, MS_RV_REJECTED,
	};

	for (size_t r = 0; r < G_N_ELEMENTS(rules); r++) {
		for (size_t i = 0; i < n; i++)
			if (rules[r](&ev[i]))
				take(why, &ev[i]);
		if (r == 0 && pt->merged &&
		    (why->by == MS_RV_BY_NONE || commit_time < why->date)) {
			why->by = MS_RV_BY_COMMIT;
			why->commit = pt->commit;
			why->applied = NULL;
			why->date = commit_time;
		}
		if (why->by != MS_RV_BY_NONE) {
			*state = states[r];
			return true;
		}
	}
	return false;
}

/* A request for changes: new text from a listed person or a reviewer,
 * neither a review tag, thanks only, nor an applied notice (one that
 * does not accept: words from someone not listed). */
static bool requests(const struct ms_rv_event *e)
{
	return e->human && (e->by_listed || e->by_reviewer) && !e->tag &&
	       e->notice != MS_MAIL_NOTICE_NOTE &&
	       e->notice != MS_MAIL_NOTICE_APPLIED;
}

/* Whether `e` answers the newest version in a way that decides whether
 * changes are requested: a request, a review tag, or the author's
 * answer (which hands the patch back to its reviewers). */
static bool weighs(const struct ms_rv_event *e)
{
	return e->newest && e->kind != MS_MAIL_BOT &&
	       (requests(e) || (e->human && e->tag) || e->by_author);
}

enum ms_rv_state ms_rv_patch_state(const struct ms_rv_event *ev, size_t n,
				   const struct ms_rv_patch *pt,
				   int64_t commit_time,
				   struct ms_rv_evidence *why)
{
	const struct ms_rv_event *last = NULL, *tag = NULL, *word = NULL;
	bool listed = false;
	enum ms_rv_state state;

	memset(why, 0, sizeof(*why));
	if (decided(ev, n, pt, commit_time, why, &state))
		return state;
	for (size_t i = 0; i < n; i++) {
		const struct ms_rv_event *e = &ev[i];

		if (weighs(e) && (!word || e->date >= word->date))
			word = e;
		if (!e->newest || !e->human)
			continue;
		if (!last || e->date >= last->date)
			last = e;
		if (e->tag && (!tag || e->date < tag->date))
			tag = e;
		listed |= e->by_listed;
	}
	if (word && requests(word)) {
		take(why, word);
		return MS_RV_CHANGES_REQUESTED;
	}
	if (tag && !listed) {
		take(why, tag);
		return MS_RV_WAITING_FOR_MAINTAINER;
	}
	if (last)
		take(why, last);
	return pt->ignored ? MS_RV_IGNORED : MS_RV_WAITING;
}

void ms_rv_entry_states(struct ms_rv_entry *e, int64_t until)
{
	GArray *revs = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GArray *acc = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GArray *age = g_array_new(FALSE, FALSE, sizeof(int64_t));
	size_t rejected;
	int64_t p90;

	for (guint i = 0; i < e->patches->len; i++) {
		const struct ms_rv_patch *pt = &g_array_index(e->patches,
			struct ms_rv_patch, i);
		int64_t v = pt->postings->len, t = pt->why.date - pt->posted;

		e->states[pt->state]++;
		e->states[MS_RV_SUPERSEDED] += pt->postings->len - 1;
		if (pt->state == MS_RV_ACCEPTED) {
			g_array_append_val(revs, v);
			t = t < 0 ? 0 : t;
			g_array_append_val(acc, t);
		} else if (ms_rv_state_open(pt->state)) {
			/* without a window's end (maintainers --activity)
			 * the queue has a size but no age */
			e->open++;
			if (until == INT64_MAX)
				continue;
			t = until > pt->posted ? until - pt->posted : 0;
			g_array_append_val(age, t);
		}
	}
	rejected = e->states[MS_RV_REJECTED];
	e->accept_rate = acc->len + rejected ?
		(double)acc->len / (double)(acc->len + rejected) : -1;
	ms_rv_quantiles(revs, &e->revisions_median, &p90);
	ms_rv_quantiles(acc, &e->accept_median, &e->accept_p90);
	ms_rv_quantiles(age, &e->open_median, &e->open_p90);
	g_array_free(revs, TRUE);
	g_array_free(acc, TRUE);
	g_array_free(age, TRUE);
}

/* Whether `e` lists person `person` (an ident id) or address `email`. */
static bool lists(const struct ms_rv_entry *e, unsigned person,
		  const char *email)
{
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		if ((person != MS_IDENT_NONE && p->person == person) ||
		    (email && !g_ascii_strcasecmp(p->email, email)))
			return true;
	}
	return false;
}

static int cmp_pending(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct ms_review *rv = data;
	const struct ms_rv_pending *x = a, *y = b;
	const struct ms_rv_entry *ex = rv->entries->pdata[x->entry];
	const struct ms_rv_entry *ey = rv->entries->pdata[y->entry];
	int64_t px = g_array_index(ex->patches, struct ms_rv_patch,
				   x->patch).posted;
	int64_t py = g_array_index(ey->patches, struct ms_rv_patch,
				   y->patch).posted;

	if (px != py)
		return px < py ? -1 : 1;
	return x->entry != y->entry ? (x->entry < y->entry ? -1 : 1) :
	       (x->patch > y->patch) - (x->patch < y->patch);
}

/* Whether record `rec` was sent by person `person` (an ident id) or
 * address `email`. */
static bool sent_by(const struct ms_mail_index *idx, struct ms_ident *ident,
		    uint32_t rec, unsigned person, const char *email)
{
	const struct ms_mail_rec *r = ms_mail_index_get(idx, rec);

	return (person != MS_IDENT_NONE &&
		ms_ident_resolve(ident, r->sender_name, r->sender_email) ==
		person) ||
	       (email && r->sender_email &&
		!g_ascii_strcasecmp(r->sender_email, email));
}

GArray *ms_rv_pending(const struct ms_review *rv,
		      const struct ms_mail_index *idx, struct ms_ident *ident,
		      unsigned person, const char *email, size_t *listing)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct ms_rv_pending));
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	bool who = person != MS_IDENT_NONE || email;

	*listing = 0;
	for (guint i = 0; i < rv->entries->len; i++) {
		const struct ms_rv_entry *e = rv->entries->pdata[i];

		if (who && !lists(e, person, email))
			continue;
		++*listing;
		for (guint k = 0; k < e->patches->len; k++) {
			const struct ms_rv_patch *pt = &g_array_index(
				e->patches, struct ms_rv_patch, k);
			gpointer first = GUINT_TO_POINTER(g_array_index(
				pt->postings, uint32_t, 0) + 1);
			struct ms_rv_pending pd = { i, k };

			if (!ms_rv_state_open(pt->state) ||
			    g_hash_table_contains(seen, first))
				continue;
			/* their own answer is the last word so far; their
			 * own posting waits on others, not on them */
			if (who && ((pt->why.by == MS_RV_BY_MESSAGE &&
				     sent_by(idx, ident, pt->why.rec, person,
					     email)) ||
				    sent_by(idx, ident, g_array_index(
					    pt->postings, uint32_t,
					    pt->postings->len - 1), person,
					    email)))
				continue;
			g_hash_table_add(seen, first);
			g_array_append_val(out, pd);
		}
	}
	g_hash_table_unref(seen);
	g_array_sort_with_data(out, cmp_pending, (gpointer)rv);
	return out;
}

/* The person of entry `e` whose ident id is `person`, or NULL. */
static const struct ms_rv_person *entry_person(const struct ms_rv_entry *e,
					       unsigned person)
{
	const GPtrArray *in[2] = { e->listed, e->others };

	for (int k = 0; k < 2 && person != MS_IDENT_NONE; k++)
		for (guint i = 0; i < in[k]->len; i++)
			if (((struct ms_rv_person *)in[k]->pdata[i])->person ==
			    person)
				return in[k]->pdata[i];
	return NULL;
}

size_t ms_rv_answered(const struct ms_rv_entry *e,
		      const struct ms_mail_index *idx, struct ms_ident *ident,
		      const struct ms_rv_patch *pt, struct ms_rv_answer out[3])
{
	const struct ms_rv_reply *r[3] = { &pt->first, &pt->first_maint,
					   &pt->first_tag };
	const bool has[3] = { pt->has_first, pt->has_maint, pt->has_tag };
	size_t n = 0;

	for (int i = 0; i < 3; i++) {
		const struct ms_mail_rec *m;
		const struct ms_rv_person *p;
		struct ms_rv_answer a;
		bool dup = false;

		if (!has[i])
			continue;
		m = ms_mail_index_get(idx, r[i]->rec);
		if (!m->sender_email)
			continue;
		p = ident ? entry_person(e, ms_ident_resolve(ident,
				m->sender_name, m->sender_email)) : NULL;
		a.name = p ? p->name : m->sender_name;
		a.email = p ? p->email : m->sender_email;
		for (size_t k = 0; k < n; k++)
			dup |= !g_ascii_strcasecmp(out[k].email, a.email);
		if (!dup)
			out[n++] = a;
	}
	return n;
}

static gint cmp_first(gconstpointer a, gconstpointer b)
{
	const struct ms_rv_person *x = *(struct ms_rv_person *const *)a;
	const struct ms_rv_person *y = *(struct ms_rv_person *const *)b;

	if (x->first_responses != y->first_responses)
		return x->first_responses > y->first_responses ? -1 : 1;
	return g_strcmp0(x->email, y->email);
}

GPtrArray *ms_rv_first_responders(const struct ms_rv_entry *e, size_t max)
{
	GPtrArray *all = g_ptr_array_new();

	for (guint i = 0; i < e->listed->len; i++)
		if (((struct ms_rv_person *)e->listed->pdata[i])->first_responses)
			g_ptr_array_add(all, e->listed->pdata[i]);
	for (guint i = 0; i < e->others->len; i++)
		if (((struct ms_rv_person *)e->others->pdata[i])->first_responses)
			g_ptr_array_add(all, e->others->pdata[i]);
	g_ptr_array_sort(all, cmp_first);
	if (all->len > max)
		g_ptr_array_set_size(all, (guint)max);
	return all;
}

int64_t ms_rv_last_message(const struct ms_mail_index *idx,
			   const struct ms_rv_patch *pt)
{
	int64_t t = ms_rv_newest_posting(idx, pt->postings);

	return pt->why.by == MS_RV_BY_MESSAGE && pt->why.date > t ?
	       pt->why.date : t;
}

void ms_rv_entry_free(struct ms_rv_entry *e)
{
	if (!e)
		return;
	for (guint i = 0; i < e->patches->len; i++)
		g_array_free(g_array_index(e->patches, struct ms_rv_patch,
					   i).postings, TRUE);
	g_array_free(e->patches, TRUE);
	g_ptr_array_unref(e->listed);
	g_ptr_array_unref(e->others);
	g_array_free(e->tags_dropped, TRUE);
	g_array_free(e->tags_untraced, TRUE);
	for (guint i = 0; i < e->aliases->len; i++) {
		struct ms_rv_alias *a = e->aliases->pdata[i];

		g_ptr_array_unref(a->people);
		g_free(a);
	}
	g_ptr_array_unref(e->aliases);
	g_ptr_array_unref(e->defacto);
	g_clear_pointer(&e->intervals, g_ptr_array_unref);
	g_ptr_array_set_free_func(e->strings, g_free);
	g_ptr_array_unref(e->strings);
	g_free(e);
}

void ms_review_free(struct ms_review *rv)
{
	if (!rv)
		return;
	for (guint i = 0; i < rv->entries->len; i++)
		ms_rv_entry_free(rv->entries->pdata[i]);
	g_ptr_array_unref(rv->entries);
	g_hash_table_unref(rv->strings);
	if (rv->aside_list)
		g_array_free(rv->aside_list, TRUE);
	g_free(rv->bounds);
	ms_ident_free(rv->own_ident);
	g_free(rv);
}
