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
#include <git2/sys/transport.h>
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

static int rmtree(const char *path)
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
	struct ms_http *h;
	git_smart_subtransport_definition def;
	int http_rc;       /* our code for the last failed request */
	bool mid_stream;   /* ... which broke off after it had started */
};

/*
 * Smart HTTP over our own HTTP layer instead of libgit2's: the same
 * User-Agent, connect and stall timeouts (libgit2 1.5 has none), retries,
 * rate limit, TLS checks and proxy variables as every other request.
 * Only fetching is supported.
 */
struct sub {
	git_smart_subtransport parent;
	struct ms_http *h;
	struct progress_ctx *ctx;
	char *base;  /* the repository URL, after a redirect of info/refs */
};

struct sub_stream {
	git_smart_subtransport_stream parent;
	struct sub *sub;
	git_smart_service_t service;
	GByteArray *request;
	struct ms_http_stream *resp;
};

#define INFO_REFS "/info/refs?service=git-upload-pack"

static int git_net_error(struct sub *sub, int rc, bool mid_stream)
{
	sub->ctx->http_rc = rc;
	sub->ctx->mid_stream = mid_stream;
	git_error_set_str(GIT_ERROR_NET, ms_error_last());
	return -1;
}

/* Send the request of `s` and check the answer's status and type. */
static int sub_stream_open(struct sub_stream *s)
{
	bool ls = s->service == GIT_SERVICE_UPLOADPACK_LS;
	const char *want = ls ? "application/x-git-upload-pack-advertisement" :
		"application/x-git-upload-pack-result";
	struct ms_http_response r;
	char *url = g_strconcat(s->sub->base, ls ? INFO_REFS :
				"/git-upload-pack", NULL);
	int rc;

	rc = ms_http_stream_open(s->sub->h, url,
				 ls ? NULL : s->request->data,
				 ls ? 0 : s->request->len,
				 ls ? NULL :
				 "application/x-git-upload-pack-request",
				 ls ? NULL : want, &s->resp, &r);
	if (!rc && r.status != 200)
		rc = ms_error_set(r.status == 404 ? MS_ENOTFOUND : MS_ENET,
				  "'%s' answered %ld", url, r.status);
	else if (!rc && (!r.content_type ||
			 !g_str_has_prefix(r.content_type, want)))
		rc = ms_error_set(MS_EPARSE, "'%s' is not a smart-HTTP git "
				  "repository (it sent %s)", url,
				  r.content_type ? r.content_type :
				  "no Content-Type");
	if (!rc && ls && r.final_url &&
	    g_str_has_suffix(r.final_url, INFO_REFS)) {
		/* Send the pack request where info/refs was found. */
		g_free(s->sub->base);
		s->sub->base = g_strndup(r.final_url, strlen(r.final_url) -
					 strlen(INFO_REFS));
	}
	ms_http_response_release(&r);
	g_free(url);
	if (rc) {
		ms_http_stream_free(s->resp);
		s->resp = NULL;
		return git_net_error(s->sub, rc, false);
	}
	return 0;
}

static int sub_stream_read(git_smart_subtransport_stream *gs, char *buffer,
			   size_t size, size_t *bytes_read)
{
	struct sub_stream *s = (struct sub_stream *)gs;
	int rc;

	*bytes_read = 0;
	if (!s->resp && sub_stream_open(s) < 0)
		return -1;
	rc = ms_http_stream_read(s->resp, buffer, size, bytes_read);
	if (rc < 0)
		return git_net_error(s->sub, rc, true);
	return 0;
}

static int sub_stream_write(git_smart_subtransport_stream *gs,
			    const char *buffer, size_t len)
{
	struct sub_stream *s = (struct sub_stream *)gs;

	if (s->service != GIT_SERVICE_UPLOADPACK || s->resp) {
		git_error_set_str(GIT_ERROR_NET, "unexpected write to a "
				  "smart-HTTP stream");
		return -1;
	}
	g_byte_array_append(s->request, (const guint8 *)buffer, (guint)len);
	return 0;
}

static void sub_stream_free(git_smart_subtransport_stream *gs)
{
	struct sub_stream *s = (struct sub_stream *)gs;

	ms_http_stream_free(s->resp);
	g_byte_array_unref(s->request);
	g_free(s);
}

static int sub_action(git_smart_subtransport_stream **out,
		      git_smart_subtransport *t, const char *url,
		      git_smart_service_t action)
{
	struct sub *sub = (struct sub *)t;
	struct sub_stream *s;

	if (action != GIT_SERVICE_UPLOADPACK_LS &&
	    action != GIT_SERVICE_UPLOADPACK) {
		git_error_set_str(GIT_ERROR_NET, "maintstat only fetches");
		return -1;
	}
	if (!sub->base || action == GIT_SERVICE_UPLOADPACK_LS) {
		g_free(sub->base);
		sub->base = g_strdup(url);
		while (g_str_has_suffix(sub->base, "/"))
			sub->base[strlen(sub->base) - 1] = '\0';
	}
	s = g_new0(struct sub_stream, 1);
	s->parent.subtransport = t;
	s->parent.read = sub_stream_read;
	s->parent.write = sub_stream_write;
	s->parent.free = sub_stream_free;
	s->sub = sub;
	s->service = action;
	s->request = g_byte_array_new();
	*out = &s->parent;
	return 0;
}

static int sub_close(git_smart_subtransport *t)
{
	(void)t;
	return 0;
}

static void sub_free(git_smart_subtransport *t)
{
	struct sub *sub = (struct sub *)t;

	g_free(sub->base);
	g_free(sub);
}

static int make_sub(git_smart_subtransport **out, git_transport *owner,
		    void *param)
{
	struct sub *sub = g_new0(struct sub, 1);

	(void)owner;
	sub->parent.action = sub_action;
	sub->parent.close = sub_close;
	sub->parent.free = sub_free;
	sub->ctx = param;
	sub->h = sub->ctx->h;
	*out = &sub->parent;
	return 0;
}

static int make_transport(git_transport **out, git_remote *owner,
			  void *payload)
{
	struct progress_ctx *p = payload;

	p->def.callback = make_sub;
	p->def.rpc = 1;
	p->def.param = p;
	return git_transport_smart(out, owner, &p->def);
}

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
	struct progress_ctx pc = { o, what, h, { NULL, 0, NULL }, 0, false };
	int rc = 0;

	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.callbacks.transfer_progress = on_transfer;
	fo.callbacks.transport = make_transport;
	fo.callbacks.payload = &pc;
	fo.update_fetchhead = 0;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	for (unsigned attempt = 1;; attempt++) {
		git_remote *remote = NULL;
		int err;

		pc.http_rc = 0;
		pc.mid_stream = false;
		err = create_remote(&remote, repo, NULL, url);
		if (!err)
			err = git_remote_fetch(remote, &specs, &fo,
					       "maintstat fetch");
		git_remote_free(remote);
		if (!err)
			return 0;
		rc = ms_git_error(err, "cannot fetch '%s'", url);
		if (pc.http_rc)
			rc = pc.http_rc;
		/*
		 * Each request was already retried; start again only when
		 * a transfer broke off half-way.
		 */
		if (!pc.mid_stream || pc.http_rc != MS_ENET ||
		    attempt > (unsigned)o->retries)
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
		rc = rmtree(partial);
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
	if (rc && partial)
		rmtree(partial);       /* a failed clone leaves none */
	g_free(partial);
	return rc;
}
