/*
 * store.c - the incremental store (store.h); the SQLite adapter, in the
 * files of src/store/: here opening, the schema (set_schema()),
 * errors and transactions; what it stores in store-commits.c (commits and
 * the cached walk), store-mail.c (messages, mbox files), store-links.c
 * (links, patch-ids), store-snapshots.c (mail index snapshots);
 * store-json.c the JSON columns.  They share store-internal.h.
 */
#include "store-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define DEFAULT_BUSY_MS 30000
/* PRAGMA application_id of every store: "MSt1", so that only files
 * maintstat created are ever repaired, rebuilt or moved aside. */
#define APPLICATION_ID 0x4d537431

/* ---- errors ---- */

static bool is_damage(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

int store_db_error(struct ms_store *s, int rc, const char *what)
{
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);

	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return ms_error_set(MS_EBUSY,
			"store '%s' is busy: another maintstat run is "
			"using it (waited up to %d s; %s, code %d)", s->path,
			s->busy_ms / 1000, msg, rc);
	if (is_damage(rc) && s->ours) {
		s->damaged = true;
		return ms_error_set(MS_ERROR, "store '%s' is damaged (%s); it "
				    "was moved aside: run again to rebuild it",
				    s->path, msg);
	}
	return ms_error_set(MS_ERROR, "store '%s': cannot %s: %s", s->path,
			    what, msg);
}

int store_exec(struct ms_store *s, const char *sql, const char *what)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_db_error(s, rc, what);
}

/* ---- schema ---- */

/*
 * The schema of a store, created in one transaction on an empty file.
 * Everything a store holds is derived from what the user names (git
 * repositories, archives, mbox files), so a store of another schema
 * version is not converted: it is emptied and filled again (set_schema()).
 */
static const char schema[] =
	"CREATE TABLE commits ("
	"  seq INTEGER PRIMARY KEY,"
	"  id TEXT NOT NULL UNIQUE,"
	"  version INTEGER NOT NULL,"
	"  incomplete INTEGER NOT NULL,"
	"  ctime INTEGER NOT NULL,"
	"  parents TEXT NOT NULL,"
	"  author_name TEXT NOT NULL,"
	"  author_email TEXT NOT NULL,"
	"  author_time INTEGER NOT NULL,"
	"  author_tz INTEGER NOT NULL,"
	"  committer_name TEXT NOT NULL,"
	"  committer_email TEXT NOT NULL,"
	"  committer_time INTEGER NOT NULL,"
	"  committer_tz INTEGER NOT NULL,"
	"  trailers TEXT NOT NULL,"
	"  paths TEXT NOT NULL);"
	/* what the walk order needs, readable without the big columns */
	"CREATE INDEX commits_graph ON commits (seq, id, version, incomplete,"
	"  ctime, parents);"
	"CREATE TABLE refs ("
	"  rev TEXT PRIMARY KEY,"
	"  commit_id TEXT NOT NULL,"
	"  walked_at INTEGER NOT NULL);"
	/* the mail side */
	"CREATE TABLE inboxes ("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL UNIQUE,"
	"  format TEXT NOT NULL,"
	"  bodies INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE inbox_epochs ("
	"  inbox INTEGER NOT NULL REFERENCES inboxes(id),"
	"  epoch INTEGER NOT NULL,"
	"  head TEXT NOT NULL,"
	"  PRIMARY KEY (inbox, epoch));"
	"CREATE TABLE messages ("
	"  seq INTEGER PRIMARY KEY,"
	"  inbox INTEGER NOT NULL REFERENCES inboxes(id),"
	"  epoch INTEGER NOT NULL,"
	"  commit_id TEXT NOT NULL,"
	"  version INTEGER NOT NULL,"
	"  src_problems INTEGER NOT NULL,"
	"  message_id TEXT, in_reply_to TEXT, refs TEXT NOT NULL,"
	"  date_raw TEXT, date INTEGER, date_tz INTEGER, date_valid INTEGER,"
	"  from_name TEXT, from_email TEXT, sender_name TEXT,"
	"  sender_email TEXT, sender_rewritten INTEGER,"
	"  to_addrs TEXT, cc_addrs TEXT, list_id TEXT, subject_raw TEXT,"
	"  subject_prefixes TEXT, subject TEXT, reply_depth INTEGER,"
	"  forward INTEGER, patch INTEGER, rfc INTEGER, resend INTEGER,"
	"  pull INTEGER, patch_version INTEGER, patch_number INTEGER,"
	"  patch_total INTEGER, tree TEXT, new_lines INTEGER,"
	"  quoted_lines INTEGER, trailers TEXT NOT NULL, change_id TEXT,"
	"  has_diff INTEGER, diff_in_attachment INTEGER, files TEXT NOT NULL,"
	"  lines_added INTEGER, lines_removed INTEGER, patch_id TEXT,"
	"  kind INTEGER, applied_notice INTEGER, problems INTEGER,"
	"  size INTEGER,"
	/* where the message starts in its mbox file; its pre-image blob
	 * ids (mail.h ->preimages) */
	"  line INTEGER NOT NULL DEFAULT 0,"
	"  preimages TEXT NOT NULL DEFAULT '[]');"
	"CREATE INDEX messages_inbox ON messages (inbox, epoch, seq);"
	/* each warm run asks whether an inbox has rows of another
	 * extraction version: without it, a read of every row (50 ms on
	 * linux-watchdog's 16,000 messages) */
	"CREATE INDEX messages_version ON messages (inbox, version);"
	"CREATE INDEX messages_id ON messages (message_id);"
	/* mbox files, whole */
	"CREATE TABLE mbox_files ("
	"  inbox INTEGER PRIMARY KEY REFERENCES inboxes(id),"
	"  size INTEGER NOT NULL,"
	"  mtime INTEGER NOT NULL,"
	"  sha1 TEXT NOT NULL);"
	/* the decoded text of messages, for reads that keep it */
	"CREATE TABLE message_bodies ("
	"  seq INTEGER PRIMARY KEY,"
	"  body TEXT);"
	/* links as link/review compute them */
	"CREATE TABLE links ("
	"  commit_id TEXT NOT NULL,"
	"  flags INTEGER NOT NULL,"
	"  version INTEGER NOT NULL,"
	"  state TEXT NOT NULL,"
	"  rec INTEGER,"
	"  message_id TEXT,"
	"  method TEXT,"
	"  evidence INTEGER NOT NULL,"
	"  earlier TEXT NOT NULL,"
	"  PRIMARY KEY (commit_id, flags));"
	/* what linking derives from a commit's diff */
	"CREATE TABLE commit_patchids ("
	"  id TEXT PRIMARY KEY,"
	"  version INTEGER NOT NULL,"
	"  patch_id TEXT NOT NULL,"
	"  summary TEXT NOT NULL);"
	/* the one cache: values keyed by (kind, key), with their last use
	 * and a CRC-64 each; a value larger than one SQLite value is kept
	 * in chunks, `data` holding the first, model_chunks the others */
	"CREATE TABLE models ("
	"  kind TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  used INTEGER NOT NULL,"
	"  crc INTEGER NOT NULL,"
	"  chunks INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  data BLOB NOT NULL,"
	"  PRIMARY KEY (kind, key));"
	"CREATE TABLE model_chunks ("
	"  kind TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  data BLOB NOT NULL,"
	"  PRIMARY KEY (kind, key, seq));"
	/* views, for people querying the store with sqlite3 */
	"CREATE VIEW commit_paths AS"
	"  SELECT c.id AS commit_id, c.committer_time AS commit_time,"
	"         p.value AS path"
	"  FROM commits c, json_each(c.paths) p;"
	"CREATE VIEW commit_trailers AS"
	"  SELECT c.id AS commit_id, c.committer_time AS commit_time,"
	"         json_extract(t.value, '$[1]') AS token,"
	"         json_extract(t.value, '$[2]') AS value,"
	"         json_extract(t.value, '$[4]') AS name,"
	"         lower(json_extract(t.value, '$[5]')) AS email"
	"  FROM commits c, json_each(c.trailers) t;"
	"CREATE VIEW person_events AS"
	"  SELECT id AS commit_id, 'author' AS role, author_name AS name,"
	"         lower(author_email) AS email, author_time AS time"
	"  FROM commits WHERE instr(parents, ' ') = 0"
	"  UNION ALL"
	"  SELECT id, 'committer', committer_name, lower(committer_email),"
	"         committer_time"
	"  FROM commits WHERE instr(parents, ' ') = 0"
	"  UNION ALL"
	"  SELECT commit_id, token, name, email, commit_time"
	"  FROM commit_trailers WHERE email IS NOT NULL"
	"    AND lower(token) LIKE '%-by';"
	"CREATE VIEW activity_last AS"
	"  SELECT email, role, count(*) AS commits,"
	"         datetime(max(time), 'unixepoch') AS last"
	"  FROM person_events GROUP BY email, role;"
	"CREATE VIEW review_tags AS"
	"  SELECT t.email, t.name, t.token, t.commit_id, t.commit_time,"
	"         lower(c.author_email) AS author_email"
	"  FROM commit_trailers t JOIN commits c ON c.id = t.commit_id"
	"  WHERE lower(t.token) IN ('reviewed-by', 'acked-by')"
	"    AND t.email IS NOT NULL;"
	"CREATE VIEW path_committers AS"
	"  SELECT p.path, lower(c.committer_email) AS email,"
	"         c.committer_name AS name, c.id AS commit_id,"
	"         c.committer_time AS commit_time"
	"  FROM commit_paths p JOIN commits c ON c.id = p.commit_id"
	"  WHERE instr(c.parents, ' ') = 0;"
	"CREATE VIEW mail_messages AS"
	"  SELECT i.path AS inbox, m.epoch, m.commit_id, m.message_id,"
	"         m.in_reply_to, lower(m.sender_email) AS sender_email,"
	"         m.sender_name, m.date, m.subject, m.patch_version,"
	"         m.patch_number, m.patch_total, m.patch_id, m.change_id,"
	"         CASE m.kind WHEN 1 THEN 'patch' WHEN 2 THEN 'cover_letter'"
	"           WHEN 3 THEN 'reply' WHEN 4 THEN 'review' WHEN 5 THEN 'nack'"
	"           WHEN 6 THEN 'pull_request' WHEN 7 THEN 'bot'"
	"           ELSE 'other' END AS kind"
	"  FROM messages m JOIN inboxes i ON i.id = m.inbox;"
	"CREATE VIEW mail_tags AS"
	"  SELECT m.message_id, m.in_reply_to, m.date,"
	"         lower(m.sender_email) AS sender_email,"
	"         json_extract(t.value, '$[1]') AS token,"
	"         json_extract(t.value, '$[4]') AS name,"
	"         lower(json_extract(t.value, '$[5]')) AS email"
	"  FROM messages m, json_each(m.trailers) t;"
	"CREATE VIEW commit_links AS"
	"  SELECT l.commit_id, c.committer_time AS commit_time,"
	"         lower(c.author_email) AS author_email,"
	"         lower(c.committer_email) AS committer_email,"
	"         l.message_id, l.method, l.evidence,"
	"         json_array_length(l.earlier) AS earlier_versions,"
	"         m.date AS posted, lower(m.sender_email) AS sender_email,"
	"         m.subject"
	"  FROM links l JOIN commits c ON c.id = l.commit_id"
	"  LEFT JOIN messages m ON m.seq = (SELECT min(seq) FROM messages"
	"                                   WHERE message_id = l.message_id)"
	"  WHERE l.flags = 0 AND l.message_id IS NOT NULL;"
	"CREATE VIEW unlinked_commits AS"
	"  SELECT l.commit_id, c.committer_time AS commit_time,"
	"         lower(c.author_email) AS author_email,"
	"         lower(c.committer_email) AS committer_email"
	"  FROM links l JOIN commits c ON c.id = l.commit_id"
	"  WHERE l.flags = 0 AND l.message_id IS NULL;"
	"CREATE VIEW mail_files AS"
	"  SELECT m.message_id, m.date, f.value AS path"
	"  FROM messages m, json_each(m.files) f;";

static int vprepare(struct ms_store *s, sqlite3_stmt **st, const char *sql,
		    const char *fmt, va_list ap)
{
	int rc = SQLITE_OK;

	if (*st)
		sqlite3_reset(*st);
	else
		rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	for (int i = 1; rc == SQLITE_OK && fmt && fmt[i - 1]; i++) {
		const char *t;

		if (fmt[i - 1] == 'i') {
			rc = sqlite3_bind_int(*st, i, va_arg(ap, int));
		} else if (fmt[i - 1] == 'l') {
			rc = sqlite3_bind_int64(*st, i, va_arg(ap, int64_t));
		} else {
			t = va_arg(ap, const char *);
			rc = t ? sqlite3_bind_text(*st, i, t, -1, SQLITE_STATIC) :
				 sqlite3_bind_null(*st, i);
		}
	}
	return rc;
}

int store_prepare(struct ms_store *s, sqlite3_stmt **st, const char *sql,
		  const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vprepare(s, st, sql, fmt, ap);
	va_end(ap);
	return rc;
}

static int vrun(struct ms_store *s, int64_t *out, const char *sql,
		const char *fmt, va_list ap)
{
	sqlite3_stmt *st = NULL;
	int rc = vprepare(s, &st, sql, fmt, ap);

	if (out)
		*out = 0;
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && out)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_run(struct ms_store *s, int64_t *out, const char *sql,
	      const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vrun(s, out, sql, fmt, ap);
	va_end(ap);
	return rc;
}

int store_query(struct ms_store *s, const char *what, int64_t *out,
		const char *sql, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vrun(s, out, sql, fmt, ap);
	va_end(ap);
	return rc == SQLITE_OK ? 0 : store_db_error(s, rc, what);
}

static int refuse(struct ms_store *s, const char *why);

/* Drop every table and view of a store of another schema version. */
static int drop_all(struct ms_store *s)
{
	GString *sql = g_string_new(NULL);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "SELECT type, name FROM "
				    "sqlite_master WHERE type IN ('table', "
				    "'view') AND name NOT GLOB 'sqlite_*' "
				    "ORDER BY type DESC", -1, &st, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *q = sqlite3_mprintf("DROP %s \"%w\";",
					  sqlite3_column_text(st, 0),
					  sqlite3_column_text(st, 1));

		g_string_append(sql, q);
		sqlite3_free(q);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	rc = rc == SQLITE_DONE ? store_exec(s, sql->str, "empty the database") :
	     store_db_error(s, rc, "read the database");
	g_string_free(sql, TRUE);
	return rc;
}

/*
 * Give a store the current schema: a new file gets it, and one of an
 * older version is emptied first (everything in it is derived: the next
 * runs fill it again), in one transaction that another run opening the
 * same file waits for.
 */
static int set_schema(struct ms_store *s)
{
	int64_t v;
	int rc;

	rc = store_query(s, "read the database", &v,
			 "PRAGMA user_version", NULL);
	if (rc < 0 || v == MS_STORE_SCHEMA_VERSION)
		return rc;
	if (v >= 0 && v < MS_STORE_SCHEMA_VERSION) {
		rc = store_exec(s, "BEGIN IMMEDIATE", "lock the database");
		/* another run may have rebuilt it while we waited */
		if (rc == 0)
			rc = store_query(s, "read the database", &v,
					 "PRAGMA user_version", NULL);
		if (rc == 0 && v >= 0 && v < MS_STORE_SCHEMA_VERSION) {
			char sql[64];

			snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
				 MS_STORE_SCHEMA_VERSION);
			rc = drop_all(s);
			if (rc == 0)
				rc = store_exec(s, schema, "create the schema");
			if (rc == 0)
				rc = store_exec(s, sql, "create the schema");
			if (rc == 0)
				return store_exec(s, "COMMIT", "commit");
		}
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		if (rc < 0 || v == MS_STORE_SCHEMA_VERSION)
			return rc;
	}
	if (v < 0)      /* a file may come from anyone: never an index */
		return refuse(s, "a negative schema version");
	return ms_error_set(MS_EUSAGE,
		"store '%s' has schema version %lld, newer than this "
		"maintstat's %d: use --db to name another file, or "
		"--no-cache", s->path, (long long)v,
		MS_STORE_SCHEMA_VERSION);
}

static void close_db(struct ms_store *s)
{
	sqlite3_finalize(s->insert);
	sqlite3_finalize(s->by_rowid);
	s->insert = s->by_rowid = NULL;
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
	s->in_txn = 0;
}

static const char *const aux_suffixes[] = { "", "-wal", "-shm",
					      "-journal" };

/* Remove the store's files (one this run created and left empty). */
static void remove_files(const char *path)
{
	for (size_t i = 0; i < G_N_ELEMENTS(aux_suffixes); i++) {
		char *aux = g_strconcat(path, aux_suffixes[i], NULL);

		g_unlink(aux);
		g_free(aux);
	}
}

/*
 * Move a damaged store and its WAL aside as PATH.corrupt-<UTC time>
 * (-wal ...): never delete what may be the only copy of a user's data,
 * and keep it for a bug report.  The time names a second; a second
 * damaged file in the same second gets a counter.
 */
static void move_aside(const char *path)
{
	GDateTime *now = g_date_time_new_now_utc();
	char *stamp = g_date_time_format(now, "%Y%m%dT%H%M%SZ");
	char *base = NULL;

	for (int n = 0; n < 100 && !base; n++) {
		char *b = n ? g_strdup_printf("%s.corrupt-%s.%d", path, stamp,
					      n) :
			g_strdup_printf("%s.corrupt-%s", path, stamp);

		if (g_file_test(b, G_FILE_TEST_EXISTS))
			g_free(b);
		else
			base = b;
	}
	for (size_t i = 0; base && i < G_N_ELEMENTS(aux_suffixes); i++) {
		char *from = g_strconcat(path, aux_suffixes[i], NULL);
		char *to = g_strconcat(base, aux_suffixes[i], NULL);

		if (i == 2)             /* the shared-memory index: rebuilt */
			g_unlink(from);
		else
			g_rename(from, to);
		g_free(from);
		g_free(to);
	}
	g_free(base);
	g_free(stamp);
	g_date_time_unref(now);
}

/*
 * Switch the database to WAL mode (a no-op once it is).  A file just
 * created is still in rollback mode, and the switch is a write that
 * upgrades a read lock: SQLite answers SQLITE_BUSY at once, without its
 * busy handler, when another run is switching the same new file (the
 * handler would deadlock).  So we wait here ourselves, up to the busy
 * timeout like every other lock.
 */
static int set_wal(struct ms_store *s)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)s->busy_ms * 1000;
	gint64 pause = 1000;

	for (;;) {
		sqlite3_stmt *st = NULL;
		char *mode = NULL;
		int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL",
					    -1, &st, NULL);

		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			mode = g_ascii_strdown((const char *)
					       sqlite3_column_text(st, 0), -1);
			rc = SQLITE_OK;
		}
		sqlite3_finalize(st);
		if (rc == SQLITE_OK) {
			bool wal = mode && !strcmp(mode, "wal");

			if (!wal)
				rc = ms_error_set(MS_ERROR, "store '%s': cannot "
						  "switch to WAL mode (it stays "
						  "in '%s' mode)", s->path,
						  mode ? mode : "?");
			g_free(mode);
			return wal ? 0 : rc;
		}
		if ((rc & 0xff) != SQLITE_BUSY ||
		    g_get_monotonic_time() >= deadline)
			return store_db_error(s, rc, "switch to WAL mode");
		g_usleep((gulong)pause);
		pause = MIN(pause * 2, 50000);
	}
}

static int refuse(struct ms_store *s, const char *why)
{
	return ms_error_set(MS_ERROR, "'%s' is not a maintstat store (%s): "
			    "refusing to touch it; name another file with "
			    "--db, or --no-cache", s->path, why);
}

/*
 * Is the SQLite database just opened a maintstat store?  Ours carry
 * APPLICATION_ID; a store of a maintstat from before the id has none but
 * our schema (a user_version and the commits and refs tables), and is
 * stamped once it is open.  Anything else is some other program's data.
 */
static int identify(struct ms_store *s, bool *stamp)
{
	int64_t id = 0, version = 0, tables = 0;
	int rc = store_run(s, &id, "PRAGMA application_id", NULL);

	*stamp = false;
	if (rc == SQLITE_OK && id == APPLICATION_ID) {
		s->ours = true;
		return 0;
	}
	if (rc != SQLITE_OK) {
		if (s->ours && is_damage(rc))   /* our header, damaged pages */
			return store_db_error(s, rc, "read the database");
		if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
			return store_db_error(s, rc, "read the database");
		return refuse(s, sqlite3_errstr(rc));
	}
	if (id != 0) {
		char why[64];

		snprintf(why, sizeof(why), "an SQLite database with "
			 "application id 0x%08llx", (unsigned long long)id);
		return refuse(s, why);
	}
	rc = store_run(s, &version, "PRAGMA user_version", NULL);
	if (rc == SQLITE_OK)
		rc = store_run(s, &tables, "SELECT count(*) FROM "
			       "sqlite_master WHERE type = 'table' AND name "
			       "IN ('commits', 'refs')", NULL);
	if (rc != SQLITE_OK || version < 1 || tables != 2)
		return refuse(s, "an SQLite database of another program");
	s->ours = true;
	*stamp = true;
	return 0;
}

static int open_db(struct ms_store *s)
{
	bool stamp = false;
	int rc;

	rc = sqlite3_open_v2(s->path, &s->db,
			     SQLITE_OPEN_READWRITE | (s->created ?
			     SQLITE_OPEN_CREATE : 0) |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		rc = ms_error_set(MS_ERROR, "cannot open store '%s': %s",
				  s->path, s->db ? sqlite3_errmsg(s->db) :
				  sqlite3_errstr(rc));
		close_db(s);
		return rc;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, s->busy_ms);
	if (s->fresh) {
		/* stamped while still in rollback mode, so that the id is in
		 * the file itself before anything else is written */
		s->ours = true;
		rc = store_exec(s, "PRAGMA application_id = "
			  G_STRINGIFY(APPLICATION_ID), "stamp the database");
	} else {
		rc = identify(s, &stamp);
	}
	if (rc < 0) {
		close_db(s);
		return rc;
	}
	rc = set_wal(s);
	if (rc == 0 && stamp)
		rc = store_exec(s, "PRAGMA application_id = "
			  G_STRINGIFY(APPLICATION_ID), "stamp the database");
	if (rc == 0)
		rc = store_exec(s, "PRAGMA synchronous = NORMAL", "set up");
	if (rc == 0)
		rc = store_exec(s, "PRAGMA mmap_size = 268435456", "set up");
	if (rc == 0)
		rc = set_schema(s);
	if (rc == 0) {
		int r = sqlite3_prepare_v2(s->db,
			"INSERT INTO commits (id, version, "
			"incomplete, ctime, parents, author_name, "
			"author_email, author_time, author_tz, "
			"committer_name, committer_email, committer_time, "
			"committer_tz, trailers, paths) VALUES "
			"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
			/* a record extracted again keeps its seq, which
			 * a concurrent walk may be about to read */
			"ON CONFLICT (id) DO UPDATE SET "
			"version = excluded.version, "
			"incomplete = excluded.incomplete, "
			"ctime = excluded.ctime, parents = excluded.parents, "
			"author_name = excluded.author_name, "
			"author_email = excluded.author_email, "
			"author_time = excluded.author_time, "
			"author_tz = excluded.author_tz, "
			"committer_name = excluded.committer_name, "
			"committer_email = excluded.committer_email, "
			"committer_time = excluded.committer_time, "
			"committer_tz = excluded.committer_tz, "
			"trailers = excluded.trailers, "
			"paths = excluded.paths RETURNING seq", -1, &s->insert,
			NULL);

		if (r == SQLITE_OK)
			r = sqlite3_prepare_v2(s->db,
				"SELECT seq, id, incomplete, parents, "
				"author_name, author_email, author_time, "
				"author_tz, committer_name, committer_email, "
				"committer_time, committer_tz, trailers, paths "
				"FROM commits WHERE seq >= ? ORDER BY seq", -1,
				&s->by_rowid,
				NULL);
		if (r != SQLITE_OK)
			rc = store_db_error(s, r, "prepare a statement");
	}
	if (rc < 0)
		close_db(s);
	return rc;
}

/* Move a damaged store aside and create an empty one in its place. */
int store_rebuild(struct ms_store *s, struct ms_diags *diags,
		   const char *why)
{
	close_db(s);
	move_aside(s->path);
	s->damaged = false;
	s->created = s->fresh = true;
	if (diags)
		ms_diags_add(diags, NULL, 0, "store '%s' was damaged (%s); "
			     "moved it aside as %s.corrupt-<time> and "
			     "rebuilding it", s->path, why, s->path);
	return open_db(s);
}

static const char sqlite_magic[16] = "SQLite format 3";

/*
 * What is at s->path, before SQLite sees it: nothing (we create it), an
 * empty regular file, or an SQLite database whose header does not name
 * another program.  Anything else (a JSON report, MAINTAINERS, a FIFO, a
 * directory, a truncated header) is refused and left as it is.
 */
static int check_file(struct ms_store *s, bool create)
{
	unsigned char head[100];
	GStatBuf sb;
	ssize_t n;
	uint32_t id;
	int fd;

	if (g_stat(s->path, &sb) < 0) {
		if (errno != ENOENT)
			return ms_error_set_errno(MS_ERROR, errno, "cannot "
						  "open store '%s'", s->path);
		if (!create)
			return ms_error_set(MS_ENOTFOUND, "no store at '%s' "
					    "(nothing was stored there yet)",
					    s->path);
		s->created = s->fresh = true;
		return 0;
	}
	if (!S_ISREG(sb.st_mode))
		return refuse(s, "not a regular file");
	if (sb.st_size == 0) {
		s->fresh = true;
		return 0;
	}
	fd = g_open(s->path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return ms_error_set_errno(MS_ERROR, errno, "cannot open store "
					  "'%s'", s->path);
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < (ssize_t)sizeof(sqlite_magic) ||
	    memcmp(head, sqlite_magic, sizeof(sqlite_magic)))
		return refuse(s, "not an SQLite database");
	if (n < (ssize_t)sizeof(head))
		return refuse(s, "a truncated SQLite header");
	id = (uint32_t)head[68] << 24 | (uint32_t)head[69] << 16 |
		(uint32_t)head[70] << 8 | head[71];
	if (id == APPLICATION_ID)
		s->ours = true;
	return 0;
}

/* Does the store hold nothing at all (a run that failed before storing)? */
static bool is_empty(struct ms_store *s)
{
	int64_t n = 1;

	/* maintainers keeps only git logs (store-vcslog.c) in its store */
	if (!s->db || store_run(s, &n, "SELECT (SELECT count(*) FROM commits) "
				"+ (SELECT count(*) FROM refs) + (SELECT "
				"count(*) FROM inboxes) + (SELECT count(*) FROM "
				"models WHERE kind LIKE 'gm-%')", NULL) !=
		      SQLITE_OK)
		return false;
	return n == 0;
}

int ms_store_open(const char *path, const struct ms_store_opts *opts,
		  struct ms_store **out, struct ms_diags *diags)
{
	struct ms_store *s = g_new0(struct ms_store, 1);
	bool create = !(opts && opts->no_create);
	char *dir = g_path_get_dirname(path);
	int rc;

	*out = NULL;
	s->path = g_strdup(path);
	s->busy_ms = opts && opts->busy_timeout_ms > 0 ?
		opts->busy_timeout_ms : DEFAULT_BUSY_MS;
	if (create && g_mkdir_with_parents(dir, 0700) < 0) {
		rc = ms_error_set_errno(MS_ERROR, errno,
					"cannot create directory '%s'", dir);
		goto fail;
	}
	rc = check_file(s, create);
	if (rc < 0)
		goto fail;
	rc = open_db(s);
	if (rc < 0 && s->damaged)
		rc = store_rebuild(s, diags, "its pages cannot be read");
	if (rc < 0)
		goto fail;
	g_free(dir);
	*out = s;
	return 0;
fail:
	g_free(dir);
	s->damaged = false;     /* never touch what we could not open */
	if (s->created && !s->db)
		s->created = false;
	ms_store_free(s);
	return rc;
}

struct commit_hook {
	void (*fn)(void *);
	void *data;
};

static int on_commit(void *arg)
{
	struct commit_hook *h = arg;

	h->fn(h->data);
	return 0;       /* never turned into a rollback */
}

void ms_store_on_commit(struct ms_store *s, void (*fn)(void *), void *data)
{
	g_free(s->hook);
	s->hook = NULL;
	if (fn) {
		s->hook = g_new(struct commit_hook, 1);
		s->hook->fn = fn;
		s->hook->data = data;
	}
	sqlite3_commit_hook(s->db, fn ? on_commit : NULL, s->hook);
}

void ms_store_free(struct ms_store *s)
{
	bool drop;

	if (!s)
		return;
	if (s->in_txn && s->db)
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	drop = s->created && !s->damaged && is_empty(s);
	close_db(s);
	if (s->damaged)
		move_aside(s->path);
	else if (drop)
		remove_files(s->path);
	g_free(s->path);
	g_free(s->hook);
	g_free(s);
}

const char *ms_store_path(const struct ms_store *s)
{
	return s->path;
}

int ms_store_info(struct ms_store *s, struct ms_store_info *info)
{
	char *wal;
	GStatBuf sb;
	int rc;

	memset(info, 0, sizeof(*info));
	info->schema_version = MS_STORE_SCHEMA_VERSION;
	rc = store_query(s, "read the database", &info->commits,
			 "SELECT count(*) FROM commits", NULL);
	if (rc == 0)
		rc = store_query(s, "read the database", &info->stale_commits,
				 "SELECT count(*) FROM commits WHERE "
				 "version != ?", "i", MS_STORE_COMMIT_VERSION);
	if (rc == 0)
		rc = store_query(s, "read the database", &info->refs,
				 "SELECT count(*) FROM refs", NULL);
	if (rc == 0)
		rc = store_query(s, "read the database", &info->messages,
				 "SELECT count(*) FROM messages", NULL);
	if (g_stat(s->path, &sb) == 0)
		info->size += sb.st_size;
	wal = g_strconcat(s->path, "-wal", NULL);
	if (g_stat(wal, &sb) == 0)
		info->size += sb.st_size;
	g_free(wal);
	return rc;
}

/* ---- transactions ---- */

int store_txn_begin(struct ms_store *s)
{
	int rc;

	if (s->in_txn)
		return 0;
	rc = store_exec(s, "BEGIN IMMEDIATE", "lock the database");
	if (rc == 0)
		s->in_txn = 1;
	return rc;
}

void store_txn_rollback(struct ms_store *s)
{
	if (s->in_txn)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_txn = 0;
}

int store_txn_commit(struct ms_store *s)
{
	if (!s->in_txn)
		return 0;
	s->in_txn = 0;
	return store_exec(s, "COMMIT", "commit");
}

int store_blob_read_into(struct ms_store *s, const char *table, int64_t row,
			 void *buf, int n)
{
	sqlite3_blob *blob = NULL;
	int rc = sqlite3_blob_open(s->db, "main", table, "data", row, 0,
				   &blob);

	if (rc == SQLITE_OK && n)
		rc = sqlite3_blob_read(blob, buf, n, 0);
	sqlite3_blob_close(blob);
	return rc;
}

/*
 * A buffer of `n` bytes for a value read whole, or NULL.  A large one is
 * mapped with its pages made at once (MAP_POPULATE): read into fresh
 * memory, a 10 MB result cost 2,400 page faults, a third of the CPU of
 * a warm run that prints it.  Its first word is the mapping's length
 * (0: from malloc).
 */
#define BUF_HEAD 16
#define BUF_POPULATE (1u << 20)

void *store_buf_new(size_t n)
{
	size_t len = n + BUF_HEAD;
	char *p = NULL;

	if (n > SIZE_MAX - BUF_HEAD)
		return NULL;
	if (n >= BUF_POPULATE) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
	} else {
		p = g_try_malloc(len);
		if (!p)
			return NULL;
		len = 0;
	}
	memcpy(p, &len, sizeof(len));
	return p + BUF_HEAD;
}

void store_buf_free(void *buf)
{
	char *p = buf;
	size_t len;

	if (!p)
		return;
	p -= BUF_HEAD;
	memcpy(&len, p, sizeof(len));
	if (len)
		munmap(p, len);
	else
		g_free(p);
}

GBytes *store_buf_bytes(void *buf, size_t n)
{
	return g_bytes_new_with_free_func(buf, n, store_buf_free, buf);
}

int store_blob_read(struct ms_store *s, const char *table, int64_t row,
		    int n, GBytes **out)
{
	void *buf = store_buf_new((size_t)n);
	int rc = buf ? store_blob_read_into(s, table, row, buf, n) :
		SQLITE_NOMEM;

	if (rc == SQLITE_OK)
		*out = store_buf_bytes(buf, (size_t)n);
	else
		store_buf_free(buf);
	return rc;
}
