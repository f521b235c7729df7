/*
 * mail-pipe.c - read and parse an archive on several threads: a reader
 * thread inflates and splits the archive, worker threads parse, and the
 * calling thread receives the parsed messages in archive order.  At most
 * QUEUE_MAX raw messages are in flight, so memory stays bounded however
 * big the archive is.
 */
#include "mail.h"
#include "workers.h"

#include <string.h>

#define QUEUE_MAX 128
#define MAX_WORKERS 4

struct job {
	char *raw;
	size_t len;
	struct ms_mail_source src;
	char *path, *commit;
	struct ms_mail *mail;
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
	GAsyncQueue *work;     /* jobs to parse (NULL: worker, stop) */
	GAsyncQueue *order;    /* the same jobs, in archive order */
	GMutex lock;
	GCond cond;
	unsigned in_flight;
	gint stop;
};

static int reader_cb(const char *raw, size_t len,
		     const struct ms_mail_source *src, void *data)
{
	struct pipe *p = data;
	struct job *j;

	g_mutex_lock(&p->lock);
	while (p->in_flight >= QUEUE_MAX && !g_atomic_int_get(&p->stop))
		g_cond_wait(&p->cond, &p->lock);
	p->in_flight++;
	g_mutex_unlock(&p->lock);
	if (g_atomic_int_get(&p->stop))
		return ms_error_set(MS_ERROR, "stopped");

	j = g_new0(struct job, 1);
	j->raw = g_memdup2(raw, len ? len : 1);
	j->len = len;
	j->src = *src;
	j->path = g_strdup(src->path);
	j->commit = g_strdup(src->commit);
	j->src.path = j->path;
	j->src.commit = j->commit;
	g_async_queue_push(p->order, j);
	g_async_queue_push(p->work, j);
	return 0;
}

static gpointer reader_main(gpointer data)
{
	struct pipe *p = data;
	struct job *end = g_new0(struct job, 1);

	end->end = true;
	end->rc = ms_mail_read(p->path, p->after, p->n_after, reader_cb, p,
			       p->result, p->diags);
	if (end->rc)
		end->error = g_strdup(ms_error_last());
	g_async_queue_push(p->order, end);
	return NULL;
}

static gpointer worker_main(gpointer data)
{
	struct pipe *p = data;
	struct job *j;

	while ((j = g_async_queue_pop(p->work)) != (struct job *)p) {
		struct ms_mail *m = NULL;
		if (!g_atomic_int_get(&p->stop))
			m = ms_mail_parse(j->raw, j->len, j->src.problems,
					  p->flags);
		g_free(j->raw);
		j->raw = NULL;
		g_mutex_lock(&p->lock);
		j->mail = m;
		j->done = true;
		g_cond_broadcast(&p->cond);
		g_mutex_unlock(&p->lock);
	}
	return NULL;
}

static void job_free(struct job *j)
{
	ms_mail_free(j->mail);
	g_free(j->raw);
	g_free(j->path);
	g_free(j->commit);
	g_free(j->error);
	g_free(j);
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
		struct job *j = g_async_queue_pop(p.order);
		if (j->end) {
			if (j->rc && !rc) {
				rc = j->rc;
				error = g_strdup(j->error);
			}
			job_free(j);
			break;
		}
		g_mutex_lock(&p.lock);
		while (!j->done)
			g_cond_wait(&p.cond, &p.lock);
		p.in_flight--;
		g_cond_broadcast(&p.cond);
		g_mutex_unlock(&p.lock);
		if (!rc && j->mail) {
			struct ms_mail *m = j->mail;
			j->mail = NULL;
			rc = fn(m, &j->src, data);
			if (rc) {
				error = g_strdup(ms_error_last());
				g_atomic_int_set(&p.stop, 1);
				g_mutex_lock(&p.lock);
				g_cond_broadcast(&p.cond);
				g_mutex_unlock(&p.lock);
			}
		}
		job_free(j);
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
