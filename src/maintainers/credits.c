#include "credits.h"

#include <glib.h>
#include <string.h>

/* One record: [start, end) byte range, with its N: and E: values. */
struct record {
	size_t start, end;          /* from the N: line to its last line */
	size_t last_d_end;          /* end of the last D: line, or 0 */
	size_t last_line_end;       /* end of the record's last line */
	char *name;
	GPtrArray *emails;
};

static void free_records(GArray *recs)
{
	for (guint i = 0; i < recs->len; i++) {
		struct record *r = &g_array_index(recs, struct record, i);

		g_free(r->name);
		g_ptr_array_free(r->emails, TRUE);
	}
	g_array_free(recs, TRUE);
}

static char *value_of(const char *line, size_t n)
{
	size_t v = 2;

	while (v < n && (line[v] == ' ' || line[v] == '\t'))
		v++;
	while (n > v && g_ascii_isspace(line[n - 1]))
		n--;
	return g_strndup(line + v, n - v);
}

static GArray *parse(const char *text)
{
	GArray *recs = g_array_new(FALSE, TRUE, sizeof(struct record));
	struct record *cur = NULL;
	size_t pos = 0, len = strlen(text);

	while (pos < len) {
		const char *l = text + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos;
		size_t end = pos + n + (nl ? 1 : 0);

		if (n >= 2 && l[1] == ':' && l[0] == 'N') {
			struct record r = { 0 };

			r.start = pos;
			r.name = value_of(l, n);
			r.emails = g_ptr_array_new_with_free_func(g_free);
			g_array_append_val(recs, r);
			cur = &g_array_index(recs, struct record,
					     recs->len - 1);
		} else if (n == 0 || (n > 0 && l[0] != ' ' && l[0] != '\t' &&
				      !(n >= 2 && l[1] == ':'))) {
			cur = NULL;
		}
		if (cur && n) {
			cur->last_line_end = end;
			cur->end = end;
			if (l[0] == 'E' && n >= 2 && l[1] == ':')
				g_ptr_array_add(cur->emails, value_of(l, n));
			if (l[0] == 'D' && n >= 2 && l[1] == ':')
				cur->last_d_end = end;
		}
		pos = end;
	}
	return recs;
}

bool credits_has(const char *text, const char *name, const char *email)
{
	GArray *recs = parse(text);
	bool found = false;

	for (guint i = 0; i < recs->len && !found; i++) {
		struct record *r = &g_array_index(recs, struct record, i);

		if (email) {
			for (guint k = 0; k < r->emails->len; k++)
				if (!g_ascii_strcasecmp(r->emails->pdata[k],
							email))
					found = true;
		} else if (name && !strcmp(r->name, name)) {
			found = true;
		}
	}
	free_records(recs);
	return found;
}

char *credits_sort_key(const char *name)
{
	char *folded = g_utf8_casefold(name, -1);
	char *stripped = g_strstrip(folded);
	const char *last = strrchr(stripped, ' ');
	char *key = g_strdup_printf("%s\t%s", last ? last + 1 : stripped,
				    stripped);

	g_free(folded);
	return key;
}

char *credits_add(const char *text, const char *name, const char *email,
		  const char *what)
{
	GArray *recs = parse(text);
	GString *out = g_string_new(NULL);
	struct record *mine = NULL;
	size_t at;

	for (guint i = 0; i < recs->len && !mine; i++) {
		struct record *r = &g_array_index(recs, struct record, i);

		for (guint k = 0; email && k < r->emails->len; k++)
			if (!g_ascii_strcasecmp(r->emails->pdata[k], email))
				mine = r;
		if (!email && !strcmp(r->name, name))
			mine = r;
	}
	if (mine) {
		at = mine->last_d_end ? mine->last_d_end : mine->last_line_end;
		g_string_append_len(out, text, (gssize)at);
		if (at && text[at - 1] != '\n')
			g_string_append_c(out, '\n');
		g_string_append_printf(out, "D: %s\n", what);
		g_string_append(out, text + at);
	} else {
		char *key = credits_sort_key(name);

		at = strlen(text);
		for (guint i = 0; i < recs->len; i++) {
			struct record *r = &g_array_index(recs, struct record,
							  i);
			char *rk = credits_sort_key(r->name);
			int c = strcmp(rk, key);

			g_free(rk);
			if (c > 0) {
				at = r->start;
				break;
			}
		}
		g_string_append_len(out, text, (gssize)at);
		if (at == strlen(text)) {
			/* at the end: separate from the last record */
			if (out->len && out->str[out->len - 1] != '\n')
				g_string_append_c(out, '\n');
			if (out->len > 1 && out->str[out->len - 2] != '\n')
				g_string_append_c(out, '\n');
		}
		g_string_append_printf(out, "N: %s\n", name);
		if (email)
			g_string_append_printf(out, "E: %s\n", email);
		g_string_append_printf(out, "D: %s\n", what);
		if (at < strlen(text))
			g_string_append_c(out, '\n');
		g_string_append(out, text + at);
		g_free(key);
	}
	free_records(recs);
	return g_string_free(out, FALSE);
}
