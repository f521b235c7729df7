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

int ms_link_run_stored(struct ms_store *s, const struct ms_link_mail *lm,
		       const GPtrArray *commits,
		       const struct ms_link_opts *opts,
		       struct ms_link_result **out)
{
	const struct ms_mail_index *idx = ms_link_mail_index(lm);
	unsigned flags = opts->ignore_link_trailers ? 1 : 0;
	struct ms_link_result *res;
	GHashTable *stored = NULL, *prefixes;
	GPtrArray *stale = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *ids = g_ptr_array_new();
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct ms_store_link));
	const struct ms_link **by_commit;
	char *state;
	int rc = 0;

	*out = NULL;
	res = ms_link_run(lm, commits, opts);
	if (!s) {
		*out = res;
		goto done;
	}
	rc = ms_store_links_get(s, MS_LINK_VERSION, flags, &stored);
	if (rc < 0) {
		ms_link_result_free(res);
		goto done;
	}
	/* which of the stored rows' message sets are a prefix of ours */
	prefixes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	{
		GHashTableIter it;
		gpointer k, v;

		g_hash_table_iter_init(&it, stored);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			const struct ms_store_link *sl = v;

			if (sl->state)
				g_hash_table_insert(prefixes,
						    g_strdup(sl->state),
						    GINT_TO_POINTER(0));
		}
		state = mail_state(lm, prefixes);
		g_hash_table_iter_init(&it, prefixes);
		while (g_hash_table_iter_next(&it, &k, &v))
			if (!GPOINTER_TO_INT(v))
				g_ptr_array_add(stale, g_strdup(k));
	}
	by_commit = g_new0(const struct ms_link *, commits->len + 1);
	for (guint i = 0; i < res->links->len; i++) {
		const struct ms_link *l = &g_array_index(res->links,
							 struct ms_link, i);

		by_commit[l->commit] = l;
	}
	/* write the rows that are missing, stale or different */
	for (guint ci = 0; ci < commits->len; ci++) {
		const struct ms_link_commit *c = commits->pdata[ci];
		const struct ms_store_link *sl =
			g_hash_table_lookup(stored, c->id);
		const struct ms_link *l = by_commit[ci];
		struct ms_store_link r = { 0 };

		if (sl && sl->state && GPOINTER_TO_INT(g_hash_table_lookup(
				prefixes, sl->state)) && same_row(sl, idx, l))
			continue;
		r.rec = -1;
		if (l) {
			r.rec = l->rec;
			r.message_id = (char *)ms_mail_index_get(
				idx, l->rec)->message_id;
			r.method = (char *)ms_link_method_name(l->method);
			r.evidence = l->evidence;
			r.earlier = g_new0(char *, l->earlier->len + 1);
			for (guint k = 0; k < l->earlier->len; k++)
				r.earlier[k] = (char *)ms_mail_index_get(idx,
					g_array_index(l->earlier, uint32_t,
						      k))->message_id;
		}
		g_ptr_array_add(ids, (char *)c->id);
		g_array_append_val(rows, r);
	}
	rc = 0;
	if (rows->len || stale->len)
		rc = ms_store_links_put(s, MS_LINK_VERSION, flags, state,
					(const char *const *)stale->pdata,
					stale->len,
					(const char *const *)ids->pdata,
					(const struct ms_store_link *)
					(void *)rows->data, rows->len);
	for (guint i = 0; i < rows->len; i++)
		g_free(g_array_index(rows, struct ms_store_link, i).earlier);
	g_free(by_commit);
	g_hash_table_unref(prefixes);
	g_hash_table_unref(stored);
	g_free(state);
	if (rc < 0) {
		ms_link_result_free(res);
		goto done;
	}
	*out = res;
done:
	g_ptr_array_free(stale, TRUE);
	g_ptr_array_free(ids, TRUE);
	g_array_free(rows, TRUE);
	return *out ? 0 : rc;
}
