/*
 * utf8.h - whether bytes are valid UTF-8, as g_utf8_validate_len() says,
 * with the ASCII that mail and commit messages are mostly made of checked
 * 16 bytes at a time first; and newlines counted the same way.
 */
#ifndef MS_UTF8_H
#define MS_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when s[0..n) is valid UTF-8 with no NUL byte: exactly
 * g_utf8_validate(s, n, NULL) for n > 0 (and true for n == 0).  GLib's
 * loop takes a branch per byte; this one skips the leading run of
 * ASCII, in kernel mail nearly everything, 16 bytes at a time and hands
 * GLib only the rest.
 */
bool ms_utf8_valid(const char *s, size_t n);

/* The newlines in s[0..n), 16 bytes at a time too (mail archives' line
 * numbers, blame's lines). */
unsigned long ms_count_lines(const char *s, size_t n);

#endif
