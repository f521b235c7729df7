/*
 * cli-nonet.c - what maintstat-full links instead of the network's
 * commands (cmd-fetch.c, cli-urls.c), which need libcurl.  main.c hands
 * every command line that could reach them to maintstat-net, so they
 * only refuse, with an error that says so should a new option ever slip
 * past it.
 */
#include "cli-urls.h"
#include "commands.h"

#define NOT_HERE "needs maintstat-net (this is maintstat-full, without " \
	"the network)"

int cmd_fetch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("fetch " NOT_HERE);
}

int cli_urls_check_args(const char *cmd, struct cli_urls *u)
{
	if (u->check || u->stale_after || u->rate || u->retries != -1 ||
	    u->timeout != -1)
		return cli_usage_error(cmd, "--check-urls " NOT_HERE);
	return CLI_CONTINUE;
}

int cli_urls_report(struct ms_out *o, const struct cli_urls *u,
		    const struct maint_file *mf)
{
	(void)o;
	(void)u;
	(void)mf;
	return EXIT_OK;
}
