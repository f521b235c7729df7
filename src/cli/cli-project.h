/*
 * cli-project.h - opening the project (project.h) for a command: its
 * options as the command line gave them, the store, and the printing of
 * what the library found.
 */
#ifndef MS_CLI_PROJECT_H
#define MS_CLI_PROJECT_H

#include "cli-activity.h"

struct cli_result;
struct ms_project;
struct ms_activity;
struct ms_ident;
struct ms_tree;
struct maint_file;
struct maint_index;

/*
 * Open the project the options `o` describe: --repo (else the tree
 * o->tree, a directory), --rev, --maintainers, --find-maintainer-files,
 * --aliases, --mailmap, --no-name-join, --no-plus-fold, --merges.
 * Returns CLI_CONTINUE, or an exit code after printing the error.
 */
int cli_project_open(const struct cli_act_opts *o, struct ms_project **out);

/*
 * Key result `r` (cli-result.h) by every input the project of `o` reads
 * (ms_project_inputs()): the files its options name, the repository's
 * references.  One that cannot be read turns the result off.
 */
void cli_result_add_project(struct cli_result *r,
			    const struct cli_act_opts *o);

/*
 * With a repository, give project `p` the store of `o` (--db,
 * --no-cache) for its history (and its window-start listing).
 * CLI_CONTINUE, or the exit code after the error.
 */
int cli_project_store(const struct cli_store_opts *o, struct ms_project *p);

/* The parts of the project (project.h), with a progress line and the
 * input's problems printed.  CLI_CONTINUE, or the exit code after
 * printing the error. */
int cli_project_history(struct ms_project *p, struct ms_activity **out);
int cli_project_ident(struct ms_project *p, struct ms_ident **out);
int cli_project_tree(struct ms_project *p, const struct ms_tree **tree,
		     const struct maint_file **mf,
		     const struct maint_index **idx);

/* Print what the tree found late and free the project (NULL is fine). */
void cli_project_close(struct ms_project *p);

#endif
