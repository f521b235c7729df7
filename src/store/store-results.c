/*
 * store-results.c - a command's finished result, kept between runs
 * (store.h, ms_store_result_get()): a model (store-models.c) framed with
 * its lengths and a CRC-64.
 */
#include "store-internal.h"

#include <glib.h>
#include <string.h>

/* "MSR2", the CRC-64, the lengths of the facts, the output and the
 * messages (each little-endian 64-bit), then the three. */
#define RESULT_MAGIC "MSR2"
#define RESULT_PARTS 3
#define RESULT_HEAD (4 + 8 + 8 * RESULT_PARTS)

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

/* The check of a result: its key, then everything after the CRC (the
 * lengths and the parts). */
static uint64_t result_crc(const char *key, const unsigned char *rest,
			   size_t len)
{
	return ms_crc64(ms_crc64(0, key, strlen(key) + 1), rest, len);
}

int ms_store_result_get(struct ms_store *s, const char *kind, const char *key,
			struct ms_store_result *r)
{
	GBytes *data = NULL, **parts[RESULT_PARTS] = { &r->facts, &r->out,
						       &r->err };
	const unsigned char *p;
	uint64_t len[RESULT_PARTS], at = RESULT_HEAD;
	size_t n;
	int rc;

	*r = (struct ms_store_result){ NULL, NULL, NULL };
	rc = ms_store_model_get(s, kind, key, &data);
	if (rc < 0 || !data)
		return rc;
	p = g_bytes_get_data(data, &n);
	if (n < RESULT_HEAD || memcmp(p, RESULT_MAGIC, 4) ||
	    result_crc(key, p + 12, n - 12) != get_u64(p + 4))
		goto out;
	for (int i = 0; i < RESULT_PARTS; i++) {
		len[i] = get_u64(p + 12 + 8 * i);
		if (len[i] > n - at)
			goto out;
		at += len[i];
	}
	if (at != n)
		goto out;
	at = RESULT_HEAD;
	for (int i = 0; i < RESULT_PARTS; i++) {
		*parts[i] = g_bytes_new_from_bytes(data, (gsize)at,
						   (gsize)len[i]);
		at += len[i];
	}
out:
	g_bytes_unref(data);
	return 0;
}

void ms_store_result_release(struct ms_store_result *r)
{
	g_clear_pointer(&r->facts, g_bytes_unref);
	g_clear_pointer(&r->out, g_bytes_unref);
	g_clear_pointer(&r->err, g_bytes_unref);
}

int ms_store_result_put(struct ms_store *s, const char *kind, const char *key,
			const GString *facts, const char *out, size_t out_len,
			const GString *err)
{
	struct ms_store_piece pieces[1 + RESULT_PARTS] = {
		{ NULL, 0 }, { facts->str, facts->len }, { out, out_len },
		{ err->str, err->len },
	};
	unsigned char head[RESULT_HEAD];
	uint64_t crc;

	/* the head, then the parts where they are: a result is gigabytes
	 * at kernel scale, and is not copied to be saved */
	memcpy(head, RESULT_MAGIC, 4);
	for (int i = 0; i < RESULT_PARTS; i++)
		put_u64(head + 12 + 8 * i, pieces[1 + i].len);
	crc = result_crc(key, head + 12, RESULT_HEAD - 12);
	for (int i = 1; i <= RESULT_PARTS; i++)
		crc = ms_crc64(crc, pieces[i].data, pieces[i].len);
	put_u64(head + 4, crc);
	pieces[0] = (struct ms_store_piece){ head, RESULT_HEAD };
	return ms_store_model_putv(s, kind, key, pieces, 1 + RESULT_PARTS);
}
