/*
 * cli-urls.h - checking the web links of MAINTAINERS entries (W:, B:, Q:,
 * T:) from a command, with the fetcher's HTTP layer (fetch/urlcheck.h).
 * Declare the options with CLI_URLS_OPTIONS(&u) in the command's table.
 */
#ifndef MS_CLI_URLS_H
#define MS_CLI_URLS_H

#include "cli.h"

#include <stdbool.h>
#include <stdint.h>

struct cli_urls {
	bool check;               /* --check-urls */
	const char *stale_after;  /* --stale-after AGE */
	int64_t stale_seconds;    /* parsed by cli_urls_check_args() */
};

#define CLI_URLS_OPTIONS(u) \
	{ CLI_OPT_FLAG, "check-urls", 0, &(u)->check, NULL, \
	  "check every W:, B:, Q: and T: http(s) link (uses the network)" }, \
	{ CLI_OPT_STRING, "stale-after", 0, &(u)->stale_after, "AGE", \
	  "with --check-urls: pages unchanged this long are stale " \
	  "(default 5y; also m, w, d)" }

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
 * EXIT_RUNTIME after printing the error.
 */
int cli_urls_report(struct ms_out *o, const struct cli_urls *u,
		    const struct maint_file *mf);

#endif
