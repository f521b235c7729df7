/*
 * cli-store.c - where the store lives, and opening it for a command.
 */
#include "cli.h"
#include "store.h"
#include "output.h"
#include "tree.h"
#include "when.h"

#include <glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	char *name, *path;

	if (g_str_has_suffix(base, ".git") && strlen(base) > 4)
		base[strlen(base) - 4] = '\0';
	if (!strcmp(base, ".") || !strcmp(base, "/")) {
		g_free(base);
		base = g_strdup("repo");
	}
	hash[16] = '\0';
	name = g_strdup_printf("%s-%s.sqlite", base, hash);
	{
		char *dir = cli_store_dir();

		path = g_build_filename(dir, name, NULL);
		g_free(dir);
	}
	free(real);
	g_free(abs);
	g_free(hash);
	g_free(base);
	g_free(name);
	return path;
}

/* MS_TEST_STOP_AT_COMMIT=N: stop (SIGSTOP) before the store's N-th
 * commit, for a test to kill the run at that known point. */
static void stop_at_commit(void *data)
{
	static unsigned long seen;

	if (++seen == GPOINTER_TO_SIZE(data))
		raise(SIGSTOP);
}

void cli_store_tune(struct ms_store *s)
{
	const char *v = g_getenv("MS_STORE_CHUNK_LIMIT");
	const char *stop = g_getenv("MS_TEST_STOP_AT_COMMIT");
	char *end;
	guint64 n;

	if (!s)
		return;
	if (stop && *stop)
		ms_store_on_commit(s, stop_at_commit, GSIZE_TO_POINTER(
			g_ascii_strtoull(stop, NULL, 10)));
	if (!v || !*v)
		return;
	n = g_ascii_strtoull(v, &end, 10);
	if (!*end && n)
		ms_store_set_chunk_limit(s, (size_t)n);
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
	if (rc == 0)
		cli_store_tune(*out);
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

/* ---- store list | prune: the stores of the cache directory ---- */

/*
 * Whether `name` is one maintstat gave a store: "<name>-<16 hex>.sqlite",
 * or such a store moved aside when damaged ("...sqlite.corrupt-<time>").
 * Nothing else in the directory is ever listed or removed.
 */
static bool store_file_name(const char *name, bool *aside)
{
	const char *dot = strstr(name, ".sqlite");
	const char *dash;

	if (!dot || dot - name < 18)
		return false;
	dash = dot - 17;
	if (*dash != '-')
		return false;
	for (const char *h = dash + 1; h < dot; h++)
		if (!g_ascii_isxdigit(*h) || g_ascii_isupper(*h))
			return false;
	*aside = g_str_has_prefix(dot, ".sqlite.corrupt-");
	return !strcmp(dot, ".sqlite") || *aside;
}

struct store_file {
	char *path;
	int64_t size;      /* with its -wal and -shm files */
	int64_t used;      /* newest modification of the three */
	bool aside;
};

static void store_file_free(gpointer p)
{
	struct store_file *f = p;

	g_free(f->path);
	g_free(f);
}

static gint by_path(gconstpointer a, gconstpointer b)
{
	return strcmp((*(struct store_file *const *)a)->path,
		      (*(struct store_file *const *)b)->path);
}

/* The stores in `dir`, and the work trees' lists (tree.h), sorted by
 * path; NULL (and an error) if unreadable, an empty array when the
 * directory does not exist. */
static GPtrArray *list_stores(const char *dir)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(store_file_free);
	GError *err = NULL;
	GDir *d = g_dir_open(dir, 0, &err);
	const char *name;

	if (!d) {
		if (g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			g_error_free(err);
			return out;
		}
		ms_error_set(MS_ERROR, "cannot read '%s': %s", dir,
			     err->message);
		g_error_free(err);
		g_ptr_array_unref(out);
		return NULL;
	}
	while ((name = g_dir_read_name(d))) {
		struct store_file *f;
		struct stat st;
		bool aside = false;

		if (!store_file_name(name, &aside) && !ms_tree_list_file(name))
			continue;
		f = g_new0(struct store_file, 1);
		f->path = g_build_filename(dir, name, NULL);
		f->aside = aside;
		if (lstat(f->path, &st) < 0 || !S_ISREG(st.st_mode)) {
			store_file_free(f);
			continue;
		}
		f->size = st.st_size;
		f->used = st.st_mtime;
		for (int k = 0; !aside && k < 2; k++) {
			char *side = g_strconcat(f->path, k ? "-shm" : "-wal",
						 NULL);

			if (lstat(side, &st) == 0 && S_ISREG(st.st_mode)) {
				f->size += st.st_size;
				if (st.st_mtime > f->used)
					f->used = st.st_mtime;
			}
			g_free(side);
		}
		g_ptr_array_add(out, f);
	}
	g_dir_close(d);
	g_ptr_array_sort(out, by_path);
	return out;
}

/* `t` for people ("2026-12-04 14:45 UTC") or, in JSON, ISO 8601 with
 * its offset as every date of the JSON documents. */
static void format_day(int64_t t, bool json, char buf[32])
{
	GDateTime *dt = g_date_time_new_from_unix_utc(t);
	char *s = dt ? g_date_time_format(dt, json ? "%Y-%m-%dT%H:%M:%S+00:00" :
					  "%Y-%m-%d %H:%M UTC") : NULL;

	g_strlcpy(buf, s ? s : "?", 32);
	g_free(s);
	if (dt)
		g_date_time_unref(dt);
}

/* Remove `f` (and its -wal and -shm): 0, or -1 after a message. */
static int remove_store(const struct store_file *f)
{
	for (int k = 0; k < 3; k++) {
		char *p = g_strconcat(f->path, k == 1 ? "-wal" :
				      k == 2 ? "-shm" : "", NULL);
		int rc = unlink(p);

		if (rc < 0 && errno != ENOENT) {
			cli_error("cannot remove '%s': %s", p,
				  g_strerror(errno));
			g_free(p);
			return -1;
		}
		g_free(p);
	}
	return 0;
}

static const struct cli_command_help maintain_help = {
	"maintstat store list|prune [options]",
	"The stores maintstat keeps in its cache directory ($XDG_CACHE_HOME/\n"
	"maintstat, default ~/.cache/maintstat), one per repository.  'list'\n"
	"prints each with its size and when it was last used; 'prune'\n"
	"removes those not used for --older-than (and damaged ones moved\n"
	"aside).  The lists of work trees 'maintainers' keeps there\n"
	"(tree-<hash>.list) count as stores.  Only files named as maintstat\n"
	"names them are touched.",
	"  maintstat store list\n"
	"  maintstat store prune --older-than 30d --dry-run",
};

int cli_store_maintain(int argc, char **argv)
{
	const char *older_arg = "90d";
	bool json = false, dry_run = false;
	const struct cli_option opts[] = {
		{ CLI_OPT_STRING, "older-than", 0, &older_arg, "DURATION",
		  "prune: stores not used for this long (default 90d)" },
		{ CLI_OPT_FLAG, "dry-run", 'n', &dry_run, NULL,
		  "prune: say what would be removed, remove nothing" },
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	const char *name = argv[0]; /* "store list" or "store prune" */
	bool prune = !strcmp(name, "store prune");
	struct ms_duration older;
	int64_t cutoff, freed = 0;
	GPtrArray *files;
	struct ms_out *o;
	char *dir;
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &maintain_help);
	if (rc != CLI_CONTINUE)
		return rc;
	if (argc > 0)
		return cli_usage_error(name, "too many arguments");
	rc = cli_parse_duration(name, "older-than", older_arg, &older);
	if (rc != CLI_CONTINUE)
		return rc;
	cutoff = ms_duration_before(&older, (int64_t)time(NULL));
	dir = cli_store_dir();
	files = list_stores(dir);
	if (!files) {
		g_free(dir);
		return cli_error_last();
	}
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	ms_out_kv_string(o, "directory", dir);
	if (prune) {
		ms_out_kv_string(o, "removed_if_unused_since",
				 older_arg);
		ms_out_kv_bool(o, "dry_run", dry_run);
	}
	ms_out_kv_begin_list(o, prune ? "removed" : "stores");
	for (guint i = 0; i < files->len && rc == CLI_CONTINUE; i++) {
		const struct store_file *f = files->pdata[i];
		char when[32];

		if (prune && !f->aside && f->used >= cutoff)
			continue;
		if (prune && !dry_run && remove_store(f) < 0) {
			rc = EXIT_FAILURE;
			break;
		}
		freed += f->size;
		format_day(f->used, json, when);
		ms_out_begin_object(o);
		ms_out_kv_string(o, "path", f->path);
		ms_out_kv_int(o, "size", f->size);
		ms_out_kv_string(o, "last_used", when);
		ms_out_kv_bool(o, "damaged_moved_aside", f->aside);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_int(o, prune ? "bytes_freed" : "bytes", freed);
	if (ms_out_finish(o) < 0 && rc == CLI_CONTINUE)
		rc = cli_error_last();
	ms_out_free(o);
	g_ptr_array_unref(files);
	g_free(dir);
	return rc == CLI_CONTINUE ? EXIT_OK : rc;
}
