/*
 * fuzz-trailer.c - libFuzzer target for the trailer parser: one input is
 * a commit message; its trailer block is found as git interpret-trailers
 * does and every line of it, and of the whole input, is parsed.
 */
#include "trailer.h"

#include <glib.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse_lines(const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct ms_trailer_line t;

		if (ms_trailer_parse_line(p, len, &t))
			(void)ms_trailer_kind_name(t.kind);
		p += len + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *msg = (const char *)data;
	size_t start, end;

	if (ms_trailer_block(msg, size, &start, &end) && start <= end &&
	    end <= size)
		parse_lines(msg + start, msg + end);
	parse_lines(msg, msg + size);
	return 0;
}
