/*
 * store-internal.h - what the files of the store (store.h) share, and only
 * they include: the handle, its SQLite errors and transactions (store.c),
 * the JSON columns (store-json.c), fixed-size records and raw object ids.
 */
#ifndef MS_STORE_INTERNAL_H
#define MS_STORE_INTERNAL_H

#include "store.h"
#include "bytes.h"
#include "maint-cc-vcs.h"

#include <glib.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define RAWSZ 20

struct ms_store {
	sqlite3 *db;
	char *path;
	int busy_ms;
	bool damaged;           /* move the files aside when closing */
	bool created;           /* this run created the file */
	bool fresh;             /* created, or an empty file: stamp it */
	bool ours;              /* identified as a maintstat store */
	sqlite3_stmt *insert;
	sqlite3_stmt *by_rowid;
	int in_txn;             /* records written in the open transaction */
	size_t chunk_limit;     /* the largest row of a model (store-models.c) */
	struct commit_hook *hook;       /* ms_store_on_commit() */
};

/* ---- store.c: errors, transactions ---- */

/* Set the error of SQLite code `rc` when trying to `what` (busy, damaged:
 * then marked for removal, or other) and return its MS_E* code. */
int store_db_error(struct ms_store *s, int rc, const char *what);
/* Run `sql`; on failure, store_db_error(). */
int store_exec(struct ms_store *s, const char *sql, const char *what);
/*
 * Prepare `sql` into *st, or when *st is prepared already (`sql` unused)
 * reset it, and bind its parameters in order, one letter of `fmt` each: 'i'
 * an int, 'l' an int64_t, 't' a string bound in place (NULL: SQL NULL).
 * Returns an SQLite code; the caller finalizes *st.
 */
int store_prepare(struct ms_store *s, sqlite3_stmt **st, const char *sql,
		  const char *fmt, ...);
/* Prepare and bind `sql` (store_prepare()) and run it to its end, or to
 * its first row, whose first column goes to *out when `out` is not NULL
 * (0 when there is no row).  Returns an SQLite code, SQLITE_OK when it
 * ran: no error is recorded. */
int store_run(struct ms_store *s, int64_t *out, const char *sql,
	      const char *fmt, ...);
/* The same, with the error of a failure to `what` set (store_db_error()):
 * 0 or an MS_E* code. */
int store_query(struct ms_store *s, const char *what, int64_t *out,
		const char *sql, const char *fmt, ...);
/* Roll back the open write transaction, if any. */
void store_txn_rollback(struct ms_store *s);
/* Remove a damaged database and create an empty one in its place. */
int store_rebuild(struct ms_store *s, struct ms_diags *diags,
		  const char *why);
/* Open the write transaction (BEGIN IMMEDIATE) unless one is open;
 * commit it. */
int store_txn_begin(struct ms_store *s);
int store_txn_commit(struct ms_store *s);

/* ---- store-json.c: the JSON columns of commits and mail ---- */

struct jp {
	const char *p, *end;
	GString *buf;
};

void store_encode_paths(GString *o, const struct ms_commit *c);
void store_encode_trailers(GString *o, const struct ms_commit *c);
bool store_decode_paths(struct jp *j, GStringChunk *chunk, GPtrArray *out);
bool store_decode_trailers(struct jp *j, GStringChunk *chunk, GArray *out);

/* A mail record's string lists and trailers, the same shapes. */
void store_strings_json(GString *o, const GPtrArray *a);
void store_mail_trailers_json(GString *o, const GPtrArray *a);

/*
 * Scratch space of the JSON decoders, kept across the records of a batch
 * (a replay decodes a few arrays per message: set-up and tear-down per
 * array cost more than the decoding).  Zero-initialise;
 * store_jscratch_release().
 */
struct jscratch {
	GStringChunk *chunk;
	GPtrArray *tmp;
	GArray *ttmp;
	GString *buf;
};

void store_jscratch_release(struct jscratch *js);

/* A JSON array of strings (the store's own format) appended to `out` as
 * g_strdup'ed strings; false when `text` is not one. */
bool store_json_strings(const char *text, int len, GPtrArray *out,
			struct jscratch *js);
/* A JSON array of trailers appended to `out` as struct ms_mail_trailer. */
bool store_json_mail_trailers(const char *text, int len, GPtrArray *out,
			      struct jscratch *js);

/* ---- store-mail.c ---- */

/* The key an archive is stored under: its absolute path with symbolic
 * links resolved, or only made absolute when it does not exist (yet);
 * g_free it. */
char *store_archive_key(const char *path);

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

static inline void slab_init(struct slab *sl, gsize size)
{
	sl->blocks = g_ptr_array_new_with_free_func(g_free);
	sl->used = SLAB_BLOCK;
	sl->size = size;
}

/* A new record, uninitialised; valid until slab_release(). */
static inline void *slab_new(struct slab *sl)
{
	if (sl->used == SLAB_BLOCK) {
		g_ptr_array_add(sl->blocks, g_malloc_n(SLAB_BLOCK, sl->size));
		sl->used = 0;
	}
	return (char *)sl->blocks->pdata[sl->blocks->len - 1] +
	       sl->size * sl->used++;
}

static inline void slab_release(struct slab *sl)
{
	g_ptr_array_free(sl->blocks, TRUE);
}

/*
 * Read the `n`-byte blob of column `data` of `table`'s row `row` into *out
 * (a new GBytes), straight into its buffer: snapshots and models are
 * megabytes.  Returns an SQLite code; *out is set only on SQLITE_OK.
 */
int store_blob_read(struct ms_store *s, const char *table, int64_t row,
		    int n, GBytes **out);
/* The same into `buf`, which holds `n` bytes. */
int store_blob_read_into(struct ms_store *s, const char *table, int64_t row,
			 void *buf, int n);
/* A buffer for a value of `n` bytes read whole (NULL: no memory), freed
 * with store_buf_free() or handed to a GBytes by store_buf_bytes(). */
void *store_buf_new(size_t n);
void store_buf_free(void *buf);
GBytes *store_buf_bytes(void *buf, size_t n);

/* ---- store-vcslog.c: get_maintainer.pl's git logs kept ---- */

struct ms_store_vcs {
	struct ms_store *s;
	struct mcc_vcs v;
	char id[41];
	GArray *dates;      /* gint64, sorted */
	/* the commits git log --since walks (window()), or gl NULL */
	bool tried;
	struct ms_git_log *gl;
	GPtrArray *ids;     /* the non-merges, in git's order */
	GHashTable *touch;  /* path -> GArray of guint: indexes in ids */
	GHashTable *dirs;   /* each directory of a touched path */
	GStringChunk *chunk;
	void (*drop_window)(struct ms_store_vcs *c);    /* frees the above */
	bool missed;        /* ms_store_vcs_saved() had none */
};

/* The saved lines of `file`'s log, or NULL when none still holds. */
GPtrArray *store_vcs_saved(struct ms_store_vcs *c, const char *file);
void store_vcs_save(struct ms_store_vcs *c, const char *file,
		    const GPtrArray *lines);

#endif
