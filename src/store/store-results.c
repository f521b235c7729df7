/*
 * store-results.c - a command's finished result, kept between runs
 * (store.h, ms_store_result_get()): one value of the cache
 * (store-models.c), the lengths of its three parts, then the parts.
 */
#include "store-internal.h"

#include <glib.h>
#include <string.h>

/* The lengths of the facts, the output and the messages (each 64-bit
 * little-endian), then the three. */
#define RESULT_KIND "result"
#define RESULT_ROWS 8             /* commands, formats, windows */
#define RESULT_PARTS 3
#define RESULT_HEAD (8 * RESULT_PARTS)

int ms_store_result_get(struct ms_store *s, const char *key,
			struct ms_store_result *r)
{
	GBytes *data = NULL, **parts[RESULT_PARTS] = { &r->facts, &r->out,
						       &r->err };
	uint64_t len[RESULT_PARTS], at = RESULT_HEAD;
	const void *p;
	size_t n;
	int rc;

	*r = (struct ms_store_result){ NULL, NULL, NULL };
	rc = ms_store_model_get(s, RESULT_KIND, key, &data);
	if (rc < 0 || !data)
		return rc;
	p = g_bytes_get_data(data, &n);
	{
		struct ms_rd rd = MS_RD_INIT(p, n);

		for (int i = 0; i < RESULT_PARTS; i++) {
			len[i] = ms_get_le(&rd, 8);
			if (len[i] > n - at)
				rd.ok = false;
			at += rd.ok ? len[i] : 0;
		}
		if (!rd.ok || at != n)
			goto out;
	}
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

int ms_store_result_put(struct ms_store *s, const char *key,
			const GString *facts, const char *out, size_t out_len,
			const GString *err)
{
	struct ms_store_piece pieces[1 + RESULT_PARTS] = {
		{ NULL, 0 }, { facts->str, facts->len }, { out, out_len },
		{ err->str, err->len },
	};
	GByteArray *head = g_byte_array_sized_new(RESULT_HEAD);
	int rc;

	/* the head, then the parts where they are: a result is gigabytes
	 * at kernel scale, and is not copied to be saved */
	for (int i = 0; i < RESULT_PARTS; i++)
		ms_put_le(head, pieces[1 + i].len, 8);
	pieces[0] = (struct ms_store_piece){ head->data, head->len };
	rc = ms_store_model_putv(s, RESULT_KIND, key, RESULT_ROWS, pieces,
				 1 + RESULT_PARTS);
	g_byte_array_free(head, TRUE);
	return rc;
}
