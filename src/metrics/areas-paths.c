/*
 * areas-paths.c - the touched paths of each commit record of the
 * activity model (areas.h), which its saved model does not hold: from
 * the load's walk, the store's "areas-paths" row, or git.
 *
 * The row is one value of the store's cache (store.h, which checks its
 * bytes), in the codec of bytes.h: the number of paths, the paths, the
 * number of commits, then per commit its raw id (20 bytes), its number
 * of paths and their numbers (varints).  Commits are named by id, so the
 * row holds for any revision and window; it is keyed by the row's format
 * and the store's commit extraction version (what the walk calls a
 * touched path).
 */
#include "activity.h"
#include "areas.h"
#include "bytes.h"
#include "history.h"
#include "store.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#define ROW_KIND "areas-paths"
/* fewer missing commits than this are read from git one by one */
#define FEW_MISSING 2000
/* fewer new commits than this do not rewrite the row */
#define FEW_FRESH 64

struct ms_commit_paths {
	GStringChunk *chunk;
	GPtrArray *paths;         /* const char *, into chunk */
	guint32 *off;             /* per record: from off[i] to off[i + 1] */
	bool *have;               /* per record: its paths are known */
	size_t nr;
	size_t walked, stored, read;
	/* while filling: per record, its paths as a new array, or (those
	 * of the store's row, nearly all of a warm run's) at row_at[i] - 1
	 * in `rowp`, row_n[i] of them; then moved into `paths` in record
	 * order */
	GPtrArray **tmp;
	GPtrArray *rowp;
	guint32 *row_at, *row_n;
};

/* Record i's paths `p` (copied into cp->chunk). */
static void set_paths(struct ms_commit_paths *cp, size_t i,
		      const char *const *p, size_t n)
{
	GPtrArray *t = g_ptr_array_sized_new((guint)n);

	for (size_t k = 0; k < n; k++)
		g_ptr_array_add(t, (gpointer)g_string_chunk_insert_const(
					   cp->chunk, p[k]));
	cp->tmp[i] = t;
	cp->have[i] = true;
}

/* Take the paths of the records lacking them from the saved row
 * (`ids`: raw id -> record index + 1); false when it does not hold. */
static bool row_take(struct ms_commit_paths *cp, GHashTable *ids,
		     const unsigned char *p, size_t len)
{
	struct ms_rd r = MS_RD_INIT(p, len);
	GPtrArray *names = g_ptr_array_new();
	uint64_t n = ms_get_var(&r);
	const char **v = NULL;

	/* each name into the chunk once, not once per commit naming it */
	for (uint64_t k = 0; k < n && r.ok; k++) {
		char *name = ms_get_str(&r);

		if (name)
			g_ptr_array_add(names, g_string_chunk_insert_const(
				cp->chunk, name));
		g_free(name);
	}
	n = ms_get_var(&r);
	for (uint64_t c = 0; c < n && r.ok; c++) {
		const uint8_t *id = ms_get_bytes(&r, 20);
		uint64_t np = ms_get_var(&r);
		gpointer at = id ? g_hash_table_lookup(ids, id) : NULL;
		bool take = at && !cp->have[GPOINTER_TO_SIZE(at) - 1];

		if (np > (uint64_t)(r.end - r.p))
			r.ok = false;
		v = take && r.ok ? g_renew(const char *, v, np + 1) : v;
		for (uint64_t k = 0; k < np && r.ok; k++) {
			uint64_t x = ms_get_var(&r);

			r.ok = r.ok && x < names->len;
			if (take && r.ok)
				v[k] = names->pdata[x];
		}
		if (take && r.ok) {
			size_t i = GPOINTER_TO_SIZE(at) - 1;

			/* one array for the row, not one per commit */
			cp->row_at[i] = cp->rowp->len + 1;
			cp->row_n[i] = (guint32)np;
			for (uint64_t k = 0; k < np; k++)
				g_ptr_array_add(cp->rowp, (gpointer)v[k]);
			cp->have[i] = true;
			cp->stored++;
		}
	}
	g_free(v);
	g_ptr_array_free(names, TRUE);
	return ms_rd_done(&r);
}

struct walk_fill {
	struct ms_commit_paths *cp;
	GHashTable *missing;      /* hex id -> record index + 1 */
};

static int fill_one(const struct ms_commit *c, void *data)
{
	struct walk_fill *w = data;
	gpointer at = g_hash_table_lookup(w->missing, c->id);

	if (at && !w->cp->have[GPOINTER_TO_SIZE(at) - 1]) {
		set_paths(w->cp, GPOINTER_TO_SIZE(at) - 1, c->paths,
			  c->nr_paths);
		w->cp->read++;
	}
	return 0;
}

/* Read the paths of the records still lacking them from git. */
static int fill_from_git(struct ms_commit_paths *cp,
			 const struct ms_activity *a, struct ms_store *store,
			 const char *rev, bool merges,
			 struct ms_diags *diags)
{
	struct walk_fill w = { cp, NULL };
	struct ms_walk_opts wo = { 0 };
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	int rc;

	w.missing = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < cp->nr; i++) {
		struct ms_act_record r;
		char *id;

		if (cp->have[i])
			continue;
		ms_activity_record(a, i, &r);
		id = g_strdup(r.id);
		g_ptr_array_add(ids, id);
		g_hash_table_insert(w.missing, id, GSIZE_TO_POINTER(i + 1));
	}
	rc = 0;
	if (ids->len) {
		wo.flags = merges ? MS_WALK_MERGES : 0;
		wo.fn = fill_one;
		wo.data = &w;
		if (ids->len < FEW_MISSING || !store) {
			wo.ids = (const char *const *)ids->pdata;
			wo.nr_ids = ids->len;
		} else {
			wo.rev = rev;
		}
		rc = ms_store_history_walk(wo.ids ? NULL : store,
					   ms_activity_gitdir(a), &wo, NULL,
					   diags);
	}
	g_hash_table_destroy(w.missing);
	g_ptr_array_free(ids, TRUE);
	return rc < 0 ? rc : 0;
}

static int row_save(const struct ms_commit_paths *cp,
		    const struct ms_activity *a, struct ms_store *store,
		    const char *key)
{
	GByteArray *b = g_byte_array_new();
	GHashTable *num = g_hash_table_new(NULL, NULL);
	GPtrArray *order = g_ptr_array_new();
	int rc;

	for (guint i = 0; i < cp->paths->len; i++)
		if (!g_hash_table_contains(num, cp->paths->pdata[i])) {
			g_hash_table_insert(num, cp->paths->pdata[i],
					    GUINT_TO_POINTER(order->len));
			g_ptr_array_add(order, cp->paths->pdata[i]);
		}
	ms_put_var(b, order->len);
	for (guint i = 0; i < order->len; i++)
		ms_put_str(b, order->pdata[i]);
	ms_put_var(b, cp->nr);
	for (size_t i = 0; i < cp->nr; i++) {
		struct ms_act_record r;
		unsigned char raw[20];

		ms_activity_record(a, i, &r);
		ms_unhex(r.id, 20, raw);
		g_byte_array_append(b, raw, 20);
		ms_put_var(b, cp->off[i + 1] - cp->off[i]);
		for (guint32 k = cp->off[i]; k < cp->off[i + 1]; k++)
			ms_put_var(b, GPOINTER_TO_UINT(g_hash_table_lookup(
				num, cp->paths->pdata[k])));
	}
	rc = ms_store_model_put(store, ROW_KIND, key, 1, b->data, b->len);
	g_byte_array_free(b, TRUE);
	g_hash_table_destroy(num);
	g_ptr_array_free(order, TRUE);
	return rc;
}

/* Take the walked paths, then the row's. */
static void take_known(struct ms_commit_paths *cp,
		       const struct ms_activity *a, struct ms_store *store,
		       const char *key, struct ms_diags *diags)
{
	GHashTable *ids;
	GBytes *saved = NULL;
	unsigned char *raws;
	size_t missing = 0;
	gsize len;
	const unsigned char *data;

	for (size_t i = 0; i < cp->nr; i++) {
		size_t n;
		const char *const *p = ms_activity_walked_paths(a, i, &n);

		if (p) {
			set_paths(cp, i, p, n);
			cp->walked++;
		} else {
			missing++;
		}
	}
	if (!missing || !store)
		return;
	if (ms_store_model_get(store, ROW_KIND, key, &saved) < 0) {
		ms_diags_add(diags, NULL, 0, "the commits' paths were not "
			     "read from the store: %s", ms_error_last());
		ms_error_clear();
		return;
	}
	if (!saved)
		return;
	raws = g_malloc(20 * (cp->nr ? cp->nr : 1));
	ids = g_hash_table_new(ms_id_hash, ms_id_equal);
	for (size_t i = 0; i < cp->nr; i++) {
		struct ms_act_record r;

		if (cp->have[i])
			continue;
		ms_activity_record(a, i, &r);
		ms_unhex(r.id, 20, raws + 20 * i);
		g_hash_table_insert(ids, raws + 20 * i,
				    GSIZE_TO_POINTER(i + 1));
	}
	data = g_bytes_get_data(saved, &len);
	if (!row_take(cp, ids, data, len)) {
		/* a damaged row: what it gave is still right (each commit's
		 * count was checked), the rest is read again */
		ms_diags_add(diags, NULL, 0, "the commits' paths saved in "
			     "the store do not read whole: read again");
	}
	g_hash_table_destroy(ids);
	g_free(raws);
	g_bytes_unref(saved);
}

int ms_commit_paths_load(const struct ms_activity *a, struct ms_store *store,
			 const char *rev, bool merges,
			 struct ms_commit_paths **out, struct ms_diags *diags)
{
	struct ms_commit_paths *cp = g_new0(struct ms_commit_paths, 1);
	char key[32];
	size_t fresh;
	int rc;

	*out = NULL;
	snprintf(key, sizeof(key), "v2-%d", MS_STORE_COMMIT_VERSION);
	cp->nr = ms_activity_nr_commits(a);
	cp->chunk = g_string_chunk_new(1 << 16);
	cp->paths = g_ptr_array_new();
	cp->off = g_new0(guint32, cp->nr + 1);
	cp->have = g_new0(bool, cp->nr ? cp->nr : 1);
	cp->tmp = g_new0(GPtrArray *, cp->nr ? cp->nr : 1);
	cp->rowp = g_ptr_array_new();
	cp->row_at = g_new0(guint32, cp->nr ? cp->nr : 1);
	cp->row_n = g_new0(guint32, cp->nr ? cp->nr : 1);
	take_known(cp, a, store, key, diags);
	rc = fill_from_git(cp, a, store, rev, merges, diags);
	for (size_t i = 0; i < cp->nr; i++) {
		GPtrArray *t = cp->tmp[i];
		gpointer *from = t ? t->pdata : cp->row_at[i] ?
			cp->rowp->pdata + cp->row_at[i] - 1 : NULL;
		guint n = t ? t->len : cp->row_n[i], at = cp->paths->len;

		cp->off[i] = at;
		if (!from || !n)
			goto next;
		g_ptr_array_set_size(cp->paths, (gint)(at + n));
		memcpy(cp->paths->pdata + at, from, n * sizeof(gpointer));
next:
		if (t)
			g_ptr_array_free(t, TRUE);
	}
	cp->off[cp->nr] = cp->paths->len;
	g_clear_pointer(&cp->tmp, g_free);
	g_clear_pointer(&cp->row_at, g_free);
	g_clear_pointer(&cp->row_n, g_free);
	g_ptr_array_free(cp->rowp, TRUE);
	cp->rowp = NULL;
	if (rc < 0) {
		ms_commit_paths_free(cp);
		return rc;
	}
	/* a row to keep when anything came from elsewhere; not for a few
	 * new commits beside a saved row: rewriting it (5.6 MB for U-Boot)
	 * costs more than reading their paths from git again on the next
	 * runs, until there are FEW_FRESH */
	fresh = cp->walked + cp->read;
	if (store && fresh && (fresh >= FEW_FRESH || !cp->stored) &&
	    row_save(cp, a, store, key) < 0) {
		ms_diags_add(diags, NULL, 0, "the commits' paths were not "
			     "kept in the store: %s", ms_error_last());
		ms_error_clear();
	}
	*out = cp;
	return 0;
}

const char *const *ms_commit_paths_get(const struct ms_commit_paths *cp,
				       size_t i, size_t *n)
{
	*n = cp->off[i + 1] - cp->off[i];
	return (const char *const *)cp->paths->pdata + cp->off[i];
}

void ms_commit_paths_sources(const struct ms_commit_paths *cp,
			     size_t *walked, size_t *stored, size_t *read)
{
	*walked = cp->walked;
	*stored = cp->stored;
	*read = cp->read;
}

void ms_commit_paths_free(struct ms_commit_paths *cp)
{
	if (!cp)
		return;
	if (cp->tmp)
		for (size_t i = 0; i < cp->nr; i++)
			if (cp->tmp[i])
				g_ptr_array_free(cp->tmp[i], TRUE);
	g_free(cp->tmp);
	g_free(cp->row_at);
	g_free(cp->row_n);
	if (cp->rowp)
		g_ptr_array_free(cp->rowp, TRUE);
	g_string_chunk_free(cp->chunk);
	g_ptr_array_free(cp->paths, TRUE);
	g_free(cp->off);
	g_free(cp->have);
	g_free(cp);
}
