/*
 * store-snapshots.c - snapshots of a mail index kept in the store
 * (store.h).
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

/* ---- mail snapshots ---- */

int ms_store_mail_snapshot_get(struct ms_store *s, const char *path, int kind,
			       GBytes **data, struct ms_store_mail_mark *mark)
{
	char *key = store_archive_key(path);
	sqlite3_stmt *st = NULL;
	int rc;

	*data = NULL;
	*mark = (struct ms_store_mail_mark){ 0 };
	/* one read transaction: the row and its blob (read straight into
	 * our buffer: it is tens of megabytes) */
	rc = store_exec(s, "BEGIN", "read a mail snapshot");
	if (rc < 0)
		goto out;
	rc = sqlite3_prepare_v2(s->db, "SELECT s.inbox, s.seq, s.count, "
				"s.epoch, s.bytes, length(s.data) FROM "
				"mail_snapshots s JOIN inboxes i ON i.id = "
				"s.inbox WHERE i.path = ? AND s.kind = ?", -1,
				&st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, kind);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			mark->inbox = sqlite3_column_int64(st, 0);
			mark->seq = sqlite3_column_int64(st, 1);
			mark->count = sqlite3_column_int64(st, 2);
			mark->epoch = sqlite3_column_int(st, 3);
			mark->bytes = (uint64_t)sqlite3_column_int64(st, 4);
			rc = store_blob_read(s, "mail_snapshots", mark->inbox,
					     sqlite3_column_int(st, 5), data);
		}
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
out:
	g_free(key);
	if (rc != SQLITE_OK) {
		*mark = (struct ms_store_mail_mark){ 0 };
		g_clear_pointer(data, g_bytes_unref);
		return rc < 0 ? rc : store_db_error(s, rc, "read a mail snapshot");
	}
	return 0;
}

int ms_store_mail_snapshot_put(struct ms_store *s, int kind,
			       const struct ms_store_mail_mark *mark,
			       const void *data, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc, r;

	if (!mark->inbox)
		return 0;
	if (len > INT_MAX)
		return 0;      /* too big for a blob: no snapshot */
	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	r = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO mail_snapshots "
			       "VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL);
	if (r == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, mark->inbox);
		sqlite3_bind_int(st, 2, kind);
		sqlite3_bind_int64(st, 3, mark->seq);
		sqlite3_bind_int64(st, 4, mark->count);
		sqlite3_bind_int(st, 5, mark->epoch);
		sqlite3_bind_int64(st, 6, (int64_t)mark->bytes);
		sqlite3_bind_blob(st, 7, data, (int)len, SQLITE_STATIC);
		r = sqlite3_step(st);
		r = r == SQLITE_DONE ? SQLITE_OK : r;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_OK) {
		rc = store_db_error(s, r, "write a mail snapshot");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return store_txn_commit(s);
}
