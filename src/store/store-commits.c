/*
 * store-commits.c - the commits of the incremental store (store.h):
 * records, and the cached history walk.
 *
 * A cached walk has three steps:
 *
 *  1. Order.  The commits the walk will deliver, in the order
 *     ms_history_walk() gives them (libgit2's revwalk with GIT_SORT_TIME,
 *     commits of equal time by id), computed from the committer times
 *     and parents the store holds; only commits it lacks have their
 *     header read from git.  As libgit2 1.5 does, limit_list() walks the
 *     graph with a list kept in date order, then every commit goes
 *     through a binary heap keyed on the date and then the id, so the
 *     order is total and any tip's order restricted to an older tip's
 *     commits is that tip's order.  When a
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
 */
#include "store-internal.h"
#include "git-graph.h"
#include "workers.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DELIVER_BATCH 256

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
	rc = store_txn_begin(s);
	if (rc < 0) {
		w->error = rc;
		goto out;
	}
	for (k = 0; k < w->nr; k++) {
		struct row *r = &w->rows[k];

		rc = store_prepare(s, &st, NULL, "tiiltttlittlitt", r->id,
				   MS_STORE_COMMIT_VERSION, r->incomplete,
				   r->ctime, r->parents, r->aname, r->aemail,
				   r->atime, r->aoff, r->cname, r->cemail,
				   r->ctime2, r->coff, r->trailers, r->paths);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		seq = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
		if (rc == SQLITE_ROW)
			rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			w->error = store_db_error(s, rc, "write a commit");
			store_txn_rollback(s);
			goto out;
		}
		if (w->written)
			w->written(r->id, seq, w->data);
	}
	rc = store_txn_commit(s);
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
	store_encode_trailers(w->buf, c);
	r->trailers = g_strdup(w->buf->str);
	store_encode_paths(w->buf, c);
	r->paths = g_strdup(w->buf->str);
	if (w->nr == MS_STORE_BATCH)
		return writer_flush(w);
	return 0;
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
	bool parsed, seen, resolved;
	unsigned char own_parents[NODE_PARENTS * RAWSZ];
	struct node *own_pnodes[NODE_PARENTS];
};

struct graph {
	GHashTable *nodes;      /* id -> struct node *, each in `slab` */
	struct slab slab;
	struct ms_git_graph *git;
	const char *gitdir;
};

static void node_set_parents(struct node *n, unsigned char *parents)
{
	if (n->parents != n->own_parents)
		g_free(n->parents);
	n->parents = parents;
}

static void graph_init(struct graph *g, const char *gitdir)
{
	g->nodes = g_hash_table_new(ms_id_hash, ms_id_equal);
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
 * The header a row of (seq, id, version, incomplete, ctime, parents)
 * gives node n (of the row's id).  A record of the current version that
 * is complete gives its rowid; others keep 0 (extract again) but still
 * lend their header to the ordering.  False for a damaged header (it is
 * read from git instead).
 */
static bool node_from_row(struct node *n, sqlite3_stmt *st)
{
	const char *par = (const char *)sqlite3_column_text(st, 5);
	int plen = sqlite3_column_bytes(st, 5);
	unsigned k;

	n->time = sqlite3_column_int64(st, 4);
	n->nr_parents = (unsigned)((plen + 1) / (2 * RAWSZ + 1));
	node_set_parents(n, n->nr_parents <= NODE_PARENTS ? n->own_parents :
			 g_malloc((size_t)n->nr_parents * RAWSZ));
	for (k = 0; k < n->nr_parents; k++)
		if (!ms_id_unhex(par + k * (2 * RAWSZ + 1), 2 * RAWSZ,
				n->parents + k * RAWSZ) ||
		    (k && par[k * (2 * RAWSZ + 1) - 1] != ' '))
			break;
	/* ids of 40 digits, one space between: anything else (a truncated
	 * or altered column) is a damaged header */
	if (k < n->nr_parents ||
	    (plen && (size_t)(plen + 1) % (2 * RAWSZ + 1))) {
		node_set_parents(n, NULL);
		n->nr_parents = 0;
		return false;
	}
	/* a root by the store's word is checked with git: a cleared column
	 * would silently end the history here */
	n->parsed = n->nr_parents > 0;
	if (sqlite3_column_int(st, 2) == MS_STORE_COMMIT_VERSION &&
	    sqlite3_column_int(st, 3) == 0)
		n->rowid = sqlite3_column_int64(st, 0);
	return true;
}

/* Load every record's header into the graph (node_from_row()). */
static int graph_load(struct graph *g, struct ms_store *s, size_t *nr)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*nr = 0;
	/* one read transaction, not one lock round trip per statement */
	rc = store_exec(s, "BEGIN", "read the commits");
	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, "SELECT seq, id, version, incomplete,"
				" ctime, parents FROM commits INDEXED BY "
				"commits_graph", -1, &st, NULL);
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		const char *id;
		unsigned char raw[RAWSZ];
		int idlen;

		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		id = (const char *)sqlite3_column_text(st, 1);
		idlen = sqlite3_column_bytes(st, 1);
		if (!id || !ms_id_unhex(id, (size_t)idlen, raw))
			continue;
		if (node_from_row(graph_node(g, raw), st))
			++*nr;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rc = store_db_error(s, rc, "read the commits");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return store_exec(s, "COMMIT", "read the commits");
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
		/* the store called it a root and git does not: its record
		 * is damaged, extract it again */
		if (n->nr_parents)
			n->rowid = 0;
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

/* git_commit_list_time_cmp(), with ties settled by id: the total order
 * ms_history_walk() delivers in (newest first, then by id). */
static int time_cmp(const struct node *a, const struct node *b)
{
	if (a->time != b->time)
		return a->time < b->time ? 1 : -1;
	return memcmp(a->id, b->id, RAWSZ);
}

static int node_order(const void *pa, const void *pb)
{
	return time_cmp(*(struct node *const *)pa, *(struct node *const *)pb);
}

/*
 * The order of libgit2 1.5's revwalk with GIT_SORT_TIME from `start`
 * (prepare_walk(), limit_list(), revwalk_next_timesort()), ties by id as
 * ms_history_walk() settles them, into `order` (empty): every commit
 * `start` reaches, sorted by time_cmp().  That order is total, so the
 * sort gives what libgit2's priority queue pops.
 */
static int graph_order(struct graph *g, struct node *start, GPtrArray *order)
{
	int rc = graph_parse(g, start);

	start->seen = true;
	g_ptr_array_add(order, start);
	for (guint i = 0; rc == 0 && i < order->len; i++) {
		struct node *c = order->pdata[i];

		for (unsigned k = 0; rc == 0 && k < c->nr_parents; k++) {
			struct node *p = c->pnodes[k];

			rc = graph_parse(g, p);
			if (rc == 0 && !p->seen) {
				p->seen = true;
				g_ptr_array_add(order, p);
			}
		}
	}
	g_ptr_array_sort(order, node_order);
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
	return rc == SQLITE_DONE ? 0 : store_db_error(s, rc, "read a commit");
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
	rc = j.p && store_decode_trailers(&j, chunk, it->trailers) ? 0 : -1;
	/* a store file may come from anyone: git writes offsets of at most
	 * +-14:59, and nothing else is a record of ours */
	if (abs(it->c.author.offset) > 24 * 60 ||
	    abs(it->c.committer.offset) > 24 * 60)
		rc = -1;
	j.p = (const char *)sqlite3_column_text(st, 13);
	j.end = j.p + sqlite3_column_bytes(st, 13);
	if (rc == 0 && !(j.p && store_decode_paths(&j, chunk, it->paths)))
		rc = -1;
	if (rc < 0) {
		s->damaged = true;
		return ms_error_set(MS_ERROR, "store '%s' is damaged (commit "
				    "%s has an unreadable record); it was "
				    "moved aside: run again to rebuild it",
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
		   const struct ms_walk_opts *opts,
		   const struct ms_store_prev_walk *prev,
		   struct ms_walk_stats *st)
{
	struct deliver d = { 0 };
	struct cursor cur = { s->by_rowid, 0, false };
	struct item *items;
	struct slice *slices;
	GStringChunk *chunk;
	GString *buf;
	int nr = opts->nr_threads > 0 ? opts->nr_threads :
		(int)ms_workers();
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
		rc = store_exec(s, "BEGIN", "read the commits");
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
				if (prev && prev->hidden)
					prev->hidden(nd->id, nd->time,
						     prev->data);
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
	const struct ms_store_prev_walk *prev;  /* its hidden(), or NULL */
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
		unsigned char raw[RAWSZ];

		t->st.merges++;
		if (t->prev && t->prev->hidden &&
		    ms_id_unhex(c->id, strlen(c->id), raw))
			t->prev->hidden(raw, c->committer.time,
					t->prev->data);
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

	rc = store_prepare(s, &st, "SELECT commit_id FROM refs WHERE rev = ?",
			   "t", rev);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		same = !g_strcmp0((const char *)sqlite3_column_text(st, 0),
				  id);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, rc, "read the refs");
	if (same)
		return 0;
	rc = store_txn_begin(s);
	if (rc == 0)
		rc = store_query(s, "write the refs", NULL, "INSERT OR REPLACE "
				 "INTO refs VALUES (?, ?, ?)", "ttl", rev, id,
				 (int64_t)time(NULL));
	return rc < 0 ? rc : store_txn_commit(s);
}

/* ms_history_walk() writing every commit to the store on the way. */
static int tee_walk(struct ms_store *s, const char *gitdir,
		    const struct ms_walk_opts *opts,
		    const struct ms_store_prev_walk *prev,
		    struct ms_walk_stats *stats, struct ms_diags *diags)
{
	struct ms_walk_opts inner = *opts;
	struct ms_walk_stats ist = { 0 };
	struct ms_diags idiags = MS_DIAGS_INIT;
	struct tee t = { 0 };
	int rc, rc2;

	writer_init(&t.w, s);
	t.user = opts;
	t.prev = prev;
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

	if (ms_id_unhex(id, strlen(id), raw)) {
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

/*
 * Keep of `order` only what opts->head() asks for: the commits up to the
 * last one of the head it wants delivered.
 */
static void cut_head(GPtrArray *order, const struct ms_walk_opts *opts)
{
	GByteArray *ids = g_byte_array_new();
	GArray *at = g_array_new(FALSE, FALSE, sizeof(guint));
	size_t k;

	for (guint i = 0; i < order->len; i++) {
		const struct node *n = order->pdata[i];

		/* what deliver() skips is no part of the order handed on */
		if (!n->rowid || (n->nr_parents > 1 &&
				  !(opts->flags & MS_WALK_MERGES)))
			continue;
		g_byte_array_append(ids, n->id, RAWSZ);
		g_array_append_val(at, i);
	}
	k = opts->head(ids->data, at->len, opts->data);
	if (k < at->len)
		g_ptr_array_set_size(order, k ? g_array_index(at, guint,
							      k - 1) + 1 : 0);
	g_byte_array_free(ids, TRUE);
	g_array_free(at, TRUE);
}

/*
 * Read from git, into the store, the commits of `nodes` without a current
 * record (extracted() gives them their rowid).
 */
static int extract_missing(struct ms_store *s, struct graph *g,
			   const char *gitdir, GPtrArray *nodes,
			   const struct ms_walk_opts *opts)
{
	GPtrArray *missing = g_ptr_array_new_with_free_func(g_free);
	int rc = 0;

	for (guint i = 0; i < nodes->len; i++) {
		struct node *n = nodes->pdata[i];
		char *hex;

		if (n->rowid)
			continue;
		hex = g_malloc(2 * RAWSZ + 1);
		ms_hex(n->id, RAWSZ, hex);
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
	}
	g_ptr_array_free(missing, TRUE);
	return rc;
}

static int incremental_walk(struct ms_store *s, struct graph *g,
			    const char *gitdir, const char *start_hex,
			    const struct ms_walk_opts *opts,
			    const struct ms_store_prev_walk *prev,
			    struct ms_walk_stats *stats,
			    struct ms_diags *diags, bool *fallback)
{
	GPtrArray *order = g_ptr_array_new();
	struct ms_walk_stats st = { 0 };
	unsigned char raw[RAWSZ];
	int rc;

	*fallback = false;
	ms_id_unhex(start_hex, strlen(start_hex), raw);
	rc = graph_order(g, graph_node(g, raw), order);
	if (rc < 0) {
		/* let the real revwalk fail or warn in its own words */
		*fallback = true;
		ms_error_clear();
		goto out;
	}
	rc = extract_missing(s, g, gitdir, order, opts);
	if (rc < 0)
		goto out;
	if (opts->head)
		cut_head(order, opts);
	rc = deliver(s, order, opts, prev, &st);
	add_incomplete_diag(diags, st.incomplete);
	if (stats)
		*stats = st;
out:
	g_ptr_array_free(order, TRUE);
	return rc;
}

/* The walk of ms_store_history_walk(), prev's hidden() told of merges. */
static int store_walk(struct ms_store *s, const char *gitdir,
		      const struct ms_walk_opts *opts,
		      const struct ms_store_prev_walk *prev,
		      struct ms_walk_stats *stats, struct ms_diags *diags)
{
	const char *rev = opts->rev ? opts->rev : "HEAD";
	char start[41];
	struct graph g;
	size_t known = 0;
	bool fallback = false;
	int rc;

	/* a shallow clone is walked, never stored: after git fetch
	 * --unshallow the store would not know the older commits exist */
	if (!s || opts->ids || ms_history_is_shallow(gitdir))
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
		rc = store_rebuild(s, diags, why);
		g_free(why);
	}
	if (rc < 0)
		goto out;
	if (known)
		rc = incremental_walk(s, &g, gitdir, start, opts, prev, stats,
				      diags, &fallback);
	if (!known || fallback)
		rc = tee_walk(s, gitdir, opts, prev, stats, diags);
	if (rc == 0)
		rc = record_ref(s, rev, start);
out:
	graph_release(&g);
	return rc;
}

int ms_store_history_walk(struct ms_store *s, const char *gitdir,
			  const struct ms_walk_opts *opts,
			  struct ms_walk_stats *stats,
			  struct ms_diags *diags)
{
	return store_walk(s, gitdir, opts, NULL, stats, diags);
}

/* ---- a walk after an earlier one whose order the caller kept ---- */

struct pwalk {
	struct ms_store *s;
	struct graph g;
	const struct ms_store_prev_walk *prev;
	const struct ms_walk_opts *opts;
	GHashTable *known;      /* raw id -> prev's index + 1, or 0: hidden */
	sqlite3_stmt *by_id;
	GPtrArray *fresh;       /* struct node *: the commits prev lacks */
};

/* n's header and rowid from its record, when the store has one. */
static int node_lookup(struct pwalk *w, struct node *n)
{
	char hex[2 * RAWSZ + 1];
	int rc;

	ms_hex(n->id, RAWSZ, hex);
	sqlite3_reset(w->by_id);
	sqlite3_bind_text(w->by_id, 1, hex, 2 * RAWSZ, SQLITE_TRANSIENT);
	rc = sqlite3_step(w->by_id);
	if (rc == SQLITE_ROW)
		node_from_row(n, w->by_id);
	else if (rc != SQLITE_DONE)
		return store_db_error(w->s, rc, "read a commit");
	sqlite3_reset(w->by_id);
	return 0;
}

/*
 * The commits of `start`'s history that prev's walk did not have: the
 * walk from `start` stops at every commit prev has (its history is all
 * prev's, as prev came from one tip).  0: found, and prev's tip is among
 * them (so all of prev's history is in start's); 1: not so, or more than
 * `cap` (the whole graph is cheaper then); negative: an error.
 */
static int find_fresh(struct pwalk *w, struct node *start,
		      const unsigned char *old_tip, size_t cap)
{
	GPtrArray *stack = g_ptr_array_new();
	bool reached = false;
	int rc = 0;

	start->seen = true;
	g_ptr_array_add(stack, start);
	while (stack->len && rc == 0) {
		struct node *n = g_ptr_array_steal_index_fast(stack,
							      stack->len - 1);

		if (!memcmp(n->id, old_tip, RAWSZ))
			reached = true;
		if (g_hash_table_contains(w->known, n->id))
			continue;
		if (w->fresh->len >= cap) {
			rc = 1;
			break;
		}
		rc = node_lookup(w, n);
		if (rc == 0)
			rc = graph_parse(&w->g, n);
		if (rc < 0)
			break;
		g_ptr_array_add(w->fresh, n);
		for (unsigned k = 0; k < n->nr_parents; k++) {
			struct node *p = n->pnodes[k];

			if (!p->seen) {
				p->seen = true;
				g_ptr_array_add(stack, p);
			}
		}
	}
	g_ptr_array_free(stack, TRUE);
	return rc == 0 && !reached ? 1 : rc;
}

/* prev's commit i against node n, in walk order (time_cmp()). */
static int prev_cmp(const struct ms_store_prev_walk *prev, size_t i,
		    const struct node *n)
{
	if (prev->times[i] != n->time)
		return prev->times[i] < n->time ? 1 : -1;
	return memcmp(prev->ids + RAWSZ * i, n->id, RAWSZ);
}

/* prev's commits are in walk order, each once. */
static bool prev_sorted(const struct ms_store_prev_walk *prev)
{
	for (size_t i = 1; i < prev->nr; i++) {
		int64_t a = prev->times[i - 1], b = prev->times[i];

		if (a < b || (a == b && memcmp(prev->ids + RAWSZ * (i - 1),
					       prev->ids + RAWSZ * i,
					       RAWSZ) >= 0))
			return false;
	}
	return true;
}

/*
 * The new walk order, prev's commits and the fresh ones merged, into
 * `order` up to the cut opts->head() chooses, prev's commits in it given
 * their records.  1 when prev's commits in it lack a current record or
 * are more than `cap`.
 */
static int merge_order(struct pwalk *w, GPtrArray *order, size_t cap)
{
	const struct ms_store_prev_walk *prev = w->prev;
	GPtrArray *fresh = w->fresh;
	GByteArray *ids = g_byte_array_new();
	GArray *at = g_array_new(FALSE, FALSE, sizeof(size_t));
	GArray *src = g_array_new(FALSE, FALSE, sizeof(gssize));
	size_t i = 0, j = 0, k, cut, old = 0;
	int rc = 0;

	/* src: prev's index, or -1 - fresh's index */
	while (i < prev->nr || j < fresh->len) {
		gssize x;
		const unsigned char *id;

		if (j == fresh->len ||
		    (i < prev->nr && prev_cmp(prev, i, fresh->pdata[j]) < 0)) {
			x = (gssize)i;
			id = prev->ids + RAWSZ * i++;
		} else {
			const struct node *n = fresh->pdata[j];

			x = -1 - (gssize)j++;
			/* what deliver() skips is no part of the order
			 * handed on */
			id = !n->rowid || (n->nr_parents > 1 &&
					   !(w->opts->flags & MS_WALK_MERGES))
				? NULL : n->id;
		}
		if (id) {
			size_t pos = src->len;

			g_byte_array_append(ids, id, RAWSZ);
			g_array_append_val(at, pos);
		}
		g_array_append_val(src, x);
	}
	k = w->opts->head(ids->data, at->len, w->opts->data);
	cut = k ? g_array_index(at, size_t, MIN(k, at->len) - 1) + 1 : 0;
	for (size_t m = 0; m < cut; m++)
		old += g_array_index(src, gssize, m) >= 0;
	if (old > cap)
		rc = 1;
	for (size_t m = 0; m < cut && rc == 0; m++) {
		gssize x = g_array_index(src, gssize, m);
		struct node *n;

		if (x < 0) {
			g_ptr_array_add(order, fresh->pdata[-1 - x]);
			continue;
		}
		n = graph_node(&w->g, prev->ids + RAWSZ * (size_t)x);
		rc = node_lookup(w, n);
		if (rc == 0 && (!n->rowid || n->time != prev->times[x]))
			rc = 1;
		g_ptr_array_add(order, n);
	}
	g_byte_array_free(ids, TRUE);
	g_array_free(at, TRUE);
	g_array_free(src, TRUE);
	return rc;
}

/*
 * The walk from start_hex after prev's: 0 or fn's nonzero value; 1 from
 * *fallback (then nothing was delivered: walk the whole graph).
 */
static int prev_walk(struct pwalk *w, const char *gitdir,
		     const char *start_hex, struct ms_diags *diags,
		     bool *fallback)
{
	const struct ms_store_prev_walk *prev = w->prev;
	unsigned char raw[RAWSZ], old_tip[RAWSZ];
	GPtrArray *order = g_ptr_array_new();
	struct ms_walk_stats st = { 0 };
	size_t cap = MAX(prev->nr / 8, 1024);
	int rc = 0;

	*fallback = true;
	if (!ms_id_unhex(prev->tip, strlen(prev->tip), old_tip) ||
	    !ms_id_unhex(start_hex, strlen(start_hex), raw) || !prev_sorted(prev))
		goto out;
	w->known = g_hash_table_new(ms_id_hash, ms_id_equal);
	for (size_t i = 0; i < prev->nr; i++)
		g_hash_table_insert(w->known, (gpointer)(prev->ids + RAWSZ * i),
				    GSIZE_TO_POINTER(i + 1));
	for (size_t i = 0; i < prev->nr_hidden; i++)
		g_hash_table_insert(w->known,
				    (gpointer)(prev->hidden_ids + RAWSZ * i),
				    GSIZE_TO_POINTER(0));
	rc = sqlite3_prepare_v2(w->s->db, "SELECT seq, id, version, "
				"incomplete, ctime, parents FROM commits "
				"WHERE id = ?", -1, &w->by_id, NULL);
	if (rc != SQLITE_OK)
		goto out;
	/* one read transaction for the lookups */
	if (store_exec(w->s, "BEGIN", "read the commits") < 0)
		goto out;
	rc = find_fresh(w, graph_node(&w->g, raw), old_tip, cap);
	sqlite3_exec(w->s->db, "COMMIT", NULL, NULL, NULL);
	if (rc != 0)
		goto out;
	rc = extract_missing(w->s, &w->g, gitdir, w->fresh, w->opts);
	if (rc < 0)
		goto out;
	qsort(w->fresh->pdata, w->fresh->len, sizeof(gpointer), node_order);
	if (store_exec(w->s, "BEGIN", "read the commits") < 0)
		goto out;
	rc = merge_order(w, order, cap);
	sqlite3_exec(w->s->db, "COMMIT", NULL, NULL, NULL);
	if (rc != 0)
		goto out;
	*fallback = false;
	rc = deliver(w->s, order, w->opts, prev, &st);
	add_incomplete_diag(diags, st.incomplete);
out:
	g_ptr_array_free(order, TRUE);
	if (*fallback) {
		ms_error_clear();
		rc = 1;
	}
	return rc;
}

int ms_store_history_walk_prev(struct ms_store *s, const char *gitdir,
			       const struct ms_walk_opts *opts,
			       const struct ms_store_prev_walk *prev,
			       struct ms_diags *diags)
{
	struct pwalk w = { 0 };
	char start[41];
	bool fallback = true;
	int rc;

	if (!s || opts->ids || !opts->head || !prev || !prev->tip ||
	    !prev->nr || ms_history_is_shallow(gitdir))
		return store_walk(s, gitdir, opts, prev, NULL, diags);
	rc = ms_history_resolve(gitdir, opts->rev, start, NULL);
	if (rc < 0)
		return rc;
	w.s = s;
	w.prev = prev;
	w.opts = opts;
	w.fresh = g_ptr_array_new();
	graph_init(&w.g, gitdir);
	rc = prev_walk(&w, gitdir, start, diags, &fallback);
	if (w.by_id)
		sqlite3_finalize(w.by_id);
	g_clear_pointer(&w.known, g_hash_table_destroy);
	g_ptr_array_free(w.fresh, TRUE);
	graph_release(&w.g);
	if (fallback)
		return store_walk(s, gitdir, opts, prev, NULL, diags);
	if (rc == 0)
		rc = record_ref(s, opts->rev ? opts->rev : "HEAD", start);
	return rc;
}

/* ---- the walk of git log --since ---- */

int ms_store_since_walk(struct ms_store *s, const char *gitdir,
			const char *start_hex, int64_t max_age,
			const struct ms_walk_opts *opts,
			struct ms_walk_stats *stats)
{
	struct pwalk w = { .s = s };
	GPtrArray *order = g_ptr_array_new();
	unsigned char raw[RAWSZ];
	struct node *list = NULL, *n;
	int rc;

	*stats = (struct ms_walk_stats){ 0 };
	graph_init(&w.g, gitdir);
	if (!ms_id_unhex(start_hex, strlen(start_hex), raw)) {
		rc = ms_error_set(MS_EBADREV, "'%s' is no commit id",
				  start_hex);
		goto out;
	}
	rc = sqlite3_prepare_v2(s->db, "SELECT seq, id, version, "
				"incomplete, ctime, parents FROM commits "
				"WHERE id = ?", -1, &w.by_id, NULL);
	rc = rc == SQLITE_OK ? store_exec(s, "BEGIN", "read the commits") :
	     store_db_error(s, rc, "read the commits");
	if (rc < 0)
		goto out;
	/* get_revision_1() without limit_list(): a commit older than
	 * max_age is neither shown nor expanded; parents go in by date,
	 * after those of the same date */
	n = graph_node(&w.g, raw);
	n->seen = true;
	rc = node_lookup(&w, n);
	if (rc == 0)
		rc = graph_parse(&w.g, n);
	for (list = n; rc == 0 && list;) {
		n = list;
		list = n->next;
		if (n->time < max_age)
			continue;
		g_ptr_array_add(order, n);
		for (unsigned k = 0; k < n->nr_parents && rc == 0; k++) {
			struct node *p = n->pnodes[k];

			if (p->seen)
				continue;
			p->seen = true;
			rc = node_lookup(&w, p);
			if (rc == 0)
				rc = graph_parse(&w.g, p);
			insert_by_date(&list, p);
		}
	}
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc == 0)
		rc = extract_missing(s, &w.g, gitdir, order, opts);
	if (rc == 0)
		rc = deliver(s, order, opts, NULL, stats);
out:
	if (w.by_id)
		sqlite3_finalize(w.by_id);
	graph_release(&w.g);
	g_ptr_array_free(order, TRUE);
	return rc;
}
