/*
 * ms_utf8_valid() says what g_utf8_validate() says, for every string built
 * here: ASCII runs of every length up to 70 with a non-ASCII byte, a NUL
 * or a broken sequence at every position (inside, at and across the
 * 16-byte steps of the ASCII scan), and random bytes.
 */
#include "test.h"
#include "utf8.h"

#include <glib.h>
#include <string.h>

static int mismatches;

static void same(const char *s, size_t n, const char *what, size_t at)
{
	bool want = n == 0 || g_utf8_validate(s, (gssize)n, NULL);

	if (ms_utf8_valid(s, n) != want && mismatches++ < 10) {
		char *d = g_strdup_printf("%s at %zu of %zu: g_utf8_validate "
					  "says %d", what, at, n, want);

		ok(0, "a string ms_utf8_valid() judges otherwise", d);
		g_free(d);
	}
}

int main(void)
{
	static const struct {
		const char *bytes, *what;
	} inserts[] = {
		{ "\xc3\xa9", "valid 2-byte" },
		{ "\xe2\x82\xac", "valid 3-byte" },
		{ "\xf0\x9f\x98\x80", "valid 4-byte" },
		{ "\xc3", "cut 2-byte" },
		{ "\xe2\x82", "cut 3-byte" },
		{ "\x80", "lone continuation" },
		{ "\xc0\xaf", "overlong" },
		{ "\xed\xa0\x80", "surrogate" },
		{ "\xf4\x90\x80\x80", "above U+10FFFF" },
		{ "\xff", "0xff" },
		{ "", "NUL" },          /* inserted as one byte: the NUL */
	};
	char buf[128];
	GRand *rand = g_rand_new_with_seed(21);
	int checks = 0;

	for (size_t n = 0; n <= 70; n++) {
		memset(buf, 'a', n);
		same(buf, n, "ASCII", n);
		checks++;
		for (size_t i = 0; i < G_N_ELEMENTS(inserts); i++) {
			size_t k = strlen(inserts[i].bytes);

			if (!k)
				k = 1;
			for (size_t at = 0; at + k <= n; at++) {
				memset(buf, 'a', n);
				memcpy(buf + at, inserts[i].bytes, k);
				same(buf, n, inserts[i].what, at);
				/* and cut off right after it */
				same(buf, at + k, inserts[i].what, at);
				checks += 2;
			}
		}
	}
	for (int t = 0; t < 20000; t++) {
		size_t n = (size_t)g_rand_int_range(rand, 0, 100);
		size_t at = (size_t)g_rand_int_range(rand, 0, 100);

		for (size_t i = 0; i < n; i++)
			buf[i] = (char)g_rand_int_range(rand, 1, 128);
		/* mostly ASCII, a few high bytes after `at` */
		for (size_t i = at; i < n; i++)
			if (g_rand_int_range(rand, 0, 8) == 0)
				buf[i] = (char)g_rand_int_range(rand, 128,
								256);
		same(buf, n, "random", at);
		checks++;
	}
	g_rand_free(rand);
	{
		char *d = g_strdup_printf("%d of %d strings differ",
					  mismatches, checks);

		ok(mismatches == 0 && checks > 20000, "ms_utf8_valid() "
		   "agrees with g_utf8_validate() on every string", d);
		g_free(d);
	}
	/* newlines: none, a tail shorter than 16 bytes, and more than 255
	 * blocks of 16 (each vector counter is summed before it can wrap) */
	{
		size_t n = 16 * 300 + 7;
		char *t = g_malloc(n);

		for (size_t k = 0; k < n; k++)
			t[k] = k % 5 == 4 ? '\n' : 'a';
		is_int((int)ms_count_lines("", 0), 0, "no bytes, no newline");
		is_int((int)ms_count_lines("a\nb\n", 4), 2, "two short lines");
		is_int((int)ms_count_lines(t, n), (int)(n / 5),
		       "every fifth byte over 300 blocks and a tail");
		is_int((int)ms_count_lines(t + 3, n - 3), (int)((n - 3 + 1) / 5),
		       "... from an unaligned start");
		g_free(t);
	}
	return test_done();
}
