/* Placeholder until the sweep work lands. */
#include "commands.h"
#include "error.h"

int
cmd_sweep(int argc, char **argv, char **cause)
{
	(void)argc;
	(void)argv;
	errorf(cause, "sweep: not built yet");
	return 2;
}
