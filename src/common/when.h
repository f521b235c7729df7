/*
 * when.h - the one parser of dates and durations behind every option that
 * takes one (--since, --until, --inactive-after, --ignore-after, --target,
 * urgent's --months), so that "5y", "18m", "2w", "14d", "48h", "2 weeks
 * ago" and "2023-06-01" mean the same everywhere.
 *
 * Units: y (years), m (months), w (weeks), d (days), h (hours), also
 * spelt out ("1 year", "6 months", "2 weeks", "14 days", "48 hours"),
 * optionally followed by "ago".  Years and months move the calendar date
 * (UTC); the others are fixed lengths.  Values are range-checked: a
 * duration takes 0 to 100,000 of its unit, a date lies in years 1..9999.
 */
#ifndef MS_WHEN_H
#define MS_WHEN_H

#include <stdbool.h>
#include <stdint.h>

struct ms_duration {
	int months;      /* years * 12 + months */
	int64_t seconds; /* weeks, days and hours */
};

/*
 * Parse a duration ("5y", "18m", "2 weeks ago").  Returns 0, or MS_EPARSE
 * (with the message set) when `s` is not one or is out of range.
 */
int ms_duration_parse(const char *s, struct ms_duration *out);

/* The time `d` before `t` (calendar months, then seconds). */
int64_t ms_duration_before(const struct ms_duration *d, int64_t t);

/*
 * The length of `d` in seconds, a month counted as 1/12 of 365.25 days
 * (for options that are lengths, not points: --ignore-after, --target).
 */
int64_t ms_duration_seconds(const struct ms_duration *d);

/*
 * Parse a point in time: a date (YYYY-MM-DD, or YYYY, or ISO 8601 with a
 * time and offset; with `end_of_day` a bare date means its last second),
 * or a duration counted back from `now` ("1 year ago", "18m").  Returns
 * 0, or MS_EPARSE with the message set (the caller may then try `s` as a
 * git revision).
 */
int ms_when_parse(const char *s, int64_t now, bool end_of_day, int64_t *out);

/*
 * A length of time for people: "45s", "12min", "1.4h", "3.2d", "1.5y";
 * negative as "-".  `buf` holds at least 16 bytes.
 */
void ms_duration_format(int64_t seconds, char *buf, int len);

#endif
