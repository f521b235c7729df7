/*
 * bytes.c - the one byte codec of what maintstat keeps (bytes.h).
 */
#include "bytes.h"

#include <string.h>

void ms_put_var(GByteArray *b, uint64_t v)
{
	guint8 x[10];
	guint n = 0;

	do {
		x[n] = (guint8)(v & 0x7f);
		v >>= 7;
		if (v)
			x[n] |= 0x80;
		n++;
	} while (v);
	g_byte_array_append(b, x, n);
}

void ms_put_svar(GByteArray *b, int64_t v)
{
	ms_put_var(b, v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 :
		   (uint64_t)v << 1);
}

void ms_put_le(GByteArray *b, uint64_t v, int n)
{
	guint8 x[8];

	for (int i = 0; i < n; i++)
		x[i] = (guint8)(v >> (8 * i));
	g_byte_array_append(b, x, (guint)n);
}

void ms_put_mem(GByteArray *b, const void *p, size_t n)
{
	ms_put_var(b, n);
	if (n)
		g_byte_array_append(b, p, (guint)n);
}

void ms_put_str(GByteArray *b, const char *s)
{
	ms_put_mem(b, s, s ? strlen(s) : 0);
}

void ms_put_opt(GByteArray *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	ms_put_var(b, s ? n + 1 : 0);
	if (n)
		g_byte_array_append(b, (const guint8 *)s, (guint)n);
}

uint64_t ms_get_var(struct ms_rd *r)
{
	uint64_t v = 0;

	for (int shift = 0; r->ok; shift += 7) {
		uint8_t x;

		if (r->p == r->end || shift > 63) {
			r->ok = false;
			break;
		}
		x = *r->p++;
		v |= (uint64_t)(x & 0x7f) << shift;
		if (!(x & 0x80))
			return v;
	}
	return 0;
}

int64_t ms_get_svar(struct ms_rd *r)
{
	uint64_t v = ms_get_var(r);

	return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

const uint8_t *ms_get_bytes(struct ms_rd *r, size_t n)
{
	const uint8_t *at = r->p;

	if (!r->ok || (size_t)(r->end - r->p) < n) {
		r->ok = false;
		return NULL;
	}
	r->p += n;
	return at;
}

uint64_t ms_get_le(struct ms_rd *r, int n)
{
	const uint8_t *p = ms_get_bytes(r, (size_t)n);
	uint64_t v = 0;

	for (int i = n - 1; p && i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

const char *ms_get_mem(struct ms_rd *r, size_t *len)
{
	uint64_t n = ms_get_var(r);
	const uint8_t *p;

	*len = 0;
	if (!r->ok || n > (uint64_t)(r->end - r->p)) {
		r->ok = false;
		return NULL;
	}
	p = ms_get_bytes(r, (size_t)n);
	*len = (size_t)n;
	return (const char *)p;
}

char *ms_get_str(struct ms_rd *r)
{
	size_t n;
	const char *p = ms_get_mem(r, &n);

	if (!p || memchr(p, '\0', n)) {
		r->ok = false;
		return NULL;
	}
	return g_strndup(p, n);
}

char *ms_get_opt(struct ms_rd *r)
{
	uint64_t n = ms_get_var(r);
	const uint8_t *p;

	if (!r->ok || !n)
		return NULL;
	p = ms_get_bytes(r, (size_t)(n - 1));
	if (!p || memchr(p, '\0', (size_t)(n - 1))) {
		r->ok = false;
		return NULL;
	}
	return g_strndup((const char *)p, (gsize)(n - 1));
}

void ms_hex(const void *bin, size_t n, char *out)
{
	static const char digit[] = "0123456789abcdef";
	const uint8_t *p = bin;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digit[p[i] >> 4];
		out[2 * i + 1] = digit[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/*
 * Each hex digit's value plus one, 0 for any other byte: a warm walk
 * decodes three ids per stored commit, and a table beats the branches.
 */
static const uint8_t xdigits[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
	['E'] = 15, ['F'] = 16,
};

bool ms_unhex(const char *hex, size_t n, void *out)
{
	const uint8_t *h = (const uint8_t *)hex;
	uint8_t *o = out;

	for (size_t i = 0; i < n; i++) {
		unsigned hi = xdigits[h[2 * i]];
		unsigned lo = hi ? xdigits[h[2 * i + 1]] : 0;

		if (!lo)
			return false;
		o[i] = (uint8_t)((hi - 1) << 4 | (lo - 1));
	}
	return true;
}

bool ms_id_unhex(const char *hex, size_t len, void *raw)
{
	return len == 40 && ms_unhex(hex, 20, raw);
}

guint ms_id_hash(gconstpointer id)
{
	guint h;

	memcpy(&h, id, sizeof(h));
	return h;
}

guint ms_str_hash(gconstpointer s)
{
	const char *p = s;
	size_t n = strlen(p);
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xff51afd7ed558ccdu;
	return (guint)(h ^ h >> 29);
}

gboolean ms_id_equal(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, 20) == 0;
}

int ms_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int ms_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
