/*
 * cli-exec.c - which of maintstat's programs answers a command line, and
 * handing it there (cli-exec.h).
 */
#include "cli.h"
#include "commands.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MS_LIBEXECDIR
#define MS_LIBEXECDIR "/usr/local/libexec/maintstat"
#endif

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

/* The commands the quick `maintstat` answers: the QUICK rows of the
 * command table. */
#define NAME_QUICK(name) #name,
#define NAME_FULL(name)
#define QUICK_NAME(name, program, summary) NAME_##program(name)
static const char *const quick_commands[] = { MS_COMMANDS(QUICK_NAME) };

const char *cli_route(int argc, char **argv)
{
	if (argc < 2)
		return "maintstat-full";
	for (size_t i = 0; i < N_ELEMENTS(quick_commands); i++)
		if (!strcmp(argv[1], quick_commands[i]))
			return "maintstat";
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
	/* glibc's malloc asks for transparent huge pages, and takes blocks
	 * under 32 MiB (an output, a kept value) from that heap, not from
	 * an mmap() each: page faults, 4 KiB at a time, were a fifth of the
	 * CPU of a `pending` after new mail (docs/performance.md, "Huge
	 * pages for malloc"); a user's own tunables are left as they are */
	setenv("GLIBC_TUNABLES", CLI_MALLOC_TUNABLES, 0);
	fflush(NULL);
	execv(path, argv);
	fprintf(stderr, "maintstat: cannot run '%s': %s\n", path,
		strerror(errno));
	return EXIT_RUNTIME;
}
