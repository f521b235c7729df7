/*
 * cli-exec.c - handing a command line to one of maintstat's other
 * programs (main-quick.c and main.c say which and why).
 */
#include "cli.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef MS_LIBEXECDIR
#define MS_LIBEXECDIR "/usr/local/libexec/maintstat"
#endif

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

/* `name` beside this program (the build tree), else where installed. */
static char *program(const char *name)
{
	char *self = g_file_read_link("/proc/self/exe", NULL);

	if (self) {
		char *dir = g_path_get_dirname(self);
		char *p = g_build_filename(dir, name, NULL);

		g_free(dir);
		g_free(self);
		if (access(p, X_OK) == 0)
			return p;
		g_free(p);
	}
	return g_build_filename(MS_LIBEXECDIR, name, NULL);
}

int cli_exec(const char *name, char **argv)
{
	char *path = program(name);

	fflush(NULL);
	execv(path, argv);
	fprintf(stderr, "maintstat: cannot run '%s': %s\n", path,
		strerror(errno));
	g_free(path);
	return EXIT_RUNTIME;
}
