/*
 * tree.c - struct ms_tree, and its directory back end.
 */
#include "tree-internal.h"
#include "bytes.h"
#include "error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/openat2.h>
#endif

/* The questions a tree answered (ms_tree_facts()): one record per
 * question, "KIND ANSWER LENGTH PATH\n", the first time it is asked. */
struct tree_facts {
	GMutex lock;
	GString *log;
	GHashTable *seen;        /* "KIND PATH" */
	GHashTable *on_disk;     /* PATH -> 1 + is a file (disk_has_file()) */
	GHashTable *blobs;       /* PATH -> struct known_blob */
	bool hashed;             /* a blob id was kept since */
	bool off;                /* ms_tree_no_facts() */
};

/* A file's git blob id with the fstat() it was hashed after (device,
 * inode, size, modification and change times in nanoseconds): an earlier
 * run's (ms_tree_blobs_take()) or this one's. */
struct known_blob {
	uint64_t st[5];
	char id[41];
	bool asked;              /* by this run */
};

#define RACY_SECONDS 2

static void fact(const struct ms_tree *t, char kind, const char *path,
		 const char *answer)
{
	struct tree_facts *f = t->facts;
	char *key;

	if (f->off)
		return;
	key = g_strconcat((const char[]){ kind, ' ', 0 }, path, NULL);

	g_mutex_lock(&f->lock);
	if (g_hash_table_add(f->seen, key))
		g_string_append_printf(f->log, "%c %s %zu %s\n", kind, answer,
				       strlen(path), path);
	g_mutex_unlock(&f->lock);
}

struct ms_tree *ms_tree_alloc(const char *root)
{
	struct ms_tree *t = g_new0(struct ms_tree, 1);

	t->facts = g_new0(struct tree_facts, 1);
	g_mutex_init(&t->facts->lock);
	t->facts->log = g_string_new(NULL);
	t->facts->seen = g_hash_table_new_full(ms_str_hash, g_str_equal,
					       g_free, NULL);
	t->facts->on_disk = g_hash_table_new_full(ms_str_hash, g_str_equal,
						  g_free, NULL);
	t->facts->blobs = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, g_free);

	t->paths = g_ptr_array_new();
	t->chunk = g_string_chunk_new(1 << 20);
	t->dirs = g_hash_table_new(g_str_hash, g_str_equal);
	t->root = g_strdup(root);
	t->root_fd = -1;
	return t;
}

void ms_tree_add_dir(struct ms_tree *t, const char *path, size_t len)
{
	char *d = g_string_chunk_insert_len(t->chunk, path, (gssize)len);

	g_hash_table_add(t->dirs, d);
}

void ms_tree_add_file(struct ms_tree *t, const char *path, size_t len)
{
	g_ptr_array_add(t->paths,
			g_string_chunk_insert_len(t->chunk, path, (gssize)len));
}

void ms_tree_finish(struct ms_tree *t)
{
	t->listed = true;
	g_ptr_array_sort(t->paths, ms_cmp_str);
}

void ms_tree_free(struct ms_tree *t)
{
	if (!t)
		return;
	if (t->free_backend)
		t->free_backend(t->backend);
	g_ptr_array_free(t->paths, TRUE);
	g_hash_table_destroy(t->dirs);
	g_string_chunk_free(t->chunk);
	g_bytes_unref(t->list_bytes);
	if (t->root_fd >= 0)
		close(t->root_fd);
	ms_tree_walked_free(t->walked);
	free(t->real_root);
	g_free(t->root);
	g_free(t->rev);
	g_mutex_clear(&t->facts->lock);
	g_string_free(t->facts->log, TRUE);
	g_hash_table_destroy(t->facts->seen);
	g_hash_table_destroy(t->facts->on_disk);
	g_hash_table_destroy(t->facts->blobs);
	g_free(t->facts);
	g_free(t);
}

char *ms_tree_display_path(const struct ms_tree *t, const char *path)
{
	if (t->rev)
		return g_strdup_printf("%s:%s", t->rev, path);
	return g_build_filename(t->root, path, NULL);
}

const char *ms_tree_root(const struct ms_tree *t)
{
	return t->root;
}

static void list_dir(struct ms_tree *t);

/* The list is a cache: filling it late does not change the tree. */
static struct ms_tree *listed(const struct ms_tree *t)
{
	struct ms_tree *mt = (struct ms_tree *)t;

	if (!mt->listed)
		list_dir(mt);
	return mt;
}

size_t ms_tree_nr_files(const struct ms_tree *t)
{
	return listed(t)->paths->len;
}

const char *ms_tree_path(const struct ms_tree *t, size_t i)
{
	return g_ptr_array_index(listed(t)->paths, i);
}

/*
 * Paths from a tree's own files (.get_maintainer.conf's --mpath, F:
 * patterns) are untrusted: they name something inside the tree, never
 * "/etc/..." or "../secret".  A link in the tree may not lead out of it
 * either (checked where a file is read).
 */
static bool inside_tree(const char *path)
{
	if (!path || path[0] == '/')
		return false;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n;
		p += *p == '/';
	}
	return true;
}

static bool real_inside(const char *r, const char *full)
{
	char *f = r ? realpath(full, NULL) : NULL;
	size_t n = r ? strlen(r) : 0;
	bool in = r && f && !strncmp(f, r, n) &&
		(f[n] == '/' || !f[n] || !strcmp(r, "/"));

	free(f);
	return in;
}

bool ms_tree_is_dir(const struct ms_tree *t, const char *path)
{
	if (!inside_tree(path))
		return false;
	if (!t->listed) {
		char *full = g_build_filename(t->root, path, NULL);
		struct stat st;
		bool dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);

		g_free(full);
		fact(t, 'd', path, dir ? "1" : "0");
		return dir;
	}
	fact(t, 'D', path, g_hash_table_contains(t->dirs, path) ? "1" : "0");
	return g_hash_table_contains(t->dirs, path);
}

static int open_beneath(const struct ms_tree *t, const char *path, int flags);

/*
 * Is `path` of the tree a regular file, or a link to one that stays in
 * the tree (get_maintainer.pl's -f follows links: Xen's
 * xen/arch/riscv/configs/riscv64_defconfig is one)?  With `links_only`,
 * only a link counts (the list has the regular files).
 */
static bool file_on_disk(const struct ms_tree *t, const char *path,
			 bool links_only)
{
	/* one openat2() when every link stays below the root (a warm run
	 * asks ~1,000 of these: realpath()'s readlink() per component was
	 * a tenth of it); anything else is decided as below */
	int fd = links_only ? -1 : open_beneath(t, path, O_PATH | O_CLOEXEC);
	char *full;
	struct stat st;
	bool reg;

	if (fd >= 0) {
		reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
		close(fd);
		return reg;
	}
	full = g_build_filename(t->root, path, NULL);
	reg = lstat(full, &st) == 0 &&
		(S_ISLNK(st.st_mode) || !links_only) &&
		stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		real_inside(t->real_root, full);
	g_free(full);
	return reg;
}

/*
 * file_on_disk(t, path, false), asked once per path and its fact logged
 * then: a review asks it for each path of each patch, most of them again
 * (the rdma 2023 slice: 11,800 openat2() and fstat() for 1,900 paths).
 */
static bool disk_has_file(const struct ms_tree *t, const char *path)
{
	struct tree_facts *f = t->facts;
	gpointer v;
	bool reg;

	g_mutex_lock(&f->lock);
	v = g_hash_table_lookup(f->on_disk, path);
	g_mutex_unlock(&f->lock);
	if (v)
		return GPOINTER_TO_INT(v) == 2;
	reg = file_on_disk(t, path, false);
	g_mutex_lock(&f->lock);
	g_hash_table_insert(f->on_disk, g_strdup(path),
			    GINT_TO_POINTER(reg ? 2 : 1));
	g_mutex_unlock(&f->lock);
	fact(t, 'f', path, reg ? "1" : "0");
	return reg;
}

bool ms_tree_has_file(const struct ms_tree *t, const char *path)
{
	size_t lo, hi;

	if (!inside_tree(path))
		return false;
	if (!t->listed && !t->read)
		return disk_has_file(t, path);
	if (!t->listed) {
		fact(t, 'f', path, "0");
		return false;
	}
	lo = 0;
	hi = t->paths->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(g_ptr_array_index(t->paths, mid), path);

		if (!c) {
			fact(t, 'F', path, "1");
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!t->read && file_on_disk(t, path, true)) {
		fact(t, 'f', path, "1");
		return true;
	}
	fact(t, 'F', path, "0");
	return false;
}

/*
 * Read the file open at `fd` (closed here) into a new buffer, NUL
 * terminated: only a regular file, so that a FIFO or a device planted in
 * a tree cannot hang or flood the reader (it was opened O_NONBLOCK).
 * `shown` names it in errors.
 */
static int read_fd(int fd, const char *shown, char **buf, size_t *len,
		   struct stat *sb)
{
	struct stat st;
	GByteArray *out;
	char chunk[65536];
	ssize_t n;
	int rc = 0;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return ms_error_set(MS_ERROR, "'%s' is not a regular file: "
				    "not read", shown);
	}
	*sb = st;
	/* O_NONBLOCK, kept, changes nothing for a regular file */
	out = g_byte_array_sized_new((guint)MIN(st.st_size + 1, 1 << 30));
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			g_byte_array_append(out, (guint8 *)chunk, (guint)n);
	if (n < 0)
		rc = ms_error_set(MS_ERROR, "cannot read '%s': %s", shown,
				  g_strerror(errno));
	close(fd);
	if (rc) {
		g_byte_array_free(out, TRUE);
		return rc;
	}
	*len = out->len;
	g_byte_array_append(out, (guint8 *)"", 1);
	*buf = (char *)g_byte_array_free(out, FALSE);
	return 0;
}

#define OPEN_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)

/*
 * Open `path` below the directory `root` one component at a time with
 * openat(), for a path longer than PATH_MAX that realpath() and open()
 * refuse (ENAMETOOLONG).  Links are not followed on this road.
 */
static int open_long(const char *root, const char *path)
{
	char **parts = g_strsplit(path, "/", -1);
	int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd = -1;

	for (char **p = parts; dfd >= 0 && *p; p++) {
		int next;

		if (!**p)
			continue;
		next = openat(dfd, *p, OPEN_FLAGS | (p[1] ? O_DIRECTORY : 0));
		close(dfd);
		dfd = -1;
		if (p[1])
			dfd = next;
		else
			fd = next;
		if (next < 0)
			break;
	}
	if (dfd >= 0)
		close(dfd);
	g_strfreev(parts);
	return fd;
}

/*
 * openat2() with RESOLVE_BENEATH: `path` opened below the tree's root
 * only when every link on the way stays below it, in one system call
 * instead of a readlink() per component.  -1 on any failure (an absolute
 * link, a way out and back, a kernel without openat2): open_inside()
 * then decides as before.
 */
static int open_beneath(const struct ms_tree *t, const char *path, int flags)
{
#ifdef SYS_openat2
	struct open_how how = { 0 };

	if (t->root_fd < 0)
		return -1;
	how.flags = (uint64_t)flags;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, t->root_fd, path, &how, sizeof(how));
#else
	(void)t;
	(void)path;
	(void)flags;
	return -1;
#endif
}

/*
 * Open `path` of the directory tree `t`: every link on the way
 * resolved, and refused (MS_ENOTFOUND) when it leads out of the tree, as
 * "d -> ../secret" would for "d/creds"; links that stay inside are
 * followed, as get_maintainer.pl follows them.  The fd, or a negative
 * code with the error set.
 */
static int open_inside(const struct ms_tree *t, const char *path)
{
	const char *root = t->root, *rroot = t->real_root;
	char *full = g_build_filename(root, path, NULL);
	char *real = NULL;
	int fd = open_beneath(t, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;
	size_t n;

	if (fd >= 0)
		goto done;
	if (strlen(full) >= PATH_MAX) {
		fd = open_long(root, path);
		err = errno;
		goto out;
	}
	real = realpath(full, NULL);
	err = errno;
	if (!real || !rroot)
		goto out;
	n = strlen(rroot);
	if (strcmp(rroot, "/") && (strncmp(real, rroot, n) ||
				   (real[n] && real[n] != '/'))) {
		fd = ms_error_set(MS_ENOTFOUND, "'%s' is a link out of the "
				  "tree '%s': not read", path, root);
		goto done;
	}
	fd = open(real, OPEN_FLAGS);
	err = errno;
out:
	if (fd < 0)
		fd = ms_error_set(err == ENOENT || err == ENOTDIR ?
				  MS_ENOTFOUND : MS_ERROR, "cannot read '%s': "
				  "%s", full, g_strerror(err));
done:
	free(real);
	g_free(full);
	return fd;
}

/* Read `path` of `t`; *st is the fstat() of a directory tree's file
 * before it was read (left as it is for a git tree). */
static int tree_read(const struct ms_tree *t, const char *path, char **buf,
		     size_t *len, struct stat *st)
{
	char *shown;
	int fd, rc;

	if (!inside_tree(path))
		return ms_error_set(MS_ENOTFOUND, "'%s' is outside the tree "
				    "'%s': not read", path, t->root ?
				    t->root : "");
	if (t->read)
		return t->read(t, path, buf, len);
	fd = open_inside(t, path);
	if (fd < 0)
		return fd;
	shown = g_build_filename(t->root, path, NULL);
	rc = read_fd(fd, shown, buf, len, st);
	g_free(shown);
	return rc;
}

/*
 * Walk `rel` (relative to the open directory fd `dfd`) recursively.  Only
 * regular files count as files (78,579 in linux-source-6.1); a symlink to
 * a directory counts as a directory, as Perl's -d sees it.  .git is not
 * part of the tree.
 */
static int walk(struct ms_tree *t, int dfd, GString *rel,
		struct ms_diags *diags);

/* One entry `name` of the directory open at `dfd` (`rel`, which it
 * extends): a file, a directory (walked), or a link to one. */
static void walk_entry(struct ms_tree *t, int dfd, GString *rel,
		       const char *name, unsigned char type,
		       struct ms_diags *diags)
{
	size_t keep = rel->len;
	struct stat st;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return;
	if (rel->len == 0 && !strcmp(name, ".git"))
		return;
	if (rel->len)
		g_string_append_c(rel, '/');
	g_string_append(rel, name);
	if (type == DT_UNKNOWN &&
	    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		type = S_ISDIR(st.st_mode) ? DT_DIR :
		       S_ISREG(st.st_mode) ? DT_REG :
		       S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
	if (type == DT_DIR) {
		int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY |
				 O_CLOEXEC);

		ms_tree_add_dir(t, rel->str, rel->len);
		if (sub < 0) {
			ms_diags_add(diags, t->root, 0,
				     "cannot read directory '%s': %s",
				     rel->str, g_strerror(errno));
			ms_tree_walked_dir(t, NULL, -1);
		} else {
			walk(t, sub, rel, diags);
		}
	} else if (type == DT_REG) {
		ms_tree_add_file(t, rel->str, rel->len);
	} else if (type == DT_LNK) {
		bool dir = fstatat(dfd, name, &st, 0) == 0 &&
			   S_ISDIR(st.st_mode);

		if (dir)
			ms_tree_add_dir(t, rel->str, rel->len);
		ms_tree_walked_link(t, rel->str, dir);
	}
	g_string_truncate(rel, keep);
}

/* The directory open at `dfd` (closed here), read with getdents64()
 * itself: readdir() would cost an fstat() and two fcntl() more per
 * directory (U-Boot has 3,005). */
static int walk(struct ms_tree *t, int dfd, GString *rel,
		struct ms_diags *diags)
{
	enum { BUF = 32768 };
	char *buf = g_malloc(BUF);
	ssize_t n;

	ms_tree_walked_dir(t, rel->str, dfd);
	while ((n = getdents64(dfd, buf, BUF)) > 0 ||
	       (n < 0 && errno == EINTR)) {
		for (ssize_t at = 0; at < n;) {
			const struct dirent64 *de =
				(const struct dirent64 *)(buf + at);

			at += de->d_reclen;
			walk_entry(t, dfd, rel, de->d_name, de->d_type, diags);
		}
	}
	if (n < 0) {
		ms_diags_add(diags, t->root, 0, "cannot read directory '%s': %s",
			     rel->len ? rel->str : ".", g_strerror(errno));
		ms_tree_walked_dir(t, NULL, -1);
	}
	g_free(buf);
	close(dfd);
	return 0;
}

static void list_dir(struct ms_tree *t)
{
	int fd = open(t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	GString *rel = g_string_new(NULL);

	t->listed = true;
	ms_tree_walk_begin(t);
	if (fd < 0) {
		/* it was there when the tree was opened */
		if (t->walk_diags)
			ms_diags_add(t->walk_diags, t->root, 0,
				     "cannot read directory: %s",
				     g_strerror(errno));
		ms_tree_walked_dir(t, NULL, -1);
	} else {
		walk(t, fd, rel, t->walk_diags);
	}
	g_string_free(rel, TRUE);
	ms_tree_finish(t);
}

int ms_tree_from_dir(const char *dir, struct ms_tree **out,
		     struct ms_diags *diags)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct ms_tree *t;

	*out = NULL;
	if (fd < 0)
		return ms_error_set_errno(errno == ENOENT ? MS_ENOTFOUND :
					  MS_ERROR, errno,
					  "cannot open tree '%s'", dir);
	t = ms_tree_alloc(dir);
	t->root_fd = fd;
	t->real_root = realpath(dir, NULL);
	t->walk_diags = diags;
	*out = t;
	return 0;
}

/* The git blob id of `len` bytes at `buf`, as `git hash-object` gives
 * it (g_free). */
static char *blob_id(const char *buf, size_t len)
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA1);
	char head[32], *id;
	int n = snprintf(head, sizeof(head), "blob %zu", len);

	g_checksum_update(ck, (const guchar *)head, n + 1);
	g_checksum_update(ck, (const guchar *)buf, (gssize)len);
	id = g_strdup(g_checksum_get_string(ck));
	g_checksum_free(ck);
	return id;
}

static bool same_blob(const struct known_blob *a, const struct known_blob *b)
{
	return !memcmp(a->st, b->st, sizeof(a->st)) && !strcmp(a->id, b->id);
}

static void stat_of(const struct stat *sb, uint64_t st[5])
{
	st[0] = (uint64_t)sb->st_dev;
	st[1] = (uint64_t)sb->st_ino;
	st[2] = (uint64_t)sb->st_size;
	st[3] = (uint64_t)sb->st_mtim.tv_sec * 1000000000u +
		(uint64_t)sb->st_mtim.tv_nsec;
	st[4] = (uint64_t)sb->st_ctim.tv_sec * 1000000000u +
		(uint64_t)sb->st_ctim.tv_nsec;
}

/* Keep `id`, the blob id of `path` read after fstat() `sb`, unless the
 * file changed less than RACY_SECONDS before: another write could then
 * leave its times as they are. */
static void keep_blob(const struct ms_tree *t, const char *path,
		      const struct stat *sb, const char *id)
{
	struct tree_facts *f = t->facts;
	int64_t now = g_get_real_time() / G_USEC_PER_SEC;
	struct known_blob *k, *was;

	if (!S_ISREG(sb->st_mode) || sb->st_mtim.tv_sec >= now - RACY_SECONDS ||
	    sb->st_ctim.tv_sec >= now - RACY_SECONDS)
		return;
	k = g_new0(struct known_blob, 1);
	stat_of(sb, k->st);
	g_strlcpy(k->id, id, sizeof(k->id));
	k->asked = true;
	g_mutex_lock(&f->lock);
	was = g_hash_table_lookup(f->blobs, path);
	/* the same as kept (a file read for its bytes): nothing new */
	f->hashed |= !was || !same_blob(was, k);
	g_hash_table_replace(f->blobs, g_strdup(path), k);
	g_mutex_unlock(&f->lock);
}

/* The kept blob id of `path` when `sb`, the file's fstat(), is what it
 * answered when hashed (g_free), else NULL. */
static char *kept_id(const struct ms_tree *t, const char *path,
		     const struct stat *sb)
{
	struct tree_facts *f = t->facts;
	struct known_blob *k;
	uint64_t st[5];
	char *id = NULL;

	if (t->read || !S_ISREG(sb->st_mode))
		return NULL;
	stat_of(sb, st);
	g_mutex_lock(&f->lock);
	k = g_hash_table_lookup(f->blobs, path);
	if (k && !memcmp(st, k->st, sizeof(st))) {
		k->asked = true;
		id = g_strdup(k->id);
	}
	g_mutex_unlock(&f->lock);
	return id;
}

/* The kept blob id of `path` when the file still answers fstat() as it
 * did when hashed (g_free), else NULL. */
static char *known_blob(const struct ms_tree *t, const char *path)
{
	struct stat sb;
	bool same;
	int fd;

	g_mutex_lock(&t->facts->lock);
	same = g_hash_table_contains(t->facts->blobs, path);
	g_mutex_unlock(&t->facts->lock);
	if (!same || t->read || !inside_tree(path))
		return NULL;
	fd = open_inside(t, path);
	if (fd < 0) {
		ms_error_clear();
		return NULL;
	}
	same = fstat(fd, &sb) == 0;
	close(fd);
	return same ? kept_id(t, path, &sb) : NULL;
}
/* ms_tree_read(), and in *id (when not NULL) the file's blob id, hashed
 * once for the fact and the caller. */
static int read_fact(const struct ms_tree *t, const char *path, char **buf,
		     size_t *len, char **id)
{
	struct stat sb = { 0 };
	int rc = tree_read(t, path, buf, len, &sb);
	char *sum = NULL;

	if (rc == 0 && (id || !t->facts->off)) {
		/* a file read for its bytes: hashed unless its id is kept */
		sum = kept_id(t, path, &sb);
		if (!sum) {
			sum = blob_id(*buf, *len);
			keep_blob(t, path, &sb, sum);
		}
		fact(t, 'r', path, sum);
	} else if (rc < 0 && inside_tree(path)) {
		char code[16];

		snprintf(code, sizeof(code), "E%d", -rc);
		fact(t, 'r', path, code);
	}
	if (id)
		*id = sum;
	else
		g_free(sum);
	return rc;
}

int ms_tree_read(const struct ms_tree *t, const char *path, char **buf,
		 size_t *len)
{
	return read_fact(t, path, buf, len, NULL);
}

int ms_tree_blob_id(const struct ms_tree *t, const char *path, char **id)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*id = known_blob(t, path);
	if (*id) {
		fact(t, 'r', path, *id);
		return 0;
	}
	rc = read_fact(t, path, &buf, &len, id);
	g_free(buf);
	return rc;
}

GBytes *ms_tree_blobs(const struct ms_tree *t)
{
	struct tree_facts *f = t->facts;
	GByteArray *b = NULL;
	GHashTableIter it;
	gpointer path, v;

	g_mutex_lock(&f->lock);
	if (f->hashed) {
		b = g_byte_array_new();
		g_hash_table_iter_init(&it, f->blobs);
	}
	while (b && g_hash_table_iter_next(&it, &path, &v)) {
		const struct known_blob *k = v;

		if (!k->asked)
			continue;
		ms_put_str(b, path);
		for (int i = 0; i < 5; i++)
			ms_put_var(b, k->st[i]);
		ms_put_str(b, k->id);
	}
	g_mutex_unlock(&f->lock);
	return b ? g_byte_array_free_to_bytes(b) : NULL;
}

void ms_tree_blobs_take(const struct ms_tree *t, GBytes *bytes)
{
	struct tree_facts *f = t->facts;
	gsize len;
	const void *p = g_bytes_get_data(bytes, &len);
	struct ms_rd r = MS_RD_INIT(p, len);
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free);
	GHashTableIter it;
	gpointer path, v;

	while (r.ok && r.p < r.end) {
		struct known_blob *k = g_new0(struct known_blob, 1);
		char *id;

		path = ms_get_str(&r);
		for (int i = 0; i < 5; i++)
			k->st[i] = ms_get_var(&r);
		id = ms_get_str(&r);
		r.ok = r.ok && path && id && strlen(id) == 40;
		if (r.ok)
			memcpy(k->id, id, sizeof(k->id));
		g_hash_table_insert(h, path ? path : g_strdup(""), k);
		g_free(id);
	}
	if (!r.ok)   /* damaged: nothing of it is taken */
		g_hash_table_remove_all(h);
	/* the ids of files read before: new unless kept the same */
	g_mutex_lock(&f->lock);
	f->hashed = false;
	g_hash_table_iter_init(&it, f->blobs);
	while (g_hash_table_iter_next(&it, &path, &v)) {
		struct known_blob *was = g_hash_table_lookup(h, path);

		f->hashed |= !was || !same_blob(was, v);
		g_hash_table_insert(h, g_strdup(path),
				    g_memdup2(v, sizeof(*was)));
	}
	g_hash_table_destroy(f->blobs);
	f->blobs = h;
	g_mutex_unlock(&f->lock);
}

/* The SHA-1 of the tree's list: its files, then its directories, sorted
 * (g_free). */
static char *list_digest(const struct ms_tree *t)
{
	struct ms_tree *mt = listed(t);
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA1);
	GPtrArray *dirs = g_ptr_array_new();
	GHashTableIter it;
	gpointer k;
	char *r;

	for (guint i = 0; i < mt->paths->len; i++)
		g_checksum_update(ck, mt->paths->pdata[i],
				  (gssize)strlen(mt->paths->pdata[i]) + 1);
	g_hash_table_iter_init(&it, mt->dirs);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(dirs, k);
	g_ptr_array_sort(dirs, ms_cmp_str);
	g_checksum_update(ck, (const guchar *)"\n", 1);
	for (guint i = 0; i < dirs->len; i++)
		g_checksum_update(ck, dirs->pdata[i],
				  (gssize)strlen(dirs->pdata[i]) + 1);
	g_ptr_array_unref(dirs);
	r = g_strdup(g_checksum_get_string(ck));
	g_checksum_free(ck);
	return r;
}

void ms_tree_no_facts(struct ms_tree *t)
{
	t->facts->off = true;
}

char *ms_tree_facts(const struct ms_tree *t, size_t *len)
{
	GString *out;

	if (t->facts->off) {
		*len = 1;
		return g_strdup("?");   /* damaged: never holds */
	}

	g_mutex_lock(&t->facts->lock);
	out = g_string_new_len(t->facts->log->str,
			       (gssize)t->facts->log->len);
	g_mutex_unlock(&t->facts->lock);
	if (t->listed) {
		char *d = list_digest(t);

		g_string_append_printf(out, "L %s 0 \n", d);
		g_free(d);
	}
	*len = out->len;
	return g_string_free(out, FALSE);
}

/* One record of `facts` at *p: its kind, answer and path (borrowed into
 * `answer` and `path`); false when damaged or at the end. */
static bool next_fact(const char **p, const char *end, char *kind,
		      char answer[72], char **path)
{
	const char *s = *p, *sp;
	char *num_end;
	unsigned long long n;

	if (end - s < 6 || s[1] != ' ')
		return false;
	*kind = s[0];
	s += 2;
	sp = memchr(s, ' ', (size_t)(end - s));
	if (!sp || sp - s >= 72 || sp == s)
		return false;
	memcpy(answer, s, (size_t)(sp - s));
	answer[sp - s] = '\0';
	s = sp + 1;
	if (s >= end || *s < '0' || *s > '9')
		return false;
	n = strtoull(s, &num_end, 10);
	if (num_end >= end || *num_end != ' ' ||
	    n > (unsigned long long)(end - num_end - 2) ||
	    num_end[1 + n] != '\n')
		return false;
	*path = g_strndup(num_end + 1, (size_t)n);
	*p = num_end + 2 + n;
	return true;
}

/* Whether fact `kind` of `path` still gives `answer` in `t`. */
static bool fact_holds(const struct ms_tree *t, char kind, const char *answer,
		       const char *path)
{
	char *got = NULL;
	bool same;
	int rc;

	switch (kind) {
	case 'd': case 'D':
		return ms_tree_is_dir(t, path) == (answer[0] == '1');
	case 'f': case 'F':
		return ms_tree_has_file(t, path) == (answer[0] == '1');
	case 'L':
		got = list_digest(t);
		break;
	case 'r':
		rc = ms_tree_blob_id(t, path, &got);
		if (rc < 0)
			got = g_strdup_printf("E%d", -rc);
		ms_error_clear();
		break;
	default:
		return false;
	}
	same = !strcmp(got, answer);
	g_free(got);
	return same;
}

bool ms_tree_facts_hold(const struct ms_tree *t, const char *facts,
			size_t len)
{
	const char *end = facts + len;

	/* the file system's answers first, while `t` is not listed; then
	 * those the list gave */
	for (int pass = 0; pass < 2; pass++) {
		const char *p = facts;

		while (p < end) {
			char kind, answer[72];
			char *path = NULL;
			bool listed_kind, holds = true;

			if (!next_fact(&p, end, &kind, answer, &path))
				return false;
			listed_kind = kind == 'D' || kind == 'F' || kind == 'L';
			if (listed_kind == (pass == 1))
				holds = fact_holds(t, kind, answer, path);
			g_free(path);
			if (!holds)
				return false;
		}
	}
	return true;
}
