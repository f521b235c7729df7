/*
 * pack.c - git pack files read directly (pack.h): .idx lookup, entry
 * headers, OFS/REF_DELTA chains, ISA-L inflation, delta application,
 * and the shared delta-base cache.
 *
 * Formats (git's Documentation/gitformat-pack.txt):
 *   .idx v2: "\377tOc", version 2, 256 big-endian fan-out counts, the N
 *   sorted ids, N CRCs, N 4-byte offsets (high bit set: an index into the
 *   8-byte offsets that follow), then two checksums.
 *   .pack: "PACK", version 2 or 3, object count; each entry a header
 *   (type in bits 4-6 of the first byte, size in 4 + 7k bits, little
 *   end first), for OFS_DELTA a base distance (7 bits a byte, big end
 *   first, +1 per continuation), for REF_DELTA the base's 20-byte id,
 *   then the zlib stream; a 20-byte checksum ends the file.
 */
#include "pack.h"
#include "error.h"

#include <glib.h>
#include <isa-l/igzip_lib.h>
#include <string.h>
#include <sys/mman.h>

#define OBJ_OFS_DELTA 6
#define OBJ_REF_DELTA 7
#define MAX_CHAIN 10000          /* longer is a loop of REF_DELTAs */
#define MAX_OBJECT ((size_t)UINT32_MAX - 1)   /* ISA-L counts in 32 bits */
#define DROP_EVERY 65536         /* reads between two drop_pages() */

struct pack {
	GMappedFile *pack_map, *idx_map;
	const unsigned char *data;   /* the .pack */
	size_t size;
	const unsigned char *fanout, *ids, *offs, *large;
	uint32_t nr;
	size_t nr_large;
	char *path;
};

struct cent {                        /* a cache entry */
	guint64 key;                 /* pack index << 48 | offset */
	struct ms_pack_obj *obj;
	struct cent *prev, *next;    /* LRU: head newest */
};

/*
 * The cache is split in shards by key, each with its own lock, LRU list
 * and share of the budget, so that the walk's threads seldom wait for
 * each other or pass the same list head back and forth between cores.
 */
#define MAX_SHARDS 16
#define SHARD_MIN ((size_t)1 << 20)   /* a budget this small per shard */

struct shard {
	GMutex lock;
	GHashTable *cache;           /* &cent->key -> cent */
	struct cent *head, *tail;
	size_t bytes, budget;
	uint64_t evicted;
};

struct ms_packs {
	struct pack *packs;
	size_t nr;
	struct shard shards[MAX_SHARDS];
	size_t nr_shards;            /* a power of 2 */
	size_t budget;
	GMutex lock;                 /* the counters */
	size_t pack_bytes;
	uint32_t drop_every;         /* reads of a reader between drops */
	struct ms_pack_stats st;
};

struct link {                        /* a delta of a chain */
	size_t off;                  /* the entry */
	size_t data;                 /* its zlib stream */
	size_t size;                 /* its delta's size */
	bool ofs;
};

struct ms_pack_reader {
	struct ms_packs *ps;
	size_t last;                 /* the pack that answered last */
	struct inflate_state inf;
	unsigned char *scratch;      /* a delta, inflated */
	size_t scratch_size;
	GArray *chain;               /* struct link */
	uint64_t inflated;           /* since the last unpack() */
	uint32_t since_drop;         /* reads since the last drop_pages() */
	struct ms_pack_stats st;     /* added to the packs' when freed */
	bool hit;                    /* chain_down() found its base cached */
};

/* ---- objects ---- */

struct ms_pack_obj *ms_pack_obj_new(int type, const void *data, size_t len)
{
	struct ms_pack_obj *o = g_try_malloc(sizeof(*o) + len + 1);

	if (!o)
		return NULL;
	o->refs = 1;
	o->type = type;
	o->len = len;
	if (data)
		memcpy(o->data, data, len);
	o->data[len] = '\0';
	return o;
}

struct ms_pack_obj *ms_pack_obj_ref(struct ms_pack_obj *o)
{
	g_atomic_int_inc(&o->refs);
	return o;
}

void ms_pack_obj_unref(struct ms_pack_obj *o)
{
	if (o && g_atomic_int_dec_and_test(&o->refs))
		g_free(o);
}

/* ---- opening ---- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Check an index's layout against its size; false when it is not a
 * version 2 index or does not hold what its fan-out says. */
static bool idx_parse(struct pack *p, const unsigned char *idx, size_t len)
{
	size_t need;
	uint32_t prev = 0;

	if (len < 8 + 1024 + 40 || memcmp(idx, "\377tOc", 4) != 0 ||
	    be32(idx + 4) != 2)
		return false;
	p->fanout = idx + 8;
	for (int i = 0; i < 256; i++) {
		uint32_t n = be32(p->fanout + 4 * i);

		if (n < prev)
			return false;
		prev = n;
	}
	p->nr = prev;
	need = 8 + 1024 + (size_t)p->nr * 28 + 40;
	if (need > len || (len - need) % 8 != 0)
		return false;
	p->ids = p->fanout + 1024;
	p->offs = p->ids + (size_t)p->nr * 24;
	p->large = p->offs + (size_t)p->nr * 4;
	p->nr_large = (len - need) / 8;
	return true;
}

static void pack_release(struct pack *p)
{
	g_clear_pointer(&p->pack_map, g_mapped_file_unref);
	g_clear_pointer(&p->idx_map, g_mapped_file_unref);
	g_free(p->path);
}

/* Map `base`.idx and `base`.pack; false when either is unusable. */
static bool pack_open(struct pack *p, const char *base)
{
	char *idx = g_strconcat(base, ".idx", NULL);
	char *pack = g_strconcat(base, ".pack", NULL);
	bool ok = false;

	memset(p, 0, sizeof(*p));
	p->idx_map = g_mapped_file_new(idx, FALSE, NULL);
	p->pack_map = g_mapped_file_new(pack, FALSE, NULL);
	if (!p->idx_map || !p->pack_map)
		goto done;
	p->data = (const unsigned char *)g_mapped_file_get_contents(
		p->pack_map);
	p->size = g_mapped_file_get_length(p->pack_map);
	if (!p->data || p->size < 32 || memcmp(p->data, "PACK", 4) != 0 ||
	    (be32(p->data + 4) != 2 && be32(p->data + 4) != 3))
		goto done;
	ok = idx_parse(p, (const unsigned char *)
		       g_mapped_file_get_contents(p->idx_map),
		       g_mapped_file_get_length(p->idx_map));
done:
	g_free(idx);
	if (ok) {
		p->path = pack;
	} else {
		g_free(pack);
		pack_release(p);
	}
	return ok;
}

int ms_packs_open(const char *objdir, size_t budget, struct ms_packs **out)
{
	char *dir = g_build_filename(objdir, "pack", NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	GArray *packs = g_array_new(FALSE, TRUE, sizeof(struct pack));
	struct ms_packs *ps;
	const char *name;
	size_t bytes = 0;

	*out = NULL;
	while (d && (name = g_dir_read_name(d))) {
		struct pack p;
		char *base;

		if (!g_str_has_suffix(name, ".idx"))
			continue;
		base = g_build_filename(dir, name, NULL);
		base[strlen(base) - 4] = '\0';
		if (pack_open(&p, base)) {
			bytes += p.size;
			g_array_append_val(packs, p);
		}
		g_free(base);
	}
	if (d)
		g_dir_close(d);
	if (packs->len == 0) {
		g_array_free(packs, TRUE);
		ms_error_set(MS_ENOTFOUND, "no readable pack in '%s'", dir);
		g_free(dir);
		return MS_ENOTFOUND;
	}
	g_free(dir);
	ps = g_new0(struct ms_packs, 1);
	ps->nr = packs->len;
	ps->packs = (struct pack *)(void *)g_array_free(packs, FALSE);
	g_mutex_init(&ps->lock);
	ps->pack_bytes = bytes;
	ps->budget = budget ? budget : MS_PACK_DEFAULT_BUDGET;
	ps->nr_shards = 1;
	while (ps->nr_shards < MAX_SHARDS &&
	       ps->budget / (ps->nr_shards * 2) >= SHARD_MIN)
		ps->nr_shards *= 2;
	for (size_t i = 0; i < ps->nr_shards; i++) {
		struct shard *sh = &ps->shards[i];

		g_mutex_init(&sh->lock);
		sh->cache = g_hash_table_new(g_int64_hash, g_int64_equal);
		sh->budget = ps->budget / ps->nr_shards;
	}
	ps->drop_every = DROP_EVERY;
	*out = ps;
	return 0;
}

void ms_packs_free(struct ms_packs *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->nr_shards; i++) {
		struct shard *sh = &ps->shards[i];

		for (struct cent *c = sh->head, *n; c; c = n) {
			n = c->next;
			ms_pack_obj_unref(c->obj);
			g_free(c);
		}
		g_hash_table_destroy(sh->cache);
		g_mutex_clear(&sh->lock);
	}
	for (size_t i = 0; i < ps->nr; i++)
		pack_release(&ps->packs[i]);
	g_free(ps->packs);
	g_mutex_clear(&ps->lock);
	g_free(ps);
}

void ms_packs_drop_every(struct ms_packs *ps, unsigned reads)
{
	ps->drop_every = reads ? reads : DROP_EVERY;
}

void ms_packs_stats(struct ms_packs *ps, struct ms_pack_stats *out)
{
	g_mutex_lock(&ps->lock);
	*out = ps->st;
	out->cache_bytes = 0;
	out->evicted = 0;
	for (size_t i = 0; i < ps->nr_shards; i++) {
		struct shard *sh = &ps->shards[i];

		g_mutex_lock(&sh->lock);
		out->cache_bytes += sh->bytes;
		out->evicted += sh->evicted;
		g_mutex_unlock(&sh->lock);
	}
	out->budget = ps->budget;
	out->nr_packs = ps->nr;
	out->pack_bytes = ps->pack_bytes;
	g_mutex_unlock(&ps->lock);
}

/* ---- the cache ---- */

static void lru_unlink(struct shard *sh, struct cent *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		sh->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		sh->tail = c->prev;
	c->prev = c->next = NULL;
}

static void lru_push(struct shard *sh, struct cent *c)
{
	c->prev = NULL;
	c->next = sh->head;
	if (sh->head)
		sh->head->prev = c;
	sh->head = c;
	if (!sh->tail)
		sh->tail = c;
}

static guint64 cache_key(size_t pack, size_t off)
{
	return (guint64)pack << 48 | (guint64)off;
}

static struct shard *shard_of(struct ms_packs *ps, guint64 key)
{
	guint64 h = key * UINT64_C(0x9e3779b97f4a7c15);

	return &ps->shards[(h >> 59) & (ps->nr_shards - 1)];
}

/* The cached object at `key`, a new reference; NULL if none. */
static struct ms_pack_obj *cache_get(struct ms_packs *ps, guint64 key)
{
	struct shard *sh = shard_of(ps, key);
	struct cent *c;
	struct ms_pack_obj *o = NULL;

	g_mutex_lock(&sh->lock);
	c = g_hash_table_lookup(sh->cache, &key);
	if (c) {
		if (sh->head != c) {
			lru_unlink(sh, c);
			lru_push(sh, c);
		}
		o = ms_pack_obj_ref(c->obj);
	}
	g_mutex_unlock(&sh->lock);
	return o;
}

/* Keep `o` at `key` (the cache takes a reference), dropping the least
 * recently used entries of its shard beyond the shard's budget.  Objects
 * larger than a quarter of that budget are not kept. */
static void cache_put(struct ms_packs *ps, guint64 key, struct ms_pack_obj *o)
{
	struct shard *sh = shard_of(ps, key);
	struct cent *c;

	if (o->len > sh->budget / 4)
		return;
	g_mutex_lock(&sh->lock);
	if (g_hash_table_contains(sh->cache, &key)) {
		g_mutex_unlock(&sh->lock);
		return;
	}
	c = g_new(struct cent, 1);
	c->key = key;
	c->obj = ms_pack_obj_ref(o);
	lru_push(sh, c);
	g_hash_table_insert(sh->cache, &c->key, c);
	sh->bytes += o->len;
	while (sh->bytes > sh->budget && sh->tail) {
		struct cent *t = sh->tail;

		lru_unlink(sh, t);
		g_hash_table_remove(sh->cache, &t->key);
		sh->bytes -= t->obj->len;
		sh->evicted++;
		ms_pack_obj_unref(t->obj);
		g_free(t);
	}
	g_mutex_unlock(&sh->lock);
}

/* ---- finding and parsing entries ---- */

/* The offset of `id` in pack `p`; false when it is not there. */
static bool idx_find(const struct pack *p, const unsigned char *id,
		     size_t *off)
{
	uint32_t lo = id[0] ? be32(p->fanout + 4 * (id[0] - 1)) : 0;
	uint32_t hi = be32(p->fanout + 4 * id[0]);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int cmp = memcmp(p->ids + (size_t)mid * 20, id, 20);

		if (cmp == 0) {
			uint32_t o = be32(p->offs + (size_t)mid * 4);
			uint64_t v = o;

			if (o & 0x80000000u) {
				o &= 0x7fffffffu;
				if (o >= p->nr_large)
					return false;
				v = be64(p->large + (size_t)o * 8);
			}
			if (v < 12 || v >= p->size - 20)
				return false;
			*off = (size_t)v;
			return true;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int corrupt(const struct pack *p, size_t off, const char *what)
{
	return ms_error_set(MS_EPARSE, "'%s': entry at offset %zu: %s",
			    p->path, off, what);
}

/* Parse the header of the entry at `off`: its type, size, and where
 * its data starts (*data); for an OFS_DELTA also its base's offset. */
static int entry_header(const struct pack *p, size_t off, int *type,
			size_t *size, size_t *data, size_t *base)
{
	const unsigned char *s = p->data, *end = p->data + p->size - 20;
	const unsigned char *q = s + off;
	unsigned c, shift = 4;
	uint64_t sz;

	if (off < 12 || q >= end)
		return corrupt(p, off, "outside the pack");
	c = *q++;
	*type = (int)(c >> 4 & 7);
	sz = c & 15;
	while (c & 0x80) {
		if (q >= end || shift > 57)
			return corrupt(p, off, "bad size");
		c = *q++;
		sz += (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	/* deflate expands by at most 1032 times */
	if (sz > MAX_OBJECT || sz / 1032 > p->size - off)
		return corrupt(p, off, "object too large");
	*size = (size_t)sz;
	if (*type == OBJ_OFS_DELTA) {
		uint64_t dist;

		if (q >= end)
			return corrupt(p, off, "truncated base offset");
		c = *q++;
		dist = c & 0x7f;
		while (c & 0x80) {
			if (q >= end || dist >= (UINT64_C(1) << 56))
				return corrupt(p, off, "bad base offset");
			c = *q++;
			dist = ((dist + 1) << 7) | (c & 0x7f);
		}
		if (dist == 0 || dist > off - 12)
			return corrupt(p, off, "base offset outside the pack");
		*base = off - (size_t)dist;
	} else if (*type == OBJ_REF_DELTA) {
		if (end - q < 20)
			return corrupt(p, off, "truncated base id");
		if (!idx_find(p, q, base))
			return corrupt(p, off, "base not in its pack");
		q += 20;
	} else if (*type < MS_PACK_COMMIT || *type > MS_PACK_TAG) {
		return corrupt(p, off, "unknown type");
	}
	*data = (size_t)(q - s);
	return 0;
}

/* Inflate the zlib stream at `data` into out[0..size); it must give
 * exactly `size` bytes and end there. */
static int inflate_at(struct ms_pack_reader *r, const struct pack *p,
		      size_t off, size_t data, unsigned char *out,
		      size_t size)
{
	struct inflate_state *st = &r->inf;
	size_t avail = p->size - 20 - data;
	int ret;

	isal_inflate_init(st);
	st->crc_flag = ISAL_ZLIB;
	st->next_in = (uint8_t *)(uintptr_t)(p->data + data);
	st->avail_in = (uint32_t)MIN(avail, (size_t)UINT32_MAX);
	st->next_out = out;
	st->avail_out = (uint32_t)size + 1;  /* room to see an overrun */
	ret = isal_inflate(st);
	r->inflated++;
	if (ret != ISAL_DECOMP_OK || st->block_state != ISAL_BLOCK_FINISH ||
	    st->total_out != size)
		return corrupt(p, off, "bad zlib stream");
	return 0;
}

/* ---- deltas ---- */

static bool delta_varint(const unsigned char **q, const unsigned char *end,
			 size_t *v)
{
	unsigned shift = 0;
	uint64_t x = 0;
	unsigned c;

	do {
		if (*q >= end || shift > 63)
			return false;
		c = *(*q)++;
		x |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	if (x > SIZE_MAX)
		return false;
	*v = (size_t)x;
	return true;
}

/* One copy instruction `cmd` at *q: its source offset and length. */
static bool delta_copy_args(unsigned cmd, const unsigned char **q,
			    const unsigned char *end, size_t *off,
			    size_t *len)
{
	size_t o = 0, l = 0;

	for (unsigned i = 0; i < 4; i++)
		if (cmd & (1u << i)) {
			if (*q >= end)
				return false;
			o |= (size_t)*(*q)++ << (8 * i);
		}
	for (unsigned i = 0; i < 3; i++)
		if (cmd & (0x10u << i)) {
			if (*q >= end)
				return false;
			l |= (size_t)*(*q)++ << (8 * i);
		}
	*off = o;
	*len = l ? l : 0x10000;
	return true;
}

int ms_pack_delta_apply(const unsigned char *base, size_t blen,
			const unsigned char *delta, size_t dlen, int type,
			size_t max_len, struct ms_pack_obj **out)
{
	const unsigned char *q = delta, *end = delta + dlen;
	size_t src, dst, pos = 0;
	struct ms_pack_obj *o;

	*out = NULL;
	if (!delta_varint(&q, end, &src) || !delta_varint(&q, end, &dst))
		return ms_error_set(MS_EPARSE, "delta: truncated header");
	if (src != blen)
		return ms_error_set(MS_EPARSE, "delta: made for a base of "
				    "%zu bytes, not %zu", src, blen);
	if (dst > max_len)
		return ms_error_set(MS_EPARSE, "delta: result of %zu bytes "
				    "too large", dst);
	o = ms_pack_obj_new(type, NULL, dst);
	if (!o)
		return ms_error_set(MS_ERROR, "delta: out of memory for "
				    "%zu bytes", dst);
	while (q < end) {
		unsigned cmd = *q++;
		size_t off, len;

		if (cmd & 0x80) {
			if (!delta_copy_args(cmd, &q, end, &off, &len))
				goto bad;
			if (off > blen || len > blen - off || len > dst - pos)
				goto bad;
			memcpy(o->data + pos, base + off, len);
		} else if (cmd) {
			len = cmd;
			if (len > (size_t)(end - q) || len > dst - pos)
				goto bad;
			memcpy(o->data + pos, q, len);
			q += len;
		} else {
			goto bad;
		}
		pos += len;
	}
	if (pos != dst)
		goto bad;
	*out = o;
	return 0;
bad:
	ms_pack_obj_unref(o);
	return ms_error_set(MS_EPARSE, "delta: instruction out of bounds at "
			    "byte %zu of %zu", (size_t)(q - delta), dlen);
}

/* ---- reading ---- */

struct ms_pack_reader *ms_pack_reader_new(struct ms_packs *ps)
{
	struct ms_pack_reader *r = g_new0(struct ms_pack_reader, 1);

	r->ps = ps;
	r->chain = g_array_new(FALSE, FALSE, sizeof(struct link));
	return r;
}

void ms_pack_reader_free(struct ms_pack_reader *r)
{
	struct ms_packs *ps;

	if (!r)
		return;
	ps = r->ps;
	g_mutex_lock(&ps->lock);
	ps->st.reads += r->st.reads;
	ps->st.hits += r->st.hits;
	ps->st.ofs_deltas += r->st.ofs_deltas;
	ps->st.ref_deltas += r->st.ref_deltas;
	ps->st.inflated += r->st.inflated;
	g_mutex_unlock(&ps->lock);
	g_free(r->scratch);
	g_array_free(r->chain, TRUE);
	g_free(r);
}

static unsigned char *scratch(struct ms_pack_reader *r, size_t size)
{
	if (r->scratch_size < size + 1) {
		g_free(r->scratch);
		r->scratch_size = MAX(size + 1, r->scratch_size * 2);
		r->scratch = g_try_malloc(r->scratch_size);
		if (!r->scratch)
			r->scratch_size = 0;
	}
	return r->scratch;
}

/*
 * Walk down the chain from the entry at `off` to an object in the cache
 * or a whole (non-delta) entry, which becomes *base; the deltas passed
 * on the way are left in r->chain, the first one last.
 */
static int chain_down(struct ms_pack_reader *r, size_t pi, size_t off,
		      bool keep, struct ms_pack_obj **base)
{
	const struct pack *p = &r->ps->packs[pi];
	int type = 0, rc;
	size_t size = 0, data = 0, boff = 0;

	g_array_set_size(r->chain, 0);
	r->hit = false;
	for (;;) {
		struct link l;

		*base = cache_get(r->ps, cache_key(pi, off));
		if (*base) {
			r->hit = true;
			return 0;
		}
		if (r->chain->len >= MAX_CHAIN)
			return corrupt(p, off, "delta chain too long");
		rc = entry_header(p, off, &type, &size, &data, &boff);
		if (rc < 0)
			return rc;
		if (type != OBJ_OFS_DELTA && type != OBJ_REF_DELTA)
			break;
		l.off = off;
		l.data = data;
		l.size = size;
		l.ofs = type == OBJ_OFS_DELTA;
		g_array_append_val(r->chain, l);
		off = boff;
	}
	*base = ms_pack_obj_new(type, NULL, size);
	if (!*base)
		return corrupt(p, off, "out of memory");
	rc = inflate_at(r, p, off, data, (*base)->data, size);
	if (rc < 0) {
		ms_pack_obj_unref(*base);
		*base = NULL;
		return rc;
	}
	if (keep || r->chain->len)
		cache_put(r->ps, cache_key(pi, off), *base);
	return 0;
}

/* The object at `off` of pack `pi`, its delta chain applied; the object
 * itself is cached only when `keep` (its bases always are). */
static int unpack(struct ms_pack_reader *r, size_t pi, size_t off,
		  bool keep, struct ms_pack_obj **out)
{
	const struct pack *p = &r->ps->packs[pi];
	struct ms_pack_obj *obj = NULL;
	size_t ofs = 0, ref = 0;
	int rc = chain_down(r, pi, off, keep, &obj);
	bool hit = rc == 0 && r->hit && r->chain->len == 0;

	for (guint i = r->chain->len; rc == 0 && i-- > 0;) {
		const struct link *l = &g_array_index(r->chain, struct link, i);
		unsigned char *d = scratch(r, l->size);
		struct ms_pack_obj *next;

		rc = d ? inflate_at(r, p, l->off, l->data, d, l->size) :
			corrupt(p, l->off, "out of memory");
		if (rc < 0)
			break;
		rc = ms_pack_delta_apply(obj->data, obj->len, d, l->size,
					 obj->type, MAX_OBJECT, &next);
		if (rc < 0) {
			rc = corrupt(p, l->off, ms_error_last());
			break;
		}
		ms_pack_obj_unref(obj);
		obj = next;
		if (keep || i > 0)
			cache_put(r->ps, cache_key(pi, l->off), obj);
		if (l->ofs)
			ofs++;
		else
			ref++;
	}
	if (rc < 0) {
		ms_pack_obj_unref(obj);
		return rc;
	}
	r->st.reads++;
	r->st.hits += hit;
	r->st.ofs_deltas += ofs;
	r->st.ref_deltas += ref;
	r->st.inflated += r->inflated;
	r->inflated = 0;
	*out = obj;
	return 0;
}

/*
 * Let go of the pack pages mapped so far.  A walk reads a pack from end
 * to start, and every page it touched would stay in the resident size
 * (1.2 GB at a million commits, beside the objects it keeps); the pages
 * stay in the page cache, and the next read of one maps it again without
 * reading the disk.  The mapping is read-only, so the bytes never change
 * under a reader; the .idx, read at random, stays mapped.
 */
static void drop_pages(struct ms_packs *ps)
{
	for (size_t i = 0; i < ps->nr; i++)
		madvise((void *)(uintptr_t)ps->packs[i].data,
			ps->packs[i].size, MADV_DONTNEED);
}

static int read_obj(struct ms_pack_reader *r, const unsigned char id[20],
		    bool keep, struct ms_pack_obj **out)
{
	struct ms_packs *ps = r->ps;
	size_t off;

	*out = NULL;
	if (++r->since_drop >= ps->drop_every) {
		r->since_drop = 0;
		drop_pages(ps);
	}
	for (size_t k = 0; k < ps->nr; k++) {
		size_t pi = (r->last + k) % ps->nr;

		if (idx_find(&ps->packs[pi], id, &off)) {
			r->last = pi;
			return unpack(r, pi, off, keep, out);
		}
	}
	return ms_error_set(MS_ENOTFOUND, "object not in any pack");
}

int ms_pack_read(struct ms_pack_reader *r, const unsigned char id[20],
		 struct ms_pack_obj **out)
{
	return read_obj(r, id, true, out);
}

int ms_pack_read_once(struct ms_pack_reader *r, const unsigned char id[20],
		      struct ms_pack_obj **out)
{
	return read_obj(r, id, false, out);
}
