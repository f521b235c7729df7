/*
 * main.c - maintstat-full: the command table (commands.h) and nothing
 * else.
 */
#include "cli.h"
#include "commands.h"
#include "version.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* The table, in groups by task; `maintstat help` prints the headings. */
struct group {
	const char *heading;
	const struct command *commands;
};

#define ROW(name, program, summary) { #name, cmd_##name, summary },
#define END { NULL, NULL, NULL }
static const struct command file_commands[] = { MS_FILE_COMMANDS(ROW) END };
static const struct command history_commands[] = {
	MS_HISTORY_COMMANDS(ROW) END
};
static const struct command list_commands[] = { MS_LIST_COMMANDS(ROW) END };
#undef ROW
#undef END

static const struct group groups[] = {
	{ "The MAINTAINERS file", file_commands },
	{ "People and history (a git repository)", history_commands },
	{ "Mailing lists (public-inbox and mbox archives)", list_commands },
};

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: maintstat <command> [options]\n"
		"   or: maintstat <command> --help\n"
		"   or: maintstat help [<command>]\n"
		"   or: maintstat --version\n\n"
		"How kernel-style subsystems are really maintained: maintstat\n"
		"reads the MAINTAINERS file, the git history and the list\n"
		"archives and reports who reviews, commits and answers in each\n"
		"subsystem.  Each command prints text, or with --json one JSON\n"
		"document.  Exit status: 0 success, 1 failure, 2 usage error.\n");
	for (size_t g = 0; g < G_N_ELEMENTS(groups); g++) {
		fprintf(fp, "\n%s:\n", groups[g].heading);
		for (const struct command *c = groups[g].commands; c->name;
		     c++)
			fprintf(fp, "  %-12s %s\n", c->name, c->summary);
	}
	fprintf(fp, "\nExamples:\n"
		"  maintstat sections /usr/src/linux net/tls/tls_main.c\n"
		"  maintstat activity --since '2 years ago' 'TLS'\n"
		"  maintstat help review\n");
}

static const struct command *find_command(const char *name)
{
	for (size_t g = 0; g < G_N_ELEMENTS(groups); g++)
		for (const struct command *c = groups[g].commands; c->name;
		     c++)
			if (!strcmp(c->name, name))
				return c;
	return NULL;
}

/*
 * After an unknown command, the commands it is a mistyped spelling of, as
 * git proposes them: those it begins, else the nearest by edit distance
 * when near enough.
 */
static void suggest_command(const char *name)
{
	const char *best[8];
	size_t n = 0, best_d = SIZE_MAX;

	for (int pass = 0; pass < 2 && !n; pass++) {
		for (size_t g = 0; g < G_N_ELEMENTS(groups); g++) {
			for (const struct command *c = groups[g].commands;
			     c->name; c++) {
				size_t d = cli_distance(c->name, name);

				if (pass == 0) {
					if (*name && g_str_has_prefix(c->name,
								      name) &&
					    n < G_N_ELEMENTS(best))
						best[n++] = c->name;
					continue;
				}
				if (d > 2 + strlen(name) / 4 || d > best_d)
					continue;
				if (d < best_d)
					n = 0;
				best_d = d;
				if (n < G_N_ELEMENTS(best))
					best[n++] = c->name;
			}
		}
	}
	if (!n)
		return;
	fprintf(stderr, "\nThe most similar command%s\n",
		n == 1 ? " is" : "s are");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "\t%s\n", best[i]);
}

int main(int argc, char **argv)
{
	cli_main_begin();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return cli_main_finish(EXIT_OK);
	}
	if (!strcmp(argv[1], "help")) {
		/* "maintstat help CMD [SUB]" is "maintstat CMD [SUB] --help",
		 * as in git */
		static char help_opt[] = "--help";

		if (argc > 4 || (argc == 4 && strcmp(argv[2], "mail") &&
				 strcmp(argv[2], "store"))) {
			fprintf(stderr, "maintstat: help takes one command "
				"(and its subcommand); see 'maintstat "
				"--help'\n");
			return EXIT_USAGE;
		}
		memmove(argv + 1, argv + 2, (size_t)(argc - 2) * sizeof(*argv));
		argv[argc - 1] = help_opt;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("maintstat %s (git %s)\n", MS_VERSION, MS_GIT_COMMIT);
		return cli_main_finish(EXIT_OK);
	}
	{
		const struct command *c = find_command(argv[1]);

		if (c) {
			int rc = c->fn(argc - 1, argv + 1);

			cli_cleanup();
			return cli_main_finish(rc);
		}
	}
	{
		char *c = cli_clean(argv[1], strlen(argv[1]));

		fprintf(stderr, "maintstat: '%s' is not a maintstat command; "
			"see 'maintstat --help'\n", c);
		g_free(c);
	}
	suggest_command(argv[1]);
	return EXIT_USAGE;
}
