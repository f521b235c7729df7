/*
 * main-quick.c - the `maintstat` a user runs: it answers `sections`,
 * `entries` and `maintainers` itself and hands every other command line
 * to maintstat-full.
 *
 * Why several programs: a contributor runs `maintstat maintainers` before
 * every patch, and a program with every stage spends some 30 ms of its
 * life in the dynamic loader before main(): GMime, libcurl, libgit2 and
 * SQLite bring 54 shared libraries, built with BIND_NOW, whose 16,000
 * symbol and 44,000 relative relocations are done at every start
 * (LD_DEBUG=statistics; constructors take under 1%).  This program links
 * GLib and jansson only (6 libraries, 4 ms).  What needs the rest (--repo,
 * --activity and the options of the history and list stages) goes
 * through execv() to maintstat-full (cli_exec()); cli-quick.c stands in
 * for the few functions of the other stages the shared code names.
 * maintstat-full in turn has no libcurl (17 of the 54 libraries, 9 ms of
 * every start): the two commands that use the network, `fetch` and
 * `coverage --check-urls`, go on to maintstat-net (main.c).
 */
#include "cli.h"
#include "commands.h"

#include <glib.h>
#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} quick[] = {
	{ "sections", cmd_sections },
	{ "maintainers", cmd_maintainers },
	{ "entries", cmd_entries },
};

/*
 * The long options that need the full program.  An argument that is a
 * prefix of one of these goes there too (cli_has_option()); at worst a
 * value that looks like one of them ("--separator --repo") costs the
 * quick start, never a wrong answer.
 */
static const char *const full_options[] = {
	"repo", "rev", "activity", "active-only", "inactive-after",
	"archive", "db", "db-wait", "no-cache", "max-message-size",
	"max-index-size",
};

int main(int argc, char **argv)
{
	if (argc >= 2 && !cli_has_option(argc - 2, argv + 2, full_options,
					 G_N_ELEMENTS(full_options))) {
		for (size_t i = 0; i < G_N_ELEMENTS(quick); i++) {
			int rc;

			if (strcmp(argv[1], quick[i].name))
				continue;
			cli_main_begin();
			rc = quick[i].fn(argc - 1, argv + 1);
			cli_cleanup();
			return cli_main_finish(rc);
		}
	}
	return cli_exec("maintstat-full", argv);
}
