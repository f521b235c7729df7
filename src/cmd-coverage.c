#include "cli.h"
#include "commands.h"

int cmd_coverage(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("coverage: not implemented yet");
}
