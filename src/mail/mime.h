/*
 * mime.h - the GMime adapter: the only code that includes <gmime/gmime.h>.
 *
 * mail.c splits a message's header block itself (a plain scan, much
 * cheaper than building GMime's header objects for 30-odd Received and
 * list headers per message) and hands GMime what needs real MIME
 * knowledge: RFC 2047 words, address lists, Message-ID lists, and bodies
 * that are multipart or transfer-encoded.  Everything returned is
 * GLib-allocated (g_free).
 */
#ifndef MS_MIME_H
#define MS_MIME_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An unstructured header (Subject, To, Cc), with RFC 2047 words decoded. */
char *ms_mime_decode_text(const char *value);

/* The first mailbox of an address header; name and email NULL if absent. */
void ms_mime_parse_mailbox(const char *value, char **name, char **email);

/* Each mailbox address of an address header (groups' members too),
 * appended to `out` as given (new strings). */
void ms_mime_parse_addresses(const char *value, GPtrArray *out);
/* Whether address list `value` names `email` (compared without case)
 * under a display name sharing no word with `name` (words of two
 * letters or more, folded to lower-case ASCII): another person's; a
 * mailbox of that address without a name says nothing. */
bool ms_mime_names_otherwise(const char *value, const char *email,
			     const char *name);

/* One Message-ID (no <>), or NULL. */
char *ms_mime_parse_message_id(const char *value);

/*
 * Decode a body: `content_type` and `encoding` are the raw header values
 * (NULL when absent), `body` the bytes after the header block.  Inline
 * text parts are appended to `text` as UTF-8, text attachments (and
 * .patch and .diff parts) go to `attachments` as GString *.  Flags
 * MS_MAIL_P_BAD_BASE64, MS_MAIL_P_UNKNOWN_CHARSET and MS_MAIL_P_MIME_ERROR
 * in *problems.
 */
void ms_mime_decode_body(const char *content_type, const char *encoding,
			 const char *body, size_t len, GString *text,
			 GPtrArray *attachments, uint32_t *problems);

/*
 * A single text part (not multipart) in `encoding` "base64" or
 * "quoted-printable": decoded with GMime's own decoder, without its parser
 * (which costs more than the decoding), and appended to `text` as
 * ms_mime_decode_body() would.  False, and nothing done, for any other
 * encoding.
 */
bool ms_mime_decode_single(const char *encoding, const char *charset,
			   const char *body, size_t len, GString *text,
			   uint32_t *problems);

/*
 * A multipart body (`content_type` its raw header value) of the common
 * shape -- leaf parts with plain headers, an end boundary -- split and
 * decoded exactly as ms_mime_decode_body() would (mail-multipart.c), but
 * without GMime's parser.  False, and nothing done, for any other body:
 * ms_mime_decode_body() reads it.
 */
bool ms_mime_decode_multipart(const char *content_type, const char *body,
			      size_t len, GString *text,
			      GPtrArray *attachments, uint32_t *problems);

/*
 * The parameter `name` of a header value (`v`; "charset" of
 * "text/plain; charset=utf-8"), unquoted, or NULL.  No RFC 2231 or
 * comments: the callers leave such values to GMime.
 */
char *ms_mime_param(const char *v, const char *name);

/*
 * Append `len` bytes of text in `charset` (NULL: UTF-8 or Latin-1) to
 * `out` as valid UTF-8; an unknown charset sets MS_MAIL_P_UNKNOWN_CHARSET.
 */
void ms_mime_append_text(GString *out, const char *buf, size_t len,
			 const char *charset, uint32_t *problems);

/* A header value of `n` bytes at `s` unfolded (its CR and LF dropped)
 * and stripped, a new string. */
char *ms_mime_unfold(const char *s, size_t n);

/* Whether text in `charset` (NULL: undeclared) is taken as UTF-8 as is. */
bool ms_mime_charset_is_utf8(const char *charset);
/* Whether an attachment's file name (may be NULL) ends in .patch or
 * .diff: read as part of the message. */
bool ms_mime_name_is_patch(const char *name);

#endif
