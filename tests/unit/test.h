/*
 * test.h - a tiny TAP producer for the unit tests (meson reads TAP).
 *
 *   int main(void) { ok(1 + 1 == 2, "sum"); is_int(f(), 3, "f"); ...
 *                    return test_done(); }
 */
#ifndef MS_TEST_H
#define MS_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_nr, test_failed;

static inline int test_ok(int cond, const char *file, int line,
			  const char *what)
{
	test_nr++;
	if (!cond)
		test_failed++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", test_nr, what);
	if (!cond)
		printf("# failed at %s:%d\n", file, line);
	return cond;
}

#define ok(cond, ...) test_ok_(!!(cond), __FILE__, __LINE__, __VA_ARGS__, NULL)
/* ok(cond, what[, detail]): the detail string is printed on failure. */
static inline int test_ok_(int cond, const char *file, int line,
			   const char *what, const char *detail, ...)
{
	int r = test_ok(cond, file, line, what);

	if (!cond && detail)
		printf("#   %s\n", detail);
	return r;
}

#define is_int(got, want, what) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!test_ok(g_ == w_, __FILE__, __LINE__, (what))) \
		printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)

#define is_str(got, want, what) do { \
	const char *g_ = (got), *w_ = (want); \
	int same_ = (g_ && w_) ? strcmp(g_, w_) == 0 : g_ == w_; \
	if (!test_ok(same_, __FILE__, __LINE__, (what))) \
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", \
		       w_ ? w_ : "(null)"); \
} while (0)

static inline int test_done(void)
{
	printf("1..%d\n", test_nr);
	return test_failed ? 1 : 0;
}

#endif
