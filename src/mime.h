/*
 * mime.h - the GMime adapter: the only code that includes <gmime/gmime.h>.
 *
 * It reads one raw message and hands back plain strings: the headers the
 * mail model needs (RFC 2047 decoded, addresses split) and the text of the
 * body after transfer and charset decoding, with patch attachments apart.
 */
#ifndef MS_MIME_H
#define MS_MIME_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

struct ms_mime_fields {
	char *message_id;        /* without <> */
	char *in_reply_to;       /* first id, without <> */
	GPtrArray *references;   /* char *, ids without <>, junk skipped */
	char *date;              /* raw Date value */
	char *subject;           /* decoded */
	char *from_name, *from_email;
	char *orig_name, *orig_email;         /* X-Original-From */
	char *reply_to_name, *reply_to_email; /* first Reply-To address */
	char *to, *cc;           /* decoded address lists */
	char *list_id;           /* without <> and without the phrase */
	GString *text;           /* inline text parts, UTF-8 */
	GPtrArray *attachments;  /* GString *: text attachments, UTF-8 */
	uint32_t problems;       /* bits of enum ms_mail_problem */
};

/*
 * Parse `raw` (`len` bytes, NUL-free) and fill `out` (zero it first;
 * release with ms_mime_fields_release).  Never fails: a message GMime
 * cannot read sets MS_MAIL_P_MIME_ERROR in out->problems; an unknown
 * charset and invalid base64 are flagged the same way.
 */
void ms_mime_parse(const char *raw, size_t len, struct ms_mime_fields *out);

void ms_mime_fields_release(struct ms_mime_fields *f);

#endif
