/*
 * output.c - the emitter's JSON (jansson) and text backends.  This is the
 * only file that includes <jansson.h>.
 *
 * JSON is streamed: each event is written to the FILE as it arrives, with
 * exactly the layout json_dumpf(root, fp, JSON_INDENT(2) |
 * JSON_PRESERVE_ORDER) gives the same document built as a tree (which is
 * what this file did before; building, dumping and freeing that tree was a
 * seventh of a warm `link --json`).  jansson still encodes every key and
 * scalar (json_dumpb with JSON_ENCODE_ANY), so escaping and number
 * formatting stay jansson's; this file writes only the structure.  Two
 * exceptions, whose encoding jansson's dump.c fixes (tests/unit/
 * test-output.c checks them against it): a string of printable ASCII
 * without '"' and '\\' is itself between quotes, and an integer is
 * "%" JSON_INTEGER_FORMAT; asking jansson for those was half of printing
 * `link --json`.
 */
#include "output.h"
#include "error.h"

#include <assert.h>
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <jansson.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAX_DEPTH 64

/*
 * Keys are nearly always a command's few literals, written once per member:
 * their encodings are kept, up to this many different keys per emitter.
 */
#define MAX_CACHED_KEYS 256

/*
 * JSON is handed to the FILE in blocks of about this size: a call of
 * fwrite() per event was a fifth of printing a large report.
 */
#define OUT_BLOCK (64 * 1024)

/*
 * What jansson writes between two values with JSON_INDENT(2): a comma
 * (from newline_indent - 1), a newline and two spaces per level, enough
 * for MAX_DEPTH levels.
 */
#define INDENT_WIDTH 2
static const char comma_newline_indent[] =
	",\n"
	"                                                                "
	"                                                                ";
static const char *const newline_indent = comma_newline_indent + 1;
G_STATIC_ASSERT(sizeof(comma_newline_indent) - 3 >= MAX_DEPTH * INDENT_WIDTH);

struct frame {
	bool is_list;
	bool first;      /* nothing written in it yet */
};

/* A growing buffer that jansson encodes one key or scalar into. */
struct enc_buf {
	char *data;
	size_t size;
	size_t len;
};

struct ms_out {
	enum ms_out_format format;
	FILE *fp;
	struct frame stack[MAX_DEPTH];
	int depth;          /* number of open containers */
	const char *key;    /* key waiting for its value, if has_key
			     * (the caller's) */
	bool has_key;
	bool dash_pending;  /* text: an object inside a list starts with "- " */
	bool finished;
	/* JSON backend */
	bool has_root;      /* the top-level value has begun */
	bool failed;        /* a value not written: jansson could not encode
			     * it, or it was a scalar outside any container */
	int write_errno;    /* the first failed write's errno, or 0 */
	json_t *str;        /* reused holders of one scalar */
	json_t *real;
	struct enc_buf enc_key, enc_value;
	GHashTable *key_cache; /* key -> GString of its encoding */
	struct {                /* the last key's entry of key_cache, by */
		const char *ptr, *key; /* the caller's pointer: most keys */
		const GString *enc;    /* are literals, written again and */
	} last[256];                   /* again (a hash a member) */
	GHashTable *real_cache; /* a double's bits -> GString of its
				 * encoding: a person's shares are written
				 * with each patch they answer */
	GString *out;       /* events not yet handed to the FILE */
	bool rec_next;      /* the next value is recorded (its bytes kept */
	size_t rec_at;      /* from o->out[rec_at], unflushed) */
};

static void json_flush(struct ms_out *o);

static void free_gstring(gpointer s)
{
	g_string_free(s, TRUE);
}

struct ms_out *ms_out_new(enum ms_out_format format, FILE *fp)
{
	struct ms_out *o = g_new0(struct ms_out, 1);

	o->format = format;
	o->fp = fp;
	if (format == MS_OUT_JSON) {
		o->str = json_string("");
		o->real = json_real(0.0);
		o->out = g_string_sized_new(OUT_BLOCK + 4096);
		o->key_cache = g_hash_table_new_full(g_str_hash, g_str_equal,
						     g_free, free_gstring);
		o->real_cache = g_hash_table_new_full(g_int64_hash,
			g_int64_equal, g_free, free_gstring);
	}
	return o;
}

void ms_out_free(struct ms_out *o)
{
	if (!o)
		return;
	json_decref(o->str);
	json_decref(o->real);
	g_free(o->enc_key.data);
	g_free(o->enc_value.data);
	if (o->out) {
		json_flush(o);
		g_string_free(o->out, TRUE);
	}
	g_clear_pointer(&o->key_cache, g_hash_table_destroy);
	g_clear_pointer(&o->real_cache, g_hash_table_destroy);
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

static void take_key(struct ms_out *o)
{
	o->has_key = false;
}

/* Text backend. */

static void text_indent(struct ms_out *o)
{
	int n = (o->depth - 1) * 2;

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
		text_indent(o);
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
		text_indent(o);
	fprintf(o->fp, "%s:%s", o->has_key ? o->key : "?",
		container ? "\n" : " ");
}

/* JSON backend. */

/* Hand what was emitted so far to the FILE. */
static void json_flush(struct ms_out *o)
{
	size_t len = o->out->len;

	if (len && fwrite(o->out->str, 1, len, o->fp) != len &&
	    !o->write_errno)
		o->write_errno = errno ? errno : EIO;
	g_string_truncate(o->out, 0);
}

/* `len` bytes at `data` after `s` (g_string_append_len(), inline when
 * they fit: a call a piece was a tenth of printing `pending --json`) */
static inline void put(GString *s, const char *data, size_t len)
{
	if (s->len + len >= s->allocated_len) {
		g_string_append_len(s, data, (gssize)len);
		return;
	}
	memcpy(s->str + s->len, data, len);
	s->len += len;
	s->str[s->len] = '\0';
}

static void json_write(struct ms_out *o, const char *data, size_t len)
{
	put(o->out, data, len);
	if (o->out->len >= OUT_BLOCK && !o->rec_at)
		json_flush(o);
}

/*
 * `v` as jansson writes it (JSON_ENCODE_ANY: a scalar alone), into `b`.
 * Returns false when jansson cannot encode it.
 */
static bool encode(struct enc_buf *b, const json_t *v)
{
	size_t n;

	if (!v)
		return false;
	n = json_dumpb(v, b->data, b->size, JSON_ENCODE_ANY);
	if (n > b->size) {
		b->size = MAX(n, 2 * b->size);
		b->data = g_realloc(b->data, b->size);
		n = json_dumpb(v, b->data, b->size, JSON_ENCODE_ANY);
	}
	if (n == 0 || n > b->size)
		return false;
	b->len = n;
	return true;
}

/*
 * A string as jansson's json_string() holds it: text that is not valid
 * UTF-8 gets each invalid sequence replaced by U+FFFD.
 */
static bool encode_string(struct ms_out *o, struct enc_buf *b, const char *s)
{
	char *valid = NULL;
	int rc;

	if (!g_utf8_validate(s, -1, NULL))
		s = valid = g_utf8_make_valid(s, -1);
	rc = json_string_set_nocheck(o->str, s);
	g_free(valid);
	return rc == 0 && encode(b, o->str);
}

/*
 * Append the pending key as jansson writes it to o->out.  Returns false
 * when jansson cannot encode it.
 */
static bool append_key(struct ms_out *o)
{
	/* Fibonacci hashing of the pointer: the literals of one printer
	 * lie close together, and (ptr >> 3) % 64 put a third of them on
	 * another's slot */
	unsigned slot = (unsigned)(((uint64_t)(uintptr_t)o->key *
				    0x9e3779b97f4a7c15u) >> 56);
	const GString *enc = NULL;
	char *key;

	G_STATIC_ASSERT(G_N_ELEMENTS(o->last) == 256);
	if (o->last[slot].ptr == o->key &&
	    !strcmp(o->last[slot].key, o->key))
		enc = o->last[slot].enc;
	else if (g_hash_table_lookup_extended(o->key_cache, o->key,
					      (gpointer *)&key,
					      (gpointer *)&enc))
		o->last[slot].ptr = o->key, o->last[slot].key = key,
		o->last[slot].enc = enc;
	if (!enc) {
		GString *e;

		if (!encode_string(o, &o->enc_key, o->key))
			return false;
		if (g_hash_table_size(o->key_cache) >= MAX_CACHED_KEYS) {
			put(o->out, o->enc_key.data, o->enc_key.len);
			put(o->out, ": ", 2);
			return true;
		}
		enc = e = g_string_new_len(o->enc_key.data,
					   (gssize)o->enc_key.len);
		g_string_append(e, ": ");
		g_hash_table_insert(o->key_cache, g_strdup(o->key), e);
	}
	put(o->out, enc->str, enc->len);
	return true;
}

/*
 * Append to o->out what jansson writes before a value in the open
 * container: the separator, the line break and indentation and, inside an
 * object, the key; nothing when the key cannot be encoded (false).  A
 * value outside any container is the document itself.  The value follows
 * it in o->out, then json_done().
 */
static bool json_prefix(struct ms_out *o)
{
	struct frame *f;
	size_t at = o->out->len;

	if (o->depth == 0) {
		assert(!o->has_root);
		o->has_root = true;
		return true;
	}
	f = &o->stack[o->depth - 1];
	put(o->out, newline_indent - !f->first,
	    1 + !f->first + (size_t)o->depth * INDENT_WIDTH);
	if (!f->is_list) {
		assert(o->has_key);
		if (!append_key(o)) {   /* (the key and ": ") */
			g_string_truncate(o->out, at);
			return false;
		}
	}
	f->first = false;
	if (o->rec_next)
		o->rec_at = o->out->len, o->rec_next = false;
	return true;
}

/* A value written after json_prefix(): hand a full block to the FILE. */
static void json_done(struct ms_out *o)
{
	if (o->out->len >= OUT_BLOCK && !o->rec_at)
		json_flush(o);
}

/*
 * Whether jansson writes `s` as it is between quotes: printable ASCII
 * with no '"' or '\\' (jansson escapes those and control characters
 * only; '/' and DEL are written as they are).  Its length in *len.
 */
static bool plain_ascii(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

#ifdef __SSE2__
	/* 16 bytes at a time, the last 16 for the rest (a byte a step
	 * was a twentieth of review --json): from 0x80, a byte is below
	 * 0x20 as a signed char */
	for (; n >= 16 && i < n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)
					    (p + MIN(i, n - 16)));

		if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
			_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
			_mm_cmpeq_epi8(x, _mm_set1_epi8('"'))),
			_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))))
			return false;
	}
#endif
	for (; i < n; i++)
		if (p[i] < 0x20 || p[i] >= 0x80 || p[i] == '"' || p[i] == '\\')
			return false;
	*len = n;
	return true;
}

/* Write the already encoded scalar `enc` (`len` bytes) next. */
static void json_scalar_encoded(struct ms_out *o, const char *enc,
				size_t len)
{
	if (o->depth > 0 && json_prefix(o)) {
		put(o->out, enc, len);
		json_done(o);
	} else {
		o->failed = true;
	}
	take_key(o);
}

/* Write the string `s` of plain_ascii() next. */
static void json_plain_string(struct ms_out *o, const char *s, size_t len)
{
	if (o->depth > 0 && json_prefix(o)) {
		put(o->out, "\"", 1);
		put(o->out, s, len);
		put(o->out, "\"", 1);
		json_done(o);
	} else {
		o->failed = true;
	}
	take_key(o);
}

/* Write the scalar `v` (NULL: jansson could not make it) next. */
static void json_scalar(struct ms_out *o, const json_t *v)
{
	/* json_dumpf() writes no document that is not a container. */
	if (o->depth > 0 && encode(&o->enc_value, v) && json_prefix(o)) {
		put(o->out, o->enc_value.data, o->enc_value.len);
		json_done(o);
	} else {
		o->failed = true;
	}
	take_key(o);
}

static void begin(struct ms_out *o, bool is_list)
{
	struct frame *f;

	assert(o->depth < MAX_DEPTH);
	if (o->format == MS_OUT_JSON) {
		if (json_prefix(o)) {
			put(o->out, is_list ? "[" : "{", 1);
			json_done(o);
		} else {
			/* Only a key jansson cannot encode; keep the nesting. */
			o->failed = true;
		}
	} else {
		text_prefix(o, true, is_list);
	}
	f = &o->stack[o->depth++];
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
	if (o->format == MS_OUT_JSON) {
		char closer = is_list ? ']' : '}';

		/* jansson: "[]" when empty, else the closer on its own line. */
		if (!f->first)
			json_write(o, newline_indent,
				   1 + (size_t)(o->depth - 1) * INDENT_WIDTH);
		json_write(o, &closer, 1);
	} else if (f->first && o->depth > 1) {
		/* An empty container: say so rather than print nothing. */
		if (o->dash_pending) {
			o->dash_pending = false;
			fputs("{}\n", o->fp);
		} else {
			text_indent(o);
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
	o->key = key ? key : "";
	o->has_key = key != NULL;
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
		char *valid = NULL;
		size_t len;

		/* nearly every string: what jansson would write, without
		 * asking it (a third of a `link --json` report's time) */
		if (plain_ascii(s, &len)) {
			json_plain_string(o, s, len);
			return;
		}
		if (!g_utf8_validate(s, -1, NULL))
			s = valid = g_utf8_make_valid(s, -1);
		json_scalar(o, json_string_set_nocheck(o->str, s) == 0 ?
			    o->str : NULL);
		g_free(valid);
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
		/* jansson writes "%" JSON_INTEGER_FORMAT of its json_int_t
		 * (its decimal digits; snprintf() was a third of printing
		 * a number) */
		char buf[24], *p = buf + sizeof(buf);
		uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

		G_STATIC_ASSERT(sizeof(json_int_t) == sizeof(int64_t));
		do
			*--p = (char)('0' + u % 10);
		while (u /= 10);
		if (v < 0)
			*--p = '-';
		json_scalar_encoded(o, p, (size_t)(buf + sizeof(buf) - p));
	} else {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRId64, v);
		text_scalar(o, buf);
	}
}

void ms_out_real(struct ms_out *o, double v)
{
	if (o->format == MS_OUT_JSON) {
		gint64 bits;
		GString *enc;

		memcpy(&bits, &v, sizeof(bits));
		enc = g_hash_table_lookup(o->real_cache, &bits);
		/* JSON has no NaN or infinity: those are written as null. */
		if (!enc && json_real_set(o->real, v) != 0) {
			json_scalar(o, json_null());
			return;
		}
		if (!enc && (g_hash_table_size(o->real_cache) >=
			     MAX_CACHED_KEYS * 16 ||
			     !encode(&o->enc_value, o->real))) {
			json_scalar(o, o->real);
			return;
		}
		if (!enc) {
			enc = g_string_new_len(o->enc_value.data,
					       (gssize)o->enc_value.len);
			g_hash_table_insert(o->real_cache,
					    g_memdup2(&bits, sizeof(bits)),
					    enc);
		}
		json_scalar_encoded(o, enc->str, enc->len);
	} else {
		char buf[64];

		snprintf(buf, sizeof(buf), "%.4g", v);
		text_scalar(o, buf);
	}
}

void ms_out_bool(struct ms_out *o, bool v)
{
	if (o->format == MS_OUT_JSON)   /* as jansson writes them */
		json_scalar_encoded(o, v ? "true" : "false", v ? 4 : 5);
	else
		text_scalar(o, v ? "yes" : "no");
}

void ms_out_null(struct ms_out *o)
{
	if (o->format == MS_OUT_JSON)
		json_scalar_encoded(o, "null", 4);
	else
		text_scalar(o, "-");
}

bool ms_out_kv_recorded(struct ms_out *o, const char *key, GString **v)
{
	assert(o->format == MS_OUT_JSON && o->depth > 0);
	if (*v) {
		ms_out_key(o, key);
		json_scalar_encoded(o, (*v)->str, (*v)->len);
	}
	o->rec_next = !*v;
	return *v != NULL;
}

void ms_out_recorded(struct ms_out *o, GString **v)
{
	/* (nothing when the value could not begin: o->failed says so) */
	size_t at = o->rec_at ? o->rec_at : o->out->len;

	*v = g_string_new_len(o->out->str + at, (gssize)(o->out->len - at));
	o->rec_at = 0, o->rec_next = false;
	json_done(o);
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

void ms_out_kv_begin_list(struct ms_out *o, const char *key)
{
	ms_out_key(o, key);
	ms_out_begin_list(o);
}

void ms_out_kv_begin_object(struct ms_out *o, const char *key)
{
	ms_out_key(o, key);
	ms_out_begin_object(o);
}

void ms_out_kv_strings(struct ms_out *o, const char *key,
		       const char *const *v, size_t n)
{
	ms_out_key(o, key);
	ms_out_begin_list(o);
	for (size_t i = 0; i < n; i++)
		ms_out_string(o, v[i]);
	ms_out_end_list(o);
}

int ms_out_finish(struct ms_out *o)
{
	if (o->finished)
		return 0;
	while (o->depth > 0)
		end(o, o->stack[o->depth - 1].is_list);
	o->finished = true;
	if (o->format == MS_OUT_JSON && o->has_root)
		json_write(o, "\n", 1);
	if (o->format == MS_OUT_JSON)
		json_flush(o);
	if (fflush(o->fp) != 0 || ferror(o->fp) || o->write_errno)
		return ms_error_set_errno(MS_ERROR, o->write_errno ?
					  o->write_errno : errno,
					  "cannot write output");
	if (o->failed)
		return ms_error_set(MS_ERROR, "cannot write JSON output");
	return 0;
}

/* Whether byte c is written as it is, alone (not 0xc2, which may start
 * a C1 control, nor another control but tab and newline). */
static inline bool sanitize_plain(unsigned char c)
{
	return c >= 0x20 ? c != 0x7f && c != 0xc2 : c == '\t' || c == '\n';
}

#ifdef __SSE2__
/* Whether one of the 16 bytes at `p` is not plain (sanitize_plain()):
 * a control but tab and newline, 0x7f or 0xc2 (a vector compare a
 * kind: half the instructions of writing a 7 MB pending --json). */
#define SPECIAL_BLOCK 16
static inline bool block_special(const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x);

	ctl = _mm_andnot_si128(_mm_or_si128(
		_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')),
		_mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))), ctl);
	ctl = _mm_or_si128(ctl, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
	ctl = _mm_or_si128(ctl, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xc2)));
	return _mm_movemask_epi8(ctl) != 0;
}
#else
/* The high bit of each byte of `x` that is zero (exact: no carry
 * between bytes). */
static inline uint64_t zero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu;

	return ~(((x & low7) + low7) | x) & ~low7;
}

/* The same of 8 bytes. */
#define SPECIAL_BLOCK 8
static inline bool block_special(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101u, low7 = ones * 0x7f;
	uint64_t x, ctl;

	memcpy(&x, p, 8);
	ctl = ~(((x & low7) + ones * 0x60) | x) & ~low7;   /* below 0x20 */
	ctl &= ~zero_bytes(x ^ ones * '\n') & ~zero_bytes(x ^ ones * '\t');
	return ctl | zero_bytes(x ^ ones * 0x7f) | zero_bytes(x ^ ones * 0xc2);
}
#endif

size_t ms_out_plain(const char *in, size_t len)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t run = 0;

	while (run < len && sanitize_plain(p[run])) {
		run++;
		/* a block at a time while no byte is a control, 0x7f or
		 * 0xc2 (a third of the instructions of writing a U-Boot
		 * areas report went here) */
		while (run + SPECIAL_BLOCK <= len && !block_special(p + run))
			run += SPECIAL_BLOCK;
	}
	return run;
}

void ms_out_sanitize(GString *out, const char *in, size_t len, int *state)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0;

	while (i < len) {
		unsigned char c;
		size_t run = i;

		/* nearly all of a report: runs of bytes written as they
		 * are, appended whole (byte by byte was a fifth of writing
		 * 32 MB of JSON) */
		if (!*state) {
			run += ms_out_plain(in + i, len - i);
			if (run > i)
				g_string_append_len(out, in + i,
						    (gssize)(run - i));
			i = run;
			if (i == len)
				break;
		}
		c = p[i++];
		if (*state) {           /* the byte after a 0xc2 */
			*state = 0;
			if (c >= 0x80 && c <= 0x9f) {
				g_string_append_c(out, '?');
				continue;
			}
			g_string_append_c(out, (char)0xc2);
		}
		if (c == 0xc2) {
			*state = 1;
			continue;
		}
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			c = '?';
		g_string_append_c(out, (char)c);
	}
}

int ms_json_read_list(const char *file, const char *text, size_t len,
		      const char *list, const char *id, const char *value,
		      void (*fn)(const char *id, int64_t value, void *data),
		      void *data)
{
	json_error_t err;
	json_t *doc = json_loadb(text, len, 0, &err), *l, *o;
	size_t i;

	if (!doc)
		return ms_error_set(MS_EPARSE, "%s: line %d: %s", file,
				    err.line, err.text);
	l = json_object_get(doc, list);
	if (!json_is_array(l)) {
		json_decref(doc);
		return ms_error_set(MS_EPARSE, "%s: no list \"%s\"", file,
				    list);
	}
	json_array_foreach(l, i, o) {
		json_t *k = json_object_get(o, id), *v = o;
		const char *p = value, *dot;

		/* "a.b": member b of object member a */
		for (; (dot = strchr(p, '.')); p = dot + 1) {
			char *part = g_strndup(p, (size_t)(dot - p));

			v = json_object_get(v, part);
			g_free(part);
		}
		v = json_object_get(v, p);

		if (json_is_string(k) && json_is_integer(v))
			fn(json_string_value(k), json_integer_value(v), data);
	}
	json_decref(doc);
	return 0;
}
