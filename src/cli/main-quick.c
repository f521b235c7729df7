/*
 * main-quick.c - the `maintstat` a user runs: it answers `sections`,
 * `entries` and `maintainers` itself and hands every other command line
 * to maintstat-full.
 *
 * Why two programs: a contributor runs `maintstat maintainers` before
 * every patch, and the full program spends some 30 ms of its life in the
 * dynamic loader before main(): GMime, libcurl, libgit2 and SQLite bring
 * 54 shared libraries, built with BIND_NOW, whose 16,000 symbol and
 * 44,000 relative relocations are done at every start (LD_DEBUG=statistics;
 * constructors take under 1%).  This program links GLib and jansson
 * only (6 libraries, 4 ms).  What needs the rest (--repo, --activity and
 * the options of the history and list stages) goes through execv() to the
 * full program, found beside this one (the build tree) or in
 * MS_LIBEXECDIR (an installed one); cli-quick.c stands in for the few
 * functions of the other stages the shared code names.
 */
#include "cli.h"
#include "commands.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef MS_LIBEXECDIR
#define MS_LIBEXECDIR "/usr/local/libexec/maintstat"
#endif

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} quick[] = {
	{ "sections", cmd_sections },
	{ "maintainers", cmd_maintainers },
	{ "entries", cmd_entries },
};

/*
 * The long options that need the full program.  getopt_long() takes any
 * unambiguous prefix ("--act"), so an argument that is a prefix of one
 * of these goes there too; at worst a value that looks like one of them
 * ("--separator --repo") costs the quick start, never a wrong answer.
 */
static const char *const full_options[] = {
	"repo", "rev", "activity", "active-only", "inactive-after",
	"archive", "db", "db-wait", "no-cache", "max-message-size",
	"max-index-size",
};

static bool needs_full(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		size_t n;

		if (!strcmp(a, "--"))
			break;
		if (strncmp(a, "--", 2) || !a[2])
			continue;
		a += 2;
		n = strcspn(a, "=");
		for (size_t k = 0; k < G_N_ELEMENTS(full_options); k++)
			if (!strncmp(full_options[k], a, n))
				return true;
	}
	return false;
}

/* The full program: beside this one, else where it is installed. */
static char *full_program(void)
{
	char *self = g_file_read_link("/proc/self/exe", NULL);

	if (self) {
		char *dir = g_path_get_dirname(self);
		char *p = g_build_filename(dir, "maintstat-full", NULL);

		g_free(dir);
		g_free(self);
		if (access(p, X_OK) == 0)
			return p;
		g_free(p);
	}
	return g_build_filename(MS_LIBEXECDIR, "maintstat-full", NULL);
}

int main(int argc, char **argv)
{
	char *full;

	if (argc >= 2 && !needs_full(argc - 2, argv + 2)) {
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
	full = full_program();
	execv(full, argv);
	fprintf(stderr, "maintstat: cannot run '%s': %s\n", full,
		strerror(errno));
	g_free(full);
	return EXIT_RUNTIME;
}
