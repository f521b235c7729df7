/*
 * cli-urls.h - checking the web links of MAINTAINERS entries (W:, B:, Q:,
 * T:) from a command, with the fetcher's HTTP layer (fetch/urlcheck.h).
 * Declare the options with CLI_URLS_OPTIONS(&u) in the command's table.
 */
#ifndef MS_CLI_URLS_H
#define MS_CLI_URLS_H

#include "cli.h"
#include "fetch.h"
#include "verdict.h"

#include <stdbool.h>
#include <stdint.h>

struct cli_urls {
	bool check;               /* --check-urls */
	const char *stale_after;  /* --stale-after AGE */
	int64_t stale_seconds;    /* parsed by cli_urls_check_args() */
	const char *rate;         /* --rate N, as fetch */
	long retries;             /* --retries N; -1: the default */
	long timeout;             /* --timeout SECONDS; -1: the default */
	struct ms_fetch_opts fetch; /* as cli_urls_check_args() sets them */
};

#define CLI_URLS_INIT { false, NULL, 0, NULL, -1, -1, MS_FETCH_OPTS_INIT }

/*
 * --rate N, --retries N and --timeout SECONDS, as fetch and --check-urls
 * take them (NULL or -1: unset), checked and set in *opts.  Returns
 * CLI_CONTINUE, or EXIT_USAGE after printing the error.
 */
int cli_fetch_limits(const char *cmd, const char *rate, long retries,
		     long timeout, struct ms_fetch_opts *opts);

#define CLI_URLS_OPTIONS(u) \
	{ CLI_OPT_FLAG, "check-urls", 0, &(u)->check, NULL, \
	  "check every W:, B:, Q: and T: http(s) link (uses the network)" }, \
	{ CLI_OPT_STRING, "stale-after", 0, &(u)->stale_after, "AGE", \
	  "with --check-urls: pages unchanged this long are stale " \
	  "(default " MS_DEFAULT_STALE_AFTER "; also m, w, d)" }, \
	{ CLI_OPT_STRING, "rate", 0, &(u)->rate, "N", \
	  "with --check-urls: at most N requests a second per host " \
	  "(default 2)" }, \
	{ CLI_OPT_INT, "retries", 0, &(u)->retries, "N", \
	  "with --check-urls: retries after a failed request (default 4)" }, \
	{ CLI_OPT_INT, "timeout", 0, &(u)->timeout, "SECONDS", \
	  "with --check-urls: give up on a stalled transfer (default 60)" }

/*
 * Check the options; returns CLI_CONTINUE, or EXIT_USAGE after printing
 * the error.
 */
int cli_urls_check_args(const char *cmd, struct cli_urls *u);

struct maint_file;
struct ms_out;

/*
 * When u->check: request every web link of `mf`'s entries and describe
 * them: in JSON the "urls" list (docs/json.md), in text a section listing,
 * per entry, the dead, stale and failing links.  Call it inside the
 * document, after the command's own output.  Returns EXIT_OK, or
 * EXIT_RUNTIME after printing the error, or when a link is dead (so that
 * a CI job can run it).
 */
int cli_urls_report(struct ms_out *o, const struct cli_urls *u,
		    const struct maint_file *mf);

#endif
