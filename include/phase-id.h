/*
 * The phases' ids, made from phase-list.h: a header of its own, so that
 * the files below the phase table (pattern.c: the writers' names) can
 * name a phase without the results' or the table's headers.
 */
#ifndef BONNIE_PHASE_ID_H
#define BONNIE_PHASE_ID_H

/* Phase ids, in the order the phases run. */
enum phase_id {
#define PHASE(id, sym, on)	PH_##id,
#include "phase-list.h"
#undef PHASE
	PH_COUNT
};

/* The mask of the phases that run when -p does not choose. */
enum {
	PH_DEFAULT_MASK = 0
#define PHASE(id, sym, on)	| ((on) ? 1 << PH_##id : 0)
#include "phase-list.h"
#undef PHASE
};

#endif
