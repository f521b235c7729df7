/*
 * main-quick.c - the `maintstat` a user runs: it answers `sections`,
 * `entries` and `maintainers` itself and hands every other command line
 * to maintstat-full (cli_route()).
 *
 * Why several programs: a contributor runs `maintstat maintainers` before
 * every patch, and a program with every stage spends some 30 ms of its
 * life in the dynamic loader before main(): GMime, libcurl, libgit2 and
 * SQLite bring 54 shared libraries, built with BIND_NOW, whose 16,000
 * symbol and 44,000 relative relocations are done at every start
 * (LD_DEBUG=statistics; constructors take under 1%).  This program links
 * GLib, jansson, and SQLite with ISA-L for the git logs the store keeps
 * (`maintainers --git`; 8 libraries, 5 ms).  What needs the rest (--repo,
 * --activity, a git log the store lacks and the options of the history
 * and list stages) goes
 * through execv() to maintstat-full (cli_exec()); cli-quick.c stands in
 * for the few functions of the other stages the shared code names.
 * maintstat-full in turn loads libcurl (17 of the 54 libraries, 9 ms of
 * every start) only when it first uses the network (fetch/http.c).
 *
 * Tried and not kept: a `maintstat` linking the C library only that
 * execs this program or maintstat-full.  The second exec cost the quick
 * commands 2.5-3 ms (static or not), to save the others 1 ms of GLib.
 */
#include "cli.h"
#include "commands.h"

#include <glib.h>
#include <string.h>

/* The QUICK rows of the command table (commands.h). */
#define FN_QUICK(name) cmd_##name
#define FN_FULL(name) NULL
#define ROW(name, program, summary) { #name, FN_##program(name) },
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	MS_COMMANDS(ROW)
};

int main(int argc, char **argv)
{
	const char *to = cli_route(argc, argv);

	if (!strcmp(to, "maintstat")) {
		for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
			int rc;

			if (!commands[i].fn || strcmp(argv[1], commands[i].name))
				continue;
			cli_quick_program = true;
			cli_main_begin();
			rc = commands[i].fn(argc - 1, argv + 1);
			cli_cleanup();
			/* an option of the history or list stages */
			if (rc == CLI_RUN_FULL)
				return cli_exec("maintstat-full", argv);
			return cli_main_finish(rc);
		}
	}
	return cli_exec("maintstat-full", argv);
}
