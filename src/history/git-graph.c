/*
 * git-graph.c - the libgit2 adapter for commit headers and blob look-ups
 * (git-graph.h).
 *
 * Headers are read with git_commit_lookup(), the parser libgit2's own
 * revwalk uses for the committer time, so the store orders commits by
 * exactly the times the revwalk would have used.
 */
#include "git-graph.h"
#include "error.h"
#include "git-common.h"

#include <git2.h>
#include <glib.h>
#include <string.h>

struct ms_git_graph {
	git_repository *repo;
	git_odb *odb;            /* for ms_git_graph_has_blob(), or NULL */
	GPtrArray *tips;         /* git_tree * of each branch's tip, once
				    ms_git_graph_branch_path() read them */
};

int ms_git_graph_open(const char *gitdir, struct ms_git_graph **out)
{
	struct ms_git_graph *g;
	int rc;

	*out = NULL;
	g = g_new0(struct ms_git_graph, 1);
	rc = ms_git_open(gitdir, &g->repo);
	if (rc < 0) {
		g_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

void ms_git_graph_free(struct ms_git_graph *g)
{
	if (!g)
		return;
	git_odb_free(g->odb);
	g_clear_pointer(&g->tips, g_ptr_array_unref);
	git_repository_free(g->repo);
	g_free(g);
}

int ms_git_graph_header(struct ms_git_graph *g, const unsigned char *raw,
			int64_t *time, unsigned char **parents, unsigned *nr)
{
	git_commit *c = NULL;
	git_oid id;
	unsigned n;

	*parents = NULL;
	*nr = 0;
	git_oid_fromraw(&id, raw);
	if (git_commit_lookup(&c, g->repo, &id) < 0) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &id);
		return ms_error_set(MS_ENOTFOUND, "cannot read commit '%s'",
				    hex);
	}
	*time = git_commit_time(c);
	n = git_commit_parentcount(c);
	*parents = g_malloc(n ? (size_t)n * GIT_OID_RAWSZ : 1);
	for (unsigned i = 0; i < n; i++)
		memcpy(*parents + (size_t)i * GIT_OID_RAWSZ,
		       git_commit_parent_id(c, i)->id, GIT_OID_RAWSZ);
	*nr = n;
	git_commit_free(c);
	return 0;
}

bool ms_git_graph_has_object(struct ms_git_graph *g, const char *hex,
			     bool commit)
{
	size_t len = strlen(hex), size;
	git_object_t type;
	git_oid prefix, id;

	if (!g->odb && git_repository_odb(&g->odb, g->repo) < 0)
		return false;
	return len >= 7 && len <= GIT_OID_HEXSZ &&
	       git_oid_fromstrn(&prefix, hex, len) == 0 &&
	       git_odb_exists_prefix(&id, g->odb, &prefix, len) == 0 &&
	       git_odb_read_header(&size, &type, g->odb, &id) == 0 &&
	       type == (commit ? GIT_OBJECT_COMMIT : GIT_OBJECT_BLOB);
}

/* Add the tree of branch `ref`'s tip to g->tips (a reference that is no
 * commit is skipped). */
static void add_tip(struct ms_git_graph *g, git_reference *ref)
{
	git_commit *c = NULL;
	git_tree *t = NULL;
	const git_oid *id = git_reference_target(ref);

	if (id && git_commit_lookup(&c, g->repo, id) == 0 &&
	    git_commit_tree(&t, c) == 0)
		g_ptr_array_add(g->tips, t);
	git_commit_free(c);
}

bool ms_git_graph_branch_path(struct ms_git_graph *g, const char *path)
{
	git_branch_iterator *it;
	git_reference *ref;
	git_branch_t type;

	if (!g->tips) {
		g->tips = g_ptr_array_new_with_free_func(
			(GDestroyNotify)git_tree_free);
		if (git_branch_iterator_new(&it, g->repo,
					    GIT_BRANCH_LOCAL) == 0) {
			while (git_branch_next(&ref, &type, it) == 0) {
				add_tip(g, ref);
				git_reference_free(ref);
			}
			git_branch_iterator_free(it);
		}
	}
	for (guint i = 0; i < g->tips->len; i++) {
		git_tree_entry *e = NULL;

		if (git_tree_entry_bypath(&e, g->tips->pdata[i], path) == 0) {
			git_tree_entry_free(e);
			return true;
		}
	}
	return false;
}
