/*
 * mime.c - the GMime adapter (see mime.h).  GMime memory is released with
 * GMime's and GObject's own functions here; what leaves this file is
 * GLib-allocated.
 */
#include "mime.h"
#include "mail.h"

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

static GMimeHeader *header(GMimeObject *obj, const char *name)
{
	return g_mime_header_list_get_header(
		g_mime_object_get_header_list(obj), name);
}

static const char *raw_header(GMimeObject *obj, const char *name)
{
	GMimeHeader *h = header(obj, name);
	return h ? g_mime_header_get_raw_value(h) : NULL;
}

/* The first mailbox of an address header: name and address. */
static void first_mailbox(InternetAddressList *list, char **name,
			  char **email)
{
	int n = list ? internet_address_list_length(list) : 0;

	for (int i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);
		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		*name = dup_or_null(internet_address_get_name(a));
		*email = dup_or_null(internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a)));
		return;
	}
}

static void parsed_mailbox(GMimeObject *obj, const char *name, char **n,
			   char **e)
{
	const char *raw = raw_header(obj, name);
	InternetAddressList *list;

	if (!raw)
		return;
	list = internet_address_list_parse(NULL, raw);
	if (!list)
		return;
	first_mailbox(list, n, e);
	g_object_unref(list);
}

static char *address_string(GMimeMessage *msg, GMimeAddressType type)
{
	InternetAddressList *list = g_mime_message_get_addresses(msg, type);

	if (!list || internet_address_list_length(list) == 0)
		return NULL;
	return internet_address_list_to_string(list, NULL, FALSE);
}

static char *strip_angles(const char *s)
{
	const char *lt, *gt;
	char *r;

	if (!s)
		return NULL;
	lt = strchr(s, '<');
	gt = lt ? strchr(lt + 1, '>') : NULL;

	if (lt && gt)
		return g_strstrip(g_strndup(lt + 1, gt - lt - 1));
	r = g_strstrip(g_strdup(s));
	if (!*r) {
		g_free(r);
		return NULL;
	}
	return r;
}

static void add_references(struct ms_mime_fields *out, const char *raw)
{
	GMimeReferences *refs;

	if (!raw)
		return;
	refs = g_mime_references_parse(NULL, raw);
	if (!refs)
		return;
	for (int i = 0; i < g_mime_references_length(refs); i++) {
		const char *id = g_mime_references_get_message_id(refs, i);
		if (id && *id)
			g_ptr_array_add(out->references, g_strdup(id));
	}
	g_mime_references_free(refs);
}

static bool base64_valid(GMimeStream *s)
{
	char buf[8192];
	gint64 nread;
	size_t data = 0, pad = 0;
	bool ok = true;

	if (!s || g_mime_stream_reset(s) < 0)
		return true;
	while (ok && (nread = g_mime_stream_read(s, buf, sizeof buf)) > 0) {
		for (gint64 i = 0; i < nread; i++) {
			unsigned char c = (unsigned char)buf[i];
			if (g_ascii_isspace(c))
				continue;
			if (c == '=') {
				pad++;
			} else if ((g_ascii_isalnum(c) || c == '+' ||
				    c == '/') && !pad) {
				data++;
			} else {
				ok = false;
				break;
			}
		}
	}
	g_mime_stream_reset(s);
	return ok && pad <= 2 && (data + pad) % 4 == 0;
}

static bool charset_is_utf8(const char *cs)
{
	return !cs || !g_ascii_strcasecmp(cs, "utf-8") ||
	       !g_ascii_strcasecmp(cs, "utf8") ||
	       !g_ascii_strcasecmp(cs, "us-ascii") ||
	       !g_ascii_strcasecmp(cs, "ascii");
}

/* Append `len` bytes in `charset` to `out` as valid UTF-8. */
static void append_text(GString *out, const char *buf, size_t len,
			const char *charset, uint32_t *problems)
{
	char *conv = NULL;

	if (!charset_is_utf8(charset)) {
		iconv_t cd = g_mime_iconv_open("UTF-8", charset);
		if (cd == (iconv_t)-1) {
			*problems |= 1u << MS_MAIL_P_UNKNOWN_CHARSET;
		} else {
			conv = g_mime_iconv_strndup(cd, buf, len);
			g_mime_iconv_close(cd);
		}
	}
	if (conv) {
		g_string_append(out, conv);
		g_free(conv);
		return;
	}
	if (g_utf8_validate(buf, (gssize)len, NULL)) {
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

static bool name_is_patch(const char *name)
{
	return name && (g_str_has_suffix(name, ".patch") ||
			g_str_has_suffix(name, ".diff"));
}

static void walk(GMimeObject *obj, struct ms_mime_fields *out, int depth)
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
	if (!text && !name_is_patch(name))
		return;
	disp = g_mime_object_get_disposition(obj);
	attached = (disp && !g_ascii_strcasecmp(disp, "attachment")) ||
		   (name && out->text->len);
	s = decode_part(GMIME_PART(obj), &out->problems);
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

static void free_gstring(gpointer p)
{
	g_string_free(p, TRUE);
}

void ms_mime_parse(const char *raw, size_t len, struct ms_mime_fields *out)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	GMimeObject *obj;
	GMimeObject *body;
	const char *v;

	mime_init();
	out->references = g_ptr_array_new_with_free_func(g_free);
	out->attachments = g_ptr_array_new_with_free_func(free_gstring);
	out->text = g_string_new(NULL);

	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!msg) {
		out->problems |= 1u << MS_MAIL_P_MIME_ERROR;
		return;
	}
	obj = GMIME_OBJECT(msg);

	out->message_id = dup_or_null(g_mime_message_get_message_id(msg));
	v = raw_header(obj, "In-Reply-To");
	if (v) {
		GPtrArray *save = out->references;
		out->references = g_ptr_array_new_with_free_func(g_free);
		add_references(out, v);
		if (out->references->len)
			out->in_reply_to = g_strdup(out->references->pdata[0]);
		g_ptr_array_unref(out->references);
		out->references = save;
	}
	add_references(out, raw_header(obj, "References"));
	v = raw_header(obj, "Date");
	if (v)
		out->date = g_strstrip(g_strdup(v));
	out->subject = dup_or_null(g_mime_message_get_subject(msg));
	first_mailbox(g_mime_message_get_from(msg), &out->from_name,
		      &out->from_email);
	parsed_mailbox(obj, "X-Original-From", &out->orig_name,
		       &out->orig_email);
	parsed_mailbox(obj, "Reply-To", &out->reply_to_name,
		       &out->reply_to_email);
	out->to = address_string(msg, GMIME_ADDRESS_TYPE_TO);
	out->cc = address_string(msg, GMIME_ADDRESS_TYPE_CC);
	out->list_id = strip_angles(raw_header(obj, "List-Id"));

	body = g_mime_message_get_mime_part(msg);
	if (body)
		walk(body, out, 0);
	g_object_unref(msg);
}

void ms_mime_fields_release(struct ms_mime_fields *f)
{
	g_free(f->message_id);
	g_free(f->in_reply_to);
	if (f->references)
		g_ptr_array_unref(f->references);
	g_free(f->date);
	g_free(f->subject);
	g_free(f->from_name);
	g_free(f->from_email);
	g_free(f->orig_name);
	g_free(f->orig_email);
	g_free(f->reply_to_name);
	g_free(f->reply_to_email);
	g_free(f->to);
	g_free(f->cc);
	g_free(f->list_id);
	if (f->text)
		g_string_free(f->text, TRUE);
	if (f->attachments)
		g_ptr_array_unref(f->attachments);
	memset(f, 0, sizeof(*f));
}
