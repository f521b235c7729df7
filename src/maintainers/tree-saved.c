/*
 * tree-saved.c - a directory tree's list kept for a later run (tree.h:
 * ms_tree_list_bytes(), ms_tree_list_take()).
 *
 * The list is every name the walk read in every directory.  A name
 * added, removed or renamed in a directory changes that directory's
 * modification and change times, and a directory replaced or mounted
 * over has another device or inode: so while every directory the walk
 * read answers stat() as it did, the walk would read the same names
 * again (git's untracked cache rests on the same rule).  A link is the
 * exception, it counts as a directory when what it points to is one, so
 * each link is asked again.  A directory changed less than two seconds
 * before the walk began is not trusted: a change right after the walk
 * could leave it the same time; such a list is not kept.
 *
 * The names are kept whole, each ended by a NUL, and a tree that takes
 * the list points into it: ms_tree_list_load() maps the file, so a warm
 * run reads U-Boot's 38,511 names in place (the page cache's pages, a
 * fault per 16 of them) instead of copying them into 1.3 MB of its own
 * (a fault per page: 330 of them, a tenth of a warm `maintainers --git`).
 * The file is replaced by a rename, never rewritten in place.
 */
#include "tree-internal.h"
#include "bytes.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VERSION 2
#define RACY_SECONDS 2

struct seen {
	char *path;         /* "" for the root */
	struct stat st;
};

struct link {
	char *path;
	bool dir;
};

struct tree_walked {
	GArray *dirs;       /* struct seen */
	GArray *links;      /* struct link */
	bool failed;        /* some directory could not be read */
};

void ms_tree_list_record(struct ms_tree *t)
{
	t->record_walk = true;
}

void ms_tree_walk_begin(struct ms_tree *t)
{
	struct tree_walked *w;

	if (!t->record_walk)
		return;
	w = g_new0(struct tree_walked, 1);

	w->dirs = g_array_new(FALSE, FALSE, sizeof(struct seen));
	w->links = g_array_new(FALSE, FALSE, sizeof(struct link));
	t->walk_began = g_get_real_time() / G_USEC_PER_SEC;
	ms_tree_walked_free(t->walked);
	t->walked = w;
}

void ms_tree_walked_free(struct tree_walked *w)
{
	if (!w)
		return;
	for (guint i = 0; i < w->dirs->len; i++)
		g_free(g_array_index(w->dirs, struct seen, i).path);
	for (guint i = 0; i < w->links->len; i++)
		g_free(g_array_index(w->links, struct link, i).path);
	g_array_free(w->dirs, TRUE);
	g_array_free(w->links, TRUE);
	g_free(w);
}

void ms_tree_walked_dir(struct ms_tree *t, const char *rel, int fd)
{
	struct seen s;

	if (!t->walked)
		return;
	if (!rel || fstat(fd, &s.st) < 0) {
		t->walked->failed = true;
		return;
	}
	s.path = g_strdup(rel);
	g_array_append_val(t->walked->dirs, s);
}

void ms_tree_walked_link(struct ms_tree *t, const char *rel, bool dir)
{
	struct link l = { NULL, dir };

	if (!t->walked)
		return;    /* no list is kept: nothing to remember */
	l.path = g_strdup(rel);
	g_array_append_val(t->walked->links, l);
}

const char *ms_tree_list_key(const struct ms_tree *t)
{
	return t->real_root;
}

static void put_time(GByteArray *b, const struct timespec *ts)
{
	ms_put_svar(b, (int64_t)ts->tv_sec);
	ms_put_var(b, (uint64_t)ts->tv_nsec);
}

static void put_stat(GByteArray *b, const struct stat *st)
{
	ms_put_var(b, (uint64_t)st->st_dev);
	ms_put_var(b, (uint64_t)st->st_ino);
	put_time(b, &st->st_mtim);
	put_time(b, &st->st_ctim);
}

/* Sorted strings, as their count and each one ended by a NUL. */
static void put_sorted(GByteArray *b, char **s, guint n)
{
	ms_put_var(b, n);
	for (guint i = 0; i < n; i++)
		g_byte_array_append(b, (const guint8 *)s[i],
				    (guint)strlen(s[i]) + 1);
}

GBytes *ms_tree_list_bytes(const struct ms_tree *t)
{
	const struct tree_walked *w = t->walked;
	GByteArray *b;
	GPtrArray *dirs;
	GHashTableIter it;
	gpointer k;

	if (!w || w->failed || !t->real_root)
		return NULL;
	for (guint i = 0; i < w->dirs->len; i++) {
		const struct stat *st = &g_array_index(w->dirs, struct seen,
						       i).st;

		if (st->st_mtim.tv_sec >= t->walk_began - RACY_SECONDS ||
		    st->st_ctim.tv_sec >= t->walk_began - RACY_SECONDS)
			return NULL;
	}
	b = g_byte_array_new();
	ms_put_var(b, VERSION);
	ms_put_str(b, t->real_root);
	ms_put_var(b, w->dirs->len);
	for (guint i = 0; i < w->dirs->len; i++) {
		const struct seen *s = &g_array_index(w->dirs, struct seen, i);

		ms_put_str(b, s->path);
		put_stat(b, &s->st);
	}
	ms_put_var(b, w->links->len);
	for (guint i = 0; i < w->links->len; i++) {
		const struct link *l = &g_array_index(w->links, struct link, i);

		ms_put_str(b, l->path);
		ms_put_var(b, l->dir);
	}
	put_sorted(b, (char **)t->paths->pdata, t->paths->len);
	dirs = g_ptr_array_new();
	g_hash_table_iter_init(&it, t->dirs);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(dirs, k);
	g_ptr_array_sort(dirs, ms_cmp_str);
	put_sorted(b, (char **)dirs->pdata, dirs->len);
	g_ptr_array_free(dirs, TRUE);
	return g_byte_array_free_to_bytes(b);
}

static bool same_time(struct ms_rd *r, const struct timespec *ts)
{
	bool s = ms_get_svar(r) == (int64_t)ts->tv_sec;

	return ms_get_var(r) == (uint64_t)ts->tv_nsec && s;
}

/* Whether each directory and link of `r` still answers as saved. */
static bool still_holds(const struct ms_tree *t, struct ms_rd *r)
{
	uint64_t n = ms_get_var(r);
	bool same = r->ok;

	for (uint64_t i = 0; same && i < n; i++) {
		char *path = ms_get_str(r);
		struct stat st;

		same = path && fstatat(t->root_fd, *path ? path : ".", &st,
				       AT_SYMLINK_NOFOLLOW) == 0 &&
		       ms_get_var(r) == (uint64_t)st.st_dev &&
		       ms_get_var(r) == (uint64_t)st.st_ino &&
		       same_time(r, &st.st_mtim) && same_time(r, &st.st_ctim) &&
		       r->ok;
		g_free(path);
	}
	n = ms_get_var(r);
	for (uint64_t i = 0; same && r->ok && i < n; i++) {
		char *path = ms_get_str(r);
		struct stat st;
		bool dir = path && fstatat(t->root_fd, path, &st, 0) == 0 &&
			   S_ISDIR(st.st_mode);

		same = ms_get_var(r) == (uint64_t)dir && r->ok;
		g_free(path);
	}
	return same && r->ok;
}

/* The strings put_sorted() wrote, borrowed into t's paths (`files`) or
 * directories; false when damaged or out of order. */
static bool get_sorted(struct ms_rd *r, struct ms_tree *t, bool files)
{
	uint64_t n = ms_get_var(r);
	const char *prev = NULL;

	/* a name takes a byte at least */
	if (!r->ok || n > (uint64_t)(r->end - r->p))
		return false;
	if (files)
		g_ptr_array_set_size(t->paths, (guint)n);
	for (uint64_t i = 0; i < n; i++) {
		const char *s = (const char *)r->p;
		const uint8_t *nul = memchr(r->p, 0, (size_t)(r->end - r->p));

		if (!nul || (prev && strcmp(prev, s) >= 0))
			return false;
		r->p = nul + 1;
		if (files)
			t->paths->pdata[i] = (char *)s;
		else
			g_hash_table_add(t->dirs, (char *)s);
		prev = s;
	}
	return true;
}

bool ms_tree_list_take(struct ms_tree *t, GBytes *bytes)
{
	gsize len;
	const void *p = g_bytes_get_data(bytes, &len);
	struct ms_rd r = MS_RD_INIT(p, len);
	char *root;
	bool same;

	if (t->listed || t->root_fd < 0 || !t->real_root ||
	    ms_get_var(&r) != VERSION)
		return false;
	root = ms_get_str(&r);
	same = root && !strcmp(root, t->real_root) && still_holds(t, &r);
	g_free(root);
	if (!same)
		return false;
	if (!get_sorted(&r, t, true) || !get_sorted(&r, t, false) ||
	    !ms_rd_done(&r)) {
		g_ptr_array_set_size(t->paths, 0);
		g_hash_table_remove_all(t->dirs);
		return false;
	}
	t->list_bytes = g_bytes_ref(bytes);
	t->listed = true;
	return true;
}

/* The file of `dir` that keeps `t`'s list: tree-<16 hex digits of the
 * SHA-256 of its key>.list; NULL without a key or a directory. */
static char *list_path(const struct ms_tree *t, const char *dir)
{
	const char *key = ms_tree_list_key(t);
	char *hash, *name, *path;

	if (!key || !dir)
		return NULL;
	hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	hash[16] = '\0';
	name = g_strconcat("tree-", hash, ".list", NULL);
	path = g_build_filename(dir, name, NULL);
	g_free(name);
	g_free(hash);
	return path;
}

bool ms_tree_list_load(struct ms_tree *t, const char *dir)
{
	char *path = list_path(t, dir);
	GMappedFile *m = path ? g_mapped_file_new(path, FALSE, NULL) : NULL;
	bool taken = false;

	if (m) {
		GBytes *b = g_mapped_file_get_bytes(m);

		g_mapped_file_unref(m);
		taken = ms_tree_list_take(t, b);
		g_bytes_unref(b);
		if (taken)
			utimensat(AT_FDCWD, path, NULL, 0); /* its last use */
	}
	if (!taken)
		ms_tree_list_record(t);
	g_free(path);
	return taken;
}

void ms_tree_list_save(const struct ms_tree *t, const char *dir)
{
	char *path = list_path(t, dir);
	GBytes *b = path ? ms_tree_list_bytes(t) : NULL;

	if (b && g_mkdir_with_parents(dir, 0700) == 0) {
		gsize n;
		const void *p = g_bytes_get_data(b, &n);

		g_file_set_contents(path, p, (gssize)n, NULL);
	}
	g_bytes_unref(b);
	g_free(path);
}

bool ms_tree_list_file(const char *name)
{
	if (strlen(name) != 26 || strncmp(name, "tree-", 5) ||
	    strcmp(name + 21, ".list"))
		return false;
	for (int i = 5; i < 21; i++)
		if (!g_ascii_isxdigit(name[i]) || g_ascii_isupper(name[i]))
			return false;
	return true;
}
