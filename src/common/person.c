#include "person.h"

#include <glib.h>
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
