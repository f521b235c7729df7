/*
 * cli-exec.c - which of maintstat's programs answers a command line, and
 * handing it there (cli-exec.h).
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MS_LIBEXECDIR
#define MS_LIBEXECDIR "/usr/local/libexec/maintstat"
#endif

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

bool cli_has_option(int argc, char **argv, const char *const *names,
		    size_t n_names)
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
		for (size_t k = 0; k < n_names; k++)
			if (!strncmp(names[k], a, n))
				return true;
	}
	return false;
}

/* The commands the quick `maintstat` answers (main-quick.c). */
static const char *const quick_commands[] = {
	"sections", "maintainers", "entries",
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

/* coverage's options that check the URLs (cli-urls.c) */
static const char *const url_options[] = {
	"check-urls", "stale-after", "rate", "retries", "timeout",
};

/*
 * Whether one of argv[0..argc) names a directory: a public-inbox, which
 * only maintstat-full can read (libgit2), or a directory of mboxes (which
 * may hold one; rare enough that it goes there too).
 */
static bool names_directory(int argc, char **argv)
{
	struct stat st;

	for (int i = 0; i < argc; i++)
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			return true;
	return false;
}

const char *cli_route(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		return "maintstat-full";
	cmd = argc > 2 && !strcmp(argv[1], "help") ? argv[2] : argv[1];
	if (!strcmp(cmd, "fetch") ||
	    (!strcmp(argv[1], "coverage") &&
	     cli_has_option(argc - 2, argv + 2, url_options,
			    N_ELEMENTS(url_options))))
		return "maintstat-net";
	if (!strcmp(argv[1], "mail"))
		return names_directory(argc - 2, argv + 2) ? "maintstat-full" :
			"maintstat-mail";
	for (size_t i = 0; i < N_ELEMENTS(quick_commands); i++)
		if (!strcmp(argv[1], quick_commands[i]))
			return cli_has_option(argc - 2, argv + 2, full_options,
					      N_ELEMENTS(full_options)) ?
				"maintstat-full" : "maintstat";
	return "maintstat-full";
}

/* `name` beside this program (the build tree), else where installed. */
static void program(const char *name, char *path, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash && (size_t)snprintf(path, size, "%.*s/%s",
					      (int)(slash - self), self,
					      name) < size &&
		    access(path, X_OK) == 0)
			return;
	}
	snprintf(path, size, "%s/%s", MS_LIBEXECDIR, name);
}

int cli_exec(const char *name, char **argv)
{
	char path[PATH_MAX + 64];

	program(name, path, sizeof(path));
	fflush(NULL);
	execv(path, argv);
	fprintf(stderr, "maintstat: cannot run '%s': %s\n", path,
		strerror(errno));
	return EXIT_RUNTIME;
}
