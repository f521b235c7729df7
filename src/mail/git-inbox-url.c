/*
 * git-inbox-url.c - a public-inbox archive's web address from its git
 * remote (inbox-url.h), read with libgit2.
 */
#include "git-common.h"
#include "inbox-url.h"

#include <git2.h>
#include <glib.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

bool ms_url_is_web(const char *url)
{
	const char *rest;

	if (!url)
		return false;
	if (!g_ascii_strncasecmp(url, "https://", 8))
		rest = url + 8;
	else if (!g_ascii_strncasecmp(url, "http://", 7))
		rest = url + 7;
	else
		return false;
	if (!*rest || *rest == '/')
		return false;
	for (const unsigned char *p = (const unsigned char *)url; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '"' || *p == '<' ||
		    *p == '>' || *p == '\\' || *p == '`')
			return false;
	return true;
}

char *ms_inbox_url_strip(const char *url)
{
	char *u = g_strdup(url);
	size_t n = strlen(u);
	char *slash;
	bool digits = true;

	while (n && u[n - 1] == '/')
		u[--n] = 0;
	if (g_str_has_suffix(u, ".git")) {
		n -= 4;
		u[n] = 0;
	}
	/* the epoch: ".../git/N" (v2) or ".../N" (lore's v1 clone URL) */
	slash = strrchr(u, '/');
	if (slash && slash[1]) {
		for (const char *p = slash + 1; *p; p++)
			if (!g_ascii_isdigit(*p))
				digits = false;
		if (digits) {
			*slash = 0;
			if (g_str_has_suffix(u, "/git"))
				u[strlen(u) - 4] = 0;
		}
	}
	return u;
}

/* remote.origin.url of the bare repository `gitdir`, stripped.  Read from
 * its config directly: libgit2 1.5's git_remote_lookup() leaks the regex
 * match data of its config iteration. */
static char *origin_url(const char *gitdir)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *url = NULL;

	/* only here: libgit2's start reads the system's certificates, a
	 * tenth of a warm run that reads an mbox */
	ms_git_init();
	if (git_repository_open_bare(&repo, gitdir) < 0)
		goto out;
	if (git_repository_config_snapshot(&cfg, repo) < 0)
		goto out;
	if (git_config_get_string_buf(&buf, cfg, "remote.origin.url") < 0)
		goto out;
	/* a link to a message: only a web address (a remote may be a path,
	 * git://, or a planted javascript:) */
	if (buf.ptr && ms_url_is_web(buf.ptr))
		url = ms_inbox_url_strip(buf.ptr);
out:
	git_buf_dispose(&buf);
	git_config_free(cfg);
	git_repository_free(repo);
	return url;
}

char *ms_inbox_base_url(const char *path)
{
	char *dir = g_build_filename(path, "git", NULL);
	GDir *d;
	const char *name;
	long best = -1;
	char *url = NULL;

	d = g_dir_open(dir, 0, NULL);
	if (d) {
		/* v2: the lowest-numbered epoch */
		while ((name = g_dir_read_name(d))) {
			char *end;
			long n = strtol(name, &end, 10);

			if (end != name && !strcmp(end, ".git") && n >= 0 &&
			    (best < 0 || n < best))
				best = n;
		}
		g_dir_close(d);
	}
	if (best >= 0) {
		char *epoch = g_strdup_printf("%s/%ld.git", dir, best);

		url = origin_url(epoch);
		g_free(epoch);
	} else if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		url = origin_url(path);
	}
	g_free(dir);
	return url;
}
