/*
 * git-walk.c - the libgit2 adapter for history (history.h).
 *
 * Three kinds of threads: a revwalk thread that lists commit ids, worker
 * threads that read and parse each commit and diff its tree against its
 * first parent's (each worker has its own git_repository, since a handle
 * must not be shared between threads), and the calling thread, which
 * hands the finished commits to the caller in walk order.  Workers run at
 * most WINDOW commits ahead of the caller, so memory stays bounded.
 *
 * Trees are read from the packs by our own reader (pack.h): each pack
 * mapped once, and one delta-base cache that all workers share; see
 * open_packs().  Commits, loose objects and whatever the reader cannot
 * read go through libgit2.
 *
 * Commits are parsed from their raw object rather than with
 * git_commit_lookup(): libgit2 refuses a commit whose author line is
 * malformed, and odd data must never stop the walk.
 */
#include "history.h"
#include "git-common.h"
#include "bytes.h"
#include "pack.h"
#include "person.h"
#include "utf8.h"
#include "workers.h"

#include <git2.h>
#include <glib.h>
#include <string.h>

#define WINDOW 4096
#define WALK_BATCH 256
#define CHUNK 32

struct item {
	struct ms_commit c;
	bool skip;              /* a merge we do not deliver, or unreadable */
	GStringChunk *chunk;    /* every string of the commit */
	GPtrArray *paths;
	GPtrArray *parents;
	GArray *trailers;
};

struct walk;

struct worker {
	struct walk *w;
	git_repository *repo;
	git_odb *odb;
	struct ms_pack_reader *pr;   /* tree reads from the packs; or NULL */
	GThread *thread;
	GString *prefix;
	GHashTable *cur, *prev;      /* raw trees: this commit's, the last */
	size_t incomplete;
	size_t merges;
	/* commit -> tree of the commits of the current chunk */
	git_oid known_commit[CHUNK], known_tree[CHUNK];
	size_t nr_known;
};

struct walk {
	const struct ms_walk_opts *opts;
	git_repository *repo;        /* the revwalk thread's */
	git_revwalk *revwalk;
	struct ms_packs *packs;      /* the packs, one cache; or NULL */

	GMutex lock;
	GCond work_cond;             /* workers wait for ids or room */
	GCond done_cond;             /* the caller waits for results */
	GArray *oids;                /* git_oid, in walk order */
	GPtrArray *results;          /* struct item *, NULL until done */
	size_t next;                 /* next index a worker takes */
	size_t consumed;             /* next index the caller delivers */
	bool walk_done;
	bool stop;
	char *walk_error;            /* why the revwalk ended early */
	bool shallow;                /* a shallow clone: listed by hand */
	git_oid start;               /* the commit the walk starts from */
};

static void item_free(struct item *it)
{
	if (!it)
		return;
	g_clear_pointer(&it->chunk, g_string_chunk_free);
	if (it->paths)
		g_ptr_array_free(it->paths, TRUE);
	if (it->parents)
		g_ptr_array_free(it->parents, TRUE);
	if (it->trailers)
		g_array_free(it->trailers, TRUE);
	g_free(it);
}

/* ---- parsing a raw commit ---- */

static const char *to_utf8(struct item *it, const char *s, size_t len,
			   const char *encoding)
{
	char *conv = NULL;
	const char *r;

	if (ms_utf8_valid(s, len))
		return g_string_chunk_insert_len(it->chunk, s, (gssize)len);
	if (encoding && g_ascii_strcasecmp(encoding, "utf-8") != 0)
		conv = g_convert(s, (gssize)len, "UTF-8", encoding,
				 NULL, NULL, NULL);
	if (!conv)
		conv = g_convert(s, (gssize)len, "UTF-8", "ISO-8859-1",
				 NULL, NULL, NULL);
	if (!conv)
		conv = g_utf8_make_valid(s, (gssize)len);
	r = g_string_chunk_insert(it->chunk, conv);
	g_free(conv);
	return r;
}

/* "Name <email> 1234567890 +0100", leniently, as git's split_ident_line. */
static void parse_sig(struct item *it, const char *s, size_t len,
		      const char *encoding, struct ms_sig *sig)
{
	const char *lt = memchr(s, '<', len);
	const char *gt = NULL, *end = s + len, *p;
	const char *name_end;

	sig->name = "";
	sig->email = "";
	sig->time = 0;
	sig->offset = 0;
	if (lt) {
		for (p = end; p > lt; p--)
			if (p[-1] == '>') {
				gt = p - 1;
				break;
			}
	}
	name_end = lt ? lt : end;
	if (!lt) {
		/* no address: the name runs up to the timestamp, if any */
		p = end;
		while (p > s && (g_ascii_isdigit(p[-1]) || p[-1] == ' ' ||
				 p[-1] == '+' || p[-1] == '-'))
			p--;
		name_end = p;
	}
	while (name_end > s && g_ascii_isspace(name_end[-1]))
		name_end--;
	while (s < name_end && g_ascii_isspace(*s))
		s++;
	if (name_end > s)
		sig->name = to_utf8(it, s, (size_t)(name_end - s), encoding);
	if (lt && gt) {
		const char *e = lt + 1, *ee = gt;

		while (e < ee && g_ascii_isspace(*e))
			e++;
		while (ee > e && g_ascii_isspace(ee[-1]))
			ee--;
		if (ee > e)
			sig->email = to_utf8(it, e, (size_t)(ee - e), encoding);
		p = gt + 1;
	} else {
		p = name_end;
	}
	while (p < end && *p == ' ')
		p++;
	if (p < end && g_ascii_isdigit(*p)) {
		char buf[32];
		size_t n = 0;

		while (p < end && g_ascii_isdigit(*p) && n < sizeof(buf) - 1)
			buf[n++] = *p++;
		buf[n] = '\0';
		sig->time = g_ascii_strtoll(buf, NULL, 10);
		while (p < end && *p == ' ')
			p++;
		if (end - p >= 5 && (*p == '+' || *p == '-') &&
		    g_ascii_isdigit(p[1]) && g_ascii_isdigit(p[2]) &&
		    g_ascii_isdigit(p[3]) && g_ascii_isdigit(p[4])) {
			int m = ((p[1] - '0') * 10 + (p[2] - '0')) * 60 +
				(p[3] - '0') * 10 + (p[4] - '0');

			sig->offset = *p == '-' ? -m : m;
		}
	}
}

struct block_ctx {
	struct item *it;
	const char *msg;
};

static void parse_block(size_t start, size_t end, void *data)
{
	struct block_ctx *b = data;
	struct item *it = b->it;
	const char *msg = b->msg;
	size_t pos;

	for (pos = start; pos < end;) {
		const char *l = msg + pos;
		const char *nl = memchr(l, '\n', end - pos);
		size_t ll = nl ? (size_t)(nl - l) : end - pos;
		struct ms_trailer_line t;

		pos += ll + 1;
		if (!ms_trailer_parse_line(l, ll, &t))
			continue;
		struct ms_commit_trailer ct = { 0 };

		ct.kind = t.kind;
		ct.token = g_string_chunk_insert_len(it->chunk, t.token,
						     (gssize)t.token_len);
		ct.value = g_string_chunk_insert_len(it->chunk, t.value,
						     (gssize)t.value_len);
		ct.is_person = t.is_person;
		if (t.is_person) {
			char *n, *e;

			ms_person_parse(t.value, (long)t.value_len, &n, &e);
			if (n)
				ct.name = g_string_chunk_insert(it->chunk, n);
			if (e)
				ct.email = g_string_chunk_insert(it->chunk, e);
			g_free(n);
			g_free(e);
		}
		g_array_append_val(it->trailers, ct);
	}
}

/* The trailers of every trailer block of the message (trailer.h). */
static void parse_trailers(struct item *it, const char *msg, size_t len)
{
	struct block_ctx b = { it, msg };

	ms_trailer_blocks(msg, len, parse_block, &b);
}

/*
 * Parse a raw commit's headers and message.  Stores the tree and first
 * parent ids; returns false when the object does not look like a commit
 * at all.
 */
static bool parse_commit(struct item *it, const char *buf, size_t len,
			 git_oid *tree, git_oid *parent)
{
	const char *p = buf, *end = buf + len;
	const char *author = NULL, *committer = NULL, *encoding_p = NULL;
	size_t author_len = 0, committer_len = 0, encoding_len = 0;
	bool have_tree = false;
	char *encoding = NULL;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll >= 45 && !strncmp(p, "tree ", 5)) {
			have_tree = git_oid_fromstrn(tree, p + 5, 40) == 0;
		} else if (ll >= 47 && !strncmp(p, "parent ", 7)) {
			if (it->c.nr_parents++ == 0 &&
			    git_oid_fromstrn(parent, p + 7, 40) != 0)
				it->c.nr_parents--;
			else
				g_ptr_array_add(it->parents,
					g_string_chunk_insert_len(it->chunk,
								  p + 7, 40));
		} else if (ll >= 7 && !strncmp(p, "author ", 7) && !author) {
			author = p + 7;
			author_len = ll - 7;
		} else if (ll >= 10 && !strncmp(p, "committer ", 10) &&
			   !committer) {
			committer = p + 10;
			committer_len = ll - 10;
		} else if (ll >= 9 && !strncmp(p, "encoding ", 9)) {
			encoding_p = p + 9;
			encoding_len = ll - 9;
		}
		p = nl ? nl + 1 : end;
	}
	if (p < end)
		p++; /* the blank line before the message */
	if (encoding_p)
		encoding = g_strndup(encoding_p, encoding_len);
	parse_sig(it, author ? author : "", author_len, encoding,
		  &it->c.author);
	parse_sig(it, committer ? committer : "", committer_len, encoding,
		  &it->c.committer);
	if (p < end) {
		size_t mlen = (size_t)(end - p);

		if (ms_utf8_valid(p, mlen)) {
			parse_trailers(it, p, mlen);
		} else {
			const char *m = to_utf8(it, p, mlen, encoding);

			parse_trailers(it, m, strlen(m));
		}
	}
	g_free(encoding);
	return have_tree;
}

/* ---- tree diff ---- */

/*
 * Trees are read raw and walked in place ("<mode> <name>\0<20-byte id>"
 * entries, sorted as git sorts them): no per-tree allocation, no shared
 * object cache.  A worker keeps the trees it read for the previous commit
 * (`prev`) next to those of the current one (`cur`): consecutive commits
 * share most changed directories, so a tree is mostly read once.
 */
struct tree_entry {
	const char *name;
	size_t name_len;
	unsigned mode;
	const unsigned char *id;  /* raw, 20 bytes */
};

struct tree_iter {
	const char *p, *end;
};

static bool tree_next(struct tree_iter *t, struct tree_entry *e)
{
	const char *sp, *nul;
	unsigned mode = 0;

	if (!t->p || t->p >= t->end)
		return false;
	sp = memchr(t->p, ' ', (size_t)(t->end - t->p));
	nul = sp ? memchr(sp, '\0', (size_t)(t->end - sp)) : NULL;
	if (!nul || t->end - nul < 21) {
		t->p = t->end;
		return false;
	}
	for (const char *q = t->p; q < sp; q++)
		mode = mode * 8 + (unsigned)(*q - '0');
	e->mode = mode;
	e->name = sp + 1;
	e->name_len = (size_t)(nul - sp - 1);
	e->id = (const unsigned char *)nul + 1;
	t->p = nul + 21;
	return true;
}

static bool entry_is_tree(const struct tree_entry *e)
{
	return (e->mode & 0170000) == 0040000;
}

/* git's base_name_compare(): a tree sorts as if its name ended in '/'. */
static int entry_cmp(const struct tree_entry *a, const struct tree_entry *b)
{
	size_t len = MIN(a->name_len, b->name_len);
	int cmp = memcmp(a->name, b->name, len);
	unsigned char c1, c2;

	if (cmp)
		return cmp;
	c1 = a->name_len > len ? (unsigned char)a->name[len] :
		entry_is_tree(a) ? '/' : 0;
	c2 = b->name_len > len ? (unsigned char)b->name[len] :
		entry_is_tree(b) ? '/' : 0;
	return c1 < c2 ? -1 : c1 > c2 ? 1 : 0;
}

/* A raw tree a worker keeps, under its id. */
struct wtree {
	unsigned char id[GIT_OID_RAWSZ];
	struct ms_pack_obj *obj;
};

static void wtree_free(gpointer p)
{
	struct wtree *t = p;

	ms_pack_obj_unref(t->obj);
	g_free(t);
}

static GHashTable *tree_cache_new(void)
{
	return g_hash_table_new_full(ms_id_hash, ms_id_equal, NULL, wtree_free);
}

/* The object `raw` of type `type` (enum ms_pack_type, git_object_t's
 * numbers too) read through libgit2: loose, or what the pack reader
 * could not read; NULL when missing or of another type. */
static struct ms_pack_obj *read_odb(struct worker *wk,
				    const unsigned char *raw, int type)
{
	git_odb_object *obj = NULL;
	struct ms_pack_obj *o = NULL;
	git_oid id;

	git_oid_fromraw(&id, raw);
	if (git_odb_read(&obj, wk->odb, &id) == 0 &&
	    (int)git_odb_object_type(obj) == type)
		o = ms_pack_obj_new(type, git_odb_object_data(obj),
				    git_odb_object_size(obj));
	git_odb_object_free(obj);
	return o;
}

/*
 * The raw commit `id`, or NULL when missing or not a commit.  Read by
 * the pack reader when a pack holds it, and not cached: libgit2 would
 * map the pack a second time for it (docs/performance.md, "Memory of
 * the walk") and serialise the workers on its pack locks.
 */
static struct ms_pack_obj *read_commit(struct worker *wk, const git_oid *id)
{
	struct ms_pack_obj *o = NULL;

	if (wk->pr && ms_pack_read_once(wk->pr, id->id, &o) == 0) {
		if (o->type == MS_PACK_COMMIT)
			return o;
		ms_pack_obj_unref(o);
		return NULL;
	}
	return read_odb(wk, id->id, MS_PACK_COMMIT);
}

/* The raw tree `id` (borrowed from the cache), or NULL when missing. */
static struct ms_pack_obj *read_tree(struct worker *wk, struct item *it,
				     const unsigned char *raw)
{
	struct wtree *t = g_hash_table_lookup(wk->cur, raw);
	struct ms_pack_obj *o = NULL;

	if (t)
		return t->obj;
	t = g_hash_table_lookup(wk->prev, raw);
	if (t) {
		g_hash_table_steal(wk->prev, raw);
		g_hash_table_insert(wk->cur, t->id, t);
		return t->obj;
	}
	if (wk->pr && ms_pack_read(wk->pr, raw, &o) == 0 &&
	    o->type != MS_PACK_TREE) {
		ms_pack_obj_unref(o);
		o = NULL;
	}
	if (!o)
		o = read_odb(wk, raw, MS_PACK_TREE);
	if (!o) {
		it->c.incomplete = true;
		return NULL;
	}
	t = g_new(struct wtree, 1);
	memcpy(t->id, raw, GIT_OID_RAWSZ);
	t->obj = o;
	g_hash_table_insert(wk->cur, t->id, t);
	return o;
}

static void tree_iter_init(struct worker *wk, struct item *it,
			   const unsigned char *raw, struct tree_iter *t,
			   bool *ok)
{
	struct ms_pack_obj *obj;

	t->p = t->end = NULL;
	if (!raw)
		return;
	obj = read_tree(wk, it, raw);
	if (!obj) {
		*ok = false;
		return;
	}
	t->p = (const char *)obj->data;
	t->end = t->p + obj->len;
}

static void add_path(struct worker *wk, struct item *it,
		     const struct tree_entry *e)
{
	size_t plen = wk->prefix->len;

	g_string_append_len(wk->prefix, e->name, (gssize)e->name_len);
	g_ptr_array_add(it->paths,
			g_string_chunk_insert_len(it->chunk, wk->prefix->str,
						  (gssize)wk->prefix->len));
	g_string_truncate(wk->prefix, plen);
}

static void diff_trees(struct worker *wk, struct item *it,
		       const unsigned char *a_id, const unsigned char *b_id);

static void recurse(struct worker *wk, struct item *it,
		    const struct tree_entry *e, const unsigned char *a_id,
		    const unsigned char *b_id)
{
	size_t plen = wk->prefix->len;

	g_string_append_len(wk->prefix, e->name, (gssize)e->name_len);
	g_string_append_c(wk->prefix, '/');
	diff_trees(wk, it, a_id, b_id);
	g_string_truncate(wk->prefix, plen);
}

/* How many leading bytes a and b (n bytes each) have in common. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (n - i >= 64 && memcmp(a + i, b + i, 64) == 0)
		i += 64;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Move ta and tb past the entries they begin with byte for byte: a
 * commit changes a few entries of a directory, and the entries before
 * the first change are skipped with one memcmp rather than compared one
 * by one.  The entries are found as tree_next() finds them.
 */
static void skip_common(struct tree_iter *ta, struct tree_iter *tb)
{
	const char *a0 = ta->p, *stop;
	struct tree_entry e;

	if (!ta->p || !tb->p)
		return;
	stop = a0 + common_prefix(ta->p, tb->p,
				  (size_t)MIN(ta->end - ta->p,
					      tb->end - tb->p));
	for (;;) {
		const char *at = ta->p;

		if (!tree_next(ta, &e) || ta->p > stop) {
			ta->p = at;
			break;
		}
	}
	tb->p += ta->p - a0;
}

/* Paths that differ between trees a and b (raw ids; NULL: empty tree). */
static void diff_trees(struct worker *wk, struct item *it,
		       const unsigned char *a_id, const unsigned char *b_id)
{
	struct tree_iter ta, tb;
	struct tree_entry ea, eb;
	bool ok = true, ha, hb, changed = false;

	tree_iter_init(wk, it, a_id, &ta, &ok);
	tree_iter_init(wk, it, b_id, &tb, &ok);
	if (!ok)
		return;
	skip_common(&ta, &tb);
	ha = tree_next(&ta, &ea);
	hb = tree_next(&tb, &eb);
	while (ha || hb) {
		int cmp = !ha ? 1 : !hb ? -1 : entry_cmp(&ea, &eb);

		if (cmp < 0) {
			if (entry_is_tree(&ea))
				recurse(wk, it, &ea, ea.id, NULL);
			else
				add_path(wk, it, &ea);
			ha = tree_next(&ta, &ea);
			changed = true;
		} else if (cmp > 0) {
			if (entry_is_tree(&eb))
				recurse(wk, it, &eb, NULL, eb.id);
			else
				add_path(wk, it, &eb);
			hb = tree_next(&tb, &eb);
			changed = true;
		} else {
			if (ea.mode != eb.mode ||
			    memcmp(ea.id, eb.id, GIT_OID_RAWSZ) != 0) {
				if (entry_is_tree(&ea))
					recurse(wk, it, &ea, ea.id, eb.id);
				else
					add_path(wk, it, &ea);
				changed = true;
			} else if (changed) {
				/* the first equal entry after a change: are
				 * the rest of both trees the same bytes? */
				changed = false;
				if (ta.end - ta.p == tb.end - tb.p &&
				    memcmp(ta.p, tb.p,
					   (size_t)(ta.end - ta.p)) == 0)
					break;
			}
			ha = tree_next(&ta, &ea);
			hb = tree_next(&tb, &eb);
		}
	}
}

/* Diff a commit's tree against its parent's, then age the tree cache. */
static void diff_commit(struct worker *wk, struct item *it,
			const git_oid *a, const git_oid *b)
{
	GHashTable *t;

	diff_trees(wk, it, a ? a->id : NULL, b->id);
	t = wk->prev;
	g_hash_table_remove_all(t);
	wk->prev = wk->cur;
	wk->cur = t;
}

/* The tree of commit `id`, read from its raw object. */
static int commit_tree(struct worker *wk, const git_oid *id, git_oid *tree)
{
	struct ms_pack_obj *obj;
	int rc = -1;

	for (size_t k = wk->nr_known; k-- > 0;)
		if (git_oid_equal(&wk->known_commit[k], id)) {
			git_oid_cpy(tree, &wk->known_tree[k]);
			return 0;
		}
	obj = read_commit(wk, id);
	if (!obj)
		return -1;
	if (obj->len >= 45 && !strncmp((const char *)obj->data, "tree ", 5) &&
	    git_oid_fromstrn(tree, (const char *)obj->data + 5, 40) == 0)
		rc = 0;
	ms_pack_obj_unref(obj);
	return rc;
}

static struct item *process(struct worker *wk, const git_oid *id)
{
	const struct ms_walk_opts *opts = wk->w->opts;
	struct item *it = g_new0(struct item, 1);
	struct ms_pack_obj *obj;
	git_oid tree, parent, ptree;
	bool have_tree;

	git_oid_tostr(it->c.id, sizeof(it->c.id), id);
	obj = read_commit(wk, id);
	if (!obj) {
		wk->incomplete++;
		it->skip = true;
		return it;
	}
	it->chunk = g_string_chunk_new(512);
	it->paths = g_ptr_array_new();
	it->parents = g_ptr_array_new();
	it->trailers = g_array_new(FALSE, FALSE,
				   sizeof(struct ms_commit_trailer));
	have_tree = parse_commit(it, (const char *)obj->data, obj->len,
				 &tree, &parent);
	ms_pack_obj_unref(obj);
	if (have_tree && wk->nr_known < CHUNK) {
		git_oid_cpy(&wk->known_commit[wk->nr_known], id);
		git_oid_cpy(&wk->known_tree[wk->nr_known], &tree);
		wk->nr_known++;
	}
	if (it->c.nr_parents > 1 && !(opts->flags & MS_WALK_MERGES)) {
		wk->merges++;
		it->skip = true;
		return it;
	}
	if (!(opts->flags & MS_WALK_NO_PATHS)) {
		if (!have_tree) {
			it->c.incomplete = true;
		} else if (it->c.nr_parents == 0) {
			diff_commit(wk, it, NULL, &tree);
		} else if (commit_tree(wk, &parent, &ptree) < 0) {
			it->c.incomplete = true;
		} else if (!git_oid_equal(&ptree, &tree)) {
			diff_commit(wk, it, &ptree, &tree);
		}
	}
	if (it->c.incomplete)
		wk->incomplete++;
	g_ptr_array_add(it->parents, NULL);
	it->c.parents = (const char *const *)it->parents->pdata;
	it->c.paths = (const char **)it->paths->pdata;
	it->c.nr_paths = it->paths->len;
	it->c.trailers = (struct ms_commit_trailer *)(void *)
		it->trailers->data;
	it->c.nr_trailers = it->trailers->len;
	if (opts->prepare)
		it->c.user = opts->prepare(&it->c, opts->data);
	return it;
}

/*
 * A worker takes up to CHUNK consecutive commits at a time and processes
 * them oldest first: in a mostly linear history a commit's first parent
 * is then usually the one it just parsed, so its tree id is known without
 * reading the parent again.
 */
static gpointer worker_main(gpointer data)
{
	struct worker *wk = data;
	struct walk *w = wk->w;
	git_oid ids[CHUNK];
	struct item *its[CHUNK];

	for (;;) {
		size_t start, n, k;

		g_mutex_lock(&w->lock);
		while (!w->stop &&
		       (w->next >= w->oids->len ||
			w->next >= w->consumed + WINDOW) &&
		       !(w->walk_done && w->next >= w->oids->len))
			g_cond_wait(&w->work_cond, &w->lock);
		if (w->stop || w->next >= w->oids->len) {
			g_mutex_unlock(&w->lock);
			break;
		}
		start = w->next;
		n = MIN((size_t)CHUNK, w->oids->len - start);
		memcpy(ids, &g_array_index(w->oids, git_oid, start),
		       n * sizeof(git_oid));
		w->next += n;
		g_mutex_unlock(&w->lock);

		wk->nr_known = 0;
		for (k = n; k-- > 0;)
			its[k] = process(wk, &ids[k]);

		g_mutex_lock(&w->lock);
		for (k = 0; k < n; k++)
			w->results->pdata[start + k] = its[k];
		if (w->consumed >= start && w->consumed < start + n)
			g_cond_signal(&w->done_cond);
		g_mutex_unlock(&w->lock);
	}
	return NULL;
}

static void publish(struct walk *w, git_oid *batch, size_t n, bool done)
{
	g_mutex_lock(&w->lock);
	g_array_append_vals(w->oids, batch, (guint)n);
	g_ptr_array_set_size(w->results, (gint)w->oids->len);
	if (done)
		w->walk_done = true;
	g_cond_broadcast(&w->work_cond);
	g_cond_broadcast(&w->done_cond);
	g_mutex_unlock(&w->lock);
}

/* The revwalk thread's job when the caller named the commits. */
static void list_ids(struct walk *w)
{
	const struct ms_walk_opts *opts = w->opts;
	git_oid batch[WALK_BATCH];
	size_t n = 0;

	for (size_t i = 0; i < opts->nr_ids; i++) {
		if (git_oid_fromstrn(&batch[n], opts->ids[i], 40) < 0)
			continue;
		if (++n < WALK_BATCH)
			continue;
		publish(w, batch, n, false);
		n = 0;
	}
	publish(w, batch, n, true);
}

struct dated {
	git_oid id;
	int64_t time;
};

static gint newest_first(gconstpointer a, gconstpointer b)
{
	const struct dated *x = a, *y = b;

	return x->time < y->time ? 1 : x->time > y->time ? -1 : 0;
}

/*
 * A shallow clone (git clone --depth N): libgit2 1.5 reads no shallow
 * grafts, and its revwalk fails at the first missing parent, which left
 * no commit at all.  The commits are listed here instead, newest commit
 * date first, without the boundary commits whose parents are absent:
 * what they changed is unknown (a diff against nothing would credit them
 * with every file of the tree).
 */
static void list_shallow(struct walk *w)
{
	GHashTable *seen = g_hash_table_new(ms_id_hash, ms_id_equal);
	GArray *stack = g_array_new(FALSE, FALSE, sizeof(git_oid));
	GArray *found = g_array_new(FALSE, FALSE, sizeof(struct dated));
	git_oid *keep = g_new(git_oid, 1);
	git_odb *odb = NULL;
	size_t boundary = 0, n = 0;
	int64_t oldest = 0;
	git_oid batch[WALK_BATCH];
	GPtrArray *owned = g_ptr_array_new_with_free_func(g_free);

	*keep = w->start;
	g_ptr_array_add(owned, keep);
	g_hash_table_add(seen, keep);
	g_array_append_val(stack, w->start);
	if (git_repository_odb(&odb, w->repo) < 0)
		odb = NULL;
	while (stack->len) {
		git_oid id = g_array_index(stack, git_oid, stack->len - 1);
		git_commit *c;
		bool complete = true;

		g_array_set_size(stack, stack->len - 1);
		if (git_commit_lookup(&c, w->repo, &id) < 0) {
			boundary++;
			continue;
		}
		for (unsigned i = 0; i < git_commit_parentcount(c); i++) {
			const git_oid *pid = git_commit_parent_id(c, i);

			if (!odb || !git_odb_exists(odb, pid)) {
				complete = false;
				continue;
			}
			if (g_hash_table_contains(seen, pid))
				continue;
			keep = g_new(git_oid, 1);
			*keep = *pid;
			g_ptr_array_add(owned, keep);
			g_hash_table_add(seen, keep);
			g_array_append_val(stack, *pid);
		}
		if (complete) {
			struct dated d = { id, git_commit_time(c) };

			g_array_append_val(found, d);
			if (!oldest || d.time < oldest)
				oldest = d.time;
		} else {
			boundary++;
		}
		git_commit_free(c);
	}
	g_array_sort(found, newest_first);
	for (guint i = 0; i < found->len; i++) {
		batch[n++] = g_array_index(found, struct dated, i).id;
		if (n == WALK_BATCH) {
			publish(w, batch, n, false);
			n = 0;
		}
	}
	if (boundary) {
		GDateTime *dt = g_date_time_new_from_unix_utc(oldest);
		char *when = dt ? g_date_time_format(dt, "%Y-%m-%d") : NULL;

		w->walk_error = g_strdup_printf(
			"shallow clone: %zu commit%s at its boundary left out "
			"(%s parents are not in the repository); the history "
			"read starts %s (git fetch --unshallow reads all of it)",
			boundary, boundary == 1 ? "" : "s",
			boundary == 1 ? "its" : "their",
			found->len ? when : "nowhere: no complete commit");
		g_free(when);
		g_clear_pointer(&dt, g_date_time_unref);
	}
	publish(w, batch, n, true);
	git_odb_free(odb);
	g_hash_table_destroy(seen);
	g_ptr_array_free(owned, TRUE);
	g_array_free(stack, TRUE);
	g_array_free(found, TRUE);
}

static gpointer revwalk_main(gpointer data)
{
	struct walk *w = data;
	git_oid batch[WALK_BATCH];
	size_t n = 0;
	int rc;

	if (w->opts->ids) {
		list_ids(w);
		return NULL;
	}
	if (w->shallow) {
		list_shallow(w);
		return NULL;
	}
	for (;;) {
		bool stop;

		rc = git_revwalk_next(&batch[n], w->revwalk);
		if (rc < 0)
			break;
		if (++n < WALK_BATCH)
			continue;
		publish(w, batch, n, false);
		n = 0;
		g_mutex_lock(&w->lock);
		stop = w->stop;
		g_mutex_unlock(&w->lock);
		if (stop)
			break;
	}
	if (rc < 0 && rc != GIT_ITEROVER) {
		const git_error *e = git_error_last();

		w->walk_error = g_strdup_printf(
			"history ends early (an object is missing?): %s",
			e && e->message ? e->message : "revwalk failed");
	}
	publish(w, batch, n, true);
	return NULL;
}

/*
 * libgit2 1.5 gives each pack one delta-base cache of a fixed 16 MiB,
 * and empties all of it whenever it fills.  Walking kernel-sized trees
 * overflows it at once, and each version of a directory is then rebuilt
 * from the base of its delta chain, again and again: the walk took 2-3
 * times git log's time.  Opening the object directory under several
 * spellings got more of those caches, but each mapped the pack again
 * (resident memory 4-6 times git log's).  So the trees are read by
 * pack.h's reader: each pack mapped once, and one delta-base cache of
 * 64 MiB shared by the workers, least recently used out first (git's
 * core.deltaBaseCacheLimit is 96 MiB).  On the generated 50,000-commit
 * kernel layout 64 MiB rather than 32 applies 40% fewer deltas; the
 * 32 MiB more is paid for by the pack pages no longer mapped twice
 * (docs/performance.md, "Memory of the walk").  None
 * when the repository has no pack the reader can open: libgit2 then
 * reads everything.
 */

static struct ms_packs *open_packs(const char *objdir)
{
	struct ms_packs *ps = NULL;

	if (objdir && ms_packs_open(objdir, 0, &ps) < 0)
		ps = NULL;
	return ps;
}

static int resolve(git_repository *repo, const char *gitdir,
		   const char *rev, git_commit **out)
{
	git_object *obj = NULL;
	int rc;

	if (!rev)
		rev = "HEAD";
	rc = git_revparse_single(&obj, repo, rev);
	if (rc < 0) {
		if (rc == GIT_ENOTFOUND || rc == GIT_EINVALIDSPEC ||
		    rc == GIT_EAMBIGUOUS) {
			if (git_repository_is_empty(repo) == 1)
				return ms_error_set(MS_EBADREV,
					"unknown revision '%s': repository "
					"'%s' has no commits", rev, gitdir);
			return ms_error_set(MS_EBADREV,
					    "unknown revision '%s'", rev);
		}
		return ms_git_error(rc, "cannot resolve '%s'", rev);
	}
	rc = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc < 0)
		return ms_error_set(MS_EBADREV,
				    "'%s' does not name a commit", rev);
	return 0;
}

int ms_history_resolve(const char *gitdir, const char *rev, char id[41],
		       int64_t *time)
{
	git_repository *repo = NULL;
	git_commit *c = NULL;
	int rc;

	rc = ms_git_open(gitdir, &repo);
	if (rc < 0)
		return rc;
	rc = resolve(repo, gitdir, rev, &c);
	if (rc == 0) {
		if (id)
			git_oid_tostr(id, 41, git_commit_id(c));
		if (time)
			*time = git_commit_time(c);
	}
	git_commit_free(c);
	git_repository_free(repo);
	return rc;
}

int ms_history_range(const char *gitdir, const char *from, const char *to,
		     void (*fn)(const char *id, int64_t time, void *data),
		     void *data)
{
	git_repository *repo = NULL;
	git_commit *cf = NULL, *ct = NULL, *c = NULL;
	git_revwalk *walk = NULL;
	git_oid oid;
	char id[GIT_OID_HEXSZ + 1];
	int rc;

	rc = ms_git_open(gitdir, &repo);
	if (rc < 0)
		return rc;
	rc = resolve(repo, gitdir, from, &cf);
	if (rc == 0)
		rc = resolve(repo, gitdir, to, &ct);
	if (rc < 0)
		goto done;
	rc = git_revwalk_new(&walk, repo);
	if (rc == 0)
		rc = git_revwalk_push(walk, git_commit_id(ct));
	if (rc == 0)
		rc = git_revwalk_hide(walk, git_commit_id(cf));
	while (rc == 0 && (rc = git_revwalk_next(&oid, walk)) == 0) {
		rc = git_commit_lookup(&c, repo, &oid);
		if (rc < 0)
			break;
		git_oid_tostr(id, sizeof(id), &oid);
		fn(id, git_commit_time(c), data);
		git_commit_free(c);
		c = NULL;
	}
	if (rc == GIT_ITEROVER)
		rc = 0;
	else if (rc < 0)
		rc = ms_git_error(rc, "cannot walk '%s..%s'", from,
				  to ? to : "HEAD");
done:
	git_revwalk_free(walk);
	git_commit_free(cf);
	git_commit_free(ct);
	git_repository_free(repo);
	return rc;
}

/* ms_history_read_file() in open repository `repo`. */
static int read_file(git_repository *repo, const char *gitdir,
		     const char *rev, const char *path, char **buf,
		     size_t *len)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int rc;

	*buf = NULL;
	*len = 0;
	rc = resolve(repo, gitdir, rev, &c);
	if (rc < 0)
		goto done;
	rc = git_commit_tree(&tree, c);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot read the tree of '%s'",
				  rev ? rev : "HEAD");
		goto done;
	}
	rc = git_tree_entry_bypath(&e, tree, path);
	if (rc < 0) {
		rc = ms_error_set(MS_ENOTFOUND, "'%s' has no file '%s'",
				  rev ? rev : "HEAD", path);
		goto done;
	}
	rc = git_blob_lookup(&blob, repo, git_tree_entry_id(e));
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot read '%s'", path);
		goto done;
	}
	*len = (size_t)git_blob_rawsize(blob);
	*buf = g_malloc(*len + 1);
	memcpy(*buf, git_blob_rawcontent(blob), *len);
	(*buf)[*len] = '\0';
done:
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return rc;
}

int ms_history_read_file(const char *gitdir, const char *rev,
			 const char *path, char **buf, size_t *len)
{
	git_repository *repo = NULL;
	int rc = ms_git_open(gitdir, &repo);

	*buf = NULL;
	*len = 0;
	if (rc < 0)
		return rc;
	rc = read_file(repo, gitdir, rev, path, buf, len);
	git_repository_free(repo);
	return rc;
}

int ms_history_read_files(const char *gitdir, char *const *revs, size_t n,
			  const char *path,
			  bool (*fn)(const char *rev, const char *buf,
				     size_t len, void *data),
			  void *data)
{
	git_repository *repo = NULL;
	int rc = ms_git_open(gitdir, &repo);
	bool stop = false;

	for (size_t i = 0; rc == 0 && i < n && !stop; i++) {
		char *buf;
		size_t len;

		if (read_file(repo, gitdir, revs[i], path, &buf, &len) == 0)
			stop = fn(revs[i], buf, len, data);
		ms_error_clear();
		g_free(buf);
	}
	git_repository_free(repo);
	return rc;
}

/* The revwalk from opts->rev in time order (none when opts->ids lists
 * the commits); *start is the commit it starts from. */
static int start_revwalk(struct walk *w, const char *gitdir,
			 const struct ms_walk_opts *opts, git_commit **start)
{
	int rc = 0;

	if (!opts->ids) {
		rc = resolve(w->repo, gitdir, opts->rev, start);
		if (rc < 0)
			return rc;
		w->start = *git_commit_id(*start);
		w->shallow = git_repository_is_shallow(w->repo) == 1;
		rc = git_revwalk_new(&w->revwalk, w->repo);
		if (rc == 0)
			rc = git_revwalk_sorting(w->revwalk, GIT_SORT_TIME);
		if (rc == 0)
			rc = git_revwalk_push(w->revwalk,
					      git_commit_id(*start));
	}
	if (rc < 0)
		rc = ms_git_error(rc, "cannot walk '%s'",
				  opts->rev ? opts->rev : "HEAD");
	return rc;
}

/* Open the repository once for each of the `nr` workers of `wks`, each
 * with a reader of the walk's packs. */
static int open_workers(struct worker *wks, int nr, struct walk *w,
			const char *gitdir)
{
	for (int i = 0; i < nr; i++) {
		int rc;

		wks[i].w = w;
		rc = ms_git_open(gitdir, &wks[i].repo);
		if (rc < 0)
			return rc;
		rc = git_repository_odb(&wks[i].odb, wks[i].repo);
		if (rc < 0)
			return ms_git_error(rc, "cannot open repository '%s'",
					    gitdir);
		if (w->packs)
			wks[i].pr = ms_pack_reader_new(w->packs);
		wks[i].prefix = g_string_new(NULL);
		wks[i].cur = tree_cache_new();
		wks[i].prev = tree_cache_new();
	}
	return 0;
}

static void workers_free(struct worker *wks, int nr)
{
	if (!wks)
		return;
	for (int i = 0; i < nr; i++) {
		git_odb_free(wks[i].odb);
		ms_pack_reader_free(wks[i].pr);
		git_repository_free(wks[i].repo);
		if (wks[i].prefix)
			g_string_free(wks[i].prefix, TRUE);
		g_clear_pointer(&wks[i].cur, g_hash_table_destroy);
		g_clear_pointer(&wks[i].prev, g_hash_table_destroy);
	}
	g_free(wks);
}

/* Start the revwalk thread and the `nr` workers' threads. */
static GThread *start_threads(struct walk *w, struct worker *wks, int nr)
{
	GThread *walker;

	g_mutex_init(&w->lock);
	g_cond_init(&w->work_cond);
	g_cond_init(&w->done_cond);
	w->oids = g_array_new(FALSE, FALSE, sizeof(git_oid));
	w->results = g_ptr_array_new();
	walker = g_thread_new("ms-revwalk", revwalk_main, w);
	for (int i = 0; i < nr; i++)
		wks[i].thread = g_thread_new("ms-diff", worker_main, &wks[i]);
	return walker;
}

/* Hand item `it` to opts->fn unless an earlier call failed (*rc), then
 * free it. */
static void deliver_one(struct item *it, const struct ms_walk_opts *opts,
			struct ms_walk_stats *st, int *rc)
{
	if (*rc == 0) {
		st->delivered++;
		*rc = opts->fn ? opts->fn(&it->c, opts->data) : 0;
	} else if (it->c.user && opts->release) {
		opts->release(it->c.user, opts->data);
	}
	item_free(it);
}

static gint item_id_cmp(gconstpointer a, gconstpointer b)
{
	const struct item *x = *(struct item *const *)a;
	const struct item *y = *(struct item *const *)b;

	return strcmp(x->c.id, y->c.id);
}

/* Deliver the commits of equal commit time held in `group`, by id. */
static void deliver_group(GPtrArray *group, const struct ms_walk_opts *opts,
			  struct ms_walk_stats *st, int *rc)
{
	g_ptr_array_sort(group, item_id_cmp);
	for (guint i = 0; i < group->len; i++)
		deliver_one(group->pdata[i], opts, st, rc);
	g_ptr_array_set_size(group, 0);
}

/*
 * Hand the results to opts->fn in walk order as they are done, until
 * the walk ends or fn fails; returns fn's failure, or 0.
 *
 * The order is total: newest commit time first, and commits of equal
 * time by id.  libgit2's time-sorted revwalk breaks ties by how its
 * queue was filled, which depends on where the walk starts; with the
 * ties settled by id, the walk from any tip restricted to the commits
 * of an older one is that one's walk (the store's order does the same,
 * store-commits.c), so a saved model of the old walk is the new walk's
 * tail.  The commits the caller listed (opts->ids) keep their order.
 */
static int deliver_results(struct walk *w, const struct ms_walk_opts *opts,
			   struct ms_walk_stats *st)
{
	GPtrArray *group = g_ptr_array_new();
	int rc = 0;

	while (rc == 0) {
		struct item *batch[CHUNK * 2];
		size_t n = 0, k;

		g_mutex_lock(&w->lock);
		while (!(w->consumed < w->results->len &&
			 w->results->pdata[w->consumed]) &&
		       !(w->walk_done && w->consumed >= w->oids->len))
			g_cond_wait(&w->done_cond, &w->lock);
		while (n < G_N_ELEMENTS(batch) &&
		       w->consumed < w->results->len &&
		       w->results->pdata[w->consumed]) {
			batch[n++] = w->results->pdata[w->consumed];
			w->results->pdata[w->consumed++] = NULL;
		}
		if (n)
			g_cond_broadcast(&w->work_cond);
		g_mutex_unlock(&w->lock);
		if (!n)
			break;

		for (k = 0; k < n; k++) {
			struct item *it = batch[k];

			st->walked++;
			if (it->skip) {          /* never delivered */
				item_free(it);
				continue;
			}
			if (opts->ids) {
				deliver_one(it, opts, st, &rc);
				continue;
			}
			if (group->len && ((struct item *)group->pdata[0])
			    ->c.committer.time != it->c.committer.time)
				deliver_group(group, opts, st, &rc);
			g_ptr_array_add(group, it);
		}
	}
	/* the last commits, or (fn failed) their prepare results freed */
	deliver_group(group, opts, st, &rc);
	g_ptr_array_free(group, TRUE);
	return rc;
}

/* Stop and join the threads, release what was never delivered, report
 * the walk's problems in `diags`, and free the shared state. */
static void stop_threads(struct walk *w, GThread *walker, struct worker *wks,
			 int nr, const struct ms_walk_opts *opts,
			 struct ms_walk_stats *st, struct ms_diags *diags)
{
	g_mutex_lock(&w->lock);
	w->stop = true;
	g_cond_broadcast(&w->work_cond);
	g_mutex_unlock(&w->lock);
	g_thread_join(walker);
	for (int i = 0; i < nr; i++) {
		g_thread_join(wks[i].thread);
		st->incomplete += wks[i].incomplete;
		st->merges += wks[i].merges;
	}
	/* results a stopped walk never delivered */
	for (guint k = 0; k < w->results->len; k++) {
		struct item *it = w->results->pdata[k];

		if (it && it->c.user && opts->release)
			opts->release(it->c.user, opts->data);
		item_free(it);
	}
	if (diags && w->walk_error)
		ms_diags_add(diags, NULL, 0, "%s", w->walk_error);
	if (diags && st->incomplete)
		ms_diags_add(diags, NULL, 0,
			     "%zu commit%s had objects missing from the "
			     "repository (a partial mirror?); their paths "
			     "may be incomplete", st->incomplete,
			     st->incomplete == 1 ? "" : "s");
	g_array_free(w->oids, TRUE);
	g_ptr_array_free(w->results, TRUE);
	g_free(w->walk_error);
	g_mutex_clear(&w->lock);
	g_cond_clear(&w->work_cond);
	g_cond_clear(&w->done_cond);
}

int ms_history_walk(const char *gitdir, const struct ms_walk_opts *opts,
		    struct ms_walk_stats *stats, struct ms_diags *diags)
{
	struct walk w = { 0 };
	struct worker *wks = NULL;
	struct ms_walk_stats st = { 0 };
	git_commit *start = NULL;
	GThread *walker;
	git_buf objdir = { 0 };
	int nr = opts->nr_threads > 0 ? opts->nr_threads :
		(int)ms_workers();
	int rc;

	w.opts = opts;
	ms_git_init();
	/*
	 * The walk reads every object once or twice and keeps what it
	 * needs itself; libgit2's shared object cache only costs here
	 * (hash probes and evictions took a third of the time on U-Boot).
	 * The setting is process-wide, which suits maintstat's commands:
	 * none of them reads an object often enough to gain from it.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	rc = ms_git_open(gitdir, &w.repo);
	if (rc < 0)
		return rc;
	rc = start_revwalk(&w, gitdir, opts, &start);
	if (rc < 0)
		goto out;
	if (nr < 1)
		nr = 1;
	if (git_repository_item_path(&objdir, w.repo,
				     GIT_REPOSITORY_ITEM_OBJECTS) == 0)
		w.packs = open_packs(objdir.ptr);
	wks = g_new0(struct worker, (size_t)nr);
	rc = open_workers(wks, nr, &w, gitdir);
	if (rc < 0)
		goto out;
	walker = start_threads(&w, wks, nr);
	rc = deliver_results(&w, opts, &st);
	stop_threads(&w, walker, wks, nr, opts, &st, diags);
out:
	workers_free(wks, nr);
	ms_packs_free(w.packs);
	git_buf_dispose(&objdir);
	git_revwalk_free(w.revwalk);
	git_commit_free(start);
	git_repository_free(w.repo);
	if (stats)
		*stats = st;
	return rc;
}

bool ms_history_is_shallow(const char *gitdir)
{
	git_repository *repo;
	bool shallow;

	if (ms_git_open(gitdir, &repo) < 0)
		return false;
	shallow = git_repository_is_shallow(repo) == 1;
	git_repository_free(repo);
	return shallow;
}
