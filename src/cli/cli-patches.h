/*
 * cli-patches.h - what the commands that write patch series (`retire`,
 * `recruit`) share: --keep FILE, who signs, and writing the series into
 * --output-dir.
 */
#ifndef MS_CLI_PATCHES_H
#define MS_CLI_PATCHES_H

#include "cli.h"

#include <glib.h>
#include <stdbool.h>

/* --keep FILE: addresses or names, one per line, '#' comments. */
struct cli_keep {
	GPtrArray *lines;   /* folded addresses and names */
	GPtrArray *used;    /* lines that kept someone */
};

/* Read `path` (NULL: keep no one) into `k`; 0, or -1 after printing the
 * error.  cli_keep_free() in any case. */
int cli_keep_load(const char *path, struct cli_keep *k, bool plus_fold);
/* Whether `k` keeps the person `name` <`email`> (either may be ""). */
bool cli_keep_has(struct cli_keep *k, const char *name, const char *email,
		  bool plus_fold);
void cli_keep_free(struct cli_keep *k);

/*
 * Who signs a series: `from_arg` (--from "Name <addr>"), else the user
 * of repository `repo`: "Name <addr>" into *from (g_free).  Returns
 * CLI_CONTINUE or an exit code after printing the error.
 */
int cli_patch_signer(const char *cmd, const char *repo, const char *from_arg,
		     char **from);

/*
 * Refuse a directory `dir` holding *.patch files (they would mix with a
 * new series: git am applies both) unless `force`; with `remove`, empty
 * it of them.  CLI_CONTINUE or an exit code after printing the error.
 */
int cli_check_outdir(const char *dir, bool force, bool remove);

/* The options of a command that writes a series: --from, --output-dir
 * and --force. */
#define CLI_PATCH_OPTIONS(from, outdir, force) \
	{ CLI_OPT_STRING, "from", 0, (from), "\"NAME <ADDR>\"", \
	  "author and Signed-off-by (default: the repository's " \
	  "user.name and user.email)" }, \
	{ CLI_OPT_STRING, "output-dir", 'o', (outdir), "DIR", \
	  "write the patches here (default: .); it must hold no " \
	  "*.patch file" }, \
	{ CLI_OPT_FLAG, "force", 0, (force), NULL, \
	  "remove the *.patch files of --output-dir DIR before writing" }

/*
 * The `n` patches of a series into `dir`: patch i's file name and text
 * are the `char *` at name0 and the `GString *` at text0, each advanced
 * by i * `size` bytes (CLI_WRITE_SERIES names them in an array of
 * patch structs).  Written whole beside `dir` first, so that a full disk
 * leaves no cover letter announcing patches never written, then
 * (`force`: the old patches removed) moved in.  CLI_CONTINUE or an exit
 * code after printing the error.
 */
int cli_write_patches(const char *dir, char *const *name0,
		      GString *const *text0, size_t size, size_t n,
		      bool force);
#define CLI_WRITE_SERIES(dir, s, force) \
	cli_write_patches((dir), &(s)->patches[0].file_name, \
			  &(s)->patches[0].text, sizeof(*(s)->patches), \
			  (s)->nr, (force))

#endif
