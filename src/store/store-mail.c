/*
 * store-mail.c - list messages in the incremental store (store.h): the
 * records of public-inbox epochs and of mbox files, replayed in archive
 * order.
 */
#include "store-internal.h"
#include "utf8.h"

#include <errno.h>
#include <stddef.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPLAY_BATCH 1024      /* messages read per read transaction */

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
	"patch_id, kind, applied_notice, problems, size, preimages, line"
#define MSG_NCOLS 48

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

/*
 * The fields of struct ms_mail in the columns of MSG_COLS between the
 * source's four (epoch, commit_id, version, src_problems) and its line:
 * what mail_cells() writes and cells_to_mail() reads back.
 */
enum { F_STR, F_STRV, F_TRAILERS, F_BOOL, F_U8, F_U32, F_S32, F_I64, F_SIZE };

#define F(type, field) { type, offsetof(struct ms_mail, field) }
static const struct {
	unsigned char type;
	unsigned short off;
} mail_fields[] = {
	F(F_STR, message_id), F(F_STR, in_reply_to), F(F_STRV, references),
	F(F_STR, date_raw), F(F_I64, date), F(F_S32, date_tz),
	F(F_BOOL, date_valid), F(F_STR, from_name), F(F_STR, from_email),
	F(F_STR, sender_name), F(F_STR, sender_email),
	F(F_BOOL, sender_rewritten), F(F_STR, to), F(F_STR, cc),
	F(F_STR, list_id), F(F_STR, subject_raw), F(F_STR, subject.prefixes),
	F(F_STR, subject.normalized), F(F_U32, subject.reply_depth),
	F(F_BOOL, subject.forward), F(F_BOOL, subject.patch),
	F(F_BOOL, subject.rfc), F(F_BOOL, subject.resend),
	F(F_BOOL, subject.pull), F(F_U32, subject.version),
	F(F_U32, subject.number), F(F_U32, subject.total),
	F(F_STR, subject.tree), F(F_U32, new_lines), F(F_U32, quoted_lines),
	F(F_TRAILERS, trailers), F(F_STR, change_id), F(F_BOOL, has_diff),
	F(F_BOOL, diff_in_attachment), F(F_STRV, files),
	F(F_U32, lines_added), F(F_U32, lines_removed), F(F_STR, patch_id),
	F(F_U32, kind), F(F_U8, notice), F(F_U32, problems), F(F_SIZE, size),
	F(F_STRV, preimages),
};
#undef F
G_STATIC_ASSERT(G_N_ELEMENTS(mail_fields) + 5 == MSG_NCOLS);
G_STATIC_ASSERT(sizeof(enum ms_mail_kind) == sizeof(uint32_t));

static void mail_cells(struct mrow *r, const struct ms_mail *m,
		       const struct ms_mail_source *src, GString *buf)
{
	struct cell *c = r->c;

	cell_i(&c, src->epoch);
	cell_s(&c, src->commit ? src->commit : "");
	cell_i(&c, MS_STORE_MAIL_VERSION);
	cell_i(&c, src->problems);
	for (size_t i = 0; i < G_N_ELEMENTS(mail_fields); i++) {
		const void *f = (const char *)m + mail_fields[i].off;

		switch (mail_fields[i].type) {
		case F_STR: cell_s(&c, *(char *const *)f); break;
		case F_STRV:
			store_strings_json(buf, *(GPtrArray *const *)f);
			cell_s(&c, buf->str);
			break;
		case F_TRAILERS:
			store_mail_trailers_json(buf, *(GPtrArray *const *)f);
			cell_s(&c, buf->str);
			break;
		case F_BOOL: cell_i(&c, *(const bool *)f); break;
		case F_U8: cell_i(&c, *(const uint8_t *)f); break;
		case F_U32: cell_i(&c, *(const uint32_t *)f); break;
		case F_S32: cell_i(&c, *(const int32_t *)f); break;
		case F_I64: cell_i(&c, *(const int64_t *)f); break;
		default: cell_i(&c, (int64_t)*(const size_t *)f); break;
		}
	}
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

/* A message record (columns of MSG_COLS from `st`, after its epoch and
 * commit) back into the struct ms_mail mail.c would have made. */
static struct ms_mail *cells_to_mail(sqlite3_stmt *st, uint32_t *src_problems,
				    struct jscratch *js)
{
	struct ms_mail *m = g_new0(struct ms_mail, 1);
	int i = 4;
	bool ok = true;

	*src_problems = (uint32_t)sqlite3_column_int64(st, 3);
	for (size_t k = 0; k < G_N_ELEMENTS(mail_fields); k++, i++) {
		void *f = (char *)m + mail_fields[k].off;
		int type = mail_fields[k].type;
		int64_t v = type >= F_BOOL ? sqlite3_column_int64(st, i) : 0;
		GPtrArray *a = NULL;

		switch (type) {
		case F_STR: *(char **)f = col_dup(st, i); break;
		case F_STRV:
			a = g_ptr_array_new_with_free_func(g_free);
			ok = ok && store_json_strings((const char *)
				sqlite3_column_text(st, i),
				sqlite3_column_bytes(st, i), a, js);
			break;
		case F_TRAILERS:
			a = g_ptr_array_new_with_free_func(ms_mail_trailer_free);
			ok = ok && store_json_mail_trailers((const char *)
				sqlite3_column_text(st, i),
				sqlite3_column_bytes(st, i), a, js);
			break;
		case F_BOOL: *(bool *)f = v != 0; break;
		case F_U8: *(uint8_t *)f = (uint8_t)v; break;
		case F_U32: *(uint32_t *)f = (uint32_t)v; break;
		case F_S32: *(int32_t *)f = (int32_t)v; break;
		case F_I64: *(int64_t *)f = v; break;
		default: *(size_t *)f = (size_t)v; break;
		}
		if (a)
			*(GPtrArray **)f = a;
	}
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
	ms_mail_parsed_fn fn;
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
	/* Two runs reading one archive cold both write it.  Each keeps
	 * the newest record of the inbox it knows of (read or written);
	 * the first run to find a record of another (or its own gone)
	 * stops storing, and reads on with nothing kept: one copy. */
	int64_t load_seq;        /* the newest stored when loaded */
	int64_t last_seq;        /* the newest this run knows of */
	bool lost;               /* another run writes the inbox */
	/* a grown mbox file read from its last stored message (seq, its
	 * size and the reader's problems), which the first message read
	 * then is again, or more of it (resume_first()) */
	int64_t resume_seq, resume_size, resume_problems;
	size_t dropped;          /* 1: that message read again, not kept */
	uint64_t dropped_bytes;
};

/*
 * Is the inbox's stored state still the one this run knows: its newest
 * record t->last_seq, and none after it?  Called inside a write
 * transaction; sets t->lost when another run wrote or dropped records
 * since.  (Rows after last_seq are few: the scan is by seq.)
 */
static int tee_still_ours(struct mail_tee *t)
{
	int64_t lost = 0;
	int rc;

	if (t->lost)
		return 0;
	rc = store_query(t->s, "read the messages", &lost, "SELECT EXISTS "
			 "(SELECT 1 FROM messages WHERE seq > ?2 AND +inbox = "
			 "?1) OR (?2 > 0 AND NOT EXISTS (SELECT 1 FROM "
			 "messages WHERE seq = ?2 AND inbox = ?1))", "ll",
			 t->inbox, t->last_seq);
	t->lost = lost != 0;
	return rc;
}

static int inbox_id(struct mail_tee *t, enum ms_mail_format format)
{
	struct ms_store *s = t->s;
	int rc;

	rc = store_txn_begin(s);
	if (rc == 0)
		rc = store_query(s, "record the inbox", NULL, "INSERT OR "
				 "IGNORE INTO inboxes (path, format, bodies) "
				 "VALUES (?, ?, ?)", "tti", t->key,
				 ms_mail_format_name(format), t->bodies ? 1 : 0);
	if (rc == 0)
		rc = store_query(s, "record the inbox", &t->inbox, "SELECT id "
				 "FROM inboxes WHERE path = ?", "t", t->key);
	if (rc < 0) {
		store_txn_rollback(s);
		return rc;
	}
	return store_txn_commit(s);
}

static int put_head(struct ms_store *s, int64_t inbox, int epoch,
		    const char *head)
{
	return store_query(s, "record an epoch", NULL, "INSERT OR REPLACE "
			   "INTO inbox_epochs VALUES (?, ?, ?)", "lit", inbox,
			   epoch, head);
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
	rc = store_txn_begin(s);
	if (rc == 0)
		rc = tee_still_ours(t);
	if (rc == 0 && !t->lost) {
		int r = sqlite3_prepare_v2(s->db, sql->str, -1, &st, NULL);

		rc = r == SQLITE_OK ? 0 : store_db_error(s, r, "write a message");
	}
	g_string_free(sql, TRUE);
	for (k = 0; rc == 0 && !t->lost && k < t->nr; k++) {
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
		if (step == SQLITE_DONE)
			step = !t->bodies ? SQLITE_OK : store_run(s, NULL,
				"INSERT OR REPLACE INTO message_bodies VALUES "
				"(?, ?)", "lt", (int64_t)
				sqlite3_last_insert_rowid(s->db), r->body);
		if (step == SQLITE_OK) {
			t->last_seq = sqlite3_last_insert_rowid(s->db);
			t->max_seq = MAX(t->max_seq, t->last_seq);
		}
		if (step != SQLITE_OK)
			rc = store_db_error(s, step, "write a message");
		else if (!t->mbox && (k + 1 == t->nr ||
			 t->rows[k + 1].c[0].i != r->c[0].i))
			rc = put_head(s, t->inbox, (int)r->c[0].i,
				      r->c[1].s);
	}
	sqlite3_finalize(st);
	if (rc == 0)
		rc = store_txn_commit(s);
	if (rc < 0) {
		store_txn_rollback(s);
		t->error = rc;
	}
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
static int replay_batch(struct mail_tee *t, sqlite3_stmt **stp, int e,
			int64_t *after, GPtrArray *out, GPtrArray *commits,
			GArray *problems_out, GArray *lines)
{
	struct ms_store *s = t->s;
	struct jscratch js = { 0 };
	sqlite3_stmt *st;
	int rc, r;

	rc = store_exec(s, "BEGIN", "read the messages");
	if (rc < 0)
		return rc;
	/* up to what was stored when this run began: what other runs store
	 * since, it reads itself */
	r = store_prepare(s, stp, t->want_body ?
		"SELECT " MSG_COLS ", seq, (SELECT body FROM message_bodies b "
		"WHERE b.seq = messages.seq) FROM messages WHERE inbox = ? AND "
		"epoch = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?" :
		"SELECT " MSG_COLS ", seq FROM messages WHERE inbox = ? AND "
		"epoch = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
		"lilli", t->inbox, e, *after, t->load_seq, REPLAY_BATCH);
	st = *stp;
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
					  "moved aside: run again to rebuild it",
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
		rc = store_db_error(s, r, "read the messages");
	sqlite3_reset(st);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	store_jscratch_release(&js);
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

		do {
			guint i;

			g_ptr_array_set_size(mails, 0);
			g_ptr_array_set_size(commits, 0);
			g_array_set_size(problems, 0);
			g_array_set_size(lines, 0);
			rc = replay_batch(t, &st, e, &after, mails, commits,
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

/*
 * The first message of a grown mbox file, read from the last stored
 * message's From_ line (mbox_resume()).  When it is that message again
 * (the same size and reader problems: the new bytes began a message of
 * their own; a message that went on in them is longer, or no longer cut
 * short), its record stands: every stored message is handed out and `m`
 * is dropped (1).  Else its record is dropped, the messages before it
 * are handed out and `m` is read as new (0); with a caller's mark that
 * held the record, MS_ESTALE.
 */
static int resume_first(struct mail_tee *t, struct ms_mail *m,
			const struct ms_mail_source *src)
{
	int64_t seq = t->resume_seq;
	int rc = 0;

	t->resume_seq = 0;
	if ((int64_t)m->size == t->resume_size &&
	    (int64_t)src->problems == t->resume_problems) {
		t->dropped = 1;
		t->dropped_bytes = m->size;
		ms_mail_free(m);
		rc = replay_upto(t, G_MAXINT);
		return rc < 0 ? rc : 1;
	}
	if (t->from)
		rc = ms_error_set(MS_ESTALE, "the last stored message of '%s' "
				  "went on in its new bytes", t->path);
	if (rc == 0)
		rc = store_txn_begin(t->s);
	if (rc == 0)
		rc = tee_still_ours(t);
	if (rc == 0 && !t->lost)
		rc = store_query(t->s, "drop a message", NULL, "DELETE FROM "
				 "message_bodies WHERE seq = ?", "l", seq);
	if (rc == 0 && !t->lost)
		rc = store_query(t->s, "drop a message", NULL, "DELETE FROM "
				 "messages WHERE seq = ?", "l", seq);
	if (rc == 0 && !t->lost)
		rc = store_query(t->s, "read the messages", &t->load_seq,
				 "SELECT coalesce(max(seq), 0) FROM messages "
				 "WHERE inbox = ?", "l", t->inbox);
	if (rc == 0) {
		t->last_seq = t->load_seq;
		rc = store_txn_commit(t->s);
	} else if (rc != MS_ESTALE) {
		store_txn_rollback(t->s);
	}
	/* another run wrote the file meanwhile: the last record too
	 * goes, it is read again (the other's records are not read) */
	if (rc == 0 && t->lost)
		t->load_seq = seq - 1;
	if (rc == 0)
		rc = replay_upto(t, G_MAXINT);
	if (rc < 0)
		ms_mail_free(m);
	return rc;
}

static int mail_tee_fn(struct ms_mail *m, const struct ms_mail_source *src,
		       void *data)
{
	struct mail_tee *t = data;
	int rc;

	if (t->resume_seq) {
		rc = resume_first(t, m, src);
		if (rc)
			return MIN(rc, 0);
	}
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
	/* the text of attachments carrying a diff goes after the body:
	 * K: patterns, the one reader of kept bodies, match both */
	if (t->bodies && m->attached_diff)
		t->rows[t->nr].body = g_strconcat(m->body ? m->body : "",
						  "\n", m->attached_diff,
						  NULL);
	else if (t->bodies)
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

/* Drop the records of inbox `id` and what was derived from them, to read
 * it again (keeping bodies from now on when `bodies`). */
static int drop_inbox(struct ms_store *s, int64_t id, bool bodies,
		      const char *what)
{
	long long n = (long long)id;
	char *del = g_strdup_printf(
		"BEGIN IMMEDIATE;"
		"DELETE FROM message_bodies WHERE seq IN (SELECT seq "
		"FROM messages WHERE inbox = %lld);"
		"DELETE FROM messages WHERE inbox = %lld;"
		"DELETE FROM inbox_epochs WHERE inbox = %lld;"
		"DELETE FROM mbox_files WHERE inbox = %lld;"
		"DELETE FROM models WHERE kind = 'mail-snapshot' AND "
		"key GLOB '%lld:*';"
		"DELETE FROM model_chunks WHERE kind = 'mail-snapshot' "
		"AND key GLOB '%lld:*';"
		"UPDATE inboxes SET bodies = %d WHERE id = %lld;"
		"COMMIT;", n, n, n, n, n, n, bodies ? 1 : 0, n);
	int rc = store_exec(s, del, what);

	g_free(del);
	if (rc < 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* The stored state of inbox `path`: its id, format and epochs. */
static int mail_load(struct mail_tee *t)
{
	struct ms_store *s = t->s;
	sqlite3_stmt *st = NULL;
	int64_t stale = 0;
	bool have_bodies = false;
	int rc;

	t->bodies = t->want_body;
	rc = store_prepare(s, &st, "SELECT id, format, bodies FROM inboxes "
			   "WHERE path = ?", "t", t->key);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *f = (const char *)sqlite3_column_text(st, 1);

		t->inbox = sqlite3_column_int64(st, 0);
		have_bodies = sqlite3_column_int(st, 2) != 0;
		t->format = MS_MAIL_FMT_INBOX_V2;
		for (int k = MS_MAIL_FMT_MBOXRD; k <= MS_MAIL_FMT_INBOX_V2; k++)
			if (!g_strcmp0(f, ms_mail_format_name(k)))
				t->format = (enum ms_mail_format)k;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, rc, "read the inboxes");
	if (!t->inbox)
		return 0;
	/* two ranges of messages_version (`!=` reads all its rows) */
	rc = store_query(s, "read the database", &stale, "SELECT (SELECT "
			 "count(*) FROM messages WHERE inbox = ?1 AND version "
			 "< ?2) + (SELECT count(*) FROM messages WHERE inbox = "
			 "?1 AND version > ?2)", "li", t->inbox,
			 MS_STORE_MAIL_VERSION);
	if (rc < 0)
		return rc;
	if (have_bodies)
		t->bodies = true;       /* keep storing them */
	if (stale || (t->want_body && !have_bodies))
		/* another extraction version, or bodies wanted that were
		 * not kept: read the inbox again */
		return drop_inbox(s, t->inbox, t->bodies,
				  "drop stale messages");
	/* every row is of this version now: the index's last one */
	rc = store_query(s, "read the database", &t->load_seq, "SELECT "
			 "coalesce(max(seq), 0) FROM messages WHERE inbox = ? "
			 "AND version = ?", "li", t->inbox,
			 MS_STORE_MAIL_VERSION);
	if (rc < 0)
		return rc;
	t->last_seq = t->load_seq;
	rc = store_prepare(s, &st, "SELECT epoch, head FROM inbox_epochs "
			   "WHERE inbox = ? ORDER BY epoch", "l", t->inbox);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int e = sqlite3_column_int(st, 0);

		g_array_append_val(t->epochs, e);
		g_hash_table_insert(t->heads, GINT_TO_POINTER(e), g_strdup(
			(const char *)sqlite3_column_text(st, 1)));
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_db_error(s, rc, "read the epochs");
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
	int rc;

	if (!f)
		return 0;
	if (f->inbox != t->inbox || !t->inbox)
		return ms_error_set(MS_ESTALE, "'%s' was read again since the "
				    "saved state", t->path);
	rc = store_query(t->s, "read the database", &n, "SELECT count(*) "
			 "FROM messages WHERE inbox = ? AND seq <= ?", "ll",
			 t->inbox, f->seq);
	if (rc == 0)
		rc = store_query(t->s, "read the database", &later, "SELECT "
				 "count(*) FROM messages WHERE inbox = ? AND "
				 "epoch < ? AND seq > ?", "lil", t->inbox,
				 f->epoch, f->seq);
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
	if (!t->inbox || t->unstored || t->error || t->lost)
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
 * An mbox file is stored whole: when its size, mtime and CRC-64 are those
 * recorded after its last complete read, its messages are handed out
 * from the store.  When it only grew (its first bytes are those read
 * last time), the stored messages but the last are handed out and the
 * file is read from the last one's From_ line on (that message may go on
 * in the new bytes); otherwise it is read again and its records replaced.
 */

static bool is_dir(const char *path)
{
	return g_file_test(path, G_FILE_TEST_IS_DIR);
}

/* The mail_tee reading archive `path` (stored under `key`) for fn. */
static void tee_init(struct mail_tee *t, struct ms_store *s, const char *key,
		     const char *path, unsigned flags,
		     ms_mail_parsed_fn fn, void *data)
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

static char *crc_text(uint64_t crc)
{
	return g_strdup_printf("crc64:%016" G_GINT64_MODIFIER "x",
			       (guint64)crc);
}

/*
 * The CRC-64 of a file's bytes (as text), and in *head that of its first
 * `prefix` bytes when it has as many; NULL when it cannot be read.  With
 * `line` (> 1) within the prefix, *offset is where that line starts (the
 * lines counted as the bytes go by, while in memory; else 0).
 */
static char *file_crc(const char *path, GStatBuf *sb, int64_t prefix,
		      char **head, unsigned long line, uint64_t *offset)
{
	FILE *f = fopen(path, "rb");
	char *buf, *out = NULL;
	uint64_t crc = 0, at = 0;
	unsigned long nl = line > 1 ? line - 1 : 0;   /* to pass */
	size_t n;

	*head = NULL;
	*offset = 0;
	if (!f)
		return NULL;
	if (g_stat(path, sb) < 0) {
		fclose(f);
		return NULL;
	}
	buf = g_malloc(1 << 20);
	while ((n = fread(buf, 1, 1 << 20, f)) > 0) {
		size_t k = 0;

		if (nl && at < (uint64_t)prefix) {
			unsigned long c = ms_count_lines(buf, n);

			if (c < nl) {
				nl -= c;
			} else {
				const char *p = buf;

				for (; nl; nl--)
					p = (const char *)memchr(p, '\n',
						n - (size_t)(p - buf)) + 1;
				*offset = at + (uint64_t)(p - buf);
			}
		}
		if (prefix > 0 && at < (uint64_t)prefix &&
		    at + n >= (uint64_t)prefix) {
			k = (size_t)((uint64_t)prefix - at);
			crc = ms_crc64(crc, buf, k);
			*head = crc_text(crc);
		}
		crc = ms_crc64(crc, buf + k, n - k);
		at += n;
	}
	if (!ferror(f))
		out = crc_text(crc);
	else
		g_clear_pointer(head, g_free);
	if (*offset >= (uint64_t)prefix)
		*offset = 0;
	fclose(f);
	g_free(buf);
	return out;
}

/*
 * The key an archive is stored under: its absolute path with symbolic
 * links resolved, or only made absolute when it does not exist (yet).
 */
char *store_archive_key(const char *path)
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

/* What mbox_files holds of a file: its state after its last read. */
struct mbox_old {
	int64_t size, mtime;
	char *crc;              /* NULL: no row */
};

static int mbox_old(struct ms_store *s, int64_t id, struct mbox_old *o)
{
	sqlite3_stmt *st = NULL;
	int rc = store_prepare(s, &st, "SELECT size, mtime, sha1 FROM "
			       "mbox_files WHERE inbox = ?", "l", id);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		o->size = sqlite3_column_int64(st, 0);
		o->mtime = sqlite3_column_int64(st, 1);
		o->crc = col_dup(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
	       store_db_error(s, rc, "read the mbox files");
}

/*
 * The file grew from `o`: where to read it from (*at: the last stored
 * message's From_ line, whose record is deleted with the file's state in
 * one transaction, so that a run reading it meanwhile reads it whole).
 * at->line stays 0 when the store changed since mail_load() or the last
 * message was oversized (its From_ line may not be where a read of the
 * whole file would find a message), and when the file was shorter
 * than MS_MBOX_SNIFF (its new bytes may decide its format).
 */
static int mbox_resume(struct mail_tee *t, const struct mbox_old *o,
		       struct ms_mail_after *at)
{
	struct ms_store *s = t->s;
	int64_t seq = 0, line = 0, sniffed = o->size >= MS_MBOX_SNIFF;
	int rc = store_txn_begin(s);

	/* a .gz of fewer bytes may have held as many: its messages did */
	if (rc == 0 && !sniffed)
		rc = store_query(s, "read the messages", &sniffed, "SELECT "
				 "coalesce(sum(size), 0) >= ? FROM messages "
				 "WHERE inbox = ?", "ll",
				 (int64_t)MS_MBOX_SNIFF, t->inbox);
	if (rc == 0 && sniffed)
		rc = store_query(s, "read the messages", &seq, "SELECT "
				 "coalesce(max(seq), 0) FROM messages WHERE "
				 "inbox = ?", "l", t->inbox);
	/* nothing stored since mail_load(), a message not cut short */
	if (rc == 0 && seq && seq == t->load_seq)
		rc = store_query(s, "read the messages", &line, "SELECT CASE "
				 "WHEN src_problems & ? THEN 0 ELSE line END "
				 "FROM messages WHERE seq = ?", "ll",
				 (int64_t)1 << MS_MAIL_P_OVERSIZED, seq);
	if (rc == 0 && line > 0)
		rc = store_query(s, "forget an mbox file", NULL, "DELETE FROM "
				 "mbox_files WHERE inbox = ? AND size = ? AND "
				 "sha1 = ?", "llt", t->inbox, o->size, o->crc);
	if (rc == 0 && line > 0 && sqlite3_changes(s->db) != 1)
		line = 0;
	if (rc == 0 && line)
		rc = store_query(s, "read the messages", &t->resume_size,
				 "SELECT size FROM messages WHERE seq = ?", "l",
				 seq);
	if (rc == 0 && line)
		rc = store_query(s, "read the messages", &t->resume_problems,
				 "SELECT src_problems FROM messages WHERE seq = "
				 "?", "l", seq);
	if (rc == 0)
		rc = store_txn_commit(s);
	else
		store_txn_rollback(s);
	t->resume_seq = rc == 0 && line ? seq : 0;
	at->line = rc == 0 ? (unsigned long)line : 0;
	at->rd = t->format == MS_MAIL_FMT_MBOXRD;
	return rc;
}

/* After a complete read of the file `path` that was `sb` before: its
 * state, unless it changed while being read. */
static int mbox_record(struct mail_tee *t, const char *path,
		       const GStatBuf *sb, const char *crc,
		       enum ms_mail_format format)
{
	struct ms_store *s = t->s;
	GStatBuf after;
	int rc;

	if (g_stat(path, &after) < 0 || after.st_size != sb->st_size ||
	    after.st_mtime != sb->st_mtime)
		return 1;
	rc = store_txn_begin(s);
	if (rc == 0)
		rc = tee_still_ours(t);
	if (rc == 0 && !t->lost)
		rc = store_query(s, "record an mbox file", NULL, "INSERT OR "
				 "REPLACE INTO mbox_files VALUES (?,?,?,?)",
				 "lllt", t->inbox, (int64_t)sb->st_size,
				 (int64_t)sb->st_mtime, crc);
	if (rc == 0 && !t->lost)
		rc = store_query(s, "record an mbox file", NULL, "UPDATE "
				 "inboxes SET format = ? WHERE id = ?", "tl",
				 ms_mail_format_name(format), t->inbox);
	if (rc == 0)
		return store_txn_commit(s);
	store_txn_rollback(s);
	return rc;
}

static int mbox_file(struct ms_store *s, const char *path, unsigned flags,
		     const struct ms_store_mail_mark *from,
		     struct ms_store_mail_mark *to,
		     ms_mail_parsed_fn fn,
		     void *data, struct ms_mail_read_result *result,
		     struct ms_diags *diags)
{
	struct mail_tee t = { 0 };
	struct mbox_old old = { 0 };
	struct ms_mail_after at = { 0 };
	GStatBuf sb;
	char *key, *crc = NULL, *head = NULL;
	int64_t last_line = 0;
	uint64_t offset = 0;
	bool same, grew;
	int e = -1, rc;

	/* a pipe (/dev/stdin, <(zcat ...)) can be read once: taking its
	 * checksum first left the reader nothing, so it read as an empty
	 * list.  Read straight through, and keep nothing of it. */
	if (g_stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		if (from)
			return ms_error_set(MS_ESTALE, "no saved state applies "
					    "to '%s'", path);
		return ms_mail_parse_archive(path, NULL, 0, flags, fn, data,
					     result, diags);
	}
	key = store_archive_key(path);
	tee_init(&t, s, key, path, flags, fn, data);
	t.mbox = true;
	t.from = from;
	g_array_append_val(t.epochs, e);
	rc = mail_load(&t);
	if (rc == 0 && t.inbox)
		rc = mbox_old(s, t.inbox, &old);
	/* the line a grown file resumes at, found while taking its CRC */
	if (rc == 0 && old.crc)
		rc = store_query(s, "read the messages", &last_line, "SELECT "
				 "coalesce(max(line), 0) FROM messages WHERE "
				 "seq = (SELECT max(seq) FROM messages WHERE "
				 "inbox = ?)", "l", t.inbox);
	if (rc == 0 && !(crc = file_crc(path, &sb, old.size, &head,
					(unsigned long)last_line, &offset))) {
		/* let the reader fail in its own words */
		rc = from ? ms_error_set(MS_ESTALE, "cannot read '%s'", path) :
		     ms_mail_parse_archive(path, NULL, 0, flags, fn, data,
					   result, diags);
		goto out;
	}
	same = rc == 0 && old.crc && old.size == (int64_t)sb.st_size &&
	       old.mtime == (int64_t)sb.st_mtime && !strcmp(old.crc, crc);
	grew = rc == 0 && !same && head && !strcmp(head, old.crc);
	if (rc == 0 && from && !same && !grew)
		rc = ms_error_set(MS_ESTALE, "'%s' changed since the saved "
				  "state", path);
	if (rc == 0)
		rc = mark_check(&t);
	if (t.bodies)
		flags |= MS_MAIL_PARSE_KEEP_BODY;
	if (rc == 0 && grew)
		rc = mbox_resume(&t, &old, &at);
	if (at.line && at.line == (unsigned long)last_line)
		at.offset = offset;
	if (rc == 0 && from && !same && !at.line)
		rc = ms_error_set(MS_ESTALE, "'%s' is read again whole", path);
	/* a resumed file's stored messages are handed out when its first
	 * message read is known (resume_first()) */
	if (rc == 0 && same)
		rc = replay_upto(&t, G_MAXINT);
	if (rc == 0 && same) {
		result->messages += t.replayed;
		result->bytes += t.replayed_bytes;
		result->format = t.format;
	}
	if (rc < 0 || same)
		goto done;
	if (t.inbox && !at.line) {
		/* changed since: read again, replacing its records */
		rc = drop_inbox(s, t.inbox, t.bodies, "drop a changed mbox "
				"file's messages");
		if (rc < 0)
			goto out;
		t.load_seq = t.last_seq = 0;
	}
	rc = ms_mail_parse_archive(path, &at, at.line ? 1 : 0, flags,
				   mail_tee_fn, &t, result, diags);
	if (rc == 0 && t.resume_seq)    /* the reader found no message */
		rc = ms_error_set(MS_ERROR, "'%s' has no message at line %lu",
				  path, at.line);
	result->messages += t.replayed - t.dropped;
	result->bytes += t.replayed_bytes - t.dropped_bytes;
	if (mail_flush(&t) < 0 && rc == 0)
		rc = t.error;
	/* remember the file only if it did not change while being read */
	if (rc == 0 && t.inbox)
		rc = mbox_record(&t, path, &sb, crc, result->format);
done:
	if (rc == 0)
		mark_after(&t, to, result);
	rc = MIN(rc, 0);
out:
	for (size_t k = 0; k < t.nr; k++)
		mrow_clear(&t.rows[k]);
	g_free(t.rows);
	g_string_free(t.buf, TRUE);
	g_array_free(t.epochs, TRUE);
	g_hash_table_destroy(t.heads);
	g_free(old.crc);
	g_free(crc);
	g_free(head);
	g_free(key);
	return rc;
}

/* A directory of mbox files (ms_mail_dir_walk), each through
 * mbox_file(). */
struct mbox_dir {
	struct ms_store *s;
	unsigned flags;
	ms_mail_parsed_fn fn;
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
		    ms_mail_parsed_fn fn,
		    void *data, struct ms_mail_read_result *result,
		    struct ms_diags *diags)
{
	struct mbox_dir d = { s, flags, fn, data, result, diags };

	return ms_mail_dir_walk(path, mbox_dir_file, &d, diags);
}

int ms_store_mail_parse_archive(struct ms_store *s, const char *path,
				unsigned flags,
				ms_mail_parsed_fn fn,
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
				     ms_mail_parsed_fn fn, void *data,
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
	key = store_archive_key(path);
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
		rc = store_txn_begin(s);
	if (rc == 0 && t.inbox)
		rc = tee_still_ours(&t);
	for (guint i = 0; i < all->len; i++) {
		int e = g_array_index(all, int, i);
		const char *head = g_hash_table_lookup(t.heads,
						       GINT_TO_POINTER(e));

		g_ptr_array_add(result->heads,
				g_strdup_printf("%d:%s", e, head));
		if (rc == 0 && t.inbox && !t.lost)
			rc = put_head(s, t.inbox, e, head);
	}
	if (t.inbox) {
		if (rc == 0)
			rc = store_txn_commit(s);
		else
			store_txn_rollback(s);
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
