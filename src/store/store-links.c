/*
 * store-links.c - mail-to-commit links and commit patch-ids kept in the
 * store (store.h).
 */
#include "store-internal.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- links ---- */

/* Column `i` as text kept in `chunk` (NULL for NULL); `interned`: one
 * copy of each distinct value (states, methods). */
static char *col_keep(sqlite3_stmt *st, int i, GStringChunk *chunk,
		      bool interned)
{
	const char *v = (const char *)sqlite3_column_text(st, i);

	if (sqlite3_column_type(st, i) == SQLITE_NULL || !v)
		return NULL;
	return interned ? g_string_chunk_insert_const(chunk, v) :
			  g_string_chunk_insert_len(chunk, v,
				sqlite3_column_bytes(st, i));
}

int ms_store_links_get(struct ms_store *s, int version, unsigned flags,
		       struct ms_store_links **out)
{
	struct ms_store_links *l = g_new0(struct ms_store_links, 1);
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct ms_store_link));
	GPtrArray *ids = g_ptr_array_new();
	GPtrArray *earlier = g_ptr_array_new();
	GArray *first = g_array_new(FALSE, FALSE, sizeof(guint));
	GPtrArray *tmp = g_ptr_array_new_with_free_func(g_free);
	struct jscratch js = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	l->text = g_string_chunk_new(64 * 1024);
	rc = store_prepare(s, &st, "SELECT commit_id, rec, message_id, method, "
			   "evidence, earlier, state FROM links WHERE flags = "
			   "? AND version = ?", "li", (int64_t)flags, version);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ms_store_link r = { 0 };
		guint at = earlier->len;

		rc = SQLITE_OK;
		g_ptr_array_set_size(tmp, 0);
		if (!store_json_strings((const char *)sqlite3_column_text(st, 5),
				  sqlite3_column_bytes(st, 5), tmp, &js))
			continue;       /* unreadable: computed again */
		for (guint k = 0; k < tmp->len; k++)
			g_ptr_array_add(earlier, g_string_chunk_insert(
				l->text, tmp->pdata[k]));
		g_ptr_array_add(earlier, NULL);
		r.rec = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 :
			sqlite3_column_int64(st, 1);
		r.message_id = col_keep(st, 2, l->text, false);
		r.method = col_keep(st, 3, l->text, true);
		r.evidence = (unsigned)sqlite3_column_int64(st, 4);
		r.state = col_keep(st, 6, l->text, true);
		g_array_append_val(rows, r);
		g_array_append_val(first, at);
		g_ptr_array_add(ids, col_keep(st, 0, l->text, false));
	}
	sqlite3_finalize(st);
	store_jscratch_release(&js);
	g_ptr_array_free(tmp, TRUE);
	l->nr = rows->len;
	l->rows = (struct ms_store_link *)(void *)g_array_free(rows, FALSE);
	l->commit_ids = (const char **)g_ptr_array_free(ids, FALSE);
	l->earlier = (char **)g_ptr_array_free(earlier, FALSE);
	l->by_commit = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < l->nr; i++) {
		l->rows[i].earlier = l->earlier +
				     g_array_index(first, guint, i);
		if (l->commit_ids[i])
			g_hash_table_replace(l->by_commit,
					     (gpointer)l->commit_ids[i],
					     GSIZE_TO_POINTER(i + 1));
	}
	g_array_free(first, TRUE);
	if (rc != SQLITE_DONE) {
		ms_store_links_free(l);
		return store_db_error(s, rc, "read the links");
	}
	*out = l;
	return 0;
}

const struct ms_store_link *
ms_store_links_find(const struct ms_store_links *l, const char *commit_id)
{
	gsize i = GPOINTER_TO_SIZE(g_hash_table_lookup(l->by_commit,
							commit_id));

	return i ? &l->rows[i - 1] : NULL;
}

void ms_store_links_free(struct ms_store_links *l)
{
	if (!l)
		return;
	g_free(l->rows);
	g_free(l->commit_ids);
	g_free(l->earlier);
	g_hash_table_unref(l->by_commit);
	g_string_chunk_free(l->text);
	g_free(l);
}

int ms_store_links_put(struct ms_store *s, int version, unsigned flags,
		       const char *state, const char *const *stale,
		       size_t nr_stale, const char *const *commit_ids,
		       const struct ms_store_link *links, size_t n)
{
	sqlite3_stmt *st = NULL;
	GString *buf = g_string_new(NULL);
	GPtrArray *tmp = g_ptr_array_new();
	int rc = 0;

	for (size_t at = 0; rc == 0 && (at < n || at == 0); at += MS_STORE_BATCH) {
		size_t end = MIN(n, at + MS_STORE_BATCH);
		int r = SQLITE_OK;

		rc = store_txn_begin(s);
		if (rc < 0)
			break;
		/* rows no longer valid are stale for dashboards too */
		if (at == 0)
			r = store_run(s, NULL, "DELETE FROM links WHERE flags = "
				      "? AND version != ?", "li",
				      (int64_t)flags, version);
		for (size_t k = 0; at == 0 && r == SQLITE_OK && k < nr_stale;
		     k++)
			r = store_run(s, NULL, "DELETE FROM links WHERE flags = "
				      "? AND state = ?", "lt", (int64_t)flags,
				      stale[k]);
		for (size_t i = at; r == SQLITE_OK && i < end; i++) {
			const struct ms_store_link *l = &links[i];

			g_ptr_array_set_size(tmp, 0);
			for (size_t k = 0; l->earlier && l->earlier[k]; k++)
				g_ptr_array_add(tmp, l->earlier[k]);
			store_strings_json(buf, tmp);
			r = store_prepare(s, &st, "INSERT OR REPLACE INTO links "
					  "VALUES (?,?,?,?,?,?,?,?,?)",
					  "tlitlttlt", commit_ids[i],
					  (int64_t)flags, version, state,
					  (int64_t)l->rec, l->message_id,
					  l->method, (int64_t)l->evidence,
					  buf->str);
			if (r == SQLITE_OK && l->rec < 0)
				r = sqlite3_bind_null(st, 5);
			if (r == SQLITE_OK)
				r = sqlite3_step(st);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
		}
		if (r != SQLITE_OK) {
			rc = store_db_error(s, r, "write the links");
			break;
		}
		rc = store_txn_commit(s);
		if (n == 0)
			break;
	}
	if (rc < 0)
		store_txn_rollback(s);
	sqlite3_finalize(st);
	g_string_free(buf, TRUE);
	g_ptr_array_free(tmp, TRUE);
	return rc;
}

/* ---- patch-ids ---- */

/*
 * Records in a slab, their summaries in one chunk, hashed by the raw id:
 * a whole history's worth is read on every linking run.
 */

struct patchid_rec {
	unsigned char id[RAWSZ];
	struct ms_store_patchid v;
};

struct ms_store_patchids {
	struct slab slab;       /* struct patchid_rec */
	GStringChunk *strings;
	GHashTable *by_id;      /* raw id -> struct patchid_rec * */
};

void ms_store_patchids_free(struct ms_store_patchids *p)
{
	if (!p)
		return;
	g_hash_table_destroy(p->by_id);
	slab_release(&p->slab);
	g_string_chunk_free(p->strings);
	g_free(p);
}

int ms_store_patchids_get(struct ms_store *s, struct ms_store_patchids **out)
{
	struct ms_store_patchids *p = g_new0(struct ms_store_patchids, 1);
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	slab_init(&p->slab, sizeof(struct patchid_rec));
	p->strings = g_string_chunk_new(64 * 1024);
	p->by_id = g_hash_table_new(ms_id_hash, ms_id_equal);
	rc = store_exec(s, "BEGIN", "read the patch-ids");
	if (rc < 0) {
		ms_store_patchids_free(p);
		return rc;
	}
	rc = store_prepare(s, &st, "SELECT id, patch_id, summary FROM "
			   "commit_patchids WHERE version = ?", "i",
			   MS_STORE_PATCHID_VERSION);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *pid = (const char *)sqlite3_column_text(st, 1);
		const char *sum = (const char *)sqlite3_column_text(st, 2);
		unsigned char raw[RAWSZ];
		struct patchid_rec *x;

		rc = SQLITE_OK;
		if (!id || !ms_id_unhex(id, (size_t)sqlite3_column_bytes(st, 0),
				       raw))
			continue;
		x = slab_new(&p->slab);
		memcpy(x->id, raw, RAWSZ);
		g_strlcpy(x->v.patch_id, pid ? pid : "",
			  sizeof(x->v.patch_id));
		x->v.summary = g_string_chunk_insert_len(
			p->strings, sum ? sum : "",
			sum ? sqlite3_column_bytes(st, 2) : 0);
		g_hash_table_replace(p->by_id, x->id, x);
	}
	sqlite3_finalize(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_DONE) {
		ms_store_patchids_free(p);
		return store_db_error(s, rc, "read the patch-ids");
	}
	*out = p;
	return 0;
}

const struct ms_store_patchid *
ms_store_patchids_find(const struct ms_store_patchids *p, const char *id)
{
	unsigned char raw[RAWSZ];
	const struct patchid_rec *x;

	if (!ms_id_unhex(id, strlen(id), raw))
		return NULL;
	x = g_hash_table_lookup(p->by_id, raw);
	return x ? &x->v : NULL;
}

int ms_store_patchids_put(struct ms_store *s, const char *const *ids,
			  const struct ms_store_patchid *const *v, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	for (size_t at = 0; rc == 0 && at < n; at += MS_STORE_BATCH) {
		size_t end = MIN(n, at + MS_STORE_BATCH);
		int r = SQLITE_OK;

		rc = store_txn_begin(s);
		if (rc < 0)
			break;
		for (size_t i = at; r == SQLITE_OK && i < end; i++) {
			r = store_prepare(s, &st, "INSERT OR REPLACE INTO "
					  "commit_patchids VALUES (?,?,?,?)",
					  "titt", ids[i],
					  MS_STORE_PATCHID_VERSION,
					  v[i]->patch_id, v[i]->summary);
			if (r == SQLITE_OK)
				r = sqlite3_step(st);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
		}
		if (r != SQLITE_OK) {
			rc = store_db_error(s, r, "write the patch-ids");
			store_txn_rollback(s);
			break;
		}
		rc = store_txn_commit(s);
	}
	sqlite3_finalize(st);
	return rc;
}
