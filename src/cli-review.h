/*
 * cli-review.h - what `link` and `review` share on the CLI side: the
 * repository, archive and window options, and loading the mail and commit
 * models (link.h).
 */
#ifndef MS_CLI_REVIEW_H
#define MS_CLI_REVIEW_H

#include "cli.h"
#include "link.h"

#include <stdint.h>

struct cli_rev_opts {
	const char *repo;            /* --repo GITDIR */
	const char *rev;             /* --rev REV */
	const char *since;           /* --since DATE|REV */
	const char *until;           /* --until DATE|REV */
	struct cli_strings archives; /* --archive PATH, repeatable */
};

#define CLI_REV_OPTIONS(o) \
	{ CLI_OPT_STRING, "repo", 0, &(o)->repo, "GITDIR", \
	  "the git repository (bare is fine)" }, \
	{ CLI_OPT_STRING, "rev", 0, &(o)->rev, "REV", \
	  "walk history from here (default HEAD)" }, \
	{ CLI_OPT_STRING_LIST, "archive", 0, &(o)->archives, "PATH", \
	  "a list archive: mbox (.gz), directory, public-inbox (repeatable)" }, \
	{ CLI_OPT_STRING, "since", 0, &(o)->since, "DATE|REV", \
	  "start of the window (a date, or a commit's date)" }, \
	{ CLI_OPT_STRING, "until", 0, &(o)->until, "DATE|REV", \
	  "end of the window (default: no end)" }

/*
 * Work out the window from --since and --until (dates or revisions of
 * --repo); unset ends are 0 and INT64_MAX.  Returns CLI_CONTINUE or an
 * exit code after printing the error.
 */
int cli_rev_window(const char *cmd, const struct cli_rev_opts *o,
		   int64_t *since, int64_t *until);

/* Read the archives (printing a capped list of input problems). */
int cli_rev_load_mail(const char *cmd, const struct cli_rev_opts *o,
		      unsigned parse_flags, ms_link_mail_hook hook,
		      void *hook_data, struct ms_link_mail **out);

/* Walk --repo for the commits of the window. */
int cli_rev_load_commits(const char *cmd, const struct cli_rev_opts *o,
			 int64_t since, int64_t until, GPtrArray **out);

#endif
