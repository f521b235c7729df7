/*
 * tree.h - the list of files a MAINTAINERS file is matched against: a
 * directory on disk, or a git revision read from objects alone (a bare
 * mirror works; no checkout needed).
 *
 * Implemented in tree.c (directories) and git-tree.c (libgit2).
 */
#ifndef MS_TREE_H
#define MS_TREE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

struct ms_tree;

/*
 * All regular files below `dir`, relative, sorted bytewise (symlinks are
 * not files, but one to a directory is a directory, as Perl's -d sees
 * it; .git is left out).  The directory is listed when the list is first
 * needed; problems then go to `diags`, which must outlive the tree.
 */
int ms_tree_from_dir(const char *dir, struct ms_tree **out,
		     struct ms_diags *diags);
/* All blobs of `rev` (default "HEAD" when NULL) in repository `gitdir`. */
int ms_tree_from_git(const char *gitdir, const char *rev,
		     struct ms_tree **out);
void ms_tree_free(struct ms_tree *t);

/* The directory or git dir the tree was read from; borrowed. */
const char *ms_tree_root(const struct ms_tree *t);

/*
 * How messages name `path` of the tree: "REV:path" for a git revision (as
 * git show does), else the path below the tree's directory.  Newly
 * allocated (g_free).
 */
char *ms_tree_display_path(const struct ms_tree *t, const char *path);

size_t ms_tree_nr_files(const struct ms_tree *t);
/* The i-th path in sorted order; borrowed. */
const char *ms_tree_path(const struct ms_tree *t, size_t i);
/* Whether `path` (no trailing slash) is a directory of the tree. */
bool ms_tree_is_dir(const struct ms_tree *t, const char *path);
/* Whether `path` is a file of the tree. */
bool ms_tree_has_file(const struct ms_tree *t, const char *path);

/*
 * Read file `path` of the tree into a new buffer (g_free it), NUL
 * terminated; *len excludes the NUL.  MS_ENOTFOUND when absent.
 */
int ms_tree_read(const struct ms_tree *t, const char *path, char **buf,
		 size_t *len);
/* The git blob id of file `path` (40 hex digits, as `git hash-object`
 * gives it) in a new string, *id; the error of ms_tree_read() else.  The
 * fact recorded is that digest: the file is read and hashed once. */
int ms_tree_blob_id(const struct ms_tree *t, const char *path, char **id);

/*
 * Blob ids kept between runs (docs/performance.md, `tree-blobs`): with
 * ms_tree_blobs_take()'s bytes, ms_tree_blob_id() of a directory tree's
 * file that still answers fstat() as it did when hashed (device, inode,
 * size, modification and change times to the nanosecond) gives the kept
 * id without reading the file.  ms_tree_blobs() gives, when a file was
 * hashed since, the ids of the files this tree was asked or read (those
 * changed less than two seconds before: not kept, another write could
 * leave their times the same), as bytes for _take(); NULL when there is
 * nothing new to keep.  Damaged bytes are not taken.
 */
GBytes *ms_tree_blobs(const struct ms_tree *t);
void ms_tree_blobs_take(const struct ms_tree *t, GBytes *bytes);

/*
 * A directory tree's list, as bytes a later run takes back with
 * ms_tree_list_take() instead of walking the tree: a new GBytes, or NULL
 * when this tree's list was not walked here (not listed yet, taken from
 * bytes, a git tree), a directory could not be read, or one had changed
 * less than two seconds before the walk began (trusting it would miss a
 * change made right after the walk).  ms_tree_list_key() names the tree
 * the bytes belong to (its root's real path; NULL for a git tree).
 */
GBytes *ms_tree_list_bytes(const struct ms_tree *t);
/* Have the walk, when it comes, record what ms_tree_list_bytes() needs
 * (a stat() per directory); without it, that gives NULL. */
void ms_tree_list_record(struct ms_tree *t);
const char *ms_tree_list_key(const struct ms_tree *t);

/*
 * Take the list `bytes` (ms_tree_list_bytes() of an earlier tree of the
 * same root) when the walk would read the same names again: every
 * directory it read still has the same device, inode, modification and
 * change times (adding, removing or renaming a name changes them), and
 * every link still leads to a directory or not as it did.  true: `t` is
 * listed (its names point into `bytes`, which it keeps); false (nothing
 * changed in `t`) otherwise, when damaged, or when
 * `t` is listed already.  Costs a stat() per directory, not a walk.
 */
bool ms_tree_list_take(struct ms_tree *t, GBytes *bytes);

/*
 * The list kept in a file of directory `dir` (the cache directory),
 * tree-<16 hex digits of the SHA-256 of ms_tree_list_key()>.list, for
 * both programs (the quick one has no store).  ms_tree_list_load() takes
 * it when it still holds (true, and its modification time becomes its
 * last use), else has the walk record (false); ms_tree_list_save()
 * writes ms_tree_list_bytes() whole and renames it into place, when
 * there are bytes.  A NULL `dir` or a tree without a key keeps nothing.
 * ms_tree_list_file() says whether a file name is such a file's.
 */
bool ms_tree_list_load(struct ms_tree *t, const char *dir);
void ms_tree_list_save(const struct ms_tree *t, const char *dir);
bool ms_tree_list_file(const char *name);

/*
 * Everything the tree has answered so far, as facts a later run can check
 * without redoing the work that asked: each ms_tree_is_dir() and
 * ms_tree_has_file() question with its answer (and whether the list or
 * the file system gave it), each file ms_tree_read() read with its git
 * blob id (or its error), and when the tree was listed, a digest of
 * the whole list.  A new buffer (g_free) of *len bytes, in a format only
 * ms_tree_facts_hold() reads.
 */
char *ms_tree_facts(const struct ms_tree *t, size_t *len);

/* Keep no facts from now on (SHA-1 of each file read, a record of each
 * question: a tenth of a warm `maintainers --git` on U-Boot), for a
 * caller that never asks ms_tree_facts(); that then gives facts that
 * never hold. */
void ms_tree_no_facts(struct ms_tree *t);

/*
 * Whether every fact of `facts` (from ms_tree_facts() of an earlier
 * tree) holds in `t`, a tree of the same root just opened: the same
 * questions get the same answers and the same files the same bytes.
 * Questions the list answered are asked after listing `t`, the others
 * before.  Damaged facts do not hold.
 */
bool ms_tree_facts_hold(const struct ms_tree *t, const char *facts,
			size_t len);

#endif
