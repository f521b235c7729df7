/*
 * main.c - the command table and nothing else.
 */
#include "cli.h"
#include "commands.h"

#include <errno.h>
#include <glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "sections", cmd_sections,
	  "list the MAINTAINERS entries that match each path" },
	{ "maintainers", cmd_maintainers,
	  "who to Cc for some paths or a patch (get_maintainer.pl)" },
	{ "entries", cmd_entries,
	  "list the MAINTAINERS entries, their status and reach" },
	{ "coverage", cmd_coverage,
	  "report on the MAINTAINERS file's own health" },
	{ "mail", cmd_mail,
	  "parse mailing-list archives: patches, series, reviews" },
	{ "activity", cmd_activity,
	  "who really authors, commits and reviews in each entry" },
	{ "urgent", cmd_urgent,
	  "busy entries with no active maintainer" },
	{ "retire", cmd_retire,
	  "write the patch series retiring inactive maintainers" },
	{ "fetch", cmd_fetch,
	  "mirror public-inbox archives (lore) over HTTP" },
	{ "store", cmd_store,
	  "look at the incremental store of extracted history" },
	{ "link", cmd_link,
	  "which list message posted each commit" },
	{ "review", cmd_review,
	  "how each entry's patches are answered on the list" },
	{ "report", cmd_report,
	  "the review as a static HTML site with plots" },
	{ "identities", cmd_identities,
	  "who is who: each person's addresses and why they are joined" },
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: maintstat <command> [options]\n"
		"       maintstat <command> --help\n"
		"       maintstat help [<command>]\n"
		"       maintstat --version\n\n"
		"How kernel-style subsystems are really maintained.\n\n"
		"commands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(fp, "  %-12s %s\n", commands[i].name,
			commands[i].summary);
}

/* A report cut short by a full disk must not exit 0 (git run_builtin). */
static int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "maintstat: cannot write to standard output: "
			"%s\n", strerror(errno ? errno : EIO));
		return rc ? rc : EXIT_RUNTIME;
	}
	return rc;
}

int main(int argc, char **argv)
{
	setlocale(LC_CTYPE, "");
	cli_sanitize_stdout();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "help")) {
		/* "maintstat help CMD" is "maintstat CMD --help", as in git */
		static char help_opt[] = "--help";

		if (argc > 3) {
			fprintf(stderr, "maintstat: help takes one command; "
				"see 'maintstat --help'\n");
			return EXIT_USAGE;
		}
		argc = 3;
		argv[1] = argv[2];
		argv[2] = help_opt;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("maintstat %s\n", MS_VERSION);
		return finish_stdout(EXIT_OK);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
		if (!strcmp(argv[1], commands[i].name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);

			cli_cleanup();
			return finish_stdout(rc);
		}
	}
	fprintf(stderr, "maintstat: '%s' is not a maintstat command; "
		"see 'maintstat --help'\n", argv[1]);
	return EXIT_USAGE;
}
