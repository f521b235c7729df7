/*
 * store-results.c - a command's finished result, kept between runs
 * (store.h, ms_store_result_get()): one value of the cache
 * (store-models.c), the lengths of its three parts, then the parts.
 */
#include "store-internal.h"

#include <glib.h>
#include <isa-l/igzip_lib.h>
#include <string.h>

/* The lengths of the facts, the output as kept and the messages, and
 * the output's own length when it is kept deflated, else 0 (each 64-bit
 * little-endian), then the three parts.  An output of 64 KiB or more is
 * deflated (ISA-L, level 1): pending's 3.9 MB of JSON on linux-watchdog
 * is 0.35 MB, deflated in 3 ms, where writing it whole was a tenth of
 * the CPU of a run after new mail (docs/performance.md). */
#define RESULT_KIND "result"
#define RESULT_ROWS 8             /* commands, formats, windows */
#define RESULT_PARTS 3
#define RESULT_HEAD (8 * (RESULT_PARTS + 1))
#define DEFLATE_FROM (64 * 1024)
#define DEFLATE_UPTO ((size_t)1 << 30)   /* one stateless call */

/* `len` bytes deflated into a new buffer (*out, *out_len), when that is
 * shorter; else false. */
static bool deflate(const char *data, size_t len, uint8_t **out,
		    size_t *out_len)
{
	struct isal_zstream z;
	uint8_t *lvl = g_malloc(ISAL_DEF_LVL1_DEFAULT);

	*out = g_malloc(len);
	isal_deflate_stateless_init(&z);
	z.level = 1;
	z.level_buf = lvl;
	z.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
	z.end_of_stream = 1;
	z.next_in = (uint8_t *)data;
	z.avail_in = (uint32_t)len;
	z.next_out = *out;
	z.avail_out = (uint32_t)len;
	if (isal_deflate_stateless(&z) != COMP_OK || z.avail_in) {
		g_clear_pointer(out, g_free);
	} else {
		*out_len = z.total_out;
	}
	g_free(lvl);
	return *out != NULL;
}

/* The kept output `in` inflated to its own `len` bytes; NULL when it
 * does not inflate to exactly that (damage: nothing saved). */
static GBytes *inflate(GBytes *in, uint64_t len)
{
	struct inflate_state st;
	gsize n;
	uint8_t *out = len <= DEFLATE_UPTO ? g_try_malloc(len) : NULL;

	if (!out)
		return NULL;
	isal_inflate_init(&st);
	st.next_in = (uint8_t *)g_bytes_get_data(in, &n);
	st.avail_in = (uint32_t)n;
	st.next_out = out;
	st.avail_out = (uint32_t)len;
	if (isal_inflate_stateless(&st) != ISAL_DECOMP_OK ||
	    st.total_out != len) {
		g_free(out);
		return NULL;
	}
	return g_bytes_new_take(out, len);
}

int ms_store_result_get(struct ms_store *s, const char *key,
			struct ms_store_result *r)
{
	GBytes *data = NULL, **parts[RESULT_PARTS] = { &r->facts, &r->out,
						       &r->err };
	uint64_t len[RESULT_PARTS], raw, at = RESULT_HEAD;
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
		raw = ms_get_le(&rd, 8);
		if (!rd.ok || at != n)
			goto out;
	}
	at = RESULT_HEAD;
	for (int i = 0; i < RESULT_PARTS; i++) {
		*parts[i] = g_bytes_new_from_bytes(data, (gsize)at,
						   (gsize)len[i]);
		at += len[i];
	}
	if (raw) {
		GBytes *out = inflate(r->out, raw);

		g_bytes_unref(r->out);
		r->out = out;
		if (!out)
			ms_store_result_release(r);
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
	uint8_t *packed = NULL;
	size_t packed_len;
	int rc;

	/* the head, then the parts where they are: a result is gigabytes
	 * at kernel scale, and is not copied to be saved whole */
	if (out_len >= DEFLATE_FROM && out_len <= DEFLATE_UPTO &&
	    deflate(out, out_len, &packed, &packed_len))
		pieces[2] = (struct ms_store_piece){ packed, packed_len };
	for (int i = 0; i < RESULT_PARTS; i++)
		ms_put_le(head, pieces[1 + i].len, 8);
	ms_put_le(head, packed ? out_len : 0, 8);
	pieces[0] = (struct ms_store_piece){ head->data, head->len };
	rc = ms_store_model_putv(s, RESULT_KIND, key, RESULT_ROWS, pieces,
				 1 + RESULT_PARTS);
	g_byte_array_free(head, TRUE);
	g_free(packed);
	return rc;
}
