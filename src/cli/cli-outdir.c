/*
 * cli-outdir.c - output directories written beside and moved into place
 * (cli-outdir.h).
 */
#include "cli-outdir.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_outdir_stage(const char *dir, char **tmp)
{
	char *parent = g_path_get_dirname(dir);
	char *base = g_path_get_basename(dir);
	int rc = CLI_CONTINUE;

	*tmp = NULL;
	if (g_mkdir_with_parents(parent, 0777) < 0) {
		rc = cli_error("cannot create '%s' (for '%s'): %s", parent,
			       dir, g_strerror(errno));
	} else {
		*tmp = g_strdup_printf("%s/.%s.tmp-XXXXXX", parent, base);
		if (!g_mkdtemp_full(*tmp, 0755)) {
			rc = cli_error("cannot create a directory beside "
				       "'%s': %s", dir, g_strerror(errno));
			g_free(*tmp);
			*tmp = NULL;
		}
	}
	g_free(parent);
	g_free(base);
	return rc;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* rm -r `path`, following no link (FTW_PHYS). */
static void remove_tree(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void cli_outdir_discard(char **tmp)
{
	if (!*tmp)
		return;
	remove_tree(*tmp);
	g_free(*tmp);
	*tmp = NULL;
}

FILE *cli_outdir_open(const char *tmp, const char *name)
{
	char *path = g_build_filename(tmp, name, NULL);
	char *dir = g_path_get_dirname(path);
	FILE *fp = NULL;
	int fd = -1;

	if (g_mkdir_with_parents(dir, 0777) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
	if (fd >= 0)
		fp = fdopen(fd, "w");
	if (!fp) {
		cli_error("cannot write '%s': %s", path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	g_free(dir);
	g_free(path);
	return fp;
}

/* MS_TEST_FULL_AFTER=N: the N-th file closed fails as on a full disk. */
static bool test_full(void)
{
	static unsigned long closed;
	const char *v = g_getenv("MS_TEST_FULL_AFTER");

	return v && *v && ++closed >= g_ascii_strtoull(v, NULL, 10);
}

int cli_outdir_close(FILE *fp, const char *tmp, const char *name)
{
	int bad = ferror(fp), err;

	if (!bad && test_full()) {
		bad = 1;
		errno = ENOSPC;
	}
	err = errno;
	if (fclose(fp) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (bad)
		return cli_error("cannot write '%s/%s': %s", tmp, name,
				 g_strerror(err ? err : EIO));
	return CLI_CONTINUE;
}

static bool is_regular(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);
	struct stat st;
	bool reg = lstat(path, &st) == 0 && S_ISREG(st.st_mode);

	g_free(path);
	return reg;
}

/* Whether `dir` is an empty directory (or missing: *missing). */
static bool is_empty(const char *dir, bool *missing)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	bool empty;

	*missing = !d && errno == ENOENT;
	if (!d)
		return false;
	empty = g_dir_read_name(d) == NULL;
	g_dir_close(d);
	return empty;
}

bool cli_outdir_is_report(const char *dir)
{
	bool missing;

	return is_empty(dir, &missing) || missing ||
	       (is_regular(dir, "index.html") &&
		is_regular(dir, "assets/report.js") &&
		is_regular(dir, "data/review.json"));
}

int cli_outdir_replace(char **tmp, const char *dir)
{
	bool missing;
	int rc = CLI_CONTINUE;
	struct stat st;

	if (lstat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		rc = cli_error("'%s' is not a directory: the report is not "
			       "put there", dir);
	} else if (is_empty(dir, &missing) || missing) {
		if (!missing)
			rmdir(dir);
		if (rename(*tmp, dir) < 0)
			rc = cli_error("cannot rename '%s' to '%s': %s", *tmp,
				       dir, g_strerror(errno));
	} else if (renameat2(AT_FDCWD, *tmp, AT_FDCWD, dir,
			     RENAME_EXCHANGE) < 0) {
		rc = cli_error("cannot replace '%s' with '%s': %s", dir,
			       *tmp, g_strerror(errno));
	}
	/* the new report is in place: *tmp holds the old one */
	cli_outdir_discard(tmp);
	return rc;
}

int cli_outdir_merge(char **tmp, const char *dir)
{
	GDir *d;
	const char *name;
	bool missing;
	int rc = CLI_CONTINUE;

	if (is_empty(dir, &missing) || missing) {
		if (!missing)
			rmdir(dir);
		if (rename(*tmp, dir) == 0) {
			g_free(*tmp);
			*tmp = NULL;
			return CLI_CONTINUE;
		}
	}
	if (g_mkdir_with_parents(dir, 0777) < 0) {
		rc = cli_error("cannot create '%s': %s", dir,
			       g_strerror(errno));
		cli_outdir_discard(tmp);
		return rc;
	}
	d = g_dir_open(*tmp, 0, NULL);
	while (d && rc == CLI_CONTINUE && (name = g_dir_read_name(d))) {
		char *from = g_build_filename(*tmp, name, NULL);
		char *to = g_build_filename(dir, name, NULL);

		if (rename(from, to) < 0)
			rc = cli_error("cannot move '%s' to '%s': %s", from,
				       to, g_strerror(errno));
		g_free(from);
		g_free(to);
	}
	if (d)
		g_dir_close(d);
	cli_outdir_discard(tmp);
	return rc;
}
