/*
 * git-tree.c - the git back end of struct ms_tree: the files of a revision
 * read from objects alone, so a bare mirror needs no checkout.
 */
#include "git-common.h"
#include "tree-internal.h"

#include <git2.h>
#include <string.h>

struct git_backend {
	git_repository *repo;
	git_tree *tree;
};

static void free_backend(void *p)
{
	struct git_backend *b = p;

	if (!b)
		return;
	git_tree_free(b->tree);
	git_repository_free(b->repo);
	g_free(b);
}

static int read_blob(const struct ms_tree *t, const char *path, char **buf,
		     size_t *len)
{
	struct git_backend *b = t->backend;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int rc;

	rc = git_tree_entry_bypath(&e, b->tree, path);
	if (rc < 0)
		return ms_git_error(rc, "cannot find '%s' in '%s'", path,
				    t->root);
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
		git_tree_entry_free(e);
		return ms_error_set(MS_ENOTFOUND, "'%s' is not a file in '%s'",
				    path, t->root);
	}
	rc = git_blob_lookup(&blob, b->repo, git_tree_entry_id(e));
	git_tree_entry_free(e);
	if (rc < 0)
		return ms_git_error(rc, "cannot read '%s' from '%s'", path,
				    t->root);
	*len = (size_t)git_blob_rawsize(blob);
	*buf = g_malloc(*len + 1);
	memcpy(*buf, git_blob_rawcontent(blob), *len);
	(*buf)[*len] = '\0';
	git_blob_free(blob);
	return 0;
}

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct ms_tree *t = payload;
	const char *name = git_tree_entry_name(e);
	size_t rlen = strlen(root), nlen = strlen(name);
	char *path = g_malloc(rlen + nlen + 1);

	memcpy(path, root, rlen);
	memcpy(path + rlen, name, nlen + 1);
	switch (git_tree_entry_type(e)) {
	case GIT_OBJECT_TREE:
		ms_tree_add_dir(t, path, rlen + nlen);
		break;
	case GIT_OBJECT_BLOB:
		/* symlinks are blobs too; a git tree lists them as files */
		ms_tree_add_file(t, path, rlen + nlen);
		break;
	default: /* submodule commits */
		ms_tree_add_dir(t, path, rlen + nlen);
		break;
	}
	g_free(path);
	return 0;
}

int ms_tree_from_git(const char *gitdir, const char *rev,
		     struct ms_tree **out)
{
	struct git_backend *b = g_new0(struct git_backend, 1);
	git_object *obj = NULL;
	struct ms_tree *t;
	int rc;

	*out = NULL;
	if (!rev)
		rev = "HEAD";
	rc = ms_git_open(gitdir, &b->repo);
	if (rc < 0) {
		free_backend(b);
		return rc;
	}
	rc = git_revparse_single(&obj, b->repo, rev);
	if (rc == 0)
		rc = git_object_peel((git_object **)&b->tree, obj,
				     GIT_OBJECT_TREE);
	git_object_free(obj);
	if (rc < 0) {
		free_backend(b);
		return ms_git_error(rc, "cannot resolve revision '%s' in '%s'",
				    rev, gitdir);
	}
	t = ms_tree_alloc(gitdir);
	t->rev = g_strdup(rev);
	rc = git_tree_walk(b->tree, GIT_TREEWALK_PRE, walk_cb, t);
	if (rc < 0) {
		ms_git_error(rc, "cannot list the tree of '%s' in '%s'", rev,
			     gitdir);
		ms_tree_free(t);
		free_backend(b);
		return MS_ERROR;
	}
	t->backend = b;
	t->read = read_blob;
	t->free_backend = free_backend;
	ms_tree_finish(t);
	*out = t;
	return 0;
}
