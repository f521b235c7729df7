/*
 * store-models.c - a report's whole model, saved between runs (store.h,
 * tables `models` and `model_chunks`).
 *
 * A value of up to the chunk limit is one row of `models`, as before
 * schema 8 (chunks 1, size NULL).  A larger one is cut into chunks of the
 * limit: the first in `models` (with chunks = how many, size = the whole
 * length), the others in `model_chunks` as (kind, seq 1..chunks-1).
 * SQLite refuses a value over SQLITE_MAX_LENGTH (1e9 bytes) and a bound
 * length is an int: the kernel's review result (3 GB of JSON) was not
 * kept at all before.  Chunks are written straight from the caller's
 * pieces and read straight into the one buffer handed back, so neither
 * side holds the value twice.
 */
#include "store-internal.h"

#include <glib.h>
#include <limits.h>
#include <sqlite3.h>

G_STATIC_ASSERT(MS_STORE_CHUNK_MAX <= INT_MAX);

void ms_store_set_chunk_limit(struct ms_store *s, size_t limit)
{
	s->chunk_limit = MIN(limit, MS_STORE_CHUNK_MAX);
}

static size_t chunk_limit(const struct ms_store *s)
{
	return s->chunk_limit ? s->chunk_limit : MS_STORE_CHUNK_DEFAULT;
}

/*
 * Read the value of `kind` whose first chunk is row `row` of `models`
 * (`first` bytes), `chunks` chunks and `size` bytes in all, into *out.
 * A value whose rows do not add up (a chunk missing, short, long or left
 * over) leaves *out NULL: nothing saved.  Returns an SQLite code
 * (SQLITE_NOMEM: no buffer of `size` bytes).
 */
static int read_value(struct ms_store *s, const char *kind, int64_t row,
		      int64_t first, int64_t chunks, int64_t size,
		      GBytes **out)
{
	sqlite3_stmt *st = NULL;
	unsigned char *buf;
	int64_t at = first, seq = 0;
	bool whole = true;
	int rc;

	if (chunks < 1 || first < 0 || first > INT_MAX || size < first ||
	    (chunks == 1 && size != first) || (chunks > 1 && !first) ||
	    (uint64_t)size > G_MAXSIZE)
		return SQLITE_OK;
	if (chunks == 1)
		return store_blob_read(s, "models", row, (int)first, out);
	buf = g_try_malloc((gsize)size);
	if (!buf)
		return SQLITE_NOMEM;
	rc = store_blob_read_into(s, "models", row, buf, (int)first);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(s->db, "SELECT seq, rowid, length(data), "
					"typeof(data) = 'blob' FROM "
					"model_chunks WHERE kind = ? "
					"ORDER BY seq", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		while (whole && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t n = sqlite3_column_int64(st, 2);

			/* bytes (length() counts the characters of a
			 * text), every chunk but the last as long as the
			 * first, in order, none past the count */
			seq++;
			whole = sqlite3_column_int(st, 3) &&
				sqlite3_column_int64(st, 0) == seq &&
				seq < chunks && n > 0 && n <= size - at &&
				(n == first || seq == chunks - 1);
			if (whole)
				rc = store_blob_read_into(
					s, "model_chunks",
					sqlite3_column_int64(st, 1), buf + at,
					(int)n);
			if (rc != SQLITE_OK)
				break;
			at += n;
		}
		if (rc == SQLITE_ROW || rc == SQLITE_DONE)
			rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK && whole && seq == chunks - 1 && at == size)
		*out = g_bytes_new_take(buf, (gsize)size);
	else
		g_free(buf);
	return rc;
}

int ms_store_model_get(struct ms_store *s, const char *kind, const char *key,
		       GBytes **data)
{
	sqlite3_stmt *st = NULL;
	int64_t size = 0;
	int rc;

	*data = NULL;
	rc = store_exec(s, "BEGIN", "read a saved model");
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, key ?
				"SELECT rowid, length(data), chunks, "
				"coalesce(size, length(data)) FROM models "
				"WHERE kind = ? AND key = ?" :
				"SELECT rowid, length(data), chunks, "
				"coalesce(size, length(data)) FROM models "
				"WHERE kind = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		if (key)
			sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			size = sqlite3_column_int64(st, 3);
			rc = read_value(s, kind, sqlite3_column_int64(st, 0),
					sqlite3_column_int64(st, 1),
					sqlite3_column_int64(st, 2), size,
					data);
		}
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_NOMEM)
		return ms_error_set(MS_ERROR, "store '%s': cannot read the "
				    "saved model '%s': no memory for its "
				    "%lld bytes", s->path, kind,
				    (long long)size);
	if (rc != SQLITE_OK) {
		g_clear_pointer(data, g_bytes_unref);
		return store_db_error(s, rc, "read a saved model");
	}
	return 0;
}

/* Where the next chunk starts in the caller's pieces. */
struct cursor {
	const struct ms_store_piece *p;
	size_t n, i, off;
};

/*
 * Bind the next `len` bytes of `c` as parameter `col` of `st`: in place
 * when one piece holds them all, else gathered into *tmp (at most one
 * chunk, allocated on first use).  SQLITE_NOMEM when *tmp cannot be had.
 */
static int bind_next(sqlite3_stmt *st, int col, struct cursor *c, size_t len,
		     size_t limit, unsigned char **tmp)
{
	size_t got = 0;

	while (c->i < c->n && c->off == c->p[c->i].len) {
		c->i++;
		c->off = 0;
	}
	if (!len)
		return sqlite3_bind_zeroblob(st, col, 0);
	if (c->p[c->i].len - c->off >= len) {
		const unsigned char *at = (const unsigned char *)
			c->p[c->i].data + c->off;

		c->off += len;
		return sqlite3_bind_blob64(st, col, at, len, SQLITE_STATIC);
	}
	if (!*tmp && !(*tmp = g_try_malloc(limit)))
		return SQLITE_NOMEM;
	while (got < len) {
		size_t k = MIN(len - got, c->p[c->i].len - c->off);

		if (k)          /* an empty piece may have no pointer */
			memcpy(*tmp + got, (const unsigned char *)
			       c->p[c->i].data + c->off, k);
		got += k;
		c->off += k;
		if (c->off == c->p[c->i].len) {
			c->i++;
			c->off = 0;
		}
	}
	return sqlite3_bind_blob64(st, col, *tmp, len, SQLITE_STATIC);
}

/* Run `sql` with `kind` as its one parameter. */
static int exec_kind(struct ms_store *s, const char *sql, const char *kind)
{
	sqlite3_stmt *st = NULL;
	int r = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (r == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		r = sqlite3_step(st);
		r = r == SQLITE_DONE ? SQLITE_OK : r;
	}
	sqlite3_finalize(st);
	return r;
}

int ms_store_model_putv(struct ms_store *s, const char *kind, const char *key,
			const struct ms_store_piece *pieces, size_t n)
{
	sqlite3_stmt *head = NULL, *more = NULL;
	struct cursor c = { pieces, n, 0, 0 };
	unsigned char *tmp = NULL;
	size_t limit = chunk_limit(s), total = 0, nr_chunks, left;
	int rc, r;

	for (size_t i = 0; i < n; i++)
		total += pieces[i].len;
	nr_chunks = total ? (total - 1) / limit + 1 : 1;
	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	/* the chunks of the value replaced go in the same transaction */
	r = exec_kind(s, "DELETE FROM model_chunks WHERE kind = ?", kind);
	if (r == SQLITE_OK)
		r = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO models "
				       "(kind, key, data, chunks, size) "
				       "VALUES (?, ?, ?, ?, ?)", -1, &head,
				       NULL);
	if (r == SQLITE_OK && nr_chunks > 1)
		r = sqlite3_prepare_v2(s->db, "INSERT INTO model_chunks "
				       "(kind, seq, data) VALUES (?, ?, ?)",
				       -1, &more, NULL);
	left = total;
	for (size_t k = 0; r == SQLITE_OK && k < nr_chunks; k++) {
		size_t len = MIN(left, limit);
		sqlite3_stmt *st = k ? more : head;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		if (k) {
			sqlite3_bind_int64(st, 2, (sqlite3_int64)k);
		} else {
			sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 4, (sqlite3_int64)nr_chunks);
			if (nr_chunks > 1)
				sqlite3_bind_int64(st, 5,
						   (sqlite3_int64)total);
			else
				sqlite3_bind_null(st, 5);
		}
		r = bind_next(st, 3, &c, len, limit, &tmp);
		if (r == SQLITE_OK)
			r = sqlite3_step(st);
		r = r == SQLITE_DONE ? SQLITE_OK : r;
		left -= len;
	}
	sqlite3_finalize(head);
	sqlite3_finalize(more);
	g_free(tmp);
	if (r != SQLITE_OK) {
		rc = r == SQLITE_NOMEM ?
			ms_error_set(MS_ERROR, "store '%s': cannot save the "
				     "model '%s' (%zu bytes): out of memory",
				     s->path, kind, total) :
			store_db_error(s, r, "save a model");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return store_txn_commit(s);
}

int ms_store_model_put(struct ms_store *s, const char *kind, const char *key,
		       const void *data, size_t len)
{
	struct ms_store_piece p = { data, len };

	return ms_store_model_putv(s, kind, key, &p, 1);
}

int ms_store_model_drop(struct ms_store *s, const char *kind)
{
	int rc, r;

	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	r = exec_kind(s, "DELETE FROM models WHERE kind = ?", kind);
	if (r == SQLITE_OK)
		r = exec_kind(s, "DELETE FROM model_chunks WHERE kind = ?",
			      kind);
	if (r != SQLITE_OK) {
		rc = store_db_error(s, r, "drop a model");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return store_txn_commit(s);
}
