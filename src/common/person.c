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

void ms_person_parse(const char *s, long len, char **name, char **email)
{
	size_t n = len < 0 ? strlen(s) : (size_t)len;
	const char *lt, *gt, *hash;

	*name = NULL;
	*email = NULL;
	/* "Name <addr> # 5.10+": drop a trailing comment after the address */
	lt = memchr(s, '<', n);
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

void ms_email_normalize_in_place(char *email, int plus_fold)
{
	char *at, *plus;

	for (char *p = email; *p; p++)
		*p = g_ascii_tolower(*p);
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

char *ms_name_key(const char *name)
{
	char *valid, *nfkd, *folded;
	GString *out;
	int words = 0;
	bool space = true;

	if (!name || !*name)
		return NULL;
	valid = g_utf8_make_valid(name, -1);
	nfkd = g_utf8_normalize(valid, -1, G_NORMALIZE_NFKD);
	g_free(valid);
	if (!nfkd)
		return NULL;
	folded = g_utf8_casefold(nfkd, -1);   /* valid: normalized */
	g_free(nfkd);
	out = g_string_new(NULL);
	for (const char *p = folded; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (is_mark(c) || c == '"' || c == '\'' || c == 0x2019 ||
		    c == '`')
			continue;
		if (c == '@') {
			words = 0;
			break;
		}
		/* "Md. Haris Iqbal" is "Md Haris Iqbal", and "Ye.Li"
		 * (a local part written as a name) is "Ye Li" */
		if (g_unichar_isspace(c) || c == ',' || c == '.') {
			space = true;
			continue;
		}
		if (space) {
			if (out->len)
				g_string_append_c(out, ' ');
			words++;
			space = false;
		}
		g_string_append_unichar(out, c);
	}
	g_free(folded);
	if (words < 2) {
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

char *ms_name_undmarc(const char *name)
{
	const char *via;
	size_t n;

	if (!name)
		return NULL;
	via = g_strrstr(name, " via ");
	if (!via || via == name || !via[5])
		return NULL;
	for (const char *p = via + 5; *p; p++)
		if (g_ascii_isspace(*p))
			return NULL;
	n = (size_t)(via - name);
	while (n && g_ascii_isspace(name[n - 1]))
		n--;
	return n ? g_strndup(name, n) : NULL;
}
