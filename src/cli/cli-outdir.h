/*
 * cli-outdir.h - writing a set of files into an output directory the user
 * names (report's site, retire's series) so that nothing is written
 * through a link planted there and nothing half-written is left: every
 * file is written into a new directory beside it, and moved into place
 * only when all are complete.
 */
#ifndef MS_CLI_OUTDIR_H
#define MS_CLI_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * A new, empty directory beside `dir` ("PARENT/.NAME.tmp-XXXXXX", its
 * parent created when missing) into *tmp (g_free).  CLI_CONTINUE, or
 * EXIT_RUNTIME after printing why.
 */
int cli_outdir_stage(const char *dir, char **tmp);

/* Remove the staging directory `tmp` and everything in it, following no
 * link; frees and clears *tmp.  No-op when NULL. */
void cli_outdir_discard(char **tmp);

/*
 * Open `name` (relative, may hold '/': the folders are created) below the
 * staging directory `tmp` for writing: a new file, never an existing one
 * or a link.  NULL after printing why.
 */
FILE *cli_outdir_open(const char *tmp, const char *name);

/*
 * Close what cli_outdir_open() opened, flushing it: CLI_CONTINUE, or
 * EXIT_RUNTIME after printing why (a full disk).  For tests,
 * MS_TEST_FULL_AFTER=N makes the N-th file closed fail as a full disk
 * would (ENOSPC).
 */
int cli_outdir_close(FILE *fp, const char *tmp, const char *name);

/*
 * Whether `dir` is missing, empty, or a report a maintstat wrote (its
 * index.html, assets/report.js and data/review.json).
 */
bool cli_outdir_is_report(const char *dir);

/*
 * Put the complete staging directory `tmp` in the place of `dir`: a
 * rename when `dir` is missing or empty, else an atomic exchange
 * (renameat2 RENAME_EXCHANGE) after which the old contents are removed.
 * Frees and clears *tmp.
 */
int cli_outdir_replace(char **tmp, const char *dir);

/*
 * Move every file of the complete staging directory `tmp` into `dir`
 * (created when missing), replacing files of the same names (a rename
 * replaces a link, never writes through it).  Frees and clears *tmp.
 */
int cli_outdir_merge(char **tmp, const char *dir);

#endif
