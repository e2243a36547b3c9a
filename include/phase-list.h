/*
 * The phases, in the order they run and the tables print them.  This list
 * is the only place that names them all: enum phase_id and the default
 * phase mask (phase-id.h), the extern declarations (phase.h) and the phase
 * table (phase.c) are made from it.  PHASE(ID, sym, on) gives the id PH_ID
 * to the const struct phase phase_sym, which src/phase-sym.c exports; on
 * is 1 for a phase that runs by default, 0 for one that runs only when
 * asked for (-p NAME or -p all).  Every other fact about the phase is in
 * its struct.  No include guard: included once per use, with PHASE
 * defined.
 */
PHASE(PUTC, putc, 1)
PHASE(WRITE, write, 1)
PHASE(REWRITE, rewrite, 1)
PHASE(GETC, getc, 1)
PHASE(READ, read, 1)
PHASE(SEEKS, seeks, 1)
PHASE(SYNC, sync, 0)
/* The file creation phases (--files): in numeric order, then random. */
PHASE(CREATE, create, 0)
PHASE(STAT, stat, 0)
PHASE(DELETE, delete, 0)
PHASE(RCREATE, rcreate, 0)
PHASE(RSTAT, rstat, 0)
PHASE(RDELETE, rdelete, 0)
