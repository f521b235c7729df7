#include "cli.h"
#include "commands.h"

int cmd_sections(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("sections: not implemented yet");
}
