/*
 * link-cache.c - mail-to-commit links kept in the store (link-cache.h).
 */
#include "link-cache.h"
#include "store.h"

#include <stdio.h>
#include <string.h>

static void hash_str(GChecksum *c, const char *s)
{
	if (s)
		g_checksum_update(c, (const guchar *)s, (gssize)strlen(s) + 1);
	else
		g_checksum_update(c, (const guchar *)"\1", 1);
}

static void hash_int(GChecksum *c, int64_t v)
{
	unsigned char buf[8];

	for (int i = 0; i < 8; i++)
		buf[i] = (unsigned char)((uint64_t)v >> (8 * i));
	g_checksum_update(c, buf, sizeof(buf));
}

/*
 * What the linker reads of record `r` (link.c: by Message-ID, date,
 * duplicate, kind, patch-id, sender, subject and files), nothing derived
 * from other records: appending messages leaves a prefix's hash as it was.
 */
static void hash_rec(GChecksum *c, const struct ms_link_mail *lm,
		     const struct ms_mail_rec *r, uint32_t rec)
{
	const GPtrArray *files = ms_link_mail_files(lm, rec);

	hash_str(c, r->message_id);
	hash_str(c, r->sender_email);
	hash_str(c, r->sender_name);
	hash_str(c, r->subject);
	hash_str(c, r->patch_id);
	hash_int(c, r->date_valid ? r->date : INT64_MIN);
	hash_int(c, r->duplicate);
	hash_int(c, r->kind);
	hash_int(c, files ? (int64_t)files->len : -1);
	for (guint k = 0; files && k < files->len; k++)
		hash_str(c, files->pdata[k]);
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
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	GHashTable *at = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					       g_free, NULL);
	GHashTableIter it;
	gpointer key;
	char *out;

	if (prefixes) {
		g_hash_table_iter_init(&it, prefixes);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			gint64 *k = g_new(gint64, 1);

			*k = g_ascii_strtoll(key, NULL, 10);
			g_hash_table_insert(at, k, k);
		}
	}
	for (size_t i = 0; i <= n; i++) {
		gint64 k = (gint64)i;

		if (g_hash_table_contains(at, &k)) {
			/* get_string closes a checksum: ask a copy */
			GChecksum *copy = g_checksum_copy(c);
			char *st = g_strdup_printf("%zu:%s", i,
				g_checksum_get_string(copy));

			g_checksum_free(copy);
			if (g_hash_table_contains(prefixes, st))
				g_hash_table_insert(prefixes, g_strdup(st),
						    GINT_TO_POINTER(1));
			g_free(st);
		}
		if (i < n)
			hash_rec(c, lm, ms_mail_index_get(idx, i),
				 (uint32_t)i);
	}
	out = g_strdup_printf("%zu:%s", n, g_checksum_get_string(c));
	g_checksum_free(c);
	g_hash_table_unref(at);
	return out;
}

char *ms_link_mail_state(const struct ms_link_mail *lm)
{
	return mail_state(lm, NULL);
}

/* ---- which stored links new messages may change ---- */

static void add_key(GHashTable *keys, char kind, const char *v, uint32_t i)
{
	char *k;

	if (!v || !*v)
		return;
	k = g_strdup_printf("%c:%s", kind, v);
	g_hash_table_replace(keys, k, GUINT_TO_POINTER(i + 1));
}

static void add_subject_key(GHashTable *keys, const char *subject,
			    uint32_t i)
{
	char *k;

	if (!subject || !*subject)
		return;
	k = ms_link_subject_key(subject);
	add_key(keys, 's', k, i);
	g_free(k);
}

static void add_date_key(GHashTable *keys, int64_t t, uint32_t i)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)t);
	add_key(keys, 'd', buf, i);
}

/*
 * The keys under which record `r` can be found by the linker (link.c):
 * its Message-ID (trailers), patch-id, date (author-date method) and
 * subject key; value: the last record number + 1 that has the key.
 */
static void rec_keys(GHashTable *keys, const struct ms_mail_rec *r,
		     uint32_t i)
{
	add_key(keys, 'i', r->message_id, i);
	add_key(keys, 'p', r->patch_id, i);
	if (r->date_valid)
		add_date_key(keys, r->date, i);
	add_subject_key(keys, r->subject, i);
}

/* The last record + 1 with key "<kind>:<v>" (0: none), in `buf`. */
static uint32_t key_at(GHashTable *keys, GString *buf, char kind,
		       const char *v)
{
	if (!v || !*v)
		return 0;
	g_string_printf(buf, "%c:%s", kind, v);
	return GPOINTER_TO_UINT(g_hash_table_lookup(keys, buf->str));
}

static uint32_t subject_at(GHashTable *keys, GString *buf,
			   const char *subject)
{
	char *k;
	uint32_t at;

	if (!subject || !*subject)
		return 0;
	k = ms_link_subject_key(subject);
	at = key_at(keys, buf, 's', k);
	g_free(k);
	return at;
}

/* The last record with one of the keys commit `c` and its stored link
 * `l` look up, + 1; 0 when none has. */
static uint32_t newest_match(GHashTable *keys, GString *buf,
			     const struct ms_link_commit *c,
			     const struct ms_mail_index *idx,
			     const struct ms_link *l)
{
	uint32_t newest = 0;
	char date[24];

	if (!g_hash_table_size(keys))
		return 0;       /* no new message */
	for (guint i = 0; i < c->link_ids->len; i++)
		newest = MAX(newest, key_at(keys, buf, 'i',
					    c->link_ids->pdata[i]));
	for (guint i = 0; i < c->msgid_ids->len; i++)
		newest = MAX(newest, key_at(keys, buf, 'i',
					    c->msgid_ids->pdata[i]));
	newest = MAX(newest, key_at(keys, buf, 'p', c->patch_id));
	snprintf(date, sizeof(date), "%lld", (long long)c->author_time);
	newest = MAX(newest, key_at(keys, buf, 'd', date));
	newest = MAX(newest, subject_at(keys, buf, c->subject));
	/* latest_version() and earlier_versions() look up the linked
	 * posting's (and its versions') subject and patch-id */
	for (guint i = 0; l && i <= l->earlier->len; i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx,
			i < l->earlier->len ?
			g_array_index(l->earlier, uint32_t, i) : l->rec);

		newest = MAX(newest, key_at(keys, buf, 'p', r->patch_id));
		newest = MAX(newest, subject_at(keys, buf, r->subject));
	}
	return newest;
}

static int method_of(const char *name)
{
	for (int m = 0; name && m < MS_LINK__COUNT; m++)
		if (!strcmp(ms_link_method_name(m), name))
			return m;
	return -1;
}

/* Record numbers by record, made when first needed. */
static GHashTable *rec_numbers(const struct ms_mail_index *idx,
			       GHashTable **cache)
{
	if (!*cache) {
		size_t n = ms_mail_index_count(idx);

		*cache = g_hash_table_new(NULL, NULL);
		for (size_t i = 0; i < n; i++)
			g_hash_table_insert(*cache,
				(gpointer)ms_mail_index_get(idx, i),
				GUINT_TO_POINTER(i + 1));
	}
	return *cache;
}

/* A stored link back into record numbers; false when it does not fit. */
static bool resolve(const struct ms_mail_index *idx,
		    const struct ms_store_link *sl, struct ms_link *l,
		    GHashTable **cache)
{
	size_t n = ms_mail_index_count(idx);
	int method = method_of(sl->method);
	const struct ms_mail_rec *r;

	if (method < 0 || sl->rec < 0 || (size_t)sl->rec >= n)
		return false;
	r = ms_mail_index_get(idx, (size_t)sl->rec);
	if (!sl->message_id || strcmp(r->message_id, sl->message_id))
		return false;
	l->rec = (uint32_t)sl->rec;
	l->method = (enum ms_link_method)method;
	l->evidence = sl->evidence;
	l->earlier = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	for (size_t k = 0; sl->earlier && sl->earlier[k]; k++) {
		/* earlier versions are postings: never duplicate ids */
		const struct ms_mail_rec *e =
			ms_mail_index_find(idx, sl->earlier[k]);
		uint32_t rec;

		if (!e)
			goto bad;
		rec = GPOINTER_TO_UINT(g_hash_table_lookup(
			rec_numbers(idx, cache), e));
		if (!rec--)
			goto bad;
		g_array_append_val(l->earlier, rec);
	}
	return true;
bad:
	g_array_free(l->earlier, TRUE);
	l->earlier = NULL;
	return false;
}

int ms_link_run_stored(struct ms_store *s, const struct ms_link_mail *lm,
		       const GPtrArray *commits,
		       const struct ms_link_opts *opts,
		       struct ms_link_result **out)
{
	const struct ms_mail_index *idx = ms_link_mail_index(lm);
	unsigned flags = opts->ignore_link_trailers ? 1 : 0;
	struct ms_link_result *res, *sub = NULL;
	GHashTable *stored = NULL, *recs = NULL, *prefixes, *keys;
	GPtrArray *stale = g_ptr_array_new_with_free_func(g_free);
	GString *kbuf = g_string_new(NULL);
	GPtrArray *todo;
	GArray *todo_at, *have;
	char *state;
	int rc;

	*out = NULL;
	if (!s) {
		*out = ms_link_run(lm, commits, opts);
		return 0;
	}
	rc = ms_store_links_get(s, MS_LINK_VERSION, flags, &stored);
	if (rc < 0)
		return rc;
	/* which of the stored rows' message sets are a prefix of ours */
	prefixes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	{
		GHashTableIter it;
		gpointer v;

		g_hash_table_iter_init(&it, stored);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			const struct ms_store_link *sl = v;

			if (sl->state)
				g_hash_table_insert(prefixes,
						    g_strdup(sl->state),
						    GINT_TO_POINTER(0));
		}
	}
	state = mail_state(lm, prefixes);
	/* the keys of the messages after the oldest valid prefix */
	{
		GHashTableIter it;
		gpointer k, v;
		size_t from = ms_mail_index_count(idx);

		g_hash_table_iter_init(&it, prefixes);
		while (g_hash_table_iter_next(&it, &k, &v))
			if (GPOINTER_TO_INT(v))
				from = MIN(from, (size_t)g_ascii_strtoull(
					k, NULL, 10));
			else
				g_ptr_array_add(stale, g_strdup(k));
		keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					     NULL);
		for (size_t i = from; i < ms_mail_index_count(idx); i++)
			rec_keys(keys, ms_mail_index_get(idx, i),
				 (uint32_t)i);
	}
	/* have[ci]: 0 to link now, 1 linked from the store, 2 unlinked */
	have = g_array_sized_new(FALSE, TRUE, sizeof(struct ms_link),
				 commits->len);
	g_array_set_size(have, commits->len);
	todo = g_ptr_array_new();
	todo_at = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	for (guint ci = 0; ci < commits->len; ci++) {
		const struct ms_link_commit *c = commits->pdata[ci];
		const struct ms_store_link *sl =
			g_hash_table_lookup(stored, c->id);
		struct ms_link *l = &g_array_index(have, struct ms_link, ci);

		l->commit = ci;
		if (sl && (!sl->state || !GPOINTER_TO_INT(
				g_hash_table_lookup(prefixes, sl->state))))
			sl = NULL;      /* another message set */
		if (sl && !sl->message_id) {
			/* unlinked, unless a newer message may match */
			if (newest_match(keys, kbuf, c, idx, NULL) <=
			    g_ascii_strtoull(sl->state, NULL, 10)) {
				l->evidence = ~0u;
				continue;
			}
		} else if (sl && resolve(idx, sl, l, &recs)) {
			if (newest_match(keys, kbuf, c, idx, l) <=
			    g_ascii_strtoull(sl->state, NULL, 10))
				continue;
			g_array_free(l->earlier, TRUE);
			l->earlier = NULL;
		}
		g_ptr_array_add(todo, commits->pdata[ci]);
		g_array_append_val(todo_at, ci);
	}
	if (todo->len)
		sub = ms_link_run(lm, todo, opts);
	for (guint i = 0; sub && i < sub->links->len; i++) {
		struct ms_link *sl = &g_array_index(sub->links,
						    struct ms_link, i);
		uint32_t ci = g_array_index(todo_at, uint32_t, sl->commit);
		struct ms_link *l = &g_array_index(have, struct ms_link, ci);

		*l = *sl;
		l->commit = ci;
		l->earlier = g_array_copy(sl->earlier);
	}
	for (guint i = 0; sub && i < sub->unlinked->len; i++) {
		uint32_t ci = g_array_index(todo_at, uint32_t,
			g_array_index(sub->unlinked, uint32_t, i));

		g_array_index(have, struct ms_link, ci).evidence = ~0u;
	}
	/* the result exactly as ms_link_run() builds it */
	res = g_new0(struct ms_link_result, 1);
	res->links = g_array_new(FALSE, FALSE, sizeof(struct ms_link));
	res->unlinked = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	res->by_rec = g_hash_table_new(NULL, NULL);
	for (guint ci = 0; ci < commits->len; ci++) {
		struct ms_link l = g_array_index(have, struct ms_link, ci);

		if (!l.earlier) {
			g_array_append_val(res->unlinked, ci);
			continue;
		}
		res->counts[l.method]++;
		g_array_append_val(res->links, l);
		g_hash_table_insert(res->by_rec, GUINT_TO_POINTER(l.rec),
				    GUINT_TO_POINTER(res->links->len));
		for (guint k = 0; k < l.earlier->len; k++) {
			gpointer key = GUINT_TO_POINTER(
				g_array_index(l.earlier, uint32_t, k));

			if (!g_hash_table_contains(res->by_rec, key))
				g_hash_table_insert(res->by_rec, key,
					GUINT_TO_POINTER(res->links->len));
		}
	}
	/* store what was linked now */
	if (todo->len || stale->len) {
		struct ms_store_link *rows = g_new0(struct ms_store_link,
						    todo->len);
		const char **ids = g_new(const char *, todo->len + 1);
		GHashTable *pos = g_hash_table_new(NULL, NULL);

		for (guint i = 0; i < res->links->len; i++)
			g_hash_table_insert(pos, GUINT_TO_POINTER(
				g_array_index(res->links, struct ms_link,
					      i).commit),
				GUINT_TO_POINTER(i + 1));
		for (guint i = 0; i < todo->len; i++) {
			uint32_t ci = g_array_index(todo_at, uint32_t, i);
			guint li = GPOINTER_TO_UINT(g_hash_table_lookup(
				pos, GUINT_TO_POINTER(ci)));
			struct ms_store_link *r = &rows[i];

			ids[i] = ((const struct ms_link_commit *)
				  commits->pdata[ci])->id;
			r->rec = -1;
			if (!li)
				continue;
			{
				const struct ms_link *l = &g_array_index(
					res->links, struct ms_link, li - 1);

				r->rec = l->rec;
				r->message_id = (char *)ms_mail_index_get(
					idx, l->rec)->message_id;
				r->method = (char *)ms_link_method_name(
					l->method);
				r->evidence = l->evidence;
				r->earlier = g_new0(char *,
						    l->earlier->len + 1);
				for (guint k = 0; k < l->earlier->len; k++)
					r->earlier[k] = (char *)
						ms_mail_index_get(idx,
						g_array_index(l->earlier,
							      uint32_t, k))
						->message_id;
			}
		}
		ids[todo->len] = NULL;
		rc = ms_store_links_put(s, MS_LINK_VERSION, flags, state,
					(const char *const *)stale->pdata,
					stale->len, ids, rows, todo->len);
		for (guint i = 0; i < todo->len; i++)
			g_free(rows[i].earlier);
		g_free(rows);
		g_free(ids);
		g_hash_table_unref(pos);
	}
	ms_link_result_free(sub);
	g_ptr_array_free(todo, TRUE);
	g_array_free(todo_at, TRUE);
	g_array_free(have, TRUE);
	g_hash_table_unref(stored);
	g_hash_table_unref(prefixes);
	g_hash_table_unref(keys);
	g_ptr_array_free(stale, TRUE);
	g_string_free(kbuf, TRUE);
	if (recs)
		g_hash_table_unref(recs);
	g_free(state);
	if (rc < 0) {
		ms_link_result_free(res);
		return rc;
	}
	*out = res;
	return 0;
}
