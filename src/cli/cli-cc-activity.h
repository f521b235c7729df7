/*
 * cli-cc-activity.h - `maintainers --activity`: what the history and the
 * lists say of the people of an answer (inactive marks, list replies,
 * de-facto reviewers).
 *
 * Only the full program has it: a command line asking for it goes to
 * maintstat-full (cli_route()), and the quick program (main-quick.c) links
 * cli-quick.c, whose cc_act_load() refuses.
 */
#ifndef MS_CLI_CC_ACTIVITY_H
#define MS_CLI_CC_ACTIVITY_H

#include "cli.h"

#include <glib.h>
#include <stdbool.h>

struct cc_act;
struct maint_cc;
struct maint_cc_line;
struct ms_out;

struct cc_act_args {
	const struct cli_tree_opts *topts;  /* --repo, --rev, --maintainers */
	const struct cli_store_opts *store;
	const char *inactive_after;  /* NULL: MS_DEFAULT_INACTIVE_AFTER */
	const struct cli_strings *archives; /* --archive */
	bool active_only;
};

/* Load the history's model (and the lists' facts) into a new *out
 * (cc_act_free).  Returns CLI_CONTINUE or the exit code after printing
 * the error. */
int cc_act_load(const struct cc_act_args *a, struct cc_act **out);
void cc_act_free(struct cc_act *ac);

/* Work out the facts of the entries of answer `cc`; call once per
 * answer before the functions below. */
void cc_act_compute(struct cc_act *ac, const struct maint_cc *cc);

/*
 * What follows line `l`'s role: ", inactive since 2019-03", ", 3
 * replies, median 1.2d"; NULL when nothing.  *drop is set when
 * --active-only leaves the line out.  g_free it.
 */
char *cc_act_note(const struct cc_act *ac, const struct maint_cc_line *l,
		  bool *drop);

/*
 * Append the de-facto reviewers of the answer's entries to `items`
 * (formatted as the other lines: with `roles`, "(de-facto reviewer:ENTRY,
 * 41 reviews)"; with `to_cc`, --cc arguments); once per answer, later
 * calls do nothing.
 */
void cc_act_defacto(struct cc_act *ac, const struct maint_cc *cc,
		    GPtrArray *items, bool roles, bool to_cc);

/* Key "activity" of a maintainer's or reviewer's line in JSON. */
void cc_act_json(struct ms_out *o, const struct cc_act *ac,
		 const struct maint_cc_line *l);

#endif
