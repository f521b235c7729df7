/*
 * store-snapshots.c - snapshots of a mail index kept in the store
 * (store.h): values of the one cache (store-models.c), kind
 * "mail-snapshot", keyed by the inbox's row and the caller's kind.  A
 * value is the mark (the last record's seq, the records' count and
 * bytes, the newest epoch: 64-bit little-endian each, bytes.h), then the
 * index.
 */
#include "store-internal.h"

#include <glib.h>
#include <sqlite3.h>

#define SNAP_KIND "mail-snapshot"
#define SNAP_KEEP 16              /* archives read through one store */
#define SNAP_HEAD 32

static char *snap_key(int64_t inbox, int kind)
{
	return g_strdup_printf("%lld:%d", (long long)inbox, kind);
}

int ms_store_mail_snapshot_get(struct ms_store *s, const char *path, int kind,
			       GBytes **data, struct ms_store_mail_mark *mark)
{
	char *key = store_archive_key(path);
	int64_t inbox = 0;
	GBytes *v = NULL;
	int rc;

	*data = NULL;
	*mark = (struct ms_store_mail_mark){ 0 };
	rc = store_query(s, "read a mail snapshot", &inbox, "SELECT id FROM "
			 "inboxes WHERE path = ?", "t", key);
	g_free(key);
	if (rc < 0 || !inbox)
		return rc;
	key = snap_key(inbox, kind);
	rc = ms_store_model_get(s, SNAP_KIND, key, &v);
	g_free(key);
	if (rc == 0 && v) {
		gsize n;
		const void *p = g_bytes_get_data(v, &n);
		struct ms_rd r = MS_RD_INIT(p, n);

		mark->seq = (int64_t)ms_get_le(&r, 8);
		mark->count = (int64_t)ms_get_le(&r, 8);
		mark->bytes = ms_get_le(&r, 8);
		mark->epoch = (int)(int64_t)ms_get_le(&r, 8);
		mark->inbox = inbox;
		if (r.ok)
			*data = g_bytes_new_from_bytes(v, SNAP_HEAD,
						       n - SNAP_HEAD);
		else
			*mark = (struct ms_store_mail_mark){ 0 };
		g_bytes_unref(v);
	}
	return rc;
}

int ms_store_mail_snapshot_put(struct ms_store *s, int kind,
			       const struct ms_store_mail_mark *mark,
			       const void *data, size_t len)
{
	GByteArray *head;
	struct ms_store_piece p[2];
	char *key;
	int rc;

	if (!mark->inbox)
		return 0;
	head = g_byte_array_sized_new(SNAP_HEAD);
	ms_put_le(head, (uint64_t)mark->seq, 8);
	ms_put_le(head, (uint64_t)mark->count, 8);
	ms_put_le(head, mark->bytes, 8);
	ms_put_le(head, (uint64_t)(int64_t)mark->epoch, 8);
	p[0] = (struct ms_store_piece){ head->data, head->len };
	p[1] = (struct ms_store_piece){ data, len };
	key = snap_key(mark->inbox, kind);
	rc = ms_store_model_putv(s, SNAP_KIND, key, SNAP_KEEP, p, 2);
	g_free(key);
	g_byte_array_free(head, TRUE);
	return rc;
}
