/*
 * store-results.c - a command's finished result, kept between runs
 * (store.h, ms_store_result_get()): a row of table `models` framed with
 * its lengths and a CRC-64.
 */
#include "store-internal.h"

#include <glib.h>
#include <string.h>

/* "MSR1", the CRC-64, the lengths of the facts and of the output (both
 * little-endian 64-bit), then the facts and the output. */
#define RESULT_MAGIC "MSR1"
#define RESULT_HEAD (4 + 8 + 8 + 8)

static void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The check of a result: its key, the two lengths, the facts and the
 * output. */
static uint64_t result_crc(const char *key, const unsigned char *lens,
			   const void *facts, size_t facts_len,
			   const void *out, size_t out_len)
{
	uint64_t crc = ms_crc64(0, key, strlen(key) + 1);

	crc = ms_crc64(crc, lens, 16);
	crc = ms_crc64(crc, facts, facts_len);
	return ms_crc64(crc, out, out_len);
}

int ms_store_result_get(struct ms_store *s, const char *kind, const char *key,
			GBytes **facts, GBytes **out)
{
	GBytes *data = NULL;
	const unsigned char *p;
	uint64_t fl, ol;
	size_t n;
	int rc;

	*facts = NULL;
	*out = NULL;
	rc = ms_store_model_get(s, kind, key, &data);
	if (rc < 0 || !data)
		return rc;
	p = g_bytes_get_data(data, &n);
	if (n < RESULT_HEAD || memcmp(p, RESULT_MAGIC, 4))
		goto out;
	fl = get_u64(p + 12);
	ol = get_u64(p + 20);
	if (fl > n - RESULT_HEAD || ol != n - RESULT_HEAD - fl)
		goto out;
	if (result_crc(key, p + 12, p + RESULT_HEAD, (size_t)fl,
		       p + RESULT_HEAD + fl, (size_t)ol) != get_u64(p + 4))
		goto out;
	*facts = g_bytes_new_from_bytes(data, RESULT_HEAD, (gsize)fl);
	*out = g_bytes_new_from_bytes(data, RESULT_HEAD + (gsize)fl,
				      (gsize)ol);
out:
	g_bytes_unref(data);
	return 0;
}

int ms_store_result_put(struct ms_store *s, const char *kind, const char *key,
			const void *facts, size_t facts_len, const void *out,
			size_t out_len)
{
	size_t n = RESULT_HEAD + facts_len + out_len;
	unsigned char *buf = g_malloc(n);
	int rc;

	memcpy(buf, RESULT_MAGIC, 4);
	put_u64(buf + 12, facts_len);
	put_u64(buf + 20, out_len);
	put_u64(buf + 4, result_crc(key, buf + 12, facts, facts_len, out,
				    out_len));
	memcpy(buf + RESULT_HEAD, facts, facts_len);
	memcpy(buf + RESULT_HEAD + facts_len, out, out_len);
	rc = ms_store_model_put(s, kind, key, buf, n);
	g_free(buf);
	return rc;
}
