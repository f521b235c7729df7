/*
 * test-activity.c - the date helpers behind --since, --until and
 * --inactive-after (the model itself is checked end to end by
 * tests/cli/test-activity.py on the planted repository).
 */
#include "test.h"
#include "activity.h"
#include "error.h"
#include "when.h"

#include <glib.h>

int main(void)
{
	/* 2024-06-01T12:00:00Z */
	const int64_t t = 1717243200;
	int64_t out;
	char buf[32];

	ms_act_format(t, 0, false, false, buf);
	is_str(buf, "2024-06-01 12:00:00", "text date");
	ms_act_format(t, -330, true, false, buf);
	is_str(buf, "2024-06-01T06:30:00-05:30", "ISO date with offset");
	ms_act_format(t, 600, false, true, buf);
	is_str(buf, "2024-06-01", "date only, in the commit's offset");
	ms_act_format(t + 13 * 3600, 0, false, true, buf);
	is_str(buf, "2024-06-02", "a later day");

	is_int(ms_act_date_shift(t, -5), 1559390400, "5 years back");

	is_int(ms_when_parse("18m", t, false, &out), 0, "18m");
	is_int(out, 1669896000, "18 months back");
	is_int(ms_when_parse("2y", t, false, &out), 0, "2y");
	is_int(out, ms_act_date_shift(t, -2), "2 years back");
	is_int(ms_when_parse("30d", t, false, &out), 0, "30d");
	is_int(out, t - 30 * 86400, "30 days back");
	is_int(ms_when_parse("2w", t, false, &out), 0, "2w");
	is_int(out, t - 14 * 86400, "2 weeks back");
	is_int(ms_when_parse("2021-01-01", t, false, &out), 0, "a date");
	is_int(out, 1609459200, "used as is");
	is_int(ms_when_parse("5 parsecs", t, false, &out), MS_EPARSE,
	       "nonsense");
	is_int(ms_when_parse("m", t, false, &out), MS_EPARSE, "no number");
	return test_done();
}
