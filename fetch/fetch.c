/*
 * fetch.c - mirroring public-inbox inboxes, and saving searches and
 * threads as mbox files.  The requests go through http.c (libcurl) and
 * git-mirror.c (libgit2); this file decides what to ask for and checks
 * that what came back is what was asked for.
 */
#include "fetch.h"

#include "error.h"
#include "git-mirror.h"
#include "http.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void ms_fetch_result_free(struct ms_fetch_result *r)
{
	if (!r)
		return;
	g_free(r->inbox);
	g_free(r->url);
	g_free(r->path);
	g_free(r->epochs);
	g_free(r);
}

char *ms_fetch_inbox_name(const char *url)
{
	/* ENCODED: the path is split before %2f becomes a '/' ("a%2fb"
	 * named the inbox "b") */
	GUri *uri = g_uri_parse(url, G_URI_FLAGS_ENCODED, NULL);
	char **parts;
	char *name = NULL;

	if (!uri)
		return NULL;
	parts = g_strsplit(g_uri_get_path(uri), "/", -1);
	for (char **p = parts; *p; p++)
		if (**p)
			name = *p;
	name = name ? g_uri_unescape_string(name, NULL) : NULL;
	g_strfreev(parts);
	g_uri_unref(uri);
	if (name && (!strcmp(name, ".") || !strcmp(name, "..") ||
		     strchr(name, '/') || !*name))
		g_clear_pointer(&name, g_free);
	for (const char *c = name; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			g_clear_pointer(&name, g_free);
			break;
		}
	return name;
}

char *ms_fetch_msgid_segment(const char *msgid)
{
	char *id = g_strstrip(g_strdup(msgid));
	size_t len = strlen(id);
	char *seg;

	if (len >= 2 && id[0] == '<' && id[len - 1] == '>') {
		id[len - 1] = '\0';
		memmove(id, id + 1, len - 1);
	}
	/* Everything but unreserved and these is %-encoded, '/' included. */
	seg = g_uri_escape_string(id, "!$&'()*+,;=:@", FALSE);
	g_free(id);
	return seg;
}

/* `url` checked to be http(s), with a trailing '/'; NULL on error. */
static char *inbox_url(const char *url)
{
	GUri *uri = g_uri_parse(url, G_URI_FLAGS_NONE, NULL);
	const char *scheme = uri ? g_uri_get_scheme(uri) : NULL;
	char *out = NULL;

	if (!uri) {
		ms_error_set(MS_EUSAGE, "'%s' is not a URL", url);
	} else if (g_ascii_strcasecmp(scheme, "http") &&
		   g_ascii_strcasecmp(scheme, "https")) {
		ms_error_set(MS_EUSAGE, "'%s' is not an http or https URL",
			     url);
	} else if (g_uri_get_query(uri) || g_uri_get_fragment(uri)) {
		ms_error_set(MS_EUSAGE, "'%s': an inbox URL has no query or "
			     "fragment", url);
	} else {
		out = g_str_has_suffix(url, "/") ? g_strdup(url) :
			g_strconcat(url, "/", NULL);
	}
	g_clear_pointer(&uri, g_uri_unref);
	return out;
}

/* Anti-bot interstitials seen in front of lore and other forges. */
static const char *antibot_name(const struct ms_http_response *r)
{
	static const struct { const char *marker, *name; } known[] = {
		{ "anubis", "Anubis" },
		{ "not a bot", "a bot check" },
		{ "cf-chl", "Cloudflare" },
		{ "challenge-platform", "Cloudflare" },
		{ "just a moment...", "Cloudflare" },
		{ "checking your browser", "a browser check" },
		{ "captcha", "a CAPTCHA" },
		{ "go-away", "go-away" },
	};
	const char *name = NULL;
	char *text;

	if (!r->body || !r->body->len)
		return NULL;
	text = g_ascii_strdown((const char *)r->body->data,
			       (gssize)r->body->len);
	for (size_t i = 0; i < G_N_ELEMENTS(known) && !name; i++)
		if (strstr(text, known[i].marker))
			name = known[i].name;
	g_free(text);
	return name;
}

static bool resp_is_html(const struct ms_http_response *r)
{
	const char *ct = r->content_type;

	if (ct && (g_str_has_prefix(ct, "text/html") ||
		   g_str_has_prefix(ct, "application/xhtml")))
		return true;
	return r->body && r->body->len >= 5 &&
		(!g_ascii_strncasecmp((const char *)r->body->data,
				      "<!doc", 5) ||
		 !g_ascii_strncasecmp((const char *)r->body->data,
				      "<html", 5));
}

/* What to do when an anti-bot page is in the way. */
#define ADVICE_GIT "mirror the inbox over git instead ('maintstat fetch " \
	"INBOX-URL' clones INBOX-URL/git/N.git, which lore leaves open)"
#define ADVICE_BLOCKED "its git paths are blocked too; use another " \
	"mirror of the inbox or ask the server's administrators"

/*
 * Set the error for an answer to `url` that is not the `wanted` thing:
 * an anti-bot page (with `advice`), an HTML page, a 404, another status.
 */
static int unexpected(const struct ms_http_response *r, const char *url,
		      const char *wanted, const char *advice)
{
	const char *bot = resp_is_html(r) ? antibot_name(r) : NULL;

	if (bot)
		return ms_error_set(MS_EPARSE, "'%s' returned an anti-bot "
				    "challenge page (%s) instead of %s; %s",
				    url, bot, wanted, advice);
	if (r->status == 404)
		return ms_error_set(MS_ENOTFOUND, "'%s' not found (404)", url);
	if (r->status == 200 && resp_is_html(r))
		return ms_error_set(MS_EPARSE, "'%s' returned an HTML page, "
				    "not %s", url, wanted);
	if (r->status == 200)
		return ms_error_set(MS_EPARSE, "'%s' returned %s, not %s",
				    url, r->content_type ? r->content_type :
				    "an untyped answer", wanted);
	return ms_error_set(MS_ENET, "'%s' answered %ld, not %s", url,
			    r->status, wanted);
}

/* A file written under a temporary name and renamed when complete. */
struct tmp_out {
	int fd;
	char *path;      /* the final name */
	char *tmp_path;  /* named temporary, NULL with O_TMPFILE */
};

static int tmp_open(struct tmp_out *t, const char *path)
{
	char *dir = g_path_get_dirname(path);

	t->path = g_strdup(path);
	t->tmp_path = NULL;
#ifdef O_TMPFILE
	/* Unnamed until complete: an interrupted run leaves nothing. */
	t->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	if (t->fd >= 0) {
		g_free(dir);
		return 0;
	}
#endif
	g_free(dir);
	t->tmp_path = g_strconcat(path, ".tmp-XXXXXX", NULL);
	t->fd = g_mkstemp(t->tmp_path);
	if (t->fd < 0) {
		int e = errno;

		g_clear_pointer(&t->tmp_path, g_free);
		return ms_error_set_errno(MS_ERROR, e, "cannot create '%s'",
					  path);
	}
	return 0;
}

static void tmp_abort(struct tmp_out *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->tmp_path)
		g_unlink(t->tmp_path);
	g_free(t->tmp_path);
	g_free(t->path);
	t->fd = -1;
	t->tmp_path = t->path = NULL;
}

static int tmp_commit(struct tmp_out *t)
{
	int rc = 0;

	if (fsync(t->fd) < 0 && errno != EINVAL) {
		rc = ms_error_set_errno(MS_ERROR, errno, "cannot write '%s'",
					t->path);
		goto out;
	}
	if (!t->tmp_path) {
		char proc[64];

		/* Give the unnamed file a name, then move it in place. */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", t->fd);
		for (int i = 0; i < 100; i++) {
			char *name = g_strdup_printf("%s.tmp-%08x", t->path,
						     g_random_int());

			if (linkat(AT_FDCWD, proc, AT_FDCWD, name,
				   AT_SYMLINK_FOLLOW) == 0) {
				t->tmp_path = name;
				break;
			}
			g_free(name);
			if (errno != EEXIST) {
				rc = ms_error_set_errno(MS_ERROR, errno,
							"cannot create '%s'",
							t->path);
				goto out;
			}
		}
		if (!t->tmp_path) {
			rc = ms_error_set(MS_ERROR, "cannot create '%s'",
					  t->path);
			goto out;
		}
	}
	if (g_rename(t->tmp_path, t->path) < 0)
		rc = ms_error_set_errno(MS_ERROR, errno, "cannot rename to "
					"'%s'", t->path);
	else
		g_clear_pointer(&t->tmp_path, g_free);
out:
	tmp_abort(t);
	return rc;
}

/*
 * Count the messages of the mbox in `fd` ("From " at the start of a line;
 * mboxrd quotes any other) and check it is one.
 */
static int count_mbox(int fd, const char *url, size_t *n)
{
	char buf[65536];
	size_t col = 0, total = 0, first = 0;
	bool candidate = true;
	ssize_t len;

	*n = 0;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return ms_error_set_errno(MS_ERROR, errno, "cannot read back "
					  "a temporary file");
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < len; i++) {
			char c = buf[i];

			if (candidate && col < 5) {
				if (c != "From "[col])
					candidate = false;
				else if (col == 4 && !(*n)++)
					first = total + (size_t)i - 4;
			}
			col++;
			if (c == '\n') {
				col = 0;
				candidate = true;
			}
		}
		total += (size_t)len;
	}
	if (len < 0)
		return ms_error_set_errno(MS_ERROR, errno, "cannot read back "
					  "a temporary file");
	if (total && (!*n || first != 0))
		return ms_error_set(MS_EPARSE, "'%s' did not return an mbox",
				    url);
	return 0;
}

/* Download `url` into the mbox `out_path`; see ms_fetch_query(). */
static int fetch_mbox(struct ms_http *h, const char *url, bool post,
		      const char *inbox, const char *what,
		      const char *out_path, size_t *nr)
{
	struct ms_http_response r = { 0 };
	struct tmp_out t;
	int rc;

	*nr = 0;
	rc = tmp_open(&t, out_path);
	if (rc)
		return rc;
	rc = ms_http_request(h, url, post, t.fd, what, &r);
	if (rc)
		goto fail;
	if (r.status == 404 && post) {
		/* No match, or no such inbox?  Ask for the inbox. */
		struct ms_http_response ri = { 0 };

		rc = ms_http_request(h, inbox, false, -1, NULL, &ri);
		if (!rc && ri.status == 200 && !antibot_name(&ri))
			rc = 0; /* an empty result */
		else if (!rc)
			rc = ri.status == 404 ?
				ms_error_set(MS_ENOTFOUND, "unknown inbox "
					     "'%s' (404)", inbox) :
				unexpected(&ri, inbox, "an inbox",
					   ADVICE_GIT);
		ms_http_response_release(&ri);
		if (rc)
			goto fail;
		if (ftruncate(t.fd, 0) < 0) {
			rc = ms_error_set_errno(MS_ERROR, errno, "cannot "
						"write '%s'", out_path);
			goto fail;
		}
	} else if (r.status != 200 || !r.to_sink) {
		rc = unexpected(&r, url, "an mbox", ADVICE_GIT);
		goto fail;
	} else {
		rc = count_mbox(t.fd, url, nr);
		if (rc)
			goto fail;
	}
	ms_http_response_release(&r);
	return tmp_commit(&t);
fail:
	ms_http_response_release(&r);
	tmp_abort(&t);
	return rc;
}

int ms_fetch_query(const char *url, const char *query, bool threads,
		   const char *out_path, const struct ms_fetch_opts *opts,
		   size_t *nr_messages)
{
	struct ms_http *h = NULL;
	char *base = inbox_url(url), *q = NULL, *full = NULL;
	int rc;

	if (!base)
		return MS_EUSAGE;
	rc = ms_http_new(opts, &h);
	if (rc)
		goto out;
	q = g_uri_escape_string(query, NULL, FALSE);
	/* A GET of this returns an HTML page; the mbox needs a POST. */
	full = g_strdup_printf("%s?q=%s&x=m%s", base, q,
			       threads ? "&t=1" : "");
	rc = fetch_mbox(h, full, true, base, "query", out_path,
			nr_messages);
out:
	ms_http_free(h);
	g_free(full);
	g_free(q);
	g_free(base);
	return rc;
}

int ms_fetch_thread(const char *url, const char *msgid,
		    const char *out_path, const struct ms_fetch_opts *opts,
		    size_t *nr_messages)
{
	struct ms_http *h = NULL;
	char *base = inbox_url(url), *seg = NULL, *full = NULL;
	int rc;

	if (!base)
		return MS_EUSAGE;
	seg = ms_fetch_msgid_segment(msgid);
	if (!*seg) {
		rc = ms_error_set(MS_EUSAGE, "empty Message-ID");
		goto out;
	}
	/* "." and ".." are path steps, not ids: '..' left the inbox */
	if (!strcmp(seg, ".") || !strcmp(seg, "..")) {
		rc = ms_error_set(MS_EUSAGE, "'%s' is not a Message-ID",
				  msgid);
		goto out;
	}
	rc = ms_http_new(opts, &h);
	if (rc)
		goto out;
	full = g_strdup_printf("%s%s/t.mbox.gz", base, seg);
	rc = fetch_mbox(h, full, false, base, "thread", out_path,
			nr_messages);
	if (rc == MS_ENOTFOUND)
		rc = ms_error_set(MS_ENOTFOUND, "message '%s' not found in "
				  "'%s' (404)", msgid, base);
out:
	ms_http_free(h);
	g_free(full);
	g_free(seg);
	g_free(base);
	return rc;
}

static gint cmp_uint(gconstpointer a, gconstpointer b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

void ms_fetch_manifest_epochs(const char *json, size_t len, GArray *epochs)
{
	const char *end = json + len, *p = json;
	guint from = epochs->len, k;

	while ((p = g_strstr_len(p, end - p, "/git/"))) {
		const char *d = p + 5, *q = d;
		unsigned v = 0;

		p = d;
		while (q < end && g_ascii_isdigit(*q) && q - d < 7)
			v = v * 10 + (unsigned)(*q++ - '0');
		if (q == d || end - q < 5 || memcmp(q, ".git\"", 5))
			continue;
		/* canonical N.git only: "00.git" is not epoch 0 */
		if (*d == '0' && q - d > 1)
			continue;
		g_array_append_val(epochs, v);
	}
	/* sorted, then duplicates dropped: linear after the sort (a
	 * scan of the list per key took 7 s for 200,000 epochs) */
	g_array_sort(epochs, cmp_uint);
	k = from;
	for (guint i = from; i < epochs->len; i++)
		if (i == from || g_array_index(epochs, unsigned, i) !=
		    g_array_index(epochs, unsigned, k - 1))
			g_array_index(epochs, unsigned, k++) =
				g_array_index(epochs, unsigned, i);
	g_array_set_size(epochs, k);
}

/* Read the whole of `fd` from the start. */
static GString *read_all(int fd)
{
	GString *s = g_string_new(NULL);
	char buf[65536];
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		g_string_append_len(s, buf, n);
	return s;
}

/* Try manifest.js.gz; 1 when it listed epochs, 0 when absent. */
static int try_manifest(struct ms_http *h, const char *base, GArray *epochs)
{
	char *url = g_strconcat(base, "manifest.js.gz", NULL);
	struct ms_http_response r = { 0 };
	FILE *tmp = tmpfile();
	int rc;

	if (!tmp) {
		rc = ms_error_set_errno(MS_ERROR, errno, "cannot create a "
					"temporary file");
		goto out;
	}
	rc = ms_http_request_limited(h, url, false, fileno(tmp), NULL,
				     MS_FETCH_MAX_MANIFEST, &r);
	if (rc == MS_EPARSE)
		goto out; /* a broken gzip stream: say so */
	if (rc)
		goto out;
	if (r.status == 200 && r.gunzipped) {
		GString *s = read_all(fileno(tmp));

		ms_fetch_manifest_epochs(s->str, s->len, epochs);
		g_string_free(s, TRUE);
	}
	/* Anything else (404, an anti-bot page in front of the web
	 * pages only): probe the git paths. */
	rc = epochs->len ? 1 : 0;
out:
	if (tmp)
		fclose(tmp);
	ms_http_response_release(&r);
	g_free(url);
	return rc;
}

/* Probe git/0.git, git/1.git, ... until one is missing. */
static int probe_epochs(struct ms_http *h, const char *base, GArray *epochs)
{
	for (unsigned n = 0;; n++) {
		char *url = g_strdup_printf("%sgit/%u.git/info/refs?service="
					    "git-upload-pack", base, n);
		struct ms_http_response r = { 0 };
		int rc = ms_http_request(h, url, false, -1, NULL, &r);
		const char *ct = r.content_type ? r.content_type : "";

		if (!rc && r.status == 200 &&
		    g_str_has_prefix(ct, "application/x-git-upload-pack")) {
			g_array_append_val(epochs, n);
		} else if (!rc && (r.status == 404 || (r.status == 200 &&
				   resp_is_html(&r) && !antibot_name(&r)))) {
			rc = 1; /* the end (or no git here at all) */
		} else if (!rc) {
			rc = unexpected(&r, url, "a git repository",
					ADVICE_BLOCKED);
		}
		ms_http_response_release(&r);
		g_free(url);
		if (rc)
			return rc < 0 ? rc : 0;
	}
}

/* No epoch found: an unknown inbox, or not public-inbox at all. */
static int explain_no_epochs(struct ms_http *h, const char *base)
{
	struct ms_http_response r = { 0 };
	int rc = ms_http_request(h, base, false, -1, NULL, &r);

	if (rc)
		goto out;
	if (r.status == 404)
		rc = ms_error_set(MS_ENOTFOUND, "unknown inbox '%s' (404)",
				  base);
	else if (resp_is_html(&r) && antibot_name(&r))
		rc = unexpected(&r, base, "an inbox", ADVICE_BLOCKED);
	else if (r.status == 200)
		rc = ms_error_set(MS_EPARSE, "'%s' is not a public-inbox "
				  "inbox: no manifest.js.gz and no "
				  "git/0.git", base);
	else
		rc = unexpected(&r, base, "an inbox", ADVICE_BLOCKED);
out:
	ms_http_response_release(&r);
	return rc;
}

static int lock_mirror(const char *dir, int *fd)
{
	char *path = g_build_filename(dir, ".maintstat-lock", NULL);
	int rc = 0;

	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (*fd < 0) {
		rc = ms_error_set_errno(MS_ERROR, errno, "cannot open '%s'",
					path);
	} else if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		rc = errno == EWOULDBLOCK ?
			ms_error_set(MS_EBUSY, "'%s' is being updated by "
				     "another maintstat fetch", dir) :
			ms_error_set_errno(MS_ERROR, errno, "cannot lock "
					   "'%s'", path);
		close(*fd);
		*fd = -1;
	}
	g_free(path);
	return rc;
}

int ms_fetch_mirror(const char *url, const char *dest,
		    const struct ms_fetch_opts *opts,
		    struct ms_fetch_result **out)
{
	struct ms_fetch_result *res = g_new0(struct ms_fetch_result, 1);
	GArray *epochs = g_array_new(FALSE, FALSE, sizeof(unsigned));
	struct ms_http *h = NULL;
	char *gitdir = NULL;
	bool made[3] = { false, false, false };  /* gitdir, inbox, dest */
	int lock_fd = -1, rc;

	res->url = inbox_url(url);
	if (!res->url) {
		rc = MS_EUSAGE;
		goto out;
	}
	res->inbox = ms_fetch_inbox_name(res->url);
	if (!res->inbox) {
		rc = ms_error_set(MS_EUSAGE, "'%s' names no inbox", url);
		goto out;
	}
	res->path = g_build_filename(dest, res->inbox, NULL);
	gitdir = g_build_filename(res->path, "git", NULL);
	rc = ms_http_new(opts, &h);
	if (rc)
		goto out;
	rc = try_manifest(h, res->url, epochs);
	if (rc < 0)
		goto out;
	res->from_manifest = rc == 1;
	if (!res->from_manifest) {
		rc = probe_epochs(h, res->url, epochs);
		if (rc)
			goto out;
	}
	if (!epochs->len) {
		rc = explain_no_epochs(h, res->url);
		goto out;
	}
	/* Only now that there is something to mirror; what this run
	 * creates goes again if nothing could be mirrored into it. */
	made[0] = !g_file_test(gitdir, G_FILE_TEST_IS_DIR);
	made[1] = !g_file_test(res->path, G_FILE_TEST_IS_DIR);
	made[2] = !g_file_test(dest, G_FILE_TEST_IS_DIR);
	if (g_mkdir_with_parents(gitdir, 0777) < 0) {
		rc = ms_error_set_errno(MS_ERROR, errno, "cannot create '%s'",
					gitdir);
		goto out;
	}
	rc = lock_mirror(res->path, &lock_fd);
	if (rc)
		goto out;
	res->epochs = g_new0(struct ms_fetch_epoch, epochs->len);
	for (guint i = 0; i < epochs->len; i++) {
		struct ms_fetch_epoch *e = &res->epochs[i];
		char *eurl, *path, *what;

		e->n = g_array_index(epochs, unsigned, i);
		eurl = g_strdup_printf("%sgit/%u.git", res->url, e->n);
		path = g_strdup_printf("%s/%u.git", gitdir, e->n);
		/* the epoch's own number, as the summary and git/N.git
		 * name it, then how far the run is */
		what = g_strdup_printf("epoch %u (%u of %u)", e->n, i + 1,
				       epochs->len);
		rc = ms_git_mirror_epoch(h, eurl, path, what, &e->is_new,
					 &e->new_messages, e->tip);
		g_free(what);
		g_free(path);
		g_free(eurl);
		if (rc)
			goto out;
		res->nr_epochs++;
		res->new_messages += e->new_messages;
	}
	rc = 0;
out:
	if (lock_fd >= 0) {
		/* removed while still held, so that a run leaves nothing */
		char *lock = g_build_filename(res->path, ".maintstat-lock",
					      NULL);

		g_unlink(lock);
		g_free(lock);
		close(lock_fd);
	}
	ms_http_free(h);
	g_array_free(epochs, TRUE);
	if (rc && gitdir) {
		/* rmdir() removes only what stayed empty */
		if (made[0])
			g_rmdir(gitdir);
		if (made[1])
			g_rmdir(res->path);
		if (made[2])
			g_rmdir(dest);
	}
	g_free(gitdir);
	if (rc) {
		ms_fetch_result_free(res);
		res = NULL;
	}
	*out = res;
	return rc;
}
