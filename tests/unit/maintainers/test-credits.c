#include "test.h"
#include "credits.h"
#include "diff.h"

#include <glib.h>

static const char *credits =
	"\tThis is at least a partial credits-file of people that have\n"
	"\tcontributed to the Linux project.  It is sorted by name.\n"
	"----------\n"
	"\n"
	"N: Matti Aarnio\n"
	"E: mea@nic.funet.fi\n"
	"D: Alpha systems hacking, IPv6 and other network related stuff\n"
	"\n"
	"N: Werner Almesberger\n"
	"E: werner@almesberger.net\n"
	"D: dosfs, LILO, some fd features, ATM, various other hacks here\n"
	"D: and there\n"
	"S: Buenos Aires\n"
	"\n"
	"N: Simon Horman\n"
	"M: horms@verge.net.au\n"
	"D: IPVS\n"
	"\n"
	"N: Linus Torvalds\n"
	"E: torvalds@linux-foundation.org\n"
	"D: Original kernel hacker\n";

static const char *const also[] = { "old@example.com",
				    "werner@almesberger.net", NULL };

static size_t records(const char *text)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, "\nN: ")); p++)
		n++;
	return n;
}

/* Whether credits_add() finds a record of the person: the D: line then
 * joins it, and no N: line is added. */
static bool has(const char *name, const char *email,
		const char *const *also_addrs)
{
	char *s = credits_add(credits, name ? name : "Probe", email,
			      also_addrs, "PROBE");
	bool found = records(s) == records(credits);

	g_free(s);
	return found;
}

int main(void)
{
	char *s;
	GString *out = g_string_new(NULL);
	struct ms_patch_file f;
	struct ms_patch p = { 0 };
	const char *const to[] = { "Ann <ann@example.org>",
				   "list@example.org" };

	ok(has(NULL, "WERNER@almesberger.net", NULL),
	   "found by email, case-insensitively");
	ok(!has("Nobody", "nobody@example.com", NULL),
	   "absent");
	ok(has("Someone", "new@example.com", also),
	   "found by a joined address");
	ok(has("Simon Horman", "simon@new.example", NULL),
	   "found by name when no address matches");
	ok(has(NULL, "HORMS@verge.net.au", NULL),
	   "found by the address of an old record's M: line");

	s = credits_add(credits, "Jane Bravo", "jane@example.com", NULL,
			"NETWORKING [TLS]");
	ok(strstr(s, "D: and there\nS: Buenos Aires\n\nN: Jane Bravo\n"
		  "E: jane@example.com\nD: NETWORKING [TLS]\n\n"
		  "N: Simon Horman\n") != NULL,
	   "new record between Almesberger and Horman", s);
	g_free(s);

	s = credits_add(credits, "Zed Zulu", "zed@example.com", NULL, "ZETA");
	ok(g_str_has_suffix(s, "D: Original kernel hacker\n\nN: Zed Zulu\n"
			    "E: zed@example.com\nD: ZETA\n"), "appended last");
	g_free(s);

	s = credits_add(credits, "Aaron Aardvark", NULL, NULL, "FIRST");
	ok(strstr(s, "D: Alpha systems hacking, IPv6 and other network "
		  "related stuff\n\nN: Aaron Aardvark\nD: FIRST\n\n"
		  "N: Werner Almesberger\n") != NULL,
	   "never before the first record (no email)", s);
	g_free(s);

	s = credits_add(credits, "Simon Horman", "simon@new.example", NULL,
			"NETFILTER");
	ok(strstr(s, "M: horms@verge.net.au\nD: IPVS\nD: NETFILTER\n") !=
	   NULL, "the M: record of Simon Horman gains the D: line", s);
	ok(!strstr(s, "E: simon@new.example"), "no duplicate record", s);
	g_free(s);

	s = credits_add(credits, "Werner A", "new@example.com", also, "ATM");
	ok(strstr(s, "D: and there\nD: ATM\n") != NULL,
	   "a joined address finds the record", s);
	g_free(s);

	s = credits_add(credits, "Mia Mmm", "mia@example.com", NULL, "M");
	ok(strstr(s, "S: Buenos Aires\n\nN: Simon Horman") != NULL &&
	   strstr(s, "D: IPVS\n\nN: Mia Mmm\nE: mia@example.com\nD: M\n"
		  "\nN: Linus Torvalds") != NULL,
	   "sorted among neighbours: between Horman and Torvalds", s);
	g_free(s);

	s = credits_add(credits, "W. Almesberger", "werner@almesberger.net",
			NULL, "ATM DRIVERS");
	ok(strstr(s, "D: and there\nD: ATM DRIVERS\nS: Buenos Aires\n") !=
	   NULL, "existing record: a D: line after the last D:");
	ok(!strstr(s, "N: W. Almesberger"), "no second record");
	g_free(s);

	s = credits_sort_key("Jane van Bravo");
	is_str(s, "bravo\tjane van bravo", "sort key: surname first");
	g_free(s);

	f.path = "CREDITS";
	f.old = credits;
	f.new = s = credits_add(credits, "Jörg Müller", "j@example.de", NULL,
				"X");
	p.from = "Jörg Müller <j@example.de>";
	p.date = 1600000000;
	p.date_offset = 120;
	p.subject = "CREDITS: add Jörg";
	p.nr = 2;
	p.total = 7;
	p.body = "One sentence.\n\nSigned-off-by: Jörg Müller <j@example.de>\n";
	p.files = &f;
	p.nr_files = 1;
	p.stat_only = false;
	ok(ms_format_patch(&p, out) == 0, "format-patch");
	ok(g_str_has_prefix(out->str,
			    "From 0000000000000000000000000000000000000000 "
			    "Mon Sep 17 00:00:00 2001\n"
			    "From: =?UTF-8?q?J=C3=B6rg_M=C3=BCller?= "
			    "<j@example.de>\n"
			    "Date: Sun, 13 Sep 2020 14:26:40 +0200\n"
			    "Subject: [PATCH 2/7] =?UTF-8?q?CREDITS=3A_add_J"
			    "=C3=B6rg?=\n"), "headers", out->str);
	ok(strstr(out->str, "---\n CREDITS | 4 ++++\n 1 file changed, "
		  "4 insertions(+)\n\ndiff --git a/CREDITS b/CREDITS\n"
		  "index ") != NULL, "diffstat and diff", out->str);
	ok(strstr(out->str, "\n+N: Jörg Müller\n") != NULL, "diff body");
	ok(strstr(out->str, "8bit\n\nOne sentence.") != NULL,
	   "no To: header when none is given", out->str);

	/* To: where and as git format-patch --to writes it */
	g_string_truncate(out, 0);
	p.to = to;
	p.nr_to = 2;
	ok(ms_format_patch(&p, out) == 0, "format-patch with To:");
	ok(strstr(out->str, "Content-Transfer-Encoding: 8bit\n"
		  "To: Ann <ann@example.org>,\n    list@example.org\n\n"
		  "One sentence.") != NULL, "To: header", out->str);
	g_free(s);
	g_string_free(out, TRUE);
	return test_done();
}
