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
		{ "Alice Old", "alice@example.com", 'M', "why A", NULL,
		  NULL, 0, NULL },
		{ "Eve Quiet", "eve@example.com", 'R', "why E", NULL,
		  NULL, 0, NULL },
	};
	struct retire_person beta[] = {
		{ NULL, "dan@example.com", 'M', "why D", NULL, NULL, 0,
		  NULL },
	};
	struct retire_person gamma[] = {
		{ "ALICE OLD", "Alice+gamma@Example.com", 'M', "why A2",
		  NULL, NULL, 0, NULL },
	};
	struct retire_person missing[] = {
		{ "Nobody", "nobody@example.com", 'M', "x", NULL, NULL, 0,
		  NULL },
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
			  'M', "why", NULL, NULL, 0, NULL },
			{ "Eve Anotherveryverylongsurname", "eve@example.com",
			  'R', "why", NULL, NULL, 0, NULL },
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
			  al, NULL, 0, NULL },
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
	/* the address each person used last: Cc'd too, and said, when it
	 * is not the listed one (compared in lowercase, +tag folded) */
	{
		static const char id[] =
			"0123456789abcdef0123456789abcdef01234567";
		struct retire_person moved[] = {
			{ "Alice Old", "alice@example.com", 'M', "why A", NULL,
			  "alice@newjob.example", 1600000000, id },
			{ "Eve Quiet", "eve@example.com", 'R', "why E", NULL,
			  "EVE+lkml@example.com", 1500000000, id },
		};
		struct retire_person same[] = {
			{ NULL, "dan@example.com", 'M', "why D", NULL,
			  "Dan@Example.COM", 1500000000, id },
		};
		struct retire_plan pm[] = {
			{ "ALPHA DRIVER", moved, 2, NULL },
			{ "BETA DRIVER (THE OLD ONE)", same, 1, NULL },
		};
		const struct retire_patch *p1, *p2;

		ok(retire_build(maintainers, credits, pm, 2, &opts, &s,
				&diags) == 0, "built with last addresses");
		p1 = &s->patches[1];
		p2 = &s->patches[2];
		ok(strstr(p1->text->str, "\nCc: Alice Old <alice@example.com>\n"
			  "Cc: Alice Old <alice@newjob.example>\n"
			  "Cc: Eve Quiet <eve@example.com>\n"
			  "Cc: alpha@lists.example.org\n") != NULL,
		   "Alice Cc'd at the listed and the last used address; Eve's "
		   "last one is her listed one up to case and +tag",
		   p1->text->str);
		ok(strstr(p1->text->str, "Alice Old is\nalso Cc'd at "
			  "alice@newjob.example, the address last used on "
			  "2020-09-13\n(commit 0123456789ab). Eve") != NULL,
		   "the message says where, since when and which commit",
		   p1->text->str);
		is_int(p1->nr_cc, 4, "four Cc: lines");
		ok(p1->nr_cc == 4 && p1->cc[1].last_used &&
		   p1->cc[1].who == &moved[0] && !p1->cc[0].last_used &&
		   !p1->cc[3].who, "each says whose and why");
		is_int(p1->nr_people, 2, "the people the patch removes");
		ok(!strstr(p1->text->str, "Eve Quiet is also"),
		   "no clause for Eve");
		ok(strstr(p2->text->str, "Cc: dan@example.com\nSigned-off-by")
		   && !strstr(p2->text->str, "also Cc'd"),
		   "listed address last used (up to case): one Cc, no clause",
		   p2->text->str);
		retire_series_free(s);

		opts.plus_fold = false;
		ok(retire_build(maintainers, credits, pm, 1, &opts, &s,
				&diags) == 0, "built without +tag folding");
		ok(strstr(s->patches[1].text->str, "Cc: Eve Quiet "
			  "<EVE+lkml@example.com>\n") != NULL,
		   "without folding, Eve's +tag address is another one",
		   s->patches[1].text->str);
		retire_series_free(s);
		opts.plus_fold = true;
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
