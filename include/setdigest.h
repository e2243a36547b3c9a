/*
 * The settings that shape a run's work, as hashes: what MPI ranks must
 * agree on before the first phase (team_start_agree()).  Made from the
 * table of settings (settings.h): every key of the record's options that
 * compare lists as a setting, and each phase's own option, save the
 * directory and the label, which may differ from rank to rank (a device
 * is refused under MPI before this).
 */
#ifndef BONNIE_SETDIGEST_H
#define BONNIE_SETDIGEST_H

#include <stdint.h>

#include "settings.h"

struct options;

/* How many hashes setdigest_make() writes. */
#define SETDIGEST_N	(SET_COUNT + SETTINGS_PHASE_MAX)

/*
 * Each setting's value as the record writes it, hashed (FNV-1a); 0 for
 * the rows that are not compared.  0, or -1 when it could not be made.
 */
int	setdigest_make(const struct options *, uint64_t digest[SETDIGEST_N]);
/* Whether row id of the settings table is compared (hashed): 1 or 0. */
int	setdigest_compared(int id);
/* The option a hash stands for, "--size", for the refusal. */
void	setdigest_name(int index, char *buf, size_t len);

#endif
