/*
 * mail-gunzip.c - the ISA-L adapter: gzip archives are inflated with
 * igzip, several times faster than zlib, on a thread of their own (see
 * gunzip.h), and ms_crc64() is ISA-L's CRC-64.
 *
 * Inflating the 72 MB rdma slice takes about 70 ms of CPU; done by the
 * reader itself it came before every split of the archive into messages,
 * and the reader, not the parse workers, set the pace.  Now the thread
 * inflates into PIECES buffers of PIECE bytes that go round between it
 * and the reader (two queues), so at most PIECES * PIECE bytes wait, and
 * the buffers, reused, are touched for the first time only once.
 */
#include "gunzip.h"
#include "mail.h"

#include <errno.h>
#include <isa-l/crc64.h>
#include <isa-l/igzip_lib.h>
#include <string.h>
#include <unistd.h>

#define PIECE (1u << 20)
#define PIECES 4
#define IN_SIZE (256u * 1024)

struct piece {
	char *data;
	size_t len;
	int end;               /* 0: more follows; 1: the end; -1: an error */
};

struct ms_gunzip {
	int fd;
	struct inflate_state st;
	uint8_t *in;
	bool in_eof;
	struct piece pieces[PIECES];
	GAsyncQueue *empty;    /* pieces for the thread to fill (or `g`: stop) */
	GAsyncQueue *full;     /* pieces for the reader, in order */
	GThread *thread;
	/* the reader's side */
	struct piece *cur;     /* being copied out, from `pos` */
	size_t pos;
	int ended;             /* 0; or 1 / -1 from the last piece */
};

static ssize_t read_fd(int fd, void *dst, size_t n)
{
	ssize_t k;

	do
		k = read(fd, dst, n);
	while (k < 0 && errno == EINTR);
	return k;
}

/*
 * The output of one isal_inflate() call into dst[0..n): the count, 0 at
 * the end, -1 on a read error or bad or truncated gzip data.  What the
 * failing call wrote is not counted.
 */
static ssize_t inflate_some(struct ms_gunzip *g, char *dst, size_t n)
{
	struct inflate_state *st = &g->st;

	for (;;) {
		uint32_t room = (uint32_t)MIN(n, (size_t)UINT32_MAX);
		int ret;

		if (st->avail_in == 0 && !g->in_eof) {
			ssize_t k = read_fd(g->fd, g->in, IN_SIZE);
			if (k < 0)
				return -1;
			g->in_eof = k == 0;
			st->next_in = g->in;
			st->avail_in = (uint32_t)k;
		}
		if (st->block_state == ISAL_BLOCK_FINISH) {
			/* another gzip member may follow (concatenated) */
			if (st->avail_in == 0 && g->in_eof)
				return 0;
			if (st->avail_in < 2 || st->next_in[0] != 0x1f ||
			    st->next_in[1] != 0x8b)
				return 0; /* trailing padding */
			uint8_t *next = st->next_in;
			uint32_t avail = st->avail_in;
			isal_inflate_reset(st);
			st->crc_flag = ISAL_GZIP;
			st->next_in = next;
			st->avail_in = avail;
		}
		st->next_out = (uint8_t *)dst;
		st->avail_out = room;
		ret = isal_inflate(st);
		if (ret < 0)
			return -1;
		if (st->avail_out < room)
			return (ssize_t)(room - st->avail_out);
		if (st->block_state != ISAL_BLOCK_FINISH && st->avail_in == 0 &&
		    g->in_eof)
			return -1; /* the archive ends inside a gzip stream */
	}
}

static gpointer inflater_main(gpointer data)
{
	struct ms_gunzip *g = data;
	struct piece *pc;

	while ((pc = g_async_queue_pop(g->empty)) != (struct piece *)g) {
		pc->len = 0;
		pc->end = 0;
		while (pc->len < PIECE && !pc->end) {
			ssize_t k = inflate_some(g, pc->data + pc->len,
						 PIECE - pc->len);
			if (k > 0)
				pc->len += (size_t)k;
			else
				pc->end = k < 0 ? -1 : 1;
		}
		g_async_queue_push(g->full, pc);
		if (pc->end)
			break;
	}
	return NULL;
}

struct ms_gunzip *ms_gunzip_start(int fd, const uint8_t *head, size_t n)
{
	struct ms_gunzip *g = g_new0(struct ms_gunzip, 1);

	g->fd = fd;
	g->in = g_malloc(MAX(IN_SIZE, n));
	memcpy(g->in, head, n);
	isal_inflate_init(&g->st);
	g->st.crc_flag = ISAL_GZIP;
	g->st.next_in = g->in;
	g->st.avail_in = (uint32_t)n;
	g->empty = g_async_queue_new();
	g->full = g_async_queue_new();
	for (int i = 0; i < PIECES; i++) {
		g->pieces[i].data = g_malloc(PIECE);
		g_async_queue_push(g->empty, &g->pieces[i]);
	}
	g->thread = g_thread_new("mail-gunzip", inflater_main, g);
	return g;
}

/* Copy what the current piece still holds into dst[0..n). */
static size_t take(struct ms_gunzip *g, char *dst, size_t n)
{
	struct piece *pc = g->cur;
	size_t k = MIN(n, pc->len - g->pos);

	memcpy(dst, pc->data + g->pos, k);
	g->pos += k;
	if (g->pos == pc->len) {        /* used up: back to the thread */
		g->cur = NULL;
		g->ended = pc->end;
		if (!pc->end)
			g_async_queue_push(g->empty, pc);
	}
	return k;
}

ssize_t ms_gunzip_read(struct ms_gunzip *g, char *dst, size_t n)
{
	size_t got = 0;

	while (got < n && !g->ended) {
		if (!g->cur) {
			/* wait only while nothing was copied */
			g->cur = got ? g_async_queue_try_pop(g->full)
				     : g_async_queue_pop(g->full);
			g->pos = 0;
			if (!g->cur)
				break;
		}
		got += take(g, dst + got, n - got);
	}
	if (got)
		return (ssize_t)got;
	return g->ended < 0 ? -1 : 0;
}

void ms_gunzip_free(struct ms_gunzip *g)
{
	if (!g)
		return;
	/* the thread stops at its next piece, or has stopped at the end */
	g_async_queue_push_front(g->empty, g);
	g_thread_join(g->thread);
	g_async_queue_unref(g->empty);
	g_async_queue_unref(g->full);
	for (int i = 0; i < PIECES; i++)
		g_free(g->pieces[i].data);
	g_free(g->in);
	g_free(g);
}

uint64_t ms_crc64(uint64_t crc, const void *data, size_t len)
{
	return crc64_ecma_refl(crc, data, len);
}
