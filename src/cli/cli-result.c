/*
 * cli-result.c - a command's finished result kept in the store per digest
 * of its inputs (cli-result.h).
 */
#include "cli-result.h"
#include "error.h"
#include "git-common.h"
#include "mail.h"
#include "output.h"
#include "store.h"
#include "tree.h"
#include "version.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file changed this recently (seconds) may change again without its
 * times moving (their resolution is coarse): its bytes are keyed too. */
#define RACY_SECONDS 2

/* The cache of the tree's blob ids (tree.h, ms_tree_blobs()), keyed by
 * its root's real path, and how many trees it keeps. */
#define BLOBS_KIND "tree-blobs"
#define BLOBS_KEEP 8

void cli_result_add(struct cli_result *r, const char *what, const void *data,
		    size_t len)
{
	char head[64];

	if (r->off)
		return;
	/* name and length first: no two inputs run together */
	snprintf(head, sizeof(head), "%zu:", len);
	g_checksum_update(r->ck, (const guchar *)what, (gssize)strlen(what) + 1);
	g_checksum_update(r->ck, (const guchar *)head, (gssize)strlen(head));
	g_checksum_update(r->ck, data, (gssize)len);
}

void cli_result_add_int(struct cli_result *r, const char *what, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	cli_result_add_str(r, what, buf);
}

void cli_result_add_str(struct cli_result *r, const char *what,
			const char *s)
{
	cli_result_add(r, what, s ? s : "\x01(none)", s ? strlen(s) + 1 : 8);
}

/*
 * A file's state: what stat says.  False when it cannot be read, or while
 * it is racy at `now` (changed in the last RACY_SECONDS: a write in the
 * same clock tick could leave its stat as it is): such a run is computed
 * and its result not kept.  Keyed by the file's SHA-1 instead, as it was,
 * the result could serve only a run within those seconds, and the run
 * after a fetch that appended to an mbox read the whole file twice for it
 * (docs/performance.md).
 */
static bool file_state(const char *path, int64_t now, GString *out)
{
	GStatBuf sb;

	if (g_stat(path, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    access(path, R_OK) < 0 || sb.st_mtim.tv_sec >= now - RACY_SECONDS ||
	    sb.st_ctim.tv_sec >= now - RACY_SECONDS)
		return false;
	g_string_append_printf(out, "%s\n%lld %lld.%09ld %lld.%09ld %llu "
			       "%llu\n", path, (long long)sb.st_size,
			       (long long)sb.st_mtim.tv_sec,
			       sb.st_mtim.tv_nsec,
			       (long long)sb.st_ctim.tv_sec,
			       sb.st_ctim.tv_nsec,
			       (unsigned long long)sb.st_ino,
			       (unsigned long long)sb.st_dev);
	return true;
}

struct dir_states {
	GString *out;
	int64_t now;
	bool ok;
};

static int dir_file(const char *path, void *data)
{
	struct dir_states *d = data;

	if (!file_state(path, d->now, d->out))
		d->ok = false;
	return 0;
}

/* The states of archives `archives` into `out` (racy as of `now`);
 * false when one cannot be pinned. */
static bool archive_states(const struct cli_strings *archives, int64_t now,
			   GString *out)
{
	for (int i = 0; i < archives->nr; i++) {
		const char *path = archives->items[i];
		char *real = realpath(path, NULL);
		bool ok = real != NULL;

		g_string_append_printf(out, "archive %s\n", real ? real : "");
		if (ok && g_file_test(real, G_FILE_TEST_IS_DIR) &&
		    ms_mail_is_inbox(real)) {
			GPtrArray *heads = NULL;

			ok = ms_inbox_heads(real, &heads) == 0;
			for (guint k = 0; ok && k < heads->len; k++)
				g_string_append_printf(out, "head %s\n",
						       (char *)heads->pdata[k]);
			if (heads)
				g_ptr_array_unref(heads);
		} else if (ok && g_file_test(real, G_FILE_TEST_IS_DIR)) {
			struct ms_diags diags = MS_DIAGS_INIT;
			struct dir_states d = { out, now, true };

			/* its problems are the reader's to report */
			ok = ms_mail_dir_walk(real, dir_file, &d, &diags) == 0
				&& d.ok && !diags.nr;
			ms_diags_release(&diags);
		} else if (ok) {
			ok = file_state(real, now, out);
		}
		free(real);
		if (!ok) {
			ms_error_clear();
			return false;
		}
	}
	return true;
}

void cli_result_add_archives(struct cli_result *r,
			     const struct cli_strings *archives)
{
	if (r->off)
		return;
	r->archive_paths = archives;
	if (!archive_states(archives, r->now, r->archives)) {
		r->off = true;
		return;
	}
	cli_result_add(r, "archives", r->archives->str, r->archives->len);
}

/* The file of this program as stat sees it (a rebuild changes it), or
 * NULL (g_free). */
static char *program_file(void)
{
	GStatBuf sb;

	if (g_stat("/proc/self/exe", &sb) < 0)
		return NULL;
	return g_strdup_printf("%lld %lld.%09ld %llu %llu",
			       (long long)sb.st_size,
			       (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec,
			       (unsigned long long)sb.st_ino,
			       (unsigned long long)sb.st_dev);
}

char *cli_program_build(void)
{
	char *file = program_file();
	char *r;

	if (!file)
		return NULL;
	r = g_strdup_printf("%s %s schema %d program %s", MS_VERSION,
			    MS_GIT_COMMIT, MS_SCHEMA_VERSION, file);
	g_free(file);
	return r;
}

/* MS_TEST_CLOCK_AHEAD=N: the run's clock N seconds ahead, for a test to
 * see the files it just wrote as settled without sleeping past them. */
static int64_t clock_ahead(void)
{
	const char *v = g_getenv("MS_TEST_CLOCK_AHEAD");

	return v ? g_ascii_strtoll(v, NULL, 10) : 0;
}

void cli_result_begin(struct cli_result *r, const char *cmd, bool json,
		      int argc, char **argv, bool off)
{
	static const char *const env[] = { "TZ", "LC_ALL", "LC_TIME",
					   "LC_CTYPE", "LANG" };
	char *cwd, *build;

	*r = (struct cli_result){ 0 };
	r->off = off;
	r->errors = cli_errors();
	r->now = g_get_real_time() / G_USEC_PER_SEC + clock_ahead();
	r->archives = g_string_new(NULL);
	r->ck = g_checksum_new(G_CHECKSUM_SHA256);
	r->kind = g_strdup_printf("%s:%s", cmd, json ? "json" : "text");
	cli_result_add_str(r, "maintstat result", "1");
	cli_result_add_str(r, "kind", r->kind);
	/* this program: its build and its file (a rebuild changes it) */
	build = cli_program_build();
	cli_result_add_str(r, "build", build);
	r->off = r->off || !build;
	g_free(build);
	cwd = g_get_current_dir();
	cli_result_add_str(r, "cwd", cwd);
	g_free(cwd);
	for (size_t i = 0; i < G_N_ELEMENTS(env); i++)
		cli_result_add_str(r, env[i], g_getenv(env[i]));
	cli_result_add_int(r, "stdout is a terminal", isatty(STDOUT_FILENO));
	for (int i = 0; i < argc; i++)
		cli_result_add_str(r, "arg", argv[i]);
}

/* The store of `so` for `store_for`, if there is one; NULL otherwise
 * (then *why, if not NULL, says why: g_free it). */
static struct ms_store *open_store(const struct cli_store_opts *so,
				   const char *store_for, char **why)
{
	struct ms_store_opts opts = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_store *st = NULL;
	char *path;
	int rc;

	opts.busy_timeout_ms = (int)so->wait * 1000;
	opts.no_create = true;
	path = so->db ? g_strdup(so->db) : cli_store_default_path(store_for);
	rc = ms_store_open(path, &opts, &st, &diags);
	if (rc < 0) {
		/* a newer store was warned about when the command opened it */
		if (why && rc != MS_EUSAGE)
			*why = g_strdup(ms_error_last());
		ms_error_clear();
		st = NULL;
	}
	cli_store_tune(st);
	/* a damaged store moved aside says so, as the command would */
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	g_free(path);
	return st;
}

/* Whether the facts `facts` hold in directory tree `tree_dir`. */
static bool facts_hold(GBytes *facts, const char *tree_dir, GBytes *blobs)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_tree *t = NULL;
	size_t len = 0;
	const char *p = g_bytes_get_data(facts, &len);
	bool hold;

	if (!len)
		return true;
	if (!tree_dir || ms_tree_from_dir(tree_dir, &t, &diags) < 0) {
		ms_error_clear();
		ms_diags_release(&diags);
		return false;
	}
	if (blobs)
		ms_tree_blobs_take(t, blobs);
	hold = ms_tree_facts_hold(t, p, len) && !diags.nr;
	ms_tree_free(t);
	ms_diags_release(&diags);
	return hold;
}

/* (an open_memstream() zeroed each new half as it doubled, and copied
 * its blocks a piece at a time: a twentieth of review --json) */
static ssize_t keep_write(void *kept, const char *buf, size_t len)
{
	g_string_append_len(kept, buf, (gssize)len);
	return (ssize_t)len;
}

static void capture(struct cli_result *r)
{
	cookie_io_functions_t io = { NULL, keep_write, NULL, NULL };

	fflush(stdout);
	r->kept = g_string_new(NULL);
	r->mem = fopencookie(r->kept, "w", io);
	if (!r->mem) {
		r->off = true;
		return;
	}
	r->real = stdout;
	stdout = r->mem;
	r->capturing = true;
	r->err = g_string_new(NULL);
	cli_messages_record(r->err);
}

int cli_result_serve(struct cli_result *r, const struct cli_store_opts *so,
		     const char *store_for, const char *tree_dir)
{
	struct ms_store_result saved = { NULL, NULL, NULL };
	struct ms_store *st;
	int rc = CLI_CONTINUE;

	if (r->off || so->no_cache)
		return CLI_CONTINUE;
	/* "CMD:FORMAT:digest": the store names whose result a row is */
	r->key = g_strdup_printf("%s:%s", r->kind, g_checksum_get_string(r->ck));
	st = open_store(so, store_for, NULL);
	if (st && ms_store_result_get(st, r->key, &saved) < 0)
		ms_error_clear();
	r->tree_key = tree_dir ? realpath(tree_dir, NULL) : NULL;
	if (st && r->tree_key && ms_store_model_get(st, BLOBS_KIND,
						    r->tree_key, &r->blobs) < 0)
		ms_error_clear();
	ms_store_free(st);
	if (saved.out && facts_hold(saved.facts, tree_dir, r->blobs)) {
		size_t n = 0, en = 0;
		const char *p = g_bytes_get_data(saved.out, &n);
		const char *e = g_bytes_get_data(saved.err, &en);

		/* saved as the terminal-safe bytes the run wrote, and the
		 * warnings it printed; but a store file may come from
		 * anyone, so both are made safe again on the way out */
		char *ce = cli_clean(e ? e : "", en);

		rc = EXIT_OK;
		if (fwrite(p, 1, n, stdout) != n || fflush(stdout) != 0)
			rc = cli_error("cannot write to standard output: %s",
				       g_strerror(errno));
		fputs(ce, stderr);
		g_free(ce);
	}
	ms_store_result_release(&saved);
	if (rc == CLI_CONTINUE)
		capture(r);
	return rc;
}

/*
 * Make the captured output what reaches standard output: sanitised from
 * the start to the end of the stream, as cli.c's stdout does.  In place,
 * a block at a time, so that a kernel-scale result (3 GB of JSON) is not
 * held twice: sanitising never lengthens the text (a control character
 * becomes one '?', a C1 pair one '?', a held 0xc2 is written later), so
 * what is written never passes what was read.
 */
#define CLEAN_BLOCK (1u << 20)

static void clean_output(struct cli_result *r)
{
	GString *block = g_string_sized_new(CLEAN_BLOCK + 1);
	size_t w = 0;
	int state = 0;

	for (size_t at = 0; at < r->len; at += CLEAN_BLOCK) {
		size_t n = MIN(CLEAN_BLOCK, r->len - at);

		/* nearly always: a block kept as it is, where it is */
		if (!state && w == at && ms_out_plain(r->buf + at, n) == n) {
			w += n;
			continue;
		}
		g_string_truncate(block, 0);
		ms_out_sanitize(block, r->buf + at, n, &state);
		memmove(r->buf + w, block->str, block->len);
		w += block->len;
	}
	if (state)
		r->buf[w++] = (char)0xc2;
	r->len = w;
	g_string_free(block, TRUE);
}

int cli_result_end(struct cli_result *r, int rc,
		   const struct cli_store_opts *so, const char *store_for,
		   const struct ms_tree *tree)
{
	bool written;

	if (!r->capturing)
		return rc;
	r->capturing = false;
	stdout = r->real;
	written = fclose(r->mem) == 0;
	r->mem = NULL;
	r->len = r->kept->len;
	r->buf = g_string_free(r->kept, FALSE);
	r->kept = NULL;
	if (!written)
		return rc == EXIT_OK ? cli_error("cannot keep the output: "
						 "out of memory") : rc;
	/* sanitised once, for standard output and the store */
	clean_output(r);
	cli_write_clean(r->buf, r->len);
	if (rc != EXIT_OK || !r->key)
		return rc;
	/* from now on, the blob ids to keep */
	g_clear_pointer(&r->blobs, g_bytes_unref);
	if (tree && r->tree_key)
		r->blobs = ms_tree_blobs(tree);
	/* kept by cli_result_keep(), once the command has printed all */
	r->facts = g_string_new(NULL);
	if (tree) {
		size_t n = 0;
		char *f = ms_tree_facts(tree, &n);

		g_string_append_len(r->facts, f, (gssize)n);
		g_free(f);
	}
	r->so = so;
	r->store_for = store_for;
	return rc;
}

void cli_result_keep(struct cli_result *r)
{
	GString *now;
	struct ms_store *st;
	char *why = NULL;
	bool same;

	cli_messages_record(NULL);
	if (!r->facts || cli_errors() != r->errors)
		return;
	/* an archive that changed while it was read was read part old,
	 * part new: that run is not kept */
	now = g_string_new(NULL);
	same = !r->archive_paths ||
		(archive_states(r->archive_paths, r->now, now) &&
		 g_string_equal(now, r->archives));
	g_string_free(now, TRUE);
	if (!same)
		return;
	st = open_store(r->so, r->store_for, &why);
	if (!st) {
		if (why)
			cli_warning("the result was not kept in the store: "
				    "%s", why);
		g_free(why);
		return;
	}
	/* printed already (and sanitised): the buffer becomes what is kept */
	if (ms_store_result_put(st, r->key, r->facts, r->buf,
				r->len, r->err) < 0 ||
	    (r->blobs && ms_store_model_put(st, BLOBS_KIND, r->tree_key,
			BLOBS_KEEP, g_bytes_get_data(r->blobs, NULL),
			g_bytes_get_size(r->blobs)) < 0)) {
		cli_warning("the result was not kept in the store: %s",
			    ms_error_last());
		ms_error_clear();
	}
	ms_store_free(st);
}

void cli_result_release(struct cli_result *r)
{
	cli_messages_record(NULL);
	if (r->capturing) {
		stdout = r->real;
		fclose(r->mem);
	}
	if (r->kept)
		g_string_free(r->kept, TRUE);
	g_free(r->buf);
	g_free(r->key);
	g_free(r->kind);
	if (r->ck)
		g_checksum_free(r->ck);
	if (r->archives)
		g_string_free(r->archives, TRUE);
	if (r->err)
		g_string_free(r->err, TRUE);
	if (r->facts)
		g_string_free(r->facts, TRUE);
	if (r->blobs)
		g_bytes_unref(r->blobs);
	free(r->tree_key);
	*r = (struct cli_result){ 0 };
}
