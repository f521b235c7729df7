/*
 * main-mail.c - maintstat-mail: `maintstat mail` on mbox files, the one
 * command whose whole work can be shorter than the start of
 * maintstat-full.  That program links libgit2, whose libraries (OpenSSL's
 * libcrypto, Kerberos, mbedTLS, libssh2: 14 of its 37) cost 8-9 ms of
 * every start in the dynamic loader, some 7% of `mail stats` on a year of
 * a busy list.  This one links the list stage and the store without
 * libgit2 (cli-nogit.c stands in for its readers); a public-inbox, which
 * is a git repository, goes to maintstat-full (cli_route(): any argument
 * naming a directory sends `mail` there).
 */
#include "cli.h"
#include "commands.h"

#include <string.h>

int main(int argc, char **argv)
{
	const char *to = cli_route(argc, argv);
	int rc;

	/* run directly with another command line: where it belongs */
	if (strcmp(to, "maintstat-mail"))
		return cli_exec(to, argv);
	cli_main_begin();
	rc = cmd_mail(argc - 1, argv + 1);
	cli_cleanup();
	return cli_main_finish(rc);
}
