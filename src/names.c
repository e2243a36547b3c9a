/*
 * Names of cache states and signals, shared by every output format.
 * (A phase's name is in its struct; see phase.h.)
 */
#include "result.h"

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
	case CSTATE_DROPPED:
		return "dropped";
	case CSTATE_UNDROPPED:
		return "undropped";
	}
	return "unknown";
}
