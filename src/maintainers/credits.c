#include "credits.h"
#include "person.h"

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
			if ((l[0] == 'E' || l[0] == 'M') && n >= 2 &&
			    l[1] == ':') {
				char *v = value_of(l, n), *nm, *em;

				/* "M: Name <addr>" in a few old records */
				ms_person_parse(v, -1, &nm, &em);
				g_ptr_array_add(cur->emails, em ? em :
						g_strdup(v));
				g_free(nm);
				g_free(v);
			}
			if (l[0] == 'D' && n >= 2 && l[1] == ':')
				cur->last_d_end = end;
		}
		pos = end;
	}
	return recs;
}

static bool same_name(const char *a, const char *b)
{
	char *ka, *kb;
	bool r;

	if (!a || !b)
		return false;
	if (!g_utf8_collate(a, b))
		return true;
	ka = ms_name_key(a);
	kb = ms_name_key(b);
	r = ka && kb && !strcmp(ka, kb);
	g_free(ka);
	g_free(kb);
	return r;
}

static bool has_email(const struct record *r, const char *email)
{
	for (guint k = 0; email && k < r->emails->len; k++)
		if (!g_ascii_strcasecmp(r->emails->pdata[k], email))
			return true;
	return false;
}

/* The person's record: by any address first, then by name. */
static struct record *find_record(GArray *recs, const char *name,
				  const char *email, const char *const *also)
{
	for (guint i = 0; i < recs->len; i++) {
		struct record *r = &g_array_index(recs, struct record, i);

		if (has_email(r, email))
			return r;
		for (size_t k = 0; also && also[k]; k++)
			if (has_email(r, also[k]))
				return r;
	}
	for (guint i = 0; i < recs->len; i++) {
		struct record *r = &g_array_index(recs, struct record, i);

		if (same_name(r->name, name))
			return r;
	}
	return NULL;
}

char *credits_sort_key(const char *name)
{
	char *folded = ms_casefold(name, -1);
	char *stripped = g_strstrip(folded);
	const char *last = strrchr(stripped, ' ');
	char *key = g_strdup_printf("%s\t%s", last ? last + 1 : stripped,
				    stripped);

	g_free(folded);
	return key;
}

char *credits_add(const char *text, const char *name, const char *email,
		  const char *const *also, const char *what)
{
	GArray *recs = parse(text);
	GString *out = g_string_new(NULL);
	struct record *mine = find_record(recs, name, email, also);
	size_t at;

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
		/* between two neighbours in order, never before the first
		 * record: one out-of-order early record must not pull new
		 * ones to the top */
		for (guint i = 1; i < recs->len; i++) {
			struct record *prev = &g_array_index(recs,
				struct record, i - 1);
			struct record *r = &g_array_index(recs, struct record,
							  i);
			char *pk = credits_sort_key(prev->name);
			char *rk = credits_sort_key(r->name);
			bool fits = strcmp(pk, key) <= 0 &&
				    strcmp(rk, key) > 0;

			g_free(pk);
			g_free(rk);
			if (fits) {
				at = r->start;
				break;
			}
		}
		if (at == strlen(text) && recs->len > 1) {
			/* sorting before the first record: just after it */
			struct record *first = &g_array_index(recs,
				struct record, 0);
			char *fk = credits_sort_key(first->name);

			if (strcmp(key, fk) < 0)
				at = g_array_index(recs, struct record,
						   1).start;
			g_free(fk);
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
