/*
 * git-patchid.c - the libgit2 adapter for patchid.h.
 *
 * A git_repository must not be shared between threads, and opening one
 * per commit costs more than the diff, so each thread keeps one handle
 * (per repository path) in thread-local storage.
 */
#include "patchid.h"
#include "git-common.h"
#include "mail.h"

#include <git2.h>
#include <glib.h>
#include <string.h>

struct handle {
	char *gitdir;
	git_repository *repo;
};

static void handle_free(gpointer p)
{
	struct handle *h = p;

	if (!h)
		return;
	git_repository_free(h->repo);
	g_free(h->gitdir);
	g_free(h);
}

static bool has_renames(git_diff *diff)
{
	size_t n = git_diff_num_deltas(diff);

	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_RENAMED ||
		    d->status == GIT_DELTA_COPIED)
			return true;
	}
	return false;
}

static GPrivate thread_handle = G_PRIVATE_INIT(handle_free);

static int get_repo(const char *gitdir, git_repository **out)
{
	struct handle *h = g_private_get(&thread_handle);
	git_repository *repo = NULL;
	int rc;

	if (h && !strcmp(h->gitdir, gitdir)) {
		*out = h->repo;
		return 0;
	}
	ms_git_map_for_contents();
	rc = ms_git_open(gitdir, &repo);
	if (rc < 0)
		return rc;
	h = g_new0(struct handle, 1);
	h->gitdir = g_strdup(gitdir);
	h->repo = repo;
	g_private_replace(&thread_handle, h);
	*out = repo;
	return 0;
}

int ms_commit_patchid(const char *gitdir, const char *id,
		      const char *const *paths, size_t nr_paths, char hex[41],
		      char **summary)
{
	git_diff_options dopts;
	git_repository *repo = NULL;
	git_commit *commit = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff *diff = NULL;
	git_diff_find_options find;
	git_oid oid;
	int rc;

	hex[0] = 0;
	if (summary)
		*summary = NULL;
	rc = get_repo(gitdir, &repo);
	if (rc < 0)
		return rc;
	rc = git_oid_fromstr(&oid, id);
	if (rc < 0) {
		rc = ms_git_error(rc, "bad commit id '%s'", id);
		goto out;
	}
	rc = git_commit_lookup(&commit, repo, &oid);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot read commit '%s'", id);
		goto out;
	}
	if (summary) {
		const char *s = git_commit_summary(commit);

		*summary = g_strdup(s ? s : "");
	}
	rc = git_commit_tree(&tree, commit);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot read the tree of '%s'", id);
		goto out;
	}
	if (git_commit_parentcount(commit) > 0) {
		rc = git_commit_parent(&parent, commit, 0);
		if (rc == 0)
			rc = git_commit_tree(&ptree, parent);
		if (rc < 0) {
			rc = ms_git_error(rc, "cannot read the parent of '%s'",
					  id);
			goto out;
		}
	}
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	find.flags = GIT_DIFF_FIND_RENAMES;
	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	if (paths && nr_paths) {
		dopts.pathspec.strings = (char **)paths;
		dopts.pathspec.count = nr_paths;
		dopts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	}
	rc = git_diff_tree_to_tree(&diff, repo, ptree, tree, &dopts);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot diff '%s'", id);
		goto out;
	}
	/* git show, and so git patch-id on its output, detects renames */
	rc = git_diff_find_similar(diff, &find);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot find renames in '%s'", id);
		goto out;
	}
	if (has_renames(diff)) {
		/*
		 * libgit2 hashes a renamed file's header differently from
		 * git patch-id; hash the patch text the way the mail side
		 * does (tested against git) instead.  git hashes the
		 * "similarity index" line too, and libgit2 scores an edited
		 * rename a point or two differently, so an edited rename can
		 * still disagree with git; pure renames agree.
		 */
		git_buf buf = GIT_BUF_INIT;

		rc = git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH);
		if (rc < 0) {
			rc = ms_git_error(rc, "cannot format the diff of '%s'",
					  id);
			goto out;
		}
		if (!ms_patch_id(buf.ptr, buf.size, hex))
			hex[0] = 0;
		git_buf_dispose(&buf);
	} else if (git_diff_num_deltas(diff) > 0) {
		git_oid pid;

		rc = git_diff_patchid(&pid, diff, NULL);
		if (rc < 0) {
			rc = ms_git_error(rc, "cannot compute the patch-id of "
					  "'%s'", id);
			goto out;
		}
		git_oid_tostr(hex, 41, &pid);
	}
	rc = 0;
out:
	git_diff_free(diff);
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(parent);
	git_commit_free(commit);
	if (rc < 0 && summary) {
		g_free(*summary);
		*summary = NULL;
	}
	return rc;
}
