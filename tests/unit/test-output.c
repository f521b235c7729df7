#include "test.h"
#include "output.h"

#include <glib.h>

static char *render(enum ms_out_format fmt, void (*fill)(struct ms_out *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct ms_out *o = ms_out_new(fmt, fp);

	fill(o);
	ms_out_finish(o);
	ms_out_free(o);
	fclose(fp);
	return buf;
}

static void fill_paths(struct ms_out *o)
{
	ms_out_begin_document(o);
	ms_out_key(o, "paths");
	ms_out_begin_list(o);
	ms_out_begin_object(o);
	ms_out_kv_string(o, "path", "net/tls/tls_main.c");
	ms_out_key(o, "sections");
	ms_out_begin_list(o);
	ms_out_string(o, "NETWORKING [TLS]");
	ms_out_string(o, "THE REST");
	ms_out_end_list(o);
	ms_out_end_object(o);
	ms_out_end_list(o);
	ms_out_kv_int(o, "count", 3);
	ms_out_kv_null(o, "none");
	ms_out_kv_bool(o, "flag", true);
	ms_out_kv_string(o, "bad", "a\xff" "b");
	ms_out_key(o, "empty");
	ms_out_begin_list(o);
	ms_out_end_list(o);
	/* left open on purpose: finish closes it */
}

int main(void)
{
	char *json = render(MS_OUT_JSON, fill_paths);
	char *text = render(MS_OUT_TEXT, fill_paths);

	is_str(json,
	       "{\n"
	       "  \"schema_version\": 1,\n"
	       "  \"paths\": [\n"
	       "    {\n"
	       "      \"path\": \"net/tls/tls_main.c\",\n"
	       "      \"sections\": [\n"
	       "        \"NETWORKING [TLS]\",\n"
	       "        \"THE REST\"\n"
	       "      ]\n"
	       "    }\n"
	       "  ],\n"
	       "  \"count\": 3,\n"
	       "  \"none\": null,\n"
	       "  \"flag\": true,\n"
	       "  \"bad\": \"a\xef\xbf\xbd" "b\",\n"
	       "  \"empty\": []\n"
	       "}\n", "JSON document, schema_version first, invalid UTF-8 "
	       "replaced");
	is_str(text,
	       "paths:\n"
	       "  - path: net/tls/tls_main.c\n"
	       "    sections:\n"
	       "      - NETWORKING [TLS]\n"
	       "      - THE REST\n"
	       "count: 3\n"
	       "none: -\n"
	       "flag: yes\n"
	       "bad: a\xff" "b\n"
	       "empty:\n"
	       "  (none)\n", "text rendering");
	free(json);
	free(text);
	return test_done();
}
