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

/* retire_short_name(): entry name, short name, what is checked */
static const char *const short_names[][3] = {
	{ "ARM/Allwinner sunXi SoC support (ABC)",
	  "ARM/Allwinner sunXi SoC support", "short name" },
	{ "LIBIBUMAD USERSPACE LIBRARY FOR SMP AND GMP MAD PROCESSING "
	  "(/dev/infiniband/umadX)", "LIBIBUMAD USERSPACE LIBRARY",
	  "a long name: cut before a joining word (rdma-core)" },
	{ "ABCDEFGHIJ KLMNOPQRSTUV WXYZABCDEF GH IJKLMN AND MNOPQR",
	  "ABCDEFGHIJ KLMNOPQRSTUV WXYZABCDEF GH",
	  "...a joining word past 40 characters: at a space" },
	{ "ABCDEFGHIJ KLMNOPQRSTUV WXYZABCDEF AND GHIJKLMN",
	  "ABCDEFGHIJ KLMNOPQRSTUV WXYZABCDEF",
	  "...and one within 40 characters (past the 20th) cuts there" },
	{ "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRST",
	  "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMN",
	  "...one long word: 40 characters" },
};

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
		{ .entry = "ALPHA DRIVER", .people = alpha, .nr_people = 2,
		  .report = "Subsystem ALPHA DRIVER\n  ..." },
		{ .entry = "BETA DRIVER (THE OLD ONE)", .people = beta,
		  .nr_people = 1 },
		{ .entry = "NO SUCH ENTRY", .people = missing, .nr_people = 1,
		  .where = "HEAD:MAINTAINERS", .line = 99 },
		{ .entry = "GAMMA CORE", .people = gamma, .nr_people = 1 },
	};
	struct retire_opts opts = { "Ann Auditor <ann@example.org>",
				    1700000000, 0, false, true, "Intro." };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct retire_text top[] = { { "MAINTAINERS", maintainers } };
	struct retire_series *s;
	const char *m;
	char *x;

	ok(retire_build(top, 1, credits, plans, 4, &opts, &s, &diags) == 0,
	   "series built");
	is_int(s->nr, 4, "cover letter and three patches");
	is_int(diags.nr, 1, "the missing entry is reported");
	ok(diags.nr && strstr(diags.items[0].message, "NO SUCH ENTRY") &&
	   !g_strcmp0(diags.items[0].file, "HEAD:MAINTAINERS") &&
	   diags.items[0].line == 99, "named, where it was read",
	   diags.nr ? diags.items[0].message : "");

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
		  "Cc: Bob Active <bob@example.com>\n"
		  "Cc: alpha@lists.example.org\n"
		  "Signed-off-by: Ann Auditor <ann@example.org>\n---\n") !=
	   NULL, "report block, Cc the people removed, the maintainer who "
	   "stays and the list, sign-off",
	   s->patches[1].text->str);
	ok(strstr(s->patches[1].text->str, "Alice Old, listed as maintainer "
		  "of ALPHA DRIVER, has why A.") != NULL, "the sentence");

	m = retire_series_text(s, "MAINTAINERS");
	x = strstr(s->credits, "N: ALICE OLD\nE: Alice+gamma@Example.com\n"
		   "D: ALPHA DRIVER\nD: GAMMA CORE\n\nN: Linus Torvalds");
	ok(x != NULL, "one CREDITS record for Alice, both entries, in order",
	   s->credits);
	ok(strstr(s->credits, "E: dan@example.com\nD: BETA DRIVER (THE OLD "
		  "ONE)\n") != NULL, "dan credited");
	ok(!strstr(s->credits, "eve@"), "reviewer not credited");
	ok(!strstr(m, "alice") && !strstr(m, "Alice"),
	   "Alice gone from MAINTAINERS");
	ok(strstr(m, "GAMMA CORE\nL:\tgamma@lists.example.org\n"
		  "S:\tOrphan\nF:\tgamma/\n") != NULL,
	   "an entry without S: gets one after its people", m);
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
		struct retire_plan one = { .entry = "ALPHA DRIVER",
					   .people = many, .nr_people = 2 };

		/* the names as MAINTAINERS has them are matched by address */
		ok(retire_build(top, 1, credits, &one, 1, &opts, &s,
				&diags) == 0, "built");
		is_str(s->patches[1].subject, "MAINTAINERS: ALPHA DRIVER: "
		       "retire 2 inactive people", "a count when names do "
		       "not fit");
		retire_series_free(s);
	}
	{
		const char *const al[] = { "werner@example.net", NULL };
		struct retire_person w[] = {
			{ "Werner Newjob", "werner@newjob.example", 'M', "why",
			  al, NULL, 0, NULL },
		};
		struct retire_plan pw = { .entry = "WERNER", .people = w,
					  .nr_people = 1 };
		struct retire_text tw = { "MAINTAINERS", NULL };
		char *mw = g_strdup_printf("%s\nWERNER\nM:\tWerner Newjob "
					  "<werner@newjob.example>\nS:\t"
					  "Maintained\nF:\tw/\n", maintainers);

		tw.text = mw;
		ok(retire_build(&tw, 1, credits, &pw, 1, &opts, &s, &diags) ==
		   0, "built");
		ok(strstr(s->credits, "E: werner@example.net\nD: ATM\n"
			  "D: WERNER\n") != NULL, "the record under a joined "
		   "address gains the D: line", s->credits);
		ok(!strstr(s->credits, "newjob"), "no second record");
		retire_series_free(s);
		g_free(mw);
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
			{ .entry = "ALPHA DRIVER", .people = moved,
			  .nr_people = 2 },
			{ .entry = "BETA DRIVER (THE OLD ONE)", .people = same,
			  .nr_people = 1 },
		};
		const struct retire_patch *p1, *p2;

		ok(retire_build(top, 1, credits, pm, 2, &opts, &s,
				&diags) == 0, "built with last addresses");
		p1 = &s->patches[1];
		p2 = &s->patches[2];
		ok(strstr(p1->text->str, "\nCc: Alice Old <alice@example.com>\n"
			  "Cc: Alice Old <alice@newjob.example>\n"
			  "Cc: Eve Quiet <eve@example.com>\n"
			  "Cc: Bob Active <bob@example.com>\n"
			  "Cc: alpha@lists.example.org\n") != NULL,
		   "Alice Cc'd at the listed and the last used address; Eve's "
		   "last one is her listed one up to case and +tag",
		   p1->text->str);
		ok(strstr(p1->text->str, "Alice Old is\nalso Cc'd at "
			  "alice@newjob.example, the address last used on "
			  "2020-09-13\n(commit 0123456789ab). Eve") != NULL,
		   "the message says where, since when and which commit",
		   p1->text->str);
		is_int(p1->nr_cc, 5, "five Cc: lines");
		ok(p1->nr_cc == 5 && p1->cc[1].kind == RETIRE_CC_LAST_USED &&
		   p1->cc[1].who == &moved[0] &&
		   p1->cc[0].kind == RETIRE_CC_LISTED &&
		   p1->cc[3].kind == RETIRE_CC_REMAINING && !p1->cc[3].who &&
		   p1->cc[4].kind == RETIRE_CC_LIST && !p1->cc[4].who,
		   "each says whose and why");
		is_int(p1->nr_people, 2, "the people the patch removes");
		ok(!strstr(p1->text->str, "Eve Quiet is also"),
		   "no clause for Eve");
		ok(strstr(p2->text->str, "Cc: dan@example.com\nSigned-off-by")
		   && !strstr(p2->text->str, "also Cc'd"),
		   "listed address last used (up to case): one Cc, no clause",
		   p2->text->str);
		retire_series_free(s);

		opts.plus_fold = false;
		ok(retire_build(top, 1, credits, pm, 1, &opts, &s,
				&diags) == 0, "built without +tag folding");
		ok(strstr(s->patches[1].text->str, "Cc: Eve Quiet "
			  "<EVE+lkml@example.com>\n") != NULL,
		   "without folding, Eve's +tag address is another one",
		   s->patches[1].text->str);
		retire_series_free(s);
		opts.plus_fold = true;
	}
	ms_diags_release(&diags);

	/* entries in other MAINTAINERS files (U-Boot's board files): each
	 * patch edits the file its entry lives in, in order; entries of one
	 * name in two files are told apart; someone listed in another file
	 * is not credited yet; the people who stay are Cc'd, To: is the
	 * plan's addresses not Cc'd */
	{
		static const char pair[] =
			"ACME PAIR ONE\n"
			"M:\tBob Board <bob.board@example.com>\n"
			"S:\tMaintained\n"
			"F:\tboard/acme/pair/one.c\n"
			"\n"
			"ACME PAIR TWO\n"
			"M:\tBob Board <bob.board@example.com>\n"
			"F:\tboard/acme/pair/two.c\n";
		static const char bx[] =
			"ACME X BOARD\n"
			"M:\tBob Board <bob.board@example.com>\n"
			"M:\tCarl Stays <carl@example.com>\n"
			"R:\tRay Review <ray@example.com>\n"
			"S:\tMaintained\n"
			"F:\tboard/acme/x/\n";
		static const char by[] =
			"ACME X BOARD\n"
			"M:\tBob Board <bob.board@example.com>\n"
			"S:\tMaintained\n"
			"F:\tboard/other/y/\n";
		/* not in path order: the cover's diffstat is */
		struct retire_text files[] = {
			{ "board/other/y/MAINTAINERS", by },
			{ "MAINTAINERS", maintainers },
			{ "board/acme/x/MAINTAINERS", bx },
			{ "board/acme/pair/MAINTAINERS", pair },
		};
		struct retire_person bob[] = {
			{ "Bob Board", "bob.board@example.com", 'M', "why B",
			  NULL, NULL, 0, NULL },
		};
		const struct retire_to to[] = {
			{ "Carl Stays <carl@example.com>", "carl@example.com",
			  'M' },
			{ "Tom Top <tom@example.com>", "tom@example.com", 'M' },
			{ "board@lists.example.org", "board@lists.example.org",
			  'L' },
		};
		struct retire_plan pb[] = {
			{ .entry = "ACME PAIR ONE", .people = bob,
			  .nr_people = 1, .path = "board/acme/pair/MAINTAINERS",
			  .to = to, .nr_to = 3 },
			{ .entry = "ACME PAIR TWO", .people = bob,
			  .nr_people = 1, .path = "board/acme/pair/MAINTAINERS",
			  .to = to, .nr_to = 3 },
			{ .entry = "ACME X BOARD", .people = bob,
			  .nr_people = 1, .path = "board/acme/x/MAINTAINERS",
			  .to = to, .nr_to = 3 },
			/* a second one of that name in that file: none */
			{ .entry = "ACME X BOARD", .people = bob,
			  .nr_people = 1, .path = "board/acme/x/MAINTAINERS",
			  .nth = 1, .where = "HEAD:board/acme/x/MAINTAINERS",
			  .line = 7 },
			{ .entry = "ACME X BOARD", .people = bob,
			  .nr_people = 1, .path = "board/other/y/MAINTAINERS" },
		};
		const struct retire_patch *px;

		ok(retire_build(files, 4, credits, pb, 5, &opts, &s,
				&diags) == 0, "built with board files");
		is_int(s->nr, 5, "cover letter and four patches");
		is_int(diags.nr, 1, "one warning, for the entry not there");
		ok(diags.nr == 1 && !g_strcmp0(diags.items[0].file,
					       "HEAD:board/acme/x/MAINTAINERS")
		   && diags.items[0].line == 7 &&
		   !strcmp(diags.items[0].message, "no entry 'ACME X BOARD' in "
			   "board/acme/x/MAINTAINERS: skipped"),
		   "where it was read, and which file lacks it",
		   diags.nr ? diags.items[0].message : "");
		ms_diags_release(&diags);
		if (s->nr != 5)
			return test_done();
		is_str(s->patches[1].subject, "board: acme: pair: ACME PAIR "
		       "ONE: remove Bob Board from MAINTAINERS",
		       "a file of several entries: its directories, the entry");
		is_str(s->patches[2].path, "board/acme/pair/MAINTAINERS",
		       "the file each patch edits");
		is_str(s->patches[3].subject, "board: acme: x: remove Bob Board "
		       "from MAINTAINERS", "a file of one entry: its "
		       "directories");
		is_str(s->patches[4].subject, "board: other: y: move Bob Board "
		       "to CREDITS", "listed nowhere else now: credited");
		ok(strstr(s->patches[1].text->str, "\n---\n "
			  "board/acme/pair/MAINTAINERS | 3 +--\n 1 file "
			  "changed, 1 insertion(+), 2 deletions(-)\n\n"
			  "diff --git a/board/acme/pair/MAINTAINERS "
			  "b/board/acme/pair/MAINTAINERS\nindex ") != NULL,
		   "the diff names the board file", s->patches[1].text->str);
		ok(strstr(s->patches[1].text->str, "Bob Board, listed as "
			  "maintainer of ACME PAIR ONE in\n"
			  "board/acme/pair/MAINTAINERS, has why B.") != NULL,
		   "the message names the file", s->patches[1].text->str);
		is_str(retire_series_text(s, "board/acme/pair/MAINTAINERS"),
		       "ACME PAIR ONE\n"
		       "S:\tOrphan\n"
		       "F:\tboard/acme/pair/one.c\n"
		       "\n"
		       "ACME PAIR TWO\n"
		       "S:\tOrphan\n"
		       "F:\tboard/acme/pair/two.c\n",
		       "both entries of the file Orphan, and kept");
		is_str(retire_series_text(s, "board/acme/x/MAINTAINERS"),
		       "ACME X BOARD\n"
		       "M:\tCarl Stays <carl@example.com>\n"
		       "R:\tRay Review <ray@example.com>\n"
		       "S:\tMaintained\n"
		       "F:\tboard/acme/x/\n", "Bob gone, Carl stays");
		is_str(retire_series_text(s, "MAINTAINERS"), maintainers,
		       "the top-level file untouched");
		px = &s->patches[3];
		ok(strstr(px->text->str, "\nCc: Bob Board "
			  "<bob.board@example.com>\n"
			  "Cc: Carl Stays <carl@example.com>\n"
			  "Cc: Ray Review <ray@example.com>\n"
			  "Signed-off-by: ") != NULL,
		   "Cc the removed, then the maintainer and the reviewer who "
		   "stay", px->text->str);
		ok(strstr(px->text->str, "Content-Transfer-Encoding: 8bit\n"
			  "To: Tom Top <tom@example.com>,\n"
			  "    board@lists.example.org\n\n") != NULL,
		   "To: what the plan says, without Carl (Cc'd)",
		   px->text->str);
		ok(px->nr_cc == 3 && px->cc[1].kind == RETIRE_CC_REMAINING &&
		   px->cc[2].kind == RETIRE_CC_REMAINING && px->nr_to == 2 &&
		   px->to[0].kind == RETIRE_TO_MAINTAINER &&
		   px->to[1].kind == RETIRE_TO_LIST, "their kinds");
		ok(strstr(s->patches[1].text->str, "Cc: Bob Board <bob.board@"
			  "example.com>\nSigned-off-by: ") != NULL &&
		   strstr(s->patches[1].text->str, "To: Carl Stays <carl@"
			  "example.com>,\n    Tom Top <tom@example.com>,\n"
			  "    board@lists.example.org\n\n") != NULL,
		   "nobody stays in PAIR ONE: To: the plan's all",
		   s->patches[1].text->str);
		ok(strstr(s->credits, "N: Bob Board\nE: bob.board@example.com\n"
			  "D: ACME PAIR ONE (board/acme/pair)\n"
			  "D: ACME PAIR TWO (board/acme/pair)\n"
			  "D: ACME X BOARD (board/acme/x)\n"
			  "D: ACME X BOARD (board/other/y)\n\n") != NULL,
		   "one record, a D: line per board he left", s->credits);
		ok(strstr(s->patches[0].text->str, "---\n"
			  " CREDITS                     | 7 +++++++\n"
			  " board/acme/pair/MAINTAINERS | 5 ++---\n"
			  " board/acme/x/MAINTAINERS    | 1 -\n"
			  " board/other/y/MAINTAINERS   | 3 +--\n"
			  " 4 files changed") != NULL &&
		   !strstr(s->patches[0].text->str, "\n MAINTAINERS "),
		   "the cover's diffstat: the files changed, in path order",
		   s->patches[0].text->str);
		retire_series_free(s);
	}

	{
		/* Xen's INTEL TXT lists reviewers only: one leaving is no
		 * reason to call the entry Orphan; the last one leaving is */
		static const char *rv =
			"TXT\n"
			"R:\tLuke Gone <luke@example.com>\n"
			"R:\tDan Here <dan@example.com>\n"
			"S:\tOdd Fixes\n"
			"F:\ttxt/\n"
			"\n"
			"SOLO\n"
			"R:\tSam Gone <sam@example.com>\n"
			"S:\tMaintained\n"
			"F:\tsolo/\n";
		struct retire_person luke[] = {
			{ "Luke Gone", "luke@example.com", 'R', "why L", NULL,
			  NULL, 0, NULL },
		};
		struct retire_person sam[] = {
			{ "Sam Gone", "sam@example.com", 'R', "why S", NULL,
			  NULL, 0, NULL },
		};
		struct retire_plan pr[] = {
			{ .entry = "TXT", .people = luke, .nr_people = 1 },
			{ .entry = "SOLO", .people = sam, .nr_people = 1 },
		};
		struct retire_text f1[] = { { "MAINTAINERS", rv } };

		ok(retire_build(f1, 1, credits, pr, 2, &opts, &s, &diags) ==
		   0 && s->nr == 3, "reviewer-only entries built");
		if (s->nr == 3) {
			ok(!s->patches[1].orphaned && !strstr(
				   s->patches[1].text->str, "Orphan"),
			   "a reviewer leaves, another stays: status kept",
			   s->patches[1].text->str);
			ok(s->patches[2].orphaned, "the last person leaves: "
			   "Orphan");
			is_str(retire_series_text(s, "MAINTAINERS"),
			       "TXT\nR:\tDan Here <dan@example.com>\n"
			       "S:\tOdd Fixes\nF:\ttxt/\n\nSOLO\n"
			       "S:\tOrphan\nF:\tsolo/\n", "the final text");
		}
		ms_diags_release(&diags);
		retire_series_free(s);
	}

	x = retire_patch_name(3, "MAINTAINERS: Ünïcode/ (weird) *entry*: "
			      "remove X");
	is_str(x, "0003-MAINTAINERS-n-code-weird-entry-remove-X.patch",
	       "a patch's file name keeps only safe characters");
	g_free(x);
	x = retire_patch_name(0, "MAINTAINERS: retire");
	is_str(x, "0000-cover-letter.patch", "the cover letter's name");
	g_free(x);
	for (size_t i = 0; i < G_N_ELEMENTS(short_names); i++) {
		x = retire_short_name(short_names[i][0]);
		is_str(x, short_names[i][1], short_names[i][2]);
		g_free(x);
	}
	return test_done();
}
