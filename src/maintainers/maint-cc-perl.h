/*
 * maint-cc-perl.h - get_maintainer.pl's regexes and address helpers, for
 * maint-cc.c (and only it: this header is internal to src/maintainers).
 *
 * Every regex is compiled once (mcc_rx_init(), thread-safe) as Perl reads
 * the script: on bytes, \w, \s, \d and \b in ASCII.  Strings returned are
 * new (g_free them); regexes are borrowed from mcc_rx.
 */
#ifndef MS_MAINT_CC_PERL_H
#define MS_MAINT_CC_PERL_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* The regexes of get_maintainer.pl that do not depend on the input. */
struct mcc_rx {
	GRegex *pe_angle, *pe_bare_angle, *pe_bare;
	GRegex *rfc_strip, *rfc_valid, *rfc_list, *rfc_each;
	GRegex *mm1, *mm2, *mm3, *mm4;
	GRegex *p_mode, *p_rename, *p_diff, *p_plus, *p_minus, *p_hunk;
	GRegex *p_fixes;
	GRegex *list_split;
	GRegex *file_addr, *file_clean, *file_split;
};
/* Valid after mcc_rx_init(). */
extern struct mcc_rx mcc_rx;

/* Compile mcc_rx, once per process. */
void mcc_rx_init(void);

/* A Perl regex as GLib compiles it (RAW, ASCII classes); aborts on a
 * pattern that does not compile: only the script's own are given. */
GRegex *mcc_re(const char *pattern, GRegexCompileFlags flags);

/* The same, NULL when it does not compile (a pattern from a file). */
GRegex *mcc_re_try(const char *pattern);

/* PCRE2's per-match limits (as maint-index.c sets them for F:, X: and N:):
 * a K: pattern that hits them is too costly to run (maint-cc.c). */
#define MCC_RE_LIMITS "(*LIMIT_MATCH=100000)(*LIMIT_DEPTH=10000)"

/* "$prefix$value" as a /x regex (a K: value) compiled with `flags` too,
 * or NULL when it does not compile (Perl would die; the caller skips
 * it). */
GRegex *mcc_keyword_re(const char *prefix, const char *value,
		       GRegexCompileFlags flags);

/* Capture `n` of a match as a new string ("" when unset). */
char *mcc_group(GMatchInfo *mi, int n);

/* Captures `n` and `n + 1`, a name and an address, as read_mailmap()
 * reads them: parse_email("$name <$address>") (both g_free'd). */
void mcc_group_email(GMatchInfo *mi, int n, char **name, char **address);

/* Match `len` bytes of `s`; *mi (if given) is freed first and set on a
 * match only. */
bool mcc_match(GRegex *r, const char *s, size_t len, GMatchInfo **mi);

/* format_email($name, $address, $usename) */
char *mcc_format_email(const char *name, const char *address, bool usename);

/* rfc822_strip_comments() */
char *mcc_rfc822_strip_comments(const char *in);

#endif
