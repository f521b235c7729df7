/*
 * store.c - the incremental store (store.h); the SQLite adapter.
 *
 * A cached walk has three steps:
 *
 *  1. Order.  The commits the walk will deliver, in the order libgit2's
 *     revwalk (GIT_SORT_TIME, as ms_history_walk() uses it) would give
 *     them, computed from the committer times and parents the store
 *     holds; only commits it lacks have their header read from git.
 *     libgit2 1.5 sorts by time in two passes that we replay exactly:
 *     limit_list() walks the graph with a list kept in date order (FIFO
 *     among equal dates), then every commit goes through a binary heap
 *     keyed on the date, whose pop order settles the ties.  When a
 *     header cannot be read (a partial mirror, a malformed commit) the
 *     walk falls back to ms_history_walk() itself, so it fails or warns
 *     exactly as an uncached walk does.
 *  2. Extract.  ms_history_walk() over just the commits the store lacks
 *     (or holds from another extraction version, or incompletely),
 *     writing each record, MS_STORE_BATCH per transaction.
 *  3. Deliver.  Records are read back in walk order, `prepare` runs on a
 *     thread pool, `fn` on the calling thread, as in ms_history_walk().
 *
 * An empty store skips step 1: the walk is ms_history_walk() with every
 * commit also written to the store.
 *
 * A record's trailers and paths are stored as JSON arrays (SQLite's
 * json_each() turns them into rows for the views of docs/store.md); the
 * few lines below that write and read them handle only those two shapes.
 */
#include "store.h"
#include "git-graph.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_BUSY_MS 30000
#define DELIVER_BATCH 256
#define REPLAY_BATCH 1024      /* messages read per read transaction */
#define RAWSZ 20

struct ms_store {
	sqlite3 *db;
	char *path;
	int busy_ms;
	bool damaged;           /* remove the files when closing */
	sqlite3_stmt *insert;
	sqlite3_stmt *by_rowid;
	int in_txn;             /* records written in the open transaction */
};

/* ---- errors ---- */

static bool is_damage(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

static int db_error(struct ms_store *s, int rc, const char *what)
{
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);

	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return ms_error_set(MS_EBUSY,
			"store '%s' is busy: another maintstat run is "
			"using it (waited up to %d s; %s, code %d)", s->path,
			s->busy_ms / 1000, msg, rc);
	if (is_damage(rc)) {
		s->damaged = true;
		return ms_error_set(MS_ERROR, "store '%s' is damaged (%s); it "
				    "was removed: run again to rebuild it",
				    s->path, msg);
	}
	return ms_error_set(MS_ERROR, "store '%s': cannot %s: %s", s->path,
			    what, msg);
}

static int exec(struct ms_store *s, const char *sql, const char *what)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_error(s, rc, what);
}

/* ---- schema ---- */

/*
 * migrations[i] takes a database from schema version i to i + 1; version
 * 0 is an empty file.  Views are recreated after every migration.
 */
static const char *const migrations[] = {
	/* 0 -> 1 */
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
	"  walked_at INTEGER NOT NULL);",
	/* 1 -> 2: the mail side */
	"CREATE TABLE inboxes ("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL UNIQUE,"
	"  format TEXT NOT NULL);"
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
	"  size INTEGER);"
	"CREATE INDEX messages_inbox ON messages (inbox, epoch, seq);"
	"CREATE INDEX messages_id ON messages (message_id);"
	"CREATE TABLE links ("
	"  commit_id TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  method TEXT NOT NULL,"
	"  PRIMARY KEY (commit_id, message_id));",
	/* 2 -> 3: links as link/review compute them (never filled before) */
	"DROP TABLE links;"
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
	"  PRIMARY KEY (commit_id, flags));",
	/* 3 -> 4: what linking derives from a commit's diff */
	"CREATE TABLE commit_patchids ("
	"  id TEXT PRIMARY KEY,"
	"  version INTEGER NOT NULL,"
	"  patch_id TEXT NOT NULL,"
	"  summary TEXT NOT NULL);",
	/* 4 -> 5: mbox files, whole, and where each message starts */
	"ALTER TABLE messages ADD COLUMN line INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE mbox_files ("
	"  inbox INTEGER PRIMARY KEY REFERENCES inboxes(id),"
	"  size INTEGER NOT NULL,"
	"  mtime INTEGER NOT NULL,"
	"  sha1 TEXT NOT NULL);"
	/* the decoded text of messages, for reads that keep it */
	"CREATE TABLE message_bodies ("
	"  seq INTEGER PRIMARY KEY,"
	"  body TEXT);"
	"ALTER TABLE inboxes ADD COLUMN bodies INTEGER NOT NULL DEFAULT 0;",
	/* 5 -> 6: a reader's model of an inbox's messages, saved */
	"CREATE TABLE mail_snapshots ("
	"  inbox INTEGER PRIMARY KEY REFERENCES inboxes(id),"
	"  kind INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  epoch INTEGER NOT NULL,"
	"  bytes INTEGER NOT NULL,"
	"  data BLOB NOT NULL);",
};

static const char views[] =
	"DROP VIEW IF EXISTS commit_paths;"
	"CREATE VIEW commit_paths AS"
	"  SELECT c.id AS commit_id, c.committer_time AS commit_time,"
	"         p.value AS path"
	"  FROM commits c, json_each(c.paths) p;"
	"DROP VIEW IF EXISTS commit_trailers;"
	"CREATE VIEW commit_trailers AS"
	"  SELECT c.id AS commit_id, c.committer_time AS commit_time,"
	"         json_extract(t.value, '$[1]') AS token,"
	"         json_extract(t.value, '$[2]') AS value,"
	"         json_extract(t.value, '$[4]') AS name,"
	"         lower(json_extract(t.value, '$[5]')) AS email"
	"  FROM commits c, json_each(c.trailers) t;"
	"DROP VIEW IF EXISTS person_events;"
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
	"DROP VIEW IF EXISTS activity_last;"
	"CREATE VIEW activity_last AS"
	"  SELECT email, role, count(*) AS commits,"
	"         datetime(max(time), 'unixepoch') AS last"
	"  FROM person_events GROUP BY email, role;"
	"DROP VIEW IF EXISTS review_tags;"
	"CREATE VIEW review_tags AS"
	"  SELECT t.email, t.name, t.token, t.commit_id, t.commit_time,"
	"         lower(c.author_email) AS author_email"
	"  FROM commit_trailers t JOIN commits c ON c.id = t.commit_id"
	"  WHERE lower(t.token) IN ('reviewed-by', 'acked-by')"
	"    AND t.email IS NOT NULL;"
	"DROP VIEW IF EXISTS path_committers;"
	"CREATE VIEW path_committers AS"
	"  SELECT p.path, lower(c.committer_email) AS email,"
	"         c.committer_name AS name, c.id AS commit_id,"
	"         c.committer_time AS commit_time"
	"  FROM commit_paths p JOIN commits c ON c.id = p.commit_id"
	"  WHERE instr(c.parents, ' ') = 0;"
	"DROP VIEW IF EXISTS mail_messages;"
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
	"DROP VIEW IF EXISTS mail_tags;"
	"CREATE VIEW mail_tags AS"
	"  SELECT m.message_id, m.in_reply_to, m.date,"
	"         lower(m.sender_email) AS sender_email,"
	"         json_extract(t.value, '$[1]') AS token,"
	"         json_extract(t.value, '$[4]') AS name,"
	"         lower(json_extract(t.value, '$[5]')) AS email"
	"  FROM messages m, json_each(m.trailers) t;"
	"DROP VIEW IF EXISTS commit_links;"
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
	"DROP VIEW IF EXISTS unlinked_commits;"
	"CREATE VIEW unlinked_commits AS"
	"  SELECT l.commit_id, c.committer_time AS commit_time,"
	"         lower(c.author_email) AS author_email,"
	"         lower(c.committer_email) AS committer_email"
	"  FROM links l JOIN commits c ON c.id = l.commit_id"
	"  WHERE l.flags = 0 AND l.message_id IS NULL;"
	"DROP VIEW IF EXISTS mail_files;"
	"CREATE VIEW mail_files AS"
	"  SELECT m.message_id, m.date, f.value AS path"
	"  FROM messages m, json_each(m.files) f;";

G_STATIC_ASSERT(G_N_ELEMENTS(migrations) == MS_STORE_SCHEMA_VERSION);

static int query_int(struct ms_store *s, const char *sql, int64_t *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int64(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, "read the database");
}

static int migrate(struct ms_store *s)
{
	int64_t v;
	int rc;

	rc = query_int(s, "PRAGMA user_version", &v);
	if (rc < 0)
		return rc;
	if (v > MS_STORE_SCHEMA_VERSION)
		goto newer;
	if (v == MS_STORE_SCHEMA_VERSION)
		return 0;
	rc = exec(s, "BEGIN IMMEDIATE", "lock the database");
	if (rc < 0)
		return rc;
	/* another run may have migrated it while we waited */
	rc = query_int(s, "PRAGMA user_version", &v);
	if (rc == 0 && v > MS_STORE_SCHEMA_VERSION) {
		exec(s, "ROLLBACK", "roll back");
		goto newer;
	}
	for (; rc == 0 && v < MS_STORE_SCHEMA_VERSION; v++)
		rc = exec(s, migrations[v], "update the schema");
	if (rc == 0)
		rc = exec(s, views, "create the views");
	if (rc == 0) {
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
			 MS_STORE_SCHEMA_VERSION);
		rc = exec(s, sql, "update the schema");
	}
	if (rc == 0)
		return exec(s, "COMMIT", "commit");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
newer:
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

static void remove_files(const char *path)
{
	char *aux;

	g_unlink(path);
	aux = g_strconcat(path, "-wal", NULL);
	g_unlink(aux);
	g_free(aux);
	aux = g_strconcat(path, "-shm", NULL);
	g_unlink(aux);
	g_free(aux);
	aux = g_strconcat(path, "-journal", NULL);
	g_unlink(aux);
	g_free(aux);
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
			return db_error(s, rc, "switch to WAL mode");
		g_usleep((gulong)pause);
		pause = MIN(pause * 2, 50000);
	}
}

static int open_db(struct ms_store *s)
{
	int rc;

	rc = sqlite3_open_v2(s->path, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
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
	rc = set_wal(s);
	if (rc == 0)
		rc = exec(s, "PRAGMA synchronous = NORMAL", "set up");
	if (rc == 0)
		rc = exec(s, "PRAGMA mmap_size = 268435456", "set up");
	if (rc == 0)
		rc = migrate(s);
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
			rc = db_error(s, r, "prepare a statement");
	}
	if (rc < 0)
		close_db(s);
	return rc;
}

/* Remove a damaged database and create an empty one in its place. */
static int rebuild(struct ms_store *s, struct ms_diags *diags,
		   const char *why)
{
	close_db(s);
	remove_files(s->path);
	s->damaged = false;
	if (diags)
		ms_diags_add(diags, NULL, 0, "store '%s' was damaged (%s); "
			     "rebuilding it", s->path, why);
	return open_db(s);
}

int ms_store_open(const char *path, const struct ms_store_opts *opts,
		  struct ms_store **out, struct ms_diags *diags)
{
	struct ms_store *s = g_new0(struct ms_store, 1);
	char *dir = g_path_get_dirname(path);
	int rc;

	*out = NULL;
	s->path = g_strdup(path);
	s->busy_ms = opts && opts->busy_timeout_ms > 0 ?
		opts->busy_timeout_ms : DEFAULT_BUSY_MS;
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		rc = ms_error_set_errno(MS_ERROR, errno,
					"cannot create directory '%s'", dir);
		goto fail;
	}
	rc = open_db(s);
	if (rc < 0 && s->damaged)
		rc = rebuild(s, diags, "not an SQLite database");
	if (rc < 0)
		goto fail;
	g_free(dir);
	*out = s;
	return 0;
fail:
	g_free(dir);
	s->damaged = false;     /* never remove what we could not open */
	ms_store_free(s);
	return rc;
}

void ms_store_free(struct ms_store *s)
{
	if (!s)
		return;
	if (s->in_txn && s->db)
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	close_db(s);
	if (s->damaged)
		remove_files(s->path);
	g_free(s->path);
	g_free(s);
}

const char *ms_store_path(const struct ms_store *s)
{
	return s->path;
}

int ms_store_info(struct ms_store *s, struct ms_store_info *info)
{
	char sql[128];
	char *wal;
	GStatBuf sb;
	int rc;

	memset(info, 0, sizeof(*info));
	info->schema_version = MS_STORE_SCHEMA_VERSION;
	rc = query_int(s, "SELECT count(*) FROM commits", &info->commits);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM commits WHERE "
		 "version != %d", MS_STORE_COMMIT_VERSION);
	if (rc == 0)
		rc = query_int(s, sql, &info->stale_commits);
	if (rc == 0)
		rc = query_int(s, "SELECT count(*) FROM refs", &info->refs);
	if (rc == 0)
		rc = query_int(s, "SELECT count(*) FROM messages",
			       &info->messages);
	if (g_stat(s->path, &sb) == 0)
		info->size += sb.st_size;
	wal = g_strconcat(s->path, "-wal", NULL);
	if (g_stat(wal, &sb) == 0)
		info->size += sb.st_size;
	g_free(wal);
	return rc;
}

/* ---- transactions ---- */

static int txn_begin(struct ms_store *s)
{
	int rc;

	if (s->in_txn)
		return 0;
	rc = exec(s, "BEGIN IMMEDIATE", "lock the database");
	if (rc == 0)
		s->in_txn = 1;
	return rc;
}

static int txn_commit(struct ms_store *s)
{
	if (!s->in_txn)
		return 0;
	s->in_txn = 0;
	return exec(s, "COMMIT", "commit");
}

/* ---- the JSON of trailers and paths ---- */

static void json_str(GString *o, const char *s)
{
	if (!s) {
		g_string_append(o, "null");
		return;
	}
	g_string_append_c(o, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			g_string_append_c(o, '\\');
			g_string_append_c(o, (char)*p);
		} else if (*p < 0x20) {
			g_string_append_printf(o, "\\u%04x", *p);
		} else {
			g_string_append_c(o, (char)*p);
		}
	}
	g_string_append_c(o, '"');
}

static void encode_paths(GString *o, const struct ms_commit *c)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (size_t i = 0; i < c->nr_paths; i++) {
		if (i)
			g_string_append_c(o, ',');
		json_str(o, c->paths[i]);
	}
	g_string_append_c(o, ']');
}

static void encode_trailers(GString *o, const struct ms_commit *c)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct ms_commit_trailer *t = &c->trailers[i];

		g_string_append_printf(o, "%s[%d,", i ? "," : "",
				       (int)t->kind);
		json_str(o, t->token);
		g_string_append_c(o, ',');
		json_str(o, t->value);
		g_string_append_printf(o, ",%d,", t->is_person ? 1 : 0);
		json_str(o, t->name);
		g_string_append_c(o, ',');
		json_str(o, t->email);
		g_string_append_c(o, ']');
	}
	g_string_append_c(o, ']');
}

struct jp {
	const char *p, *end;
	GString *buf;
};

static void jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' ||
				 *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static bool jp_char(struct jp *j, char c)
{
	jp_ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static bool jp_hex4(struct jp *j, unsigned *v)
{
	*v = 0;
	if (j->end - j->p < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		int d = g_ascii_xdigit_value(*j->p++);

		if (d < 0)
			return false;
		*v = *v * 16 + (unsigned)d;
	}
	return true;
}

/* A string into chunk (*out), or null (*out = NULL). */
static bool jp_string(struct jp *j, GStringChunk *chunk, const char **out)
{
	jp_ws(j);
	if (j->end - j->p >= 4 && !strncmp(j->p, "null", 4)) {
		j->p += 4;
		*out = NULL;
		return true;
	}
	if (!jp_char(j, '"'))
		return false;
	/* the common case: no escapes, insert straight from the record */
	for (const char *q = j->p; q < j->end; q++) {
		if (*q == '\\')
			break;
		if (*q == '"') {
			*out = g_string_chunk_insert_len(chunk, j->p,
							 (gssize)(q - j->p));
			j->p = q + 1;
			return true;
		}
	}
	g_string_truncate(j->buf, 0);
	while (j->p < j->end && *j->p != '"') {
		unsigned v, lo;

		if (*j->p != '\\') {
			g_string_append_c(j->buf, *j->p++);
			continue;
		}
		if (++j->p >= j->end)
			return false;
		switch (*j->p++) {
		case '"': g_string_append_c(j->buf, '"'); break;
		case '\\': g_string_append_c(j->buf, '\\'); break;
		case '/': g_string_append_c(j->buf, '/'); break;
		case 'b': g_string_append_c(j->buf, '\b'); break;
		case 'f': g_string_append_c(j->buf, '\f'); break;
		case 'n': g_string_append_c(j->buf, '\n'); break;
		case 'r': g_string_append_c(j->buf, '\r'); break;
		case 't': g_string_append_c(j->buf, '\t'); break;
		case 'u':
			if (!jp_hex4(j, &v))
				return false;
			if (v >= 0xd800 && v < 0xdc00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u') {
				j->p += 2;
				if (!jp_hex4(j, &lo))
					return false;
				v = 0x10000 + ((v - 0xd800) << 10) +
					(lo - 0xdc00);
			}
			if (v < 0x80)
				g_string_append_c(j->buf, (char)v);
			else
				g_string_append_unichar(j->buf, v);
			break;
		default:
			return false;
		}
	}
	if (j->p >= j->end)
		return false;
	j->p++;
	*out = g_string_chunk_insert_len(chunk, j->buf->str,
					 (gssize)j->buf->len);
	return true;
}

static bool jp_int(struct jp *j, int *v)
{
	bool neg = false;

	jp_ws(j);
	if (j->p < j->end && *j->p == '-') {
		neg = true;
		j->p++;
	}
	if (j->p >= j->end || !g_ascii_isdigit(*j->p))
		return false;
	*v = 0;
	while (j->p < j->end && g_ascii_isdigit(*j->p))
		*v = *v * 10 + (*j->p++ - '0');
	if (neg)
		*v = -*v;
	return true;
}

static bool decode_paths(struct jp *j, GStringChunk *chunk, GPtrArray *out)
{
	if (!jp_char(j, '['))
		return false;
	if (jp_char(j, ']'))
		return true;
	do {
		const char *s;

		if (!jp_string(j, chunk, &s) || !s)
			return false;
		g_ptr_array_add(out, (char *)s);
	} while (jp_char(j, ','));
	return jp_char(j, ']');
}

static bool decode_trailers(struct jp *j, GStringChunk *chunk, GArray *out)
{
	if (!jp_char(j, '['))
		return false;
	if (jp_char(j, ']'))
		return true;
	do {
		struct ms_commit_trailer t = { 0 };
		int kind, person;

		if (!jp_char(j, '[') || !jp_int(j, &kind) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.token) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.value) ||
		    !jp_char(j, ',') || !jp_int(j, &person) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.name) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.email) ||
		    !jp_char(j, ']') || !t.token || !t.value)
			return false;
		t.kind = (enum ms_trailer_kind)kind;
		t.is_person = person != 0;
		g_array_append_val(out, t);
	} while (jp_char(j, ','));
	return jp_char(j, ']');
}

/* ---- writing records ---- */

/*
 * Records are buffered and written MS_STORE_BATCH at a time, each batch in
 * one transaction: the write lock is held only while a batch is written,
 * never while the caller's callbacks run (a consumer blocked on a full
 * pipe must not block every other run on the store).
 */
struct row {
	char id[41];
	int incomplete;
	int64_t ctime, atime, ctime2;
	int aoff, coff;
	char *parents, *aname, *aemail, *cname, *cemail, *trailers, *paths;
};

struct writer {
	struct ms_store *s;
	struct row *rows;
	size_t nr;
	GString *buf;
	/* called with each written record's id and seq (may be NULL) */
	void (*written)(const char *id, int64_t seq, void *data);
	void *data;
	int error;              /* the first failure */
};

static void writer_init(struct writer *w, struct ms_store *s)
{
	memset(w, 0, sizeof(*w));
	w->s = s;
	w->rows = g_new0(struct row, MS_STORE_BATCH);
	w->buf = g_string_new(NULL);
}

static void row_clear(struct row *r)
{
	g_free(r->parents);
	g_free(r->aname);
	g_free(r->aemail);
	g_free(r->cname);
	g_free(r->cemail);
	g_free(r->trailers);
	g_free(r->paths);
	memset(r, 0, sizeof(*r));
}

static void writer_release(struct writer *w)
{
	for (size_t i = 0; i < w->nr; i++)
		row_clear(&w->rows[i]);
	g_free(w->rows);
	g_string_free(w->buf, TRUE);
}

static int writer_flush(struct writer *w)
{
	struct ms_store *s = w->s;
	sqlite3_stmt *st = s->insert;
	int64_t seq;
	size_t k;
	int rc;

	if (w->error || !w->nr)
		goto out;
	rc = txn_begin(s);
	if (rc < 0) {
		w->error = rc;
		goto out;
	}
	for (k = 0; k < w->nr; k++) {
		struct row *r = &w->rows[k];
		int i = 1;

		sqlite3_reset(st);
		sqlite3_bind_text(st, i++, r->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, i++, MS_STORE_COMMIT_VERSION);
		sqlite3_bind_int(st, i++, r->incomplete);
		sqlite3_bind_int64(st, i++, r->ctime);
		sqlite3_bind_text(st, i++, r->parents, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, i++, r->aname, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, i++, r->aemail, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, i++, r->atime);
		sqlite3_bind_int(st, i++, r->aoff);
		sqlite3_bind_text(st, i++, r->cname, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, i++, r->cemail, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, i++, r->ctime2);
		sqlite3_bind_int(st, i++, r->coff);
		sqlite3_bind_text(st, i++, r->trailers, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, i++, r->paths, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		seq = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
		if (rc == SQLITE_ROW)
			rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			w->error = db_error(s, rc, "write a commit");
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			s->in_txn = 0;
			goto out;
		}
		if (w->written)
			w->written(r->id, seq, w->data);
	}
	rc = txn_commit(s);
	if (rc < 0)
		w->error = rc;
out:
	for (k = 0; k < w->nr; k++)
		row_clear(&w->rows[k]);
	w->nr = 0;
	return w->error;
}

/* Buffer one record; returns the first failure so far. */
static int writer_add(struct writer *w, const struct ms_commit *c)
{
	struct row *r;

	if (w->error)
		return w->error;
	r = &w->rows[w->nr++];
	g_strlcpy(r->id, c->id, sizeof(r->id));
	r->incomplete = c->incomplete ? 1 : 0;
	r->ctime = c->committer.time;
	g_string_truncate(w->buf, 0);
	for (unsigned k = 0; k < c->nr_parents && c->parents[k]; k++) {
		if (k)
			g_string_append_c(w->buf, ' ');
		g_string_append(w->buf, c->parents[k]);
	}
	r->parents = g_strdup(w->buf->str);
	r->aname = g_strdup(c->author.name);
	r->aemail = g_strdup(c->author.email);
	r->atime = c->author.time;
	r->aoff = c->author.offset;
	r->cname = g_strdup(c->committer.name);
	r->cemail = g_strdup(c->committer.email);
	r->ctime2 = c->committer.time;
	r->coff = c->committer.offset;
	encode_trailers(w->buf, c);
	r->trailers = g_strdup(w->buf->str);
	encode_paths(w->buf, c);
	r->paths = g_strdup(w->buf->str);
	if (w->nr == MS_STORE_BATCH)
		return writer_flush(w);
	return 0;
}

/* ---- fixed-size records, many, freed together ---- */

/*
 * A whole history's worth of graph nodes and patch-ids is loaded on every
 * run: they are handed out SLAB_BLOCK at a time, not one allocation each.
 */
#define SLAB_BLOCK 4096

struct slab {
	GPtrArray *blocks;      /* SLAB_BLOCK records each */
	guint used;             /* records taken from the last block */
	gsize size;
};

static void slab_init(struct slab *sl, gsize size)
{
	sl->blocks = g_ptr_array_new_with_free_func(g_free);
	sl->used = SLAB_BLOCK;
	sl->size = size;
}

/* A new record, uninitialised; valid until slab_release(). */
static void *slab_new(struct slab *sl)
{
	if (sl->used == SLAB_BLOCK) {
		g_ptr_array_add(sl->blocks, g_malloc_n(SLAB_BLOCK, sl->size));
		sl->used = 0;
	}
	return (char *)sl->blocks->pdata[sl->blocks->len - 1] +
	       sl->size * sl->used++;
}

static void slab_release(struct slab *sl)
{
	g_ptr_array_free(sl->blocks, TRUE);
}

/* ---- the commit graph of step 1 ---- */

/* The parents of all but octopus merges live inside their node. */
#define NODE_PARENTS 2

struct node {
	unsigned char id[RAWSZ];
	unsigned nr_parents;
	int64_t time;
	int64_t rowid;          /* 0: not in the store (or to extract) */
	unsigned char *parents; /* raw ids; NULL until parsed */
	struct node **pnodes;
	struct node *next;      /* in the date-ordered list */
	bool parsed, seen, added, resolved;
	unsigned char own_parents[NODE_PARENTS * RAWSZ];
	struct node *own_pnodes[NODE_PARENTS];
};

struct graph {
	GHashTable *nodes;      /* id -> struct node *, each in `slab` */
	struct slab slab;
	struct ms_git_graph *git;
	const char *gitdir;
};

static guint raw_hash(gconstpointer p)
{
	guint h;

	memcpy(&h, p, sizeof(h));
	return h;
}

static gboolean raw_eq(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, RAWSZ) == 0;
}

static void node_set_parents(struct node *n, unsigned char *parents)
{
	if (n->parents != n->own_parents)
		g_free(n->parents);
	n->parents = parents;
}

static void graph_init(struct graph *g, const char *gitdir)
{
	g->nodes = g_hash_table_new(raw_hash, raw_eq);
	slab_init(&g->slab, sizeof(struct node));
	g->git = NULL;
	g->gitdir = gitdir;
}

static void graph_release(struct graph *g)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, g->nodes);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct node *n = v;

		node_set_parents(n, NULL);
		if (n->pnodes != n->own_pnodes)
			g_free(n->pnodes);
	}
	g_hash_table_destroy(g->nodes);
	slab_release(&g->slab);
	ms_git_graph_free(g->git);
}

static struct node *graph_node(struct graph *g, const unsigned char *raw)
{
	struct node *n = g_hash_table_lookup(g->nodes, raw);

	if (n)
		return n;
	n = slab_new(&g->slab);
	memset(n, 0, sizeof(*n));
	memcpy(n->id, raw, RAWSZ);
	g_hash_table_insert(g->nodes, n->id, n);
	return n;
}

/*
 * Each hex digit's value plus one, 0 for any other byte: a warm walk
 * decodes three ids per stored commit, and a table beats the branches.
 */
static const unsigned char xdigits[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
	['E'] = 15, ['F'] = 16,
};

static bool hex_to_raw(const char *hex, size_t len, unsigned char *raw)
{
	const unsigned char *h = (const unsigned char *)hex;

	if (len != 2 * RAWSZ)
		return false;
	for (size_t i = 0; i < RAWSZ; i++) {
		unsigned hi = xdigits[h[2 * i]], lo = xdigits[h[2 * i + 1]];

		if (!hi || !lo)
			return false;
		raw[i] = (unsigned char)((hi - 1) * 16 + lo - 1);
	}
	return true;
}

static void raw_to_hex(const unsigned char *raw, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < RAWSZ; i++) {
		hex[2 * i] = digits[raw[i] >> 4];
		hex[2 * i + 1] = digits[raw[i] & 15];
	}
	hex[2 * RAWSZ] = '\0';
}

/*
 * Load every record's header into the graph.  Records of the current
 * version that are complete get their rowid; others keep 0 (extract
 * again) but still lend their header to the ordering.
 */
static int graph_load(struct graph *g, struct ms_store *s, size_t *nr)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*nr = 0;
	/* one read transaction, not one lock round trip per statement */
	rc = exec(s, "BEGIN", "read the commits");
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, "SELECT seq, id, version, incomplete,"
				" ctime, parents FROM commits INDEXED BY "
				"commits_graph", -1, &st, NULL);
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		const char *id, *par;
		unsigned char raw[RAWSZ];
		struct node *n;
		int idlen, plen;
		unsigned k = 0;

		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		id = (const char *)sqlite3_column_text(st, 1);
		idlen = sqlite3_column_bytes(st, 1);
		if (!id || !hex_to_raw(id, (size_t)idlen, raw))
			continue;
		n = graph_node(g, raw);
		par = (const char *)sqlite3_column_text(st, 5);
		plen = sqlite3_column_bytes(st, 5);
		n->time = sqlite3_column_int64(st, 4);
		n->nr_parents = (unsigned)((plen + 1) / (2 * RAWSZ + 1));
		node_set_parents(n, n->nr_parents <= NODE_PARENTS ?
				 n->own_parents :
				 g_malloc((size_t)n->nr_parents * RAWSZ));
		for (k = 0; k < n->nr_parents; k++)
			if (!hex_to_raw(par + k * (2 * RAWSZ + 1), 2 * RAWSZ,
					n->parents + k * RAWSZ))
				break;
		if (k < n->nr_parents) {
			/* a damaged header: read it from git instead */
			node_set_parents(n, NULL);
			n->nr_parents = 0;
			continue;
		}
		n->parsed = true;
		if (sqlite3_column_int(st, 2) == MS_STORE_COMMIT_VERSION &&
		    sqlite3_column_int(st, 3) == 0)
			n->rowid = sqlite3_column_int64(st, 0);
		++*nr;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rc = db_error(s, rc, "read the commits");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return exec(s, "COMMIT", "read the commits");
}

/* libgit2's git_commit_list_parse(): the header, from git if need be. */
static int graph_parse(struct graph *g, struct node *n)
{
	int rc;

	if (!n->parsed) {
		unsigned char *parents = NULL;

		if (!g->git) {
			rc = ms_git_graph_open(g->gitdir, &g->git);
			if (rc < 0)
				return rc;
		}
		rc = ms_git_graph_header(g->git, n->id, &n->time,
					 &parents, &n->nr_parents);
		if (rc < 0)
			return rc;
		node_set_parents(n, parents);
		n->parsed = true;
	}
	if (!n->resolved) {
		n->pnodes = n->nr_parents <= NODE_PARENTS ? n->own_pnodes :
			    g_new(struct node *, n->nr_parents);
		for (unsigned k = 0; k < n->nr_parents; k++)
			n->pnodes[k] = graph_node(g, n->parents + k * RAWSZ);
		n->resolved = true;
	}
	return 0;
}

/* git_commit_list_insert_by_date(): after every commit not older. */
static void insert_by_date(struct node **list, struct node *n)
{
	struct node **pp = list;

	while (*pp && !((*pp)->time < n->time))
		pp = &(*pp)->next;
	n->next = *pp;
	*pp = n;
}

/* git_commit_list_time_cmp() */
static int time_cmp(const struct node *a, const struct node *b)
{
	return a->time < b->time ? 1 : a->time > b->time ? -1 : 0;
}

/* libgit2's pqueue_up() and pqueue_down(), on a GPtrArray. */
static void heap_up(GPtrArray *h, size_t el)
{
	struct node *kid = h->pdata[el];

	while (el > 0) {
		size_t parent_el = (el - 1) >> 1;
		struct node *parent = h->pdata[parent_el];

		if (time_cmp(parent, kid) <= 0)
			break;
		h->pdata[el] = parent;
		el = parent_el;
	}
	h->pdata[el] = kid;
}

static void heap_down(GPtrArray *h, size_t el)
{
	struct node *parent = h->pdata[el], *kid, *rkid;

	for (;;) {
		size_t kid_el = (el << 1) + 1;

		if (kid_el >= h->len)
			break;
		kid = h->pdata[kid_el];
		if (kid_el + 1 < h->len) {
			rkid = h->pdata[kid_el + 1];
			if (time_cmp(kid, rkid) > 0) {
				kid = rkid;
				kid_el++;
			}
		}
		if (time_cmp(parent, kid) <= 0)
			break;
		h->pdata[el] = kid;
		el = kid_el;
	}
	h->pdata[el] = parent;
}

/*
 * The order of libgit2 1.5's revwalk with GIT_SORT_TIME from `start`
 * (prepare_walk(), limit_list(), revwalk_next_timesort()) into `order`.
 */
static int graph_order(struct graph *g, struct node *start, GPtrArray *order)
{
	struct node *list = NULL;
	GPtrArray *heap;
	int rc;

	rc = graph_parse(g, start);
	if (rc < 0)
		return rc;
	start->seen = true;
	list = start;
	start->next = NULL;
	heap = g_ptr_array_new();
	while (list) {
		struct node *c = list;

		list = c->next;
		if (!c->added) {
			c->added = true;
			for (unsigned k = 0; k < c->nr_parents; k++) {
				struct node *p = c->pnodes[k];

				rc = graph_parse(g, p);
				if (rc < 0)
					goto out;
				if (!p->seen) {
					p->seen = true;
					insert_by_date(&list, p);
				}
			}
		}
		g_ptr_array_add(heap, c);
		heap_up(heap, heap->len - 1);
	}
	while (heap->len) {
		struct node *top = heap->pdata[0];

		if (heap->len > 1) {
			heap->pdata[0] = heap->pdata[heap->len - 1];
			g_ptr_array_set_size(heap, (gint)heap->len - 1);
			heap_down(heap, 0);
		} else {
			g_ptr_array_set_size(heap, 0);
		}
		g_ptr_array_add(order, top);
	}
out:
	g_ptr_array_free(heap, TRUE);
	return rc;
}

/* ---- delivering ---- */

struct item {
	struct ms_commit c;
	GPtrArray *paths, *parents;
	GArray *trailers;
	bool skip;
};

struct deliver {
	const struct ms_walk_opts *opts;
	GThreadPool *pool;
	GMutex lock;
	GCond cond;
	unsigned pending;
};

/*
 * The prepare callbacks run on the pool PREPARE_SLICE commits per task:
 * one task per commit cost as much in futex wake-ups as a cheap
 * callback (a patch-id read from the store) itself.
 */
#define PREPARE_SLICE 64

struct slice {
	struct item *items;
	guint n;
};

static void prepare_slice(gpointer data, gpointer user)
{
	struct slice *sl = data;
	struct deliver *d = user;

	for (guint i = 0; i < sl->n; i++)
		if (!sl->items[i].skip)
			sl->items[i].c.user =
				d->opts->prepare(&sl->items[i].c,
						 d->opts->data);
	g_mutex_lock(&d->lock);
	if (--d->pending == 0)
		g_cond_signal(&d->cond);
	g_mutex_unlock(&d->lock);
}

/* Forget a delivered commit, keeping its arrays for the next one. */
static void item_clear(struct item *it)
{
	if (it->paths)
		g_ptr_array_set_size(it->paths, 0);
	if (it->parents)
		g_ptr_array_set_size(it->parents, 0);
	if (it->trailers)
		g_array_set_size(it->trailers, 0);
	memset(&it->c, 0, sizeof(it->c));
	it->skip = false;
}

static void item_release(struct item *it)
{
	if (it->paths)
		g_ptr_array_free(it->paths, TRUE);
	if (it->parents)
		g_ptr_array_free(it->parents, TRUE);
	if (it->trailers)
		g_array_free(it->trailers, TRUE);
}

/*
 * A cursor over the records in seq order.  Records were written in walk
 * order, so delivering mostly steps to the next row instead of seeking.
 */
struct cursor {
	sqlite3_stmt *st;
	int64_t seq;
	bool row;
};

static int cursor_step(struct ms_store *s, struct cursor *cur)
{
	int rc = sqlite3_step(cur->st);

	cur->row = rc == SQLITE_ROW;
	if (cur->row) {
		cur->seq = sqlite3_column_int64(cur->st, 0);
		return 0;
	}
	return rc == SQLITE_DONE ? 0 : db_error(s, rc, "read a commit");
}

static int cursor_seek(struct ms_store *s, struct cursor *cur, int64_t seq)
{
	int rc = 0;

	if (cur->row && cur->seq < seq && seq - cur->seq <= 16)
		while (rc == 0 && cur->row && cur->seq < seq)
			rc = cursor_step(s, cur);
	if (rc == 0 && !(cur->row && cur->seq == seq)) {
		sqlite3_reset(cur->st);
		sqlite3_bind_int64(cur->st, 1, seq);
		rc = cursor_step(s, cur);
	}
	if (rc == 0 && !(cur->row && cur->seq == seq))
		rc = ms_error_set(MS_ERROR, "store '%s': commit record %lld "
				  "vanished during the walk", s->path,
				  (long long)seq);
	return rc;
}

/* Read record `rowid` into `it`, strings into `chunk`. */
static int read_commit(struct ms_store *s, struct cursor *cur, int64_t rowid,
		       struct item *it, GStringChunk *chunk, GString *buf)
{
	sqlite3_stmt *st = cur->st;
	struct jp j;
	const char *par;
	int rc, plen;

	rc = cursor_seek(s, cur, rowid);
	if (rc < 0)
		return rc;
#define COL(i) g_string_chunk_insert(chunk, \
	(const char *)sqlite3_column_text(st, (i) + 1) ? \
	(const char *)sqlite3_column_text(st, (i) + 1) : "")
	g_strlcpy(it->c.id, COL(0), sizeof(it->c.id));
	it->c.incomplete = sqlite3_column_int(st, 2) != 0;
	if (!it->parents)
		it->parents = g_ptr_array_new();
	par = (const char *)sqlite3_column_text(st, 3);
	plen = sqlite3_column_bytes(st, 3);
	for (int k = 0; par && k + 2 * RAWSZ <= plen; k += 2 * RAWSZ + 1)
		g_ptr_array_add(it->parents,
				g_string_chunk_insert_len(chunk, par + k,
							  2 * RAWSZ));
	it->c.nr_parents = it->parents->len;
	g_ptr_array_add(it->parents, NULL);
	it->c.parents = (const char *const *)it->parents->pdata;
	it->c.author.name = COL(3);
	it->c.author.email = COL(4);
	it->c.author.time = sqlite3_column_int64(st, 6);
	it->c.author.offset = sqlite3_column_int(st, 7);
	it->c.committer.name = COL(7);
	it->c.committer.email = COL(8);
	it->c.committer.time = sqlite3_column_int64(st, 10);
	it->c.committer.offset = sqlite3_column_int(st, 11);
#undef COL
	if (!it->trailers)
		it->trailers = g_array_new(FALSE, FALSE,
					   sizeof(struct ms_commit_trailer));
	if (!it->paths)
		it->paths = g_ptr_array_new();
	j.buf = buf;
	j.p = (const char *)sqlite3_column_text(st, 12);
	j.end = j.p + sqlite3_column_bytes(st, 12);
	rc = j.p && decode_trailers(&j, chunk, it->trailers) ? 0 : -1;
	j.p = (const char *)sqlite3_column_text(st, 13);
	j.end = j.p + sqlite3_column_bytes(st, 13);
	if (rc == 0 && !(j.p && decode_paths(&j, chunk, it->paths)))
		rc = -1;
	if (rc < 0) {
		s->damaged = true;
		return ms_error_set(MS_ERROR, "store '%s' is damaged (commit "
				    "%s has an unreadable record); it was "
				    "removed: run again to rebuild it",
				    s->path, it->c.id);
	}
	it->c.trailers = (struct ms_commit_trailer *)(void *)
		it->trailers->data;
	it->c.nr_trailers = it->trailers->len;
	it->c.paths = (const char **)it->paths->pdata;
	it->c.nr_paths = it->paths->len;
	return 0;
}

static void add_incomplete_diag(struct ms_diags *diags, size_t n)
{
	if (diags && n)
		ms_diags_add(diags, NULL, 0,
			     "%zu commit%s had objects missing from the "
			     "repository (a partial mirror?); their paths "
			     "may be incomplete", n, n == 1 ? "" : "s");
}

/* Hand the commits of `order` to the caller, from the store. */
static int deliver(struct ms_store *s, GPtrArray *order,
		   const struct ms_walk_opts *opts, struct ms_walk_stats *st)
{
	struct deliver d = { 0 };
	struct cursor cur = { s->by_rowid, 0, false };
	struct item *items;
	struct slice *slices;
	GStringChunk *chunk;
	GString *buf;
	int nr = opts->nr_threads > 0 ? opts->nr_threads :
		(int)g_get_num_processors();
	int rc = 0;

	items = g_new0(struct item, DELIVER_BATCH);
	slices = g_new(struct slice, DELIVER_BATCH / PREPARE_SLICE + 1);
	chunk = g_string_chunk_new(4096);
	buf = g_string_new(NULL);
	d.opts = opts;
	g_mutex_init(&d.lock);
	g_cond_init(&d.cond);
	if (opts->prepare)
		d.pool = g_thread_pool_new(prepare_slice, &d, nr, FALSE,
					   NULL);
	for (guint at = 0; at < order->len && rc == 0;) {
		guint n = MIN(order->len - at, DELIVER_BATCH);
		guint k;

		/*
		 * Read the batch into memory in one short read transaction
		 * and end it before any callback runs: a consumer stalled
		 * on its output must hold no lock nor snapshot (a snapshot
		 * held for long keeps checkpoints from emptying the WAL).
		 */
		rc = exec(s, "BEGIN", "read the commits");
		for (k = 0; k < n && rc == 0; k++) {
			struct node *nd = order->pdata[at + k];
			struct item *it = &items[k];

			st->walked++;
			if (!nd->rowid) {
				/* unreadable: ms_history_walk skips it too */
				it->skip = true;
				st->incomplete++;
				continue;
			}
			rc = read_commit(s, &cur, nd->rowid, it, chunk, buf);
			if (rc < 0)
				break;
			if (it->c.nr_parents > 1 &&
			    !(opts->flags & MS_WALK_MERGES)) {
				st->merges++;
				it->skip = true;
				continue;
			}
			if (it->c.incomplete)
				st->incomplete++;
			if (opts->flags & MS_WALK_NO_PATHS)
				it->c.nr_paths = 0;
		}
		sqlite3_reset(cur.st);
		cur.row = false;
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
		if (d.pool && rc == 0) {
			guint nsl = 0;

			for (guint m = 0; m < k; m += PREPARE_SLICE) {
				slices[nsl].items = &items[m];
				slices[nsl].n = MIN(k - m, PREPARE_SLICE);
				nsl++;
			}
			g_mutex_lock(&d.lock);
			d.pending = nsl;
			g_mutex_unlock(&d.lock);
			for (guint m = 0; m < nsl; m++)
				g_thread_pool_push(d.pool, &slices[m], NULL);
			g_mutex_lock(&d.lock);
			while (d.pending)
				g_cond_wait(&d.cond, &d.lock);
			g_mutex_unlock(&d.lock);
		}
		for (guint m = 0; m < k; m++) {
			struct item *it = &items[m];

			if (!it->skip && rc == 0) {
				st->delivered++;
				rc = opts->fn ? opts->fn(&it->c, opts->data)
					      : 0;
			} else if (!it->skip && it->c.user && opts->release) {
				opts->release(it->c.user, opts->data);
			}
			item_clear(it);
		}
		for (guint m = k; m < n; m++)
			item_clear(&items[m]);
		g_string_chunk_clear(chunk);
		at += n;
	}
	if (d.pool)
		g_thread_pool_free(d.pool, FALSE, TRUE);
	g_mutex_clear(&d.lock);
	g_cond_clear(&d.cond);
	for (guint m = 0; m < DELIVER_BATCH; m++)
		item_release(&items[m]);
	g_free(items);
	g_free(slices);
	g_string_chunk_free(chunk);
	g_string_free(buf, TRUE);
	return rc;
}

/* ---- the walk ---- */

/* What the extraction and tee walks need from their callbacks. */
struct tee {
	struct writer w;
	const struct ms_walk_opts *user;  /* the caller's options */
	struct ms_walk_stats st;          /* the caller's view */
	size_t seen;                      /* commits fn received */
};

static bool hidden_merge(const struct ms_walk_opts *o,
			 const struct ms_commit *c)
{
	return c->nr_parents > 1 && !(o->flags & MS_WALK_MERGES);
}

static void *tee_prepare(const struct ms_commit *c, void *data)
{
	struct tee *t = data;
	struct ms_commit copy = *c;

	if (!t->user->prepare || hidden_merge(t->user, c))
		return NULL;
	if (t->user->flags & MS_WALK_NO_PATHS)
		copy.nr_paths = 0;
	return t->user->prepare(&copy, t->user->data);
}

static void tee_release(void *user, void *data)
{
	struct tee *t = data;

	if (user && t->user->release)
		t->user->release(user, t->user->data);
}

static int tee_fn(const struct ms_commit *c, void *data)
{
	struct tee *t = data;
	struct ms_commit copy = *c;

	t->seen++;
	if (writer_add(&t->w, c) < 0) {
		tee_release(c->user, data);
		return 1;       /* stop; tee_walk() reports t->w.error */
	}
	if (hidden_merge(t->user, c)) {
		t->st.merges++;
		return 0;
	}
	if (c->incomplete)
		t->st.incomplete++;
	if (t->user->flags & MS_WALK_NO_PATHS)
		copy.nr_paths = 0;
	t->st.delivered++;
	return t->user->fn ? t->user->fn(&copy, t->user->data) : 0;
}

/* Diagnostics of an inner walk, minus its count of incomplete commits. */
static void copy_diags(struct ms_diags *to, struct ms_diags *from)
{
	for (size_t i = 0; to && i < from->nr; i++)
		if (!strstr(from->items[i].message, "had objects missing"))
			ms_diags_add(to, from->items[i].file,
				     from->items[i].line, "%s",
				     from->items[i].message);
	ms_diags_release(from);
}

static int record_ref(struct ms_store *s, const char *rev, const char *id)
{
	sqlite3_stmt *st = NULL;
	bool same = false;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "SELECT commit_id FROM refs WHERE "
				"rev = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, rev, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		same = rc == SQLITE_ROW &&
			!g_strcmp0((const char *)sqlite3_column_text(st, 0),
				   id);
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_OK)
		return db_error(s, rc, "read the refs");
	if (same)
		return 0;
	rc = txn_begin(s);
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO refs "
				"VALUES (?, ?, ?)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, rev, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return db_error(s, rc, "write the refs");
	return txn_commit(s);
}

/* ms_history_walk() writing every commit to the store on the way. */
static int tee_walk(struct ms_store *s, const char *gitdir,
		    const struct ms_walk_opts *opts,
		    struct ms_walk_stats *stats, struct ms_diags *diags)
{
	struct ms_walk_opts inner = *opts;
	struct ms_walk_stats ist = { 0 };
	struct ms_diags idiags = MS_DIAGS_INIT;
	struct tee t = { 0 };
	int rc, rc2;

	writer_init(&t.w, s);
	t.user = opts;
	inner.flags = (opts->flags | MS_WALK_MERGES) & ~MS_WALK_NO_PATHS;
	inner.prepare = opts->prepare ? tee_prepare : NULL;
	inner.release = tee_release;
	inner.fn = tee_fn;
	inner.data = &t;
	rc = ms_history_walk(gitdir, &inner, &ist, &idiags);
	rc2 = writer_flush(&t.w);
	if (rc2 < 0)
		rc = rc2;
	t.st.walked = ist.walked;
	/* commits the walk could not read count as incomplete there */
	if (rc == 0)
		t.st.incomplete += ist.walked - t.seen;
	copy_diags(diags, &idiags);
	add_incomplete_diag(diags, t.st.incomplete);
	if (stats)
		*stats = t.st;
	writer_release(&t.w);
	return rc;
}

static void extracted(const char *id, int64_t seq, void *data)
{
	struct graph *g = data;
	unsigned char raw[RAWSZ];
	struct node *n;

	if (hex_to_raw(id, strlen(id), raw)) {
		n = g_hash_table_lookup(g->nodes, raw);
		if (n)
			n->rowid = seq;
	}
}

static int extract_fn(const struct ms_commit *c, void *data)
{
	struct tee *t = data;

	return writer_add(&t->w, c) < 0 ? 1 : 0;
}

static int incremental_walk(struct ms_store *s, struct graph *g,
			    const char *gitdir, const char *start_hex,
			    const struct ms_walk_opts *opts,
			    struct ms_walk_stats *stats,
			    struct ms_diags *diags, bool *fallback)
{
	GPtrArray *order = g_ptr_array_new();
	GPtrArray *missing = g_ptr_array_new_with_free_func(g_free);
	struct ms_walk_stats st = { 0 };
	unsigned char raw[RAWSZ];
	int rc;

	*fallback = false;
	hex_to_raw(start_hex, strlen(start_hex), raw);
	rc = graph_order(g, graph_node(g, raw), order);
	if (rc < 0) {
		/* let the real revwalk fail or warn in its own words */
		*fallback = true;
		ms_error_clear();
		goto out;
	}
	for (guint i = 0; i < order->len; i++) {
		struct node *n = order->pdata[i];
		char *hex;

		if (n->rowid)
			continue;
		hex = g_malloc(2 * RAWSZ + 1);
		raw_to_hex(n->id, hex);
		g_ptr_array_add(missing, hex);
	}
	if (missing->len) {
		struct ms_walk_opts inner = { 0 };
		struct ms_diags idiags = MS_DIAGS_INIT;
		struct tee t = { 0 };

		writer_init(&t.w, s);
		t.w.written = extracted;
		t.w.data = g;
		inner.ids = (const char *const *)missing->pdata;
		inner.nr_ids = missing->len;
		inner.flags = MS_WALK_MERGES;
		inner.nr_threads = opts->nr_threads;
		inner.fn = extract_fn;
		inner.data = &t;
		rc = ms_history_walk(gitdir, &inner, NULL, &idiags);
		if (writer_flush(&t.w) < 0)
			rc = t.w.error;
		writer_release(&t.w);
		ms_diags_release(&idiags);
		if (rc < 0)
			goto out;
	}
	rc = deliver(s, order, opts, &st);
	add_incomplete_diag(diags, st.incomplete);
	if (stats)
		*stats = st;
out:
	g_ptr_array_free(order, TRUE);
	g_ptr_array_free(missing, TRUE);
	return rc;
}

int ms_store_history_walk(struct ms_store *s, const char *gitdir,
			  const struct ms_walk_opts *opts,
			  struct ms_walk_stats *stats,
			  struct ms_diags *diags)
{
	const char *rev = opts->rev ? opts->rev : "HEAD";
	char start[41];
	struct graph g;
	size_t known = 0;
	bool fallback = false;
	int rc;

	if (!s || opts->ids)
		return ms_history_walk(gitdir, opts, stats, diags);
	rc = ms_history_resolve(gitdir, opts->rev, start, NULL);
	if (rc < 0)
		return rc;
	graph_init(&g, gitdir);
	rc = graph_load(&g, s, &known);
	if (rc < 0 && s->damaged) {
		char *why = g_strdup(ms_error_last());

		graph_release(&g);
		graph_init(&g, gitdir);
		known = 0;
		rc = rebuild(s, diags, why);
		g_free(why);
	}
	if (rc < 0)
		goto out;
	if (known)
		rc = incremental_walk(s, &g, gitdir, start, opts, stats,
				      diags, &fallback);
	if (!known || fallback)
		rc = tee_walk(s, gitdir, opts, stats, diags);
	if (rc == 0)
		rc = record_ref(s, rev, start);
out:
	graph_release(&g);
	return rc;
}

/* ---- the mail side ---- */

/*
 * Columns of a message record after (inbox): the order of mail_cells()
 * and cells_to_mail().  Public-inbox epochs are read commit after commit,
 * so "the last commit read per epoch" (inbox_epochs.head) is where the
 * next run resumes.
 */
#define MSG_COLS \
	"epoch, commit_id, version, src_problems, message_id, in_reply_to, " \
	"refs, date_raw, date, date_tz, date_valid, from_name, from_email, " \
	"sender_name, sender_email, sender_rewritten, to_addrs, cc_addrs, " \
	"list_id, subject_raw, subject_prefixes, subject, reply_depth, " \
	"forward, patch, rfc, resend, pull, patch_version, patch_number, " \
	"patch_total, tree, new_lines, quoted_lines, trailers, change_id, " \
	"has_diff, diff_in_attachment, files, lines_added, lines_removed, " \
	"patch_id, kind, applied_notice, problems, size, line"
#define MSG_NCOLS 47

struct cell {
	bool is_text;
	int64_t i;
	char *s;                /* NULL: SQL NULL (text cells) */
};

struct mrow {
	struct cell c[MSG_NCOLS];
	char *body;             /* kept when the inbox stores bodies */
};

static void cell_s(struct cell **c, const char *s)
{
	(*c)->is_text = true;
	(*c)->s = g_strdup(s);
	(*c)++;
}

static void cell_i(struct cell **c, int64_t v)
{
	(*c)->is_text = false;
	(*c)->i = v;
	(*c)++;
}

static void strings_json(GString *o, const GPtrArray *a)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (guint i = 0; a && i < a->len; i++) {
		if (i)
			g_string_append_c(o, ',');
		json_str(o, a->pdata[i]);
	}
	g_string_append_c(o, ']');
}

static void mail_trailers_json(GString *o, const GPtrArray *a)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (guint i = 0; a && i < a->len; i++) {
		const struct ms_mail_trailer *t = a->pdata[i];

		g_string_append_printf(o, "%s[%d,", i ? "," : "",
				       (int)t->kind);
		json_str(o, t->token ? t->token : "");
		g_string_append_c(o, ',');
		json_str(o, t->value ? t->value : "");
		g_string_append(o, ",0,");
		json_str(o, t->name);
		g_string_append_c(o, ',');
		json_str(o, t->email);
		g_string_append_c(o, ']');
	}
	g_string_append_c(o, ']');
}

static void mail_cells(struct mrow *r, const struct ms_mail *m,
		       const struct ms_mail_source *src, GString *buf)
{
	struct cell *c = r->c;
	const struct ms_mail_subject *sj = &m->subject;

	cell_i(&c, src->epoch);
	cell_s(&c, src->commit ? src->commit : "");
	cell_i(&c, MS_STORE_MAIL_VERSION);
	cell_i(&c, src->problems);
	cell_s(&c, m->message_id);
	cell_s(&c, m->in_reply_to);
	strings_json(buf, m->references);
	cell_s(&c, buf->str);
	cell_s(&c, m->date_raw);
	cell_i(&c, m->date);
	cell_i(&c, m->date_tz);
	cell_i(&c, m->date_valid);
	cell_s(&c, m->from_name);
	cell_s(&c, m->from_email);
	cell_s(&c, m->sender_name);
	cell_s(&c, m->sender_email);
	cell_i(&c, m->sender_rewritten);
	cell_s(&c, m->to);
	cell_s(&c, m->cc);
	cell_s(&c, m->list_id);
	cell_s(&c, m->subject_raw);
	cell_s(&c, sj->prefixes);
	cell_s(&c, sj->normalized);
	cell_i(&c, sj->reply_depth);
	cell_i(&c, sj->forward);
	cell_i(&c, sj->patch);
	cell_i(&c, sj->rfc);
	cell_i(&c, sj->resend);
	cell_i(&c, sj->pull);
	cell_i(&c, sj->version);
	cell_i(&c, sj->number);
	cell_i(&c, sj->total);
	cell_s(&c, sj->tree);
	cell_i(&c, m->new_lines);
	cell_i(&c, m->quoted_lines);
	mail_trailers_json(buf, m->trailers);
	cell_s(&c, buf->str);
	cell_s(&c, m->change_id);
	cell_i(&c, m->has_diff);
	cell_i(&c, m->diff_in_attachment);
	strings_json(buf, m->files);
	cell_s(&c, buf->str);
	cell_i(&c, m->lines_added);
	cell_i(&c, m->lines_removed);
	cell_s(&c, m->patch_id);
	cell_i(&c, m->kind);
	cell_i(&c, m->applied_notice);
	cell_i(&c, m->problems);
	cell_i(&c, (int64_t)m->size);
	cell_i(&c, (int64_t)src->line);
	g_assert(c - r->c == MSG_NCOLS);
}

static void mrow_clear(struct mrow *r)
{
	for (int i = 0; i < MSG_NCOLS; i++)
		g_free(r->c[i].s);
	g_free(r->body);
	memset(r, 0, sizeof(*r));
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	if (!s)
		return NULL;    /* NULL, or out of memory */
	return g_strndup(s, (gsize)sqlite3_column_bytes(st, i));
}

/*
 * Scratch space of the JSON decoders, kept across the records of a batch
 * (a replay decodes a few arrays per message: set-up and tear-down per
 * array cost more than the decoding).  Zero-initialise; jscratch_release.
 */
struct jscratch {
	GStringChunk *chunk;
	GPtrArray *tmp;
	GArray *ttmp;
	GString *buf;
};

static void jscratch_reset(struct jscratch *js)
{
	if (!js->chunk) {
		js->chunk = g_string_chunk_new(256);
		js->tmp = g_ptr_array_new();
		js->ttmp = g_array_new(FALSE, FALSE,
				       sizeof(struct ms_commit_trailer));
		js->buf = g_string_new(NULL);
	}
	g_string_chunk_clear(js->chunk);
	g_ptr_array_set_size(js->tmp, 0);
	g_array_set_size(js->ttmp, 0);
}

static void jscratch_release(struct jscratch *js)
{
	if (!js->chunk)
		return;
	g_string_chunk_free(js->chunk);
	g_ptr_array_free(js->tmp, TRUE);
	g_array_free(js->ttmp, TRUE);
	g_string_free(js->buf, TRUE);
	memset(js, 0, sizeof(*js));
}

/* A JSON array of strings (store.c's own format) appended to `out` as
 * g_strdup'ed strings; false when `text` is not one. */
static bool json_strings(const char *text, int len, GPtrArray *out,
			 struct jscratch *js)
{
	struct jp j;
	bool ok;

	if (text && len == 2 && text[0] == '[' && text[1] == ']')
		return true;    /* the common case, without the set-up */
	if (!text)
		return false;
	jscratch_reset(js);
	j = (struct jp){ text, text + len, js->buf };
	ok = decode_paths(&j, js->chunk, js->tmp);
	for (guint i = 0; ok && i < js->tmp->len; i++)
		g_ptr_array_add(out, g_strdup(js->tmp->pdata[i]));
	return ok;
}

static bool json_mail_trailers(const char *text, int len, GPtrArray *out,
			       struct jscratch *js)
{
	struct jp j;
	bool ok;

	if (text && len == 2 && text[0] == '[' && text[1] == ']')
		return true;
	if (!text)
		return false;
	jscratch_reset(js);
	j = (struct jp){ text, text + len, js->buf };
	ok = decode_trailers(&j, js->chunk, js->ttmp);
	for (guint i = 0; ok && i < js->ttmp->len; i++) {
		const struct ms_commit_trailer *ct =
			&g_array_index(js->ttmp, struct ms_commit_trailer, i);
		struct ms_mail_trailer *t = g_new0(struct ms_mail_trailer, 1);

		t->kind = ct->kind;
		t->token = g_strdup(ct->token);
		t->value = g_strdup(ct->value);
		t->name = g_strdup(ct->name);
		t->email = g_strdup(ct->email);
		g_ptr_array_add(out, t);
	}
	return ok;
}

/* A message record (columns of MSG_COLS from `st`, after its epoch and
 * commit) back into the struct ms_mail mail.c would have made. */
static struct ms_mail *cells_to_mail(sqlite3_stmt *st, uint32_t *src_problems,
				    struct jscratch *js)
{
	struct ms_mail *m = g_new0(struct ms_mail, 1);
	struct ms_mail_subject *sj = &m->subject;
	int i = 3;
	bool ok;

	*src_problems = (uint32_t)sqlite3_column_int64(st, i++);
	m->message_id = col_dup(st, i++);
	m->in_reply_to = col_dup(st, i++);
	m->references = g_ptr_array_new_with_free_func(g_free);
	ok = json_strings((const char *)sqlite3_column_text(st, i),
			  sqlite3_column_bytes(st, i), m->references, js);
	i++;
	m->date_raw = col_dup(st, i++);
	m->date = sqlite3_column_int64(st, i++);
	m->date_tz = sqlite3_column_int(st, i++);
	m->date_valid = sqlite3_column_int(st, i++) != 0;
	m->from_name = col_dup(st, i++);
	m->from_email = col_dup(st, i++);
	m->sender_name = col_dup(st, i++);
	m->sender_email = col_dup(st, i++);
	m->sender_rewritten = sqlite3_column_int(st, i++) != 0;
	m->to = col_dup(st, i++);
	m->cc = col_dup(st, i++);
	m->list_id = col_dup(st, i++);
	m->subject_raw = col_dup(st, i++);
	sj->prefixes = col_dup(st, i++);
	sj->normalized = col_dup(st, i++);
	sj->reply_depth = (unsigned)sqlite3_column_int(st, i++);
	sj->forward = sqlite3_column_int(st, i++) != 0;
	sj->patch = sqlite3_column_int(st, i++) != 0;
	sj->rfc = sqlite3_column_int(st, i++) != 0;
	sj->resend = sqlite3_column_int(st, i++) != 0;
	sj->pull = sqlite3_column_int(st, i++) != 0;
	sj->version = (unsigned)sqlite3_column_int(st, i++);
	sj->number = (unsigned)sqlite3_column_int(st, i++);
	sj->total = (unsigned)sqlite3_column_int(st, i++);
	sj->tree = col_dup(st, i++);
	m->new_lines = (unsigned)sqlite3_column_int(st, i++);
	m->quoted_lines = (unsigned)sqlite3_column_int(st, i++);
	m->trailers = g_ptr_array_new_with_free_func(ms_mail_trailer_free);
	ok = ok && json_mail_trailers((const char *)sqlite3_column_text(st, i),
				      sqlite3_column_bytes(st, i),
				      m->trailers, js);
	i++;
	m->change_id = col_dup(st, i++);
	m->has_diff = sqlite3_column_int(st, i++) != 0;
	m->diff_in_attachment = sqlite3_column_int(st, i++) != 0;
	m->files = g_ptr_array_new_with_free_func(g_free);
	ok = ok && json_strings((const char *)sqlite3_column_text(st, i),
				sqlite3_column_bytes(st, i), m->files, js);
	i++;
	m->lines_added = (unsigned)sqlite3_column_int(st, i++);
	m->lines_removed = (unsigned)sqlite3_column_int(st, i++);
	m->patch_id = col_dup(st, i++);
	m->kind = (enum ms_mail_kind)sqlite3_column_int(st, i++);
	m->applied_notice = sqlite3_column_int(st, i++) != 0;
	m->problems = (uint32_t)sqlite3_column_int64(st, i++);
	m->size = (size_t)sqlite3_column_int64(st, i++);
	i++;                    /* line: the source's */
	g_assert(i == MSG_NCOLS);
	if (!ok) {
		ms_mail_free(m);
		return NULL;
	}
	return m;
}

struct mail_tee {
	struct ms_store *s;
	const char *path;        /* as the caller named the archive */
	const char *key;         /* its canonical path, the inbox's key */
	int64_t inbox;           /* 0 until known */
	enum ms_mail_format format;
	int (*fn)(struct ms_mail *m, const struct ms_mail_source *src,
		  void *data);
	void *data;
	GArray *epochs;          /* int: stored epochs, ascending */
	GHashTable *heads;       /* epoch -> char * head, stored or read */
	guint next_epoch;        /* epochs[] before this were replayed */
	struct mrow *rows;       /* pending */
	size_t nr;
	GString *buf;
	unsigned long replayed;
	uint64_t replayed_bytes;
	unsigned long fresh;     /* messages parsed in this run */
	int error;               /* the store's first failure */
	bool mbox;               /* one mbox file: no epochs, whole */
	bool bodies;             /* the inbox stores bodies: parse them */
	bool want_body;          /* the caller keeps bodies */
	/* resuming after a caller's mark (ms_store_mail_parse_archive_from) */
	const struct ms_store_mail_mark *from;  /* or NULL */
	int64_t max_seq;         /* the newest record handed out or written */
	int max_epoch;           /* the newest epoch of those, or -1 */
	uint64_t fresh_bytes;
	unsigned long unstored;  /* messages handed out but not stored */
};

static int inbox_id(struct mail_tee *t, enum ms_mail_format format)
{
	struct ms_store *s = t->s;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = txn_begin(s);
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO inboxes "
				"(path, format, bodies) VALUES (?, ?, ?)", -1,
				&st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, t->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, ms_mail_format_name(format), -1,
				  SQLITE_STATIC);
		sqlite3_bind_int(st, 3, t->bodies ? 1 : 0);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(s->db, "SELECT id FROM inboxes WHERE "
					"path = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, t->key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			t->inbox = sqlite3_column_int64(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK) {
		rc = db_error(s, rc, "record the inbox");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return txn_commit(s);
}

static int put_head(struct ms_store *s, int64_t inbox, int epoch,
		    const char *head)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO "
				    "inbox_epochs VALUES (?, ?, ?)", -1, &st,
				    NULL);

	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, inbox);
		sqlite3_bind_int(st, 2, epoch);
		sqlite3_bind_text(st, 3, head, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, "record an epoch");
}

static int put_body(struct ms_store *s, int64_t seq, const char *body)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO "
				    "message_bodies VALUES (?, ?)", -1, &st,
				    NULL);

	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, seq);
		if (body)
			sqlite3_bind_text(st, 2, body, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 2);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Write the pending messages, and where each epoch is, in one go. */
static int mail_flush(struct mail_tee *t)
{
	struct ms_store *s = t->s;
	sqlite3_stmt *st = NULL;
	GString *sql;
	size_t k;
	int rc = 0;

	if (t->error || !t->nr)
		goto out;
	sql = g_string_new("INSERT INTO messages (inbox, " MSG_COLS
			   ") VALUES (?");
	for (int i = 0; i < MSG_NCOLS; i++)
		g_string_append(sql, ", ?");
	g_string_append_c(sql, ')');
	rc = txn_begin(s);
	if (rc == 0) {
		int r = sqlite3_prepare_v2(s->db, sql->str, -1, &st, NULL);

		rc = r == SQLITE_OK ? 0 : db_error(s, r, "write a message");
	}
	g_string_free(sql, TRUE);
	for (k = 0; rc == 0 && k < t->nr; k++) {
		struct mrow *r = &t->rows[k];
		int step;

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, t->inbox);
		for (int i = 0; i < MSG_NCOLS; i++) {
			struct cell *c = &r->c[i];

			if (!c->is_text)
				sqlite3_bind_int64(st, i + 2, c->i);
			else if (c->s)
				sqlite3_bind_text(st, i + 2, c->s, -1,
						  SQLITE_STATIC);
			else
				sqlite3_bind_null(st, i + 2);
		}
		step = sqlite3_step(st);
		if (step == SQLITE_DONE && t->bodies)
			step = put_body(s, sqlite3_last_insert_rowid(s->db),
					r->body);
		if (step == SQLITE_DONE)
			t->max_seq = MAX(t->max_seq,
					 sqlite3_last_insert_rowid(s->db));
		if (step != SQLITE_DONE)
			rc = db_error(s, step, "write a message");
		else if (!t->mbox && (k + 1 == t->nr ||
			 t->rows[k + 1].c[0].i != r->c[0].i))
			rc = put_head(s, t->inbox, (int)r->c[0].i,
				      r->c[1].s);
	}
	sqlite3_finalize(st);
	if (rc == 0)
		rc = txn_commit(s);
	if (rc < 0 && s->in_txn) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
	}
	if (rc < 0)
		t->error = rc;
out:
	for (k = 0; k < t->nr; k++)
		mrow_clear(&t->rows[k]);
	t->nr = 0;
	return t->error;
}

/*
 * Read up to REPLAY_BATCH stored messages of epoch `e` after seq *after
 * into `out` (with their commits in `commits`), in one short read
 * transaction: the caller's callback then runs with no lock held.
 */
static int replay_batch(struct mail_tee *t, sqlite3_stmt *st, int e,
			int64_t *after, GPtrArray *out, GPtrArray *commits,
			GArray *problems_out, GArray *lines)
{
	struct ms_store *s = t->s;
	struct jscratch js = { 0 };
	int rc = 0;
	int r = SQLITE_OK;

	sqlite3_reset(st);
	rc = exec(s, "BEGIN", "read the messages");
	if (rc < 0)
		return rc;
	if (r == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, t->inbox);
		sqlite3_bind_int(st, 2, e);
		sqlite3_bind_int64(st, 3, *after);
		sqlite3_bind_int(st, 4, REPLAY_BATCH);
	}
	while (r == SQLITE_OK) {
		uint32_t problems;
		struct ms_mail *m;

		r = sqlite3_step(st);
		if (r != SQLITE_ROW)
			break;
		r = SQLITE_OK;
		m = cells_to_mail(st, &problems, &js);
		if (!m) {
			s->damaged = true;
			rc = ms_error_set(MS_ERROR, "store '%s' is damaged (an "
					  "unreadable message record); it was "
					  "removed: run again to rebuild it",
					  s->path);
			break;
		}
		g_array_append_val(problems_out, problems);
		{
			unsigned long line = (unsigned long)
				sqlite3_column_int64(st, MSG_NCOLS - 1);

			g_array_append_val(lines, line);
		}
		*after = sqlite3_column_int64(st, MSG_NCOLS);
		if (t->want_body)
			m->body = col_dup(st, MSG_NCOLS + 1);
		g_ptr_array_add(out, m);
		g_ptr_array_add(commits, g_strdup((const char *)
			sqlite3_column_text(st, 1)));
	}
	if (rc == 0 && r != SQLITE_DONE)
		rc = db_error(s, r, "read the messages");
	sqlite3_reset(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	jscratch_release(&js);
	return rc;
}

/* Hand the stored messages of epochs up to `epoch` to the caller. */
static int replay_upto(struct mail_tee *t, int epoch)
{
	GPtrArray *mails = g_ptr_array_new();
	GPtrArray *commits = g_ptr_array_new_with_free_func(g_free);
	GArray *problems = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	GArray *lines = g_array_new(FALSE, FALSE, sizeof(unsigned long));
	sqlite3_stmt *st = NULL;
	int rc = 0;

	while (rc == 0 && t->next_epoch < t->epochs->len &&
	       g_array_index(t->epochs, int, t->next_epoch) <= epoch) {
		int e = g_array_index(t->epochs, int, t->next_epoch++);
		/* the records up to the caller's mark (checked by
		 * mark_check()) are not handed out */
		int64_t after = t->from ? t->from->seq : 0;

		if (!st) {
			int r = sqlite3_prepare_v2(t->s->db, t->want_body ?
				"SELECT " MSG_COLS ", seq, (SELECT body FROM "
				"message_bodies b WHERE b.seq = messages.seq) "
				"FROM messages WHERE inbox = ? AND "
				"epoch = ? AND seq > ? ORDER BY seq LIMIT ?" :
				"SELECT " MSG_COLS ", seq FROM messages WHERE "
				"inbox = ? AND epoch = ? AND seq > ? ORDER BY "
				"seq LIMIT ?", -1, &st, NULL);

			if (r != SQLITE_OK) {
				rc = db_error(t->s, r, "read the messages");
				break;
			}
		}
		do {
			guint i;

			g_ptr_array_set_size(mails, 0);
			g_ptr_array_set_size(commits, 0);
			g_array_set_size(problems, 0);
			g_array_set_size(lines, 0);
			rc = replay_batch(t, st, e, &after, mails, commits,
					  problems, lines);
			if (rc == 0 && mails->len) {
				t->max_seq = MAX(t->max_seq, after);
				t->max_epoch = MAX(t->max_epoch, e);
			}
			for (i = 0; rc == 0 && i < mails->len; i++) {
				struct ms_mail_source src = { 0 };
				struct ms_mail *m = mails->pdata[i];

				src.problems = g_array_index(problems,
							     uint32_t, i);
				src.path = t->path;
				src.format = t->format;
				src.epoch = e;
				src.commit = t->mbox ? NULL :
					commits->pdata[i];
				src.line = g_array_index(lines,
							 unsigned long, i);
				t->replayed++;
				t->replayed_bytes += m->size;
				mails->pdata[i] = NULL;
				rc = t->fn(m, &src, t->data);
			}
			for (; i < mails->len; i++)
				ms_mail_free(mails->pdata[i]);
		} while (rc == 0 && mails->len == REPLAY_BATCH);
	}
	g_ptr_array_free(mails, TRUE);
	g_ptr_array_free(commits, TRUE);
	g_array_free(problems, TRUE);
	g_array_free(lines, TRUE);
	sqlite3_finalize(st);
	return rc;
}

static int mail_tee_fn(struct ms_mail *m, const struct ms_mail_source *src,
		       void *data)
{
	struct mail_tee *t = data;
	int rc;

	if (!t->mbox && (src->format == MS_MAIL_FMT_MBOXRD ||
			 src->format == MS_MAIL_FMT_MBOXO || src->epoch < 0 ||
			 !src->commit)) {
		t->unstored++;
		return t->fn(m, src, t->data);   /* nothing to resume */
	}
	rc = t->mbox ? 0 : replay_upto(t, src->epoch);
	if (rc == 0 && t->from && !t->mbox && src->epoch < t->from->epoch)
		/* a new message before the caller's last one: what it holds
		 * is no longer a prefix of the archive */
		rc = ms_error_set(MS_ESTALE, "new messages in epoch %d of "
				  "'%s', before the saved state's epoch %d",
				  src->epoch, t->path, t->from->epoch);
	if (rc < 0) {
		ms_mail_free(m);
		return rc;
	}
	t->fresh_bytes += m->size;
	t->max_epoch = MAX(t->max_epoch, t->mbox ? -1 : src->epoch);
	if (!t->inbox) {
		t->format = src->format;
		rc = inbox_id(t, src->format);
		if (rc < 0) {
			ms_mail_free(m);
			return rc;
		}
	}
	mail_cells(&t->rows[t->nr], m, src, t->buf);
	if (t->bodies)
		t->rows[t->nr].body = g_strdup(m->body);
	t->nr++;
	if (!t->want_body)
		g_clear_pointer(&m->body, g_free);
	t->fresh++;
	if (t->nr == MS_STORE_BATCH && mail_flush(t) < 0) {
		ms_mail_free(m);
		return t->error;
	}
	return t->fn(m, src, t->data);
}

/* The stored state of inbox `path`: its id, format and epochs. */
static int mail_load(struct mail_tee *t)
{
	struct ms_store *s = t->s;
	sqlite3_stmt *st = NULL;
	int64_t stale = 0;
	char sql[160];
	int rc;

	bool have_bodies = false;

	t->bodies = t->want_body;
	rc = sqlite3_prepare_v2(s->db, "SELECT id, format, bodies FROM "
				"inboxes WHERE path = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, t->key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			const char *f = (const char *)
				sqlite3_column_text(st, 1);

			t->inbox = sqlite3_column_int64(st, 0);
			have_bodies = sqlite3_column_int(st, 2) != 0;
			t->format = MS_MAIL_FMT_INBOX_V2;
			for (int k = MS_MAIL_FMT_MBOXRD;
			     k <= MS_MAIL_FMT_INBOX_V2; k++)
				if (!g_strcmp0(f, ms_mail_format_name(k)))
					t->format = (enum ms_mail_format)k;
		}
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_OK)
		return db_error(s, rc, "read the inboxes");
	if (!t->inbox)
		return 0;
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM messages WHERE "
		 "inbox = %lld AND version != %d", (long long)t->inbox,
		 MS_STORE_MAIL_VERSION);
	rc = query_int(s, sql, &stale);
	if (rc < 0)
		return rc;
	if (have_bodies)
		t->bodies = true;       /* keep storing them */
	if (stale || (t->want_body && !have_bodies)) {
		/* another extraction version, or bodies wanted that were
		 * not kept: read the inbox again */
		long long id = (long long)t->inbox;
		char *del = g_strdup_printf(
			"BEGIN IMMEDIATE;"
			"DELETE FROM message_bodies WHERE seq IN (SELECT seq "
			"FROM messages WHERE inbox = %lld);"
			"DELETE FROM messages WHERE inbox = %lld;"
			"DELETE FROM inbox_epochs WHERE inbox = %lld;"
			"DELETE FROM mbox_files WHERE inbox = %lld;"
			"DELETE FROM mail_snapshots WHERE inbox = %lld;"
			"UPDATE inboxes SET bodies = %d WHERE id = %lld;"
			"COMMIT;", id, id, id, id, id, t->bodies ? 1 : 0, id);

		rc = exec(s, del, "drop stale messages");
		g_free(del);
		if (rc < 0)
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	rc = sqlite3_prepare_v2(s->db, "SELECT epoch, head FROM inbox_epochs "
				"WHERE inbox = ? ORDER BY epoch", -1, &st,
				NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, t->inbox);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int e = sqlite3_column_int(st, 0);

			g_array_append_val(t->epochs, e);
			g_hash_table_insert(t->heads, GINT_TO_POINTER(e),
				g_strdup((const char *)
					 sqlite3_column_text(st, 1)));
		}
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, "read the epochs");
}

static gint int_cmp(gconstpointer a, gconstpointer b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * May the read skip the stored records up to t->from's, which the caller
 * already holds?  Only if they are exactly the records it saw (none was
 * removed or rewritten since: those deletions also drop the caller's
 * snapshot, and the count catches the rest) and nothing stored after them
 * comes before them in archive order (an earlier epoch).  MS_ESTALE
 * otherwise.
 */
static int mark_check(struct mail_tee *t)
{
	const struct ms_store_mail_mark *f = t->from;
	int64_t n = -1, later = -1;
	char sql[200];
	int rc;

	if (!f)
		return 0;
	if (f->inbox != t->inbox || !t->inbox)
		return ms_error_set(MS_ESTALE, "'%s' was read again since the "
				    "saved state", t->path);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM messages WHERE "
		 "inbox = %lld AND seq <= %lld", (long long)t->inbox,
		 (long long)f->seq);
	rc = query_int(t->s, sql, &n);
	if (rc == 0) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM messages "
			 "WHERE inbox = %lld AND epoch < %d AND seq > %lld",
			 (long long)t->inbox, f->epoch, (long long)f->seq);
		rc = query_int(t->s, sql, &later);
	}
	if (rc < 0)
		return rc;
	if (n != f->count || later != 0)
		return ms_error_set(MS_ESTALE, "the stored messages of '%s' "
				    "changed since the saved state", t->path);
	t->max_seq = f->seq;
	t->max_epoch = f->epoch;
	return 0;
}

/* Where a complete read through `t` leaves the caller (*to), and what
 * the skipped records add to `result`. */
static void mark_after(const struct mail_tee *t, struct ms_store_mail_mark *to,
		       struct ms_mail_read_result *result)
{
	const struct ms_store_mail_mark *f = t->from;

	if (f) {
		result->messages += (size_t)f->count;
		result->bytes += f->bytes;
	}
	if (!to)
		return;
	*to = (struct ms_store_mail_mark){ 0 };
	if (!t->inbox || t->unstored || t->error)
		return;
	to->inbox = t->inbox;
	to->seq = t->max_seq;
	to->count = (f ? f->count : 0) + (int64_t)t->replayed +
		    (int64_t)t->fresh;
	to->epoch = t->max_epoch;
	to->bytes = (f ? f->bytes : 0) + t->replayed_bytes + t->fresh_bytes;
}

/* ---- mbox files ---- */

/*
 * An mbox file is stored whole: when its size, mtime and SHA-1 are those
 * recorded after its last complete read, its messages are handed out
 * from the store; otherwise it is read again and its records replaced.
 * (mail-archive.c's reader has no resume point inside a file.)
 */

static bool is_dir(const char *path)
{
	return g_file_test(path, G_FILE_TEST_IS_DIR);
}

/* The mail_tee reading archive `path` (stored under `key`) for fn. */
static void tee_init(struct mail_tee *t, struct ms_store *s, const char *key,
		     const char *path, unsigned flags,
		     int (*fn)(struct ms_mail *m,
			       const struct ms_mail_source *src, void *data),
		     void *data)
{
	t->s = s;
	t->key = key;
	t->path = path;
	t->fn = fn;
	t->data = data;
	t->want_body = (flags & MS_MAIL_PARSE_KEEP_BODY) != 0;
	t->epochs = g_array_new(FALSE, FALSE, sizeof(int));
	t->heads = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					 g_free);
	t->rows = g_new0(struct mrow, MS_STORE_BATCH);
	t->buf = g_string_new(NULL);
	t->max_epoch = -1;
}

/* The SHA-1 of a file's bytes, or NULL when it cannot be read. */
static char *file_sha1(const char *path, GStatBuf *sb)
{
	GChecksum *c;
	FILE *f = fopen(path, "rb");
	char *buf, *out = NULL;
	size_t n;

	if (!f)
		return NULL;
	if (g_stat(path, sb) < 0) {
		fclose(f);
		return NULL;
	}
	c = g_checksum_new(G_CHECKSUM_SHA1);
	buf = g_malloc(1 << 20);
	while ((n = fread(buf, 1, 1 << 20, f)) > 0)
		g_checksum_update(c, (const guchar *)buf, (gssize)n);
	if (!ferror(f))
		out = g_strdup(g_checksum_get_string(c));
	fclose(f);
	g_free(buf);
	g_checksum_free(c);
	return out;
}

/*
 * The key an archive is stored under: its absolute path with symbolic
 * links resolved, or only made absolute when it does not exist (yet).
 */
static char *archive_key(const char *path)
{
	char *abs = g_canonicalize_filename(path, NULL);
	char *real = realpath(abs, NULL);
	char *key;

	if (!real)
		return abs;
	key = g_strdup(real);
	free(real);
	g_free(abs);
	return key;
}

/* Is the recorded state of inbox `id` this size, mtime and SHA-1? */
static int mbox_known(struct ms_store *s, int64_t id, const GStatBuf *sb,
		      const char *sha1, bool *same)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "SELECT size, mtime, sha1 FROM "
				    "mbox_files WHERE inbox = ?", -1, &st,
				    NULL);

	*same = false;
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			*same = sqlite3_column_int64(st, 0) ==
				(int64_t)sb->st_size &&
				sqlite3_column_int64(st, 1) ==
				(int64_t)sb->st_mtime &&
				!g_strcmp0((const char *)
					   sqlite3_column_text(st, 2), sha1);
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, "read the mbox files");
}

static int mbox_file(struct ms_store *s, const char *path, unsigned flags,
		     const struct ms_store_mail_mark *from,
		     struct ms_store_mail_mark *to,
		     int (*fn)(struct ms_mail *m,
			       const struct ms_mail_source *src, void *data),
		     void *data, struct ms_mail_read_result *result,
		     struct ms_diags *diags)
{
	struct mail_tee t = { 0 };
	GStatBuf sb, after;
	char *key = archive_key(path);
	char *sha1 = file_sha1(path, &sb);
	bool same = false;
	int rc;

	if (!sha1) {
		/* let the reader fail in its own words */
		g_free(key);
		if (from)
			return ms_error_set(MS_ESTALE, "cannot read '%s'",
					    path);
		return ms_mail_parse_archive(path, NULL, 0, flags, fn, data,
					     result, diags);
	}
	tee_init(&t, s, key, path, flags, fn, data);
	t.mbox = true;
	t.from = from;
	rc = mail_load(&t);
	if (rc == 0 && t.inbox)
		rc = mbox_known(s, t.inbox, &sb, sha1, &same);
	if (rc == 0 && from && !same)
		rc = ms_error_set(MS_ESTALE, "'%s' changed since the saved "
				  "state", path);
	if (rc == 0)
		rc = mark_check(&t);
	if (t.bodies)
		flags |= MS_MAIL_PARSE_KEEP_BODY;
	if (rc < 0)
		goto out;
	if (same) {
		int e = -1;

		g_array_append_val(t.epochs, e);
		rc = replay_upto(&t, G_MAXINT);
		if (rc == 0) {
			result->messages += t.replayed;
			result->bytes += t.replayed_bytes;
			result->format = t.format;
			mark_after(&t, to, result);
		}
		goto out;
	}
	if (t.inbox) {
		/* changed since: read again, replacing its records */
		long long id = (long long)t.inbox;
		char *del = g_strdup_printf(
			"BEGIN IMMEDIATE;"
			"DELETE FROM message_bodies WHERE seq IN (SELECT seq "
			"FROM messages WHERE inbox = %lld);"
			"DELETE FROM messages WHERE inbox = %lld;"
			"DELETE FROM mbox_files WHERE inbox = %lld;"
			"DELETE FROM mail_snapshots WHERE inbox = %lld;"
			"COMMIT;", id, id, id, id);

		rc = exec(s, del, "drop a changed mbox file's messages");
		g_free(del);
		if (rc < 0) {
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			goto out;
		}
	}
	rc = ms_mail_parse_archive(path, NULL, 0, flags, mail_tee_fn, &t,
				   result, diags);
	if (mail_flush(&t) < 0 && rc == 0)
		rc = t.error;
	/* remember the file only if it did not change while being read */
	if (rc == 0 && t.inbox && g_stat(path, &after) == 0 &&
	    after.st_size == sb.st_size && after.st_mtime == sb.st_mtime) {
		sqlite3_stmt *st = NULL;
		int r;

		rc = txn_begin(s);
		r = rc < 0 ? SQLITE_OK : sqlite3_prepare_v2(s->db,
			"INSERT OR REPLACE INTO mbox_files VALUES (?,?,?,?)",
			-1, &st, NULL);
		if (rc == 0 && r == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, t.inbox);
			sqlite3_bind_int64(st, 2, (int64_t)sb.st_size);
			sqlite3_bind_int64(st, 3, (int64_t)sb.st_mtime);
			sqlite3_bind_text(st, 4, sha1, -1, SQLITE_STATIC);
			r = sqlite3_step(st);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
		}
		sqlite3_finalize(st);
		st = NULL;
		if (rc == 0 && r == SQLITE_OK)
			r = sqlite3_prepare_v2(s->db, "UPDATE inboxes SET "
					       "format = ? WHERE id = ?", -1,
					       &st, NULL);
		if (rc == 0 && r == SQLITE_OK) {
			sqlite3_bind_text(st, 1, ms_mail_format_name(
						  result->format), -1,
					  SQLITE_STATIC);
			sqlite3_bind_int64(st, 2, t.inbox);
			r = sqlite3_step(st);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
		}
		sqlite3_finalize(st);
		if (rc == 0 && r != SQLITE_OK)
			rc = db_error(s, r, "record an mbox file");
		if (rc == 0)
			rc = txn_commit(s);
		else if (s->in_txn) {
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			s->in_txn = 0;
		}
		if (rc == 0)
			mark_after(&t, to, result);
	}
out:
	for (size_t k = 0; k < t.nr; k++)
		mrow_clear(&t.rows[k]);
	g_free(t.rows);
	g_string_free(t.buf, TRUE);
	g_array_free(t.epochs, TRUE);
	g_hash_table_destroy(t.heads);
	g_free(sha1);
	g_free(key);
	return rc;
}

/* A directory of mbox files (ms_mail_dir_walk), each through
 * mbox_file(). */
struct mbox_dir {
	struct ms_store *s;
	unsigned flags;
	int (*fn)(struct ms_mail *m, const struct ms_mail_source *src,
		  void *data);
	void *data;
	struct ms_mail_read_result *result;
	struct ms_diags *diags;
};

static int mbox_dir_file(const char *path, void *data)
{
	struct mbox_dir *d = data;

	return mbox_file(d->s, path, d->flags, NULL, NULL, d->fn, d->data,
			 d->result, d->diags);
}

static int mbox_dir(struct ms_store *s, const char *path, unsigned flags,
		    int (*fn)(struct ms_mail *m,
			      const struct ms_mail_source *src, void *data),
		    void *data, struct ms_mail_read_result *result,
		    struct ms_diags *diags)
{
	struct mbox_dir d = { s, flags, fn, data, result, diags };

	return ms_mail_dir_walk(path, mbox_dir_file, &d, diags);
}

int ms_store_mail_parse_archive(struct ms_store *s, const char *path,
				unsigned flags,
				int (*fn)(struct ms_mail *m,
					  const struct ms_mail_source *src,
					  void *data),
				void *data, struct ms_mail_read_result *result,
				struct ms_diags *diags)
{
	return ms_store_mail_parse_archive_from(s, path, flags, NULL, NULL,
						fn, data, result, diags);
}

int ms_store_mail_parse_archive_from(struct ms_store *s, const char *path,
				     unsigned flags,
				     const struct ms_store_mail_mark *from,
				     struct ms_store_mail_mark *to,
				     int (*fn)(struct ms_mail *m,
					       const struct ms_mail_source *src,
					       void *data),
				     void *data,
				     struct ms_mail_read_result *result,
				     struct ms_diags *diags)
{
	struct mail_tee t = { 0 };
	struct ms_mail_after *after = NULL;
	char *key;
	GArray *all;
	guint n_after = 0;
	int rc, rc2;

	if (to)
		*to = (struct ms_store_mail_mark){ 0 };
	if (from && !from->inbox)
		from = NULL;
	if ((!s || (is_dir(path) && !ms_mail_is_inbox(path))) && from)
		return ms_error_set(MS_ESTALE, "no saved state applies to "
				    "'%s'", path);
	if (!s)
		return ms_mail_parse_archive(path, NULL, 0, flags, fn, data,
					     result, diags);
	if (!is_dir(path))
		return mbox_file(s, path, flags, from, to, fn, data, result,
				 diags);
	if (!ms_mail_is_inbox(path))
		return mbox_dir(s, path, flags, fn, data, result, diags);
	key = archive_key(path);
	tee_init(&t, s, key, path, flags, fn, data);
	t.from = from;
	rc = mail_load(&t);
	if (rc == 0)
		rc = mark_check(&t);
	if (rc < 0)
		goto out;
	if (t.bodies)
		flags |= MS_MAIL_PARSE_KEEP_BODY;
	after = g_new0(struct ms_mail_after, t.epochs->len + 1);
	for (guint i = 0; i < t.epochs->len; i++) {
		int e = g_array_index(t.epochs, int, i);

		after[n_after].epoch = e;
		after[n_after].commit = g_hash_table_lookup(t.heads,
							    GINT_TO_POINTER(e));
		n_after++;
	}
	rc = ms_mail_parse_archive(path, after, n_after, flags, mail_tee_fn,
				   &t, result, diags);
	if (rc == 0)
		rc = replay_upto(&t, G_MAXINT);
	rc2 = mail_flush(&t);
	if (rc == 0 && rc2 < 0)
		rc = rc2;
	if (rc < 0)
		goto out;
	/* what an uncached read reports: every message, every epoch head */
	result->messages += t.replayed;
	result->bytes += t.replayed_bytes;
	for (guint i = 0; i < result->heads->len; i++) {
		const char *h = result->heads->pdata[i];
		const char *colon = strchr(h, ':');

		if (colon)
			g_hash_table_insert(t.heads, GINT_TO_POINTER(atoi(h)),
					    g_strdup(colon + 1));
	}
	all = g_array_new(FALSE, FALSE, sizeof(int));
	{
		GHashTableIter it;
		gpointer k;

		g_hash_table_iter_init(&it, t.heads);
		while (g_hash_table_iter_next(&it, &k, NULL)) {
			int e = GPOINTER_TO_INT(k);

			g_array_append_val(all, e);
		}
	}
	g_array_sort(all, int_cmp);
	g_ptr_array_set_size(result->heads, 0);
	if (t.inbox)
		rc = txn_begin(s);
	for (guint i = 0; i < all->len; i++) {
		int e = g_array_index(all, int, i);
		const char *head = g_hash_table_lookup(t.heads,
						       GINT_TO_POINTER(e));

		g_ptr_array_add(result->heads,
				g_strdup_printf("%d:%s", e, head));
		if (rc == 0 && t.inbox)
			rc = put_head(s, t.inbox, e, head);
	}
	if (t.inbox) {
		if (rc == 0)
			rc = txn_commit(s);
		else if (s->in_txn) {
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			s->in_txn = 0;
		}
	}
	g_array_free(all, TRUE);
	if (rc == 0)
		mark_after(&t, to, result);
out:
	g_free(after);
	for (size_t k = 0; k < t.nr; k++)
		mrow_clear(&t.rows[k]);
	g_free(t.rows);
	g_string_free(t.buf, TRUE);
	g_array_free(t.epochs, TRUE);
	g_hash_table_destroy(t.heads);
	g_free(key);
	return rc;
}

/* ---- mail snapshots ---- */

int ms_store_mail_snapshot_get(struct ms_store *s, const char *path, int kind,
			       GBytes **data, struct ms_store_mail_mark *mark)
{
	char *key = archive_key(path);
	sqlite3_stmt *st = NULL;
	int rc;

	*data = NULL;
	*mark = (struct ms_store_mail_mark){ 0 };
	/* one read transaction: the row and its blob (read straight into
	 * our buffer: it is tens of megabytes) */
	rc = exec(s, "BEGIN", "read a mail snapshot");
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
			int n = sqlite3_column_int(st, 5);
			sqlite3_blob *blob = NULL;
			void *buf = g_malloc(MAX(n, 1));

			mark->inbox = sqlite3_column_int64(st, 0);
			mark->seq = sqlite3_column_int64(st, 1);
			mark->count = sqlite3_column_int64(st, 2);
			mark->epoch = sqlite3_column_int(st, 3);
			mark->bytes = (uint64_t)sqlite3_column_int64(st, 4);
			rc = sqlite3_blob_open(s->db, "main", "mail_snapshots",
					       "data", mark->inbox, 0, &blob);
			if (rc == SQLITE_OK)
				rc = sqlite3_blob_read(blob, buf, n, 0);
			sqlite3_blob_close(blob);
			if (rc == SQLITE_OK)
				*data = g_bytes_new_take(buf, (gsize)n);
			else
				g_free(buf);
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
		return rc < 0 ? rc : db_error(s, rc, "read a mail snapshot");
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
	rc = txn_begin(s);
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
		rc = db_error(s, r, "write a mail snapshot");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
		return rc;
	}
	return txn_commit(s);
}

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
	rc = sqlite3_prepare_v2(s->db, "SELECT commit_id, rec, message_id, "
				"method, evidence, earlier, state FROM links "
				"WHERE flags = ? AND version = ?", -1, &st,
				NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, flags);
		sqlite3_bind_int(st, 2, version);
	}
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ms_store_link r = { 0 };
		guint at = earlier->len;

		rc = SQLITE_OK;
		g_ptr_array_set_size(tmp, 0);
		if (!json_strings((const char *)sqlite3_column_text(st, 5),
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
	jscratch_release(&js);
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
		return db_error(s, rc, "read the links");
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
		int r;

		rc = txn_begin(s);
		if (rc < 0)
			break;
		if (at == 0) {
			/* rows no longer valid are stale for dashboards
			 * too */
			r = sqlite3_prepare_v2(s->db, "DELETE FROM links WHERE "
					       "flags = ? AND version != ?", -1,
					       &st, NULL);
			if (r == SQLITE_OK) {
				sqlite3_bind_int64(st, 1, flags);
				sqlite3_bind_int(st, 2, version);
				r = sqlite3_step(st);
				r = r == SQLITE_DONE ? SQLITE_OK : r;
			}
			sqlite3_finalize(st);
			st = NULL;
			if (r == SQLITE_OK)
				r = sqlite3_prepare_v2(s->db, "DELETE FROM "
						       "links WHERE flags = ? "
						       "AND state = ?", -1,
						       &st, NULL);
			for (size_t k = 0; r == SQLITE_OK && k < nr_stale;
			     k++) {
				sqlite3_reset(st);
				sqlite3_bind_int64(st, 1, flags);
				sqlite3_bind_text(st, 2, stale[k], -1,
						  SQLITE_STATIC);
				r = sqlite3_step(st);
				r = r == SQLITE_DONE ? SQLITE_OK : r;
			}
			sqlite3_finalize(st);
			st = NULL;
			if (r != SQLITE_OK) {
				rc = db_error(s, r, "write the links");
				break;
			}
		}
		r = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO links "
				       "VALUES (?,?,?,?,?,?,?,?,?)", -1, &st,
				       NULL);
		for (size_t i = at; r == SQLITE_OK && i < end; i++) {
			const struct ms_store_link *l = &links[i];

			g_ptr_array_set_size(tmp, 0);
			for (size_t k = 0; l->earlier && l->earlier[k]; k++)
				g_ptr_array_add(tmp, l->earlier[k]);
			strings_json(buf, tmp);
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, commit_ids[i], -1,
					  SQLITE_STATIC);
			sqlite3_bind_int64(st, 2, flags);
			sqlite3_bind_int(st, 3, version);
			sqlite3_bind_text(st, 4, state, -1, SQLITE_STATIC);
			if (l->rec >= 0)
				sqlite3_bind_int64(st, 5, l->rec);
			else
				sqlite3_bind_null(st, 5);
			sqlite3_bind_text(st, 6, l->message_id, -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(st, 7, l->method, -1,
					  SQLITE_STATIC);
			sqlite3_bind_int64(st, 8, l->evidence);
			sqlite3_bind_text(st, 9, buf->str, -1,
					  SQLITE_TRANSIENT);
			r = sqlite3_step(st);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
		}
		sqlite3_finalize(st);
		st = NULL;
		if (r != SQLITE_OK) {
			rc = db_error(s, r, "write the links");
			break;
		}
		rc = txn_commit(s);
		if (n == 0)
			break;
	}
	if (rc < 0 && s->in_txn) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
	}
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
	p->by_id = g_hash_table_new(raw_hash, raw_eq);
	rc = exec(s, "BEGIN", "read the patch-ids");
	if (rc < 0) {
		ms_store_patchids_free(p);
		return rc;
	}
	rc = sqlite3_prepare_v2(s->db, "SELECT id, patch_id, summary FROM "
				"commit_patchids WHERE version = ?", -1, &st,
				NULL);
	if (rc == SQLITE_OK)
		sqlite3_bind_int(st, 1, MS_STORE_PATCHID_VERSION);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *pid = (const char *)sqlite3_column_text(st, 1);
		const char *sum = (const char *)sqlite3_column_text(st, 2);
		unsigned char raw[RAWSZ];
		struct patchid_rec *x;

		rc = SQLITE_OK;
		if (!id || !hex_to_raw(id, (size_t)sqlite3_column_bytes(st, 0),
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
		return db_error(s, rc, "read the patch-ids");
	}
	*out = p;
	return 0;
}

const struct ms_store_patchid *
ms_store_patchids_find(const struct ms_store_patchids *p, const char *id)
{
	unsigned char raw[RAWSZ];
	const struct patchid_rec *x;

	if (!hex_to_raw(id, strlen(id), raw))
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
		int r;

		rc = txn_begin(s);
		if (rc < 0)
			break;
		r = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO "
				       "commit_patchids VALUES (?,?,?,?)", -1,
				       &st, NULL);
		for (size_t i = at; r == SQLITE_OK && i < end; i++) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, ids[i], -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 2, MS_STORE_PATCHID_VERSION);
			sqlite3_bind_text(st, 3, v[i]->patch_id, -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(st, 4, v[i]->summary, -1,
					  SQLITE_STATIC);
			r = sqlite3_step(st);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
		}
		sqlite3_finalize(st);
		st = NULL;
		if (r != SQLITE_OK) {
			rc = db_error(s, r, "write the patch-ids");
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			s->in_txn = 0;
			break;
		}
		rc = txn_commit(s);
	}
	return rc;
}
