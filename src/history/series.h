/*
 * series.h - the intervals of a time series (`--by month|quarter|year|
 * release`): calendar intervals in UTC, or the intervals between release
 * tags of a repository.
 *
 * Bounds are ascending times (seconds since the epoch); interval i is
 * [bounds[i], bounds[i + 1]).  Arrays are the caller's (g_array_free).
 */
#ifndef MS_SERIES_H
#define MS_SERIES_H

#include <glib.h>
#include <stdint.h>

enum ms_series_unit {
	MS_SERIES_MONTH,
	MS_SERIES_QUARTER,
	MS_SERIES_YEAR,
	MS_SERIES_RELEASE,
};

/* At most this many intervals: a window of centuries (a bogus date in
 * an archive) must be refused, not computed. */
#define MS_SERIES_MAX 1200

/* "month", "quarter", "year" or "release" into *unit; MS_EUSAGE else. */
int ms_series_parse_unit(const char *s, enum ms_series_unit *unit);

/*
 * Calendar intervals (UTC) covering [lo, hi]: the first starts at the
 * beginning of the month, quarter or year holding `lo`, the last ends
 * after `hi`.  *out is a new GArray of int64_t bounds.  Returns 0, or
 * MS_EUSAGE (lo > hi, or more than MS_SERIES_MAX intervals).
 */
int ms_series_calendar(int64_t lo, int64_t hi, enum ms_series_unit unit,
		       GArray **out);

/*
 * Release intervals covering [lo, hi]: the tags of `gitdir` whose name
 * matches the fnmatch(3) `glob` and does not contain "-rc", dated by the
 * commit they point at, ascending; `lo` and hi + 1 are the first and
 * last bounds, the tags dated in (lo, hi] the inner ones: an interval is
 * the development of the release that ends it.  *out as above; *labels
 * (new, g_ptr_array_unref) holds per interval the tag ending it, or NULL
 * for the part after the last tag.  Returns 0, MS_EUSAGE for too many
 * intervals, or the repository's error.
 */
int ms_series_releases(const char *gitdir, const char *glob, int64_t lo,
		       int64_t hi, GArray **out, GPtrArray **labels);

#endif
