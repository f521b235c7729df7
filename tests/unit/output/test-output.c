/*
 * test-output.c - the emitter.  The JSON backend streams each event; the
 * random documents below check it writes byte for byte what jansson's
 * json_dumpf(JSON_INDENT(2) | JSON_PRESERVE_ORDER) writes for the same
 * document built as a tree (the emitter's old implementation), so this
 * test includes <jansson.h> to build that reference.
 */
#include "test.h"
#include "error.h"
#include "output.h"

#include <float.h>
#include <glib.h>
#include <jansson.h>
#include <math.h>

/* The schema version as the document writes it. */
#define SV_(n) #n
#define SV_STR(n) SV_(n)
#define SV SV_STR(MS_SCHEMA_VERSION)

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

/* ---- Random documents against jansson's own dump ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic on every platform. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* Pieces of strings: what needs escaping, UTF-8 of every length, bytes
 * that are not UTF-8 (stray continuation, truncated sequence, overlong,
 * surrogate, beyond U+10FFFF), and plain text. */
static const char *const valid_pieces[] = {
	"a", "maintainer", " ", "/", "\"", "\\", "\\\"", "\b", "\f", "\n",
	"\r", "\t", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac",
	"\xf0\x9d\x84\x9e", "\xef\xbf\xbd", "\xef\xbf\xbe", "\xc2\x80",
	"\xe2\x80\xa8", "</script>", "0", "-1e5", "null", "{\"k\": [1]}",
	"\xce\xa9", "Linus Torvalds <torvalds@linux-foundation.org>",
};
static const char *const invalid_pieces[] = {
	"\xff", "\x80", "\xc3", "\xe2\x82", "\xf0\x9d\x84", "\xc0\x80",
	"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xfe\xfe", "\xc3\x28",
};

static char *rnd_string(bool allow_invalid)
{
	GString *s = g_string_new(NULL);
	unsigned n = rnd_below(4) == 0 ? 0 : rnd_below(12);

	for (unsigned i = 0; i < n; i++) {
		if (allow_invalid && rnd_below(10) == 0)
			g_string_append(s, invalid_pieces[
				rnd_below(G_N_ELEMENTS(invalid_pieces))]);
		else
			g_string_append(s, valid_pieces[
				rnd_below(G_N_ELEMENTS(valid_pieces))]);
	}
	return g_string_free(s, FALSE);
}

static int64_t rnd_int(void)
{
	static const int64_t special[] = {
		0, 1, -1, INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1,
		INT32_MIN, INT32_MAX, UINT32_MAX, 1000000, -42,
	};

	switch (rnd_below(3)) {
	case 0:
		return special[rnd_below(G_N_ELEMENTS(special))];
	case 1:
		return (int64_t)rnd_below(100000) - 50000;
	default:
		return (int64_t)rnd();
	}
}

static double rnd_real(void)
{
	static const double special[] = {
		0.0, -0.0, 0.1, 0.2, 0.3, 1.0, -1.0, 1e300, -1e300, 1e-300,
		DBL_MAX, -DBL_MAX, DBL_MIN, 4.9406564584124654e-324, 1.5,
		100.0, 1e16, 1e17, 123456789012345678.0, 2.0 / 3.0, 3600.5,
		(double)INT64_MAX,
	};
	double d;
	uint64_t bits;

	switch (rnd_below(3)) {
	case 0:
		return special[rnd_below(G_N_ELEMENTS(special))];
	case 1:
		return (double)((int64_t)rnd_below(2000000) - 1000000) / 3600.0;
	default:
		do {
			bits = rnd();
			memcpy(&d, &bits, sizeof(d));
		} while (!isfinite(d));
		return d;
	}
}

/* The emitter's old conversion of a string into a jansson value. */
static json_t *ref_string(const char *s)
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

static int ref_failures;

/*
 * Emit one random value to `o` and return it as a jansson value.  `tail`:
 * the value is the last thing in the document, so with `leave_open` its
 * container is left for ms_out_finish() to close.
 */
static json_t *gen_value(struct ms_out *o, int depth, bool tail,
			 bool leave_open);

static json_t *gen_container(struct ms_out *o, int depth, bool is_list,
			     bool tail, bool leave_open, bool document)
{
	json_t *c = is_list ? json_array() : json_object();
	unsigned n = rnd_below(3) == 0 ? 0 : rnd_below(7);

	if (depth > 5)
		n = 0;
	if (document) {
		ms_out_begin_document(o);
		json_object_set_new(c, "schema_version",
				    json_integer(MS_SCHEMA_VERSION));
	} else if (is_list) {
		ms_out_begin_list(o);
	} else {
		ms_out_begin_object(o);
	}
	for (unsigned i = 0; i < n; i++) {
		bool last = tail && i == n - 1;
		json_t *v;

		if (is_list) {
			v = gen_value(o, depth + 1, last, leave_open);
			if (json_array_append_new(c, v) < 0)
				ref_failures++;
			continue;
		}
		{
			char *key = rnd_string(false);

			/* Unique keys only (see output.h). */
			while (json_object_get(c, key)) {
				char *k2 = g_strdup_printf("%s%u", key, i);

				g_free(key);
				key = k2;
			}
			ms_out_key(o, key);
			v = gen_value(o, depth + 1, last, leave_open);
			if (json_object_set_new(c, key, v) < 0)
				ref_failures++;
			g_free(key);
		}
	}
	if (!(tail && leave_open)) {
		if (is_list)
			ms_out_end_list(o);
		else
			ms_out_end_object(o);
	}
	return c;
}

static json_t *gen_value(struct ms_out *o, int depth, bool tail,
			 bool leave_open)
{
	/* Containers more often near the top, never below depth 5. */
	unsigned kind = rnd_below(depth > 4 ? 7 : depth < 3 ? 12 : 9);
	json_t *v;

	switch (kind) {
	case 0: {
		char *s = rnd_string(true);

		ms_out_string(o, s);
		v = ref_string(s);
		g_free(s);
		break;
	}
	case 1: {
		int64_t i = rnd_int();

		ms_out_int(o, i);
		v = json_integer(i);
		break;
	}
	case 2: {
		double d = rnd_real();

		ms_out_real(o, d);
		v = json_real(d);
		break;
	}
	case 3:
		ms_out_bool(o, true);
		v = json_true();
		break;
	case 4:
		ms_out_bool(o, false);
		v = json_false();
		break;
	case 5:
		if (rnd_below(2)) {
			ms_out_null(o);
		} else {
			ms_out_string(o, NULL);
		}
		v = json_null();
		break;
	case 6: {
		char *s = rnd_string(false);

		ms_out_string(o, s);
		v = ref_string(s);
		g_free(s);
		break;
	}
	case 7:
	case 10:
		return gen_container(o, depth, true, tail, leave_open, false);
	default:
		return gen_container(o, depth, false, tail, leave_open, false);
	}
	if (!v)
		ref_failures++;
	return v;
}

/* Where two outputs first differ, for the failure message. */
static char *first_difference(const char *got, size_t got_len,
			      const char *want, size_t want_len)
{
	size_t i = 0, from;

	while (i < got_len && i < want_len && got[i] == want[i])
		i++;
	from = i > 40 ? i - 40 : 0;
	return g_strdup_printf("byte %zu: got '%.*s' want '%.*s'", i,
			       (int)(MIN(got_len, i + 20) - from), got + from,
			       (int)(MIN(want_len, i + 20) - from),
			       want + from);
}

/*
 * An emitter writing to memory, and the check that what it wrote is
 * byte for byte jansson's dump of the same tree.
 */
struct vs_jansson {
	char *got;
	size_t got_len;
	FILE *gf;
	struct ms_out *o;
};

/* Start `v`; returns its emitter (v->o). */
static struct ms_out *vs_open(struct vs_jansson *v)
{
	v->got = NULL;
	v->got_len = 0;
	v->gf = open_memstream(&v->got, &v->got_len);
	v->o = ms_out_new(MS_OUT_JSON, v->gf);
	return v->o;
}

/*
 * Finish the emitter and dump `root` (consumed): whether both wrote the
 * same bytes.  Counts a failing finish in *emit_errors and a failing dump
 * in *ref_errors (either may be NULL); *detail, when not NULL and still
 * NULL, gets the first difference.  *bytes (may be NULL) adds the dump's
 * length.
 */
static bool vs_close(struct vs_jansson *v, json_t *root, int *emit_errors,
		     int *ref_errors, char **detail, size_t *bytes)
{
	char *want = NULL;
	size_t want_len = 0;
	FILE *wf = open_memstream(&want, &want_len);
	bool same;

	if (ms_out_finish(v->o) < 0 && emit_errors)
		(*emit_errors)++;
	ms_out_free(v->o);
	fclose(v->gf);
	if (json_dumpf(root, wf, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 &&
	    ref_errors)
		(*ref_errors)++;
	fputc('\n', wf);
	fclose(wf);
	json_decref(root);
	same = v->got_len == want_len && !memcmp(v->got, want, want_len);
	if (!same && detail && !*detail)
		*detail = first_difference(v->got, v->got_len, want, want_len);
	if (bytes)
		*bytes += want_len;
	free(v->got);
	free(want);
	return same;
}

static void random_documents(uint64_t seed, int nr)
{
	int mismatches = 0, emit_errors = 0;
	size_t bytes = 0;
	char *detail = NULL;

	rng_state = seed;
	ref_failures = 0;
	for (int d = 0; d < nr; d++) {
		struct vs_jansson v;
		unsigned shape = rnd_below(8);
		bool leave_open = rnd_below(6) == 0;
		json_t *root;

		vs_open(&v);
		/* Mostly documents, also bare top-level objects and lists. */
		root = gen_container(v.o, 0, shape == 0, true, leave_open,
				     shape > 1);
		if (!vs_close(&v, root, &emit_errors, &ref_failures, &detail,
			      &bytes))
			mismatches++;
	}
	printf("# %d documents, %zu bytes, seed %" PRIu64 "\n", nr, bytes,
	       seed);
	is_int(ref_failures, 0, "the reference trees build and dump");
	is_int(emit_errors, 0, "ms_out_finish succeeds on every document");
	ok(mismatches == 0, "streamed JSON is byte for byte jansson's dump "
	   "of the same tree", detail);
	if (mismatches)
		printf("#   %d of %d documents differ\n", mismatches, nr);
	g_free(detail);
}

/* More different keys than the emitter keeps encoded, each used twice. */
static void many_keys(void)
{
	struct vs_jansson v;
	json_t *root = json_array();
	struct ms_out *o = vs_open(&v);

	ms_out_begin_list(o);
	for (int round = 0; round < 2; round++) {
		json_t *obj = json_object();

		ms_out_begin_object(o);
		for (int i = 0; i < 1000; i++) {
			char key[32];

			snprintf(key, sizeof(key), "k\"%d\xff", i);
			ms_out_kv_int(o, key, i);
			key[strlen(key) - 1] = '\0';
			strcat(key, "\xef\xbf\xbd");
			json_object_set_new(obj, key, json_integer(i));
		}
		ms_out_end_object(o);
		json_array_append_new(root, obj);
	}
	ms_out_end_list(o);
	ok(vs_close(&v, root, NULL, NULL, NULL, NULL),
	   "2000 members with 1000 different keys, as jansson dumps them");
}

/*
 * Strings of printable ASCII and integers are written without asking
 * jansson (output.c): each byte on either side of that shortcut, and
 * every integer width, against jansson's own dump.
 */
static void shortcut_scalars(void)
{
	static const int64_t ints[] = {
		0, 7, -7, 9, 10, -10, INT32_MIN, INT32_MAX, UINT32_MAX,
		INT64_MAX, INT64_MIN, INT64_MIN + 1,
	};
	struct vs_jansson v;
	json_t *root = json_array();
	struct ms_out *o = vs_open(&v);

	ms_out_begin_list(o);
	for (int c = 1; c < 256; c++) {
		/* the byte alone, and inside plain text (past the first
		 * 16 bytes: output.c tests them 16 at a time) */
		char one[2] = { (char)c, 0 }, mid[8], far[32];

		snprintf(mid, sizeof(mid), "ab%cc/", c);
		snprintf(far, sizeof(far), "drivers/net/ethernet/a%cc", c);
		ms_out_string(o, one);
		ms_out_string(o, mid);
		ms_out_string(o, far);
		json_array_append_new(root, ref_string(one));
		json_array_append_new(root, ref_string(mid));
		json_array_append_new(root, ref_string(far));
	}
	ms_out_string(o, "");
	json_array_append_new(root, json_string(""));
	/* past several of the emitter's 64 KiB blocks */
	for (int i = 0; i < 8000; i++) {
		char path[64];

		snprintf(path, sizeof(path), "drivers/net/ethernet/f%d.c", i);
		ms_out_string(o, path);
		json_array_append_new(root, json_string(path));
	}
	for (size_t i = 0; i < G_N_ELEMENTS(ints); i++) {
		ms_out_int(o, ints[i]);
		json_array_append_new(root, json_integer(ints[i]));
	}
	ms_out_end_list(o);
	ok(vs_close(&v, root, NULL, NULL, NULL, NULL),
	   "every byte in a string, integers of every width, a document of "
	   "several blocks, as jansson dumps them");
}

/*
 * A value written once and then again from its recorded bytes
 * (ms_out_kv_recorded()), longer than one of the emitter's 64 KiB blocks,
 * as jansson dumps the tree that holds it each time.
 */
static void recorded_values(void)
{
	struct vs_jansson v;
	json_t *root = json_array();
	struct ms_out *o = vs_open(&v);
	GString *rec = NULL;

	ms_out_begin_list(o);
	for (int i = 0; i < 20; i++) {
		json_t *obj = json_object(), *val = json_array();

		ms_out_begin_object(o);
		ms_out_kv_int(o, "i", i);
		json_object_set_new(obj, "i", json_integer(i));
		if (!ms_out_kv_recorded(o, "same", &rec)) {
			ms_out_kv_begin_list(o, "same");
			for (int k = 0; k < 6000; k++)
				ms_out_real(o, k / 3.0);
			ms_out_end_list(o);
			ms_out_recorded(o, &rec);
		}
		for (int k = 0; k < 6000; k++)
			json_array_append_new(val, json_real(k / 3.0));
		json_object_set_new(obj, "same", val);
		ms_out_end_object(o);
		json_array_append_new(root, obj);
	}
	ms_out_end_list(o);
	g_string_free(rec, TRUE);
	ok(vs_close(&v, root, NULL, NULL, NULL, NULL),
	   "a list longer than a block written once and 19 times from its "
	   "recorded bytes, "
	   "as jansson dumps it");
}

/* ---- Corner cases of the streaming contract (output.h) ---- */

static void fill_duplicate(struct ms_out *o)
{
	ms_out_begin_object(o);
	ms_out_kv_int(o, "a", 1);
	ms_out_kv_int(o, "a", 2);
	ms_out_end_object(o);
}

static void fill_odd_values(struct ms_out *o)
{
	ms_out_begin_list(o);
	ms_out_real(o, NAN);
	ms_out_real(o, INFINITY);
	/* each again: a number is written as jansson writes it however
	 * often it comes (-0.0 equals 0.0, yet is written apart) */
	for (int i = 0; i < 2; i++) {
		ms_out_real(o, 0.0);
		ms_out_real(o, -0.0);
		ms_out_real(o, NAN);
	}
	ms_out_begin_object(o);
	ms_out_kv_string(o, "k\xff", "v");
	ms_out_end_object(o);
	ms_out_begin_object(o);
	ms_out_key(o, "dropped");	/* a key without a value */
	ms_out_end_object(o);
	ms_out_end_list(o);
}

static void fill_nothing(struct ms_out *o)
{
	(void)o;
}

static void corner_cases(void)
{
	char *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	struct ms_out *o;

	s = render(MS_OUT_JSON, fill_duplicate);
	is_str(s, "{\n  \"a\": 1,\n  \"a\": 2\n}\n",
	       "a duplicate key is written twice, in order");
	free(s);
	s = render(MS_OUT_JSON, fill_odd_values);
	is_str(s, "[\n  null,\n  null,\n  0.0,\n  -0.0,\n  null,\n  0.0,\n"
	       "  -0.0,\n  null,\n  {\n    \"k\xef\xbf\xbd\": \"v\"\n"
	       "  },\n  {}\n]\n",
	       "NaN and infinity are null, each time; 0.0 and -0.0 are "
	       "apart, each time; an invalid UTF-8 key is repaired; "
	       "a key without a value is dropped");
	free(s);
	s = render(MS_OUT_JSON, fill_nothing);
	is_str(s, "", "an empty emitter writes nothing");
	free(s);

	/* ms_out_free() without ms_out_finish(): what was emitted is out. */
	fp = open_memstream(&buf, &len);
	o = ms_out_new(MS_OUT_JSON, fp);
	ms_out_begin_document(o);
	ms_out_key(o, "list");
	ms_out_begin_list(o);
	ms_out_int(o, 7);
	ms_out_free(o);
	fclose(fp);
	is_str(buf, "{\n  \"schema_version\": " SV ",\n  \"list\": [\n    7",
	       "freed unfinished: the events so far are written, no more");
	free(buf);

	/* A scalar is no document: jansson's json_dumpf refused it too. */
	buf = NULL;
	fp = open_memstream(&buf, &len);
	o = ms_out_new(MS_OUT_JSON, fp);
	ms_out_string(o, "alone");
	is_int(ms_out_finish(o), MS_ERROR, "a top-level scalar fails");
	is_str(ms_error_last(), "cannot write JSON output", "its message");
	ms_out_free(o);
	fclose(fp);
	is_str(buf, "", "and writes nothing");
	free(buf);

	/* A full disk must not pass. */
	fp = fopen("/dev/full", "w");
	if (!fp) {
		printf("ok %d # skip no /dev/full on this system\n", ++test_nr);
		return;
	}
	o = ms_out_new(MS_OUT_JSON, fp);
	ms_out_begin_document(o);
	for (int i = 0; i < 10000; i++)
		ms_out_kv_string(o, "padding", "0123456789abcdef");
	is_int(ms_out_finish(o), MS_ERROR, "a failed write fails finish");
	ok(strstr(ms_error_last(), "No space left") != NULL,
	   "with the write's error", ms_error_last());
	ms_out_free(o);
	fclose(fp);
}

/* ms_out_sanitize() as it was written first, a byte at a time: the rule
 * the run-at-a-time version must keep. */
static void sanitize_bytewise(GString *out, const char *in, size_t len,
			      int *state)
{
	const unsigned char *p = (const unsigned char *)in;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (*state) {
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

/* Random texts rich in the bytes the rule is about, cut into random
 * pieces (a 0xc2 at the end of one piece, its C1 byte in the next):
 * both versions write the same bytes and end in the same state. */
static void sanitize_random(void)
{
	static const unsigned char special[] = { 0xc2, 0x80, 0x85, 0x9f, 0xa0,
		0x1b, 0x07, '\t', '\n', '\r', 0x7f, 0x00, 0xc3, 'a', ' ' };
	GRand *rnd = g_rand_new_with_seed(0x5a417e);
	int bad = 0, c1 = 0;

	for (int t = 0; t < 3000; t++) {
		size_t len = (size_t)g_rand_int_range(rnd, 0, 300);
		char *in = g_malloc(len + 1);
		GString *want = g_string_new(NULL), *got = g_string_new(NULL);
		int ws = 0, gs = 0;

		for (size_t i = 0; i < len; i++)
			/* (every other text with long plain runs: the
			 * eight-byte steps) */
			in[i] = (char)(g_rand_int_range(rnd, 0,
							t % 2 ? 4 : 40) ?
				g_rand_int_range(rnd, 0x20, 0x7f) :
				special[g_rand_int_range(rnd, 0,
					(gint32)sizeof(special))]);
		for (size_t i = 0; i + 1 < len; i++)
			c1 += (unsigned char)in[i] == 0xc2 &&
			      (unsigned char)in[i + 1] >= 0x80 &&
			      (unsigned char)in[i + 1] <= 0x9f;
		for (size_t at = 0; at < len;) {
			size_t cut = (size_t)g_rand_int_range(rnd, 0, 40);
			size_t n = MIN(len - at, cut);

			sanitize_bytewise(want, in + at, n, &ws);
			ms_out_sanitize(got, in + at, n, &gs);
			at += n;
			if (!n && at < len) {
				sanitize_bytewise(want, in + at, 1, &ws);
				ms_out_sanitize(got, in + at, 1, &gs);
				at++;
			}
		}
		if (ws != gs || want->len != got->len ||
		    memcmp(want->str, got->str, want->len))
			bad++;
		g_string_free(want, TRUE);
		g_string_free(got, TRUE);
		g_free(in);
	}
	ok(c1 > 100, "the random texts hold C1 controls as UTF-8");
	is_int(bad, 0, "ms_out_sanitize() writes what the byte-by-byte rule "
	       "writes, in pieces of any size");
	g_rand_free(rnd);
}

int main(void)
{
	char *json = render(MS_OUT_JSON, fill_paths);
	char *text = render(MS_OUT_TEXT, fill_paths);

	is_str(json,
	       "{\n"
	       "  \"schema_version\": " SV ",\n"
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
	corner_cases();
	many_keys();
	shortcut_scalars();
	recorded_values();
	random_documents(UINT64_C(0x6d61696e74737461), 5000);
	sanitize_random();
	return test_done();
}
