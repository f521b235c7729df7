/*
 * cli-exec.h - which of maintstat's programs answers a command line, and
 * handing it there with execv() (main-quick.c says why there are several).
 */
#ifndef MS_CLI_EXEC_H
#define MS_CLI_EXEC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether argv[0..argc) has one of the long options `names`, or a prefix
 * of one (getopt_long() takes any unambiguous prefix, so "--act" may be
 * --activity); "--" ends the options.
 */
bool cli_has_option(int argc, char **argv, const char *const *names,
		    size_t n_names);

/*
 * The program that answers `maintstat argv[1..argc)`: "maintstat", the
 * quick one (sections, maintainers and entries without the options of
 * the history and list stages), "maintstat-net" (fetch, and coverage
 * --check-urls: the network), "maintstat-mail" (`mail` on files: no
 * libgit2) or "maintstat-full" (everything else, and every command line
 * it cannot read: it prints the usage errors).
 */
const char *cli_route(int argc, char **argv);

/*
 * Run maintstat's program `name` with `argv`, found beside this program
 * (the build tree) or in MS_LIBEXECDIR (an installed one).  Returns only
 * on failure: EXIT_RUNTIME, after printing the error.
 */
int cli_exec(const char *name, char **argv);

#endif
