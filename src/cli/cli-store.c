/*
 * cli-store.c - where the store lives, and opening it for a command.
 */
#include "cli.h"
#include "store.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

/*
 * The repository id is the canonical absolute path of the git directory:
 * "<name>-<first 16 hex digits of its SHA-256>", so each clone has its own
 * store and the name still says which one it is.  (Root commits would
 * name the history rather than the clone, but finding them means walking
 * all of it, which a warm run must not do.)
 */
char *cli_store_default_path(const char *gitdir)
{
	char *abs = g_canonicalize_filename(gitdir, NULL);
	char *real = realpath(abs, NULL);
	const char *key = real ? real : abs;
	char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	char *base = g_path_get_basename(key);
	const char *cache = g_getenv("XDG_CACHE_HOME");
	char *name, *path;

	if (g_str_has_suffix(base, ".git") && strlen(base) > 4)
		base[strlen(base) - 4] = '\0';
	if (!strcmp(base, ".") || !strcmp(base, "/")) {
		g_free(base);
		base = g_strdup("repo");
	}
	hash[16] = '\0';
	name = g_strdup_printf("%s-%s.sqlite", base, hash);
	if (cache && g_path_is_absolute(cache))
		path = g_build_filename(cache, "maintstat", name, NULL);
	else
		path = g_build_filename(g_get_home_dir(), ".cache",
					"maintstat", name, NULL);
	free(real);
	g_free(abs);
	g_free(hash);
	g_free(base);
	g_free(name);
	return path;
}

int cli_store_open(const struct cli_store_opts *o, const char *gitdir,
		   struct ms_store **out)
{
	struct ms_store_opts so = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	char *path;
	int rc;

	*out = NULL;
	if (o->no_cache)
		return CLI_CONTINUE;
	if (o->wait < 0 || o->wait > 86400)
		return cli_error("--db-wait takes 0 to 86400 seconds");
	so.busy_timeout_ms = (int)o->wait * 1000;
	so.no_create = o->read_only;
	path = o->db ? g_strdup(o->db) : cli_store_default_path(gitdir);
	rc = ms_store_open(path, &so, out, &diags);
	g_free(path);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc == MS_EUSAGE) {
		cli_warning("%s; going on without it", ms_error_last());
		return CLI_CONTINUE;
	}
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}
