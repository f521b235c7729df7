/*
 * mail-multipart.c - multipart bodies split without GMime's parser.
 *
 * Building GMime's objects for a multipart message (a parser, streams,
 * a part object and a byte array per part, the signature's base64 too)
 * cost several times what reading its text does, and a fifth of a
 * kernel list's mail is multipart (most of it S/MIME or PGP-signed
 * text).  The common shape is split here with GMime's own rules
 * (gmime-parser.c: boundary lines, where a part's content ends) and each
 * text part decoded by mime.c as decode_part() there would: one level of
 * leaf parts with plain headers.  Anything else (nested multiparts,
 * message parts, RFC 2231 or commented parameters, a missing end
 * boundary, an unknown transfer encoding, malformed part headers) is left
 * to GMime: ms_mime_decode_multipart() then returns false having done
 * nothing.
 */
#include "mail.h"
#include "mime.h"

#include <string.h>

#define MAX_PARTS 64

char *ms_mime_param(const char *v, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = v; p && *p; p++) {
		const char *q;
		if (g_ascii_strncasecmp(p, name, n) ||
		    (p > v && p[-1] != ';' && !g_ascii_isspace(p[-1])))
			continue;
		q = p + n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '"') {
			const char *e = strchr(q + 1, '"');
			return e ? g_strndup(q + 1, (size_t)(e - q - 1)) : NULL;
		}
		size_t k = strcspn(q, "; \t");
		return k ? g_strndup(q, k) : NULL;
	}
	return NULL;
}

/* GMime's is_lwsp(). */
static bool lwsp(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

enum { NOT_BOUNDARY, BOUNDARY, END_BOUNDARY };

/*
 * GMime's check_boundary() with one boundary on the stack: a line (no
 * '\n') "--B--" or "--B", then only white space; a final '\r' is not part
 * of the line.
 */
static int boundary_line(const char *s, size_t n, const char *b, size_t bl)
{
	size_t i = 2 + bl, j;

	if (n && s[n - 1] == '\r')
		n--;
	if (n < i || s[0] != '-' || s[1] != '-' || memcmp(s + 2, b, bl))
		return NOT_BOUNDARY;
	if (n >= i + 2 && s[i] == '-' && s[i + 1] == '-') {
		for (j = i + 2; j < n && lwsp(s[j]); j++)
			;
		if (j == n)
			return END_BOUNDARY;
	}
	for (j = i; j < n && lwsp(s[j]); j++)
		;
	return j == n ? BOUNDARY : NOT_BOUNDARY;
}

struct part {
	char *ct, *cte, *disp; /* unfolded, or NULL when absent */
	const char *content;
	size_t len;
};

static void parts_free(struct part *parts, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		g_free(parts[i].ct);
		g_free(parts[i].cte);
		g_free(parts[i].disp);
	}
}

char *ms_mime_unfold(const char *s, size_t n)
{
	char *out = g_malloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++)
		if (s[i] != '\r' && s[i] != '\n')
			*o++ = s[i];
	*o = 0;
	return g_strstrip(out);
}

/* The end of the line at `p` (its '\n', or `e`). */
static const char *eol(const char *p, const char *e)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));

	return nl ? nl : e;
}

static bool is_empty_line(const char *p, const char *nl)
{
	return nl == p || (nl == p + 1 && *p == '\r');
}

/*
 * A part's header block from `p`: plain "Name: value" fields (continued
 * on lines that start with white space) up to an empty line.  The three
 * Content- fields are kept; false when a line is anything else (a
 * boundary line too), a field repeats, or no empty line comes.  *content is where the content starts.
 */
static bool part_headers(const char *p, const char *e, const char *b,
			 size_t bl, struct part *pt, const char **content)
{
	static const char *const names[] = {
		"content-type", "content-transfer-encoding",
		"content-disposition",
	};

	while (p < e) {
		const char *nl = eol(p, e), *end, *colon = p;
		char **slot = NULL;

		if (is_empty_line(p, nl)) {
			*content = nl < e ? nl + 1 : e;
			return true;
		}
		if (boundary_line(p, (size_t)(nl - p), b, bl))
			return false; /* a part without content */
		while (colon < nl && *colon > ' ' && *colon < 127 &&
		       *colon != ':')
			colon++;
		if (colon == p || colon == nl || *colon != ':')
			return false;
		end = nl;
		while (end < e && end + 1 < e && (end[1] == ' ' ||
						  end[1] == '\t'))
			end = eol(end + 1, e);
		for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
			if (strlen(names[i]) == (size_t)(colon - p) &&
			    !g_ascii_strncasecmp(p, names[i],
						 (size_t)(colon - p)))
				slot = i == 0 ? &pt->ct : i == 1 ? &pt->cte
								 : &pt->disp;
		if (slot) {
			if (*slot)
				return false;
			*slot = ms_mime_unfold(colon + 1,
					     (size_t)(end - colon - 1));
		}
		if (end >= e)
			return false;
		p = end + 1;
	}
	return false;
}

/*
 * Split `body` at the boundary `b` into parts (at most MAX_PARTS), as
 * GMime's parser_scan_content() cuts them: a part's content ends before
 * the boundary line, less the last newline -- two bytes when the
 * boundary line ends in "\r\n", as GMime counts it.  False for what is
 * left to GMime.
 */
static bool split_parts(const char *body, size_t len, const char *b,
			struct part *parts, unsigned *n_parts)
{
	const char *p = body, *e = body + len, *content = NULL;
	size_t bl = strlen(b);

	*n_parts = 0;
	while (p < e) {
		const char *nl = eol(p, e);
		int kind = boundary_line(p, (size_t)(nl - p), b, bl);
		struct part *pt;

		if (kind == NOT_BOUNDARY) {
			p = nl < e ? nl + 1 : e;
			continue;
		}
		if (content) { /* the part before this line ends */
			size_t cut = p > content ? (nl > p && nl[-1] == '\r' ?
						    2 : 1) : 0;

			pt = &parts[*n_parts - 1];
			if ((size_t)(p - content) < cut)
				return false;
			pt->content = content;
			pt->len = (size_t)(p - content) - cut;
		} else if (kind == END_BOUNDARY) {
			return false; /* no part at all */
		}
		if (kind == END_BOUNDARY)
			return true; /* the epilogue is not read */
		if (nl >= e || *n_parts == MAX_PARTS)
			return false;
		pt = &parts[(*n_parts)++];
		p = nl + 1;
		if (p < e && boundary_line(p, (size_t)(eol(p, e) - p), b, bl))
			return false; /* an empty part */
		if (!part_headers(p, e, b, bl, pt, &content))
			return false;
		p = content;
	}
	return false; /* no end boundary */
}

/* "type/subtype" then nothing or parameters; false when malformed. */
static bool media_type(const char *ct, const char **sub, size_t *type_len,
		       size_t *sub_len)
{
	size_t t = strcspn(ct, "/; \t"), s;

	if (!t || ct[t] != '/')
		return false;
	s = strcspn(ct + t + 1, "; \t");
	if (!s)
		return false;
	*type_len = t;
	*sub = ct + t + 1;
	*sub_len = s;
	return true;
}

static bool word_is(const char *w, size_t n, const char *x)
{
	return n == strlen(x) && !g_ascii_strncasecmp(w, x, n);
}

/* Values GMime would read otherwise than ms_mime_param() does. */
static bool plain_params(const char *v)
{
	return !v || !strpbrk(v, "()\\*");
}

static bool known_encoding(const char *cte)
{
	return !cte || !*cte || !g_ascii_strcasecmp(cte, "7bit") ||
	       !g_ascii_strcasecmp(cte, "8bit") ||
	       !g_ascii_strcasecmp(cte, "binary") ||
	       !g_ascii_strcasecmp(cte, "base64") ||
	       !g_ascii_strcasecmp(cte, "quoted-printable");
}

/* The part's file name as g_mime_part_get_filename() gives it; false
 * when GMime could read it otherwise. */
static bool part_filename(const struct part *pt, char **name)
{
	*name = NULL;
	if (pt->disp)
		*name = ms_mime_param(pt->disp, "filename");
	if (!*name && pt->disp && strstr(pt->disp, "ilename"))
		return false; /* an empty or odd filename parameter */
	if (!*name && pt->ct)
		*name = ms_mime_param(pt->ct, "name");
	if (!*name && pt->ct && strstr(pt->ct, "name"))
		return false;
	if (*name && strstr(*name, "=?")) {
		g_clear_pointer(name, g_free);   /* encoded: GMime's to read */
		return false;
	}
	return true;
}

/* Is a part read at all (text, not HTML, or a .patch/.diff file), is it
 * an attachment by its disposition, has it a file name?  False when GMime
 * must decide. */
static bool part_role(const struct part *pt, bool *read, bool *disposed,
		      bool *named)
{
	const char *ct = pt->ct && *pt->ct ? pt->ct : "text/plain";
	const char *sub;
	size_t tl, sl, dl;
	char *name;
	bool text;

	if (!plain_params(pt->ct) || !plain_params(pt->disp) ||
	    !media_type(ct, &sub, &tl, &sl) || !known_encoding(pt->cte) ||
	    word_is(ct, tl, "multipart") || word_is(ct, tl, "message") ||
	    !part_filename(pt, &name))
		return false;
	text = word_is(ct, tl, "text");
	*read = (text && !word_is(sub, sl, "html")) ||
		(!text && ms_mime_name_is_patch(name));
	dl = pt->disp ? strcspn(pt->disp, "; \t") : 0;
	*disposed = dl && word_is(pt->disp, dl, "attachment");
	*named = name != NULL;
	g_free(name);
	return true;
}

static void decode_part(const struct part *pt, GString *out,
			uint32_t *problems)
{
	char *charset = pt->ct ? ms_mime_param(pt->ct, "charset") : NULL;

	if (!pt->cte || !ms_mime_decode_single(pt->cte, charset, pt->content,
					       pt->len, out, problems))
		ms_mime_append_text(out, pt->content, pt->len, charset,
				    problems);
	g_free(charset);
}

bool ms_mime_decode_multipart(const char *content_type, const char *body,
			      size_t len, GString *text,
			      GPtrArray *attachments, uint32_t *problems)
{
	struct part parts[MAX_PARTS] = { 0 };
	bool read[MAX_PARTS], disposed[MAX_PARTS], named[MAX_PARTS];
	unsigned n = 0;
	const char *sub;
	size_t tl, sl;
	char *b = NULL;
	bool ok = false;

	if (!content_type || !plain_params(content_type) ||
	    !media_type(content_type, &sub, &tl, &sl) ||
	    !word_is(content_type, tl, "multipart") ||
	    word_is(sub, sl, "digest"))
		return false;
	b = ms_mime_param(content_type, "boundary");
	if (!b || !*b || strstr(b, "=?") ||
	    !split_parts(body, len, b, parts, &n))
		goto out;
	for (unsigned i = 0; i < n; i++)
		if (!part_role(&parts[i], &read[i], &disposed[i], &named[i]))
			goto out;
	/* decoded as mime.c's walk() does: a named part is an attachment
	 * once some text came before it */
	for (unsigned i = 0; i < n; i++) {
		if (!read[i])
			continue;
		if (disposed[i] || (named[i] && text->len)) {
			GString *a = g_string_new(NULL);

			decode_part(&parts[i], a, problems);
			g_ptr_array_add(attachments, a);
			continue;
		}
		if (text->len && text->str[text->len - 1] != '\n')
			g_string_append_c(text, '\n');
		decode_part(&parts[i], text, problems);
	}
	ok = true;
out:
	parts_free(parts, n);
	g_free(b);
	return ok;
}
