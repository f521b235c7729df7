/*
 * cli-result.h - a command's finished result kept in the store under a
 * digest of everything it depends on (store.h, ms_store_result_get()), so
 * that a run with the same inputs prints it without reading them again
 * (docs/performance.md, "Warm review").
 *
 * The key covers: this maintstat (its build and its executable file), the
 * working directory, the whole command line, TZ and the locale, and what
 * the command adds: each archive's state (an mbox file's size, mtime,
 * ctime, inode and device, plus its SHA-1 while its times are within two
 * seconds of now, when another write could leave them unchanged; a
 * directory's files alike; a public-inbox's epoch heads), the files the
 * options name (their bytes), a repository's references, the window as
 * resolved dates.  What the key cannot pin cheaply is saved as facts
 * checked before reuse: the questions a source tree answered (which paths
 * are files or directories, the bytes of MAINTAINERS, .mailmap and any
 * other file read; tree.h, ms_tree_facts()).  A run that printed an
 * error is not kept; one that printed warnings keeps them with its
 * output, so a reused result prints what the run printed (on standard
 * error, after the output).
 */
#ifndef MS_CLI_RESULT_H
#define MS_CLI_RESULT_H

#include "cli.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ms_tree;

struct cli_result {
	GChecksum *ck;              /* the key so far */
	char *kind;                 /* "CMD:json" or "CMD:text" */
	char *key;                  /* once the key is finished */
	GString *archives;          /* the archives' states, checked again
				       before saving */
	const struct cli_strings *archive_paths;
	bool off;                   /* nothing is read or kept */
	bool capturing;
	FILE *real, *mem;           /* stdout, and the copy being made */
	GString *kept;              /* its bytes, until it is closed */
	char *buf;
	size_t len;
	unsigned long errors;       /* cli_errors() at the start */
	GString *err;               /* the messages printed since serving */
	GString *facts;             /* set when the result may be kept */
	const struct cli_store_opts *so;
	const char *store_for;
	int64_t now;                /* when the key was made (seconds) */
	char *tree_key;             /* the directory tree's real path */
	GBytes *blobs;              /* its blob ids kept (ms_tree_blobs()):
				       those read, then those to keep */
};

/*
 * Start the key of command `cmd` run as argv[0..argc) (the whole command
 * line, before options are parsed), printing JSON or text.  `off`: the
 * result is neither reused nor kept (--no-cache, or another writer).
 */
void cli_result_begin(struct cli_result *r, const char *cmd, bool json,
		      int argc, char **argv, bool off);

/* Add `len` bytes named `what` to the key. */
void cli_result_add(struct cli_result *r, const char *what, const void *data,
		    size_t len);
void cli_result_add_int(struct cli_result *r, const char *what, int64_t v);
void cli_result_add_str(struct cli_result *r, const char *what,
			const char *s);
/* The state of each archive of `archives` (see above).  One that cannot
 * be pinned (unreadable, a broken inbox) turns the result off. */
void cli_result_add_archives(struct cli_result *r,
			     const struct cli_strings *archives);

/*
 * Finish the key and look for a result saved under it in the store that
 * `so` names for `store_for` (a store is never created here).  With a
 * saved one whose facts hold in the directory tree `tree_dir` (NULL: no
 * facts to check), print it and return EXIT_OK (or EXIT_RUNTIME when
 * standard output fails): the command is done.  Otherwise return
 * CLI_CONTINUE and start copying stdout (for cli_result_end()).  Problems
 * with the store only make it a miss; the command's own use of the store
 * reports them.
 */
int cli_result_serve(struct cli_result *r, const struct cli_store_opts *so,
		     const char *store_for, const char *tree_dir);

/*
 * End a run that was not served: print what it wrote to stdout, and when
 * it succeeded (`rc` is EXIT_OK), note the facts of `tree` (may be NULL)
 * and its blob ids, when new, for cli_result_keep().  `so` and `store_for` must outlive the call of
 * cli_result_keep().  Returns `rc`.
 */
int cli_result_end(struct cli_result *r, int rc,
		   const struct cli_store_opts *so, const char *store_for,
		   const struct ms_tree *tree);

/*
 * Once the command has printed everything (its last warnings included):
 * keep the result ended by cli_result_end(), with the warnings printed
 * since it was not served, unless an error was printed, an archive
 * changed while it was read, or the store cannot be opened.
 */
void cli_result_keep(struct cli_result *r);

void cli_result_release(struct cli_result *r);

/*
 * This program's build as a key's part: its version, git commit, JSON
 * schema and its executable file's size, times, inode and device (a
 * rebuild changes them).  NULL when the file cannot be seen (g_free).
 */
char *cli_program_build(void);

#endif
