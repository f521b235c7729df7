/*
 * store-models.c - a report's whole model, saved between runs (store.h,
 * table `models`).
 */
#include "store-internal.h"

#include <glib.h>
#include <limits.h>
#include <sqlite3.h>

int ms_store_model_get(struct ms_store *s, const char *kind, const char *key,
		       GBytes **data)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*data = NULL;
	rc = store_exec(s, "BEGIN", "read a saved model");
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, key ?
				"SELECT rowid, length(data) FROM models "
				"WHERE kind = ? AND key = ?" :
				"SELECT rowid, length(data) FROM models "
				"WHERE kind = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		if (key)
			sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			rc = store_blob_read(s, "models",
					     sqlite3_column_int64(st, 0),
					     sqlite3_column_int(st, 1), data);
		}
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		g_clear_pointer(data, g_bytes_unref);
		return store_db_error(s, rc, "read a saved model");
	}
	return 0;
}

int ms_store_model_put(struct ms_store *s, const char *kind, const char *key,
		       const void *data, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc, r;

	if (len > INT_MAX)
		return 0;      /* too big for a blob: not saved */
	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	r = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO models "
			       "VALUES (?, ?, ?)", -1, &st, NULL);
	if (r == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
		sqlite3_bind_blob(st, 3, data, (int)len, SQLITE_STATIC);
		r = sqlite3_step(st);
		r = r == SQLITE_DONE ? SQLITE_OK : r;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_OK) {
		rc = store_db_error(s, r, "save a model");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return store_txn_commit(s);
}

int ms_store_model_drop(struct ms_store *s, const char *kind)
{
	sqlite3_stmt *st = NULL;
	int rc, r;

	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	r = sqlite3_prepare_v2(s->db, "DELETE FROM models WHERE kind = ?",
			       -1, &st, NULL);
	if (r == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		r = sqlite3_step(st);
		r = r == SQLITE_DONE ? SQLITE_OK : r;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_OK) {
		rc = store_db_error(s, r, "drop a model");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return store_txn_commit(s);
}
