/*
 * link-mail.c - the mail side of linking (link.h): the archives read into
 * a mail index and each record's files, through the store and its
 * snapshots.
 */
#include "link-internal.h"
#include "bytes.h"
#include "store.h"

#include <string.h>

/* ---- the mail side ---- */

/* Keep `a` (a message's list) at `rec` of `per_rec` when not empty. */
static void keep_at(GPtrArray *per_rec, uint32_t rec, GPtrArray *a)
{
	while (per_rec->len <= rec)
		g_ptr_array_add(per_rec, NULL);
	per_rec->pdata[rec] = a && a->len ? g_ptr_array_ref(a) : NULL;
}

static int on_mail(struct ms_mail *m, const struct ms_mail_source *src,
		   void *data)
{
	struct ms_link_mail *lm = data;
	uint32_t rec = ms_mail_index_add(lm->idx, m);

	/* kept as the message had them (its strings freed with them): no
	 * copy of every path of every message */
	keep_at(lm->files, rec, m->has_diff ? m->files : NULL);
	keep_at(lm->preimages, rec, m->has_diff ? m->preimages : NULL);
	if (lm->opts->hook)
		lm->opts->hook(m, rec, lm->opts->hook_data);
	ms_mail_free(m);
	if (lm->opts->progress)
		lm->opts->progress(rec + 1, lm->opts->progress_data);
	return ms_mail_index_check_size(lm->idx, src->path);
}

static void files_free(gpointer p)
{
	g_clear_pointer(&p, g_ptr_array_unref);
}

/*
 * The mail snapshot kept in the store (store.h, ms_store_mail_snapshot_*):
 * the index before ms_mail_index_finish(), with each record's files and,
 * after an empty string, its pre-image blobs (diff_of()).  Its kind
 * changes with the index's dump version and with what on_mail() keeps.
 */
#define SNAPSHOT_KIND (MS_MAIL_INDEX_DUMP_VERSION * 100 + 2)

/* With a hook, its answers follow the index (opts->hook_dump's bytes,
 * then their length, 64-bit little-endian), under a kind of its own:
 * link's and review's snapshots of one archive are kept side by side. */
static int snapshot_kind(const struct ms_link_mail_opts *opts)
{
	return opts->hook ? SNAPSHOT_KIND + 50 : SNAPSHOT_KIND;
}

/* The index of snapshot `b` (and its files in *files), the hook's
 * answers taken back; NULL when either does not load. */
static struct ms_mail_index *snapshot_load(const struct ms_link_mail_opts *o,
					   GBytes *b, GPtrArray **files)
{
	gsize n;
	const uint8_t *p = g_bytes_get_data(b, &n);
	struct ms_rd r = MS_RD_INIT(p + (n >= 8 ? n - 8 : n), n >= 8 ? 8 : 0);
	uint64_t len = ms_get_le(&r, 8);
	struct ms_mail_index *idx;
	GBytes *ib;

	*files = NULL;
	if (!o->hook)
		return ms_mail_index_load(b, files);
	if (!r.ok || len > n - 8)
		return NULL;
	ib = g_bytes_new_from_bytes(b, 0, n - 8 - len);
	idx = ms_mail_index_load(ib, files);
	g_bytes_unref(ib);
	if (idx && !o->hook_load(p + n - 8 - len, len, o->hook_data)) {
		ms_mail_index_free(idx);
		g_clear_pointer(files, g_ptr_array_unref);
		idx = NULL;
	}
	return idx;
}

/*
 * A snapshot is saved again only when the messages after it (replayed
 * from their records on every run, which costs little) pass 1/32 of it:
 * re-saving writes the whole index, so a weekly re-run that adds 1% does
 * it every few weeks, not every time.
 */
static bool snapshot_behind(const struct ms_store_mail_mark *from,
			    const struct ms_store_mail_mark *to)
{
	return to->count - from->count > from->count / 32;
}

static const GPtrArray *at(const GPtrArray *per_rec, uint32_t rec)
{
	return rec < per_rec->len ? per_rec->pdata[rec] : NULL;
}

/* Record `rec`'s files, "" and its pre-image blobs: the list the
 * snapshot keeps (valid until the next call). */
static const GPtrArray *diff_of(uint32_t rec, void *data)
{
	struct ms_link_mail *lm = data;
	const GPtrArray *f = at(lm->files, rec), *p = at(lm->preimages, rec);

	if (!p)
		return f;
	g_ptr_array_set_size(lm->scratch, 0);
	for (guint i = 0; f && i < f->len; i++)
		g_ptr_array_add(lm->scratch, f->pdata[i]);
	g_ptr_array_add(lm->scratch, "");
	for (guint i = 0; i < p->len; i++)
		g_ptr_array_add(lm->scratch, p->pdata[i]);
	return lm->scratch;
}

/* diff_of()'s lists, loaded, back into files and pre-image blobs. */
static void split_loaded(struct ms_link_mail *lm, GPtrArray *loaded)
{
	lm->files = loaded;
	for (guint r = 0; r < loaded->len; r++) {
		GPtrArray *l = loaded->pdata[r], *p;
		guint sep = 0;

		while (l && sep < l->len && *(char *)l->pdata[sep])
			sep++;
		if (!l || sep == l->len)
			continue;
		p = g_ptr_array_new();
		for (guint i = sep + 1; i < l->len; i++)
			g_ptr_array_add(p, l->pdata[i]);
		keep_at(lm->preimages, r, p);
		g_ptr_array_unref(p);
		g_ptr_array_set_size(l, sep);
		if (!sep)
			g_clear_pointer(&loaded->pdata[r], g_ptr_array_unref);
	}
}

/* A snapshot to save, and the outcome. */
struct snapshot_save {
	struct ms_store *store;
	struct ms_store_mail_mark mark;
	GByteArray *bytes;       /* NULL: nothing to save */
	int kind;
	int rc;
	char *error;
};

static gpointer save_main(gpointer data)
{
	struct snapshot_save *sv = data;

	sv->rc = ms_store_mail_snapshot_put(sv->store, sv->kind,
					    &sv->mark, sv->bytes->data,
					    sv->bytes->len);
	if (sv->rc < 0)
		sv->error = g_strdup(ms_error_last());
	return NULL;
}

/*
 * Read the one archive of `opts` resuming from the snapshot saved by the
 * last run, and dump the new state into `sv` when it changed.
 * MS_ESTALE (with lm reset and nothing added to `diags`) when the
 * snapshot turns out not to apply: the caller then reads the archive in
 * full.
 */
static int load_resumed(const struct ms_link_mail_opts *opts,
			struct ms_link_mail *lm, bool use_snapshot,
			struct snapshot_save *sv, struct ms_diags *diags)
{
	struct ms_store_mail_mark from, to;
	struct ms_mail_read_result res;
	struct ms_diags mine = MS_DIAGS_INIT;
	struct ms_mail_index *idx = NULL;
	GPtrArray *files = NULL;
	GBytes *b = NULL;
	int rc;

	rc = use_snapshot ? ms_store_mail_snapshot_get(opts->store,
			opts->archives[0], snapshot_kind(opts), &b, &from) : 0;
	if (rc < 0)
		return rc;
	if (b) {
		idx = snapshot_load(opts, b, &files);
		g_bytes_unref(b);
	}
	lm->idx = idx ? idx : ms_mail_index_new();
	lm->preimages = g_ptr_array_new_with_free_func(files_free);
	if (files)
		split_loaded(lm, files);
	else
		lm->files = g_ptr_array_new_with_free_func(files_free);
	ms_mail_read_result_init(&res);
	rc = ms_store_mail_parse_archive_from(opts->store, opts->archives[0],
					     opts->parse_flags,
					     idx ? &from : NULL, &to, on_mail,
					     lm, &res, &mine);
	ms_mail_read_result_release(&res);
	if (rc == MS_ESTALE && idx) {
		if (opts->hook)   /* it may have seen records since */
			opts->hook_load(NULL, 0, opts->hook_data);
		ms_diags_release(&mine);
		g_clear_pointer(&lm->idx, ms_mail_index_free);
		g_clear_pointer(&lm->files, g_ptr_array_unref);
		g_clear_pointer(&lm->preimages, g_ptr_array_unref);
		return MS_ESTALE;
	}
	for (size_t i = 0; i < mine.nr; i++)
		ms_diags_add(diags, mine.items[i].file, mine.items[i].line,
			     "%s", mine.items[i].message);
	ms_diags_release(&mine);
	if (rc == 0 && to.inbox && (!idx || snapshot_behind(&from, &to))) {
		guint at;

		sv->bytes = g_byte_array_new();
		sv->mark = to;
		sv->kind = snapshot_kind(opts);
		if (!ms_mail_index_dump(lm->idx, diff_of, lm, sv->bytes))
			g_clear_pointer(&sv->bytes, g_byte_array_unref);
		at = sv->bytes ? sv->bytes->len : 0;
		if (sv->bytes && opts->hook &&
		    !opts->hook_dump(sv->bytes, opts->hook_data))
			g_clear_pointer(&sv->bytes, g_byte_array_unref);
		else if (sv->bytes && opts->hook)
			ms_put_le(sv->bytes, sv->bytes->len - at, 8);
	}
	return rc;
}

int ms_link_mail_load(const struct ms_link_mail_opts *opts,
		      struct ms_link_mail **out, struct ms_diags *diags)
{
	struct ms_link_mail *lm = g_new0(struct ms_link_mail, 1);
	struct snapshot_save sv = { 0 };
	GThread *saver = NULL;
	int rc = 0;

	*out = NULL;
	lm->opts = opts;
	lm->scratch = g_ptr_array_new();
	/* one archive, nothing but the index (and what a hook keeps with
	 * it) wanted: resume from the snapshot of the last run */
	if (opts->store && opts->nr_archives == 1 &&
	    (opts->hook ? opts->hook_dump && opts->hook_load :
	     !(opts->parse_flags & MS_MAIL_PARSE_KEEP_BODY))) {
		rc = load_resumed(opts, lm, true, &sv, diags);
		if (rc == MS_ESTALE)  /* the snapshot is outdated: replace it */
			rc = load_resumed(opts, lm, false, &sv, diags);
		if (rc < 0) {
			ms_link_mail_free(lm);
			return rc;
		}
		/* written while the index is finished: the bytes are a copy */
		if (sv.bytes) {
			sv.store = opts->store;
			saver = g_thread_new("ms-snapshot", save_main, &sv);
		}
		goto done;
	}
	lm->idx = ms_mail_index_new();
	lm->files = g_ptr_array_new_with_free_func(files_free);
	lm->preimages = g_ptr_array_new_with_free_func(files_free);
	for (size_t i = 0; i < opts->nr_archives; i++) {
		struct ms_mail_read_result res;

		ms_mail_read_result_init(&res);
		rc = ms_store_mail_parse_archive(opts->store,
						 opts->archives[i],
						 opts->parse_flags, on_mail,
						 lm, &res, diags);
		ms_mail_read_result_release(&res);
		if (rc < 0) {
			ms_link_mail_free(lm);
			return rc;
		}
	}
done:
	ms_mail_index_finish(lm->idx);
	if (saver) {
		g_thread_join(saver);
		g_byte_array_unref(sv.bytes);
		if (sv.rc < 0) {
			ms_error_set(sv.rc, "%s", sv.error);
			g_free(sv.error);
			ms_link_mail_free(lm);
			return sv.rc;
		}
	}
	lm->opts = NULL;
	*out = lm;
	return 0;
}

void ms_link_mail_free(struct ms_link_mail *lm)
{
	if (!lm)
		return;
	ms_mail_index_free(lm->idx);
	g_clear_pointer(&lm->files, g_ptr_array_unref);
	g_clear_pointer(&lm->preimages, g_ptr_array_unref);
	g_ptr_array_unref(lm->scratch);
	g_free(lm);
}

const struct ms_mail_index *ms_link_mail_index(const struct ms_link_mail *lm)
{
	return lm->idx;
}

const GPtrArray *ms_link_mail_files(const struct ms_link_mail *lm,
				    uint32_t rec)
{
	return at(lm->files, rec);
}

const GPtrArray *ms_link_mail_preimages(const struct ms_link_mail *lm,
					uint32_t rec)
{
	return at(lm->preimages, rec);
}
