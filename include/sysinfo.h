/*
 * What the record says about the machine and the target directory.
 * (Placeholder interface; the record work replaces this file.)
 */
#ifndef BONNIE_SYSINFO_H
#define BONNIE_SYSINFO_H

struct sysinfo;

int	sysinfo_collect(const char *dir, struct sysinfo **, char **cause);
void	sysinfo_free(struct sysinfo *);

#endif
