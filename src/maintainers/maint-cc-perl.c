/*
 * maint-cc-perl.c - the Perl of get_maintainer.pl that maint-cc.c needs:
 * its fixed regexes compiled as Perl reads them (bytes, ASCII \w and \s),
 * and its address helpers (parse_email, format_email, the RFC 822
 * comment stripper).
 *
 * get_maintainer.pl works on bytes (no "use utf8"), so every regex here is
 * compiled with G_REGEX_RAW: \w and \s are ASCII, and a name with any
 * non-ASCII byte is quoted as the script quotes it.  Its regexes are
 * copied as they are; PCRE reads them as Perl does.
 */
#include "maint-cc-perl.h"
#include "maint-cc.h"

#include <string.h>

struct mcc_rx mcc_rx;

/*
 * GLib compiles even a G_REGEX_RAW pattern with Unicode properties, so
 * \w, \s and \b would take bytes such as 0xFC or 0xA0 for letters and
 * spaces; Perl, reading bytes, does not.  Spell them out in ASCII.
 */
#define W_CLASS "A-Za-z0-9_"
#define S_CLASS "\\t\\n\\x0B\\f\\r\\x20"

static char *perl_ascii(const char *p)
{
	GString *s = g_string_sized_new(strlen(p) + 16);
	bool in_class = false;

	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			char c = *++p;
			const char *out = NULL;

			if (in_class) {
				if (c == 'w')
					out = W_CLASS;
				else if (c == 's')
					out = S_CLASS;
				else if (c == 'd')
					out = "0-9";
			} else {
				switch (c) {
				case 'w': out = "[" W_CLASS "]"; break;
				case 'W': out = "[^" W_CLASS "]"; break;
				case 's': out = "[" S_CLASS "]"; break;
				case 'S': out = "[^" S_CLASS "]"; break;
				case 'd': out = "[0-9]"; break;
				case 'D': out = "[^0-9]"; break;
				case 'b':
					out = "(?:(?<=[" W_CLASS "])(?![" W_CLASS
					      "])|(?<![" W_CLASS "])(?=["
					      W_CLASS "]))";
					break;
				case 'B':
					out = "(?:(?<=[" W_CLASS "])(?=[" W_CLASS
					      "])|(?<![" W_CLASS "])(?![" W_CLASS
					      "]))";
					break;
				default: break;
				}
			}
			if (out) {
				g_string_append(s, out);
			} else {
				g_string_append_c(s, '\\');
				g_string_append_c(s, c);
			}
			continue;
		}
		g_string_append_c(s, *p);
		if (!in_class && *p == '[') {
			in_class = true;
			/* a leading '^' and then ']' are literal */
			if (p[1] == '^')
				g_string_append_c(s, *++p);
			if (p[1] == ']')
				g_string_append_c(s, *++p);
		} else if (in_class && *p == '[' && p[1] == ':') {
			const char *end = strstr(p, ":]");

			if (end) {
				g_string_append_len(s, p + 1, end + 1 - p);
				p = end + 1;
			}
		} else if (in_class && *p == ']') {
			in_class = false;
		}
	}
	return g_string_free(s, FALSE);
}

GRegex *mcc_re(const char *pattern, GRegexCompileFlags flags)
{
	GError *err = NULL;
	char *ascii = perl_ascii(pattern);
	GRegex *r = g_regex_new(ascii, flags | G_REGEX_RAW, 0, &err);

	if (!r)
		g_error("maint-cc: cannot compile '%s': %s", pattern,
			err->message);
	g_free(ascii);
	return r;
}

GRegex *mcc_re_try(const char *pattern)
{
	char *ascii = perl_ascii(pattern);
	GRegex *r = g_regex_new(ascii, G_REGEX_RAW, 0, NULL);

	g_free(ascii);
	return r;
}

/* make_rfc822re() of get_maintainer.pl, string for string. */
static char *make_rfc822re(void)
{
	const char *lwsp = "(?:(?:\\r\\n)?[ \\t])";
	const char *specials = "()<>@,;:\\\\\".\\[\\]";
	const char *controls = "\\000-\\037\\177";
	char *dtext = g_strdup("[^\\[\\]\\r\\\\]");
	char *domain_literal = g_strdup_printf("\\[(?:%s|\\\\.)*\\]%s*",
					       dtext, lwsp);
	char *quoted_string = g_strdup_printf(
		"\"(?:[^\\\"\\r\\\\]|\\\\.|%s)*\"%s*", lwsp, lwsp);
	char *atom = g_strdup_printf("[^%s %s]+(?:%s+|\\Z|(?=[\\[\"%s]))",
				     specials, controls, lwsp, specials);
	char *word = g_strdup_printf("(?:%s|%s)", atom, quoted_string);
	char *localpart = g_strdup_printf("%s(?:\\.%s*%s)*", word, lwsp,
					  word);
	char *sub_domain = g_strdup_printf("(?:%s|%s)", atom, domain_literal);
	char *domain = g_strdup_printf("%s(?:\\.%s*%s)*", sub_domain, lwsp,
				       sub_domain);
	char *addr_spec = g_strdup_printf("%s@%s*%s", localpart, lwsp, domain);
	char *phrase = g_strdup_printf("%s*", word);
	char *route = g_strdup_printf("(?:@%s(?:,@%s*%s)*:%s*)", domain, lwsp,
				      domain, lwsp);
	char *route_addr = g_strdup_printf("\\<%s*%s?%s\\>%s*", lwsp, route,
					   addr_spec, lwsp);
	char *mailbox = g_strdup_printf("(?:%s|%s%s)", addr_spec, phrase,
					route_addr);
	char *group = g_strdup_printf("%s:%s*(?:%s(?:,\\s*%s)*)?;\\s*", phrase,
				      lwsp, mailbox, mailbox);
	char *address = g_strdup_printf("(?:%s|%s)", mailbox, group);
	char *res = g_strdup_printf("%s*%s", lwsp, address);

	g_free(dtext);
	g_free(domain_literal);
	g_free(quoted_string);
	g_free(atom);
	g_free(word);
	g_free(localpart);
	g_free(sub_domain);
	g_free(domain);
	g_free(addr_spec);
	g_free(phrase);
	g_free(route);
	g_free(route_addr);
	g_free(mailbox);
	g_free(group);
	g_free(address);
	return res;
}

void mcc_rx_init(void)
{
	static gsize once;

	if (g_once_init_enter(&once)) {
		char *r822 = make_rfc822re();
		char *s;

		mcc_rx.pe_angle = mcc_re("^([^<]+)<(.+\\@.*)>.*$", 0);
		mcc_rx.pe_bare_angle = mcc_re("^\\s*<(.+\\@\\S*)>.*$", 0);
		mcc_rx.pe_bare = mcc_re("^(.+\\@\\S*).*$", 0);
		mcc_rx.rfc_strip = mcc_re("^((?:[^\"\\\\]|\\\\.)*\n"
				  "(?:\"(?:[^\"\\\\]|\\\\.)*\"(?:[^\"\\\\]|"
				  "\\\\.)*)*)\n"
				  "\\((?:[^()\\\\]|\\\\.)*\\)",
				  G_REGEX_EXTENDED | G_REGEX_DOTALL);
		s = g_strdup_printf("^%s$", r822);
		mcc_rx.rfc_valid = mcc_re(s, G_REGEX_DOTALL);
		g_free(s);
		s = g_strdup_printf("^(?:%s)?(?:,(?:%s)?)*$", r822, r822);
		mcc_rx.rfc_list = mcc_re(s, G_REGEX_DOTALL);
		g_free(s);
		s = g_strdup_printf("(?:^|,(?:(?:\\r\\n)?[ \\t])*)(%s)", r822);
		mcc_rx.rfc_each = mcc_re(s, G_REGEX_DOTALL);
		g_free(s);
		g_free(r822);
		mcc_rx.mm1 = mcc_re("^([^<]+)<([^>]+)>$", 0);
		mcc_rx.mm2 = mcc_re("^<([^>]+)>\\s*<([^>]+)>$", 0);
		mcc_rx.mm3 = mcc_re("^(.+)<([^>]+)>\\s*<([^>]+)>$", 0);
		mcc_rx.mm4 = mcc_re("^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$", 0);
		mcc_rx.p_mode = mcc_re("^ mode change [0-7]+ => [0-7]+ (\\S+)\\s*$", 0);
		mcc_rx.p_rename = mcc_re("^rename (?:from|to) (\\S+)\\s*$", 0);
		mcc_rx.p_diff = mcc_re("^diff --git a\\/(\\S+) b\\/(\\S+)\\s*$", 0);
		mcc_rx.p_plus = mcc_re("^\\+\\+\\+\\s+(\\S+)", 0);
		mcc_rx.p_minus = mcc_re("^---\\s+(\\S+)", 0);
		mcc_rx.p_fixes = mcc_re("^Fixes:\\s+([0-9a-fA-F]{6,40})", 0);
		mcc_rx.p_hunk = mcc_re("^\\@\\@ -(\\d+),(\\d+)", 0);
		mcc_rx.list_split = mcc_re("([^\\s]+)\\s+(.*)$", 0);
		/* À-ÿ in the byte-read script: the bytes \x80-\xC3 */
		mcc_rx.file_addr = mcc_re("[A-Za-z\\x80-\\xC3\\\"\\' \\,\\.\\+-]*\\s*"
				  "[\\,]*\\s*[\\(\\<\\{]{0,1}[A-Za-z0-9_\\.\\+-]+"
				  "\\@[A-Za-z0-9\\.-]+\\.[A-Za-z0-9]+"
				  "[\\)\\>\\}]{0,1}", 0);
		mcc_rx.file_clean = mcc_re("[\\(\\<\\{]{0,1}([A-Za-z0-9_\\.\\+-]+\\@"
				   "[A-Za-z0-9\\.-]+)[\\)\\>\\}]{0,1}", 0);
		mcc_rx.file_split = mcc_re("[^A-Za-z\\x80-\\xC3\\'\\,\\.\\+-]", 0);
		g_once_init_leave(&once, 1);
	}
}

/* Capture `n` of a match as a new string (NULs and all, up to a NUL). */
char *mcc_group(GMatchInfo *mi, int n)
{
	int s, e;
	const char *str = g_match_info_get_string(mi);

	if (!g_match_info_fetch_pos(mi, n, &s, &e) || s < 0)
		return g_strdup("");
	return g_strndup(str + s, (gsize)(e - s));
}

void mcc_group_email(GMatchInfo *mi, int n, char **name, char **address)
{
	char *rn = mcc_group(mi, n), *ra = mcc_group(mi, n + 1);
	char *tmp = g_strdup_printf("%s <%s>", g_strchomp(rn), ra);

	maint_cc_parse_email(tmp, name, address);
	g_free(tmp);
	g_free(rn);
	g_free(ra);
}

bool mcc_match(GRegex *r, const char *s, size_t len, GMatchInfo **mi)
{
	bool m;

	/* the previous line's match, if any, is done with */
	if (mi && *mi) {
		g_match_info_free(*mi);
		*mi = NULL;
	}
	m = g_regex_match_full(r, s, (gssize)len, 0, 0, mi, NULL);

	if (!m && mi) {
		g_match_info_free(*mi);
		*mi = NULL;
	}
	return m;
}

/* $name =~ s/^\"|\"$//g, in place */
static void mcc_strip_quotes(char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '"')
		s[--n] = '\0';
	if (s[0] == '"')
		memmove(s, s + 1, n);
}

/*
 * The quoting of parse_email() and mcc_format_email(): a name with a
 * byte other than [\w \-] (/[^\w \-]/ai on bytes) is quoted, each '"'
 * not after a backslash escaped (s/(?<!\\)"/\\"/g).  Written out: as
 * regexes it was a tenth of a warm `--git` run.
 */
static char *quote_name(char *name)
{
	GString *q;

	if (!name[strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrs"
			 "tuvwxyz0123456789_ -")])
		return name;
	q = g_string_new("\"");
	for (const char *p = name; *p; p++) {
		if (*p == '"' && (p == name || p[-1] != '\\'))
			g_string_append_c(q, '\\');
		g_string_append_c(q, *p);
	}
	g_string_append_c(q, '"');
	g_free(name);
	return g_string_free(q, FALSE);
}

void maint_cc_parse_email(const char *s, char **name, char **address)
{
	GMatchInfo *mi = NULL;
	char *n = NULL, *a = NULL;
	size_t len = strlen(s);

	mcc_rx_init();
	if (mcc_match(mcc_rx.pe_angle, s, len, &mi)) {
		n = mcc_group(mi, 1);
		a = mcc_group(mi, 2);
	} else if (mcc_match(mcc_rx.pe_bare_angle, s, len, &mi)) {
		a = mcc_group(mi, 1);
	} else if (mcc_match(mcc_rx.pe_bare, s, len, &mi)) {
		a = mcc_group(mi, 1);
	}
	g_match_info_free(mi);
	if (!n)
		n = g_strdup("");
	if (!a)
		a = g_strdup("");
	g_strstrip(n);
	mcc_strip_quotes(n);
	g_strstrip(a);
	*name = quote_name(n);
	*address = a;
}

/* mcc_format_email($name, $address, $usename) */
char *mcc_format_email(const char *name, const char *address,
			  bool usename)
{
	char *n = g_strdup(name), *a = g_strdup(address), *r;

	g_strstrip(n);
	mcc_strip_quotes(n);
	g_strstrip(a);
	n = quote_name(n);
	if (!usename)
		r = g_strdup(a);
	else if (!*n)
		r = g_strdup(a);
	else
		r = g_strdup_printf("%s <%s>", n, a);
	g_free(n);
	g_free(a);
	return r;
}
GRegex *mcc_keyword_re(const char *prefix, const char *value,
		       GRegexCompileFlags flags)
{
	/* a newline ends a /x comment the value may hold */
	char *s = g_strdup_printf("%s%s%s\n", MCC_RE_LIMITS, prefix, value);
	char *ascii = perl_ascii(s);
	GRegex *r = g_regex_new(ascii, G_REGEX_EXTENDED | G_REGEX_RAW | flags,
				0, NULL);

	g_free(s);
	g_free(ascii);
	return r;
}
/* mcc_rfc822_strip_comments() */
char *mcc_rfc822_strip_comments(const char *in)
{
	char *s = g_strdup(in);
	GMatchInfo *mi = NULL;

	while (mcc_match(mcc_rx.rfc_strip, s, strlen(s), &mi)) {
		int e0, e1;
		char *keep = mcc_group(mi, 1), *n;

		g_match_info_fetch_pos(mi, 0, &e0, &e1);
		n = g_strconcat(keep, " ", s + e1, NULL);
		g_free(keep);
		g_free(s);
		s = n;
		g_match_info_free(mi);
		mi = NULL;
	}
	return s;
}
