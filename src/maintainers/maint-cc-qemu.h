/*
 * maint-cc-qemu.h - the tree's own get_maintainer.pl as maint-cc.c reads
 * it (internal to src/maintainers).
 */
#ifndef MS_MAINT_CC_QEMU_H
#define MS_MAINT_CC_QEMU_H

#include "maint-cc.h"

#include <glib.h>

/*
 * The tree's scripts/get_maintainer.pl: its @penguin_chief as
 * "Name:address" strings (a new array; the kernel's Linus Torvalds when
 * the tree has no script) and, in *dialect, whose script it is.
 */
GPtrArray *mcc_read_script(const struct ms_tree *tree,
			   enum maint_dialect *dialect);

/* The addresses of the tree's .ignoredmailmap, as QEMU's script reads it
 * (a new set of strings). */
GHashTable *mcc_read_ignoredmailmap(const struct ms_tree *tree);

#endif
