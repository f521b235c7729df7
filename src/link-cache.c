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
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	hash_str(c, buf);
}

char *ms_link_mail_state(const struct ms_link_mail *lm)
{
	const struct ms_mail_index *idx = ms_link_mail_index(lm);
	size_t n = ms_mail_index_count(idx);
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	char *out;

	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);
		const GPtrArray *files = ms_link_mail_files(lm, (uint32_t)i);

		hash_str(c, r->message_id);
		hash_str(c, r->parent_id);
		hash_str(c, r->sender_email);
		hash_str(c, r->sender_name);
		hash_str(c, r->subject);
		hash_str(c, r->change_id);
		hash_str(c, r->patch_id);
		hash_int(c, r->date_valid ? r->date : INT64_MIN);
		hash_int(c, r->duplicate | r->applied_notice << 1);
		hash_int(c, r->kind);
		hash_int(c, r->version);
		hash_int(c, r->number);
		hash_int(c, r->total);
		hash_int(c, r->problems);
		hash_int(c, r->thread);
		hash_int(c, r->series);
		const struct ms_mail_tag *tags = r->n_review_tags ?
			ms_mail_index_tags(idx, r) : NULL;

		for (uint32_t k = 0; k < r->n_review_tags; k++) {
			const struct ms_mail_tag *t = &tags[k];

			hash_int(c, t->kind);
			hash_str(c, t->email);
			hash_str(c, t->name);
		}
		hash_int(c, files ? (int64_t)files->len : -1);
		for (guint k = 0; files && k < files->len; k++)
			hash_str(c, files->pdata[k]);
	}
	out = g_strdup_printf("%zu:%s", n, g_checksum_get_string(c));
	g_checksum_free(c);
	return out;
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
	GHashTable *stored = NULL, *recs = NULL;
	GPtrArray *todo;
	GArray *todo_at, *have;
	char *state;
	int rc;

	*out = NULL;
	if (!s) {
		*out = ms_link_run(lm, commits, opts);
		return 0;
	}
	state = ms_link_mail_state(lm);
	rc = ms_store_links_get(s, MS_LINK_VERSION, flags, state, &stored);
	if (rc < 0) {
		g_free(state);
		return rc;
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
		if (sl && !sl->message_id) {
			l->evidence = ~0u;      /* unlinked */
			continue;
		}
		if (sl && resolve(idx, sl, l, &recs))
			continue;
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
	if (todo->len || !g_hash_table_size(stored)) {
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
					ids, rows, todo->len);
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
