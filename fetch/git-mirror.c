/*
 * git-mirror.c - the fetcher's libgit2 adapter: public-inbox epochs cloned
 * and fetched over smart HTTP into bare repositories.
 */
#include "git-mirror.h"

#include "error.h"
#include "git-common.h"
#include "http.h"

#include <errno.h>
#include <ftw.h>
#include <git2.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return g_rmdir(path) < 0 ? -1 : 0;
	return g_unlink(path) < 0 ? -1 : 0;
}

int ms_fetch_rmtree(const char *path)
{
	if (!g_file_test(path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
		return 0;
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return ms_error_set_errno(MS_ERROR, errno,
					  "cannot remove '%s'", path);
	return 0;
}

struct progress_ctx {
	const struct ms_fetch_opts *opts;
	const char *what;
};

static int on_transfer(const git_indexer_progress *st, void *payload)
{
	struct progress_ctx *p = payload;
	struct ms_fetch_progress fp = {
		p->what, st->received_bytes, st->received_objects,
		st->total_objects,
	};

	if (p->opts->progress)
		p->opts->progress(p->opts->progress_data, &fp);
	return 0;
}

static gpointer set_user_agent(gpointer ua)
{
	git_libgit2_opts(GIT_OPT_SET_USER_AGENT, (const char *)ua);
	return NULL;
}

/* Network trouble libgit2 reports that another attempt may cure. */
static bool retryable(void)
{
	const git_error *e = git_error_last();

	if (!e)
		return false;
	if (e->klass == GIT_ERROR_NET)
		return true;
	if (e->klass == GIT_ERROR_HTTP)
		return !strstr(e->message, "status code: 4") ||
			strstr(e->message, "status code: 429");
	return false;
}

/*
 * A remote for `url` (anonymous when `name` is NULL) fetching every branch
 * into the same branch.  url.*.insteadOf is not applied: the URL is the
 * inbox's, and looking it up leaks in Debian's libgit2 1.5 (its PCRE2
 * regexec).
 */
static int create_remote(git_remote **out, git_repository *repo,
			 const char *name, const char *url)
{
	git_remote_create_options o;

	git_remote_create_options_init(&o, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	o.repository = repo;
	o.name = name;
	o.fetchspec = "+refs/heads/*:refs/heads/*";
	o.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF;
	return git_remote_create_with_opts(out, url, &o);
}

/*
 * Fetch every branch of `url` into the same branch of `repo`.  libgit2
 * writes the pack completely before it updates any reference, so an
 * interrupted fetch leaves the branches where they were.
 */
static int fetch_into(struct ms_http *h, git_repository *repo,
		      const char *url, const char *what)
{
	const struct ms_fetch_opts *o = ms_http_opts(h);
	char *refspec = "+refs/heads/*:refs/heads/*";
	git_strarray specs = { &refspec, 1 };
	git_fetch_options fo;
	struct progress_ctx pc = { o, what };
	int rc = 0;

	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.callbacks.transfer_progress = on_transfer;
	fo.callbacks.payload = &pc;
	fo.proxy_opts.type = GIT_PROXY_AUTO;
	fo.update_fetchhead = 0;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	for (unsigned attempt = 1;; attempt++) {
		git_remote *remote = NULL;
		bool again;
		int err, klass;

		ms_http_wait_turn(h, url);
		err = create_remote(&remote, repo, NULL, url);
		if (!err)
			err = git_remote_fetch(remote, &specs, &fo,
					       "maintstat fetch");
		git_remote_free(remote);
		if (!err)
			return 0;
		again = retryable();
		klass = git_error_last() ? git_error_last()->klass : 0;
		rc = ms_git_error(err, "cannot fetch '%s'", url);
		if (klass == GIT_ERROR_NET || klass == GIT_ERROR_HTTP ||
		    klass == GIT_ERROR_SSL)
			rc = MS_ENET;
		if (!again || attempt > (unsigned)o->retries)
			break;
		g_usleep((gulong)ms_http_backoff_ms(h, attempt) * 1000);
	}
	return rc;
}

/* The id of HEAD (pointing at refs/heads/master in public-inbox epochs). */
static int head_id(git_repository *repo, git_oid *out)
{
	git_reference *ref = NULL, *resolved = NULL;
	int err = git_repository_head(&ref, repo);

	if (err == GIT_EUNBORNBRANCH || err == GIT_ENOTFOUND) {
		/* An epoch whose only branch is not master: use it. */
		git_branch_iterator *it = NULL;
		git_branch_t type;

		if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0)
			return ms_git_error(-1, "cannot list branches");
		err = git_branch_next(&ref, &type, it);
		git_branch_iterator_free(it);
		if (err == GIT_ITEROVER)
			return MS_ENOTFOUND;
		if (err < 0)
			return ms_git_error(err, "cannot list branches");
		if (git_repository_set_head(repo, git_reference_name(ref)) < 0)
			err = ms_git_error(-1, "cannot set HEAD");
	} else if (err < 0) {
		return ms_git_error(err, "cannot read HEAD");
	}
	if (!err)
		err = git_reference_resolve(&resolved, ref);
	if (!err)
		git_oid_cpy(out, git_reference_target(resolved));
	git_reference_free(resolved);
	git_reference_free(ref);
	return err < 0 ? ms_git_error(err, "cannot resolve HEAD") : 0;
}

/* Commits reachable from `tip` but not from `old` (NULL: all). */
static int count_new(git_repository *repo, const git_oid *tip,
		     const git_oid *old, size_t *n)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int err;

	*n = 0;
	err = git_revwalk_new(&walk, repo);
	if (!err)
		err = git_revwalk_push(walk, tip);
	if (!err && old)
		err = git_revwalk_hide(walk, old);
	while (!err && !(err = git_revwalk_next(&id, walk)))
		(*n)++;
	git_revwalk_free(walk);
	if (err && err != GIT_ITEROVER)
		return ms_git_error(err, "cannot count new commits");
	return 0;
}

int ms_git_mirror_epoch(struct ms_http *h, const char *url,
			const char *path, const char *what, bool *is_new,
			size_t *new_messages, char *tip)
{
	static GOnce ua_once = G_ONCE_INIT;
	git_repository *repo = NULL;
	git_remote *origin = NULL;
	char *partial = NULL;
	git_oid old, now;
	bool have_old = false;
	int rc, err;

	ms_git_init();
	g_once(&ua_once, set_user_agent, (gpointer)ms_http_user_agent(h));
	*is_new = !g_file_test(path, G_FILE_TEST_IS_DIR);
	*new_messages = 0;
	if (*is_new) {
		partial = g_strconcat(path, ".partial", NULL);
		rc = ms_fetch_rmtree(partial);
		if (rc)
			goto out;
		err = git_repository_init(&repo, partial, 1);
		if (err) {
			rc = ms_git_error(err, "cannot create '%s'", partial);
			goto out;
		}
		/* Recorded so that plain `git fetch` works in the mirror. */
		err = create_remote(&origin, repo, "origin", url);
		if (err) {
			rc = ms_git_error(err, "cannot configure '%s'",
					  partial);
			goto out;
		}
	} else {
		err = git_repository_open_bare(&repo, path);
		if (err) {
			rc = ms_git_error(err, "cannot open repository '%s'",
					  path);
			goto out;
		}
		have_old = head_id(repo, &old) == 0;
	}
	rc = fetch_into(h, repo, url, what);
	if (rc)
		goto out;
	rc = head_id(repo, &now);
	if (rc == MS_ENOTFOUND)
		rc = ms_error_set(MS_EPARSE, "'%s' has no branch", url);
	if (rc)
		goto out;
	git_oid_tostr(tip, 41, &now);
	rc = count_new(repo, &now, have_old ? &old : NULL, new_messages);
	if (rc)
		goto out;
	if (partial) {
		git_repository_free(repo);
		repo = NULL;
		if (g_rename(partial, path) < 0)
			rc = ms_error_set_errno(MS_ERROR, errno,
						"cannot rename '%s'", partial);
	}
out:
	git_remote_free(origin);
	git_repository_free(repo);
	g_free(partial);
	return rc;
}
