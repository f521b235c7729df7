#include "activity.h"
#include "history.h"
#include "ident.h"
#include "store.h"
#include "maintainers.h"
#include "tree.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One commit, compactly: 72 bytes plus its entries and *-by trailers. */
struct crec {
	unsigned char raw[20];
	int16_t aoff, coff;
	int64_t atime, ctime;
	unsigned author, committer, applier;
	uint32_t ent_off, tag_off;
	uint16_t nr_ent, nr_tag;
	bool reviewed;            /* a review or ack by someone else */
};

/* A "*-by:" trailer naming a person. */
struct ctag {
	unsigned person;
	const char *token;        /* interned */
	bool review;              /* Reviewed-by or Acked-by */
};

struct ms_activity {
	struct ms_tree *tree;
	struct maint_file *mf;
	struct maint_index *idx;
	struct ms_ident *ident;
	GArray *commits;          /* struct crec, in walk order */
	GArray *ents;             /* uint32_t entry indexes */
	GArray *tags;             /* struct ctag */
	GHashTable *tokens;       /* interned trailer tokens */
	GHashTable *match_cache;  /* path -> entries (match_path) */
	GMutex match_lock;
	int64_t newest;
	const struct ms_activity_load_opts *opts;   /* during the load */
};

/* ---- dates ---- */

int64_t ms_act_date_shift(int64_t t, int years, int months, int days)
{
	GDateTime *d = g_date_time_new_from_unix_utc(t);
	GDateTime *s = g_date_time_add_full(d, years, months, days, 0, 0, 0);
	int64_t r = s ? g_date_time_to_unix(s) : t;

	if (s)
		g_date_time_unref(s);
	g_date_time_unref(d);
	return r;
}

void ms_act_format(int64_t t, int offset, bool iso, bool date_only,
		   char buf[32])
{
	GDateTime *d = g_date_time_new_from_unix_utc(t + (int64_t)offset * 60);
	int off = offset < 0 ? -offset : offset;

	if (!d) {
		g_strlcpy(buf, "?", 32);
		return;
	}
	if (date_only)
		g_snprintf(buf, 32, "%04d-%02d-%02d",
			   g_date_time_get_year(d), g_date_time_get_month(d),
			   g_date_time_get_day_of_month(d));
	else
		g_snprintf(buf, 32, "%04d-%02d-%02d%c%02d:%02d:%02d",
			   g_date_time_get_year(d), g_date_time_get_month(d),
			   g_date_time_get_day_of_month(d), iso ? 'T' : ' ',
			   g_date_time_get_hour(d), g_date_time_get_minute(d),
			   g_date_time_get_second(d));
	if (iso && !date_only) {
		size_t n = strlen(buf);

		g_snprintf(buf + n, 32 - n, "%c%02d:%02d",
			   offset < 0 ? '-' : '+', off / 60, off % 60);
	}
	g_date_time_unref(d);
}

int ms_act_parse_date(const char *s, bool end_of_day, int64_t *out)
{
	GDateTime *d = NULL;
	int y, m, day;
	char tail;

	if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &day, &tail) == 3) {
		d = g_date_time_new_utc(y, m, day, end_of_day ? 23 : 0,
					end_of_day ? 59 : 0,
					end_of_day ? 59 : 0);
	} else {
		GTimeZone *utc = g_time_zone_new_utc();

		d = g_date_time_new_from_iso8601(s, utc);
		g_time_zone_unref(utc);
	}
	if (!d)
		return ms_error_set(MS_EPARSE, "'%s' is not a date "
				    "(YYYY-MM-DD or ISO 8601)", s);
	*out = g_date_time_to_unix(d);
	g_date_time_unref(d);
	return 0;
}

int ms_act_parse_before(const char *s, int64_t from, int64_t *out)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end != s && n >= 0 && end[0] && !end[1]) {
		switch (end[0]) {
		case 'd':
			*out = ms_act_date_shift(from, 0, 0, -(int)n);
			return 0;
		case 'w':
			*out = ms_act_date_shift(from, 0, 0, -7 * (int)n);
			return 0;
		case 'm':
			*out = ms_act_date_shift(from, 0, -(int)n, 0);
			return 0;
		case 'y':
			*out = ms_act_date_shift(from, -(int)n, 0, 0);
			return 0;
		default:
			break;
		}
	}
	if (ms_act_parse_date(s, false, out) == 0)
		return 0;
	return ms_error_set(MS_EPARSE, "'%s' is neither a duration (6m, 18m, "
			    "2y, 30d, 4w) nor a date", s);
}

/* ---- loading ---- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The entries `path` matches, as a cached array (count first).  Most
 * paths come back commit after commit, and matching one costs far more
 * than a hash lookup (half of a U-Boot run went into matching), so the
 * answers are shared by the walk's workers under a lock.
 */
static const uint32_t *match_path(struct ms_activity *a, const char *path)
{
	const struct maint_entry *buf[32], **m = buf;
	uint32_t *r, *old;
	size_t n;

	g_mutex_lock(&a->match_lock);
	r = g_hash_table_lookup(a->match_cache, path);
	g_mutex_unlock(&a->match_lock);
	if (r)
		return r;
	n = maint_index_match(a->idx, path, m, G_N_ELEMENTS(buf));
	if (n > G_N_ELEMENTS(buf)) {
		m = g_new(const struct maint_entry *, n);
		n = maint_index_match(a->idx, path, m, n);
	}
	r = g_new(uint32_t, n + 1);
	r[0] = (uint32_t)n;
	for (size_t k = 0; k < n; k++)
		r[1 + k] = (uint32_t)m[k]->index;
	if (m != buf)
		g_free(m);
	g_mutex_lock(&a->match_lock);
	old = g_hash_table_lookup(a->match_cache, path);
	if (old) {
		g_free(r);
		r = old;
	} else {
		g_hash_table_insert(a->match_cache, g_strdup(path), r);
	}
	g_mutex_unlock(&a->match_lock);
	return r;
}

/* On a walk worker: the entries the commit's paths match. */
static void *prepare(const struct ms_commit *c, void *data)
{
	struct ms_activity *a = data;
	size_t nr = 0, alloc = 16;
	uint32_t *out = g_new(uint32_t, alloc + 1);

	for (size_t i = 0; i < c->nr_paths; i++) {
		const uint32_t *m = match_path(a, c->paths[i]);

		for (size_t k = 0; k < m[0]; k++) {
			if (nr == alloc) {
				alloc *= 2;
				out = g_renew(uint32_t, out, alloc + 1);
			}
			out[1 + nr++] = m[1 + k];
		}
	}
	qsort(out + 1, nr, sizeof(uint32_t), cmp_u32);
	{
		size_t u = 0;

		for (size_t k = 0; k < nr; k++)
			if (!u || out[1 + u - 1] != out[1 + k])
				out[1 + u++] = out[1 + k];
		nr = u;
	}
	out[0] = (uint32_t)nr;
	return out;
}

static void release(void *user, void *data)
{
	(void)data;
	g_free(user);
}

static bool is_word_bot(const char *s)
{
	char *l = g_ascii_strdown(s, -1);
	bool r = strstr(l, "noreply") || strstr(l, "no-reply");

	for (const char *p = l; !r && (p = strstr(p, "bot")); p += 3)
		if ((p == l || !g_ascii_isalpha(p[-1])) &&
		    !g_ascii_isalpha(p[3]))
			r = true;
	g_free(l);
	return r;
}

static int hexval(char c)
{
	return g_ascii_xdigit_value(c);
}

static const char *intern(struct ms_activity *a, const char *token,
			  enum ms_trailer_kind kind)
{
	const char *name = ms_trailer_kind_name(kind);
	char *k;

	if (!name)
		name = token;
	k = g_hash_table_lookup(a->tokens, name);
	if (!k) {
		k = g_strdup(name);
		g_hash_table_add(a->tokens, k);
	}
	return k;
}

static bool ends_with_by(const char *t)
{
	size_t n = strlen(t);

	return n > 3 && g_ascii_strcasecmp(t + n - 3, "-by") == 0;
}

/* On the calling thread, in walk order. */
static int collect(const struct ms_commit *c, void *data)
{
	struct ms_activity *a = data;
	uint32_t *ents = c->user;
	struct crec r = { 0 };
	unsigned last_sob = MS_IDENT_NONE;

	for (int i = 0; i < 20; i++)
		r.raw[i] = (unsigned char)(hexval(c->id[2 * i]) << 4 |
					   hexval(c->id[2 * i + 1]));
	r.atime = c->author.time;
	r.ctime = c->committer.time;
	r.aoff = (int16_t)c->author.offset;
	r.coff = (int16_t)c->committer.offset;
	r.author = ms_ident_resolve(a->ident, c->author.name,
				    c->author.email);
	r.committer = ms_ident_resolve(a->ident, c->committer.name,
				       c->committer.email);
	r.ent_off = a->ents->len;
	r.nr_ent = (uint16_t)MIN(ents ? ents[0] : 0, UINT16_MAX);
	if (ents)
		g_array_append_vals(a->ents, ents + 1, r.nr_ent);
	g_free(ents);
	r.tag_off = a->tags->len;
	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct ms_commit_trailer *t = &c->trailers[i];
		struct ctag tag;

		if (!t->is_person || !ends_with_by(t->token))
			continue;
		tag.person = ms_ident_resolve(a->ident, t->name, t->email);
		if (tag.person == MS_IDENT_NONE)
			continue;
		tag.token = intern(a, t->token, t->kind);
		tag.review = t->kind == MS_TRAILER_REVIEWED_BY ||
			     t->kind == MS_TRAILER_ACKED_BY;
		if (tag.review && tag.person != r.author)
			r.reviewed = true;
		if (t->kind == MS_TRAILER_SIGNED_OFF_BY)
			last_sob = tag.person;
		g_array_append_val(a->tags, tag);
		r.nr_tag++;
	}
	r.applier = r.committer;
	if (last_sob != MS_IDENT_NONE &&
	    (is_word_bot(c->committer.name) ||
	     is_word_bot(c->committer.email)))
		r.applier = last_sob;
	if (r.ctime > a->newest || a->commits->len == 0)
		a->newest = r.ctime;
	g_array_append_val(a->commits, r);
	if (a->opts->progress)
		a->opts->progress(a->commits->len, a->opts->progress_data);
	return 0;
}

int ms_activity_load(const struct ms_activity_load_opts *opts,
		     struct ms_activity **out, struct ms_diags *diags)
{
	struct ms_activity *a = g_new0(struct ms_activity, 1);
	struct maint_load_opts lo = { 0 };
	struct ms_walk_opts wo = { 0 };
	char *buf = NULL;
	size_t len;
	int rc;

	*out = NULL;
	a->commits = g_array_new(FALSE, FALSE, sizeof(struct crec));
	a->ents = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	a->tags = g_array_new(FALSE, FALSE, sizeof(struct ctag));
	a->tokens = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  NULL);
	a->opts = opts;
	a->ident = ms_ident_new(!opts->no_plus_fold);
	a->match_cache = g_hash_table_new_full(g_str_hash, g_str_equal,
					       g_free, g_free);
	g_mutex_init(&a->match_lock);

	/* the same messages as the walk for a bad repository or revision */
	rc = ms_history_resolve(opts->gitdir, opts->rev, NULL, NULL);
	if (rc < 0)
		goto fail;
	rc = ms_tree_from_git(opts->gitdir, opts->rev, &a->tree);
	if (rc < 0)
		goto fail;
	rc = maint_file_load(a->tree, &lo, &a->mf, diags);
	if (rc < 0)
		goto fail;
	rc = maint_index_new(a->mf, a->tree, &a->idx, diags);
	if (rc < 0)
		goto fail;
	rc = ms_tree_read(a->tree, ".mailmap", &buf, &len);
	if (rc == 0)
		ms_ident_add_mailmap(a->ident, ".mailmap", buf, len, diags);
	else if (rc != MS_ENOTFOUND)
		goto fail;
	g_free(buf);
	if (opts->aliases)
		ms_ident_add_aliases(a->ident, opts->aliases_name,
				     opts->aliases, opts->aliases_len, diags);

	wo.rev = opts->rev;
	wo.flags = opts->merges ? MS_WALK_MERGES : 0;
	wo.nr_threads = opts->nr_threads;
	wo.prepare = prepare;
	wo.fn = collect;
	wo.release = release;
	wo.data = a;
	rc = ms_store_history_walk(opts->store, opts->gitdir, &wo, NULL,
				   diags);
	a->opts = NULL;
	if (rc < 0)
		goto fail;
	*out = a;
	return 0;
fail:
	ms_activity_free(a);
	return rc;
}

void ms_activity_free(struct ms_activity *a)
{
	if (!a)
		return;
	maint_index_free(a->idx);
	maint_file_free(a->mf);
	ms_tree_free(a->tree);
	ms_ident_free(a->ident);
	g_array_free(a->commits, TRUE);
	g_array_free(a->ents, TRUE);
	g_array_free(a->tags, TRUE);
	g_hash_table_destroy(a->tokens);
	g_hash_table_destroy(a->match_cache);
	g_mutex_clear(&a->match_lock);
	g_free(a);
}

int64_t ms_activity_newest(const struct ms_activity *a)
{
	return a->newest;
}

size_t ms_activity_nr_commits(const struct ms_activity *a)
{
	return a->commits->len;
}

const struct maint_file *ms_activity_maintainers(const struct ms_activity *a)
{
	return a->mf;
}

struct ms_ident *ms_activity_ident(const struct ms_activity *a)
{
	return a->ident;
}

bool ms_activity_seen(const struct ms_activity *a, unsigned person,
		      int64_t until)
{
	if (person == MS_IDENT_NONE)
		return false;
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);
		const struct ctag *tags = &g_array_index(a->tags, struct ctag,
							 r->tag_off);

		if (r->ctime > until)
			continue;
		if (r->author == person || r->committer == person)
			return true;
		for (unsigned t = 0; t < r->nr_tag; t++)
			if (tags[t].person == person)
				return true;
	}
	return false;
}

/* ---- queries ---- */

struct work {
	struct ms_act_entry *e;
	GHashTable *reviewers;    /* person -> count */
	GHashTable *committers;
};

static void set_id(char id[41], const unsigned char raw[20])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 20; i++) {
		id[2 * i] = hex[raw[i] >> 4];
		id[2 * i + 1] = hex[raw[i] & 15];
	}
	id[40] = '\0';
}

static void bump(struct ms_act_last *l, const struct crec *r, int64_t t,
		 int off, bool inwin, const char *tag)
{
	if (!l->set || t > l->time) {
		l->set = true;
		l->time = t;
		l->offset = off;
		set_id(l->id, r->raw);
		l->tag = tag;
	}
	if (inwin)
		l->count++;
}

static void seen_at(struct ms_act_person *p, int64_t t, int off)
{
	if (!p->has_last || t > p->last_time) {
		p->has_last = true;
		p->last_time = t;
		p->last_offset = off;
	}
}

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

static void init_entry(const struct ms_activity *a, struct ms_act_entry *e,
		       const struct maint_entry *me)
{
	e->entry = me;
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
	}
}

int ms_activity_query(const struct ms_activity *a,
		      const struct ms_activity_query *q,
		      struct ms_act_entry **out, size_t *nr)
{
	size_t nr_all = maint_file_nr_entries(a->mf);
	size_t n = q->entries ? q->nr_entries : nr_all;
	struct ms_act_entry *res = g_new0(struct ms_act_entry, n ? n : 1);
	struct work *w = g_new0(struct work, n ? n : 1);
	int *slot = g_new(int, nr_all ? nr_all : 1);
	bool *seen;
	size_t nr_people;

	for (size_t i = 0; i < nr_all; i++)
		slot[i] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct maint_entry *me = q->entries ? q->entries[i] :
			maint_file_entry(a->mf, i);

		init_entry(a, &res[i], me);
		slot[me->index] = (int)i;
		w[i].e = &res[i];
		w[i].reviewers = g_hash_table_new(NULL, NULL);
		w[i].committers = g_hash_table_new(NULL, NULL);
	}
	nr_people = ms_ident_count(a->ident);
	seen = g_new0(bool, nr_people ? nr_people : 1);

	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);
		const struct ctag *tags = &g_array_index(a->tags, struct ctag,
							 r->tag_off);
		const uint32_t *ents = &g_array_index(a->ents, uint32_t,
						      r->ent_off);
		bool inwin;

		if (r->ctime > q->until)
			continue;
		inwin = r->ctime >= q->since;
		if (r->author != MS_IDENT_NONE)
			seen[r->author] = true;
		if (r->committer != MS_IDENT_NONE)
			seen[r->committer] = true;
		for (unsigned t = 0; t < r->nr_tag; t++)
			seen[tags[t].person] = true;

		for (unsigned k = 0; k < r->nr_ent; k++) {
			struct work *wk;
			struct ms_act_entry *e;

			if (ents[k] >= nr_all || slot[ents[k]] < 0)
				continue;
			wk = &w[slot[ents[k]]];
			e = wk->e;
			if (inwin) {
				e->commits++;
				if (r->reviewed)
					e->reviewed++;
				if (r->applier != MS_IDENT_NONE)
					inc(wk->committers, r->applier);
				for (unsigned t = 0; t < r->nr_tag; t++) {
					unsigned p = tags[t].person;
					bool dup = false;

					if (!tags[t].review || p == r->author ||
					    listed(e, p))
						continue;
					for (unsigned u = 0; u < t; u++)
						if (tags[u].review &&
						    tags[u].person == p)
							dup = true;
					if (!dup)
						inc(wk->reviewers, p);
				}
			}
			for (size_t pi = 0; pi < e->nr_people; pi++) {
				struct ms_act_person *p = &e->people[pi];

				if (p->person == MS_IDENT_NONE)
					continue;
				if (r->author == p->person) {
					bump(&p->author, r, r->atime,
					     r->aoff, inwin, NULL);
					seen_at(p, r->atime, r->aoff);
				}
				if (r->committer == p->person) {
					bump(&p->committer, r, r->ctime,
					     r->coff, inwin, NULL);
					seen_at(p, r->ctime, r->coff);
				}
				for (unsigned t = 0; t < r->nr_tag; t++) {
					if (tags[t].person != p->person)
						continue;
					bump(&p->tags, r, r->ctime, r->coff,
					     inwin, tags[t].token);
					seen_at(p, r->ctime, r->coff);
					break;
				}
			}
		}
	}

	for (size_t i = 0; i < n; i++) {
		struct ms_act_entry *e = &res[i];

		for (size_t pi = 0; pi < e->nr_people; pi++) {
			struct ms_act_person *p = &e->people[pi];

			p->seen_anywhere = p->person != MS_IDENT_NONE &&
				p->person < nr_people && seen[p->person];
			p->inactive = !p->has_last ||
				p->last_time < q->active_since;
			if (p->has_last && (!e->has_last_activity ||
			    p->last_time > e->last_activity)) {
				e->has_last_activity = true;
				e->last_activity = p->last_time;
				e->last_activity_offset = p->last_offset;
			}
		}
		e->nr_top_reviewers = top(a, w[i].reviewers,
					  e->top_reviewers);
		e->nr_top_committers = top(a, w[i].committers,
					   e->top_committers);
		g_hash_table_destroy(w[i].reviewers);
		g_hash_table_destroy(w[i].committers);
	}
	g_free(seen);
	g_free(slot);
	g_free(w);
	*out = res;
	*nr = n;
	return 0;
}

void ms_act_entries_free(struct ms_act_entry *e, size_t nr)
{
	if (!e)
		return;
	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; k < e[i].nr_people; k++) {
			g_free(e[i].people[k].name);
			g_free(e[i].people[k].email);
		}
		g_free(e[i].people);
	}
	g_free(e);
}
