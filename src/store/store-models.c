/*
 * store-models.c - the one cache of derived data (store.h, tables
 * `models` and `model_chunks`): values keyed by (kind, key), each with
 * its last use and one integrity check, a CRC-64 of its kind, key and
 * bytes, so that no caller frames or checks its bytes again.
 *
 * A value of up to the chunk limit is one row of `models` (chunks 1).  A
 * larger one is cut into chunks of the limit: the first in `models`
 * (with chunks = how many, size = the whole length), the others in
 * `model_chunks` as (kind, key, seq 1..chunks-1).
 * SQLite refuses a value over SQLITE_MAX_LENGTH (1e9 bytes) and a bound
 * length is an int: the kernel's review result (3 GB of JSON) was not
 * kept at all before.  Chunks are written straight from the caller's
 * pieces and read straight into the one buffer handed back, so neither
 * side holds the value twice.
 */
#include "store-internal.h"
#include "mail.h"          /* ms_crc64() */

#include <glib.h>
#include <limits.h>
#include <sqlite3.h>

G_STATIC_ASSERT(MS_STORE_CHUNK_MAX <= INT_MAX);

#define TOUCH_SECONDS 3600  /* see touch() */

void ms_store_set_chunk_limit(struct ms_store *s, size_t limit)
{
	s->chunk_limit = MIN(limit, MS_STORE_CHUNK_MAX);
}

static size_t chunk_limit(const struct ms_store *s)
{
	return s->chunk_limit ? s->chunk_limit : MS_STORE_CHUNK_DEFAULT;
}

/* The check of a value: CRC-64 of its kind and key (each with its NUL),
 * then its bytes, given in pieces. */
static uint64_t value_crc(const char *kind, const char *key,
			  const struct ms_store_piece *p, size_t n)
{
	uint64_t crc = ms_crc64(0, kind, strlen(kind) + 1);

	crc = ms_crc64(crc, key, strlen(key) + 1);
	for (size_t i = 0; i < n; i++)
		if (p[i].len)
			crc = ms_crc64(crc, p[i].data, p[i].len);
	return crc;
}

/*
 * Read the value of (kind, key) whose first chunk is row `row` of
 * `models` (`first` bytes), `chunks` chunks and `size` bytes in all, into
 * *out.  A value whose rows do not add up (a chunk missing, short, long
 * or left over) leaves *out NULL: nothing saved.  Returns an SQLite code
 * (SQLITE_NOMEM: no buffer of `size` bytes).
 */
static int read_value(struct ms_store *s, const char *kind, const char *key,
		      int64_t row, int64_t first, int64_t chunks,
		      int64_t size, GBytes **out)
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
	buf = store_buf_new((size_t)size);
	if (!buf)
		return SQLITE_NOMEM;
	rc = store_blob_read_into(s, "models", row, buf, (int)first);
	if (rc == SQLITE_OK)
		rc = store_prepare(s, &st, "SELECT seq, rowid, length(data), "
				   "typeof(data) = 'blob' FROM model_chunks "
				   "WHERE kind = ? AND key = ? ORDER BY seq",
				   "tt", kind, key);
	if (rc == SQLITE_OK) {
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
		*out = store_buf_bytes(buf, (size_t)size);
	else
		store_buf_free(buf);
	return rc;
}

/*
 * Note that (kind, key) was used now, when its last use saved is older
 * than TOUCH_SECONDS: SQLite rewrites a row whole (the first chunk of a
 * value, up to the chunk limit) to change one column, which at every
 * read cost a warm `maintainers --git` on U-Boot 15% of its CPU (the
 * tree's list, 0.7 MB, and the commit dates).  So a value's `used` is
 * its last use give or take TOUCH_SECONDS, and pruning keeps the `keep`
 * used last to that precision: a value read within the hour ranks by
 * its use an hour before at worst, never by its first save.  The only
 * value of its kind is not touched at all (14 MB for U-Boot's activity
 * model, at every run more than an hour after the last): the order of
 * uses matters only among several, and a value put later is newer than
 * any use of the one before it all the same.  A store too busy to say so
 * is no error (the use is a hint for pruning).
 */
static void touch(struct ms_store *s, const char *kind, const char *key,
		  int64_t used)
{
	int64_t now = g_get_real_time() / G_USEC_PER_SEC;

	if (used >= now - TOUCH_SECONDS && used <= now)
		return;
	(void)store_run(s, NULL, "UPDATE models SET used = ?1 WHERE kind = ?2 "
			"AND key = ?3 AND used < ?1 AND EXISTS (SELECT 1 FROM "
			"models WHERE kind = ?2 AND key != ?3)", "ltt", now,
			kind, key);
}

int ms_store_model_get_any(struct ms_store *s, const char *kind,
			   const char *key, char **key_out, GBytes **data)
{
	sqlite3_stmt *st = NULL;
	int64_t size = 0, used = 0;
	uint64_t crc = 0;
	char *found = NULL;
	int rc;

	*data = NULL;
	if (key_out)
		*key_out = NULL;
	rc = store_exec(s, "BEGIN", "read a saved model");
	if (rc < 0)
		return rc;
	/* without a key: the value of the kind used last */
	rc = store_prepare(s, &st, key ?
			   "SELECT rowid, length(data), chunks, size, crc, key, "
			   "used FROM models WHERE kind = ? AND key = ?" :
			   "SELECT rowid, length(data), chunks, size, crc, key, "
			   "used FROM models WHERE kind = ? ORDER BY used DESC, rowid "
			   "DESC LIMIT 1", key ? "tt" : "t", kind, key);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			size = sqlite3_column_int64(st, 3);
			crc = (uint64_t)sqlite3_column_int64(st, 4);
			used = sqlite3_column_int64(st, 6);
			found = g_strdup((const char *)
					 sqlite3_column_text(st, 5));
			rc = read_value(s, kind, found ? found : "",
					sqlite3_column_int64(st, 0),
					sqlite3_column_int64(st, 1),
					sqlite3_column_int64(st, 2), size,
					data);
		}
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK && *data) {
		struct ms_store_piece p;

		p.data = g_bytes_get_data(*data, &p.len);
		/* a damaged or altered value reads as nothing saved */
		if (value_crc(kind, found, &p, 1) != crc)
			g_clear_pointer(data, g_bytes_unref);
	}
	if (rc == SQLITE_OK && *data) {
		touch(s, kind, found, used);
		if (key_out)
			*key_out = g_steal_pointer(&found);
	}
	g_free(found);
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

int ms_store_model_get(struct ms_store *s, const char *kind, const char *key,
		       GBytes **data)
{
	return ms_store_model_get_any(s, kind, key, NULL, data);
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

/* Write the `nr_chunks` rows of the value in `c` (`total` bytes). */
static int write_rows(struct ms_store *s, const char *kind, const char *key,
		      struct cursor *c, size_t total, uint64_t crc)
{
	sqlite3_stmt *head = NULL, *more = NULL;
	unsigned char *tmp = NULL;
	size_t limit = chunk_limit(s), left = total;
	size_t nr_chunks = total ? (total - 1) / limit + 1 : 1;
	int r = SQLITE_OK;

	for (size_t k = 0; r == SQLITE_OK && k < nr_chunks; k++) {
		size_t len = MIN(left, limit);

		r = k ? store_prepare(s, &more, "INSERT INTO model_chunks "
				      "(kind, key, seq, data) VALUES (?, ?, ?, "
				      "?)", "ttl", kind, key, (int64_t)k) :
			store_prepare(s, &head, "INSERT OR REPLACE INTO models "
				      "(kind, key, used, crc, chunks, size, "
				      "data) VALUES (?, ?, ?, ?, ?, ?, ?)",
				      "ttllll", kind, key, (int64_t)
				      (g_get_real_time() / G_USEC_PER_SEC),
				      (int64_t)crc, (int64_t)nr_chunks,
				      (int64_t)total);
		if (r == SQLITE_OK)
			r = bind_next(k ? more : head, k ? 4 : 7, c, len, limit,
				      &tmp);
		if (r == SQLITE_OK)
			r = sqlite3_step(k ? more : head);
		r = r == SQLITE_DONE ? SQLITE_OK : r;
		left -= len;
	}
	sqlite3_finalize(head);
	sqlite3_finalize(more);
	g_free(tmp);
	return r;
}

int ms_store_model_putv(struct ms_store *s, const char *kind, const char *key,
			unsigned keep, const struct ms_store_piece *pieces,
			size_t n)
{
	struct cursor c = { pieces, n, 0, 0 };
	size_t total = 0;
	uint64_t crc = value_crc(kind, key, pieces, n);
	int rc, r;

	for (size_t i = 0; i < n; i++)
		total += pieces[i].len;
	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	/* the chunks of the value replaced go in the same transaction */
	r = store_run(s, NULL, "DELETE FROM model_chunks WHERE kind = ? AND "
		      "key = ?", "tt", kind, key);
	if (r == SQLITE_OK)
		r = write_rows(s, kind, key, &c, total, crc);
	/* then the kind's values beyond the `keep` used last */
	if (r == SQLITE_OK)
		r = store_run(s, NULL, "DELETE FROM model_chunks WHERE kind = "
			      "?1 AND key NOT IN (SELECT key FROM models WHERE "
			      "kind = ?1 ORDER BY used DESC, rowid DESC LIMIT "
			      "?2)", "tl", kind, (int64_t)(keep ? keep : 1));
	if (r == SQLITE_OK)
		r = store_run(s, NULL, "DELETE FROM models WHERE kind = ?1 AND "
			      "rowid NOT IN (SELECT rowid FROM models WHERE "
			      "kind = ?1 ORDER BY used DESC, rowid DESC LIMIT "
			      "?2)", "tl", kind, (int64_t)(keep ? keep : 1));
	if (r != SQLITE_OK) {
		rc = r == SQLITE_NOMEM ?
			ms_error_set(MS_ERROR, "store '%s': cannot save the "
				     "model '%s' (%zu bytes): out of memory",
				     s->path, kind, total) :
			store_db_error(s, r, "save a model");
		store_txn_rollback(s);
		return rc;
	}
	return store_txn_commit(s);
}

int ms_store_model_put(struct ms_store *s, const char *kind, const char *key,
		       unsigned keep, const void *data, size_t len)
{
	struct ms_store_piece p = { data, len };

	return ms_store_model_putv(s, kind, key, keep, &p, 1);
}

int ms_store_model_drop(struct ms_store *s, const char *kind)
{
	int rc, r;

	rc = store_txn_begin(s);
	if (rc < 0)
		return rc;
	r = store_run(s, NULL, "DELETE FROM models WHERE kind = ?", "t", kind);
	if (r == SQLITE_OK)
		r = store_run(s, NULL, "DELETE FROM model_chunks WHERE kind = ?",
			      "t", kind);
	if (r != SQLITE_OK) {
		rc = store_db_error(s, r, "drop a model");
		store_txn_rollback(s);
		return rc;
	}
	return store_txn_commit(s);
}
