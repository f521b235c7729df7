/*
 * store.h - the incremental store: an SQLite database of what maintstat
 * extracted from each commit (identities, trailers, touched paths), and
 * how far each source was read, so that a re-run costs only what is new.
 *
 * store.c is the only file that includes <sqlite3.h>.  The schema, its
 * versions and the views for dashboards are documented in docs/store.md.
 *
 * Crash safety: the database runs in WAL mode and every write happens in
 * a transaction of at most MS_STORE_BATCH records, so a run killed at any
 * moment leaves a database SQLite recovers by itself, holding whole
 * records only.  Every store carries an SQLite application id: only such
 * a file (or one of an older maintstat, recognised by its schema) is ever
 * written; any other file is refused and left untouched.  A store whose
 * pages are damaged is moved aside as FILE.corrupt-<time> and rebuilt
 * (with a diagnostic).  A store this run created and left empty is
 * removed when it is closed.  Concurrent runs on
 * one database wait for each other up to the busy timeout, then fail with
 * MS_EBUSY.
 */
#ifndef MS_STORE_H
#define MS_STORE_H

#include "error.h"
#include "history.h"
#include "mail.h"

#include <glib.h>
#include <stdint.h>

/* The database layout; a store written by a newer maintstat is refused. */
#define MS_STORE_SCHEMA_VERSION 13
/*
 * The extraction logic of a commit record.  Bump it whenever git-walk.c
 * or trailer.c changes what a commit yields: records of another version
 * are extracted again on the next walk.
 */
#define MS_STORE_COMMIT_VERSION 3
/* Records written per transaction. */
#define MS_STORE_BATCH 1000

struct ms_store;

struct ms_store_opts {
	/* How long to wait for another run holding the database, in
	 * milliseconds; 0 means the default, 30 seconds. */
	int busy_timeout_ms;
	/* Fail with MS_ENOTFOUND rather than create a missing store (for
	 * commands that only read it). */
	bool no_create;
};

/*
 * Open (creating it and its directory when missing) the store at `path`.
 * `opts` may be NULL.  Returns 0, or: MS_EBUSY when another run keeps the
 * database locked past the timeout; MS_EUSAGE when the file holds a newer
 * schema than this maintstat knows (it is left untouched); MS_ERROR when
 * it cannot be created, or when `path` is not a maintstat store (another
 * program's file: it is left untouched); MS_ENOTFOUND when it is missing
 * and opts->no_create is set.  A damaged maintstat store is moved aside
 * and recreated, with a note in `diags` (may be NULL).  Free with
 * ms_store_free().
 */
int ms_store_open(const char *path, const struct ms_store_opts *opts,
		  struct ms_store **out, struct ms_diags *diags);

/* Close the store; ms_store_free(NULL) is a no-op. */
void ms_store_free(struct ms_store *s);

/* The path the store was opened with (borrowed). */
const char *ms_store_path(const struct ms_store *s);

/*
 * ms_history_walk() through the store: the same commits, with the same
 * contents, in the same order, with the same callbacks, statistics and
 * diagnostics, but only commits the store lacks (or holds from another
 * extraction version) are read from git; they are added to the store.
 * With `s` NULL this is ms_history_walk() itself.
 *
 * Records always hold the touched paths and merges, whatever opts->flags
 * ask (MS_WALK_NO_PATHS then only hides the paths), so that every later
 * walk can use them.  Errors as ms_history_walk()'s, plus MS_EBUSY when
 * the database stays locked, and MS_ERROR when it turns out damaged in
 * the middle of a walk (it is then removed, so that the next run
 * rebuilds it).
 */
int ms_store_history_walk(struct ms_store *s, const char *gitdir,
			  const struct ms_walk_opts *opts,
			  struct ms_walk_stats *stats,
			  struct ms_diags *diags);

/*
 * What a caller kept of an earlier walk through the store, so that a
 * walk from a newer tip reads only the new commits' headers instead of
 * the whole graph (ms_store_history_walk_prev()).
 */
struct ms_store_prev_walk {
	/* the commit (40 hex digits) the earlier walk started from, or
	 * NULL: nothing kept, only `hidden` is wanted */
	const char *tip;
	/* every commit it delivered, in walk order: raw ids (20 bytes
	 * each) and committer times */
	size_t nr;
	const unsigned char *ids;
	const int64_t *times;
	/* merges of its history it did not deliver (no MS_WALK_MERGES),
	 * any order; some may be missing, at a cost, never at a loss */
	size_t nr_hidden;
	const unsigned char *hidden_ids;
	/* optional: called with each merge this walk leaves out (id, its
	 * committer time), so the caller can keep them for the next walk */
	void (*hidden)(const unsigned char *id, int64_t time, void *data);
	void *data;
};

/*
 * ms_store_history_walk() for a caller that kept the order of an earlier
 * walk (`prev`) and uses opts->head: when opts->head is set and the new
 * tip's history contains prev->tip, the commits not in the earlier walk
 * are found by walking from the new tip until meeting its commits, and
 * merged into its order (newest commit time first, equal times by id),
 * so only their headers are read.  Otherwise (no head callback, a
 * rewound history, an order not in walk order, too many new commits) it
 * is ms_store_history_walk() itself.  Results are the same either way.
 */
int ms_store_history_walk_prev(struct ms_store *s, const char *gitdir,
			       const struct ms_walk_opts *opts,
			       const struct ms_store_prev_walk *prev,
			       struct ms_diags *diags);

/*
 * The commits `git log --since=@max_age start_hex` walks, in git's order
 * (get_revision_1() without limit_list(): newest committer date first,
 * parents put after the commits of their date, a commit older than
 * max_age neither shown nor followed), through the store as
 * ms_store_history_walk() (records the store lacks are read from git
 * and kept): opts->fn for each, merges only with MS_WALK_MERGES; opts->rev
 * and opts->ids are ignored.  *stats counts the commits an unreadable
 * object left out or incomplete.  Errors as ms_store_history_walk()'s.
 */
int ms_store_since_walk(struct ms_store *s, const char *gitdir,
			const char *start_hex, int64_t max_age,
			const struct ms_walk_opts *opts,
			struct ms_walk_stats *stats);

/*
 * The extraction logic of a message record (mail.c's parse); bump it when
 * what a message yields changes: an inbox holding records of another
 * version is read again from the start.  3: a kept body is followed by
 * the text of the attachments that carry a diff (K: patterns match it).
 * 4: a subject opening with "pull-request:" is a pull request.  5: the
 * applied, rejected and withdrawn notices of the new text (->notice).
 * 6: the receipt time stands in for a missing or misdated Date.
 * 7: "Pushed"/"Merged" notices, b4 ty items as MS_TRAILER_APPLIED,
 * notes of thanks.  8: "Finally merged", "Merged this one.".  9: the
 * pre-image blob ids of a diff (->preimages).  10: an applied notice may
 * end in smileys ("Finally merged :).").  11: each pre-image blob with
 * the path it is of ("BLOB PATH").  12: a bounce (postmaster@,
 * mailer-daemon@, "Mail Delivery System") is a bot's.  13: an applied
 * line splitting a quoted shortlog names the items above it; an RFC 2047
 * encoded In-Reply-To or References is decoded.  14: "I took it to
 * for-next" is an applied notice.  15: a DMARC Reply-To that To: or Cc:
 * names as another person is not the sender's.  16: a local part with
 * the word "bot" or "robot" is a bot's (sashiko-bot@kernel.org), and
 * bugbot@'s.  17: a pull request's own shortlog names applied patches.
 */
#define MS_STORE_MAIL_VERSION 17

/*
 * ms_mail_parse_archive(path, NULL, 0, flags, fn, data, result, diags)
 * through the store: for a public-inbox archive (v1 or v2) the messages
 * the store holds are handed to `fn` from it, in archive order, and only
 * commits after the last one read per epoch are parsed (and added).  An
 * mbox file (alone or in a directory) is stored whole: when its size,
 * mtime and SHA-1 are those of its last complete read, its messages come
 * from the store, else it is parsed again and its records replaced.  fn,
 * `result` and `diags` see exactly what an uncached read gives.  `flags`
 * with MS_MAIL_PARSE_KEEP_BODY (bodies are not stored) and `s` NULL read
 * the archive as ms_mail_parse_archive() does.  Errors as
 * ms_mail_parse_archive()'s, plus the store's (MS_EBUSY, MS_ERROR).
 */
int ms_store_mail_parse_archive(struct ms_store *s, const char *path,
				unsigned flags,
				ms_mail_parsed_fn fn,
				void *data, struct ms_mail_read_result *result,
				struct ms_diags *diags);

/*
 * Where a caller's model of one archive's stored messages ends: link.c
 * keeps its mail index, as read so far, in the store, so that a re-run
 * reads only the messages after it.  The inbox, the last record the model
 * holds (`seq`), how many records and bytes it holds, and the newest epoch
 * among them (-1 for an mbox file).  inbox 0: no mark.
 */
struct ms_store_mail_mark {
	int64_t inbox;
	int64_t seq;
	int64_t count;
	int epoch;
	uint64_t bytes;
};

/*
 * ms_store_mail_parse_archive() minus the stored messages a caller already
 * holds: with `from` (may be NULL) the stored records up to from->seq are
 * not handed to `fn` (they are counted in `result` all the same).  Fails
 * with MS_ESTALE, before handing out anything or part-way through, when
 * `from` no longer describes a prefix of what the archive yields (the
 * inbox was read again, the mbox file changed, new messages arrived in an
 * epoch before from->epoch): the caller then drops its model and reads
 * again without `from`.  On success `*to` (may be NULL) is the mark after
 * every message of this read; to->inbox is 0 when a re-run could not
 * resume from it (not a store-backed archive, or messages the store does
 * not keep).
 */
int ms_store_mail_parse_archive_from(struct ms_store *s, const char *path,
				     unsigned flags,
				     const struct ms_store_mail_mark *from,
				     struct ms_store_mail_mark *to,
				     ms_mail_parsed_fn fn, void *data,
				     struct ms_mail_read_result *result,
				     struct ms_diags *diags);

/*
 * The snapshot of kind `kind` (the caller's format version) saved for
 * archive `path`: its bytes in *data (g_bytes_unref) and its mark, or
 * *data NULL when there is none.  Snapshots are dropped with the messages
 * they were made from (an inbox read again, a changed mbox file).
 * Returns 0 or the store's error.
 */
int ms_store_mail_snapshot_get(struct ms_store *s, const char *path, int kind,
			       GBytes **data, struct ms_store_mail_mark *mark);

/* Save `len` bytes as the snapshot of mark->inbox at `mark`, replacing
 * the one before (a no-op when mark->inbox is 0). */
int ms_store_mail_snapshot_put(struct ms_store *s, int kind,
			       const struct ms_store_mail_mark *mark,
			       const void *data, size_t len);

/*
 * The one cache of derived data (tables `models` and `model_chunks`):
 * values keyed by (kind, key), each with its last use and a CRC-64 of
 * its kind, key and bytes.  ms_store_model_get() sets *data (the caller
 * unrefs it) to the bytes saved under (kind, key), or, with `key` NULL,
 * to the value of `kind` used last; else (nothing saved, or a value
 * whose check does not hold) to NULL.  A value read is marked used now.
 * ms_store_model_get_any() also gives the key it was saved under
 * (*key_out, g_free; may be NULL).  The caller chooses a key naming
 * everything the value depends on (the walked commit, options, the
 * format of `data`): rows of other keys are other values, not stale
 * ones.  ms_store_model_put() saves (kind, key), marks it used now, and
 * keeps of `kind` only the `keep` values used last (at least 1).
 * Errors as the walk's.
 *
 * A value of any size is kept: one larger than the chunk limit (see
 * ms_store_set_chunk_limit()) is written as several rows, in the same
 * transaction, and read back into one buffer; a value with a chunk
 * missing or of the wrong length reads as nothing saved, never as other
 * bytes.  A value that cannot be kept (no memory, a full disk, a busy
 * store) is an error, never a silent no-op: callers warn and go on.
 */
int ms_store_model_get(struct ms_store *s, const char *kind, const char *key,
		       GBytes **data);
int ms_store_model_get_any(struct ms_store *s, const char *kind,
			   const char *key, char **key_out, GBytes **data);
int ms_store_model_put(struct ms_store *s, const char *kind, const char *key,
		       unsigned keep, const void *data, size_t len);
/* One piece of a value given in pieces. */
struct ms_store_piece {
	const void *data;
	size_t len;
};
/* ms_store_model_put() of the `n` pieces one after the other, without
 * joining them in memory first (a result is gigabytes at kernel scale). */
int ms_store_model_putv(struct ms_store *s, const char *kind, const char *key,
			unsigned keep, const struct ms_store_piece *pieces,
			size_t n);
/* Forget what `kind` held (nothing held is no error). */
int ms_store_model_drop(struct ms_store *s, const char *kind);

/* The largest row of a model, in bytes, when it is not set: SQLite's own
 * limit on one value (SQLITE_MAX_LENGTH) is 1,000,000,000 bytes. */
#define MS_STORE_CHUNK_DEFAULT ((size_t)64 << 20)
#define MS_STORE_CHUNK_MAX ((size_t)512 << 20)
/*
 * Set the largest row of the models written through `s` (1 to
 * MS_STORE_CHUNK_MAX; 0: MS_STORE_CHUNK_DEFAULT).  For tests: a small
 * limit makes small values take the path of big ones.  Values already
 * saved are read whatever limit wrote them.
 */
void ms_store_set_chunk_limit(struct ms_store *s, size_t limit);

/*
 * Call `fn(data)` just before each write transaction of `s` commits (NULL
 * removes it).  For tests: a hook that stops the process lets a test kill
 * it at a known point of its writes, whatever the machine's speed.
 */
void ms_store_on_commit(struct ms_store *s, void (*fn)(void *), void *data);

/*
 * A command's finished result, kept so that a run with the same inputs
 * prints it instead of computing it (kind "result" of the cache above,
 * the RESULT_ROWS used last kept): the bytes it printed on standard
 * output (`out`) and on standard error (`err`, its warnings), and the
 * facts a later run must find true before reusing them (`facts`, the
 * caller's format: what its key cannot cover cheaply).  `key` is the
 * caller's digest of every input.  ms_store_result_get() sets the three
 * (g_bytes_unref) when a whole result was saved under `key`, else NULL
 * all.  Errors as ms_store_model_get()'s.
 */
struct ms_store_result {
	GBytes *facts, *out, *err;
};
int ms_store_result_get(struct ms_store *s, const char *key,
			struct ms_store_result *r);
void ms_store_result_release(struct ms_store_result *r);
int ms_store_result_put(struct ms_store *s, const char *key,
			const GString *facts, const char *out, size_t out_len,
			const GString *err);

/*
 * A mail-to-commit link as link.h computed it (see link-cache.h), kept
 * per commit: the message's index record `rec` (-1 and message_id NULL:
 * the commit was found unlinked), its Message-ID, the method's name, the
 * evidence bits and the Message-IDs of earlier versions (NULL-terminated;
 * may be NULL when writing).
 */
struct ms_store_link {
	char *state;             /* reading: the state it was computed in */
	int64_t rec;
	char *message_id;
	char *method;
	unsigned evidence;
	char **earlier;
};

/*
 * Links read back: rows[i] is the link of commit commit_ids[i], with the
 * state of the message set it was computed against.  All of it is owned
 * by the struct (one block of text for every row: a window holds a
 * hundred thousand of them); free with ms_store_links_free().
 */
struct ms_store_links {
	struct ms_store_link *rows;
	const char **commit_ids;
	size_t nr;
	/* private */
	GHashTable *by_commit;      /* commit id -> row + 1 */
	GStringChunk *text;
	char **earlier;             /* every row's earlier, back to back */
};

/*
 * The links stored for `flags` (the options that change linking), of
 * linking logic `version`, in *out (ms_store_links_free).  Returns 0 or
 * the store's error.
 */
int ms_store_links_get(struct ms_store *s, int version, unsigned flags,
		       struct ms_store_links **out);

/* The stored row of commit `commit_id` (borrowed), or NULL. */
const struct ms_store_link *
ms_store_links_find(const struct ms_store_links *l, const char *commit_id);

void ms_store_links_free(struct ms_store_links *l);

/*
 * Store `n` links (links[i] of commit commit_ids[i]) for `flags`,
 * `version` and `state`, in transactions of MS_STORE_BATCH rows; rows of
 * `flags` from another version, or of one of the `nr_stale` states
 * `stale`, are deleted first.
 */
int ms_store_links_put(struct ms_store *s, int version, unsigned flags,
		       const char *state, const char *const *stale,
		       size_t nr_stale, const char *const *commit_ids,
		       const struct ms_store_link *links, size_t n);

/*
 * What linking derives from a commit's diff (patchid.h): its stable
 * patch-id and summary line.  Bump MS_STORE_PATCHID_VERSION whenever
 * patchid.c or git-patchid.c change what they yield: records of another
 * version are computed again.
 */
#define MS_STORE_PATCHID_VERSION 1

struct ms_store_patchid {
	char patch_id[41];       /* "" when the commit changes nothing */
	char *summary;
};

/* The stored patch-ids of the current version, by commit id. */
struct ms_store_patchids;

/* Read them into *out (ms_store_patchids_free).  Returns 0 or the store's
 * error. */
int ms_store_patchids_get(struct ms_store *s, struct ms_store_patchids **out);

/* The patch-id stored for commit `id` (full hex), borrowed until `p` is
 * freed, or NULL.  Safe from several threads at once. */
const struct ms_store_patchid *
ms_store_patchids_find(const struct ms_store_patchids *p, const char *id);

/* ms_store_patchids_free(NULL) is a no-op. */
void ms_store_patchids_free(struct ms_store_patchids *p);

/* Store v[i] for commit ids[i], MS_STORE_BATCH per transaction. */
int ms_store_patchids_put(struct ms_store *s, const char *const *ids,
			  const struct ms_store_patchid *const *v, size_t n);

/* What ms_store_info() reports. */
struct ms_store_info {
	int schema_version;
	int64_t commits;         /* commit records */
	int64_t stale_commits;   /* records of another extraction version */
	int64_t refs;            /* walked revisions remembered */
	int64_t messages;        /* message records */
	int64_t size;            /* bytes on disk, database and WAL */
};

/* Counts and size of the store.  Returns 0 or MS_ERROR. */
int ms_store_info(struct ms_store *s, struct ms_store_info *info);

/*
 * get_maintainer.pl's git log of files (maint-cc-vcs.h), kept in the
 * store: ms_store_vcs_open() resolves v->rev and v->since as git does
 * now; ms_store_vcs_log(file, c) (maint_cc_opts.vcs_log) gives the lines
 * of `file`'s log, from the store when saved for that commit with a
 * --since date that no commit's date separates from today's (the same
 * log, to the byte), else from git, saving them.  *out is NULL (and 0
 * returned) when git cannot resolve them: log with git directly.  Free
 * with ms_store_vcs_free() (NULL is a no-op) before the store.
 * ms_store_vcs_saved() gives only what is saved, and an empty log for
 * a file with none, which ms_store_vcs_missed() then says (the quick
 * program's: it has no libgit2, store-vcsmodel.c is maintstat-full's).
 */
struct mcc_vcs;
struct ms_store_vcs;
int ms_store_vcs_open(struct ms_store *s, const struct mcc_vcs *v,
		      struct ms_store_vcs **out);
GPtrArray *ms_store_vcs_log(const char *file, void *c);
GPtrArray *ms_store_vcs_saved(const char *file, void *c);
bool ms_store_vcs_missed(const struct ms_store_vcs *c);
void ms_store_vcs_free(struct ms_store_vcs *c);

#endif
