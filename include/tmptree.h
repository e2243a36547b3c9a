/*
 * A temporary directory of bonnie-ng's own, and its removal with all it
 * holds: bonnie-ng vm's unpacked kernels, images and initramfs files.
 */
#ifndef BONNIE_TMPTREE_H
#define BONNIE_TMPTREE_H

/*
 * Make "$TMPDIR/NAME.XXXXXX" (/tmp without TMPDIR), mode 0700, into
 * *path (freed by the caller).  0, or -1 with *cause.
 */
int	tmptree_make(const char *name, char **path, char **cause);
/*
 * Remove path and everything under it, never following a symbolic link
 * (a link is removed, not what it names).  0, or -1 with errno of the
 * first failure (the rest is still tried).
 */
int	tmptree_remove(const char *path);

#endif
