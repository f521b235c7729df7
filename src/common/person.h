/*
 * person.h - people as they appear in MAINTAINERS lines, commit trailers
 * and mail headers: "Name <addr>", "addr", "\"Name, Jr.\" <addr>",
 * "addr (Name)", "Name <addr> # 5.10+" (stable Cc comments).
 */
#ifndef MS_PERSON_H
#define MS_PERSON_H

#include <stdbool.h>
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
 * "Name <addr>" as a mail header writes it (RFC 5322): the name as is
 * when it is words of letters, digits and atext symbols, else in double
 * quotes with '"' and '\\' escaped ("\"Bob, Jr\" <b@x>" stays one
 * recipient); control characters become spaces.  Just the address when
 * the name is NULL or empty.  Newly allocated (g_free).
 */
char *ms_person_format(const char *name, const char *email);

/*
 * A comparable form of an address (newly allocated): what a malformed
 * one stands for when that is recognisable ("[a@b.c]", "mailto:a@b.c",
 * "a@b.c<mailto:a@b.c", "a at b dot c" are "a@b.c"), lowercased, and
 * with `plus_fold` "user+tag@domain" folded to "user@domain".
 */
char *ms_email_normalize(const char *email, int plus_fold);

/*
 * Whether an address (as ms_email_normalize() leaves it) is no address:
 * no '@' or several, an empty side, blanks, brackets or other bytes no
 * address has ("hs@pollux.(none)", "george.dunlap.com").  Such a text
 * identifies no one and is never written as an address.  The empty
 * string is not malformed (no address at all).
 */
bool ms_email_malformed(const char *email);

/* ms_email_normalize() over `email` itself (the result is never longer). */
void ms_email_normalize_in_place(char *email, int plus_fold);

/*
 * g_utf8_casefold() of `s` (`len` bytes, or up to its NUL when -1) that
 * takes any bytes: names and patterns come from files and commits, and
 * g_utf8_casefold() reads past the end of invalid UTF-8, so such bytes
 * become U+FFFD first.
 */
char *ms_casefold(const char *s, ptrdiff_t len);

/*
 * The form under which two display names are the same person's name
 * (newly allocated, g_free): Unicode NFKD with the combining marks
 * removed ("Németh" and "Nemeth" meet), casefolded, quotes removed and
 * runs of white space, commas and full stops made one space ("Md. Haris
 * Iqbal" and "Md Haris Iqbal", "Ye.Li" and "Ye Li" meet).  NULL when the result has fewer
 * than two words (a lone first name says too little), holds an '@'
 * (an address written as a name), or is no person's name: a domain
 * ("Amazon.co.jp"), a company's ("Acme Inc", "Foo GmbH") or a program's
 * ("kernel test robot", "dependabot[bot]").  Bytes that are not UTF-8 are
 * replaced, never trusted.
 */
char *ms_name_key(const char *name);

/*
 * The name key of `name` read as Outlook's "Surname, Given": one comma,
 * words on both sides, no suffix such as "Jr." or "PhD" after it
 * ("Pearson, Robert B" gives "robert b pearson"); NULL for any other
 * name.  A second key, not a replacement: "Chia-Wei, Wang" is also
 * written "Chia-Wei Wang" by the same person.
 */
char *ms_name_key_reordered(const char *name);

#endif
