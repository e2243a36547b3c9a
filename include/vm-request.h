/*
 * What bonnie-ng vm asks of a guest, as the mailbox's request carries it
 * (mailbox.h): the run's command line and the guest's machine (struct
 * sysinfo_guest, which the guest's record keeps as its "guest" object).
 * Encoded as NUL-terminated "KEY=VALUE" strings: "arg=WORD" for each word
 * of the run's command line in order, "guest.NAME=VALUE" for each fact
 * known, a fact of several words once a word.  One table of the facts
 * serves both ends.
 */
#ifndef BONNIE_VM_REQUEST_H
#define BONNIE_VM_REQUEST_H

#include <stddef.h>

#include "sysinfo.h"

/* In the run's command line: the guest's test disk, as the guest names it. */
#define VM_TEST_DISK	"@test-disk"

struct vm_request {
	char			**argv;		/* NULL-terminated. */
	int			  argc;
	struct sysinfo_guest	  guest;
};

/* An empty request: no words, every fact unknown. */
void	vm_request_init(struct vm_request *);
void	vm_request_free(struct vm_request *);
/* Append a word to the run's command line (copied). */
void	vm_request_arg(struct vm_request *, const char *);
/* The strings (*len bytes, freed with free()). */
char	*vm_request_encode(const struct vm_request *, size_t *len);
/*
 * Read them back into an initialised request: 0, or -1 with *cause (a
 * string without its "=", a fact not known, a number that is not one,
 * no command line).
 */
int	vm_request_decode(struct vm_request *, const char *buf, size_t len,
	    char **cause);
/* Free the text a struct sysinfo_guest holds; every fact unknown. */
void	vm_guest_facts_free(struct sysinfo_guest *);
void	vm_guest_facts_init(struct sysinfo_guest *);

#endif
