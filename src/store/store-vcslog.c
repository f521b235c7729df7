/*
 * store-vcslog.c - get_maintainer.pl's git log of each file (see
 * maint-cc-vcs.h), kept in the store's cache of derived data (kind
 * "gm-log", keyed by the commit and the file) with the date its --since
 * resolved to.  A log is made from the history model (the commits of
 * git's walk since that date, ms_store_since_walk(), with their touched
 * paths) and the objects (git-log.h), or by git where they cannot say
 * (a file some commit of the walk adds: --follow's copy search).  It is
 * reused while no commit of the history is dated
 * between that date and the one asked now: git's walk compares each
 * commit's date with the --since date and nothing else, so the log is
 * then the same bytes.  The sorted commit dates are kept too (kind
 * "gm-dates2", keyed by the commit).
 */
#include "store.h"
#include "bytes.h"
#include "git-log.h"
#include "maint-cc-vcs.h"

#include <glib.h>
#include <string.h>

#define LOG_KIND "gm-log1"
#define OLD_LOG_KIND "gm-log0"  /* QEMU's and Xen's command (mcc_vcs.old) */
#define DATES_KIND "gm-dates2"
#define LOG_KEEP 200000     /* files' logs: U-Boot has 38,000 files */

struct ms_store_vcs {
	struct ms_store *s;
	struct mcc_vcs v;
	char id[41];
	GArray *dates;      /* gint64, sorted */
	/* the commits git log --since walks (window()), or gl NULL */
	bool tried;
	struct ms_git_log *gl;
	GPtrArray *ids;     /* the non-merges, in git's order */
	GHashTable *touch;  /* path -> GArray of guint: indexes in ids */
	GHashTable *dirs;   /* each directory of a touched path */
	GStringChunk *chunk;
};

/* The sorted dates as a count and each one's distance from the one
 * before (varints): 107k U-Boot commits take 0.2 MB instead of 0.86,
 * and each warm run reads them (and the store rewrites them as used). */
static void put_dates(struct ms_store_vcs *c)
{
	GByteArray *b = g_byte_array_new();
	gint64 prev = 0;

	ms_put_var(b, c->dates->len);
	for (guint i = 0; i < c->dates->len; i++) {
		gint64 d = g_array_index(c->dates, gint64, i);

		if (i)
			ms_put_var(b, (uint64_t)(d - prev));
		else
			ms_put_svar(b, d);
		prev = d;
	}
	if (ms_store_model_put(c->s, DATES_KIND, c->id, 4, b->data, b->len) < 0)
		ms_error_clear();
	g_byte_array_free(b, TRUE);
}

static bool got_dates(struct ms_store_vcs *c, GBytes *b)
{
	gsize n;
	const void *p = g_bytes_get_data(b, &n);
	struct ms_rd r = MS_RD_INIT(p, n);
	uint64_t count = ms_get_var(&r);
	gint64 d = 0;

	/* a date takes a byte at least */
	if (!r.ok || count > n)
		return false;
	g_array_set_size(c->dates, (guint)count);
	for (uint64_t i = 0; i < count && r.ok; i++) {
		d = i ? d + (gint64)ms_get_var(&r) : ms_get_svar(&r);
		g_array_index(c->dates, gint64, i) = d;
	}
	if (ms_rd_done(&r))
		return true;
	g_array_set_size(c->dates, 0);
	return false;
}

static bool load_dates(struct ms_store_vcs *c)
{
	GBytes *b = NULL;
	bool got = false;

	if (ms_store_model_get(c->s, DATES_KIND, c->id, &b) < 0)
		ms_error_clear();
	if (b) {
		got = got_dates(c, b);
		g_bytes_unref(b);
	}
	if (got)
		return true;
	if (!mcc_vcs_dates(&c->v, c->id, c->dates))
		return false;
	put_dates(c);
	return true;
}

int ms_store_vcs_open(struct ms_store *s, const struct mcc_vcs *v,
		      struct ms_store_vcs **out)
{
	struct ms_store_vcs *c = g_new0(struct ms_store_vcs, 1);

	*out = NULL;
	c->s = s;
	c->v = *v;
	c->dates = g_array_new(FALSE, FALSE, sizeof(gint64));
	if (!mcc_vcs_resolve(v, c->id, &c->v.max_age) || !load_dates(c)) {
		ms_store_vcs_free(c);
		return 0;
	}
	c->v.resolved = true;
	c->v.rev = c->id;
	*out = c;
	return 0;
}

void ms_store_vcs_free(struct ms_store_vcs *c)
{
	if (!c)
		return;
	if (c->touch) {
		g_hash_table_destroy(c->touch);
		g_hash_table_destroy(c->dirs);
		g_ptr_array_free(c->ids, TRUE);
		g_string_chunk_free(c->chunk);
	}
	ms_git_log_free(c->gl);
	g_array_free(c->dates, TRUE);
	g_free(c);
}

/* Whether some commit is dated in [lo, hi). */
static bool dated_between(const GArray *dates, gint64 lo, gint64 hi)
{
	guint a = 0, b = dates->len;

	while (a < b) {
		guint m = a + (b - a) / 2;

		if (g_array_index(dates, gint64, m) < lo)
			a = m + 1;
		else
			b = m;
	}
	return a < dates->len && g_array_index(dates, gint64, a) < hi;
}

/* The saved lines of `key`, or NULL when none still holds. */
static GPtrArray *saved(struct ms_store_vcs *c, const char *key)
{
	GBytes *b = NULL;
	GPtrArray *lines = NULL;
	const char *p, *end, *nl;
	gint64 then;
	gsize n;

	if (ms_store_model_get(c->s, c->v.old ? OLD_LOG_KIND : LOG_KIND, key,
			       &b) < 0 || !b) {
		ms_error_clear();
		return NULL;
	}
	p = g_bytes_get_data(b, &n);
	end = p + n;
	nl = memchr(p, '\n', n);
	if (!nl)
		nl = end;   /* an empty log */
	{
		/* the bytes are not NUL-terminated */
		char *head = g_strndup(p, (gsize)(nl - p));

		then = g_ascii_strtoll(head, NULL, 10);
		g_free(head);
	}
	if (dated_between(c->dates, MIN(then, c->v.max_age),
			  MAX(then, c->v.max_age)))
		goto out;
	lines = g_ptr_array_new_with_free_func(g_free);
	for (p = nl + 1; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		g_ptr_array_add(lines, g_strndup(p, (gsize)(nl - p)));
	}
out:
	g_bytes_unref(b);
	return lines;
}

static int window_fn(const struct ms_commit *m, void *data)
{
	struct ms_store_vcs *c = data;
	guint at = c->ids->len;

	g_ptr_array_add(c->ids, g_string_chunk_insert_const(c->chunk, m->id));
	for (size_t i = 0; i < m->nr_paths; i++) {
		const char *p = g_string_chunk_insert_const(c->chunk,
							    m->paths[i]);
		GArray *a = g_hash_table_lookup(c->touch, p);

		if (!a) {
			a = g_array_new(FALSE, FALSE, sizeof(guint));
			g_hash_table_insert(c->touch, (char *)p, a);
		}
		if (!a->len || g_array_index(a, guint, a->len - 1) != at)
			g_array_append_val(a, at);
		for (const char *s = strchr(p, '/'); s; s = strchr(s + 1, '/'))
			g_hash_table_add(c->dirs, g_string_chunk_insert_len(
				c->chunk, p, s - p));
	}
	return 0;
}

static void free_array(gpointer a)
{
	g_array_free(a, TRUE);
}

/* The history model of the commits the log walks, once: false when it
 * cannot be had (a shallow clone, an object missing, a store error). */
static bool window(struct ms_store_vcs *c)
{
	struct ms_walk_opts o = { .fn = window_fn, .data = c };
	struct ms_walk_stats st;

	if (c->tried)
		return c->gl;
	c->tried = true;
	c->ids = g_ptr_array_new();
	c->touch = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					 free_array);
	c->dirs = g_hash_table_new(g_str_hash, g_str_equal);
	c->chunk = g_string_chunk_new(1 << 16);
	if (ms_history_is_shallow(c->v.dir) ||
	    ms_store_since_walk(c->s, c->v.dir, c->id, c->v.max_age, &o,
				&st) < 0 || st.incomplete ||
	    ms_git_log_open(c->v.dir, &c->gl) < 0)
		ms_error_clear();
	return c->gl;
}

/* Whether git takes `file` as one literal path of the tree: no glob,
 * no magic, no blank (the script's shell splits at blanks), no "." or
 * ".." component, nothing to normalise. */
static bool plain(const char *file)
{
	char **parts;
	bool ok;

	if (!*file || *file == ':' || strpbrk(file, " \t\n*?[\\"))
		return false;
	parts = g_strsplit(file, "/", -1);
	ok = true;
	for (char **p = parts; *p; p++)
		ok &= **p && strcmp(*p, ".") && strcmp(*p, "..");
	g_strfreev(parts);
	return ok;
}

/* The log's lines made from the history model and the objects, or NULL
 * when git must say (see ms_git_log_commit()). */
static GPtrArray *model_log(struct ms_store_vcs *c, const char *file)
{
	GArray *at;
	GString *out;

	if (c->v.old || c->v.bare || !plain(file) || !window(c) ||
	    g_hash_table_contains(c->dirs, file))
		return NULL;
	at = g_hash_table_lookup(c->touch, file);
	out = g_string_new(NULL);
	for (guint i = 0; at && i < at->len; i++) {
		int rc = ms_git_log_commit(c->gl, c->ids->pdata[
			g_array_index(at, guint, i)], file, out);

		if (rc) {
			ms_error_clear();
			g_string_free(out, TRUE);
			return NULL;
		}
	}
	return mcc_vcs_split(g_string_free(out, FALSE));
}

GPtrArray *ms_store_vcs_log(const char *file, void *data)
{
	struct ms_store_vcs *c = data;
	char *key = g_strconcat(c->id, "\n", file, NULL);
	GPtrArray *lines = saved(c, key);
	GString *v;

	if (lines) {
		g_free(key);
		return lines;
	}
	lines = model_log(c, file);
	if (!lines)
		lines = mcc_vcs_log(&c->v, file);
	v = g_string_new(NULL);
	g_string_printf(v, "%" G_GINT64_FORMAT, c->v.max_age);
	for (guint i = 0; i < lines->len; i++) {
		g_string_append_c(v, '\n');
		g_string_append(v, lines->pdata[i]);
	}
	if (ms_store_model_put(c->s, c->v.old ? OLD_LOG_KIND : LOG_KIND, key,
			       LOG_KEEP, v->str, v->len) < 0)
		ms_error_clear();
	g_string_free(v, TRUE);
	g_free(key);
	return lines;
}
