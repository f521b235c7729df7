/*
 * activity-query.c - the questions asked of the activity model
 * (activity.h): one window (ms_activity_query()) and a series of them
 * (ms_activity_query_series()).
 */
#include "activity.h"
#include "activity-internal.h"
#include "ident.h"
#include "maintainers.h"
#include "person.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- queries ---- */

struct act_work {
	GHashTable *reviewers;    /* person -> count */
	GHashTable *committers;
};

static void inc(GHashTable *h, unsigned person)
{
	gpointer k = GUINT_TO_POINTER(person + 1);

	g_hash_table_insert(h, k, GSIZE_TO_POINTER(
		GPOINTER_TO_SIZE(g_hash_table_lookup(h, k)) + 1));
}

static int cmp_count(const void *x, const void *y)
{
	const struct ms_act_count *a = x, *b = y;
	int c;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	c = strcmp(a->email, b->email);
	return c ? c : strcmp(a->name, b->name);
}

static size_t top(const struct ms_activity *a, GHashTable *h,
		  struct ms_act_count *out)
{
	GHashTableIter it;
	gpointer k, v;
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct ms_act_count));
	size_t n;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct ms_act_count c;

		c.person = GPOINTER_TO_UINT(k) - 1;
		c.name = ms_ident_name(a->ident, c.person);
		c.email = ms_ident_email(a->ident, c.person);
		c.count = GPOINTER_TO_SIZE(v);
		g_array_append_val(all, c);
	}
	g_array_sort(all, cmp_count);
	n = MIN(all->len, MS_ACT_TOP);
	if (n)
		memcpy(out, all->data, n * sizeof(*out));
	g_array_free(all, TRUE);
	return n;
}

static bool listed(const struct ms_act_entry *e, unsigned person)
{
	for (size_t i = 0; i < e->nr_people; i++)
		if (e->people[i].person == person)
			return true;
	return false;
}

/*
 * Count each reviewer of record `r` (its tags from `tags`) once in
 * `reviewers`, leaving out its author and the people `e` lists: the
 * entry's unlisted reviewers in a window.
 */
static void count_reviewers(GHashTable *reviewers,
			    const struct ms_act_entry *e, const struct crec *r,
			    const struct ctag *tags)
{
	for (unsigned t = 0; t < r->nr_tag; t++) {
		unsigned p = tags[t].person;
		bool dup = false;

		if (!tags[t].review || p == r->author || listed(e, p))
			continue;
		for (unsigned u = 0; u < t && !dup; u++)
			dup = tags[u].review && tags[u].person == p;
		if (!dup)
			inc(reviewers, p);
	}
}

/* The person's addresses other than the listed one. */
static char **also(const struct ms_activity *a, const struct ms_act_person *p)
{
	char **all, *listed;
	size_t n = 0;

	if (p->person == MS_IDENT_NONE)
		return g_new0(char *, 1);
	all = ms_ident_group_addresses(a->ident, p->person);
	listed = ms_email_normalize(p->email, !a->no_plus_fold);
	for (size_t i = 0; all[i]; i++) {
		if (!strcmp(all[i], listed))
			g_free(all[i]);
		else
			all[n++] = all[i];
	}
	all[n] = NULL;
	g_free(listed);
	return all;
}

static void init_entry(const struct ms_activity *a, struct ms_act_entry *e,
		       const struct maint_entry *me)
{
	e->entry = me;
	e->no_files = a->has_files && !a->has_files[me->index];
	e->people = g_new0(struct ms_act_person, me->nr_fields);
	for (size_t f = 0; f < me->nr_fields; f++) {
		const struct maint_field *fl = &me->fields[f];
		struct ms_act_person *p;
		char *name = NULL, *email = NULL;

		if (fl->key == 'S' && !e->status)
			e->status = fl->value;
		if (fl->key != 'M' && fl->key != 'R')
			continue;
		p = &e->people[e->nr_people++];
		p->role = fl->key;
		if (fl->key == 'M')
			e->nr_maintainers++;
		maint_parse_person(fl->value, &name, &email);
		p->person = ms_ident_resolve(a->ident, name, email);
		p->name = name ? name : g_strdup("");
		p->email = email ? email : g_strdup("");
		p->also = also(a, p);
	}
}

/* What follows from an entry's facts once every record is counted. */
static void finish_entry(const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 struct ms_act_entry *e, struct act_work *w,
			 const bool *seen, size_t nr_people,
			 bool short_history)
{
	for (size_t pi = 0; pi < e->nr_people; pi++) {
		struct ms_act_person *p = &e->people[pi];
		struct ms_act_last *last[] = {
			&p->author, &p->committer, &p->tags,
		};

		for (int k = 0; k < 3; k++)
			if (last[k]->set)
				act_set_id(last[k]->id, last[k]->raw);
		p->seen_anywhere = p->person != MS_IDENT_NONE &&
			p->person < nr_people && seen[p->person];
		p->role_why = act_role_address(a, p);
		p->role_address = p->role_why != MS_ACT_ROLE_NONE;
		p->inactive = (!p->has_last ||
			       p->last_time < q->active_since) &&
			!p->role_address && !e->no_files && !short_history;
		if (p->has_last && (!e->has_last_activity ||
		    p->last_time > e->last_activity)) {
			e->has_last_activity = true;
			e->last_activity = p->last_time;
			e->last_activity_offset = p->last_offset;
		}
	}
	if (w->reviewers) {
		e->nr_top_reviewers = top(a, w->reviewers, e->top_reviewers);
		g_hash_table_destroy(w->reviewers);
	}
	if (w->committers) {
		e->nr_top_committers = top(a, w->committers,
					   e->top_committers);
		g_hash_table_destroy(w->committers);
	}
	w->reviewers = w->committers = NULL;
}

/* Mark in `seen` the people record `r` names: its author, its committer
 * and the people of its trailers `tags`. */
static void mark_people(const struct crec *r, const struct ctag *tags,
			bool *seen)
{
	if (r->author != MS_IDENT_NONE)
		seen[r->author] = true;
	if (r->committer != MS_IDENT_NONE)
		seen[r->committer] = true;
	for (unsigned t = 0; t < r->nr_tag; t++)
		seen[tags[t].person] = true;
}

/*
 * The listed people's strings of a series (activity.h): the running
 * entries, which own them, kept until the last interval's entry that
 * borrows them is freed.
 */
struct act_names {
	gint ref;
	struct ms_act_entry *run;
	size_t n;
	/* the intervals' copies, made in one block of memory touched at
	 * once (arena_used of arena_size bytes), or NULL */
	char *arena;
	size_t arena_size, arena_used, copy_size;
};

/* Whether `e` is a copy made in the arena of `nm`. */
static bool in_arena(const struct act_names *nm, const void *e)
{
	return nm->arena && (const char *)e >= nm->arena &&
		(const char *)e < nm->arena + nm->arena_size;
}

static void names_unref(struct act_names *nm)
{
	if (nm && g_atomic_int_dec_and_test(&nm->ref)) {
		ms_act_entries_free(nm->run, nm->n);
		g_free(nm->arena);
		g_free(nm);
	}
}

const struct ms_act_person *ms_act_entry_person(const struct ms_act_entry *e,
						const char *email,
						const char *name)
{
	for (size_t i = 0; e && i < e->nr_people; i++)
		if (!g_ascii_strcasecmp(e->people[i].email, email))
			return &e->people[i];
	for (size_t i = 0; e && name && *name && i < e->nr_people; i++)
		if (*e->people[i].name && strstr(name, e->people[i].name))
			return &e->people[i];
	return NULL;
}

void ms_act_entries_free(struct ms_act_entry *e, size_t nr)
{
	bool arena = nr && e && e[0].names && in_arena(e[0].names, e);

	if (!e)
		return;
	for (size_t i = 0; i < nr; i++) {
		if (e[i].names) {
			/* a series' entries: their people are one block */
			if (i == 0 && !arena)
				g_free(e[i].people);
			names_unref(e[i].names);
			continue;
		}
		for (size_t k = 0; k < e[i].nr_people; k++) {
			g_free(e[i].people[k].name);
			g_free(e[i].people[k].email);
			g_strfreev(e[i].people[k].also);
		}
		g_free(e[i].people);
	}
	if (!arena)
		g_free(e);
}

/* ---- windows: one, or a series in one pass ---- */

/*
 * A window asks of every record up to its end (the last activity, who
 * was ever seen), so a series of windows asked one by one costs windows
 * x records: 61 months of U-Boot, 2.4 s.  The records are in walk order,
 * newest commit time first; read from the oldest, the records up to each
 * window's end are those up to the previous window's end and the ones
 * after it: the "last" facts are kept running and copied at each
 * window's end, and each window counts only its own records.  The first
 * record in walk order of the newest date names a "last" fact's commit
 * and offset (within a record: author, committer, tags); reading
 * backwards, a record replaces an equal date (within a record: tags,
 * committer, author).  One window is a series of one.
 */

static void bump(struct ms_act_last *l, const struct crec *r, int64_t t,
		      int off, const char *tag)
{
	if (!l->set || t >= l->time) {
		l->set = true;
		l->time = t;
		l->offset = off;
		l->raw = r->raw;
		l->tag = tag;
	}
}

static void seen_at(struct ms_act_person *p, int64_t t, int off)
{
	if (!p->has_last || t >= p->last_time) {
		p->has_last = true;
		p->last_time = t;
		p->last_offset = off;
	}
}

/* The first trailer of `r` naming `person`, or NULL. */
static const struct ctag *first_tag(const struct ctag *tags,
				    const struct crec *r, unsigned person)
{
	for (unsigned t = 0; t < r->nr_tag; t++)
		if (tags[t].person == person)
			return &tags[t];
	return NULL;
}

/* One record into the running "last" facts, read oldest first. */
static void series_last(const struct ms_activity *a, struct ms_act_entry *run,
			const int *slot, size_t nr_all, const struct crec *r,
			bool *seen)
{
	const struct ctag *tags = &g_array_index(a->tags, struct ctag,
						 r->tag_off);
	const uint32_t *ents = &g_array_index(a->ents, uint32_t, r->ent_off);

	mark_people(r, tags, seen);
	for (unsigned k = 0; k < r->nr_ent; k++) {
		struct ms_act_entry *e;

		if (ents[k] >= nr_all || slot[ents[k]] < 0)
			continue;
		e = &run[slot[ents[k]]];
		for (size_t pi = 0; pi < e->nr_people; pi++) {
			struct ms_act_person *p = &e->people[pi];
			const struct ctag *tg;

			if (p->person == MS_IDENT_NONE)
				continue;
			tg = first_tag(tags, r, p->person);
			if (tg) {
				bump(&p->tags, r, r->ctime, r->coff,
					  tg->token);
				seen_at(p, r->ctime, r->coff);
			}
			if (r->committer == p->person) {
				bump(&p->committer, r, r->ctime, r->coff,
					  NULL);
				seen_at(p, r->ctime, r->coff);
			}
			if (r->author == p->person) {
				bump(&p->author, r, r->atime, r->aoff,
					  NULL);
				seen_at(p, r->atime, r->aoff);
			}
		}
	}
}

/* One record up to the window's end into its counts: `inwin`, inside the
 * window; `cutoff`, at or after the query's active_since. */
static void series_count(const struct ms_activity *a,
			 struct ms_act_entry *res, struct act_work *w,
			 const int *slot, size_t nr_all, const struct crec *r,
			 bool inwin, bool cutoff)
{
	const struct ctag *tags = &g_array_index(a->tags, struct ctag,
						 r->tag_off);
	const uint32_t *ents = &g_array_index(a->ents, uint32_t, r->ent_off);

	for (unsigned k = 0; k < r->nr_ent; k++) {
		struct act_work *wk;
		struct ms_act_entry *e;

		if (ents[k] >= nr_all || slot[ents[k]] < 0)
			continue;
		wk = &w[slot[ents[k]]];
		e = &res[slot[ents[k]]];
		if (cutoff)
			e->cutoff_commits++;
		if (!inwin)
			continue;
		/* the window's commits, the reviewed ones, who applied them
		 * and the unlisted reviewers (tables made on first use) */
		e->commits++;
		if (r->reviewed)
			e->reviewed++;
		if (!wk->committers)
			wk->committers = g_hash_table_new(NULL, NULL);
		if (!wk->reviewers)
			wk->reviewers = g_hash_table_new(NULL, NULL);
		if (r->applier != MS_IDENT_NONE)
			inc(wk->committers, r->applier);
		count_reviewers(wk->reviewers, e, r, tags);
		for (size_t pi = 0; pi < e->nr_people; pi++) {
			struct ms_act_person *p = &e->people[pi];

			if (p->person == MS_IDENT_NONE)
				continue;
			if (r->author == p->person)
				p->author.count++;
			if (r->committer == p->person)
				p->committer.count++;
			if (first_tag(tags, r, p->person))
				p->tags.count++;
		}
	}
}

/*
 * A copy of the running entries `run`, whose people's strings it borrows
 * from `names` (a reference per entry): copying every listed person's
 * name, address and other addresses for every interval was a fifth of a
 * warm `activity --by month` on U-Boot.
 */
static struct ms_act_entry *entries_dup(const struct ms_act_entry *run,
					size_t n, struct act_names *names)
{
	struct ms_act_entry *res;
	struct ms_act_person *block;
	size_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += run[i].nr_people;
	if (n && names->arena &&
	    names->arena_used + names->copy_size <= names->arena_size) {
		res = (struct ms_act_entry *)(void *)(names->arena +
						      names->arena_used);
		block = (struct ms_act_person *)(void *)(res + n);
		names->arena_used += names->copy_size;
	} else {
		res = g_new(struct ms_act_entry, n ? n : 1);
		/* every entry's people in one block, the first entry's
		 * first */
		block = g_new(struct ms_act_person, total ? total : 1);
	}
	memcpy(res, run, n * sizeof(*res));
	for (size_t i = 0; i < n; i++) {
		res[i].people = block;
		memcpy(block, run[i].people,
		       run[i].nr_people * sizeof(*block));
		block += run[i].nr_people;
		res[i].names = names;
		g_atomic_int_inc(&names->ref);
	}
	if (!n)
		g_free(block);
	return res;
}

/*
 * The arena of the `nq` copies of a series: each copy's entries and
 * people are fresh memory, and first touching it a page fault at a time
 * was most of copying them (46 MB for U-Boot's 61 months); the kernel
 * fills the arena's pages in one call instead (MADV_POPULATE_WRITE,
 * Linux 5.14; without it, as before).
 */
static void arena_init(struct act_names *nm, size_t nq)
{
	size_t total = 0, size;
	long page = sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < nm->n; i++)
		total += nm->run[i].nr_people;
	nm->copy_size = nm->n * sizeof(struct ms_act_entry) +
		total * sizeof(struct ms_act_person);
	if (!nm->n || nq < 2 || page <= 0 ||
	    nm->copy_size > (SIZE_MAX >> 2) / nq)
		return;
	size = nq * nm->copy_size;
	nm->arena = g_malloc(size);
	nm->arena_size = size;
#ifdef MADV_POPULATE_WRITE
	{
		uintptr_t from = ((uintptr_t)nm->arena + (size_t)page - 1) &
				 ~((uintptr_t)page - 1);
		uintptr_t to = ((uintptr_t)nm->arena + size) &
			       ~((uintptr_t)page - 1);

		/* an old kernel refuses: the pages come a fault at a time */
		if (to > from)
			(void)madvise((void *)from, to - from,
				      MADV_POPULATE_WRITE);
	}
#endif
}

/*
 * The one pass of a series: `run` holds the running "last" facts of the
 * entries (no counts) and `seen` who was ever seen, both as of the
 * records read so far, those from `ci` on (the records are in walk
 * order, newest first, and are read oldest first).  When the records are
 * not in commit time order (clock skew), each window reads again every
 * record up to its end (a record read twice changes nothing).
 */
struct series {
	const struct ms_activity *a;
	const struct ms_activity_query *qs;
	size_t n;                 /* entries in each window */
	size_t nr_all;            /* entries of the MAINTAINERS file */
	size_t nr_people;
	struct ms_act_entry *run;
	struct act_names *names;  /* owns run; the copies borrow its strings */
	struct act_work *w;
	int *slot;                /* entry index -> position, or -1 */
	bool *seen;               /* per person id */
	guint ci;
	bool sorted;              /* records in commit time order */
};

/* Whether the windows can share a pass: their ends in order, the same
 * entries. */
static bool series_fits(const struct ms_activity_query *qs, size_t nq)
{
	for (size_t i = 1; i < nq; i++)
		if (qs[i].until < qs[i - 1].until ||
		    qs[i].entries != qs[0].entries ||
		    qs[i].nr_entries != qs[0].nr_entries)
			return false;
	return true;
}

static const struct crec *rec(const struct ms_activity *a, guint ci)
{
	return &g_array_index(a->commits, struct crec, ci);
}

static void series_init(struct series *s, const struct ms_activity *a,
			const struct ms_activity_query *qs, size_t nq)
{
	memset(s, 0, sizeof(*s));
	s->a = a;
	s->qs = qs;
	s->nr_all = maint_file_nr_entries(a->mf);
	s->nr_people = ms_ident_count(a->ident);
	s->n = nq && qs[0].entries ? qs[0].nr_entries : s->nr_all;
	s->run = g_new0(struct ms_act_entry, s->n ? s->n : 1);
	s->w = g_new0(struct act_work, s->n ? s->n : 1);
	s->slot = g_new(int, s->nr_all ? s->nr_all : 1);
	s->seen = g_new0(bool, s->nr_people ? s->nr_people : 1);
	s->ci = a->commits->len;
	s->sorted = true;
	for (guint ci = 1; ci < a->commits->len && s->sorted; ci++)
		s->sorted = rec(a, ci)->ctime <= rec(a, ci - 1)->ctime;
	for (size_t i = 0; i < s->nr_all; i++)
		s->slot[i] = -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct maint_entry *me = nq && qs[0].entries ?
			qs[0].entries[i] : maint_file_entry(a->mf, i);

		init_entry(a, &s->run[i], me);
		s->slot[me->index] = (int)i;
	}
	s->names = g_new0(struct act_names, 1);
	s->names->ref = 1;
	s->names->run = s->run;
	s->names->n = s->n;
	arena_init(s->names, nq);
}

static void series_release(struct series *s)
{
	/* the windows' entries may still borrow its strings */
	names_unref(s->names);
	g_free(s->seen);
	g_free(s->slot);
	g_free(s->w);
}

/* Window k: the records up to its end read into the running facts, then
 * a copy of them with the window's own records counted. */
static struct ms_act_entry *series_window(struct series *s, size_t k)
{
	const struct ms_activity *a = s->a;
	const struct ms_activity_query *q = &s->qs[k];
	bool short_history = a->shallow && (!a->commits->len ||
					    a->oldest > q->active_since);
	/* commit times from which a record can count (--since REV: all) */
	int64_t lo = MIN(q->since, q->active_since);
	struct ms_act_entry *res;
	guint ci;

	if (a->in_range && q->since <= a->range_since)
		lo = INT64_MIN;
	/* the records up to the window's end, oldest first */
	for (ci = s->sorted ? s->ci : a->commits->len; ci > 0; ci--) {
		if (rec(a, ci - 1)->ctime <= q->until)
			series_last(a, s->run, s->slot, s->nr_all,
				    rec(a, ci - 1), s->seen);
		else if (s->sorted)
			break;
	}
	if (s->sorted)
		s->ci = ci;
	res = entries_dup(s->run, s->n, s->names);
	/* the window's own, in walk order */
	for (ci = s->sorted ? s->ci : 0; ci < a->commits->len; ci++) {
		const struct crec *r = rec(a, ci);
		int inwin = ms_activity_record_window(a, ci, q->since,
						      q->until);
		bool cutoff = r->ctime >= q->active_since;

		if (r->ctime < lo && s->sorted)
			break;
		if (inwin > 0 || (!inwin && cutoff))
			series_count(a, res, s->w, s->slot, s->nr_all, r,
				     inwin > 0, cutoff);
	}
	for (size_t i = 0; i < s->n; i++)
		finish_entry(a, q, &res[i], &s->w[i], s->seen, s->nr_people,
			     short_history);
	return res;
}

int ms_activity_query_series(const struct ms_activity *a,
			     const struct ms_activity_query *qs, size_t nq,
			     struct ms_act_entry **out, size_t *nr)
{
	struct series s;

	*nr = 0;
	if (!nq)
		return 0;
	if (!series_fits(qs, nq)) {
		for (size_t k = 0; k < nq; k++)
			if (ms_activity_query_series(a, &qs[k], 1, &out[k],
						     nr) < 0)
				return -1;
		return 0;
	}
	series_init(&s, a, qs, nq);
	for (size_t k = 0; k < nq; k++)
		out[k] = series_window(&s, k);
	*nr = s.n;
	series_release(&s);
	return 0;
}

int ms_activity_query(const struct ms_activity *a,
		      const struct ms_activity_query *q,
		      struct ms_act_entry **out, size_t *nr)
{
	struct ms_act_entry *res;

	if (ms_activity_query_series(a, q, 1, out, nr) < 0)
		return -1;
	res = *out;
	/* listed after the window began: too new to judge (a series'
	 * intervals are not asked: a read of MAINTAINERS each) */
	for (size_t i = 0; i < *nr; i++) {
		for (size_t pi = 0; pi < res[i].nr_people; pi++) {
			struct ms_act_person *p = &res[i].people[pi];

			if (p->inactive && act_listed_then(a, res[i].entry, p,
							   q->active_since) ==
			    0) {
				p->inactive = false;
				p->listed_late = true;
			}
		}
	}
	return 0;
}
