/*
 * store-json.c - the JSON columns of the store (store-internal.h).
 *
 * A record's trailers and paths are stored as JSON arrays (SQLite's
 * json_each() turns them into rows for the views of docs/store.md); the
 * few lines below that write and read them handle only those two shapes.
 */
#include "store-internal.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the JSON of trailers and paths ---- */

static void json_str(GString *o, const char *s)
{
	if (!s) {
		g_string_append(o, "null");
		return;
	}
	g_string_append_c(o, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			g_string_append_c(o, '\\');
			g_string_append_c(o, (char)*p);
		} else if (*p < 0x20) {
			g_string_append_printf(o, "\\u%04x", *p);
		} else {
			g_string_append_c(o, (char)*p);
		}
	}
	g_string_append_c(o, '"');
}

void store_encode_paths(GString *o, const struct ms_commit *c)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (size_t i = 0; i < c->nr_paths; i++) {
		if (i)
			g_string_append_c(o, ',');
		json_str(o, c->paths[i]);
	}
	g_string_append_c(o, ']');
}

void store_encode_trailers(GString *o, const struct ms_commit *c)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct ms_commit_trailer *t = &c->trailers[i];

		g_string_append_printf(o, "%s[%d,", i ? "," : "",
				       (int)t->kind);
		json_str(o, t->token);
		g_string_append_c(o, ',');
		json_str(o, t->value);
		g_string_append_printf(o, ",%d,", t->is_person ? 1 : 0);
		json_str(o, t->name);
		g_string_append_c(o, ',');
		json_str(o, t->email);
		g_string_append_c(o, ']');
	}
	g_string_append_c(o, ']');
}

static void jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' ||
				 *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static bool jp_char(struct jp *j, char c)
{
	jp_ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static bool jp_hex4(struct jp *j, unsigned *v)
{
	*v = 0;
	if (j->end - j->p < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		int d = g_ascii_xdigit_value(*j->p++);

		if (d < 0)
			return false;
		*v = *v * 16 + (unsigned)d;
	}
	return true;
}

/* A string into chunk (*out), or null (*out = NULL). */
static bool jp_string(struct jp *j, GStringChunk *chunk, const char **out)
{
	jp_ws(j);
	if (j->end - j->p >= 4 && !strncmp(j->p, "null", 4)) {
		j->p += 4;
		*out = NULL;
		return true;
	}
	if (!jp_char(j, '"'))
		return false;
	/* the common case: no escapes, insert straight from the record */
	for (const char *q = j->p; q < j->end; q++) {
		if (*q == '\\')
			break;
		if (*q == '"') {
			*out = g_string_chunk_insert_len(chunk, j->p,
							 (gssize)(q - j->p));
			j->p = q + 1;
			return true;
		}
	}
	g_string_truncate(j->buf, 0);
	while (j->p < j->end && *j->p != '"') {
		unsigned v, lo;

		if (*j->p != '\\') {
			g_string_append_c(j->buf, *j->p++);
			continue;
		}
		if (++j->p >= j->end)
			return false;
		switch (*j->p++) {
		case '"': g_string_append_c(j->buf, '"'); break;
		case '\\': g_string_append_c(j->buf, '\\'); break;
		case '/': g_string_append_c(j->buf, '/'); break;
		case 'b': g_string_append_c(j->buf, '\b'); break;
		case 'f': g_string_append_c(j->buf, '\f'); break;
		case 'n': g_string_append_c(j->buf, '\n'); break;
		case 'r': g_string_append_c(j->buf, '\r'); break;
		case 't': g_string_append_c(j->buf, '\t'); break;
		case 'u':
			if (!jp_hex4(j, &v))
				return false;
			if (v >= 0xd800 && v < 0xdc00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u') {
				j->p += 2;
				if (!jp_hex4(j, &lo))
					return false;
				v = 0x10000 + ((v - 0xd800) << 10) +
					(lo - 0xdc00);
			}
			if (v < 0x80)
				g_string_append_c(j->buf, (char)v);
			else
				g_string_append_unichar(j->buf, v);
			break;
		default:
			return false;
		}
	}
	if (j->p >= j->end)
		return false;
	j->p++;
	*out = g_string_chunk_insert_len(chunk, j->buf->str,
					 (gssize)j->buf->len);
	return true;
}

static bool jp_int(struct jp *j, int *v)
{
	bool neg = false;

	jp_ws(j);
	if (j->p < j->end && *j->p == '-') {
		neg = true;
		j->p++;
	}
	if (j->p >= j->end || !g_ascii_isdigit(*j->p))
		return false;
	*v = 0;
	while (j->p < j->end && g_ascii_isdigit(*j->p))
		*v = *v * 10 + (*j->p++ - '0');
	if (neg)
		*v = -*v;
	return true;
}

bool store_decode_paths(struct jp *j, GStringChunk *chunk, GPtrArray *out)
{
	if (!jp_char(j, '['))
		return false;
	if (jp_char(j, ']'))
		return true;
	do {
		const char *s;

		if (!jp_string(j, chunk, &s) || !s)
			return false;
		g_ptr_array_add(out, (char *)s);
	} while (jp_char(j, ','));
	return jp_char(j, ']');
}

bool store_decode_trailers(struct jp *j, GStringChunk *chunk, GArray *out)
{
	if (!jp_char(j, '['))
		return false;
	if (jp_char(j, ']'))
		return true;
	do {
		struct ms_commit_trailer t = { 0 };
		int kind, person;

		if (!jp_char(j, '[') || !jp_int(j, &kind) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.token) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.value) ||
		    !jp_char(j, ',') || !jp_int(j, &person) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.name) ||
		    !jp_char(j, ',') || !jp_string(j, chunk, &t.email) ||
		    !jp_char(j, ']') || !t.token || !t.value)
			return false;
		t.kind = (enum ms_trailer_kind)kind;
		t.is_person = person != 0;
		g_array_append_val(out, t);
	} while (jp_char(j, ','));
	return jp_char(j, ']');
}

/* ---- the JSON of mail records ---- */

void store_strings_json(GString *o, const GPtrArray *a)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (guint i = 0; a && i < a->len; i++) {
		if (i)
			g_string_append_c(o, ',');
		json_str(o, a->pdata[i]);
	}
	g_string_append_c(o, ']');
}

void store_mail_trailers_json(GString *o, const GPtrArray *a)
{
	g_string_truncate(o, 0);
	g_string_append_c(o, '[');
	for (guint i = 0; a && i < a->len; i++) {
		const struct ms_mail_trailer *t = a->pdata[i];

		g_string_append_printf(o, "%s[%d,", i ? "," : "",
				       (int)t->kind);
		json_str(o, t->token ? t->token : "");
		g_string_append_c(o, ',');
		json_str(o, t->value ? t->value : "");
		g_string_append(o, ",0,");
		json_str(o, t->name);
		g_string_append_c(o, ',');
		json_str(o, t->email);
		g_string_append_c(o, ']');
	}
	g_string_append_c(o, ']');
}

static void jscratch_reset(struct jscratch *js)
{
	if (!js->chunk) {
		js->chunk = g_string_chunk_new(256);
		js->tmp = g_ptr_array_new();
		js->ttmp = g_array_new(FALSE, FALSE,
				       sizeof(struct ms_commit_trailer));
		js->buf = g_string_new(NULL);
	}
	g_string_chunk_clear(js->chunk);
	g_ptr_array_set_size(js->tmp, 0);
	g_array_set_size(js->ttmp, 0);
}

void store_jscratch_release(struct jscratch *js)
{
	if (!js->chunk)
		return;
	g_string_chunk_free(js->chunk);
	g_ptr_array_free(js->tmp, TRUE);
	g_array_free(js->ttmp, TRUE);
	g_string_free(js->buf, TRUE);
	memset(js, 0, sizeof(*js));
}

/* A JSON array of strings (the store's own format) appended to `out` as
 * g_strdup'ed strings; false when `text` is not one. */
bool store_json_strings(const char *text, int len, GPtrArray *out,
			 struct jscratch *js)
{
	struct jp j;
	bool ok;

	if (text && len == 2 && text[0] == '[' && text[1] == ']')
		return true;    /* the common case, without the set-up */
	if (!text)
		return false;
	jscratch_reset(js);
	j = (struct jp){ text, text + len, js->buf };
	ok = store_decode_paths(&j, js->chunk, js->tmp);
	for (guint i = 0; ok && i < js->tmp->len; i++)
		g_ptr_array_add(out, g_strdup(js->tmp->pdata[i]));
	return ok;
}

bool store_json_mail_trailers(const char *text, int len, GPtrArray *out,
			       struct jscratch *js)
{
	struct jp j;
	bool ok;

	if (text && len == 2 && text[0] == '[' && text[1] == ']')
		return true;
	if (!text)
		return false;
	jscratch_reset(js);
	j = (struct jp){ text, text + len, js->buf };
	ok = store_decode_trailers(&j, js->chunk, js->ttmp);
	for (guint i = 0; ok && i < js->ttmp->len; i++) {
		const struct ms_commit_trailer *ct =
			&g_array_index(js->ttmp, struct ms_commit_trailer, i);
		struct ms_mail_trailer *t = g_new0(struct ms_mail_trailer, 1);

		t->kind = ct->kind;
		t->token = g_strdup(ct->token);
		t->value = g_strdup(ct->value);
		t->name = g_strdup(ct->name);
		t->email = g_strdup(ct->email);
		g_ptr_array_add(out, t);
	}
	return ok;
}
