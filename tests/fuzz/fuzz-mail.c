/*
 * fuzz-mail.c - libFuzzer target for the mail parser: one input is one raw
 * message (headers, MIME bodies, diffs, trailers, dates, subjects all go
 * through ms_mail_parse), and the same bytes are fed to the Date and
 * Subject parsers and to the patch-id scanner directly.
 */
#include "mail.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_mail *m;
	struct ms_mail_subject s;
	char *str, hex[41];
	int64_t t;
	int tz;

	m = ms_mail_parse((const char *)data, size, 0,
			  MS_MAIL_PARSE_KEEP_BODY);
	ms_mail_free(m);

	str = g_strndup((const char *)data, MIN(size, 4096));
	ms_mail_parse_date(str, &t, &tz);
	ms_mail_parse_subject(str, &s);
	ms_mail_subject_release(&s);
	g_free(str);
	ms_patch_id((const char *)data, size, hex);
	return 0;
}
