/*
 * pack.h - a reader of git pack files for the history walk: each pack of
 * an object directory mapped once, and one delta-base cache that all the
 * reading threads share.
 *
 * libgit2 1.5 gives each open pack a fixed 16 MiB delta-base cache that
 * it empties whenever it fills; on kernel-sized trees that cache is too
 * small, and getting more of them meant mapping the pack again for each
 * (docs/performance.md, "Memory of the walk").  This reader finds an
 * object in the packs' .idx files (version 2), follows its OFS_DELTA and
 * REF_DELTA chain, inflates each link with ISA-L and applies git's delta
 * format, keeping the objects it builds in one cache keyed by pack
 * offset, within a byte budget, least recently used out first.
 *
 * It reads what is in the packs only: a loose object, a pack with a
 * version 1 index, or any damage gives an error, and the caller reads the
 * object through libgit2 instead.  Every length and offset read from a
 * file is checked before use: a corrupt pack gives MS_EPARSE, never a
 * read outside the mapping.
 */
#ifndef MS_PACK_H
#define MS_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Object types, as git numbers them in a pack. */
enum ms_pack_type {
	MS_PACK_COMMIT = 1,
	MS_PACK_TREE = 2,
	MS_PACK_BLOB = 3,
	MS_PACK_TAG = 4,
};

/*
 * An object read from a pack: reference-counted and immutable, shared
 * between the cache and its readers.  data[len] is a NUL, not counted.
 */
struct ms_pack_obj {
	int refs;               /* atomic; use _ref/_unref */
	int type;               /* enum ms_pack_type */
	size_t len;
	unsigned char data[];
};

/* A new object of `len` bytes copied from `data` (refs 1). */
struct ms_pack_obj *ms_pack_obj_new(int type, const void *data, size_t len);
struct ms_pack_obj *ms_pack_obj_ref(struct ms_pack_obj *o);
/* Drop a reference; the last one frees.  NULL is a no-op. */
void ms_pack_obj_unref(struct ms_pack_obj *o);

/* The packs of one object directory and their delta-base cache. */
struct ms_packs;

/* What a set of packs did so far (for tests and benchmarks): the
 * readers' counts are added when each reader is freed. */
struct ms_pack_stats {
	uint64_t reads;         /* objects asked for and found */
	uint64_t hits;          /* of those, found whole in the cache */
	uint64_t ofs_deltas;    /* OFS_DELTA links applied */
	uint64_t ref_deltas;    /* REF_DELTA links applied */
	uint64_t inflated;      /* entries inflated */
	uint64_t evicted;       /* cache entries dropped for room */
	size_t cache_bytes;     /* in the cache now */
	size_t budget;          /* the cache's byte budget */
	size_t nr_packs;        /* packs opened */
	size_t pack_bytes;      /* their total size */
};

/*
 * Open every pack with a version-2 index in `objdir`/pack, mapping each
 * pack and index once, with a delta-base cache of `budget` bytes (0:
 * MS_PACK_DEFAULT_BUDGET, 64 MiB; docs/performance.md, "Memory of the
 * walk", measures 16 to 256 MiB).  Packs that cannot be opened or whose
 * index is not version 2 are left out (their objects are then not
 * found).  Returns 0 and *out (ms_packs_free), or a negative code when
 * `objdir` has no readable pack at all (MS_ENOTFOUND).
 */
#define MS_PACK_DEFAULT_BUDGET ((size_t)64 << 20)
int ms_packs_open(const char *objdir, size_t budget, struct ms_packs **out);

/* Unmap the packs and empty the cache; NULL is a no-op.  Every reader
 * of `ps` must be freed first. */
void ms_packs_free(struct ms_packs *ps);

void ms_packs_stats(struct ms_packs *ps, struct ms_pack_stats *out);

/*
 * Each reader lets go of the pack pages mapped so far every `reads` of
 * its reads (0: the default, 65,536), so that the pages a walk passed
 * do not pile up in the resident size; they stay in the page cache.
 * Set it before any reader reads.
 */
void ms_packs_drop_every(struct ms_packs *ps, unsigned reads);

/* One thread's reading state (inflate state, scratch buffers). */
struct ms_pack_reader;

struct ms_pack_reader *ms_pack_reader_new(struct ms_packs *ps);
void ms_pack_reader_free(struct ms_pack_reader *r);

/*
 * Read the object whose raw id (20 bytes) is `id`.  0 and *out (a new
 * reference: ms_pack_obj_unref), MS_ENOTFOUND when no pack holds it, or
 * MS_EPARSE when its entry or a link of its delta chain is damaged
 * (message via ms_error_last()).
 */
int ms_pack_read(struct ms_pack_reader *r, const unsigned char id[20],
		 struct ms_pack_obj **out);

/*
 * ms_pack_read() for an object read once, such as a walk's commits: the
 * object itself is not kept in the delta-base cache (the bases its delta
 * chain passes are), so it does not push out the trees the cache holds.
 */
int ms_pack_read_once(struct ms_pack_reader *r, const unsigned char id[20],
		      struct ms_pack_obj **out);

/*
 * Apply git's delta `delta` (dlen bytes: source size, result size, then
 * copy and insert instructions) to `base`, into a new object of type
 * `type`.  Every instruction is bounds-checked: MS_EPARSE when the delta
 * does not fit `base` or does not produce exactly its stated size.
 * `max_len` bounds the result size the delta may claim.
 */
int ms_pack_delta_apply(const unsigned char *base, size_t blen,
			const unsigned char *delta, size_t dlen, int type,
			size_t max_len, struct ms_pack_obj **out);

#endif
