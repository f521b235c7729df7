/*
 * cli-exec.h - which of maintstat's programs answers a command line, and
 * handing it there with execv() (main-quick.c says why there are two).
 */
#ifndef MS_CLI_EXEC_H
#define MS_CLI_EXEC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The program that answers `maintstat argv[1..argc)`: "maintstat", the
 * quick one, for the QUICK commands of the table (commands.h), which
 * hands a line with an option of the later stages on itself
 * (CLI_RUN_FULL); "maintstat-full" for everything else, and every
 * command line it cannot read (it prints the usage errors).
 */
const char *cli_route(int argc, char **argv);

/* The malloc tunables cli_exec() hands maintstat-full (cli-exec.c says
 * why), which cli_main_begin() takes back out of the environment of the
 * programs maintstat-full runs. */
#define CLI_MALLOC_TUNABLES \
	"glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432"

/*
 * Run maintstat's program `name` with `argv`, found beside this program
 * (the build tree) or in MS_LIBEXECDIR (an installed one).  Returns only
 * on failure: EXIT_RUNTIME, after printing the error.
 */
int cli_exec(const char *name, char **argv);

#endif
