/*
 * bytes.h - the one byte codec of what maintstat keeps on disk (the
 * store's saved models, listings, results): unsigned LEB128 varints
 * (seven bits a byte, low first) and their zigzag signed form, fixed
 * little-endian integers, strings as a varint length and their bytes,
 * and hex ids.  Writers append to a GByteArray; a reader is sticky: its
 * `ok` turns false at the first byte out of place (the end reached, a
 * varint over 64 bits, a string holding a NUL) and every later get then
 * returns 0 or NULL, so a decoder checks `ok` once, at the end.
 */
#ifndef MS_BYTES_H
#define MS_BYTES_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void ms_put_var(GByteArray *b, uint64_t v);
void ms_put_svar(GByteArray *b, int64_t v);
/* The low `n` (1 to 8) bytes of `v`, least significant first. */
void ms_put_le(GByteArray *b, uint64_t v, int n);
/* A string (NULL: as ""): its length as a varint, then its bytes. */
void ms_put_str(GByteArray *b, const char *s);
/* A string that may be NULL: 0 for NULL, else its length + 1, then its
 * bytes. */
void ms_put_opt(GByteArray *b, const char *s);
/* `n` bytes at `p`, length first, as ms_put_str(). */
void ms_put_mem(GByteArray *b, const void *p, size_t n);

struct ms_rd {
	const uint8_t *p, *end;
	bool ok;
};
#define MS_RD_INIT(data, len) \
	{ (const uint8_t *)(data), (const uint8_t *)(data) + (len), true }

uint64_t ms_get_var(struct ms_rd *r);
int64_t ms_get_svar(struct ms_rd *r);
uint64_t ms_get_le(struct ms_rd *r, int n);
/* The next `n` bytes, borrowed from the buffer, or NULL. */
const uint8_t *ms_get_bytes(struct ms_rd *r, size_t n);
/* A string ms_put_str() wrote, newly allocated (g_free), or NULL: one
 * holding a NUL is damage. */
char *ms_get_str(struct ms_rd *r);
/* A string ms_put_opt() wrote, newly allocated, or NULL (NULL written,
 * or damage: see r->ok). */
char *ms_get_opt(struct ms_rd *r);
/* The same, borrowed from the buffer (not NUL-terminated), its length in
 * *len. */
const char *ms_get_mem(struct ms_rd *r, size_t *len);
/* Whether the whole buffer was read, and read well. */
static inline bool ms_rd_done(const struct ms_rd *r)
{
	return r->ok && r->p == r->end;
}

/* `n` bytes as 2n lowercase hex digits and a NUL in `out`. */
void ms_hex(const void *bin, size_t n, char *out);
/* 2n hex digits (either case) at `hex` as `n` bytes; false when one is no
 * hex digit. */
bool ms_unhex(const char *hex, size_t n, void *out);
/* A 20-byte object id from exactly `len` = 40 hex digits at `hex`;
 * false otherwise. */
bool ms_id_unhex(const char *hex, size_t len, void *raw);
/* Hash and equality of 20-byte raw object ids (or SHA-1 digests), for a
 * GHashTable. */
guint ms_id_hash(gconstpointer id);
gboolean ms_id_equal(gconstpointer a, gconstpointer b);
/* g_str_hash()'s use, eight bytes a step (it takes one: a run's
 * identities hashed 40-byte keys at 200 instructions each).  Only for a
 * table whose order of iteration reaches nothing, since it differs. */
guint ms_str_hash(gconstpointer s);
/* Comparators for qsort() and g_array_sort() / g_ptr_array_sort(): of
 * two int64_t, and of two strings through pointers to them. */
int ms_cmp_i64(const void *a, const void *b);
int ms_cmp_str(const void *a, const void *b);

#endif
