/*
 * mail-index.c - compact per-message records, threads, series, version
 * families and review tags (see mail.h).
 *
 * Threads are the connected components of Message-IDs joined by
 * References and In-Reply-To (a union-find over every id seen), so arrival
 * order, missing parents and duplicate ids do not matter.  Series are
 * built once everything is in: a cover letter and the patches that reply
 * to it (directly or through earlier patches), or, without a cover, the
 * first patch and its followers.
 */
#include "mail.h"
#include "person.h"

#include <string.h>

struct ms_mail_index {
	GArray *recs;            /* struct ms_mail_rec */
	GArray *tags;            /* struct ms_mail_tag */
	GStringChunk *strings;
	GHashTable *by_id;       /* id -> first record index + 1 */
	GHashTable *node_of;     /* id -> union-find node */
	GArray *uf;              /* guint32 parents */
	GArray *rec_node;        /* guint32 per record */
	GPtrArray *series;       /* struct ms_mail_series * */
	GHashTable *reviews_of;  /* target record + 1 -> GArray of recs */
	uint64_t bytes;
	uint32_t missing;
	size_t real_ids;
	bool finished;
};

static void free_series(gpointer p)
{
	struct ms_mail_series *s = p;
	g_array_unref(s->patches);
	g_free(s);
}

struct ms_mail_index *ms_mail_index_new(void)
{
	struct ms_mail_index *idx = g_new0(struct ms_mail_index, 1);

	idx->recs = g_array_new(FALSE, TRUE, sizeof(struct ms_mail_rec));
	idx->tags = g_array_new(FALSE, TRUE, sizeof(struct ms_mail_tag));
	idx->strings = g_string_chunk_new(64 * 1024);
	idx->by_id = g_hash_table_new(g_str_hash, g_str_equal);
	idx->node_of = g_hash_table_new(g_str_hash, g_str_equal);
	idx->uf = g_array_new(FALSE, FALSE, sizeof(guint32));
	idx->rec_node = g_array_new(FALSE, FALSE, sizeof(guint32));
	idx->series = g_ptr_array_new_with_free_func(free_series);
	idx->reviews_of = g_hash_table_new_full(
		NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
	return idx;
}

void ms_mail_index_free(struct ms_mail_index *idx)
{
	if (!idx)
		return;
	g_array_unref(idx->recs);
	g_array_unref(idx->tags);
	g_string_chunk_free(idx->strings);
	g_hash_table_unref(idx->by_id);
	g_hash_table_unref(idx->node_of);
	g_array_unref(idx->uf);
	g_array_unref(idx->rec_node);
	g_ptr_array_unref(idx->series);
	g_hash_table_unref(idx->reviews_of);
	g_free(idx);
}

static const char *intern(struct ms_mail_index *idx, const char *s)
{
	return s ? g_string_chunk_insert_const(idx->strings, s) : NULL;
}

static const char *intern_email(struct ms_mail_index *idx, const char *e)
{
	char *n;
	const char *r;

	if (!e)
		return NULL;
	n = ms_email_normalize(e, 0);
	r = intern(idx, n);
	g_free(n);
	return r;
}

static guint32 uf_find(struct ms_mail_index *idx, guint32 x)
{
	guint32 *p = (guint32 *)(void *)idx->uf->data;

	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

static guint32 node(struct ms_mail_index *idx, const char *id)
{
	gpointer v;
	guint32 n;

	if (g_hash_table_lookup_extended(idx->node_of, id, NULL, &v))
		return GPOINTER_TO_UINT(v);
	n = idx->uf->len;
	g_array_append_val(idx->uf, n);
	g_hash_table_insert(idx->node_of, (gpointer)id, GUINT_TO_POINTER(n));
	return n;
}

static void uf_union(struct ms_mail_index *idx, guint32 a, guint32 b)
{
	guint32 *p = (guint32 *)(void *)idx->uf->data;

	a = uf_find(idx, a);
	b = uf_find(idx, b);
	if (a != b)
		p[a < b ? b : a] = a < b ? a : b;
}

uint32_t ms_mail_index_add(struct ms_mail_index *idx, const struct ms_mail *m)
{
	struct ms_mail_rec r = { 0 };
	uint32_t i = idx->recs->len;
	guint32 me;

	g_assert(!idx->finished);
	if (m->message_id) {
		r.message_id = intern(idx, m->message_id);
	} else {
		char *fake = g_strdup_printf("<missing-%u>", idx->missing++);
		r.message_id = intern(idx, fake);
		g_free(fake);
	}
	if (g_hash_table_contains(idx->by_id, r.message_id)) {
		r.duplicate = true;
	} else {
		g_hash_table_insert(idx->by_id, (gpointer)r.message_id,
				    GUINT_TO_POINTER(i + 1));
		if (m->message_id)
			idx->real_ids++;
	}
	if (m->in_reply_to)
		r.parent_id = intern(idx, m->in_reply_to);
	else if (m->references->len)
		r.parent_id = intern(idx, g_ptr_array_index(
				m->references, m->references->len - 1));
	r.sender_email = intern_email(idx, m->sender_email);
	r.sender_name = intern(idx, m->sender_name);
	r.subject = intern(idx, m->subject.normalized);
	r.change_id = intern(idx, m->change_id);
	r.patch_id = intern(idx, m->patch_id);
	r.date = m->date;
	r.date_valid = m->date_valid;
	r.applied_notice = m->applied_notice;
	r.kind = m->kind;
	r.version = (uint16_t)MIN(m->subject.version, 65535u);
	r.number = (uint16_t)MIN(m->subject.number, 65535u);
	r.total = (uint16_t)MIN(m->subject.total, 65535u);
	r.problems = m->problems;
	r.series = -1;
	r.first_tag = idx->tags->len;
	for (guint k = 0; k < m->trailers->len; k++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[k];
		struct ms_mail_tag tag;
		if (t->kind != MS_TRAILER_REVIEWED_BY &&
		    t->kind != MS_TRAILER_ACKED_BY &&
		    t->kind != MS_TRAILER_TESTED_BY &&
		    t->kind != MS_TRAILER_NACKED_BY)
			continue;
		tag.kind = t->kind;
		tag.email = intern_email(idx, t->email);
		tag.name = intern(idx, t->name);
		g_array_append_val(idx->tags, tag);
		r.n_review_tags++;
	}
	g_array_append_val(idx->recs, r);
	idx->bytes += m->size;

	me = node(idx, r.message_id);
	g_array_append_val(idx->rec_node, me);
	if (m->in_reply_to)
		uf_union(idx, me, node(idx, r.parent_id));
	for (guint k = 0; k < m->references->len; k++)
		uf_union(idx, me, node(idx, intern(idx,
				m->references->pdata[k])));
	return i;
}

size_t ms_mail_index_count(const struct ms_mail_index *idx)
{
	return idx->recs->len;
}

const struct ms_mail_rec *ms_mail_index_get(const struct ms_mail_index *idx,
					    uint32_t i)
{
	return i < idx->recs->len
		       ? &g_array_index(idx->recs, struct ms_mail_rec, i)
		       : NULL;
}

static struct ms_mail_rec *rec_at(struct ms_mail_index *idx, uint32_t i)
{
	return &g_array_index(idx->recs, struct ms_mail_rec, i);
}

static int64_t lookup(const struct ms_mail_index *idx, const char *id)
{
	gpointer v;

	if (!id)
		return -1;
	v = g_hash_table_lookup(idx->by_id, id);
	return v ? (int64_t)GPOINTER_TO_UINT(v) - 1 : -1;
}

const struct ms_mail_rec *ms_mail_index_find(const struct ms_mail_index *idx,
					     const char *message_id)
{
	int64_t i = lookup(idx, message_id);
	return i < 0 ? NULL : ms_mail_index_get(idx, (uint32_t)i);
}

const struct ms_mail_tag *ms_mail_index_tags(const struct ms_mail_index *idx,
					     const struct ms_mail_rec *rec)
{
	return rec->n_review_tags
		       ? &g_array_index(idx->tags, struct ms_mail_tag,
					rec->first_tag)
		       : NULL;
}

/* The posting a patch belongs to, creating one for a series head. */
static int32_t posting_of(struct ms_mail_index *idx, uint32_t i, int depth)
{
	struct ms_mail_rec *r = rec_at(idx, i);
	struct ms_mail_series *s;
	int64_t p;

	if (r->series >= 0)
		return r->series;
	p = lookup(idx, r->parent_id);
	if (r->kind == MS_MAIL_PATCH && p >= 0 && (uint32_t)p != i &&
	    depth < 1000) {
		struct ms_mail_rec *pr = rec_at(idx, (uint32_t)p);
		if ((pr->kind == MS_MAIL_COVER ||
		     (pr->kind == MS_MAIL_PATCH && pr->number > 0 &&
		      r->number > 0)) &&
		    pr->version == r->version) {
			int32_t ps = posting_of(idx, (uint32_t)p, depth + 1);
			if (ps >= 0) {
				r->series = ps;
				return ps;
			}
		}
	}
	s = g_new0(struct ms_mail_series, 1);
	s->root = i;
	s->has_cover = r->kind == MS_MAIL_COVER;
	s->version = r->version;
	s->total = r->total;
	s->patches = g_array_new(FALSE, FALSE, sizeof(guint32));
	s->family = -1;
	g_ptr_array_add(idx->series, s);
	r->series = (int32_t)idx->series->len - 1;
	return r->series;
}

static gint by_number(gconstpointer a, gconstpointer b, gpointer data)
{
	struct ms_mail_index *idx = data;
	guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;
	int nx = rec_at(idx, x)->number, ny = rec_at(idx, y)->number;

	if (nx != ny)
		return nx < ny ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void build_series(struct ms_mail_index *idx)
{
	GHashTable *families = g_hash_table_new_full(g_str_hash, g_str_equal,
						     g_free, NULL);
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		struct ms_mail_rec *r = rec_at(idx, i);
		if (r->duplicate)
			continue;
		if (r->kind == MS_MAIL_COVER || r->kind == MS_MAIL_PATCH)
			posting_of(idx, i, 0);
	}
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		struct ms_mail_rec *r = rec_at(idx, i);
		if (r->series >= 0 && r->kind == MS_MAIL_PATCH) {
			struct ms_mail_series *s =
				idx->series->pdata[r->series];
			g_array_append_val(s->patches, i);
		}
	}
	for (guint k = 0; k < idx->series->len; k++) {
		struct ms_mail_series *s = idx->series->pdata[k];
		struct ms_mail_rec *root = rec_at(idx, s->root);
		const char *change_id = root->change_id;
		char *key;
		gpointer v;

		g_array_sort_with_data(s->patches, by_number, idx);
		for (guint j = 0; !change_id && j < s->patches->len; j++)
			change_id = rec_at(idx, g_array_index(
				s->patches, guint32, j))->change_id;
		if (change_id)
			key = g_strconcat("c\001", change_id, NULL);
		else
			key = g_strconcat("s\001", root->subject ? root->subject
								 : "",
					  "\001", root->sender_email
							  ? root->sender_email
							  : "",
					  NULL);
		if (g_hash_table_lookup_extended(families, key, NULL, &v)) {
			s->family = GPOINTER_TO_INT(v);
			g_free(key);
		} else {
			s->family = (int32_t)k;
			g_hash_table_insert(families, key,
					    GINT_TO_POINTER((int)k));
		}
	}
	g_hash_table_unref(families);
}

/* Each review tag goes to the nearest patch or cover letter above it. */
static void link_reviews(struct ms_mail_index *idx)
{
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		struct ms_mail_rec *r = rec_at(idx, i);
		int64_t p;
		int depth = 0;

		if (!r->n_review_tags || r->duplicate ||
		    r->kind == MS_MAIL_PATCH || r->kind == MS_MAIL_COVER)
			continue;
		p = lookup(idx, r->parent_id);
		while (p >= 0 && depth++ < 200) {
			struct ms_mail_rec *pr = rec_at(idx, (uint32_t)p);
			gpointer key = GUINT_TO_POINTER((guint)p + 1);
			GArray *list;
			if (pr->kind != MS_MAIL_PATCH &&
			    pr->kind != MS_MAIL_COVER) {
				p = lookup(idx, pr->parent_id);
				continue;
			}
			list = g_hash_table_lookup(idx->reviews_of, key);
			if (!list) {
				list = g_array_new(FALSE, FALSE,
						   sizeof(guint32));
				g_hash_table_insert(idx->reviews_of, key,
						    list);
			}
			g_array_append_val(list, i);
			break;
		}
	}
}

void ms_mail_index_finish(struct ms_mail_index *idx)
{
	GHashTable *threads;

	g_assert(!idx->finished);
	idx->finished = true;
	threads = g_hash_table_new(NULL, NULL);
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		guint32 root = uf_find(idx, g_array_index(idx->rec_node,
							  guint32, i));
		gpointer v;
		if (!g_hash_table_lookup_extended(threads,
						  GUINT_TO_POINTER(root), NULL,
						  &v)) {
			v = GUINT_TO_POINTER(g_hash_table_size(threads));
			g_hash_table_insert(threads, GUINT_TO_POINTER(root),
					    v);
		}
		rec_at(idx, i)->thread = GPOINTER_TO_UINT(v);
	}
	g_hash_table_unref(threads);
	build_series(idx);
	link_reviews(idx);
}

size_t ms_mail_index_series_count(const struct ms_mail_index *idx)
{
	return idx->series->len;
}

const struct ms_mail_series *
ms_mail_index_series(const struct ms_mail_index *idx, uint32_t i)
{
	return i < idx->series->len ? idx->series->pdata[i] : NULL;
}

static void reviews_of(const struct ms_mail_index *idx, uint32_t target,
		       void (*fn)(const struct ms_mail_rec *,
				  const struct ms_mail_tag *, void *),
		       void *data)
{
	GArray *list = g_hash_table_lookup(idx->reviews_of,
					   GUINT_TO_POINTER(target + 1));
	for (guint k = 0; list && k < list->len; k++) {
		const struct ms_mail_rec *from = ms_mail_index_get(
			idx, g_array_index(list, guint32, k));
		const struct ms_mail_tag *tags = ms_mail_index_tags(idx, from);
		for (uint32_t t = 0; t < from->n_review_tags; t++)
			fn(from, &tags[t], data);
	}
}

void ms_mail_index_patch_reviews(const struct ms_mail_index *idx, uint32_t i,
				 void (*fn)(const struct ms_mail_rec *from,
					    const struct ms_mail_tag *tag,
					    void *data),
				 void *data)
{
	const struct ms_mail_rec *r = ms_mail_index_get(idx, i);

	if (!r)
		return;
	reviews_of(idx, i, fn, data);
	if (r->series >= 0) {
		const struct ms_mail_series *s = idx->series->pdata[r->series];
		if (s->has_cover && s->root != i)
			reviews_of(idx, s->root, fn, data);
	}
}

static void count_tag(const struct ms_mail_rec *from,
		      const struct ms_mail_tag *tag, void *data)
{
	(void)from;
	if (tag->kind != MS_TRAILER_NACKED_BY)
		*(bool *)data = true;
}

void ms_mail_index_stats(const struct ms_mail_index *idx,
			 struct ms_mail_stats *st)
{
	GHashTable *senders = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *families = g_hash_table_new(NULL, NULL);

	memset(st, 0, sizeof(*st));
	st->messages = idx->recs->len;
	st->message_ids = idx->real_ids;
	st->series_postings = idx->series->len;
	st->bytes = idx->bytes;
	for (guint k = 0; k < idx->series->len; k++) {
		const struct ms_mail_series *s = idx->series->pdata[k];
		g_hash_table_add(families, GINT_TO_POINTER(s->family + 1));
	}
	st->series = g_hash_table_size(families);
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);
		for (int p = 0; p < MS_MAIL_P__COUNT; p++)
			if (r->problems & (1u << p))
				st->problems[p]++;
		if (r->sender_email)
			g_hash_table_add(senders, (gpointer)r->sender_email);
		if (r->date_valid) {
			if (!st->have_dates || r->date < st->first_date)
				st->first_date = r->date;
			if (!st->have_dates || r->date > st->last_date)
				st->last_date = r->date;
			st->have_dates = true;
		}
		if (r->thread + 1 > st->threads)
			st->threads = r->thread + 1;
		if (r->duplicate)
			continue;
		switch (r->kind) {
		case MS_MAIL_PATCH: {
			bool reviewed = false;
			st->patches++;
			ms_mail_index_patch_reviews(idx, i, count_tag,
						    &reviewed);
			st->reviewed_patches += reviewed;
			break;
		}
		case MS_MAIL_COVER: st->cover_letters++; break;
		case MS_MAIL_REVIEW: st->review_replies++; st->replies++;
			break;
		case MS_MAIL_NACK: st->nacks++; st->replies++; break;
		case MS_MAIL_REPLY: st->replies++; break;
		case MS_MAIL_PULL: st->pulls++; break;
		case MS_MAIL_BOT:
			st->bots++;
			st->applied_notices += r->applied_notice;
			break;
		case MS_MAIL_OTHER: break;
		}
	}
	st->senders = g_hash_table_size(senders);
	g_hash_table_unref(senders);
	g_hash_table_unref(families);
}
