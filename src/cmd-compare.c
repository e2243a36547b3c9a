/* Placeholder until the compare work lands. */
#include "commands.h"
#include "error.h"

int
cmd_compare(int argc, char **argv, char **cause)
{
	(void)argc;
	(void)argv;
	errorf(cause, "compare: not built yet");
	return 2;
}
