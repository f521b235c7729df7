/*
 * person.h - people as they appear in MAINTAINERS lines, commit trailers
 * and mail headers: "Name <addr>", "addr", "\"Name, Jr.\" <addr>",
 * "addr (Name)", "Name <addr> # 5.10+" (stable Cc comments).
 */
#ifndef MS_PERSON_H
#define MS_PERSON_H

#include <stddef.h>

/*
 * Split `s` (`len` bytes, or -1 for NUL-terminated) into a display name
 * and an address, both newly allocated (g_free) and trimmed; surrounding
 * quotes are removed from the name.  Either comes back NULL when absent
 * (a bare name has no address; a bare address no name).  An address is
 * returned as written; compare with ms_email_normalize().
 */
void ms_person_parse(const char *s, long len, char **name, char **email);

/*
 * A comparable form of an address (newly allocated): lowercased, and with
 * `plus_fold` "user+tag@domain" folded to "user@domain".
 */
char *ms_email_normalize(const char *email, int plus_fold);

/* ms_email_normalize() over `email` itself (the result is never longer). */
void ms_email_normalize_in_place(char *email, int plus_fold);

#endif
