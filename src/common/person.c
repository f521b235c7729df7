#include "person.h"

#include <glib.h>
#include <stdbool.h>
#include <string.h>

static char *trimmed(const char *s, size_t len)
{
	while (len && g_ascii_isspace(*s)) {
		s++;
		len--;
	}
	while (len && g_ascii_isspace(s[len - 1]))
		len--;
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	while (len && g_ascii_isspace(*s)) {
		s++;
		len--;
	}
	while (len && g_ascii_isspace(s[len - 1]))
		len--;
	return len ? g_strndup(s, len) : NULL;
}

static int looks_like_address(const char *s, size_t len)
{
	const char *at = memchr(s, '@', len);

	if (!at || at == s || at == s + len - 1)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (g_ascii_isspace(s[i]) || s[i] == '<' || s[i] == '>')
			return 0;
	return 1;
}

/* An RFC 5322 atext character, or a space between words; bytes of UTF-8
 * (RFC 6532) count as text. */
static bool phrase_char(unsigned char c)
{
	return c >= 0x80 || g_ascii_isalnum(c) || c == ' ' ||
	       strchr("!#$%&'*+-/=?^_`{|}~", c);
}

char *ms_person_format(const char *name, const char *email)
{
	GString *out;
	bool quote = false;

	if (!name || !*name)
		return g_strdup(email ? email : "");
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (!phrase_char(*p))
			quote = true;
	if (name[0] == ' ' || name[strlen(name) - 1] == ' ')
		quote = true;
	out = g_string_new(quote ? "\"" : "");
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_c(out, '\\');
		g_string_append_c(out, *p < ' ' || *p == 0x7f ? ' ' :
				  (char)*p);
	}
	g_string_append_printf(out, "%s <%s>", quote ? "\"" : "",
			       email ? email : "");
	return g_string_free(out, FALSE);
}

void ms_person_parse(const char *s, long len, char **name, char **email)
{
	size_t n = len < 0 ? strlen(s) : (size_t)len;
	const char *lt, *gt, *hash;

	*name = NULL;
	*email = NULL;
	/* "Name <addr> # 5.10+": drop a trailing comment after the address;
	 * a quoted name may hold '<' ("\"A <a@x>\" <b@y>" is b@y's) */
	lt = NULL;
	for (size_t i = 0, q = 0; i < n && !lt; i++) {
		if (s[i] == '\\' && q && i + 1 < n)
			i++;
		else if (s[i] == '"')
			q = !q;
		else if (s[i] == '<' && !q)
			lt = s + i;
	}
	gt = lt ? memchr(lt, '>', n - (size_t)(lt - s)) : NULL;
	if (lt && gt) {
		*name = trimmed(s, (size_t)(lt - s));
		*email = trimmed(lt + 1, (size_t)(gt - lt - 1));
		if (!*name) {
			/* "<addr> (Name)" */
			const char *p = gt + 1, *end = s + n;
			const char *open = memchr(p, '(', (size_t)(end - p));
			const char *close = open ?
				memchr(open, ')', (size_t)(end - open)) : NULL;

			if (open && close)
				*name = trimmed(open + 1,
						(size_t)(close - open - 1));
		}
		return;
	}
	hash = memchr(s, '#', n);
	if (hash)
		n = (size_t)(hash - s);
	/* "addr (Name)" or a bare address */
	{
		const char *open = memchr(s, '(', n);
		const char *close = open ?
			memchr(open, ')', n - (size_t)(open - s)) : NULL;
		size_t addr_len = open ? (size_t)(open - s) : n;
		char *addr = trimmed(s, addr_len);

		if (addr && looks_like_address(addr, strlen(addr))) {
			*email = addr;
			if (open && close)
				*name = trimmed(open + 1,
						(size_t)(close - open - 1));
			return;
		}
		g_free(addr);
	}
	*name = trimmed(s, n);
}

/* Whether `w` (`n` bytes) is the word "at" or "dot", bare or in
 * brackets: "(at)", "[dot]", "{at}". */
static bool spelt(const char *w, size_t n, const char *word)
{
	size_t k = strlen(word);

	if (n == k + 2 && strchr("([{", w[0]) && strchr(")]}", w[n - 1])) {
		w++;
		n -= 2;
	}
	return n == k && !g_ascii_strncasecmp(w, word, k);
}

/*
 * "x at y dot z", "x (at) y.z" as "x@y.z", in place: only when the text
 * has no '@' and exactly one word "at" between two others.
 */
static void unspell(char *s)
{
	char *w[32], *out = s;
	size_t len[32], n = 0, ats = 0, at = 0;

	for (char *p = s; *p && n < 32;) {
		while (g_ascii_isspace(*p))
			p++;
		if (!*p)
			break;
		w[n] = p;
		while (*p && !g_ascii_isspace(*p))
			p++;
		len[n] = (size_t)(p - w[n]);
		if (spelt(w[n], len[n], "at")) {
			ats++;
			at = n;
		}
		n++;
	}
	if (ats != 1 || at == 0 || at == n - 1 || n >= 32)
		return;
	for (size_t i = 0; i < n; i++) {
		if (i == at) {
			*out++ = '@';
		} else if (spelt(w[i], len[i], "dot")) {
			*out++ = '.';
		} else {
			memmove(out, w[i], len[i]);
			out += len[i];
		}
	}
	*out = '\0';
}

/*
 * The address a malformed one stands for, in place (never longer):
 * brackets round it ("[hs@denx.de]"), a "mailto:" prefix, an Outlook
 * copy after it ("a@b.c<mailto:a@b.c", "a@b.c <mailto:a@b.c>"), the
 * spam-proof spelling "a at b dot c".
 */
static void clean_address(char *email)
{
	size_t n;
	char *p, *cut;

	/* nearly every address (strspn() of this set built its table per
	 * call: half of normalising an address) */
	for (p = email; g_ascii_isalnum(*p) || (*p && strchr("@._+-", *p));)
		p++;
	if (!*p)
		return;
	if (!strchr(email, '@'))
		unspell(email);
	p = email;
	for (;;) {
		while (g_ascii_isspace(*p) || *p == '<' || *p == '[' ||
		       *p == '(' || *p == '"' || *p == '\'')
			p++;
		if (g_ascii_strncasecmp(p, "mailto:", 7))
			break;
		p += 7;
	}
	/* the first address only: an Outlook copy or a second one after */
	cut = p + strcspn(p, " \t<>[](),;\"'");
	if (cut > p && strchr(p, '@') && strchr(p, '@') < cut &&
	    (*cut != '(' || !strchr(p, '.')))
		*cut = '\0';
	n = strlen(p);
	while (n && (g_ascii_isspace(p[n - 1]) || p[n - 1] == '>' ||
		     p[n - 1] == ']' || p[n - 1] == '.'))
		n--;
	memmove(email, p, n);
	email[n] = '\0';
}

bool ms_email_malformed(const char *email)
{
	const char *at;

	if (!email || !*email)
		return false;
	at = strchr(email, '@');
	if (!at || at == email || !at[1] || strchr(at + 1, '@') ||
	    at[1] == '.')
		return true;
	for (const char *p = email; *p; p++)
		if ((unsigned char)*p <= ' ')
			return true;
	return email[strcspn(email, "<>()[],;:\"\\")] != '\0';
}

void ms_email_normalize_in_place(char *email, int plus_fold)
{
	char *at, *plus;

	clean_address(email);
	for (char *p = email; *p; p++)
		if (*p >= 'A' && *p <= 'Z')     /* g_ascii_tolower() */
			*p = (char)(*p - 'A' + 'a');
	if (!plus_fold)
		return;
	at = strrchr(email, '@');
	plus = at ? memchr(email, '+', (size_t)(at - email)) : NULL;
	if (plus && plus != email)
		memmove(plus, at, strlen(at) + 1);
}

char *ms_email_normalize(const char *email, int plus_fold)
{
	char *copy = g_strdup(email);

	if (copy)
		ms_email_normalize_in_place(copy, plus_fold);
	return copy;
}

static bool is_mark(gunichar c)
{
	switch (g_unichar_type(c)) {
	case G_UNICODE_NON_SPACING_MARK:
	case G_UNICODE_SPACING_MARK:
	case G_UNICODE_ENCLOSING_MARK:
		return true;
	default:
		return false;
	}
}

char *ms_casefold(const char *s, ptrdiff_t len)
{
	char *valid, *folded;
	ptrdiff_t n = 0;

	/* ASCII (nearly all text) folds to its lowercase: Unicode case
	 * folding maps only A-Z among ASCII characters */
	while ((len < 0 || n < len) && s[n] && (unsigned char)s[n] < 0x80)
		n++;
	if (len < 0 ? !s[n] : n == len) {
		folded = g_strndup(s, (gsize)n);
		for (ptrdiff_t i = 0; i < n; i++)
			folded[i] = g_ascii_tolower(folded[i]);
		return folded;
	}
	if (g_utf8_validate(s, len, NULL))
		return g_utf8_casefold(s, len);
	valid = g_utf8_make_valid(s, len);
	folded = g_utf8_casefold(valid, -1);
	g_free(valid);
	return folded;
}

/* Words that follow a comma without being a given name ("John Smith,
 * Jr.", "Ann Example, PhD"), casefolded, without their stop. */
static bool name_suffix(const char *w, size_t n)
{
	static const char *const sfx[] = {
		"jr", "sr", "ii", "iii", "iv", "phd", "md", "esq", "mba",
		"msc", "bsc", "dds", "cpa",
	};

	while (n && (w[n - 1] == '.' || g_ascii_isspace(w[n - 1])))
		n--;
	for (size_t i = 0; i < G_N_ELEMENTS(sfx); i++)
		if (n == strlen(sfx[i]) && !g_ascii_strncasecmp(w, sfx[i], n))
			return true;
	return false;
}

/* "Pearson, Robert B" (Outlook's "Surname, Given") as "Robert B Pearson";
 * NULL when `name` is not of that form: one comma, words on both sides,
 * and after it no suffix such as "Jr." or "PhD". */
static char *name_unsurname(const char *name)
{
	const char *comma = strchr(name, ',');
	const char *given;

	if (!comma || strchr(comma + 1, ','))
		return NULL;
	for (given = comma + 1; g_ascii_isspace(*given); given++)
		;
	if (!*given || comma == name || name_suffix(given, strlen(given)))
		return NULL;
	for (const char *p = name; p < comma; p++)
		if (!g_ascii_isspace(*p) && *p != '"' && *p != '\'')
			return g_strdup_printf("%s %.*s", given,
					       (int)(comma - name), name);
	return NULL;
}

/*
 * Whether `name` is written as a domain ("Amazon.co.jp", "example.com"):
 * one word, dotted, ending in a common top-level domain or, after two
 * dots or more, a two-letter one.  "Ye.Li" is a name.
 */
static bool domain_name(const char *name)
{
	static const char *const tld[] = {
		"com", "org", "net", "edu", "gov", "io", "info", "biz",
	};
	const char *dot = strrchr(name, '.'), *last;
	size_t dots = 0, n;

	for (const char *p = name; *p; p++) {
		if (g_ascii_isspace(*p))
			return false;
		dots += *p == '.';
	}
	if (!dot || dot == name)
		return false;
	last = dot + 1;
	n = strlen(last);
	for (size_t i = 0; i < n; i++)
		if (!g_ascii_isalpha(last[i]))
			return false;
	if (dots >= 2 && n == 2)
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(tld); i++)
		if (!g_ascii_strcasecmp(last, tld[i]))
			return true;
	return false;
}

/* A word (casefolded) that makes a display name a company's or a
 * program's, not a person's: "Acme Inc", "kernel test robot". */
static bool non_person_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"inc", "ltd", "llc", "gmbh", "corporation",
		"limited", "bot", "robot", "noreply", "no-reply", "github",
		"gitlab", "buildbot", "daemon", "mailer-daemon",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(words); i++)
		if (n == strlen(words[i]) && !memcmp(w, words[i], n))
			return true;
	return false;
}

/* Whether key `k` (words separated by one space) has such a word. */
static bool non_person_key(const char *k)
{
	while (*k) {
		size_t n = strcspn(k, " ");
		const char *w = k;

		/* "[bot]" as GitHub's apps write it */
		if (n > 2 && w[0] == '[' && w[n - 1] == ']') {
			w++;
			if (non_person_word(w, n - 2))
				return true;
		} else if (non_person_word(w, n)) {
			return true;
		}
		k += n;
		while (*k == ' ')
			k++;
	}
	return false;
}

/*
 * Whether `s` (valid UTF-8) writes a letter or digit in a compatibility
 * form (fullwidth "Ｌｉｎｕｓ", mathematical bold, circled): NFKD would make
 * it another person's plain name, so such a name joins no one.
 */
static bool lookalike(const char *s)
{
	for (const char *p = s; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p), canon[8], compat[8];

		if (c < 0x80 || !g_unichar_isalnum(c))
			continue;
		if (g_unichar_fully_decompose(c, FALSE, canon, 8) !=
		    g_unichar_fully_decompose(c, TRUE, compat, 8) ||
		    canon[0] != compat[0])
			return true;
	}
	return false;
}

static bool ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

char *ms_name_key(const char *name)
{
	char *valid, *nfkd, *folded;
	GString *out;
	int words = 0;
	bool space = true, lettered = false;

	if (!name || !*name)
		return NULL;
	if (ascii(name)) {
		/* valid, no lookalike, its own NFKD, folded as ASCII (a
		 * warm U-Boot run keyed 11,500 names at 9,000 instructions
		 * each through the Unicode tables) */
		folded = g_ascii_strdown(name, -1);
	} else {
		valid = g_utf8_make_valid(name, -1);
		if (lookalike(valid)) {
			g_free(valid);
			return NULL;
		}
		nfkd = g_utf8_normalize(valid, -1, G_NORMALIZE_NFKD);
		g_free(valid);
		if (!nfkd)
			return NULL;
		folded = g_utf8_casefold(nfkd, -1);   /* valid: normalized */
		g_free(nfkd);
	}
	out = g_string_new(NULL);
	for (const char *p = folded; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);
		/* ASCII decided without the Unicode tables (as they do) */
		bool a = c < 0x80;

		if ((!a && is_mark(c)) || c == '"' || c == '\'' ||
		    c == 0x2019 || c == '`')
			continue;
		if (c == '@') {
			words = 0;
			break;
		}
		/* "Md. Haris Iqbal" is "Md Haris Iqbal", and "Ye.Li"
		 * (a local part written as a name) is "Ye Li" */
		if ((a ? c == ' ' || (c >= '\t' && c <= '\r' && c != '\v') :
		     g_unichar_isspace(c)) || c == ',' || c == '.') {
			space = true;
			continue;
		}
		if (space) {
			if (out->len)
				g_string_append_c(out, ' ');
			space = false;
			lettered = false;
		}
		/* a word counts by its letters: "-- --" names no one */
		if (!lettered && (a ? g_ascii_isalpha(c) :
				  g_unichar_isalpha(c))) {
			lettered = true;
			words++;
		}
		if (a)
			g_string_append_c(out, (char)c);
		else
			g_string_append_unichar(out, c);
	}
	g_free(folded);
	if (words < 2 || domain_name(name) || non_person_key(out->str)) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}

char *ms_name_key_reordered(const char *name)
{
	char *given_first = name ? name_unsurname(name) : NULL;
	char *key = given_first ? ms_name_key(given_first) : NULL;

	g_free(given_first);
	return key;
}
