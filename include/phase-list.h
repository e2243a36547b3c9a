/*
 * The phases, in the order they run and the tables print them.  This list
 * is the only place that names them all: enum phase_id (result.h), the
 * extern declarations (phase.h) and the phase table (phase.c) are made
 * from it.  PHASE(ID, sym) gives the id PH_ID to the const struct phase
 * phase_sym, which src/phase-sym.c exports; every other fact about the
 * phase is in that struct.  No include guard: included once per use,
 * with PHASE defined.
 */
PHASE(PUTC, putc)
PHASE(WRITE, write)
PHASE(REWRITE, rewrite)
PHASE(GETC, getc)
PHASE(READ, read)
PHASE(SEEKS, seeks)
