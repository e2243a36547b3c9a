/*
 * Names of the cache settings and states, shared by the command line and
 * every output format: a word once, where both enums have it.
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

const char *
cache_mode_name(enum cache_mode m)
{
	switch (m) {
	case CACHE_MODE_COLD:
		return cache_state_name(CSTATE_COLD);
	case CACHE_MODE_KEEP:
		return cache_state_name(CSTATE_KEEP);
	case CACHE_MODE_GLOBAL:
		return "global";
	case CACHE_MODE_COUNT:
		break;
	}
	return "unknown";
}
