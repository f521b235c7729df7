#include "when.h"
#include "error.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the most of any unit: 100000y is before year 1, which saturates */
#define MAX_COUNT 100000

static const struct unit {
	const char *name;   /* the one-letter form first */
	int months;
	int64_t seconds;
} units[] = {
	{ "y", 12, 0 }, { "year", 12, 0 }, { "years", 12, 0 },
	{ "m", 1, 0 }, { "mo", 1, 0 }, { "month", 1, 0 }, { "months", 1, 0 },
	{ "w", 0, 7 * 86400 }, { "week", 0, 7 * 86400 },
	{ "weeks", 0, 7 * 86400 },
	{ "d", 0, 86400 }, { "day", 0, 86400 }, { "days", 0, 86400 },
	{ "h", 0, 3600 }, { "hour", 0, 3600 }, { "hours", 0, 3600 },
};

int ms_duration_parse(const char *s, struct ms_duration *out)
{
	const char *p = s, *u;
	char *end, *word = NULL;
	unsigned long long n;
	size_t len;
	int rc = 0;

	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		goto bad;
	errno = 0;
	n = strtoull(p, &end, 10);
	if (errno)
		goto range;
	p = end;
	while (*p == ' ')
		p++;
	u = p;
	while (g_ascii_isalpha(*p))
		p++;
	len = (size_t)(p - u);
	word = g_ascii_strdown(u, (gssize)len);
	while (*p == ' ')
		p++;
	/* "2 weeks ago" */
	if (!g_ascii_strncasecmp(p, "ago", 3) && !g_ascii_isalpha(p[3])) {
		p += 3;
		while (*p == ' ')
			p++;
	}
	if (*p)
		goto bad;
	for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
		if (strcmp(word, units[i].name))
			continue;
		if (n > MAX_COUNT)
			goto range;
		out->months = (int)n * units[i].months;
		out->seconds = (int64_t)n * units[i].seconds;
		goto done;
	}
bad:
	rc = ms_error_set(MS_EPARSE, "'%s' is not a duration (a number and "
			  "a unit: 5y, 18m, 2w, 14d, 48h, '2 weeks ago')", s);
	goto done;
range:
	rc = ms_error_set(MS_EPARSE, "'%s' is out of range (a duration "
			  "takes 0 to %d of its unit)", s, MAX_COUNT);
done:
	g_free(word);
	return rc;
}

int64_t ms_duration_before(const struct ms_duration *d, int64_t t)
{
	GDateTime *a = g_date_time_new_from_unix_utc(t), *b;
	int64_t r;

	if (!a)
		return t - ms_duration_seconds(d);
	b = g_date_time_add_months(a, -d->months);
	g_date_time_unref(a);
	if (!b)  /* before year 1 */
		return t - ms_duration_seconds(d);
	r = g_date_time_to_unix(b) - d->seconds;
	g_date_time_unref(b);
	return r;
}

int64_t ms_duration_seconds(const struct ms_duration *d)
{
	return (int64_t)d->months * (365 * 86400 + 6 * 3600) / 12 +
	       d->seconds;
}

int ms_when_parse(const char *s, int64_t now, bool end_of_day, int64_t *out)
{
	struct ms_duration d;
	GDateTime *t = NULL;
	int y, m, day, consumed = 0;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &day, &consumed) == 3 &&
	    !s[consumed]) {
		t = g_date_time_new_utc(y, m, day, end_of_day ? 23 : 0,
					end_of_day ? 59 : 0,
					end_of_day ? 59 : 0);
	} else if (strlen(s) == 4 && g_ascii_isdigit(s[0]) &&
		   g_ascii_isdigit(s[1]) && g_ascii_isdigit(s[2]) &&
		   g_ascii_isdigit(s[3])) {
		y = atoi(s);
		t = end_of_day ? g_date_time_new_utc(y, 12, 31, 23, 59, 59) :
				 g_date_time_new_utc(y, 1, 1, 0, 0, 0);
	} else if (strchr(s, 'T') || strchr(s, ':')) {
		GTimeZone *utc = g_time_zone_new_utc();

		t = g_date_time_new_from_iso8601(s, utc);
		g_time_zone_unref(utc);
	} else if (ms_duration_parse(s, &d) == 0) {
		*out = ms_duration_before(&d, now);
		return 0;
	} else if (strstr(ms_error_last(), "out of range")) {
		return MS_EPARSE;   /* a duration, too long: say so */
	}
	if (!t)
		return ms_error_set(MS_EPARSE, "'%s' is neither a date "
				    "(YYYY-MM-DD, YYYY or ISO 8601) nor a "
				    "duration (5y, 18m, 2w, 14d, 48h, "
				    "'1 year ago')", s);
	*out = g_date_time_to_unix(t);
	g_date_time_unref(t);
	return 0;
}

void ms_duration_format(int64_t seconds, char *buf, int len)
{
	double s = (double)seconds;

	if (seconds < 0)
		snprintf(buf, (size_t)len, "-");
	else if (seconds < 60)
		snprintf(buf, (size_t)len, "%llds", (long long)seconds);
	else if (seconds < 3600)
		snprintf(buf, (size_t)len, "%.0fmin", s / 60);
	else if (seconds < 86400)
		snprintf(buf, (size_t)len, "%.1fh", s / 3600);
	else if (seconds < 365 * 86400)
		snprintf(buf, (size_t)len, "%.1fd", s / 86400);
	else
		snprintf(buf, (size_t)len, "%.1fy", s / (365.25 * 86400));
}
