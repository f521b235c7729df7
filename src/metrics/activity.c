#include "activity.h"
#include "activity-internal.h"
#include "history.h"
#include "ident.h"
#include "mail.h"
#include "person.h"
#include "store.h"
#include "maintainers.h"
#include "tree.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dates ---- */

/* The range GDateTime can represent: 0001-01-01 to 9999-12-31. */
#define DATE_MIN INT64_C(-62135596800)
#define DATE_MAX INT64_C(253402300799)

int64_t ms_act_date_shift(int64_t t, int years)
{
	GDateTime *d, *s;
	int64_t r;

	/* saturated: a time or a shift out of range ends at the range */
	t = CLAMP(t, DATE_MIN, DATE_MAX);
	d = g_date_time_new_from_unix_utc(t);
	s = d ? g_date_time_add_years(d, years) : NULL;
	r = s ? g_date_time_to_unix(s) : years < 0 ? DATE_MIN : DATE_MAX;
	g_clear_pointer(&s, g_date_time_unref);
	g_clear_pointer(&d, g_date_time_unref);
	return r;
}

static void put_digits(char *p, int64_t v, int n)
{
	while (n-- > 0) {
		p[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

/*
 * Without a GDateTime and a printf per date: a JSON report writes
 * thousands (days to the civil date: H. Hinnant's algorithm).  "?"
 * outside the years 1 to 9999, GDateTime's range.
 */
void ms_act_format(int64_t t, int offset, bool iso, bool date_only,
		   char buf[32])
{
	int64_t s = t + (int64_t)offset * 60, days, sec, era, doe, yoe, y;
	int64_t doy, mp, m, dd;
	int off = offset < 0 ? -offset : offset;
	char *p = buf;

	if (s < DATE_MIN || s > DATE_MAX) {
		g_strlcpy(buf, "?", 32);
		return;
	}
	days = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
	sec = s - days * 86400;
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	dd = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	put_digits(p, y, 4);
	p[4] = '-';
	put_digits(p + 5, m, 2);
	p[7] = '-';
	put_digits(p + 8, dd, 2);
	p += 10;
	if (!date_only) {
		*p++ = iso ? 'T' : ' ';
		put_digits(p, sec / 3600, 2);
		p[2] = ':';
		put_digits(p + 3, sec / 60 % 60, 2);
		p[5] = ':';
		put_digits(p + 6, sec % 60, 2);
		p += 8;
		if (iso && off / 60 > 99) {
			/* an offset of 100 hours or more (a mangled Date:) */
			g_snprintf(p, 32 - (size_t)(p - buf), "%c%02d:%02d",
				   offset < 0 ? '-' : '+', off / 60, off % 60);
			return;
		}
		if (iso) {
			*p++ = offset < 0 ? '-' : '+';
			put_digits(p, off / 60, 2);
			p[2] = ':';
			put_digits(p + 3, off % 60, 2);
			p += 5;
		}
	}
	*p = '\0';
}

/* ---- loading ---- */

#define MODEL_KIND ACT_MODEL_KIND

/* Which entries own a file of the tree (saved with the model). */
static void entry_files(struct ms_activity *a)
{
	size_t n = maint_file_nr_entries(a->mf);

	a->has_files = g_new0(bool, n ? n : 1);
	for (size_t i = 0; i < ms_tree_nr_files(a->tree); i++) {
		const uint32_t *m = act_match_path(a,
						   ms_tree_path(a->tree, i));

		for (size_t k = 0; k < m[0]; k++)
			if (m[1 + k] < n)
				a->has_files[m[1 + k]] = true;
	}
}

/* Which entries own a file of the tree; the L: addresses. */
static void entry_facts(struct ms_activity *a)
{
	size_t n = maint_file_nr_entries(a->mf);

	if (!a->has_files)
		entry_files(a);
	a->lists = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	for (size_t i = 0; i < n; i++) {
		const struct maint_entry *me = maint_file_entry(a->mf, i);

		for (size_t f = 0; f < me->nr_fields; f++) {
			char *name = NULL, *email = NULL;

			if (me->fields[f].key != 'L')
				continue;
			maint_parse_person(me->fields[f].value, &name, &email);
			if (email && *email)
				g_hash_table_add(a->lists, ms_email_normalize(
					email, !a->no_plus_fold));
			g_free(name);
			g_free(email);
		}
	}
}

/* How often and when each address was used, from the records (which
 * a saved model keeps): the evidence of ms_ident_settle() and of the
 * names joined. */
static void note_uses(struct ms_activity *a)
{
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);
		const struct ctag *tags = &g_array_index(a->tags, struct ctag,
							 r->tag_off);

		ms_ident_note_use(a->ident, r->author, r->atime);
		if (r->committer != r->author)
			ms_ident_note_use(a->ident, r->committer, r->ctime);
		for (unsigned t = 0; t < r->nr_tag; t++) {
			if (tags[t].person == r->author)
				continue;
			ms_ident_note_same(a->ident, r->author,
					   tags[t].person);
			if (tags[t].person != r->committer)
				ms_ident_note_use(a->ident, tags[t].person,
						  r->ctime);
		}
	}
}

/*
 * After the walk: join people (MAINTAINERS history, equal names), then
 * make every id of the records its group's, so that the queries compare
 * people, not addresses.
 */
static void join_people(struct ms_activity *a, struct ms_diags *diags)
{
	entry_facts(a);
	ms_mail_ident_listed(a->ident, a->mf, ms_tree_root(a->tree));
	if (!a->maint_joins)
		act_find_maint_joins(a, diags);
	if (a->opts->last_addresses)
		act_note_used(a);
	act_join_history(a);
	if (a->opts->mail)
		ms_mail_ident_add(a->ident, a->opts->mail, a->mf);
	note_uses(a);
	ms_ident_settle(a->ident);
	if (!a->opts->no_name_join) {
		ms_ident_join_names(a->ident, diags);
		if (a->opts->mail)
			ms_mail_ident_credit(a->ident, a->opts->mail);
	}
	for (guint i = 0; i < a->tags->len; i++) {
		struct ctag *t = &g_array_index(a->tags, struct ctag, i);

		t->person = ms_ident_root(a->ident, t->person);
	}
	for (guint ci = 0; ci < a->commits->len; ci++) {
		struct crec *r = &g_array_index(a->commits, struct crec, ci);
		const struct ctag *tags = &g_array_index(a->tags, struct ctag,
							 r->tag_off);

		r->author = ms_ident_root(a->ident, r->author);
		r->committer = ms_ident_root(a->ident, r->committer);
		r->applier = ms_ident_root(a->ident, r->applier);
		r->reviewed = false;
		for (unsigned t = 0; t < r->nr_tag; t++)
			if (tags[t].review && tags[t].person != r->author)
				r->reviewed = true;
	}
}

/* The model's tree, entries, index and resolver, before any walk. */
static int load_start(const struct ms_activity_load_opts *opts,
		      struct ms_activity *a, char id[41],
		      struct ms_diags *diags)
{
	struct maint_load_opts lo = { 0 };
	int rc;

	act_model_init(a);
	a->opts = opts;
	a->gitdir = g_strdup(opts->gitdir);
	if (opts->keep_paths) {
		guint32 zero = 0;

		a->walked_chunk = g_string_chunk_new(1 << 16);
		a->walked_paths = g_ptr_array_new();
		a->walked_off = g_array_new(FALSE, FALSE, sizeof(guint32));
		g_array_append_val(a->walked_off, zero);
	}
	a->maint_from_rev = !opts->nr_maintainers;
	a->no_plus_fold = opts->no_plus_fold;
	a->now = g_get_real_time() / G_USEC_PER_SEC;
	a->ident = ms_ident_new(!opts->no_plus_fold);

	/* the same messages as the walk for a bad repository or revision */
	rc = ms_history_resolve(opts->gitdir, opts->rev, id, NULL);
	if (rc < 0)
		return rc;
	rc = ms_tree_from_git(opts->gitdir, opts->rev, &a->tree);
	if (rc < 0)
		return rc;
	lo.maintainers = opts->maintainers;
	lo.nr_maintainers = opts->nr_maintainers;
	lo.find_maintainer_files = opts->find_maintainer_files;
	rc = maint_file_load(a->tree, &lo, &a->mf, diags);
	if (rc < 0)
		return rc;
	rc = maint_index_new(a->mf, a->tree, &a->idx, diags);
	if (rc < 0)
		return rc;
	return act_ident_setup(a, a->ident, diags);
}

/*
 * A warm run with nothing new would redo, for every commit, what the
 * first run did (read the record, match its paths, resolve its people,
 * read MAINTAINERS at every commit changing it): seconds on U-Boot.  So
 * after a walk through the store the model is saved (activity-model.c),
 * and a run over the same commit with the same options reads it back
 * instead of walking.  1: read; 0: nothing saved; 2: saved but not
 * whole (`a` must then be discarded).
 */
static int model_read(struct ms_activity *a, const char *key)
{
	GBytes *saved = NULL;
	gsize len;
	const char *data;
	bool ok;
	int rc = ms_store_model_get(a->opts->store, MODEL_KIND, key, &saved);

	if (rc < 0)
		return rc;
	if (saved) {
		data = g_bytes_get_data(saved, &len);
		ok = len >= ACT_HEAD_LEN &&
		     act_model_decode(a, data + ACT_HEAD_LEN,
				      len - ACT_HEAD_LEN);
		g_bytes_unref(saved);
	} else {
		/* a whole model and parts after it, the last one of this
		 * commit (activity-model.c) */
		rc = act_chain_load_key(a, key);
		if (rc == 0)
			return 0;
		ok = rc == 1;
		g_clear_pointer(&a->sv->chain, act_chain_free);
	}
	if (!ok)
		return 2;
	/* what collect() did besides resolving the pairs */
	a->newest = a->oldest = a->future_max = 0;
	a->future = 0;
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);

		act_note_commit(a, r, ci);
	}
	if (a->opts->progress)
		a->opts->progress(a->commits->len, a->opts->progress_data);
	return 1;
}

static int model_write(struct ms_activity *a, const char *key,
		       const char *head, struct ms_diags *diags)
{
	act_find_maint_joins(a, diags);
	entry_files(a);
	return act_model_save(a, key, head);
}

static int load(const struct ms_activity_load_opts *opts,
		struct ms_activity **out, struct ms_diags *diags,
		bool use_model)
{
	struct ms_activity *a = g_new0(struct ms_activity, 1);
	struct ms_walk_opts wo = { 0 };
	char id[41], *key = NULL, *pkey = NULL, head[ACT_HEAD_LEN + 1];
	size_t nr_diags;
	int rc;

	*out = NULL;
	rc = load_start(opts, a, id, diags);
	if (rc < 0)
		goto fail;
	if (opts->store && diags) {
		key = act_model_key(opts, id);
		rc = use_model ? model_read(a, key) : 0;
		if (rc < 0) {
			/* the store failed, not the history: walk it */
			ms_diags_add(diags, NULL, 0, "the saved activity model "
				     "was not read from the store: %s",
				     ms_error_last());
			ms_error_clear();
			rc = 0;
		}
		if (rc == 2) {
			/* not a whole model: walk as if unsaved */
			ms_activity_free(a);
			g_free(key);
			return load(opts, out, diags, false);
		}
		pkey = maint_index_fingerprint(a->idx);
		/* a whole model walks nothing, so needs no answers unless
		 * the paths are asked for (areas: ms_activity_match()) */
		if (rc != 1 || opts->keep_paths)
			act_paths_read(a, pkey);
		if (rc == 1)
			goto joined;
		act_state_finish(a, pkey);
		act_model_head(a, id, head);
		if (use_model)
			act_prev_read(a, head);
	}
	wo.rev = opts->rev;
	wo.flags = opts->merges ? MS_WALK_MERGES : 0;
	act_walk_fns(&wo, a);
	wo.head = a->sv->prev ? act_walk_head : NULL;
	nr_diags = diags ? diags->nr : 0;
	rc = act_walk(a, &wo, diags);
	ms_ident_set_evidence(a->ident, NULL, false);
	if (rc < 0)
		goto fail;
	if (a->sv->prev_fits && !act_model_append(a, a->sv->prev, true)) {
		/* its people do not map one to one: walk it all */
		ms_activity_free(a);
		g_free(key);
		g_free(pkey);
		return load(opts, out, diags, false);
	}
	g_clear_pointer(&a->sv->prev, ms_activity_free);
	if (a->opts->progress)
		a->opts->progress(a->commits->len, a->opts->progress_data);
	/* a walk with warnings (missing objects...) is not saved: the next
	 * run walks again and warns again */
	if (key && diags->nr == nr_diags) {
		/* the answer is right all the same: a failure to keep it
		 * costs the next run time, and is said, never silent */
		if (model_write(a, key, head, diags) < 0) {
			ms_diags_add(diags, NULL, 0, "the activity model was "
				     "not kept in the store: %s",
				     ms_error_last());
			ms_error_clear();
		}
		if (act_paths_write(a, pkey) < 0) {
			ms_diags_add(diags, NULL, 0, "the path answers of "
				     "activity were not kept in the store: %s",
				     ms_error_last());
			ms_error_clear();
		}
	}
joined:
	join_people(a, diags);
	a->opts = NULL;
	a->shallow = ms_history_is_shallow(opts->gitdir);
	if (a->shallow) {
		char when[32];

		ms_act_format(a->oldest, 0, false, true, when);
		ms_diags_add(diags, NULL, 0, "a shallow clone: no one is "
			     "called inactive for a time before %s, where "
			     "the history read starts; absence there is no "
			     "evidence", a->commits->len ? when : "(no commit)");
	}
	g_free(key);
	if (a->future) {
		char when[32];

		ms_act_format(a->future_max, 0, false, true, when);
		ms_diags_add(diags, NULL, 0, "%zu commit%s dated in the future "
			     "(the latest %s): left out of the default "
			     "--until, the newest commit date before now",
			     a->future, a->future == 1 ? " is" : "s are",
			     when);
		if (a->future == a->commits->len)
			a->newest = a->now;
	}
	g_free(pkey);
	*out = a;
	return 0;
fail:
	a->opts = NULL;
	g_free(key);
	g_free(pkey);
	ms_activity_free(a);
	return rc;
}

int ms_activity_load(const struct ms_activity_load_opts *opts,
		     struct ms_activity **out, struct ms_diags *diags)
{
	return load(opts, out, diags, true);
}

int64_t ms_activity_newest(const struct ms_activity *a)
{
	return a->newest;
}

size_t ms_activity_nr_in_window(const struct ms_activity *a, int64_t since,
				 int64_t until)
{
	size_t n = 0;

	for (guint i = 0; i < a->commits->len; i++) {
		int64_t t = g_array_index(a->commits, struct crec, i).ctime;

		n += t >= since && t <= until;
	}
	return n;
}

int64_t ms_activity_oldest(const struct ms_activity *a)
{
	return a->oldest;
}

size_t ms_activity_nr_commits(const struct ms_activity *a)
{
	return a->commits->len;
}

const struct maint_file *ms_activity_maintainers(const struct ms_activity *a)
{
	return a->mf;
}

const struct maint_index *ms_activity_index(const struct ms_activity *a)
{
	return a->idx;
}

struct ms_ident *ms_activity_ident(const struct ms_activity *a)
{
	return a->ident;
}

void ms_activity_set_range(struct ms_activity *a,
			   bool (*in_range)(const char *id, void *data),
			   void *data, int64_t since)
{
	g_free(a->in_range);
	a->in_range = g_new0(bool, a->commits->len ? a->commits->len : 1);
	a->range_since = since;
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);
		char id[41];

		act_set_id(id, r->raw);
		a->in_range[ci] = in_range(id, data);
	}
}

struct seen_first {
	int64_t when;           /* the first commit date */
	int64_t last;           /* the last */
	bool seen;
};

static void seen_note(struct seen_first **first, size_t *n, unsigned person,
		      int64_t when)
{
	struct seen_first *f;

	if (person == MS_IDENT_NONE)
		return;
	if (person >= *n) {
		size_t m = MAX((size_t)person + 1, *n * 2);

		*first = g_renew(struct seen_first, *first, m);
		memset(*first + *n, 0, (m - *n) * sizeof(**first));
		*n = m;
	}
	f = &(*first)[person];
	if (!f->seen) {
		*f = (struct seen_first){ when, when, true };
	} else if (when < f->when) {
		f->when = when;
	} else if (when > f->last) {
		f->last = when;
	}
}

/* The first and last dates of each person in the records dated up to
 * `until`, into *out (n entries). */
static void seen_dates(const struct ms_activity *a, int64_t until,
		       struct seen_first **out, size_t *n)
{
	struct seen_first *first = NULL;

	*n = 0;
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);
		const struct ctag *tags = &g_array_index(a->tags, struct ctag,
							 r->tag_off);

		if (r->ctime > until)
			continue;
		seen_note(&first, n, r->author, r->ctime);
		seen_note(&first, n, r->committer, r->ctime);
		for (unsigned t = 0; t < r->nr_tag; t++)
			seen_note(&first, n, tags[t].person, r->ctime);
	}
	*out = first;
}

/* Build ms_activity_seen()'s index: one pass over the records instead
 * of one per question (review asks it of every listed address never
 * seen on the list: thousands of questions over a million records). */
static void seen_index(struct ms_activity *a)
{
	g_free(a->first_seen);
	seen_dates(a, INT64_MAX, &a->first_seen, &a->nr_first_seen);
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);

		if (!ci || r->ctime > a->seen_newest)
			a->seen_newest = r->ctime;
	}
	a->seen_records = a->commits->len;
}

bool ms_activity_seen(const struct ms_activity *a, unsigned person,
		      int64_t until)
{
	/* the index is a cache of the records: built on the first
	 * question, again if records were added since */
	struct ms_activity *m = (struct ms_activity *)a;
	bool seen;

	if (person == MS_IDENT_NONE)
		return false;
	g_mutex_lock(&m->seen_lock);
	if (!m->first_seen || m->seen_records != m->commits->len)
		seen_index(m);
	seen = person < m->nr_first_seen && m->first_seen[person].seen &&
	       m->first_seen[person].when <= until;
	g_mutex_unlock(&m->seen_lock);
	return seen;
}

/*
 * ms_activity_last_seen()'s index for an `until` before the newest
 * record (a window ending in the past, or commits dated in the future
 * left out of it): seen_index() over the records up to `until`.  A scan
 * of every record per question was a fifth of the CPU of a warm run on
 * U-Boot after five new commits dated in the future (bench-warm.sh):
 * 107k records for each inactive person.
 */
static void upto_index(struct ms_activity *a, int64_t until)
{
	g_free(a->upto_seen);
	seen_dates(a, until, &a->upto_seen, &a->nr_upto_seen);
	a->upto_built = true;
	a->upto_records = a->commits->len;
	a->upto = until;
}

bool ms_activity_last_seen(const struct ms_activity *a, unsigned person,
			   int64_t until, int64_t *when)
{
	struct ms_activity *m = (struct ms_activity *)a;
	const struct seen_first *idx;
	size_t nr;
	bool seen = false;

	if (person == MS_IDENT_NONE)
		return false;
	g_mutex_lock(&m->seen_lock);
	if (!m->first_seen || m->seen_records != m->commits->len)
		seen_index(m);
	/* the index's last dates hold when no record is after `until` */
	if (!m->commits->len || until >= m->seen_newest) {
		idx = m->first_seen;
		nr = m->nr_first_seen;
	} else {
		if (!m->upto_built || m->upto_records != m->commits->len ||
		    m->upto != until)
			upto_index(m, until);
		idx = m->upto_seen;
		nr = m->nr_upto_seen;
	}
	if (person < nr && idx[person].seen) {
		*when = idx[person].last;
		seen = true;
	}
	g_mutex_unlock(&m->seen_lock);
	return seen;
}
