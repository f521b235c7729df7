/*
 * store-vcsmodel.c - a file's get_maintainer.pl git log made from the
 * history model and the objects, or by git where they cannot say, and
 * kept (store-vcslog.c says how).  maintstat-full's only: the quick
 * program has no libgit2 and reads the kept logs alone
 * (ms_store_vcs_saved()).
 */
#include "store-internal.h"
#include "git-blame.h"
#include "git-log.h"

#include <glib.h>
#include <string.h>

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

static void drop_window(struct ms_store_vcs *c)
{
	g_hash_table_destroy(c->touch);
	g_hash_table_destroy(c->dirs);
	g_ptr_array_free(c->ids, TRUE);
	g_string_chunk_free(c->chunk);
	ms_git_log_free(c->gl);
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
	c->drop_window = drop_window;
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

/* Whether the model can say what git says of `path`. */
static bool modelled(struct ms_store_vcs *c, const char *path)
{
	return ms_git_plain_path(path) && !g_hash_table_contains(c->dirs, path);
}

/* The log's lines made from the history model and the objects, or NULL
 * when git must say (see ms_git_log_commit()).  The walk's commits that
 * touch the path followed, newest first; where one adds it, --follow
 * may switch to its source for the older commits, and where git dies
 * the log ends. */
static GPtrArray *model_log(struct ms_store_vcs *c, const char *file)
{
	char *path = g_strdup(file);
	GString *out;
	guint from = 0;
	int rc = 0;

	if (c->v.bare || !ms_git_plain_path(file) || !window(c) ||
	    !modelled(c, file)) {
		g_free(path);
		return NULL;
	}
	out = g_string_new(NULL);
	for (bool more = true; more;) {
		GArray *at = g_hash_table_lookup(c->touch, path);

		more = false;
		for (guint i = 0; at && i < at->len && !rc; i++) {
			guint k = g_array_index(at, guint, i);
			char *src = NULL;

			if (k < from)
				continue;
			rc = ms_git_log_commit(c->gl, c->ids->pdata[k], path,
					       !c->v.old, out, &src);
			if (!src)
				continue;
			g_free(path);
			path = src;
			from = k + 1;
			rc = modelled(c, path) ? 0 : 1;
			more = true;
			break;
		}
	}
	g_free(path);
	if (rc && rc != MS_GIT_LOG_DIES) {
		ms_error_clear();
		g_string_free(out, TRUE);
		return NULL;
	}
	return mcc_vcs_split(g_string_free(out, FALSE));
}

GPtrArray *ms_store_vcs_log(const char *file, void *data)
{
	struct ms_store_vcs *c = data;
	GPtrArray *lines = store_vcs_saved(c, file);

	if (lines)
		return lines;
	lines = model_log(c, file);
	if (!lines)
		lines = mcc_vcs_log(&c->v, file);
	store_vcs_save(c, file, lines);
	return lines;
}
