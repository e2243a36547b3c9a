/*
 * A kernel's modules as depmod(8) describes them, and the modules a guest
 * must load, in order, for the drivers it asks for.
 *
 * Read from the text of depmod's files (modules.dep's "PATH: DEP..."
 * lines, modules.alias's "alias NAME MODULE", modules.softdep's "softdep
 * MODULE pre: ... post: ...", in one text or several, as `depmod -n`
 * prints them all) and of the kernel's own lists of what is built in
 * (modules.builtin's paths, modules.builtin.modinfo's "MODULE.alias=NAME"
 * strings).  Names are kept as the kernel keeps a module's name, with
 * '_' for '-': "crc32c-intel.ko" is crc32c_intel.
 *
 * The closure of a list of wanted names (a module's name or an alias) is
 * every module to load, each after the modules it needs (its modules.dep
 * line) and after its soft dependencies' "pre:" modules: those, and what
 * they need, are marked soft, as modprobe loads them but does not fail
 * when they do.  A wanted name that is built in needs nothing.
 */
#ifndef BONNIE_MODDEP_H
#define BONNIE_MODDEP_H

#include <stddef.h>

struct moddep_mod {
	char		 *name;		/* "virtio_blk". */
	char		 *path;		/* As modules.dep has it. */
	char		**deps;		/* Names, as modules.dep lists them. */
	size_t		  ndeps;
	char		**pre;		/* Soft "pre:" names or aliases. */
	size_t		  npre;
	int		  mark;		/* The closure's. */
};

struct moddep_alias {
	char	*alias;
	char	*name;
};

struct moddep {
	struct moddep_mod	*mods;
	size_t			 nmods;
	struct moddep_alias	*aliases;	/* Without wildcards. */
	size_t			 naliases;
	char			**builtin;	/* Names. */
	size_t			 nbuiltin;
	struct moddep_alias	*balias;	/* Aliases of built-in ones. */
	size_t			 nbalias;
};

/* One module to load, in the order of the closure. */
struct moddep_load {
	const struct moddep_mod	*mod;
	int			 soft;	/* A soft dependency's: may fail. */
};

void	moddep_init(struct moddep *);
void	moddep_free(struct moddep *);
/*
 * Add the lines of depmod's text (len bytes, need not end in a newline);
 * lines of other kinds (comments, "alias symbol:...", devname) are
 * skipped.  0, or -1 with *cause naming the line (a dependency line
 * without its colon, a softdep without its module).
 */
int	moddep_parse(struct moddep *, const char *text, size_t len,
	    char **cause);
/* Add modules.builtin's lines (paths) and modules.builtin.modinfo's. */
void	moddep_parse_builtin(struct moddep *, const char *text, size_t len);
void	moddep_parse_builtin_modinfo(struct moddep *, const char *text,
	    size_t len);
/* Whether a and b are one module's name, '-' and '_' alike. */
int	moddep_same_name(const char *a, const char *b);
/* A name as the kernel keeps it: the file name's stem, '_' for '-'. */
char	*moddep_name(const char *path_or_name);
/* The module of that name, or NULL. */
const struct moddep_mod *moddep_find(const struct moddep *, const char *name);
/* Whether name (a module's or an alias) is built into the kernel. */
int	moddep_is_builtin(const struct moddep *, const char *name);
/*
 * The modules to load for want[] (names or aliases), in load order, into
 * *out (*n of them; freed with free()).  0, or -1 with *cause naming
 * every wanted name that is neither a module nor built in, or the module
 * whose dependency is missing.
 */
int	moddep_closure(struct moddep *, const char *const *want, size_t nwant,
	    struct moddep_load **out, size_t *n, char **cause);

#endif
