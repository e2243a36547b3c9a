/*
 * Names of phases and cache states, shared by every output format.
 */
#include "result.h"

static const char *const phase_names[PH_COUNT] = {
	"putc", "write", "rewrite", "getc", "read", "seeks"
};

const char *
phase_id_name(enum phase_id id)
{
	if ((unsigned)id >= PH_COUNT)
		return "unknown";
	return phase_names[id];
}

const char *
cache_state_name(enum cache_state s)
{
	switch (s) {
	case CSTATE_COLD:
		return "cold";
	case CSTATE_WARM:
		return "warm";
	case CSTATE_KEEP:
		return "keep";
	case CSTATE_DIRECT:
		return "direct";
	}
	return "unknown";
}
