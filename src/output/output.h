/*
 * output.h - the one structured-output emitter (after notmuch's sprinter).
 *
 * A command describes its result once, as a tree of objects, lists and
 * scalars, and a backend writes it: JSON (every key and scalar as
 * jansson encodes it, one document per run, with "schema_version" first,
 * laid out as jansson's JSON_INDENT(2)) or a plain, indented text rendering.  Commands
 * with a prescribed human layout (the activity report) may write their text
 * themselves when ms_out_is_json() is false; JSON is never built by hand
 * anywhere.
 *
 * Output is written as it is emitted, in both formats: nothing is held
 * back for ms_out_finish() (which closes what is still open, ends the
 * document with a newline and flushes).  So a command computes its result
 * first and emits it afterwards; if it emits and then fails, standard
 * output holds a partial document and the command exits 1 (as git and curl
 * do).  Writes go through the FILE's own buffering; JSON is gathered in
 * blocks of 64 KiB first, handed to the FILE when full, by ms_out_finish()
 * and by ms_out_free(), so nothing else may write to the FILE while a JSON
 * document is open.
 *
 * Strings and keys that are not valid UTF-8 are written with each invalid
 * sequence replaced by U+FFFD, so odd input never makes a document invalid.
 *
 * Keys must be unique within an object: the JSON backend writes a member
 * per ms_out_key(), so a repeated key appears twice, in emission order (the
 * earlier tree-building backend kept one, replaced in place).  No command
 * repeats a key.  A key with no value before the next key or the end of its
 * object is dropped.  Misnesting (a value in an object without a key, an
 * end that does not match its begin, a second top-level value) is a
 * programmer error and asserts.
 */
#ifndef MS_OUTPUT_H
#define MS_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <glib.h>

/*
 * Reading back a document maintstat printed (`people --compare`): for
 * each object of the list under the top-level key `list` of JSON `text`
 * (`len` bytes, named `file` in errors), `fn` gets its string member `id`
 * and its integer member `value` ("a.b": member b of its object a;
 * objects without both are skipped), in order.  Returns 0, or MS_EPARSE ("FILE: line N: why").
 */
int ms_json_read_list(const char *file, const char *text, size_t len,
		      const char *list, const char *id, const char *value,
		      void (*fn)(const char *id, int64_t value, void *data),
		      void *data);

/* The version of every JSON document maintstat prints; see docs/json.md. */
#define MS_SCHEMA_VERSION 10

enum ms_out_format {
	MS_OUT_TEXT,
	MS_OUT_JSON,
};

struct ms_out;

/* A new emitter writing to `fp` (borrowed).  Never NULL. */
struct ms_out *ms_out_new(enum ms_out_format format, FILE *fp);

/*
 * Free an emitter without writing anything more (what was emitted so far
 * has been written already, unfinished); NULL is a no-op.
 */
void ms_out_free(struct ms_out *o);

bool ms_out_is_json(const struct ms_out *o);
FILE *ms_out_fp(const struct ms_out *o);

/*
 * Begin the top-level object.  In JSON its first member is
 * "schema_version": MS_SCHEMA_VERSION; text shows nothing for it.
 */
void ms_out_begin_document(struct ms_out *o);

void ms_out_begin_object(struct ms_out *o);
void ms_out_end_object(struct ms_out *o);
void ms_out_begin_list(struct ms_out *o);
void ms_out_end_list(struct ms_out *o);

/* The key of the next value inside an object (borrowed: it must stay as
 * it is until that value, or the container it opens, is written). */
void ms_out_key(struct ms_out *o, const char *key);

/*
 * Scalars: inside a list, or after ms_out_key() inside an object.  JSON
 * has no NaN or infinity: ms_out_real() writes those as null.
 */
void ms_out_string(struct ms_out *o, const char *s); /* NULL writes null */
void ms_out_int(struct ms_out *o, int64_t v);
void ms_out_real(struct ms_out *o, double v);
void ms_out_bool(struct ms_out *o, bool v);
void ms_out_null(struct ms_out *o);

/* Shorthands for ms_out_key() followed by a scalar. */
void ms_out_kv_string(struct ms_out *o, const char *key, const char *s);
void ms_out_kv_int(struct ms_out *o, const char *key, int64_t v);
void ms_out_kv_real(struct ms_out *o, const char *key, double v);
void ms_out_kv_bool(struct ms_out *o, const char *key, bool v);
void ms_out_kv_null(struct ms_out *o, const char *key);
/* ms_out_key() followed by opening a list or an object. */
void ms_out_kv_begin_list(struct ms_out *o, const char *key);
void ms_out_kv_begin_object(struct ms_out *o, const char *key);
/* `key`: a list of the `n` strings of `v`. */
void ms_out_kv_strings(struct ms_out *o, const char *key,
		       const char *const *v, size_t n);

/*
 * JSON, for a container written again and again at the same depth:
 * ms_out_kv_recorded() writes `*v` as `key`'s value and returns true when
 * it holds one; else it returns false and keeps the bytes of the next
 * value, which ms_out_recorded() puts in `*v` (g_string_free) after it.
 */
bool ms_out_kv_recorded(struct ms_out *o, const char *key, GString **v);
void ms_out_recorded(struct ms_out *o, GString **v);

/*
 * End the document: close anything still open, write the final newline
 * and flush.  Returns 0, or MS_ERROR when any write failed (a full disk
 * must not pass; the message carries the write's error) or when the JSON
 * document was not an object or list (a top-level scalar, of which nothing
 * is written: "cannot write JSON output").  A second call does nothing.
 */
int ms_out_finish(struct ms_out *o);

/*
 * The one sanitising printer's rule, for text that reaches a terminal:
 * append `in` (`len` bytes) to `out` with every control character but
 * tab and newline (C0, DEL, and C1 as UTF-8, U+0080 to U+009F) written as
 * '?', so that an ESC or BEL from a Subject or a MAINTAINERS title cannot
 * retitle or recolour the terminal.  `state` (0 before the first call)
 * carries a split UTF-8 sequence from one call to the next.  The CLI
 * sends all of standard output and every message through it.
 */
void ms_out_sanitize(GString *out, const char *in, size_t len, int *state);
/* How many bytes at the start of `in` (`len` bytes) ms_out_sanitize()
 * writes as they are, after a state of 0. */
size_t ms_out_plain(const char *in, size_t len);

#endif
