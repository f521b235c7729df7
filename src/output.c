/*
 * output.c - the emitter's JSON (jansson) and text backends.  This is the
 * only file that includes <jansson.h>.
 */
#include "output.h"
#include "error.h"

#include <assert.h>
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#define MAX_DEPTH 64

struct frame {
	json_t *value;   /* JSON backend: the open container */
	bool is_list;
	bool first;      /* text backend: nothing written in it yet */
};

struct ms_out {
	enum ms_out_format format;
	FILE *fp;
	struct frame stack[MAX_DEPTH];
	int depth;          /* number of open containers */
	char *pending_key;  /* key waiting for its value */
	json_t *root;
	bool dash_pending;  /* text: an object inside a list starts with "- " */
	bool finished;
};

struct ms_out *ms_out_new(enum ms_out_format format, FILE *fp)
{
	struct ms_out *o = g_new0(struct ms_out, 1);

	o->format = format;
	o->fp = fp;
	return o;
}

void ms_out_free(struct ms_out *o)
{
	if (!o)
		return;
	g_free(o->pending_key);
	json_decref(o->root);
	g_free(o);
}

bool ms_out_is_json(const struct ms_out *o)
{
	return o->format == MS_OUT_JSON;
}

FILE *ms_out_fp(const struct ms_out *o)
{
	return o->fp;
}

/* Text backend. */

static void text_indent(struct ms_out *o, int extra)
{
	int n = (o->depth - 1 + extra) * 2;

	for (int i = 0; i < n; i++)
		fputc(' ', o->fp);
}

/*
 * Write what precedes a value: "key: " inside an object, "- " inside a
 * list.  An object inside a list puts its first key right after the dash.
 */
static void text_prefix(struct ms_out *o, bool container, bool is_list)
{
	struct frame *f;

	if (o->depth == 0)
		return;
	f = &o->stack[o->depth - 1];
	f->first = false;
	if (f->is_list) {
		text_indent(o, 0);
		fputs("- ", o->fp);
		if (container && !is_list)
			o->dash_pending = true;
		else if (container)
			fputc('\n', o->fp);
		return;
	}
	if (o->dash_pending)
		o->dash_pending = false;
	else
		text_indent(o, 0);
	fprintf(o->fp, "%s:%s", o->pending_key ? o->pending_key : "?",
		container ? "\n" : " ");
}

/* JSON backend. */

static json_t *json_string_lossy(const char *s)
{
	json_t *j;
	char *valid;

	if (g_utf8_validate(s, -1, NULL))
		return json_string(s);
	valid = g_utf8_make_valid(s, -1);
	j = json_string(valid);
	g_free(valid);
	return j;
}

static void json_put(struct ms_out *o, json_t *v)
{
	struct frame *f;

	assert(v);
	if (o->depth == 0) {
		assert(!o->root);
		o->root = v;
		return;
	}
	f = &o->stack[o->depth - 1];
	if (f->is_list) {
		json_array_append_new(f->value, v);
	} else {
		assert(o->pending_key);
		json_object_set_new(f->value, o->pending_key, v);
	}
}

static void take_key(struct ms_out *o)
{
	g_free(o->pending_key);
	o->pending_key = NULL;
}

static void begin(struct ms_out *o, bool is_list)
{
	struct frame *f;

	assert(o->depth < MAX_DEPTH);
	if (o->format == MS_OUT_JSON) {
		json_t *c = is_list ? json_array() : json_object();

		json_put(o, c);
		f = &o->stack[o->depth++];
		f->value = c;
	} else {
		text_prefix(o, true, is_list);
		f = &o->stack[o->depth++];
		f->value = NULL;
	}
	f->is_list = is_list;
	f->first = true;
	take_key(o);
}

static void end(struct ms_out *o, bool is_list)
{
	struct frame *f;

	assert(o->depth > 0);
	f = &o->stack[o->depth - 1];
	assert(f->is_list == is_list);
	if (o->format == MS_OUT_TEXT && f->first && o->depth > 1) {
		/* An empty container: say so rather than print nothing. */
		if (o->dash_pending) {
			o->dash_pending = false;
			fputs("{}\n", o->fp);
		} else {
			text_indent(o, 0);
			fputs(is_list ? "(none)\n" : "(empty)\n", o->fp);
		}
	}
	o->depth--;
}

void ms_out_begin_document(struct ms_out *o)
{
	begin(o, false);
	if (o->format == MS_OUT_JSON)
		ms_out_kv_int(o, "schema_version", MS_SCHEMA_VERSION);
}

void ms_out_begin_object(struct ms_out *o)
{
	begin(o, false);
}

void ms_out_end_object(struct ms_out *o)
{
	end(o, false);
}

void ms_out_begin_list(struct ms_out *o)
{
	begin(o, true);
}

void ms_out_end_list(struct ms_out *o)
{
	end(o, true);
}

void ms_out_key(struct ms_out *o, const char *key)
{
	assert(o->depth > 0 && !o->stack[o->depth - 1].is_list);
	g_free(o->pending_key);
	o->pending_key = g_strdup(key);
}

static void text_scalar(struct ms_out *o, const char *repr)
{
	text_prefix(o, false, false);
	fputs(repr, o->fp);
	fputc('\n', o->fp);
	take_key(o);
}

void ms_out_string(struct ms_out *o, const char *s)
{
	if (!s) {
		ms_out_null(o);
		return;
	}
	if (o->format == MS_OUT_JSON) {
		json_put(o, json_string_lossy(s));
		take_key(o);
	} else {
		char *one_line = g_strdup(s);

		/* Text output is line-oriented: fold control characters. */
		for (char *p = one_line; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = ' ';
		text_scalar(o, one_line);
		g_free(one_line);
	}
}

void ms_out_int(struct ms_out *o, int64_t v)
{
	if (o->format == MS_OUT_JSON) {
		json_put(o, json_integer(v));
		take_key(o);
	} else {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRId64, v);
		text_scalar(o, buf);
	}
}

void ms_out_real(struct ms_out *o, double v)
{
	if (o->format == MS_OUT_JSON) {
		json_put(o, json_real(v));
		take_key(o);
	} else {
		char buf[64];

		snprintf(buf, sizeof(buf), "%.4g", v);
		text_scalar(o, buf);
	}
}

void ms_out_bool(struct ms_out *o, bool v)
{
	if (o->format == MS_OUT_JSON) {
		json_put(o, json_boolean(v));
		take_key(o);
	} else {
		text_scalar(o, v ? "yes" : "no");
	}
}

void ms_out_null(struct ms_out *o)
{
	if (o->format == MS_OUT_JSON) {
		json_put(o, json_null());
		take_key(o);
	} else {
		text_scalar(o, "-");
	}
}

void ms_out_kv_string(struct ms_out *o, const char *key, const char *s)
{
	ms_out_key(o, key);
	ms_out_string(o, s);
}

void ms_out_kv_int(struct ms_out *o, const char *key, int64_t v)
{
	ms_out_key(o, key);
	ms_out_int(o, v);
}

void ms_out_kv_real(struct ms_out *o, const char *key, double v)
{
	ms_out_key(o, key);
	ms_out_real(o, v);
}

void ms_out_kv_bool(struct ms_out *o, const char *key, bool v)
{
	ms_out_key(o, key);
	ms_out_bool(o, v);
}

void ms_out_kv_null(struct ms_out *o, const char *key)
{
	ms_out_key(o, key);
	ms_out_null(o);
}

int ms_out_finish(struct ms_out *o)
{
	if (o->finished)
		return 0;
	while (o->depth > 0)
		end(o, o->stack[o->depth - 1].is_list);
	o->finished = true;
	if (o->format == MS_OUT_JSON && o->root) {
		if (json_dumpf(o->root, o->fp,
			       JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
			return ms_error_set(MS_ERROR, "cannot write JSON output");
		fputc('\n', o->fp);
	}
	if (fflush(o->fp) != 0 || ferror(o->fp))
		return ms_error_set_errno(MS_ERROR, errno,
					  "cannot write output");
	return 0;
}
