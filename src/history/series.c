/*
 * series.c - calendar intervals of a time series (series.h).  The release
 * intervals read tags through libgit2 in git-tags.c.
 */
#include "series.h"

#include "error.h"

#include <string.h>
#include <time.h>

int ms_series_parse_unit(const char *s, enum ms_series_unit *unit)
{
	static const char *const names[] = { "month", "quarter", "year",
					     "release" };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(s, names[i])) {
			*unit = (enum ms_series_unit)i;
			return 0;
		}
	return ms_error_set(MS_EUSAGE, "unknown interval '%s' (month, "
			    "quarter, year or release)", s);
}

/* The UTC time of the first second of year `y`, month `m` (0-11, may
 * overflow into later years). */
static int64_t month_start(int64_t y, int64_t m)
{
	struct tm tm = { 0 };

	y += m / 12;
	m %= 12;
	tm.tm_year = (int)(y - 1900);
	tm.tm_mon = (int)m;
	tm.tm_mday = 1;
	return (int64_t)timegm(&tm);
}

int ms_series_calendar(int64_t lo, int64_t hi, enum ms_series_unit unit,
		       GArray **out)
{
	int step = unit == MS_SERIES_YEAR ? 12 :
		   unit == MS_SERIES_QUARTER ? 3 : 1;
	time_t t = (time_t)lo;
	struct tm tm;
	int64_t y, m, b;
	GArray *a;

	*out = NULL;
	if (lo > hi || unit == MS_SERIES_RELEASE)
		return ms_error_set(MS_EUSAGE, "no interval to divide");
	/* the window in whole months, checked before the loop runs */
	if (!gmtime_r(&t, &tm))
		return ms_error_set(MS_EUSAGE, "date out of range");
	y = tm.tm_year + 1900;
	m = tm.tm_mon - tm.tm_mon % step;
	if ((hi - lo) / (28 * 86400) / step > MS_SERIES_MAX)
		return ms_error_set(MS_EUSAGE, "more than %d intervals: "
				    "narrow the window (--since, --until)",
				    MS_SERIES_MAX);
	a = g_array_new(FALSE, FALSE, sizeof(int64_t));
	b = month_start(y, m);
	g_array_append_val(a, b);
	while (b <= hi) {
		m += step;
		b = month_start(y, m);
		g_array_append_val(a, b);
	}
	*out = a;
	return 0;
}
