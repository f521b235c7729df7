/*
 * The retire series on a small MAINTAINERS and CREDITS: one person in two
 * entries is credited once, with both entries; an entry whose last
 * maintainer leaves becomes Orphan; reviewers get no CREDITS record; the
 * patches, applied in order, give the final texts (tests/cli checks that
 * git am agrees).
 */
#include "test.h"
#include "retire.h"

#include <glib.h>

static const char *maintainers =
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"ALPHA DRIVER\n"
	"M:\tAlice Old <alice@example.com>\n"
	"M:\tBob Active <bob@example.com>\n"
	"R:\tEve Quiet <eve@example.com>\n"
	"L:\talpha@lists.example.org\n"
	"S:\tMaintained\n"
	"F:\tdrivers/alpha/\n"
	"\n"
	"BETA DRIVER (THE OLD ONE)\n"
	"M:\tdan@example.com\n"
	"S:\tOdd Fixes\n"
	"F:\tdrivers/beta/\n"
	"\n"
	"GAMMA CORE\n"
	"M:\tALICE OLD <Alice+gamma@Example.com>\n"
	"L:\tgamma@lists.example.org\n"
	"F:\tgamma/\n";

static const char *credits =
	"\tCREDITS, sorted by name.\n"
	"----------\n"
	"\n"
	"N: Werner Almesberger\n"
	"E: werner@example.net\n"
	"D: ATM\n"
	"\n"
	"N: Linus Torvalds\n"
	"E: torvalds@example.org\n"
	"D: Original kernel hacker\n";

int main(void)
{
	struct retire_person alpha[] = {
		{ "Alice Old", "alice@example.com", 'M', "why A", NULL },
		{ "Eve Quiet", "eve@example.com", 'R', "why E", NULL },
	};
	struct retire_person beta[] = {
		{ NULL, "dan@example.com", 'M', "why D", NULL },
	};
	struct retire_person gamma[] = {
		{ "ALICE OLD", "Alice+gamma@Example.com", 'M', "why A2",
		  NULL },
	};
	struct retire_person missing[] = {
		{ "Nobody", "nobody@example.com", 'M', "x", NULL },
	};
	struct retire_plan plans[] = {
		{ "ALPHA DRIVER", alpha, 2, "Subsystem ALPHA DRIVER\n  ..." },
		{ "BETA DRIVER (THE OLD ONE)", beta, 1, NULL },
		{ "NO SUCH ENTRY", missing, 1, NULL },
		{ "GAMMA CORE", gamma, 1, NULL },
	};
	struct retire_opts opts = { "Ann Auditor <ann@example.org>",
				    1700000000, 0, false, true, "Intro." };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct retire_series *s;
	char *x;

	ok(retire_build(maintainers, credits, plans, 4, &opts, &s, &diags) ==
	   0, "series built");
	is_int(s->nr, 4, "cover letter and three patches");
	is_int(diags.nr, 1, "the missing entry is reported");
	ok(diags.nr && strstr(diags.items[0].message, "NO SUCH ENTRY"),
	   "named");

	is_str(s->patches[0].file_name, "0000-cover-letter.patch", "cover");
	is_str(s->patches[1].subject, "MAINTAINERS: ALPHA DRIVER: remove "
	       "Old, remove Quiet from reviewers",
	       "Alice still in GAMMA: removed, not moved; Eve a reviewer; "
	       "surnames keep the subject within 75 characters");
	ok(!s->patches[1].credits_changed, "no CREDITS change in patch 1");
	is_str(s->patches[1].file_name, "0001-MAINTAINERS-ALPHA-DRIVER-remove-"
	       "Old-remove-Quiet-fro.patch",
	       "format-patch file name, subject cut at 52 characters");
	is_str(s->patches[2].subject, "MAINTAINERS: BETA DRIVER: move "
	       "dan@example.com to CREDITS", "no name: the address stands in");
	ok(s->patches[2].orphaned, "BETA has no maintainer left: Orphan");
	is_str(s->patches[3].subject, "MAINTAINERS: GAMMA CORE: move ALICE OLD "
	       "to CREDITS", "Alice leaves for good in GAMMA (plus-folded)");

	ok(strstr(s->patches[2].text->str,
		  "-S:\tOdd Fixes\n+S:\tOrphan\n") != NULL, "S: Orphan in diff");
	ok(strstr(s->patches[1].text->str, "[PATCH 1/3]") != NULL,
	   "numbered 1/3");
	ok(strstr(s->patches[1].text->str, "\nSubsystem ALPHA DRIVER\n  ...\n"
		  "\nCc: Alice Old <alice@example.com>\n"
		  "Cc: Eve Quiet <eve@example.com>\n"
		  "Cc: alpha@lists.example.org\n"
		  "Signed-off-by: Ann Auditor <ann@example.org>\n---\n") !=
	   NULL, "report block, Cc the people and the list, sign-off",
	   s->patches[1].text->str);
	ok(strstr(s->patches[1].text->str, "Alice Old, listed as maintainer "
		  "of ALPHA DRIVER, has why A.") != NULL, "the sentence");

	x = strstr(s->credits, "N: ALICE OLD\nE: Alice+gamma@Example.com\n"
		   "D: ALPHA DRIVER\nD: GAMMA CORE\n\nN: Linus Torvalds");
	ok(x != NULL, "one CREDITS record for Alice, both entries, in order",
	   s->credits);
	ok(strstr(s->credits, "E: dan@example.com\nD: BETA DRIVER (THE OLD "
		  "ONE)\n") != NULL, "dan credited");
	ok(!strstr(s->credits, "eve@"), "reviewer not credited");
	ok(!strstr(s->maintainers, "alice") && !strstr(s->maintainers, "Alice"),
	   "Alice gone from MAINTAINERS");
	ok(strstr(s->maintainers, "GAMMA CORE\nL:\tgamma@lists.example.org\n"
		  "S:\tOrphan\nF:\tgamma/\n") != NULL,
	   "an entry without S: gets one after its people", s->maintainers);
	ok(strstr(s->patches[0].text->str, "  MAINTAINERS: GAMMA CORE: move "
		  "ALICE OLD to CREDITS\n") != NULL, "cover lists the patches");
	ok(!strstr(s->patches[0].text->str, "diff --git"),
	   "cover letter has no diff");
	retire_series_free(s);
	ms_diags_release(&diags);

	/* too long even with surnames: a count */
	{
		struct retire_person many[] = {
			{ "Alice Averyveryverylongsurname", "alice@example.com",
			  'M', "why", NULL },
			{ "Eve Anotherveryverylongsurname", "eve@example.com",
			  'R', "why", NULL },
		};
		struct retire_plan one = { "ALPHA DRIVER", many, 2, NULL };
		char *m = g_strdup(maintainers);

		/* the names as MAINTAINERS has them are matched by address */
		ok(retire_build(m, credits, &one, 1, &opts, &s,
				&diags) == 0, "built");
		is_str(s->patches[1].subject, "MAINTAINERS: ALPHA DRIVER: "
		       "retire 2 inactive people", "a count when names do "
		       "not fit");
		retire_series_free(s);
		g_free(m);
	}
	{
		const char *const al[] = { "werner@example.net", NULL };
		struct retire_person w[] = {
			{ "Werner Newjob", "werner@newjob.example", 'M', "why",
			  al },
		};
		struct retire_plan pw = { "BETA DRIVER (THE OLD ONE)", w, 1,
					  NULL };
		char *m = g_strdup_printf("%s\nWERNER\nM:\tWerner Newjob "
					  "<werner@newjob.example>\nS:\t"
					  "Maintained\nF:\tw/\n", maintainers);

		pw.entry = "WERNER";
		ok(retire_build(m, credits, &pw, 1, &opts, &s, &diags) == 0,
		   "built");
		ok(strstr(s->credits, "E: werner@example.net\nD: ATM\n"
			  "D: WERNER\n") != NULL, "the record under a joined "
		   "address gains the D: line", s->credits);
		ok(!strstr(s->credits, "newjob"), "no second record");
		retire_series_free(s);
		g_free(m);
	}
	ms_diags_release(&diags);

	x = retire_slug("MAINTAINERS: Ünïcode/ (weird) *entry*: remove X");
	is_str(x, "MAINTAINERS-n-code-weird-entry-remove-X",
	       "slug keeps only safe characters");
	g_free(x);
	x = retire_short_name("ARM/Allwinner sunXi SoC support (ABC)");
	is_str(x, "ARM/Allwinner sunXi SoC support", "short name");
	g_free(x);
	return test_done();
}
