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
#include "bytes.h"
#include "person.h"
#include "uf.h"

#include <string.h>

struct ms_mail_index {
	GArray *recs;            /* struct ms_mail_rec */
	GArray *tags;            /* struct ms_mail_tag */
	GStringChunk *strings;
	GHashTable *interned;    /* each string of `strings`, once */
	size_t mem;              /* ms_mail_index_memory() */
	GHashTable *node_of;     /* id -> union-find node */
	GArray *uf;              /* guint32 parents */
	GArray *node_rec;        /* guint32 per node: its first record + 1 */
	GArray *rec_node;        /* guint32 per record */
	GPtrArray *series;       /* struct ms_mail_series * */
	GHashTable *reviews_of;  /* target record + 1 -> GArray of recs */
	GHashTable *pulls;       /* subject key -> GArray of the pull
				    requests whose shortlog names it */
	uint64_t bytes;
	uint32_t missing;
	size_t real_ids;
	bool finished;
	GBytes *snapshot;        /* the strings of a loaded snapshot */
	const char *snap_text;   /* ... its text section */
	size_t snap_text_len;
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
	idx->interned = g_hash_table_new(ms_str_hash, g_str_equal);
	idx->node_of = g_hash_table_new(ms_str_hash, g_str_equal);
	idx->uf = g_array_new(FALSE, FALSE, sizeof(guint32));
	idx->node_rec = g_array_new(FALSE, TRUE, sizeof(guint32));
	idx->rec_node = g_array_new(FALSE, FALSE, sizeof(guint32));
	idx->series = g_ptr_array_new_with_free_func(free_series);
	idx->reviews_of = g_hash_table_new_full(
		NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
	idx->pulls = g_hash_table_new_full(ms_str_hash, g_str_equal, NULL,
					   (GDestroyNotify)g_array_unref);
	return idx;
}

void ms_mail_index_free(struct ms_mail_index *idx)
{
	if (!idx)
		return;
	g_array_unref(idx->recs);
	g_array_unref(idx->tags);
	g_string_chunk_free(idx->strings);
	g_hash_table_unref(idx->interned);
	g_array_unref(idx->node_rec);
	g_hash_table_unref(idx->node_of);
	g_array_unref(idx->uf);
	g_array_unref(idx->rec_node);
	g_ptr_array_unref(idx->series);
	g_hash_table_unref(idx->reviews_of);
	g_hash_table_unref(idx->pulls);
	g_bytes_unref(idx->snapshot);
	g_free(idx);
}

/* What one hash table entry costs, about: key, value and hash, in a
 * table GLib keeps at most 3/4 full. */
#define SLOT_COST (3 * sizeof(void *))

static const char *intern(struct ms_mail_index *idx, const char *s)
{
	char *r;
	size_t len;

	if (!s)
		return NULL;
	r = g_hash_table_lookup(idx->interned, s);
	if (r)
		return r;
	len = strlen(s);
	r = g_string_chunk_insert_len(idx->strings, s, (gssize)len);
	g_hash_table_add(idx->interned, r);
	idx->mem += len + 1 + SLOT_COST;
	return r;
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

static guint32 node(struct ms_mail_index *idx, const char *id)
{
	gpointer v;
	guint32 n;

	if (g_hash_table_lookup_extended(idx->node_of, id, NULL, &v))
		return GPOINTER_TO_UINT(v);
	n = idx->uf->len;
	g_array_append_val(idx->uf, n);
	g_array_set_size(idx->node_rec, n + 1);
	g_hash_table_insert(idx->node_of, (gpointer)id, GUINT_TO_POINTER(n));
	idx->mem += 2 * sizeof(guint32) + SLOT_COST;
	return n;
}

/* One thread: node `me` and the node of message id `id` (made if new,
 * which may move the parents). */
static void join(struct ms_mail_index *idx, guint32 me, const char *id)
{
	guint32 other = node(idx, id);

	ms_uf_union((guint32 *)(void *)idx->uf->data, me, other);
}

/* The patches applied notice `m` names, after the review tags. */
static void add_applied(struct ms_mail_index *idx, const struct ms_mail *m,
			struct ms_mail_rec *r)
{
	for (guint k = 0; k < m->trailers->len && r->n_applied < 65535; k++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[k];
		struct ms_mail_subject subj;
		struct ms_mail_tag tag = { MS_TRAILER_APPLIED, NULL, NULL };
		char *key;

		if (t->kind != MS_TRAILER_APPLIED)
			continue;
		ms_mail_parse_subject(t->token, &subj);
		key = ms_mail_subject_key(subj.normalized ? subj.normalized :
					  "");
		tag.name = intern(idx, key);
		tag.email = *t->value ? intern(idx, t->value) : NULL;
		g_free(key);
		ms_mail_subject_release(&subj);
		g_array_append_val(idx->tags, tag);
		idx->mem += sizeof(tag);
		r->n_applied++;
	}
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
	/* the message's own node first (the numbering snapshots keep) */
	me = node(idx, r.message_id);
	if (g_array_index(idx->node_rec, guint32, me)) {
		r.duplicate = true;
	} else {
		g_array_index(idx->node_rec, guint32, me) = i + 1;
		if (m->message_id)
			idx->real_ids++;
	}
	if (m->in_reply_to)
		r.parent_id = intern(idx, m->in_reply_to);
	else if (m->references->len)
		r.parent_id = intern(idx, g_ptr_array_index(
				m->references, m->references->len - 1));
	if (m->references->len > (m->in_reply_to ? 0u : 1u)) {
		/* kept for the fallback of missing parents (finish) */
		char *refs;

		g_ptr_array_add(m->references, NULL);
		refs = g_strjoinv(" ", (char **)m->references->pdata);
		g_ptr_array_set_size(m->references, m->references->len - 1);
		r.references = intern(idx, refs);
		g_free(refs);
	}
	r.sender_email = intern_email(idx, m->sender_email);
	r.sender_name = intern(idx, m->sender_name);
	r.via_list = ms_mail_via_list(m);
	r.subject = intern(idx, m->subject.normalized);
	r.change_id = intern(idx, m->change_id);
	r.patch_id = intern(idx, m->patch_id);
	r.date = m->date;
	r.date_valid = m->date_valid;
	r.notice = m->notice;
	r.stable = ms_mail_subject_stable(&m->subject);
	r.stable_notice = ms_mail_subject_stable_notice(&m->subject);
	r.foreign = ms_mail_foreign_project(&m->subject, m->subject_raw,
					    NULL) != NULL;
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
		idx->mem += sizeof(tag);
		r.n_review_tags++;
	}
	add_applied(idx, m, &r);
	g_array_append_val(idx->recs, r);
	idx->mem += sizeof(r) + sizeof(guint32);
	idx->bytes += m->size;

	g_array_append_val(idx->rec_node, me);
	if (m->in_reply_to)
		join(idx, me, r.parent_id);
	for (guint k = 0; k < m->references->len; k++)
		join(idx, me, intern(idx, m->references->pdata[k]));
	return i;
}

size_t ms_mail_index_memory(const struct ms_mail_index *idx)
{
	return idx->mem;
}

int ms_mail_index_check_size(const struct ms_mail_index *idx,
			     const char *path)
{
	size_t max = ms_mail_max_index_size();

	if (idx->mem <= max)
		return 0;
	return ms_error_set(MS_ERROR, "%s: the messages read need more "
			    "memory than the limit of %zu MiB, after %u "
			    "messages (--max-index-size MIB raises it)",
			    path ? path : "(archive)", max >> 20,
			    idx->recs->len);
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

	if (!id || !g_hash_table_lookup_extended(idx->node_of, id, NULL, &v))
		return -1;
	return (int64_t)g_array_index(idx->node_rec, guint32,
				      GPOINTER_TO_UINT(v)) - 1;
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

const struct ms_mail_tag *
ms_mail_index_applied(const struct ms_mail_index *idx,
		      const struct ms_mail_rec *rec)
{
	return rec->n_applied
		       ? &g_array_index(idx->tags, struct ms_mail_tag,
					rec->first_tag + rec->n_review_tags)
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
		/* a patch in reply to a cover letter belongs to it, whatever
		 * the version counters say (a v3 patch sent below the v2
		 * cover); patch after patch only within one version */
		if (pr->kind == MS_MAIL_COVER ||
		    (pr->kind == MS_MAIL_PATCH && pr->number > 0 &&
		     r->number > 0 && pr->version == r->version)) {
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
	GHashTable *families = g_hash_table_new_full(ms_str_hash, g_str_equal,
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
		if (change_id) {
			key = g_strconcat("c\001", change_id, NULL);
		} else {
			/* subjects as patches are grouped: casefolded,
			 * without trailing dots */
			char *skey = ms_mail_subject_key(root->subject);

			key = g_strconcat("s\001", skey, "\001",
					  root->sender_email ?
					  root->sender_email : "", NULL);
			g_free(skey);
		}
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

/* Each subject a pull request's shortlog names, to the request. */
static void link_pulls(struct ms_mail_index *idx)
{
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		const struct ms_mail_rec *r = rec_at(idx, i);
		const struct ms_mail_tag *a = ms_mail_index_applied(idx, r);
		GArray *list;

		for (uint16_t k = 0; r->kind == MS_MAIL_PULL && !r->duplicate &&
		     k < r->n_applied; k++) {
			list = g_hash_table_lookup(idx->pulls, a[k].name);
			if (!list) {
				list = g_array_new(FALSE, FALSE,
						   sizeof(guint32));
				g_hash_table_insert(idx->pulls,
						    (gpointer)a[k].name, list);
			}
			if (!list->len || g_array_index(list, guint32,
							list->len - 1) != i)
				g_array_append_val(list, i);
		}
	}
}

const GArray *ms_mail_index_pulls(const struct ms_mail_index *idx,
				  const char *key)
{
	return g_hash_table_lookup(idx->pulls, key);
}

/*
 * A reply whose parent is not in the archive hangs below the last
 * message of its References that is (public-inbox threads so): a reply
 * to a lost message still answers the patch above it.
 */
static void fallback_parents(struct ms_mail_index *idx)
{
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		struct ms_mail_rec *r = rec_at(idx, i);
		const char *refs = r->references, *end;

		if (!refs || !r->parent_id || lookup(idx, r->parent_id) >= 0)
			continue;
		end = refs + strlen(refs);
		while (end > refs) {
			const char *b = end;
			char *id;
			gpointer key, v;

			while (b > refs && b[-1] != ' ')
				b--;
			id = g_strndup(b, (size_t)(end - b));
			if (g_hash_table_lookup_extended(idx->node_of, id,
							 &key, &v) &&
			    lookup(idx, key) >= 0 &&
			    (uint32_t)lookup(idx, key) != i) {
				r->parent_id = key;
				g_free(id);
				break;
			}
			g_free(id);
			end = b > refs ? b - 1 : refs;
		}
	}
}

/*
 * A patch posting sent in answer to the same patch (same subject, version
 * and number) by someone else is a reply: Outlook keeps the subject
 * without "Re:" and quotes the whole message, diff and all, below a
 * top-posted answer ("Tested-by: ..."), so the quoted diff parses as a
 * new patch.  Its review tags then go to the patch it answers.  A resend
 * by the patch's own sender stays a patch.
 */
static void quoting_replies(struct ms_mail_index *idx)
{
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		struct ms_mail_rec *r = rec_at(idx, i), *pr;
		int64_t p;

		if (r->kind != MS_MAIL_PATCH || r->duplicate || !r->subject ||
		    !r->sender_email)
			continue;
		p = lookup(idx, r->parent_id);
		if (p < 0 || (uint32_t)p == i)
			continue;
		pr = rec_at(idx, (uint32_t)p);
		if ((pr->kind == MS_MAIL_PATCH || pr->kind == MS_MAIL_COVER) &&
		    pr->subject && !strcmp(pr->subject, r->subject) &&
		    pr->version == r->version && pr->number == r->number &&
		    pr->sender_email && strcmp(pr->sender_email,
					       r->sender_email))
			r->kind = MS_MAIL_REPLY;
	}
}

void ms_mail_index_finish(struct ms_mail_index *idx)
{
	/* each root's thread number + 1, numbered as first met */
	guint32 *thread = g_new0(guint32, idx->uf->len + 1), nr = 0;

	g_assert(!idx->finished);
	idx->finished = true;
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		guint32 root = ms_uf_find((guint32 *)(void *)idx->uf->data,
					  g_array_index(idx->rec_node,
							guint32, i));
		if (!thread[root])
			thread[root] = ++nr;
		rec_at(idx, i)->thread = thread[root] - 1;
	}
	g_free(thread);
	fallback_parents(idx);
	quoting_replies(idx);
	build_series(idx);
	link_reviews(idx);
	link_pulls(idx);
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

bool ms_mail_index_span(const struct ms_mail_index *idx, int64_t *first,
			int64_t *last, size_t *misdated)
{
	const int64_t year = 365 * 86400LL;
	GArray *d = g_array_new(FALSE, FALSE, sizeof(int64_t));
	size_t n, most, lo = 0, hi;
	const int64_t *t;

	for (uint32_t i = 0; i < idx->recs->len; i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);

		if (r->date_valid)
			g_array_append_val(d, r->date);
	}
	n = d->len;
	if (misdated)
		*misdated = 0;
	if (!n) {
		g_array_free(d, TRUE);
		return false;
	}
	g_array_sort(d, ms_cmp_i64);
	t = (const int64_t *)(void *)d->data;
	most = n < 10 ? 0 : MAX((size_t)1, n / 100);
	hi = n - 1;
	for (size_t i = 0; i < most; i++)
		if (t[i + 1] - t[i] > year)
			lo = i + 1;
	for (size_t i = 0; i < most; i++)
		if (t[n - 1 - i] - t[n - 2 - i] > year)
			hi = n - 2 - i;
	if (hi < lo)
		lo = 0, hi = n - 1;
	*first = t[lo];
	*last = t[hi];
	if (misdated)
		*misdated = lo + (n - 1 - hi);
	g_array_free(d, TRUE);
	return true;
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
	{
		size_t bad = 0;

		st->have_dates = ms_mail_index_span(idx, &st->first_date,
						    &st->last_date, &bad);
		st->misdated = bad; /* and those dated by receipt, below */
	}
	for (uint32_t i = 0; i < idx->recs->len; i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);
		for (int p = 0; p < MS_MAIL_P__COUNT; p++)
			if (r->problems & (1u << p))
				st->problems[p]++;
		if (r->problems & (1u << MS_MAIL_P_MISDATED))
			st->misdated++;
		if (r->sender_email)
			g_hash_table_add(senders, (gpointer)r->sender_email);
		if (r->thread + 1 > st->threads)
			st->threads = r->thread + 1;
		if (r->duplicate)
			continue;
		st->stable_notices += r->stable_notice;
		switch (r->kind) {
		case MS_MAIL_PATCH: {
			bool reviewed = false;
			st->patches++;
			if (r->stable)
				st->stable_patches++;
			else if (r->foreign)
				st->foreign_patches++;
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
			st->applied_notices += r->notice == MS_MAIL_NOTICE_APPLIED;
			break;
		case MS_MAIL_OTHER: break;
		}
	}
	st->senders = g_hash_table_size(senders);
	g_hash_table_unref(senders);
	g_hash_table_unref(families);
}

/* ---- snapshots ---- */

/*
 * Layout (native byte order), every string an offset into the text
 * section, NONE for NULL:
 *   struct dump_head
 *   text: NUL-terminated strings, back to back
 *   recs: struct dump_rec per record
 *   tags: struct dump_tag per tag
 *   nodes: per union-find node, its id's offset, then its parent
 *   rec_node: the node of each record
 *   extra: per record, a count (NONE: no list), then that many offsets
 * It has no checksum of its own: the store checks every value it keeps
 * (store.h, a CRC-64), so a damaged byte, even inside a string, makes a
 * snapshot unreadable rather than wrong there.
 */
#define NONE UINT32_MAX

struct dump_head {
	uint32_t version, sizes;
	uint32_t nr_recs, nr_tags, nr_nodes, missing;
	uint32_t text_len, extra_len;
	uint64_t bytes, real_ids;
};

/* no padding in the head, and a multiple of 8 bytes: the structs after
 * the text are read in place */
_Static_assert(sizeof(struct dump_head) == 8 * 4 + 2 * 8,
	       "struct dump_head has padding");

struct dump_rec {
	uint32_t message_id, parent_id, sender_email, sender_name;
	uint32_t subject, change_id, patch_id, references;
	uint32_t problems, n_review_tags, first_tag;
	int64_t date;
	uint16_t version, number, total, n_applied;
	uint8_t kind, flags, notice;
};

struct dump_tag {
	uint32_t kind, email, name;
};

#define DUMP_SIZES ((uint32_t)(sizeof(struct dump_head) << 16 | \
			       sizeof(struct dump_rec) << 8 | \
			       sizeof(struct dump_tag)))

enum { F_DATE_VALID = 1, F_DUPLICATE = 2, F_STABLE = 8,
       F_NOTICE = 16, F_FOREIGN = 32, F_VIA_LIST = 64 };

struct dumper {
	GHashTable *offsets;     /* string -> offset + 1 */
	GByteArray *text;        /* the strings after the old ones */
	const char *old;         /* the loaded snapshot's text, kept as is */
	size_t old_len;
	bool too_big;
};

static uint32_t text_of(struct dumper *d, const char *s)
{
	gpointer v;
	size_t off, len;

	if (!s)
		return NONE;
	/* a string of the snapshot the index was loaded from: where it was
	 * (most of them, on a re-run: no hashing) */
	if (s >= d->old && s < d->old + d->old_len)
		return (uint32_t)(s - d->old);
	v = g_hash_table_lookup(d->offsets, s);
	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	off = d->old_len + d->text->len;
	len = strlen(s) + 1;
	if (off + len >= NONE) {
		d->too_big = true;
		return NONE;
	}
	g_byte_array_append(d->text, (const guint8 *)s, (guint)len);
	g_hash_table_insert(d->offsets, (gpointer)s,
			    GUINT_TO_POINTER((guint)off + 1));
	return (uint32_t)off;
}

static void put32(GByteArray *a, uint32_t v)
{
	g_byte_array_append(a, (const guint8 *)&v, sizeof(v));
}

bool ms_mail_index_dump(const struct ms_mail_index *idx,
			const GPtrArray *(*extra)(uint32_t rec, void *data),
			void *extra_data, GByteArray *out)
{
	struct dumper d;
	struct dump_head h = { 0 };
	GArray *recs, *tags;
	GByteArray *nodes, *ext;
	uint32_t n = idx->recs->len;
	GHashTableIter it;
	gpointer k, v;
	uint32_t *node_text;

	g_assert(!idx->finished);
	d.offsets = g_hash_table_new(ms_str_hash, g_str_equal);
	d.text = g_byte_array_new();
	d.old = idx->snap_text;
	d.old_len = idx->snap_text_len;
	d.too_big = false;
	recs = g_array_sized_new(FALSE, TRUE, sizeof(struct dump_rec), n);
	for (uint32_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = &g_array_index(
			idx->recs, struct ms_mail_rec, i);
		struct dump_rec x;

		memset(&x, 0, sizeof(x));  /* padding too: stable bytes */
		x.message_id = text_of(&d, r->message_id);
		x.parent_id = text_of(&d, r->parent_id);
		x.sender_email = text_of(&d, r->sender_email);
		x.sender_name = text_of(&d, r->sender_name);
		x.subject = text_of(&d, r->subject);
		x.change_id = text_of(&d, r->change_id);
		x.patch_id = text_of(&d, r->patch_id);
		x.references = text_of(&d, r->references);
		x.problems = r->problems;
		x.n_review_tags = r->n_review_tags;
		x.first_tag = r->first_tag;
		x.date = r->date;
		x.version = r->version;
		x.number = r->number;
		x.total = r->total;
		x.n_applied = r->n_applied;
		x.kind = (uint8_t)r->kind;
		x.notice = r->notice;
		x.flags = (uint8_t)((r->date_valid ? F_DATE_VALID : 0) |
				    (r->duplicate ? F_DUPLICATE : 0) |
				    (r->stable ? F_STABLE : 0) |
				    (r->stable_notice ? F_NOTICE : 0) |
				    (r->foreign ? F_FOREIGN : 0) |
				    (r->via_list ? F_VIA_LIST : 0));
		g_array_append_val(recs, x);
	}
	tags = g_array_sized_new(FALSE, TRUE, sizeof(struct dump_tag),
				 idx->tags->len);
	for (guint i = 0; i < idx->tags->len; i++) {
		const struct ms_mail_tag *t = &g_array_index(
			idx->tags, struct ms_mail_tag, i);
		struct dump_tag x = { (uint32_t)t->kind, text_of(&d, t->email),
				      text_of(&d, t->name) };

		g_array_append_val(tags, x);
	}
	node_text = g_new(uint32_t, MAX(idx->uf->len, 1));
	g_hash_table_iter_init(&it, idx->node_of);
	while (g_hash_table_iter_next(&it, &k, &v))
		node_text[GPOINTER_TO_UINT(v)] = text_of(&d, k);
	nodes = g_byte_array_sized_new(idx->uf->len * 8);
	for (guint i = 0; i < idx->uf->len; i++) {
		put32(nodes, node_text[i]);
		put32(nodes, g_array_index(idx->uf, guint32, i));
	}
	g_free(node_text);
	ext = g_byte_array_sized_new(n * 8);
	for (uint32_t i = 0; i < n; i++) {
		const GPtrArray *e = extra ? extra(i, extra_data) : NULL;

		put32(ext, e ? e->len : NONE);
		for (guint j = 0; e && j < e->len; j++)
			put32(ext, text_of(&d, e->pdata[j]));
	}
	while ((d.old_len + d.text->len) % 8)  /* the structs after it */
		g_byte_array_append(d.text, (const guint8 *)"", 1);
	if (!d.too_big) {
		size_t sizes[] = {
			sizeof(h), d.old_len, d.text->len,
			recs->len * sizeof(struct dump_rec),
			tags->len * sizeof(struct dump_tag), nodes->len,
			n * sizeof(guint32), ext->len,
		};
		const void *from[G_N_ELEMENTS(sizes)];
		size_t at = out->len, total = 0;

		h.version = MS_MAIL_INDEX_DUMP_VERSION;
		h.sizes = DUMP_SIZES;
		h.nr_recs = n;
		h.nr_tags = idx->tags->len;
		h.nr_nodes = idx->uf->len;
		h.missing = idx->missing;
		h.text_len = (uint32_t)(d.old_len + d.text->len);
		h.extra_len = ext->len;
		h.bytes = idx->bytes;
		h.real_ids = idx->real_ids;
		from[0] = &h;
		from[1] = d.old;
		from[2] = d.text->data;
		from[3] = recs->data;
		from[4] = tags->data;
		from[5] = nodes->data;
		from[6] = idx->rec_node->data;
		from[7] = ext->data;
		/* sized once: tens of megabytes, written once */
		for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++)
			total += sizes[i];
		if (total > G_MAXUINT - at) {
			d.too_big = true;
		} else {
			g_byte_array_set_size(out, (guint)(at + total));
			for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
				if (sizes[i])
					memcpy(out->data + at, from[i],
					       sizes[i]);
				at += sizes[i];
			}
		}
	}
	g_byte_array_unref(ext);
	g_byte_array_unref(nodes);
	g_array_unref(tags);
	g_array_unref(recs);
	g_byte_array_unref(d.text);
	g_hash_table_unref(d.offsets);
	return !d.too_big;
}

static void strv_free(gpointer p)
{
	g_clear_pointer(&p, g_ptr_array_unref);
}

/* A reader of the sections: each take() checks the bytes are there. */
struct undump {
	const guint8 *p, *end;
	const char *text;
	uint32_t text_len;
	bool bad;
};

static const void *take(struct undump *u, size_t n, size_t size)
{
	const guint8 *p = u->p;

	if (u->bad || (size && n > (size_t)(u->end - u->p) / size)) {
		u->bad = true;
		return NULL;
	}
	u->p += n * size;
	return p;
}

static const char *str_at(struct undump *u, uint32_t off)
{
	if (off == NONE)
		return NULL;
	if (off >= u->text_len) {
		u->bad = true;
		return NULL;
	}
	return u->text + off;
}

/* What a loaded snapshot of `size` bytes holds (ms_mail_index_memory):
 * the bytes, and its records, tags and nodes as ms_mail_index_add()
 * counts them. */
static size_t loaded_memory(size_t size, const struct dump_head *h)
{
	return size + (size_t)h->nr_recs * (sizeof(struct ms_mail_rec) +
					    sizeof(guint32)) +
		(size_t)h->nr_tags * sizeof(struct ms_mail_tag) +
		(size_t)h->nr_nodes * (2 * sizeof(guint32) + SLOT_COST);
}

struct ms_mail_index *ms_mail_index_load(GBytes *data, GPtrArray **extra)
{
	struct undump u = { 0 };
	struct dump_head h;
	const struct dump_rec *dr;
	const struct dump_tag *dt;
	const uint32_t *nodes, *rn;
	struct ms_mail_index *idx;
	GPtrArray *ext = NULL;
	gsize size;

	if (extra)
		*extra = NULL;
	u.p = g_bytes_get_data(data, &size);
	u.end = u.p + size;
	if (!u.p || size < sizeof(h))
		return NULL;
	memcpy(&h, u.p, sizeof(h));
	u.p += sizeof(h);
	if (h.version != MS_MAIL_INDEX_DUMP_VERSION || h.sizes != DUMP_SIZES)
		return NULL;
	u.text = take(&u, h.text_len, 1);
	u.text_len = h.text_len;
	/* the structs are read in place: the sections must be aligned */
	dr = take(&u, h.nr_recs, sizeof(*dr));
	dt = take(&u, h.nr_tags, sizeof(*dt));
	nodes = take(&u, h.nr_nodes, 2 * sizeof(uint32_t));
	rn = take(&u, h.nr_recs, sizeof(uint32_t));
	if (u.bad || (h.text_len && u.text[h.text_len - 1]) ||
	    (uintptr_t)dr % _Alignof(struct dump_rec) ||
	    (uintptr_t)dt % _Alignof(struct dump_tag) ||
	    (uintptr_t)nodes % _Alignof(uint32_t) || u.end - u.p !=
	    (ptrdiff_t)h.extra_len)
		return NULL;
	idx = ms_mail_index_new();
	idx->snapshot = g_bytes_ref(data);
	idx->snap_text = u.text;
	idx->snap_text_len = h.text_len;
	idx->missing = h.missing;
	idx->real_ids = (size_t)h.real_ids;
	idx->bytes = h.bytes;
	idx->mem = loaded_memory(size, &h);
	g_array_set_size(idx->recs, h.nr_recs);
	for (uint32_t i = 0; i < h.nr_recs && !u.bad; i++) {
		struct ms_mail_rec *r = rec_at(idx, i);
		const struct dump_rec *x = &dr[i];

		r->message_id = str_at(&u, x->message_id);
		r->parent_id = str_at(&u, x->parent_id);
		r->sender_email = str_at(&u, x->sender_email);
		r->sender_name = str_at(&u, x->sender_name);
		r->subject = str_at(&u, x->subject);
		r->change_id = str_at(&u, x->change_id);
		r->patch_id = str_at(&u, x->patch_id);
		r->references = str_at(&u, x->references);
		r->problems = x->problems;
		r->n_review_tags = x->n_review_tags;
		r->first_tag = x->first_tag;
		r->date = x->date;
		r->version = x->version;
		r->number = x->number;
		r->total = x->total;
		r->n_applied = x->n_applied;
		r->kind = (enum ms_mail_kind)x->kind;
		r->date_valid = x->flags & F_DATE_VALID;
		r->duplicate = x->flags & F_DUPLICATE;
		r->notice = x->notice;
		r->stable = x->flags & F_STABLE;
		r->stable_notice = x->flags & F_NOTICE;
		r->foreign = x->flags & F_FOREIGN;
		r->via_list = x->flags & F_VIA_LIST;
		r->series = -1;
		if (!r->message_id ||
		    (uint64_t)r->first_tag + r->n_review_tags +
		    r->n_applied > h.nr_tags)
			u.bad = true;
	}
	g_array_set_size(idx->tags, h.nr_tags);
	for (uint32_t i = 0; i < h.nr_tags && !u.bad; i++) {
		struct ms_mail_tag *t = &g_array_index(idx->tags,
						       struct ms_mail_tag, i);

		t->kind = (enum ms_trailer_kind)dt[i].kind;
		t->email = str_at(&u, dt[i].email);
		t->name = str_at(&u, dt[i].name);
	}
	g_array_set_size(idx->uf, h.nr_nodes);
	for (uint32_t i = 0; i < h.nr_nodes && !u.bad; i++) {
		const char *id = str_at(&u, nodes[2 * i]);

		if (!id || nodes[2 * i + 1] >= h.nr_nodes) {
			u.bad = true;
			break;
		}
		g_array_index(idx->uf, guint32, i) = nodes[2 * i + 1];
		g_hash_table_insert(idx->node_of, (gpointer)id,
				    GUINT_TO_POINTER(i));
	}
	g_array_set_size(idx->rec_node, h.nr_recs);
	g_array_set_size(idx->node_rec, h.nr_nodes);
	for (uint32_t i = 0; i < h.nr_recs && !u.bad; i++) {
		guint32 *first;

		if (rn[i] >= h.nr_nodes) {
			u.bad = true;
			break;
		}
		g_array_index(idx->rec_node, guint32, i) = rn[i];
		/* a record's node is its own Message-ID's */
		first = &g_array_index(idx->node_rec, guint32, rn[i]);
		if (!rec_at(idx, i)->duplicate && !*first)
			*first = i + 1;
		else if (!rec_at(idx, i)->duplicate)
			u.bad = true;
	}
	if (extra && !u.bad) {
		ext = g_ptr_array_new_full(h.nr_recs, strv_free);
		for (uint32_t i = 0; i < h.nr_recs && !u.bad; i++) {
			const uint32_t *c = take(&u, 1, sizeof(uint32_t));
			const uint32_t *offs;
			GPtrArray *l;

			if (!c || *c == NONE) {
				g_ptr_array_add(ext, NULL);
				continue;
			}
			offs = take(&u, *c, sizeof(uint32_t));
			if (!offs)
				break;
			l = g_ptr_array_sized_new(*c);
			for (uint32_t j = 0; j < *c; j++) {
				const char *f = str_at(&u, offs[j]);

				g_ptr_array_add(l, (gpointer)(f ? f : ""));
			}
			g_ptr_array_add(ext, l);
		}
	}
	if (u.bad) {
		g_clear_pointer(&ext, g_ptr_array_unref);
		ms_mail_index_free(idx);
		return NULL;
	}
	if (extra)
		*extra = ext;
	return idx;
}
