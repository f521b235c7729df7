/*
 * tree-internal.h - the parts of struct ms_tree that its two back ends
 * (tree.c for directories, git-tree.c for git revisions) share.
 */
#ifndef MS_TREE_INTERNAL_H
#define MS_TREE_INTERNAL_H

#include "tree.h"

#include <glib.h>

struct ms_tree {
	GPtrArray *paths;       /* char *, sorted bytewise, in `chunk` or in
				 * `list_bytes` */
	GStringChunk *chunk;
	GBytes *list_bytes;     /* a list taken (tree-saved.c), or NULL */
	GHashTable *dirs;       /* directory paths (no trailing slash) */
	char *root;             /* directory, or git dir */
	char *rev;              /* a git tree's revision as given, or NULL */
	/* a directory's root, open, and realpath() of it (once: links out
	 * of the tree are checked against it at every read); -1, NULL */
	int root_fd;
	char *real_root;
	/*
	 * A directory is listed only when a caller needs the list; until
	 * then ms_tree_is_dir() asks the file system.  get_maintainer.pl's
	 * directory tests need no more, so "sections" never walks the tree.
	 */
	bool listed;
	/* what the walk read, for ms_tree_list_bytes(): each directory's
	 * stat (struct tree_seen), each link's answer; NULL when the list
	 * was not walked here */
	struct tree_walked *walked;
	gint64 walk_began;      /* when, in seconds of the wall clock */
	bool record_walk;       /* ms_tree_list_record() was called */
	struct ms_diags *walk_diags; /* where a late walk reports problems */
	/* back end for ms_tree_read(); NULL for directories */
	void *backend;
	int (*read)(const struct ms_tree *t, const char *path, char **buf,
		    size_t *len);
	void (*free_backend)(void *backend);
	/* what the tree was asked, and answered (ms_tree_facts()) */
	struct tree_facts *facts;
};

struct ms_tree *ms_tree_alloc(const char *root);
/* What the walk reads, for ms_tree_list_bytes() (tree-saved.c): begin,
 * then each directory `rel` read (open at `fd`; NULL: one that could not
 * be read), each link and whether it leads to a directory. */
void ms_tree_walk_begin(struct ms_tree *t);
void ms_tree_walked_free(struct tree_walked *w);
void ms_tree_walked_dir(struct ms_tree *t, const char *rel, int fd);
void ms_tree_walked_link(struct ms_tree *t, const char *rel, bool dir);
/* Add a file path (copied); directories above it are added too. */
void ms_tree_add_file(struct ms_tree *t, const char *path, size_t len);
void ms_tree_add_dir(struct ms_tree *t, const char *path, size_t len);
/* Sort the paths; call once after the last add. */
void ms_tree_finish(struct ms_tree *t);

#endif
