/* The one parser of dates and durations (when.h). */
#include "test.h"
#include "error.h"
#include "when.h"

/* 2024-03-31 12:00:00 UTC */
#define T0 INT64_C(1711886400)

static int64_t when(const char *s, int64_t now, int eod)
{
	int64_t t = -1;

	if (ms_when_parse(s, now, eod, &t) < 0)
		return -1;
	return t;
}

static int64_t back(const char *s, int64_t from)
{
	struct ms_duration d;

	if (ms_duration_parse(s, &d) < 0)
		return -1;
	return ms_duration_before(&d, from);
}

int main(void)
{
	struct ms_duration d;
	char buf[16];

	/* every unit, short and spelt out, with "ago" */
	is_int(back("14d", T0), T0 - 14 * 86400, "14d");
	is_int(back("2w", T0), T0 - 14 * 86400, "2w is 14d");
	is_int(back("48h", T0), T0 - 2 * 86400, "48h");
	is_int(back("2 weeks ago", T0), T0 - 14 * 86400, "2 weeks ago");
	is_int(back("1 day", T0), T0 - 86400, "1 day");
	is_int(back("1y", T0), T0 - 366 * 86400, "1y: a calendar year "
	       "(2023-03-31 to 2024-03-31 holds Feb 29)");
	is_int(back("1 year ago", T0), back("12m", T0), "1 year ago is 12m");
	/* months move the calendar: 2024-03-31 less 1 month clamps */
	is_int(back("1m", T0), T0 - 31 * 86400, "1m from March 31 is Feb 29");
	is_int(back("18m", T0), back("18 months", T0), "18m is 18 months");
	is_int(back("6 MONTHS AGO", T0), back("6m", T0), "case ignored");

	/* lengths */
	ok(ms_duration_parse("48h", &d) == 0 &&
	   ms_duration_seconds(&d) == 48 * 3600, "48h is 172800 s");
	ok(ms_duration_parse("1y", &d) == 0 &&
	   ms_duration_seconds(&d) == 365 * 86400 + 6 * 3600,
	   "1y as a length is 365.25 days");

	/* errors, range */
	is_int(ms_duration_parse("5 parsecs", &d), MS_EPARSE, "unknown unit");
	is_int(ms_duration_parse("y", &d), MS_EPARSE, "no number");
	is_int(ms_duration_parse("-3d", &d), MS_EPARSE, "negative");
	is_int(ms_duration_parse("5", &d), MS_EPARSE, "no unit");
	is_int(ms_duration_parse("3d4", &d), MS_EPARSE, "trailing junk");
	is_int(ms_duration_parse("100001y", &d), MS_EPARSE,
	       "over 100000 of a unit");
	ok(strstr(ms_error_last(), "out of range") != NULL,
	   "...says out of range", ms_error_last());
	is_int(ms_duration_parse("99999999999999999999999d", &d), MS_EPARSE,
	       "overflowing number");
	is_int(ms_duration_parse("9223372036854775807h", &d), MS_EPARSE,
	       "hours that would overflow int64");
	ok(ms_duration_parse("100000y", &d) == 0, "100000y is the limit");
	is_int(back("100000y", T0), T0 - ms_duration_seconds(&d),
	       "100000y back from now: before year 1, saturated");

	/* points in time */
	is_int(when("2023-06-01", T0, 0), INT64_C(1685577600), "a date");
	is_int(when("2023-06-01", T0, 1), INT64_C(1685577600) + 86399,
	       "a date as an end: its last second");
	is_int(when("2023", T0, 0), INT64_C(1672531200), "a year: Jan 1");
	is_int(when("2023", T0, 1), INT64_C(1704067199), "a year as an "
	       "end: Dec 31 23:59:59");
	is_int(when("2023-06-01T10:00:00+02:00", T0, 0),
	       INT64_C(1685577600) + 8 * 3600, "ISO 8601 with an offset");
	is_int(when("1 year ago", T0, 0), back("1y", T0),
	       "a duration counts back from now");
	is_int(when("2023-13-45", T0, 0), -1, "no 13th month");
	is_int(when("yesterday-ish", T0, 0), -1, "not a date");
	ok(strstr(ms_error_last(), "neither a date") != NULL,
	   "...explained", ms_error_last());

	/* formatting for people */
	ms_duration_format(5040, buf, sizeof(buf));
	is_str(buf, "1.4h", "1.4h");
	ms_duration_format(3 * 86400 + 5 * 3600, buf, sizeof(buf));
	is_str(buf, "3.2d", "3.2d");
	ms_duration_format(45, buf, sizeof(buf));
	is_str(buf, "45s", "45s");
	ms_duration_format(720, buf, sizeof(buf));
	is_str(buf, "12min", "12min");
	ms_duration_format(-1, buf, sizeof(buf));
	is_str(buf, "-", "no time");
	return test_done();
}
