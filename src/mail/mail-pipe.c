/*
 * mail-pipe.c - read and parse an archive on several threads: a reader
 * thread inflates and splits the archive, worker threads parse, and the
 * calling thread receives the parsed messages in archive order.
 *
 * Messages travel in batches (up to BATCH_JOBS messages or BATCH_BYTES
 * bytes): a queue operation, a wake-up and a lock per message cost more
 * than parsing a short reply, and at 7 futex calls per message the
 * threads spent their time waking each other.  At most BATCHES_MAX
 * batches are in flight, so memory stays bounded however big the
 * archive is.  A plain mbox is mapped (src->map): its messages are
 * parsed where they lie, and handed back (ms_mapped_done) in order.
 */
#include "mail.h"
#include "workers.h"

#include <string.h>

#define BATCH_JOBS 32
#define BATCH_BYTES (1u << 20)
#define BATCHES_MAX 8
#define MAX_WORKERS 4

struct job {
	char *raw;             /* owned unless it lies in `map` */
	size_t len;
	struct ms_mapped *map; /* a reference to the mapped mbox */
	struct ms_mail_source src;
	char *path, *commit;
	struct ms_mail *mail;
};

struct batch {
	struct job jobs[BATCH_JOBS];
	unsigned n;
	size_t bytes;
	bool done;
	bool end;              /* the reader's last word */
	int rc;                /* for the end marker: the read's result */
	char *error;           /* and its message */
};

struct pipe {
	const char *path;
	const struct ms_mail_after *after;
	size_t n_after;
	unsigned flags;
	struct ms_mail_read_result *result;
	struct ms_diags *diags;
	struct batch *filling; /* the reader's batch being filled */
	GAsyncQueue *work;     /* batches to parse (the pipe: worker, stop) */
	GAsyncQueue *order;    /* the same batches, in archive order */
	GMutex lock;
	GCond cond;
	unsigned in_flight;
	gint stop;
};

/* Hand the batch being filled to the workers (the reader's thread). */
static int flush(struct pipe *p)
{
	struct batch *b = p->filling;

	if (!b)
		return 0;
	p->filling = NULL;
	g_mutex_lock(&p->lock);
	while (p->in_flight >= BATCHES_MAX && !g_atomic_int_get(&p->stop))
		g_cond_wait(&p->cond, &p->lock);
	p->in_flight++;
	g_mutex_unlock(&p->lock);
	/* even when stopping the batch goes on: the caller frees it */
	g_async_queue_push(p->order, b);
	g_async_queue_push(p->work, b);
	if (g_atomic_int_get(&p->stop))
		return ms_error_set(MS_ERROR, "stopped");
	return 0;
}

static int reader_cb(const char *raw, size_t len,
		     const struct ms_mail_source *src, void *data)
{
	struct pipe *p = data;
	struct batch *b;
	struct job *j;

	if (!p->filling)
		p->filling = g_new0(struct batch, 1);
	b = p->filling;
	j = &b->jobs[b->n++];
	if (src->map) {        /* read in place: no copy */
		j->map = ms_mapped_ref(src->map);
		j->raw = (char *)raw;
	} else {
		j->raw = g_memdup2(raw, len ? len : 1);
		b->bytes += len;
	}
	j->len = len;
	j->src = *src;
	j->src.map = NULL;
	j->path = g_strdup(src->path);
	j->commit = g_strdup(src->commit);
	j->src.path = j->path;
	j->src.commit = j->commit;
	if (b->n == BATCH_JOBS || b->bytes >= BATCH_BYTES)
		return flush(p);
	return 0;
}

static gpointer reader_main(gpointer data)
{
	struct pipe *p = data;
	struct batch *end = g_new0(struct batch, 1);

	end->end = true;
	end->rc = ms_mail_read(p->path, p->after, p->n_after, reader_cb, p,
			       p->result, p->diags);
	if (!end->rc)
		end->rc = flush(p);
	else
		(void)flush(p);
	if (end->rc)
		end->error = g_strdup(ms_error_last());
	g_async_queue_push(p->order, end);
	return NULL;
}

static gpointer worker_main(gpointer data)
{
	struct pipe *p = data;
	struct batch *b;

	while ((b = g_async_queue_pop(p->work)) != (struct batch *)p) {
		for (unsigned i = 0; i < b->n; i++) {
			struct job *j = &b->jobs[i];

			if (!g_atomic_int_get(&p->stop))
				j->mail = ms_mail_parse(j->raw, j->len,
							j->src.problems,
							p->flags);
			if (!j->map) {
				g_free(j->raw);
				j->raw = NULL;
			}
		}
		g_mutex_lock(&p->lock);
		b->done = true;
		g_cond_broadcast(&p->cond);
		g_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* Batches are freed in archive order: a mapping is done up to here. */
static void batch_free(struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		struct job *j = &b->jobs[i];

		ms_mail_free(j->mail);
		if (j->map) {
			ms_mapped_done(j->map, j->raw + j->len);
			ms_mapped_unref(j->map);
		} else {
			g_free(j->raw);
		}
		g_free(j->path);
		g_free(j->commit);
	}
	g_free(b->error);
	g_free(b);
}

/* Hand a parsed batch to `fn`, in order; the first failure stops all. */
static int deliver(struct pipe *p, struct batch *b, ms_mail_parsed_fn fn,
		   void *data, char **error)
{
	int rc = 0;

	for (unsigned i = 0; i < b->n && !rc; i++) {
		struct job *j = &b->jobs[i];
		struct ms_mail *m = j->mail;

		if (!m)
			continue;
		j->mail = NULL;
		if (j->map && ms_mapped_cut(j->map)) {
			/* parsed from the zeros that stand in for what the
			 * file lost */
			ms_mail_free(m);
			rc = ms_mbox_cut_error(j->path);
			break;
		}
		rc = fn(m, &j->src, data);
	}
	if (rc) {
		*error = g_strdup(ms_error_last());
		g_atomic_int_set(&p->stop, 1);
		g_mutex_lock(&p->lock);
		g_cond_broadcast(&p->cond);
		g_mutex_unlock(&p->lock);
	}
	return rc;
}

int ms_mail_parse_archive(const char *path, const struct ms_mail_after *after,
			  size_t n_after, unsigned flags, ms_mail_parsed_fn fn,
			  void *data, struct ms_mail_read_result *result,
			  struct ms_diags *diags)
{
	struct pipe p = { 0 };
	GThread *reader, *workers[MAX_WORKERS];
	unsigned n_workers = CLAMP(ms_workers(), 1, MAX_WORKERS);
	char *error = NULL;
	int rc = 0;

	p.path = path;
	p.after = after;
	p.n_after = n_after;
	p.flags = flags;
	p.result = result;
	p.diags = diags;
	p.work = g_async_queue_new();
	p.order = g_async_queue_new();
	g_mutex_init(&p.lock);
	g_cond_init(&p.cond);
	for (unsigned i = 0; i < n_workers; i++)
		workers[i] = g_thread_new("mail-parse", worker_main, &p);
	reader = g_thread_new("mail-reader", reader_main, &p);
	for (;;) {
		struct batch *b = g_async_queue_pop(p.order);
		if (b->end) {
			if (b->rc && !rc) {
				rc = b->rc;
				error = g_strdup(b->error);
			}
			batch_free(b);
			break;
		}
		g_mutex_lock(&p.lock);
		while (!b->done)
			g_cond_wait(&p.cond, &p.lock);
		p.in_flight--;
		g_cond_broadcast(&p.cond);
		g_mutex_unlock(&p.lock);
		if (!rc)
			rc = deliver(&p, b, fn, data, &error);
		batch_free(b);
	}
	g_thread_join(reader);
	for (unsigned i = 0; i < n_workers; i++)
		g_async_queue_push(p.work, &p);
	for (unsigned i = 0; i < n_workers; i++)
		g_thread_join(workers[i]);
	g_async_queue_unref(p.work);
	g_async_queue_unref(p.order);
	g_mutex_clear(&p.lock);
	g_cond_clear(&p.cond);
	if (rc)
		ms_error_set(rc, "%s", error);
	g_free(error);
	return rc;
}
