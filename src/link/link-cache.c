/*
 * link-cache.c - mail-to-commit links kept in the store (link-cache.h).
 */
#include "link-cache.h"
#include "store.h"

#include <stdio.h>
#include <string.h>

/*
 * The bytes of the fingerprint, gathered in a buffer and passed to the
 * checksum in blocks: a field at a time, the calls cost more than the
 * hashing (a window holds hundreds of thousands of records).
 */
struct feed {
	GChecksum *c;
	size_t len;
	guchar buf[64 * 1024];
};

static void feed_flush(struct feed *f)
{
	if (f->len)
		g_checksum_update(f->c, f->buf, (gssize)f->len);
	f->len = 0;
}

static void feed(struct feed *f, const void *p, size_t n)
{
	if (f->len + n > sizeof(f->buf)) {
		feed_flush(f);
		if (n > sizeof(f->buf)) {
			g_checksum_update(f->c, p, (gssize)n);
			return;
		}
	}
	memcpy(f->buf + f->len, p, n);
	f->len += n;
}

static void hash_str(struct feed *f, const char *s)
{
	if (s)
		feed(f, s, strlen(s) + 1);
	else
		feed(f, "\1", 1);
}

static void hash_int(struct feed *f, int64_t v)
{
	unsigned char buf[8];

	for (int i = 0; i < 8; i++)
		buf[i] = (unsigned char)((uint64_t)v >> (8 * i));
	feed(f, buf, sizeof(buf));
}

/*
 * What the linker reads of record `r` (link.c: by Message-ID, date,
 * duplicate, kind, patch-id, sender, subject and files), nothing derived
 * from other records: appending messages leaves a prefix's hash as it was.
 */
static void hash_rec(struct feed *f, const struct ms_link_mail *lm,
		     const struct ms_mail_rec *r, uint32_t rec)
{
	const GPtrArray *files = ms_link_mail_files(lm, rec);

	hash_str(f, r->message_id);
	hash_str(f, r->sender_email);
	hash_str(f, r->sender_name);
	hash_str(f, r->subject);
	hash_str(f, r->patch_id);
	hash_int(f, r->date_valid ? r->date : INT64_MIN);
	hash_int(f, r->duplicate);
	hash_int(f, r->kind);
	hash_int(f, files ? (int64_t)files->len : -1);
	for (guint k = 0; files && k < files->len; k++)
		hash_str(f, files->pdata[k]);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * The state "<records>:<sha1>" of the messages of `lm`; with `prefixes`
 * (state string -> GINT_TO_POINTER(0)), each whose record count is at
 * most ours is set to 1 when it names a prefix of ours.
 */
static char *mail_state(const struct ms_link_mail *lm, GHashTable *prefixes)
{
	const struct ms_mail_index *idx = ms_link_mail_index(lm);
	size_t n = ms_mail_index_count(idx);
	struct feed *f = g_new(struct feed, 1);
	GArray *at = g_array_new(FALSE, FALSE, sizeof(size_t));
	size_t next = 0;
	char *out;

	f->c = g_checksum_new(G_CHECKSUM_SHA1);
	f->len = 0;
	if (prefixes) {
		GHashTableIter it;
		gpointer key;

		/* the record counts at which to check, in order */
		g_hash_table_iter_init(&it, prefixes);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			gint64 k = g_ascii_strtoll(key, NULL, 10);

			if (k >= 0 && (guint64)k <= n) {
				size_t v = (size_t)k;

				g_array_append_val(at, v);
			}
		}
		g_array_sort(at, cmp_size);
	}
	for (size_t i = 0; i <= n; i++) {
		if (next < at->len && g_array_index(at, size_t, next) == i) {
			/* get_string closes a checksum: ask a copy */
			GChecksum *copy;
			char *st;

			feed_flush(f);
			copy = g_checksum_copy(f->c);
			st = g_strdup_printf("%zu:%s", i,
					     g_checksum_get_string(copy));
			g_checksum_free(copy);
			if (g_hash_table_contains(prefixes, st))
				g_hash_table_insert(prefixes, g_strdup(st),
						    GINT_TO_POINTER(1));
			g_free(st);
			while (next < at->len &&
			       g_array_index(at, size_t, next) == i)
				next++;
		}
		if (i < n)
			hash_rec(f, lm, ms_mail_index_get(idx, i),
				 (uint32_t)i);
	}
	feed_flush(f);
	out = g_strdup_printf("%zu:%s", n, g_checksum_get_string(f->c));
	g_checksum_free(f->c);
	g_free(f);
	g_array_free(at, TRUE);
	return out;
}

char *ms_link_mail_state(const struct ms_link_mail *lm)
{
	return mail_state(lm, NULL);
}

/* Is stored row `sl` the link `l` (NULL: unlinked) of `idx`? */
static bool same_row(const struct ms_store_link *sl,
		     const struct ms_mail_index *idx, const struct ms_link *l)
{
	if (!l)
		return !sl->message_id;
	if (!sl->message_id || sl->rec != (int64_t)l->rec ||
	    strcmp(sl->message_id, ms_mail_index_get(idx, l->rec)->message_id) ||
	    g_strcmp0(sl->method, ms_link_method_name(l->method)) ||
	    sl->evidence != l->evidence)
		return false;
	for (guint k = 0; k < l->earlier->len; k++)
		if (!sl->earlier || !sl->earlier[k] ||
		    strcmp(sl->earlier[k], ms_mail_index_get(idx,
				g_array_index(l->earlier, uint32_t,
					      k))->message_id))
			return false;
	return !sl->earlier || !sl->earlier[l->earlier->len];
}

/* Whether stored state `st` names a prefix of the current messages
 * (`prefixes`, as mail_state() marked it); rows share a few states, so
 * the last answer is kept in *last / *last_ok. */
static bool valid_state(GHashTable *prefixes, const char *st,
			const char **last, bool *last_ok)
{
	if (!st)
		return false;
	if (st != *last) {
		*last = st;
		*last_ok = GPOINTER_TO_INT(g_hash_table_lookup(prefixes, st));
	}
	return *last_ok;
}

/*
 * What ms_link_run_stored_begin() compares the links with: the stored rows,
 * which of their message sets are a prefix of ours (`prefixes`, as
 * mail_state() marks them; `stale` the others) and our own state.  It
 * reads only the store and `lm`, so it is gathered on a thread of its
 * own while ms_link_run() matches (a fifth of the linking each).
 */
struct stored_state {
	struct ms_store *s;
	const struct ms_link_mail *lm;
	unsigned flags;
	struct ms_store_links *stored;
	GHashTable *prefixes;       /* state -> GINT_TO_POINTER(is prefix) */
	GPtrArray *stale;
	char *state;
	int rc;
	char *error;                /* the thread's ms_error_last() */
};

static gpointer gather_stored(gpointer data)
{
	struct stored_state *g = data;
	const char *last = NULL;
	GHashTableIter it;
	gpointer k, v;

	g->rc = ms_store_links_get(g->s, MS_LINK_VERSION, g->flags,
				   &g->stored);
	if (g->rc < 0) {
		g->error = g_strdup(ms_error_last());
		return NULL;
	}
	for (size_t i = 0; i < g->stored->nr; i++) {
		const char *st = g->stored->rows[i].state;

		/* states are interned: most rows share one */
		if (st && st != last) {
			last = st;
			if (!g_hash_table_contains(g->prefixes, st))
				g_hash_table_insert(g->prefixes, g_strdup(st),
						    GINT_TO_POINTER(0));
		}
	}
	g->state = mail_state(g->lm, g->prefixes);
	g_hash_table_iter_init(&it, g->prefixes);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (!GPOINTER_TO_INT(v))
			g_ptr_array_add(g->stale, g_strdup(k));
	return NULL;
}

/*
 * Write the rows of `g` that are missing, stale or different from the
 * links `res` of `commits`.
 */
static int put_changed(struct stored_state *g, const GPtrArray *commits,
		       const struct ms_link_result *res)
{
	const struct ms_mail_index *idx = ms_link_mail_index(g->lm);
	GPtrArray *ids = g_ptr_array_new();
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct ms_store_link));
	GPtrArray *earlier = g_ptr_array_new();
	const struct ms_link **by_commit;
	const char *last = NULL;
	bool last_ok = false;
	int rc = 0;

	by_commit = g_new0(const struct ms_link *, commits->len + 1);
	for (guint i = 0; i < res->links->len; i++) {
		const struct ms_link *l = &g_array_index(res->links,
							 struct ms_link, i);

		by_commit[l->commit] = l;
	}
	/* their earlier lists back to back in `earlier`, offsets until
	 * done */
	for (guint ci = 0; ci < commits->len; ci++) {
		const struct ms_link_commit *c = commits->pdata[ci];
		const struct ms_store_link *sl =
			ms_store_links_find(g->stored, c->id);
		const struct ms_link *l = by_commit[ci];
		struct ms_store_link r = { 0 };

		if (sl && valid_state(g->prefixes, sl->state, &last,
				      &last_ok) &&
		    same_row(sl, idx, l))
			continue;
		r.rec = -1;
		if (l) {
			r.rec = l->rec;
			r.message_id = (char *)ms_mail_index_get(
				idx, l->rec)->message_id;
			r.method = (char *)ms_link_method_name(l->method);
			r.evidence = l->evidence;
			r.earlier = GUINT_TO_POINTER(earlier->len + 1);
			for (guint k = 0; k < l->earlier->len; k++)
				g_ptr_array_add(earlier, (char *)
					ms_mail_index_get(idx,
						g_array_index(l->earlier,
							      uint32_t, k))
						->message_id);
			g_ptr_array_add(earlier, NULL);
		}
		g_ptr_array_add(ids, (char *)c->id);
		g_array_append_val(rows, r);
	}
	for (guint i = 0; i < rows->len; i++) {
		struct ms_store_link *r = &g_array_index(rows,
			struct ms_store_link, i);

		if (r->earlier)
			r->earlier = (char **)earlier->pdata +
				     GPOINTER_TO_UINT(r->earlier) - 1;
	}
	if (rows->len || g->stale->len)
		rc = ms_store_links_put(g->s, MS_LINK_VERSION, g->flags,
					g->state,
					(const char *const *)g->stale->pdata,
					g->stale->len,
					(const char *const *)ids->pdata,
					(const struct ms_store_link *)
					(void *)rows->data, rows->len);
	g_free(by_commit);
	g_ptr_array_free(ids, TRUE);
	g_array_free(rows, TRUE);
	g_ptr_array_free(earlier, TRUE);
	return rc;
}

struct ms_link_stored {
	struct stored_state g;
	const GPtrArray *commits;
	const struct ms_link_result *res;
	GThread *t;
};

static gpointer write_stored(gpointer data)
{
	struct ms_link_stored *w = data;
	struct stored_state *g = &w->g;

	g->rc = put_changed(g, w->commits, w->res);
	if (g->rc < 0)
		g->error = g_strdup(ms_error_last());
	/* what the writing needed, freed here too while the caller goes
	 * on */
	g_hash_table_unref(g->prefixes);
	ms_store_links_free(g->stored);
	g_ptr_array_free(g->stale, TRUE);
	g_free(g->state);
	g->prefixes = NULL;
	g->stored = NULL;
	g->stale = NULL;
	g->state = NULL;
	return NULL;
}

int ms_link_run_stored_begin(struct ms_store *s,
			     const struct ms_link_mail *lm,
			     const GPtrArray *commits,
			     const struct ms_link_opts *opts,
			     struct ms_link_result **out,
			     struct ms_link_stored **pending)
{
	struct ms_link_stored *w;
	struct stored_state *g;
	struct ms_link_result *res;
	GThread *t;
	int rc;

	*out = NULL;
	*pending = NULL;
	if (!s) {
		*out = ms_link_run(lm, commits, opts);
		return 0;
	}
	w = g_new0(struct ms_link_stored, 1);
	g = &w->g;
	g->s = s;
	g->lm = lm;
	g->flags = opts->ignore_link_trailers ? 1 : 0;
	g->prefixes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    NULL);
	g->stale = g_ptr_array_new_with_free_func(g_free);
	t = g_thread_try_new("ms-links", gather_stored, g, NULL);
	res = ms_link_run(lm, commits, opts);
	if (t)
		g_thread_join(t);
	else
		gather_stored(g);
	if (g->rc < 0) {
		rc = ms_error_set(g->rc, "%s", g->error ? g->error : "");
		ms_link_result_free(res);
		g_free(g->error);
		g_hash_table_unref(g->prefixes);
		g_ptr_array_free(g->stale, TRUE);
		g_free(w);
		return rc;
	}
	w->commits = commits;
	w->res = res;
	w->t = g_thread_try_new("ms-links", write_stored, w, NULL);
	if (!w->t)
		write_stored(w);
	*out = res;
	*pending = w;
	return 0;
}

int ms_link_run_stored_end(struct ms_link_stored *w)
{
	int rc;

	if (!w)
		return 0;
	if (w->t)
		g_thread_join(w->t);
	rc = w->g.rc;
	if (rc < 0)
		ms_error_set(rc, "%s", w->g.error ? w->g.error : "");
	g_free(w->g.error);
	g_free(w);
	return rc;
}
