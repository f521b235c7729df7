/*
 * activity-records.c - the records of a walk: one per commit (its id,
 * dates, people as resolved, the entries its paths match, its `*-by:`
 * trailers), the interned trailer tokens, the commits changing a
 * MAINTAINERS file, the model's empty tables, and the records one by
 * one (activity.h), for the metrics that count them by something other
 * than the entries (areas.h: by directory).  The lowest layer of the
 * activity module: it uses no other activity-*.c file
 * (docs/architecture.md, "Inside a stage").
 */
#include "activity.h"
#include "activity-internal.h"
#include "history.h"
#include "ident.h"
#include "maintainers.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

void ms_activity_record(const struct ms_activity *a, size_t i,
			struct ms_act_record *out)
{
	const struct crec *r = &g_array_index(a->commits, struct crec, i);

	act_set_id(out->id, r->raw);
	out->atime = r->atime;
	out->ctime = r->ctime;
	out->author = r->author;
	out->committer = r->committer;
	out->applier = r->applier;
	out->reviewed = r->reviewed;
	out->entries = &g_array_index(a->ents, uint32_t, r->ent_off);
	out->nr_entries = r->nr_ent;
	out->nr_tags = r->nr_tag;
}

void ms_activity_record_tag(const struct ms_activity *a, size_t i, size_t t,
			    unsigned *person, const char **token, bool *review)
{
	const struct crec *r = &g_array_index(a->commits, struct crec, i);
	const struct ctag *tag = &g_array_index(a->tags, struct ctag,
						r->tag_off + t);

	*person = tag->person;
	*token = tag->token;
	*review = tag->review;
}

int ms_activity_record_window(const struct ms_activity *a, size_t i,
			      int64_t since, int64_t until)
{
	const struct crec *r = &g_array_index(a->commits, struct crec, i);
	bool inwin;

	if (r->ctime > until)
		return -1;
	inwin = r->ctime >= since;
	if (a->in_range)
		inwin = a->in_range[i] && (since <= a->range_since || inwin);
	return inwin;
}

const char *const *ms_activity_walked_paths(const struct ms_activity *a,
					    size_t i, size_t *n)
{
	guint32 from, to;

	*n = 0;
	if (!a->walked_off || i + 1 >= a->walked_off->len)
		return NULL;
	from = g_array_index(a->walked_off, guint32, i);
	to = g_array_index(a->walked_off, guint32, i + 1);
	*n = to - from;
	return (const char *const *)a->walked_paths->pdata + from;
}

const uint32_t *ms_activity_match(const struct ms_activity *a,
				  const char *path)
{
	const uint32_t *r = a->sv->saved_paths ?
		g_hash_table_lookup(a->sv->saved_paths, path) : NULL;

	/* a saved answer as it is (the load is over: match_cache need not
	 * hold the run's paths any more); the answers are a cache, not
	 * part of the model's value */
	return r ? r : act_match_path((struct ms_activity *)a, path);
}

const struct ms_tree *ms_activity_tree(const struct ms_activity *a)
{
	return a->tree;
}

const char *ms_activity_gitdir(const struct ms_activity *a)
{
	return a->gitdir;
}

void act_set_id(char id[41], const unsigned char raw[20])
{
	ms_hex(raw, 20, id);
}

/* The model's empty arrays and tables. */
void act_model_init(struct ms_activity *a)
{
	a->sv = g_new0(struct act_saved, 1);
	a->commits = g_array_new(FALSE, FALSE, sizeof(struct crec));
	a->hidden = g_array_new(FALSE, FALSE, 20);
	a->ents = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	a->tags = g_array_new(FALSE, FALSE, sizeof(struct ctag));
	a->maint_changes = g_array_new(FALSE, FALSE, 20);
	a->maint_paths = g_ptr_array_new_with_free_func(g_free);
	a->tokens = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  NULL);
	a->token_order = g_ptr_array_new();
	a->match_cache = g_hash_table_new_full(g_str_hash, g_str_equal,
					       g_free, g_free);
	g_mutex_init(&a->match_lock);
	g_mutex_init(&a->seen_lock);
	g_mutex_init(&a->then_lock);
}

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
const uint32_t *act_match_path(struct ms_activity *a, const char *path)
{
	struct maint_match buf[32], *m = buf;
	uint32_t *r, *old;
	size_t n;

	g_mutex_lock(&a->match_lock);
	r = g_hash_table_lookup(a->match_cache, path);
	if (!r && a->sv->saved_paths &&
	    (old = g_hash_table_lookup(a->sv->saved_paths, path))) {
		/* a saved answer: a copy, so that match_cache still holds
		 * exactly the paths of this run (ms_activity_foreach_path) */
		r = g_memdup2(old, sizeof(uint32_t) * (2 * old[0] + 1));
		g_hash_table_insert(a->match_cache, g_strdup(path), r);
	}
	g_mutex_unlock(&a->match_lock);
	if (r)
		return r;
	n = maint_index_match_depth(a->idx, path, m, G_N_ELEMENTS(buf));
	if (n > G_N_ELEMENTS(buf)) {
		m = g_new(struct maint_match, n);
		n = maint_index_match_depth(a->idx, path, m, n);
	}
	r = g_new(uint32_t, 2 * n + 1);
	r[0] = (uint32_t)n;
	for (size_t k = 0; k < n; k++) {
		r[1 + k] = (uint32_t)m[k].entry->index;
		r[1 + n + k] = (uint32_t)m[k].depth;
	}
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
		const uint32_t *m = act_match_path(a, c->paths[i]);

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

bool act_is_word_bot(const char *s)
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

const char *act_intern(struct ms_activity *a, const char *token,
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
		g_ptr_array_add(a->token_order, k);
	}
	return k;
}

static bool ends_with_by(const char *t)
{
	size_t n = strlen(t);

	return n > 3 && g_ascii_strcasecmp(t + n - 3, "-by") == 0;
}

/*
 * Two addresses of one name are two people when each reviewed (Reviewed-
 * by, Acked-by) a commit the other authored: they review each other, as
 * issue 15 puts it.  One direction alone is no such evidence: people
 * review their own work from another address (U-Boot: Sean Anderson's
 * gmail reviewing his seco.com commits, and seven more pairs of one
 * name, none of them two people).  Nothing else in one commit is such
 * evidence either: two trailers of one name are often one person under
 * two addresses (Reported-by and Reviewed-by of Fabio Estevam,
 * Suggested-by and Reviewed-by of Qu Wenruo, two Tested-by of Philippe
 * Reynes), and so are the author and a Tested-by (Heiko Stuebner) or
 * two Signed-off-by.  The evidence is the two commits.
 */
/* An entry of a->reviews: who reviewed whom (the key) and where first. */
struct review_pair {
	gint64 key;               /* author << 32 | reviewer */
	unsigned char raw[20];    /* the commit */
	/* the two were noted distinct (the first evidence stays, so a
	 * later commit of either way round notes nothing new) */
	bool noted;
};

/* A pair's key hashed: g_int64_hash() is author ^ reviewer, the same
 * for both ways round and for many pairs of small ids, and its lookups
 * probed thousands of slots (a twentieth of a warm U-Boot run). */
static guint pair_hash(gconstpointer k)
{
	guint64 v = (guint64)*(const gint64 *)k * 0x9e3779b97f4a7c15ULL;

	return (guint)(v >> 32);
}

static void note_distinct(struct ms_activity *a, const struct crec *r)
{
	const struct ctag *tags = &g_array_index(a->tags, struct ctag,
						 r->tag_off);

	if (r->author == MS_IDENT_NONE)
		return;
	for (unsigned t = 0; t < r->nr_tag; t++) {
		gint64 key, back;
		struct review_pair *mine, *other;

		if (!tags[t].review || tags[t].person == r->author)
			continue;
		/* once per commit of a whole history: no string keys */
		if (!a->reviews)
			a->reviews = g_hash_table_new_full(pair_hash,
							   g_int64_equal,
							   NULL, g_free);
		key = (gint64)((guint64)r->author << 32 | tags[t].person);
		back = (gint64)((guint64)tags[t].person << 32 | r->author);
		mine = g_hash_table_lookup(a->reviews, &key);
		if (!mine) {
			mine = g_new0(struct review_pair, 1);
			mine->key = key;
			memcpy(mine->raw, r->raw, 20);
			g_hash_table_insert(a->reviews, &mine->key, mine);
		}
		other = mine->noted ? NULL :
			g_hash_table_lookup(a->reviews, &back);
		if (other) {
			char hex[41], ohex[41], *why;

			act_set_id(hex, r->raw);
			act_set_id(ohex, other->raw);
			why = g_strdup_printf("%s %s", ohex, hex);
			ms_ident_note_distinct_why(a->ident, r->author,
						   tags[t].person, why);
			g_free(why);
			mine->noted = other->noted = true;
		}
	}
}

/*
 * The paths of `c` named MAINTAINERS, at the top or below (U-Boot keeps
 * board/x/MAINTAINERS): '\n'-separated, NULL when none.  A change of
 * address in any of them is one person's.
 */
static char *maintainers_paths(const struct ms_commit *c)
{
	GString *s = NULL;

	for (size_t i = 0; i < c->nr_paths; i++) {
		const char *slash = strrchr(c->paths[i], '/');

		if (strcmp(slash ? slash + 1 : c->paths[i], "MAINTAINERS"))
			continue;
		if (!s)
			s = g_string_new(NULL);
		else
			g_string_append_c(s, '\n');
		g_string_append(s, c->paths[i]);
	}
	return s ? g_string_free(s, FALSE) : NULL;
}

/*
 * The dates of the model, commit by commit in walk order (`nr_before`
 * commits taken before this one).  Kept out of the saved model: they
 * depend on when the run is (a->now).
 */
static void note_date(struct ms_activity *a, int64_t ctime, size_t nr_before)
{
	/* one commit dated 9999 must not move the default --until: every
	 * entry would show no changes and every person INACTIVE */
	if (ctime > a->now + 86400) {
		if (!a->future++ || ctime > a->future_max)
			a->future_max = ctime;
	} else if (ctime > a->newest || nr_before == a->future) {
		a->newest = ctime;
	}
	if (!nr_before || ctime < a->oldest)
		a->oldest = ctime;
}

/* On the calling thread, in walk order. */
static int collect(const struct ms_commit *c, void *data)
{
	struct ms_activity *a = data;
	uint32_t *ents = c->user;
	struct crec r;
	unsigned last_sob = MS_IDENT_NONE;
	char *mpaths;

	memset(&r, 0, sizeof(r));   /* padding too: the record is saved */
	ms_unhex(c->id, 20, r.raw);
	r.atime = c->author.time;
	r.ctime = c->committer.time;
	r.aoff = (int16_t)c->author.offset;
	r.coff = (int16_t)c->committer.offset;
	ms_ident_set_evidence(a->ident, c->id, true);
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
		tag.token = act_intern(a, t->token, t->kind);
		tag.review = t->kind == MS_TRAILER_REVIEWED_BY ||
			     t->kind == MS_TRAILER_ACKED_BY;
		if (tag.review && tag.person != r.author)
			r.reviewed = true;
		if (t->kind == MS_TRAILER_SIGNED_OFF_BY)
			last_sob = tag.person;
		g_array_append_val(a->tags, tag);
		r.nr_tag++;
	}
	note_distinct(a, &r);
	mpaths = maintainers_paths(c);
	if (mpaths) {
		g_array_append_val(a->maint_changes, r.raw);
		g_ptr_array_add(a->maint_paths, mpaths);
	}
	r.applier = r.committer;
	if (last_sob != MS_IDENT_NONE &&
	    (act_is_word_bot(c->committer.name) ||
	     act_is_word_bot(c->committer.email)))
		r.applier = last_sob;
	note_date(a, r.ctime, a->commits->len);
	if (a->walked_off && a->walked_off->len == a->commits->len + 1) {
		for (size_t i = 0; i < c->nr_paths; i++) {
			const char *p = g_string_chunk_insert_const(
				a->walked_chunk, c->paths[i]);

			g_ptr_array_add(a->walked_paths, (gpointer)p);
		}
		g_array_append_val(a->walked_off, a->walked_paths->len);
	}
	g_array_append_val(a->commits, r);
	if (a->opts->progress)
		a->opts->progress(a->commits->len, a->opts->progress_data);
	return 0;
}

void act_note_commit(struct ms_activity *a, const struct crec *r,
		     size_t nr_before)
{
	note_distinct(a, r);
	note_date(a, r->ctime, nr_before);
}

void ms_activity_foreach_path(const struct ms_activity *a,
			      void (*fn)(const char *path, void *data),
			      void *data)
{
	GHashTableIter it;
	gpointer k;

	/* act_match_path() cached every path of every commit delivered; a
	 * model read back from the store carries them apart */
	g_hash_table_iter_init(&it, a->match_cache);
	while (g_hash_table_iter_next(&it, &k, NULL))
		fn(k, data);
	if (!a->paths)
		return;
	g_hash_table_iter_init(&it, a->paths);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (!g_hash_table_contains(a->match_cache, k))
			fn(k, data);
}

void act_walk_fns(struct ms_walk_opts *wo, struct ms_activity *a)
{
	wo->prepare = prepare;
	wo->fn = collect;
	wo->release = release;
	wo->data = a;
}
