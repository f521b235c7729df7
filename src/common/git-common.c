#include "git-common.h"
#include "error.h"

#include <git2.h>
#include <glib.h>
#include <stdarg.h>
#include <string.h>

static gpointer init_once(gpointer unused)
{
	(void)unused;
	git_libgit2_init();
	/* We read object databases a lot and verify nothing we write. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	return NULL;
}

void ms_git_init(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, init_once, NULL);
}

int ms_git_error(int git_code, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	int code = git_code == GIT_ENOTFOUND ? MS_ENOTFOUND : MS_ERROR;
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (e && e->message && *e->message)
		ms_error_set(code, "%s: %s", what, e->message);
	else
		ms_error_set(code, "%s", what);
	g_free(what);
	return code;
}

static char *config_string(git_config *cfg, const char *key)
{
	git_buf buf = { 0 };
	char *out = NULL;

	if (git_config_get_string_buf(&buf, cfg, key) == 0)
		out = g_strdup(buf.ptr);
	git_buf_dispose(&buf);
	return out;
}

int ms_git_user(const char *gitdir, char **name, char **email)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	int rc;

	*name = *email = NULL;
	ms_git_init();
	rc = git_repository_open_ext(&repo, gitdir,
				     GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc < 0)
		return ms_git_error(rc, "cannot open git repository '%s'",
				    gitdir);
	rc = git_repository_config_snapshot(&cfg, repo);
	if (rc == 0) {
		*name = config_string(cfg, "user.name");
		*email = config_string(cfg, "user.email");
	}
	git_config_free(cfg);
	git_repository_free(repo);
	git_error_clear();
	return 0;
}

int ms_git_discover(const char *start, char **out)
{
	git_buf buf = { 0 };
	git_repository *repo = NULL;
	const char *dir;
	int rc;

	*out = NULL;
	ms_git_init();
	rc = git_repository_discover(&buf, start, 0, NULL);
	if (rc < 0)
		return ms_git_error(rc, "'%s' is not inside a git repository",
				    start);
	rc = git_repository_open(&repo, buf.ptr);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot open repository '%s'", buf.ptr);
		goto out;
	}
	/* the work tree, as a user names it; a bare repository itself */
	dir = git_repository_workdir(repo);
	*out = g_strdup(dir ? dir : git_repository_path(repo));
	if (strlen(*out) > 1 && (*out)[strlen(*out) - 1] == '/')
		(*out)[strlen(*out) - 1] = '\0';
out:
	git_repository_free(repo);
	git_buf_dispose(&buf);
	return rc;
}
