/*
 * cli-patches.c - --keep, the signer and --output-dir of the commands
 * that write patch series (cli-patches.h).
 */
#include "cli-outdir.h"
#include "cli-patches.h"
#include "git-common.h"
#include "person.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

int cli_keep_load(const char *path, struct cli_keep *k, bool plus_fold)
{
	char *buf;
	char **lines;

	k->lines = g_ptr_array_new_with_free_func(g_free);
	k->used = g_ptr_array_new();
	if (!path)
		return 0;
	if (cli_read_file(path, &buf, NULL) != CLI_CONTINUE)
		return -1;
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *hash = strchr(*l, '#');
		char *name, *email;

		if (hash)
			*hash = '\0';
		g_strstrip(*l);
		if (!**l)
			continue;
		ms_person_parse(*l, -1, &name, &email);
		if (email)
			g_ptr_array_add(k->lines,
					ms_email_normalize(email, plus_fold));
		if (name)
			g_ptr_array_add(k->lines, ms_casefold(name, -1));
		g_free(name);
		g_free(email);
	}
	g_strfreev(lines);
	g_free(buf);
	return 0;
}

bool cli_keep_has(struct cli_keep *k, const char *pname, const char *pemail,
		  bool plus_fold)
{
	char *email = pemail && *pemail ?
		      ms_email_normalize(pemail, plus_fold) : NULL;
	char *name = pname && *pname ? ms_casefold(pname, -1) : NULL;
	bool found = false;

	for (guint i = 0; i < k->lines->len && !found; i++) {
		const char *l = k->lines->pdata[i];

		found = (email && !strcmp(l, email)) ||
			(name && !strcmp(l, name));
	}
	g_free(email);
	g_free(name);
	return found;
}

void cli_keep_free(struct cli_keep *k)
{
	if (k->lines)
		g_ptr_array_free(k->lines, TRUE);
	if (k->used)
		g_ptr_array_free(k->used, TRUE);
}

/*
 * The *.patch files already in `dir` (sorted; NULL when none or no such
 * directory).  Stale patches mixed with a new series would all be applied
 * by `git am` on the whole directory.
 */
static GPtrArray *old_patches(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *names = NULL;
	const char *name;

	if (!d)
		return NULL;
	while ((name = g_dir_read_name(d))) {
		if (!g_str_has_suffix(name, ".patch"))
			continue;
		if (!names)
			names = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(names, g_strdup(name));
	}
	g_dir_close(d);
	if (names)
		g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	return names;
}

/* Refuse a directory holding patches (unless --force); with `remove`,
 * empty it of them. */
int cli_check_outdir(const char *dir, bool force, bool remove)
{
	GPtrArray *old = old_patches(dir);
	int rc = CLI_CONTINUE;

	if (!old)
		return CLI_CONTINUE;
	if (!force) {
		rc = cli_error("'%s' already holds %u patch%s ('%s'%s): they "
			       "would mix with the new series (git am applies "
			       "both); empty it, choose another --output-dir, "
			       "or --force to remove its *.patch first", dir,
			       old->len,
			       old->len == 1 ? "" : "es",
			       (char *)old->pdata[0],
			       old->len > 1 ? ", ..." : "");
		g_ptr_array_unref(old);
		return rc;
	}
	for (guint i = 0; remove && i < old->len && rc == CLI_CONTINUE; i++) {
		char *path = g_build_filename(dir, old->pdata[i], NULL);

		if (g_unlink(path) < 0)
			rc = cli_error("cannot remove '%s': %s", path,
				       g_strerror(errno));
		g_free(path);
	}
	g_ptr_array_unref(old);
	return rc;
}

/*
 * The series into `dir`: written whole beside it first, so that a full
 * disk leaves no cover letter announcing patches never written, then
 * (--force: the old patches removed) moved in.
 */
int cli_write_patches(const char *dir, char *const *name0,
		      GString *const *text0, size_t size, size_t n,
		      bool force)
{
	char *tmp;
	int rc = cli_outdir_stage(dir, &tmp);

	for (size_t i = 0; rc == CLI_CONTINUE && i < n; i++) {
		const char *name = *(char *const *)(const void *)
			((const char *)name0 + i * size);
		const GString *text = *(GString *const *)(const void *)
			((const char *)text0 + i * size);
		FILE *fp = cli_outdir_open(tmp, name);

		if (!fp) {
			rc = EXIT_RUNTIME;
			break;
		}
		fwrite(text->str, 1, text->len, fp);
		rc = cli_outdir_close(fp, tmp, name);
	}
	if (rc == CLI_CONTINUE)
		rc = cli_check_outdir(dir, force, true);
	if (rc == CLI_CONTINUE)
		return cli_outdir_merge(&tmp, dir);
	cli_outdir_discard(&tmp);
	return rc;
}

/* Who signs the series: --from, else the repository's user. */
int cli_patch_signer(const char *cmd, const char *repo, const char *from_arg,
		     char **from)
{
	char *n, *e;

	if (from_arg) {
		ms_person_parse(from_arg, -1, &n, &e);
		if (!n || !e) {
			g_free(n);
			g_free(e);
			return cli_usage_error(cmd, "--from takes \"Name "
					       "<address>\", not '%s'",
					       from_arg);
		}
	} else {
		if (ms_git_user(repo, &n, &e) < 0)
			return cli_error_last();
		if (!n || !e) {
			g_free(n);
			g_free(e);
			return cli_error("no user.name and user.email in the "
					 "git configuration of '%s': say who "
					 "signs the series with --from",
					 repo);
		}
	}
	*from = ms_person_format(n, e);
	g_free(n);
	g_free(e);
	return CLI_CONTINUE;
}

