/*
 * test-store-models.c - models and results larger than one row
 * (store-models.c), with a small chunk limit so that a few kilobytes take
 * the path of the kernel's gigabytes: values of every size around the
 * limit read back byte for byte, in one piece or given in pieces; a value
 * replaced or dropped leaves no chunk behind; a chunk missing, cut short,
 * left over or of another length reads as nothing saved, never as data;
 * a byte altered anywhere reads as nothing saved (the CRC-64); values
 * of one kind under several keys are kept, the `keep` used last, and a
 * read without a key gives the one used last; a result (store-results.c)
 * keeps its facts, output and messages across chunks; and a store of
 * schema 7 is rebuilt: emptied, at the current schema.
 */
#include "test.h"
#include "bytes.h"
#include "store.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#define LIMIT 1000

/* `n` bytes that differ from chunk to chunk and from value to value. */
static unsigned char *pattern(size_t n, unsigned seed)
{
	unsigned char *p = g_malloc(n + 1);

	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131 + seed * 7 + i / LIMIT) & 0xff);
	return p;
}

/* The one integer `sql` gives on the database file `db`, -1 on error. */
static long long query(const char *db, const char *sql)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	long long v = -1;

	if (sqlite3_open(db, &h) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/* Run `sql` on the database file `db` (to damage it as a test must). */
static int exec(const char *db, const char *sql)
{
	sqlite3 *h = NULL;
	int rc = sqlite3_open(db, &h);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
	sqlite3_close(h);
	return rc == SQLITE_OK ? 0 : -1;
}

static long long chunk_rows(const char *db, const char *kind)
{
	char *sql = g_strdup_printf("SELECT count(*) FROM model_chunks "
				    "WHERE kind = '%s'", kind);
	long long n = query(db, sql);

	g_free(sql);
	return n;
}

/* Whether `kind` reads back (with `key`) as exactly `want`, `n` bytes. */
static bool reads_as(struct ms_store *s, const char *kind, const char *key,
		     const unsigned char *want, size_t n)
{
	GBytes *got = NULL;
	gsize len = 0;
	const void *p;
	bool same;

	if (ms_store_model_get(s, kind, key, &got) < 0 || !got)
		return false;
	p = g_bytes_get_data(got, &len);
	same = len == n && (!n || !memcmp(p, want, n));
	g_bytes_unref(got);
	return same;
}

/* Whether `kind` reads as nothing saved, without an error. */
static bool reads_none(struct ms_store *s, const char *kind)
{
	GBytes *got = NULL;
	int rc = ms_store_model_get(s, kind, NULL, &got);

	if (got)
		g_bytes_unref(got);
	return rc == 0 && !got;
}

static void test_sizes(struct ms_store *s, const char *db)
{
	static const size_t sizes[] = { 0, 1, LIMIT - 1, LIMIT, LIMIT + 1,
					3 * LIMIT + 7 };

	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		size_t n = sizes[i];
		unsigned char *v = pattern(n, (unsigned)i);
		long long chunks = n ? (long long)((n - 1) / LIMIT + 1) : 1;
		char what[64];

		snprintf(what, sizeof(what), "%zu bytes: saved", n);
		is_int(ms_store_model_put(s, "m", "k1", 1, v, n), 0, what);
		snprintf(what, sizeof(what), "%zu bytes: read back whole", n);
		ok(reads_as(s, "m", "k1", v, n), what);
		snprintf(what, sizeof(what), "%zu bytes: %lld row(s)", n,
			 chunks);
		is_int(chunk_rows(db, "m") + 1, chunks, what);
		is_int(query(db, "SELECT chunks FROM models WHERE kind = 'm'"),
		       chunks, "... and the row says how many");
		g_free(v);
	}
	ok(!reads_as(s, "m", "k2", NULL, 0) && reads_none(s, "nosuch"),
	   "another key, another kind: nothing");
}

static void test_pieces(struct ms_store *s)
{
	/* pieces that end inside chunks, across them, empty ones, and
	 * one longer than a chunk */
	static const size_t lens[] = { 7, 0, 1500, 993, 0, 2600, 1 };
	struct ms_store_piece p[G_N_ELEMENTS(lens)];
	unsigned char *whole, *parts[G_N_ELEMENTS(lens)];
	size_t total = 0, at = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(lens); i++)
		total += lens[i];
	whole = g_malloc(total);
	for (size_t i = 0; i < G_N_ELEMENTS(lens); i++) {
		parts[i] = pattern(lens[i], 40 + (unsigned)i);
		memcpy(whole + at, parts[i], lens[i]);
		at += lens[i];
		p[i] = (struct ms_store_piece){ lens[i] ? parts[i] : NULL,
						lens[i] };
	}
	is_int(ms_store_model_putv(s, "v", "k", 1, p, G_N_ELEMENTS(p)), 0,
	       "a value given in seven pieces: saved");
	ok(reads_as(s, "v", "k", whole, total),
	   "... reads back as the pieces one after the other");
	is_int(ms_store_model_putv(s, "v", "k", 1, p, 0), 0,
	       "no pieces at all: saved");
	ok(reads_as(s, "v", "k", NULL, 0), "... reads back empty");
	for (size_t i = 0; i < G_N_ELEMENTS(lens); i++)
		g_free(parts[i]);
	g_free(whole);
}

static void test_replace_drop(struct ms_store *s, const char *db)
{
	unsigned char *big = pattern(5 * LIMIT, 1), *mid = pattern(
		2 * LIMIT + 1, 2), *small = pattern(10, 3), *other = pattern(
		2 * LIMIT + 5, 4);

	is_int(ms_store_model_put(s, "other", "k", 1, other, 2 * LIMIT + 5), 0,
	       "another kind, chunked");
	is_int(ms_store_model_put(s, "r", "k", 1, big, 5 * LIMIT), 0,
	       "a value of five chunks");
	is_int(chunk_rows(db, "r"), 4, "... four rows beside the first");
	is_int(ms_store_model_put(s, "r", "k", 1, mid, 2 * LIMIT + 1), 0,
	       "replaced by one of three");
	is_int(chunk_rows(db, "r"), 2, "... no chunk of the old one left");
	ok(reads_as(s, "r", "k", mid, 2 * LIMIT + 1), "... reads as the new");
	is_int(ms_store_model_put(s, "r", "k2", 1, small, 10), 0,
	       "replaced by a small one");
	is_int(chunk_rows(db, "r"), 0, "... no chunk left");
	is_int(query(db, "SELECT count(*) FROM models WHERE kind = 'r'"), 1,
	       "... one row");
	ok(reads_as(s, "r", "k2", small, 10), "... reads as the small one");
	is_int(ms_store_model_put(s, "r", "k", 1, big, 5 * LIMIT), 0,
	       "replaced by a bigger one again");
	is_int(chunk_rows(db, "r"), 4, "... its four chunks");
	ok(reads_as(s, "r", "k", big, 5 * LIMIT), "... reads as the bigger");
	is_int(ms_store_model_drop(s, "r"), 0, "dropped");
	is_int(chunk_rows(db, "r"), 0, "... no chunk left");
	is_int(query(db, "SELECT count(*) FROM models WHERE kind = 'r'"), 0,
	       "... no row left");
	ok(reads_none(s, "r"), "... reads as nothing saved");
	is_int(ms_store_model_drop(s, "r"), 0, "dropping nothing: no error");
	ok(reads_as(s, "other", "k", other, 2 * LIMIT + 5) &&
	   chunk_rows(db, "other") == 2,
	   "the other kind is untouched by all of it");
	g_free(big);
	g_free(mid);
	g_free(small);
	g_free(other);
}

/* Put a value of four chunks as "c", damage it with `sql`, read it. */
static void damaged(struct ms_store *s, const char *db, const char *sql,
		    const char *what)
{
	unsigned char *v = pattern(3 * LIMIT + 7, 9);

	ms_store_model_put(s, "c", "k", 1, v, 3 * LIMIT + 7);
	ok(reads_as(s, "c", "k", v, 3 * LIMIT + 7) && exec(db, sql) == 0,
	   "a value to damage");
	ok(reads_none(s, "c"), what);
	g_free(v);
}

static void test_damage(struct ms_store *s, const char *db)
{
	damaged(s, db, "DELETE FROM model_chunks WHERE kind = 'c' AND seq = 2",
		"a chunk missing: nothing saved");
	damaged(s, db, "DELETE FROM model_chunks WHERE kind = 'c' AND seq = 3",
		"the last chunk missing: nothing saved");
	damaged(s, db, "UPDATE model_chunks SET data = substr(data, 1, 10) "
		"WHERE kind = 'c' AND seq = 1", "a chunk cut short: nothing "
		"saved");
	damaged(s, db, "UPDATE model_chunks SET data = substr(data, 1, 6) "
		"WHERE kind = 'c' AND seq = 3", "the last chunk cut short: "
		"nothing saved");
	damaged(s, db, "UPDATE model_chunks SET data = zeroblob(8) "
		"WHERE kind = 'c' AND seq = 3", "the last chunk too long: "
		"nothing saved");
	damaged(s, db, "UPDATE model_chunks SET data = CAST(data AS TEXT) "
		"WHERE kind = 'c' AND seq = 1", "a chunk of text, not bytes: "
		"nothing saved");
	damaged(s, db, "UPDATE models SET data = substr(data, 1, 999) "
		"WHERE kind = 'c'", "the first chunk cut short: nothing saved");
	damaged(s, db, "INSERT INTO model_chunks VALUES ('c', 'k', 4, x'00')",
		"a chunk past the count: nothing saved");
	damaged(s, db, "UPDATE model_chunks SET seq = seq + 10 "
		"WHERE kind = 'c' AND seq = 3", "a chunk out of order: nothing "
		"saved");
	damaged(s, db, "UPDATE models SET chunks = 2 WHERE kind = 'c'",
		"a count too small: nothing saved");
	damaged(s, db, "UPDATE models SET size = size - 1 WHERE kind = 'c'",
		"a size too small: nothing saved");
	damaged(s, db, "UPDATE models SET chunks = 0 WHERE kind = 'c'",
		"no chunk at all: nothing saved");
	damaged(s, db, "UPDATE model_chunks SET data = zeroblob(length(data)) "
		"WHERE kind = 'c' AND seq = 2", "a chunk's bytes altered, its "
		"length kept: the CRC refuses it");
	damaged(s, db, "UPDATE models SET key = 'k2' WHERE kind = 'c'; "
		"UPDATE model_chunks SET key = 'k2' WHERE kind = 'c'",
		"a value moved to another key: the CRC refuses it");
	{
		unsigned char one[3] = { 1, 2, 3 };

		ms_store_model_put(s, "c1", "k", 1, one, 3);
		ok(reads_as(s, "c1", "k", one, 3) && exec(db, "UPDATE models "
		   "SET data = x'010204' WHERE kind = 'c1'") == 0 &&
		   !reads_as(s, "c1", "k", one, 3) && reads_none(s, "c1"),
		   "a value of one row with a byte altered: nothing saved");
	}
}

/* Values of one kind under several keys: the `keep` used last stay. */
static void test_keys(struct ms_store *s, const char *db)
{
	unsigned char a[1] = { 'a' }, b[1] = { 'b' }, c[1] = { 'c' };
	GBytes *got = NULL;
	char *key = NULL;

	is_int(ms_store_model_put(s, "n", "ka", 2, a, 1) |
	       ms_store_model_put(s, "n", "kb", 2, b, 1), 0,
	       "two keys of one kind, two kept");
	ok(reads_as(s, "n", "ka", a, 1) && reads_as(s, "n", "kb", b, 1),
	   "... each reads back");
	ok(exec(db, "UPDATE models SET used = 100 WHERE key = 'kb';"
		"UPDATE models SET used = 200 WHERE key = 'ka'") == 0 &&
	   ms_store_model_get_any(s, "n", NULL, &key, &got) == 0 && got &&
	   key && !strcmp(key, "ka"), "no key: the value used last, and its "
	   "key");
	g_bytes_unref(got);
	g_free(key);
	ok(exec(db, "UPDATE models SET used = 100 WHERE key = 'ka';"
		"UPDATE models SET used = 50 WHERE key = 'kb'") == 0 &&
	   reads_as(s, "n", "kb", b, 1) &&
	   query(db, "SELECT used > 1000 FROM models WHERE key = 'kb'") == 1,
	   "a read marks the value used now");
	ok(ms_store_model_put(s, "lone", "k", 2, a, 1) == 0 &&
	   exec(db, "UPDATE models SET used = 100 WHERE kind = 'lone'") == 0 &&
	   reads_as(s, "lone", "k", a, 1) &&
	   query(db, "SELECT used FROM models WHERE kind = 'lone'") == 100,
	   "the only value of its kind is not rewritten to mark a read");
	/* SQLite rewrites the whole row (a 10 MB result) to change `used`:
	 * a read within the hour of the last leaves it */
	ok(exec(db, "UPDATE models SET used = strftime('%s', 'now') - 600 "
		"WHERE key = 'kb'") == 0 && reads_as(s, "n", "kb", b, 1) &&
	   query(db, "SELECT strftime('%s', 'now') - used BETWEEN 599 AND 700 "
		 "FROM models WHERE key = 'kb'") == 1,
	   "a read ten minutes after the last does not mark it again");
	is_int(ms_store_model_put(s, "n", "kc", 2, c, 1), 0, "a third key");
	ok(reads_as(s, "n", "kc", c, 1) && reads_as(s, "n", "kb", b, 1) &&
	   !reads_as(s, "n", "ka", a, 1) &&
	   query(db, "SELECT count(*) FROM models WHERE kind = 'n'") == 2,
	   "... the one used longest ago is gone");
}

static void test_results(struct ms_store *s, const char *db)
{
	GString *facts = g_string_new("facts\n"), *err = g_string_new(
		"maintstat: warning: w\n");
	unsigned char *out = pattern(4 * LIMIT + 3, 5);
	struct ms_store_result r;

	is_int(ms_store_result_put(s, "key", facts,
				   (const char *)out, 4 * LIMIT + 3, err), 0,
	       "a result of five chunks: saved");
	is_int(chunk_rows(db, "result"), 4, "... in five rows");
	is_int(ms_store_result_get(s, "key", &r), 0, "read back");
	ok(r.facts && g_bytes_get_size(r.facts) == facts->len &&
	   !memcmp(g_bytes_get_data(r.facts, NULL), facts->str, facts->len),
	   "... its facts");
	ok(r.out && g_bytes_get_size(r.out) == 4 * LIMIT + 3 &&
	   !memcmp(g_bytes_get_data(r.out, NULL), out, 4 * LIMIT + 3),
	   "... its output");
	ok(r.err && g_bytes_get_size(r.err) == err->len &&
	   !memcmp(g_bytes_get_data(r.err, NULL), err->str, err->len),
	   "... its messages");
	ms_store_result_release(&r);
	ok(exec(db, "UPDATE model_chunks SET data = zeroblob(length(data)) "
		"WHERE kind = 'result' AND seq = 2") == 0,
	   "a chunk's bytes altered, its length kept");
	is_int(ms_store_result_get(s, "key", &r), 0, "read");
	ok(!r.facts && !r.out && !r.err, "... the CRC refuses it");
	ms_store_result_release(&r);
	g_string_free(facts, TRUE);
	g_string_free(err, TRUE);
	g_free(out);
}

/* The bytes of kind "result" under `key` as rows hold them. */
static long long kept_bytes(const char *db)
{
	return query(db, "SELECT (SELECT sum(length(data)) FROM models WHERE "
		     "kind = 'result' AND key = 'z') + (SELECT "
		     "coalesce(sum(length(data)), 0) FROM model_chunks WHERE "
		     "kind = 'result' AND key = 'z')");
}

/* An output of 64 KiB or more is kept deflated and read back whole;
 * one that does not shrink is kept as it is; a deflated output that
 * does not inflate to its length is not a saved result. */
static void test_results_deflated(struct ms_store *s, const char *db)
{
	GString *facts = g_string_new("f\n"), *err = g_string_new("");
	GString *json = g_string_new(NULL);
	struct ms_store_result r;
	GRand *rnd = g_rand_new_with_seed(7);
	unsigned char *noise = g_malloc(100000);
	struct ms_store_piece bad[2];
	GByteArray *head = g_byte_array_new();

	for (int i = 0; i < 5000; i++)
		g_string_append_printf(json, "{\"subject\": \"patch %d\", "
				       "\"state\": \"waiting\"},\n", i);
	is_int(ms_store_result_put(s, "z", facts, json->str, json->len, err),
	       0, "a result of 220 KB of JSON: saved");
	ok(kept_bytes(db) > 0 && kept_bytes(db) < (long long)json->len / 4,
	   "... kept in under a quarter of its bytes");
	is_int(ms_store_result_get(s, "z", &r), 0, "read back");
	ok(r.out && g_bytes_get_size(r.out) == json->len &&
	   !memcmp(g_bytes_get_data(r.out, NULL), json->str, json->len) &&
	   r.facts && g_bytes_get_size(r.facts) == facts->len,
	   "... the same output and facts");
	ms_store_result_release(&r);
	for (int i = 0; i < 100000; i++)
		noise[i] = (unsigned char)g_rand_int(rnd);
	is_int(ms_store_result_put(s, "z", facts, (const char *)noise, 100000,
				   err), 0, "100 KB of noise: saved");
	ok(kept_bytes(db) >= 100000, "... kept as it is");
	is_int(ms_store_result_get(s, "z", &r), 0, "read back");
	ok(r.out && g_bytes_get_size(r.out) == 100000 &&
	   !memcmp(g_bytes_get_data(r.out, NULL), noise, 100000),
	   "... the same bytes");
	ms_store_result_release(&r);
	/* a head whose output "inflates" to 1000 bytes, from bytes that
	 * are no deflate stream: written with its CRC, as a store could
	 * hold it */
	ms_put_le(head, 2, 8);
	ms_put_le(head, 8, 8);
	ms_put_le(head, 0, 8);
	ms_put_le(head, 1000, 8);
	bad[0] = (struct ms_store_piece){ head->data, head->len };
	bad[1] = (struct ms_store_piece){ "f\nnot zlib", 10 };
	is_int(ms_store_model_putv(s, "result", "z", 8, bad, 2), 0,
	       "a result whose output does not inflate: written");
	is_int(ms_store_result_get(s, "z", &r), 0, "read");
	ok(!r.facts && !r.out && !r.err, "... not a saved result");
	ms_store_result_release(&r);
	g_byte_array_free(head, TRUE);
	g_free(noise);
	g_rand_free(rnd);
	g_string_free(json, TRUE);
	g_string_free(facts, TRUE);
	g_string_free(err, TRUE);
}

/* A store of schema 7, as a maintstat of then left it: models without
 * chunks, one row of data, a ref, a table no longer in the schema.
 * Opened now, it is rebuilt: everything in it is derived. */
static void test_rebuild(const char *dir)
{
	char *db = g_build_filename(dir, "v7.sqlite", NULL);
	struct ms_store *s = NULL;
	unsigned char *v = pattern(3 * LIMIT, 6);

	ok(ms_store_open(db, NULL, &s, NULL) == 0, "a store to turn into 7");
	ok(exec(db, "DROP TABLE model_chunks; DROP TABLE models;"
		"CREATE TABLE models (kind TEXT PRIMARY KEY,"
		"  key TEXT NOT NULL, data BLOB NOT NULL);"
		"INSERT INTO models VALUES ('old', 'k', x'414243');"
		"INSERT INTO refs VALUES ('HEAD', 'x', 0);"
		"CREATE TABLE mail_snapshots (inbox INTEGER);"
		"ALTER TABLE messages DROP COLUMN preimages;"
		"PRAGMA user_version = 7;") == 0,
	   "... schema 7, with a model and a ref saved");
	ms_store_free(s);
	s = NULL;
	ok(ms_store_open(db, NULL, &s, NULL) == 0, "opened: rebuilt");
	is_int(query(db, "PRAGMA user_version"), MS_STORE_SCHEMA_VERSION,
	       "... at the current schema");
	ok(s && reads_none(s, "old"), "... the old model gone");
	is_int(query(db, "SELECT count(*) FROM refs"), 0, "... the ref too");
	is_int(query(db, "SELECT count(*) FROM sqlite_master WHERE name = "
		     "'mail_snapshots'"), 0, "... and the old table");
	is_int(query(db, "SELECT count(*) FROM pragma_table_info('messages') "
		     "WHERE name = 'preimages'"), 1, "... messages of now");
	ms_store_set_chunk_limit(s, LIMIT);
	is_int(s ? ms_store_model_put(s, "old", "k", 1, v, 3 * LIMIT) : -1, 0,
	       "... a chunked value put");
	ok(s && reads_as(s, "old", "k", v, 3 * LIMIT) &&
	   chunk_rows(db, "old") == 2, "... which reads back");
	ms_store_free(s);
	ok(g_file_test(db, G_FILE_TEST_EXISTS), "... and the file is kept");
	g_free(v);
	g_free(db);
}

int main(void)
{
	char *dir = g_dir_make_tmp("ms-models-XXXXXX", NULL);
	char *db = g_build_filename(dir, "m.sqlite", NULL);
	struct ms_store *s = NULL;
	char *cmd;

	ok(ms_store_open(db, NULL, &s, NULL) == 0, "open a store");
	ms_store_set_chunk_limit(s, LIMIT);
	test_sizes(s, db);
	test_pieces(s);
	test_replace_drop(s, db);
	test_damage(s, db);
	test_keys(s, db);
	test_results(s, db);
	test_results_deflated(s, db);
	ms_store_free(s);
	test_rebuild(dir);

	cmd = g_strdup_printf("rm -rf '%s'", dir);
	ok(system(cmd) == 0, "clean up");
	g_free(cmd);
	g_free(db);
	g_free(dir);
	return test_done();
}
