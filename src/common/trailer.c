#include "trailer.h"

#include <glib.h>
#include <string.h>

static const struct {
	const char *name;
	enum ms_trailer_kind kind;
} known[] = {
	{ "Signed-off-by", MS_TRAILER_SIGNED_OFF_BY },
	{ "Reviewed-by", MS_TRAILER_REVIEWED_BY },
	{ "Acked-by", MS_TRAILER_ACKED_BY },
	{ "Tested-by", MS_TRAILER_TESTED_BY },
	{ "Nacked-by", MS_TRAILER_NACKED_BY },
	{ "Reported-by", MS_TRAILER_REPORTED_BY },
	{ "Suggested-by", MS_TRAILER_SUGGESTED_BY },
	{ "Co-developed-by", MS_TRAILER_CO_DEVELOPED_BY },
	{ "Link", MS_TRAILER_LINK },
	{ "Fixes", MS_TRAILER_FIXES },
	{ "Cc", MS_TRAILER_CC },
	{ "Message-Id", MS_TRAILER_MESSAGE_ID },
	{ "change-id", MS_TRAILER_CHANGE_ID },
	{ "base-commit", MS_TRAILER_BASE_COMMIT },
};

const char *ms_trailer_kind_name(enum ms_trailer_kind kind)
{
	for (size_t i = 0; i < G_N_ELEMENTS(known); i++)
		if (known[i].kind == kind)
			return known[i].name;
	return NULL;
}

static bool ends_with_by(const char *t, size_t n)
{
	return n > 3 && g_ascii_strncasecmp(t + n - 3, "-by", 3) == 0;
}

bool ms_trailer_parse_line(const char *line, size_t len,
			   struct ms_trailer_line *out)
{
	size_t i = 0, tok_end, v, vend;

	if (!len || !g_ascii_isalpha(line[0]))
		return false;
	while (i < len && (g_ascii_isalnum(line[i]) || line[i] == '-'))
		i++;
	tok_end = i;
	if (i >= len || line[i] != ':')
		return false;
	/* "http://" is not a trailer token followed by a value */
	if (i + 2 < len && line[i + 1] == '/' && line[i + 2] == '/')
		return false;
	v = i + 1;
	while (v < len && (line[v] == ' ' || line[v] == '\t'))
		v++;
	vend = len;
	while (vend > v && g_ascii_isspace(line[vend - 1]))
		vend--;
	if (vend == v)
		return false;
	out->token = line;
	out->token_len = tok_end;
	out->value = line + v;
	out->value_len = vend - v;
	out->kind = MS_TRAILER_OTHER;
	for (size_t k = 0; k < G_N_ELEMENTS(known); k++)
		if (strlen(known[k].name) == tok_end &&
		    g_ascii_strncasecmp(known[k].name, line, tok_end) == 0)
			out->kind = known[k].kind;
	out->is_person = ends_with_by(line, tok_end) ||
			 out->kind == MS_TRAILER_CC;
	return true;
}

static bool blank_line(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!g_ascii_isspace(s[i]))
			return false;
	return true;
}

/* Is msg[s, e) (a paragraph, lines without blank ones) made only of
 * unindented trailer lines, one of them of a known kind? */
static bool trailer_paragraph(const char *msg, size_t s, size_t e)
{
	bool known = false;

	while (s < e) {
		const char *nl = memchr(msg + s, '\n', e - s);
		size_t n = nl ? (size_t)(nl - msg) - s : e - s;
		struct ms_trailer_line t;

		if (n && msg[s + n - 1] == '\r')
			n--;
		if (!ms_trailer_parse_line(msg + s, n, &t))
			return false;
		known |= t.kind != MS_TRAILER_OTHER;
		s = nl ? (size_t)(nl - msg) + 1 : e;
	}
	return known;
}

/*
 * Where the log message ends, as git's trailer code finds it: at the
 * first line that starts with "---" and a blank or its end (a patch's
 * divider; Xen 09de61c200c0 puts its Cc: lines after one).
 */
static size_t log_end(const char *msg, size_t len)
{
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(msg + pos, '\n', len - pos);

		if (len - pos >= 3 && !memcmp(msg + pos, "---", 3) &&
		    (len - pos == 3 || g_ascii_isspace(msg[pos + 3])))
			return pos;
		pos = nl ? (size_t)(nl - msg) + 1 : len;
	}
	return len;
}

void ms_trailer_blocks(const char *msg, size_t len,
		       void (*fn)(size_t start, size_t end, void *data),
		       void *data)
{
	size_t last_start = 0, last_end = 0, pos = 0, par = 0;
	bool have_last;

	len = log_end(msg, len);
	have_last = ms_trailer_block(msg, len, &last_start, &last_end);
	bool first = true, in_par = false;

	/* paragraphs before the last block (or the end) */
	while (pos <= len) {
		const char *nl = pos < len ? memchr(msg + pos, '\n', len - pos)
					   : NULL;
		size_t n = nl ? (size_t)(nl - msg) - pos : len - pos;
		bool blank = blank_line(msg + pos, n);

		if (have_last && pos >= last_start)
			break;
		if (!blank && !in_par) {
			in_par = true;
			par = pos;
		} else if ((blank || pos == len) && in_par) {
			size_t end = pos;

			while (end > par && (msg[end - 1] == '\n' ||
					     msg[end - 1] == '\r'))
				end--;
			if (!first && trailer_paragraph(msg, par, end))
				fn(par, end, data);
			first = false;
			in_par = false;
		}
		if (pos == len)
			break;
		pos = nl ? (size_t)(nl - msg) + 1 : len;
	}
	if (have_last)
		fn(last_start, last_end, data);
}

bool ms_trailer_block(const char *msg, size_t len, size_t *start,
		      size_t *end)
{
	GArray *ls = g_array_new(FALSE, FALSE, sizeof(size_t));
	size_t pos = 0, nlines, last, first;
	int lines = 0, trailers = 0, known_by = 0;
	bool prev_trailer = false, found = false;
	long i;

	len = log_end(msg, len);
	/* line start offsets; line k spans [ls[k], ls[k+1]-1) */
	while (pos < len) {
		const char *nl = memchr(msg + pos, '\n', len - pos);

		g_array_append_val(ls, pos);
		pos = nl ? (size_t)(nl - msg) + 1 : len;
	}
	nlines = ls->len;
	g_array_append_val(ls, len);
#define LS(k) g_array_index(ls, size_t, (k))
#define LLEN(k) (LS((k) + 1) - LS(k) - \
	(LS((k) + 1) > LS(k) && msg[LS((k) + 1) - 1] == '\n' ? 1 : 0))
	for (i = (long)nlines - 1; i >= 0; i--)
		if (!blank_line(msg + LS(i), LLEN(i)))
			break;
	if (i < 0)
		goto out;
	last = (size_t)i;
	for (; i >= 0; i--)
		if (blank_line(msg + LS(i), LLEN(i)))
			break;
	/* the first paragraph is the subject: never a trailer block */
	if (i < 0)
		goto out;
	first = (size_t)i + 1;
	for (size_t k = first; k <= last; k++) {
		struct ms_trailer_line t;
		const char *l = msg + LS(k);

		if (ms_trailer_parse_line(l, LLEN(k), &t)) {
			lines++;
			trailers++;
			prev_trailer = true;
			if (t.kind != MS_TRAILER_OTHER &&
			    ends_with_by(t.token, t.token_len))
				known_by++;
		} else if (prev_trailer && (l[0] == ' ' || l[0] == '\t')) {
			/* a continuation line belongs to its trailer */
		} else {
			lines++;
			prev_trailer = false;
		}
	}
	if (trailers &&
	    (trailers == lines || (known_by && trailers * 4 >= lines))) {
		*start = LS(first);
		*end = LS(last) + LLEN(last);
		found = true;
	}
#undef LS
#undef LLEN
out:
	g_array_free(ls, TRUE);
	return found;
}
