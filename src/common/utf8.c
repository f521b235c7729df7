/*
 * utf8.c - see utf8.h.
 */
#include "utf8.h"

#include <glib.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

bool ms_utf8_valid(const char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i zero = _mm_setzero_si128();

	/* a byte with its high bit set, or a NUL, ends the run */
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + i));

		if (_mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v,
								     zero))))
			break;
	}
#else
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t high = 0x8080808080808080ull;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		if ((w | ((w - ones) & ~w)) & high)
			break;
	}
#endif
	return i == n || g_utf8_validate(s + i, (gssize)(n - i), NULL);
}
