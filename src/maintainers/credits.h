/*
 * credits.h - the kernel's CREDITS file: records of "N:", "E:", "W:",
 * "P:", "D:", "S:" lines separated by blank lines, sorted by surname.
 */
#ifndef MS_CREDITS_H
#define MS_CREDITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Return a new text (g_free) with the person credited for `what`: a "D:"
 * line appended to their existing record, or a new record "N: name /
 * E: email / D: what" put where its surname sorts among its neighbours:
 * after the first record whose key is not above it and before the next
 * one that is (CREDITS is mostly, not perfectly, sorted by surname);
 * never before the first record, at the end when no place fits.  Their
 * record is the one with the address of one of its E: lines, or of the
 * M: lines some old records use, equal to `email` or one of `also` (the
 * person's other addresses, NULL-terminated), case-insensitively; or
 * else with `name` on its N: line (ms_name_key(), so accents and case
 * do not matter).  `email` and `also` may be NULL.
 */
char *credits_add(const char *text, const char *name, const char *email,
		  const char *const *also, const char *what);

/* The sort key of a name: its last word, then the whole name, folded. */
char *credits_sort_key(const char *name);

#endif
