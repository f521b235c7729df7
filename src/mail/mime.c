/*
 * mime.c - the GMime adapter (see mime.h).  GMime memory is released with
 * GMime's and GObject's own functions here; what leaves this file is
 * GLib-allocated.
 */
#include "mime.h"
#include "mail.h"
#include "utf8.h"

#include <gmime/gmime.h>
#include <string.h>

#define MAX_DEPTH 32

static gpointer init_once(gpointer unused)
{
	(void)unused;
	g_mime_init();
	return NULL;
}

static void mime_init(void)
{
	static GOnce once = G_ONCE_INIT;
	g_once(&once, init_once, NULL);
}

static char *dup_or_null(const char *s)
{
	return s && *s ? g_strdup(s) : NULL;
}

char *ms_mime_decode_text(const char *value)
{
	char *s;

	if (!value)
		return NULL;
	mime_init();
	s = g_mime_utils_header_decode_text(NULL, value);
	if (s)
		g_strstrip(s);
	if (s && !*s) {
		g_free(s);
		return NULL;
	}
	return s;
}

void ms_mime_parse_mailbox(const char *value, char **name, char **email)
{
	InternetAddressList *list;
	int n;

	*name = *email = NULL;
	if (!value)
		return;
	mime_init();
	list = internet_address_list_parse(NULL, value);
	if (!list)
		return;
	n = internet_address_list_length(list);
	for (int i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);
		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		*name = dup_or_null(internet_address_get_name(a));
		*email = dup_or_null(internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a)));
		break;
	}
	g_object_unref(list);
}

static void add_addresses(InternetAddressList *list, GPtrArray *out)
{
	int n = list ? internet_address_list_length(list) : 0;

	for (int i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);
		const char *addr;

		if (INTERNET_ADDRESS_IS_GROUP(a)) {
			add_addresses(internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a)), out);
			continue;
		}
		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		addr = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a));
		if (addr && *addr)
			g_ptr_array_add(out, g_strdup(addr));
	}
}

void ms_mime_parse_addresses(const char *value, GPtrArray *out)
{
	InternetAddressList *list;

	if (!value)
		return;
	mime_init();
	list = internet_address_list_parse(NULL, value);
	add_addresses(list, out);
	g_clear_pointer(&list, g_object_unref);
}

/* The words of a name, folded to lower-case ASCII ("Marlière" is
 * "marliere"), each of two letters or more. */
static char **name_words(const char *name)
{
	char *a = g_str_to_ascii(name ? name : "", "C");
	char **w;

	for (char *p = a; *p; p++)
		*p = g_ascii_isalnum(*p) ? g_ascii_tolower(*p) : ' ';
	w = g_strsplit(a, " ", -1);
	g_free(a);
	return w;
}

/* Whether two names share no word: two people, not one name spelt two
 * ways ("Ricardo B. Marliere" and "Ricardo B. Marlière"). */
static bool apart(const char *x, const char *y)
{
	char **a = name_words(x), **b = name_words(y);
	bool shared = false;

	for (char **p = a; *p && !shared; p++)
		shared = strlen(*p) > 1 && g_strv_contains((const char *const *)b,
							 *p);
	g_strfreev(a);
	g_strfreev(b);
	return !shared;
}

static bool other_name(InternetAddressList *list, const char *email,
		       const char *name)
{
	int n = list ? internet_address_list_length(list) : 0;

	for (int i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);
		const char *addr, *who;

		if (INTERNET_ADDRESS_IS_GROUP(a)) {
			if (other_name(internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a)), email, name))
				return true;
			continue;
		}
		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		addr = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a));
		who = internet_address_get_name(a);
		if (addr && !g_ascii_strcasecmp(addr, email) && who && *who &&
		    apart(who, name))
			return true;
	}
	return false;
}

bool ms_mime_names_otherwise(const char *value, const char *email,
			     const char *name)
{
	InternetAddressList *list;
	bool r;

	/* most headers do not hold the address at all: no parse then */
	if (!value || !email || !*email || !strcasestr(value, email))
		return false;
	mime_init();
	list = internet_address_list_parse(NULL, value);
	r = other_name(list, email, name);
	g_clear_pointer(&list, g_object_unref);
	return r;
}

char *ms_mime_parse_message_id(const char *value)
{
	char *id, *r;

	if (!value)
		return NULL;
	mime_init();
	id = g_mime_utils_decode_message_id(value);
	r = id && *id ? g_strdup(id) : NULL;
	g_free(id);
	return r;
}

/* Whether the raw bytes of a base64 body are base64, read in pieces:
 * b64_scan() each, then b64_valid(). */
struct b64 {
	size_t data, pad;
	bool bad;
};

static void b64_scan(struct b64 *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n && !b->bad; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '=')
			b->pad++;
		else if ((g_ascii_isalnum(c) || c == '+' || c == '/') &&
			 !b->pad)
			b->data++;
		else
			b->bad = !g_ascii_isspace(c);
	}
}

static bool b64_valid(const struct b64 *b)
{
	return !b->bad && b->pad <= 2 && (b->data + b->pad) % 4 == 0;
}

static bool base64_valid(GMimeStream *s)
{
	char buf[8192];
	gint64 nread;
	struct b64 b = { 0 };

	if (!s || g_mime_stream_reset(s) < 0)
		return true;
	while (!b.bad && (nread = g_mime_stream_read(s, buf, sizeof buf)) > 0)
		b64_scan(&b, buf, (size_t)nread);
	g_mime_stream_reset(s);
	return b64_valid(&b);
}

bool ms_mime_charset_is_utf8(const char *cs)
{
	return !cs || !g_ascii_strcasecmp(cs, "utf-8") ||
	       !g_ascii_strcasecmp(cs, "utf8") ||
	       !g_ascii_strcasecmp(cs, "us-ascii") ||
	       !g_ascii_strcasecmp(cs, "ascii");
}

/*
 * Converters to UTF-8, kept open per thread.  Opening one costs more than
 * converting a message: glibc loads the charset's module (dlopen), and
 * unloads it again soon after the last converter using it is closed, so
 * that opening and closing one per message loaded and unloaded modules
 * over and over.  An open converter keeps its module loaded.
 */
#define CONVERTERS 8

struct converters {
	unsigned n;
	char *charset[CONVERTERS];
	iconv_t cd[CONVERTERS];  /* (iconv_t)-1: the charset is unknown */
};

static void converters_free(gpointer p)
{
	struct converters *c = p;

	for (unsigned i = 0; i < c->n; i++) {
		if (c->cd[i] != (iconv_t)-1)
			g_mime_iconv_close(c->cd[i]);
		g_free(c->charset[i]);
	}
	g_free(c);
}

static GPrivate thread_converters = G_PRIVATE_INIT(converters_free);

/* A converter from `charset` to UTF-8, or (iconv_t)-1; not to be closed. */
static iconv_t converter(const char *charset)
{
	struct converters *c = g_private_get(&thread_converters);
	unsigned i;

	if (!c) {
		c = g_new0(struct converters, 1);
		g_private_set(&thread_converters, c);
	}
	for (i = 0; i < c->n; i++)
		if (!g_ascii_strcasecmp(c->charset[i], charset))
			return c->cd[i];
	if (c->n == CONVERTERS) { /* full: the oldest goes */
		i = 0;
		if (c->cd[0] != (iconv_t)-1)
			g_mime_iconv_close(c->cd[0]);
		g_free(c->charset[0]);
		memmove(c->charset, c->charset + 1,
			(CONVERTERS - 1) * sizeof(c->charset[0]));
		memmove(c->cd, c->cd + 1, (CONVERTERS - 1) * sizeof(c->cd[0]));
		c->n--;
	}
	i = c->n++;
	c->charset[i] = g_strdup(charset);
	c->cd[i] = g_mime_iconv_open("UTF-8", charset);
	return c->cd[i];
}

/* Append `len` bytes in `charset` to `out` as valid UTF-8. */
static void append_text(GString *out, const char *buf, size_t len,
			const char *charset, uint32_t *problems)
{
	char *conv = NULL;

	if (!ms_mime_charset_is_utf8(charset)) {
		iconv_t cd = converter(charset);
		if (cd == (iconv_t)-1) {
			*problems |= 1u << MS_MAIL_P_UNKNOWN_CHARSET;
		} else {
			iconv(cd, NULL, NULL, NULL, NULL); /* a fresh state */
			conv = g_mime_iconv_strndup(cd, buf, len);
		}
	}
	if (conv) {
		g_string_append(out, conv);
		g_free(conv);
		return;
	}
	if (ms_utf8_valid(buf, len)) {
		g_string_append_len(out, buf, (gssize)len);
	} else {
		/* Latin-1 is what undeclared 8-bit kernel mail usually is. */
		conv = g_convert(buf, (gssize)len, "UTF-8", "ISO-8859-1",
				 NULL, NULL, NULL);
		if (conv)
			g_string_append(out, conv);
		g_free(conv);
	}
}

static GString *decode_part(GMimePart *part, uint32_t *problems)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GString *text = g_string_new(NULL);
	GMimeStream *mem;
	GByteArray *ba;

	if (!w)
		return text;
	if (g_mime_data_wrapper_get_encoding(w) ==
		    GMIME_CONTENT_ENCODING_BASE64 &&
	    !base64_valid(g_mime_data_wrapper_get_stream(w)))
		*problems |= 1u << MS_MAIL_P_BAD_BASE64;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(w, mem);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	append_text(text, (const char *)ba->data, ba->len,
		    g_mime_object_get_content_type_parameter(
			    GMIME_OBJECT(part), "charset"),
		    problems);
	g_object_unref(mem);
	return text;
}

bool ms_mime_name_is_patch(const char *name)
{
	return name && (g_str_has_suffix(name, ".patch") ||
			g_str_has_suffix(name, ".diff"));
}

struct walk_out {
	GString *text;
	GPtrArray *attachments;
	uint32_t *problems;
};

static void walk(GMimeObject *obj, struct walk_out *out, int depth)
{
	GMimeContentType *ct;
	const char *disp, *name;
	bool text, attached;
	GString *s;

	if (depth > MAX_DEPTH)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);
		for (int i = 0; i < n; i++)
			walk(g_mime_multipart_get_part(mp, i), out, depth + 1);
		return;
	}
	if (!GMIME_IS_PART(obj))
		return; /* forwarded messages are not this message's text */
	ct = g_mime_object_get_content_type(obj);
	name = g_mime_part_get_filename(GMIME_PART(obj));
	text = ct && !g_ascii_strcasecmp(
			    g_mime_content_type_get_media_type(ct), "text");
	if (text && !g_ascii_strcasecmp(
			    g_mime_content_type_get_media_subtype(ct), "html"))
		return;
	if (!text && !ms_mime_name_is_patch(name))
		return;
	disp = g_mime_object_get_disposition(obj);
	attached = (disp && !g_ascii_strcasecmp(disp, "attachment")) ||
		   (name && out->text->len);
	s = decode_part(GMIME_PART(obj), out->problems);
	if (attached) {
		g_ptr_array_add(out->attachments, s);
	} else {
		if (out->text->len && out->text->str[out->text->len - 1] !=
					      '\n')
			g_string_append_c(out->text, '\n');
		g_string_append_len(out->text, s->str, (gssize)s->len);
		g_string_free(s, TRUE);
	}
}

void ms_mime_decode_body(const char *content_type, const char *encoding,
			 const char *body, size_t len, GString *text,
			 GPtrArray *attachments, uint32_t *problems)
{
	GByteArray *buf = g_byte_array_sized_new((guint)len + 256);
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeObject *obj;
	struct walk_out out = { text, attachments, problems };

	mime_init();
	if (content_type) {
		g_byte_array_append(buf, (const guint8 *)"Content-Type: ", 14);
		g_byte_array_append(buf, (const guint8 *)content_type,
				    (guint)strlen(content_type));
		g_byte_array_append(buf, (const guint8 *)"\n", 1);
	}
	if (encoding) {
		g_byte_array_append(buf, (const guint8 *)
				    "Content-Transfer-Encoding: ", 27);
		g_byte_array_append(buf, (const guint8 *)encoding,
				    (guint)strlen(encoding));
		g_byte_array_append(buf, (const guint8 *)"\n", 1);
	}
	g_byte_array_append(buf, (const guint8 *)"\n", 1);
	g_byte_array_append(buf, (const guint8 *)body, (guint)len);
	stream = g_mime_stream_mem_new_with_byte_array(buf);
	parser = g_mime_parser_new_with_stream(stream);
	obj = g_mime_parser_construct_part(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!obj) {
		*problems |= 1u << MS_MAIL_P_MIME_ERROR;
		return;
	}
	walk(obj, &out, 0);
	g_object_unref(obj);
}

bool ms_mime_decode_single(const char *encoding, const char *charset,
			   const char *body, size_t len, GString *text,
			   uint32_t *problems)
{
	GMimeEncoding state;
	GMimeContentEncoding e;
	char *out;
	size_t n, at;

	if (!g_ascii_strcasecmp(encoding, "base64"))
		e = GMIME_CONTENT_ENCODING_BASE64;
	else if (!g_ascii_strcasecmp(encoding, "quoted-printable"))
		e = GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
	else
		return false;
	mime_init();
	if (e == GMIME_CONTENT_ENCODING_BASE64) {
		struct b64 b = { 0 };

		b64_scan(&b, body, len);
		if (!b64_valid(&b))
			*problems |= 1u << MS_MAIL_P_BAD_BASE64;
	}
	g_mime_encoding_init_decode(&state, e);
	/* decoded at the end of `text`, where valid UTF-8 stays */
	at = text->len;
	g_string_set_size(text, at + g_mime_encoding_outlen(&state, len) + 1);
	n = g_mime_encoding_flush(&state, body, len, text->str + at);
	g_string_truncate(text, at + n);
	if (ms_mime_charset_is_utf8(charset) &&
	    ms_utf8_valid(text->str + at, n))
		return true;
	out = g_strndup(text->str + at, n);
	g_string_truncate(text, at);
	append_text(text, out, n, charset, problems);
	g_free(out);
	return true;
}

/* Plain bytes in `charset` (for single-part text bodies mail.c reads). */
void ms_mime_append_text(GString *out, const char *buf, size_t len,
			 const char *charset, uint32_t *problems)
{
	mime_init();
	append_text(out, buf, len, charset, problems);
}
