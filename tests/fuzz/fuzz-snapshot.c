/*
 * fuzz-snapshot.c - libFuzzer target for ms_mail_index_load(): a mail
 * index snapshot read back from a damaged store must be refused or read
 * within its bounds, never crash.  The bytes tried are a real snapshot
 * (of a few messages built here, with per-record string lists) edited by
 * the input's first six triples (two bytes of position, one of value);
 * an input starting with 'R' is tried as a snapshot as it is.  A snapshot that loads is then extended,
 * finished and dumped again, as a warm run does.
 */
#include "mail.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const msgs[] = {
	"From: A <a@example.org>\nSubject: [PATCH v2 0/2] x: y\n"
	"Message-ID: <c@x>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\nc\n",
	"From: A <a@example.org>\nSubject: [PATCH v2 1/2] x: y\n"
	"Message-ID: <p1@x>\nIn-Reply-To: <c@x>\nReferences: <c@x>\n"
	"Date: Mon, 1 Jan 2024 00:01:00 +0000\n\nd\n---\n"
	"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
	"From: B <b@example.org>\nSubject: Re: [PATCH v2 1/2] x: y\n"
	"Message-ID: <r@x>\nIn-Reply-To: <p1@x>\nReferences: <c@x> <p1@x>\n"
	"Date: Mon, 1 Jan 2024 01:00:00 +0000\n\nReviewed-by: B "
	"<b@example.org>\n",
	"Subject: no id\n\nbody\n",
};

static GBytes *base;
static GPtrArray *lists;

static const GPtrArray *list_of(uint32_t rec, void *data)
{
	(void)data;
	return rec < lists->len ? lists->pdata[rec] : NULL;
}

static void init(void)
{
	struct ms_mail_index *idx = ms_mail_index_new();
	GByteArray *a = g_byte_array_new();

	lists = g_ptr_array_new();
	for (size_t i = 0; i < G_N_ELEMENTS(msgs); i++) {
		struct ms_mail *m = ms_mail_parse(msgs[i], strlen(msgs[i]), 0,
						  0);
		GPtrArray *l = g_ptr_array_new();

		g_ptr_array_add(l, (gpointer)"f");
		g_ptr_array_add(l, (gpointer)"g/h");
		g_ptr_array_add(lists, i % 2 ? l : NULL);
		if (i % 2 == 0)
			g_ptr_array_unref(l);
		ms_mail_index_add(idx, m);
		ms_mail_free(m);
	}
	ms_mail_index_dump(idx, list_of, NULL, a);
	ms_mail_index_free(idx);
	base = g_byte_array_free_to_bytes(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_mail_index *idx;
	GPtrArray *extra = NULL;
	GBytes *b;

	if (!base)
		init();
	if (size && data[0] == 'R') {
		b = g_bytes_new(data + 1, size - 1);
	} else {
		gsize n;
		const guint8 *p = g_bytes_get_data(base, &n);
		guint8 *c = g_memdup2(p, n);

		/* a few edits: most inputs then get past the header */
		for (size_t i = 0; i + 2 < size && i < 3 * 6; i += 3)
			c[((size_t)data[i] << 8 | data[i + 1]) % n] = data[i + 2];
		b = g_bytes_new_take(c, n);
	}
	idx = ms_mail_index_load(b, &extra);
	g_bytes_unref(b);
	if (idx) {
		struct ms_mail *m = ms_mail_parse(msgs[2], strlen(msgs[2]), 0,
						  0);
		GByteArray *a = g_byte_array_new();
		struct ms_mail_stats st;

		ms_mail_index_add(idx, m);
		ms_mail_free(m);
		ms_mail_index_dump(idx, NULL, NULL, a);
		g_byte_array_unref(a);
		ms_mail_index_finish(idx);
		ms_mail_index_stats(idx, &st);
		ms_mail_index_free(idx);
	}
	if (extra)
		g_ptr_array_unref(extra);
	return 0;
}
