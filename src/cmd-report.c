/* Placeholder until the report work lands. */
#include "commands.h"
#include "error.h"

int
cmd_report(int argc, char **argv, char **cause)
{
	(void)argc;
	(void)argv;
	errorf(cause, "report: not built yet");
	return 2;
}
