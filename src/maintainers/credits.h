/*
 * credits.h - the kernel's CREDITS file: records of "N:", "E:", "W:",
 * "P:", "D:", "S:" lines separated by blank lines, sorted by surname.
 */
#ifndef MS_CREDITS_H
#define MS_CREDITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether `text` already has a record for the person: one of its E:
 * lines equals `email` (case-insensitively), or, with no email, its N:
 * line equals `name`.
 */
bool credits_has(const char *text, const char *name, const char *email);

/*
 * Return a new text (g_free) with the person credited for `what`: a "D:"
 * line appended to their existing record, or a new record
 * "N: name / E: email / D: what" inserted before the first record whose
 * surname sorts after theirs (CREDITS is sorted by surname).  `email` may
 * be NULL.
 */
char *credits_add(const char *text, const char *name, const char *email,
		  const char *what);

/* The sort key of a name: its last word, then the whole name, folded. */
char *credits_sort_key(const char *name);

#endif
