/*
 * test-areas.c - the rules of areas.c, each on a planted repository
 * built here with git fast-import and checked at its boundary:
 *
 * - cutting: a directory is cut into its subdirectories and its own
 *   files ("dir/" and a star) while it holds at least --split-commits
 *   (ms_areas_query.min_commits) commits of the window and more than one
 *   of those parts has commits;
 * - a file pattern's files are one area, named as the entry writes it,
 *   unless a directory pattern holds them;
 * - X: leaves its files out;
 * - an F: line of a star and a slash is the whole tree, cut once into its
 *   top-level directories;
 * - the flags: unattended (commits, none authored, committed or tagged
 *   by a listed person, nor by the people of an inner entry covering the
 *   area), de-facto (an unlisted person applied at least half of the
 *   area's commits, or gave half of its review tags and on a quarter of
 *   its commits, either at least --split-commits / 2 times and never
 *   fewer than MS_AREAS_DEFACTO_MIN), dormant (no
 *   commit in the window; a listed person's last date there is still
 *   found before it).
 *
 * Planted, in the window (1600000000 .. 1700000000), its last 100 days:
 *   drivers/broad/mia/sub/: 6 commits authored by Mia (listed M:); Carl
 *     applies 3 of them (exactly half: de-facto at --split-commits 6,
 *     not at 9, which asks for 4), Mia the rest; Ray (listed R:) reviews
 *     those 3, Vic the other 3 (the same);
 *     drivers/broad/mia/old.c has no commit in the window;
 *   drivers/broad/work/: 8 commits authored by Wes, 5 in work/deep/, 3
 *     to work/a.c; Wes applies 5, Cora 3 (under half: not de-facto);
 *     Rhea reviews 4 of the 7 reviewed (de-facto), Quinn 3 (under half);
 *   drivers/broad/inner/: 3 commits by Ian, whom the inner entry lists
 *     (its N: line after its F: line makes it 0 deep to get_maintainer.pl,
 *     as ARM VERSAL in U-Boot: still inside);
 *   drivers/broad/top.c: 2 commits by Otto, acked by Ray (listed R:);
 *     an F: line names it besides F: drivers/broad/, which holds it;
 *   include/broad.h: 2 commits by Mia applied by Zed and reviewed by
 *     Yan (all of them, but fewer than MS_AREAS_DEFACTO_MIN);
 *   drivers/broad/excluded/: 2 commits (X:).
 * Before it: the root commit, and Mia's commit to drivers/broad/dormant/.
 * REST (F: a star, F: a star and a slash) has every file; Tom's one
 * commit to drivers/other/ is REST's only.
 */
#include "test.h"
#include "activity.h"
#include "areas.h"
#include "maintainers.h"
#include "error.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SINCE 1600000000
#define UNTIL 1700000000

#define MIA "Mia Maint <mia@example.org>"
#define RAY "Ray Listed <ray@example.org>"
#define IAN "Ian Inner <ian@example.org>"
#define CARL "Carl Commit <carl@example.net>"
#define WES "Wes Worker <wes@example.net>"
#define CORA "Cora Commit <cora@example.net>"
#define RHEA "Rhea Rev <rhea@example.net>"
#define QUINN "Quinn Quiet <quinn@example.net>"
#define VIC "Vic Viewer <vic@example.net>"
#define YAN "Yan Yes <yan@example.net>"
#define TOM "Tom Rest <tom@example.org>"
#define OTTO "Otto Other <otto@example.net>"
#define ZED "Zed Applier <zed@example.net>"

static const char maintainers[] =
	"BROAD\n"
	"M:\t" MIA "\n"
	"R:\t" RAY "\n"
	"S:\tMaintained\n"
	"F:\tdrivers/broad/\n"
	"F:\tdrivers/broad/top.c\n"
	"F:\tinclude/broad.h\n"
	"X:\tdrivers/broad/excluded/\n"
	"\n"
	"INNER\n"
	"M:\t" IAN "\n"
	"S:\tMaintained\n"
	"F:\tdrivers/broad/inner/\n"
	"N:\tbroad/inn\n"
	"\n"
	"REST\n"
	"M:\t" TOM "\n"
	"F:\t*\n"
	"F:\t*/\n";

static const char *const files[] = {
	"drivers/broad/top.c", "drivers/broad/mia/old.c",
	"drivers/broad/mia/sub/s.c", "drivers/broad/work/a.c",
	"drivers/broad/work/deep/x.c", "drivers/broad/work/deep/y.c",
	"drivers/broad/inner/i.c", "drivers/broad/dormant/d.c",
	"drivers/broad/excluded/e.c", "include/broad.h", "drivers/other/o.c",
};

/* (the window's last 100 days: de-facto work is recent work) */
static int64_t when = UNTIL - 100 * 86400;
static unsigned serial;

/* One commit of `path` at the next day of the window (or at `t`). */
static void commit(GString *s, int64_t t, const char *author,
		   const char *committer, const char *trailers,
		   const char *path)
{
	char *msg = g_strdup_printf("change %u\n\n%sSigned-off-by: %s\n",
				    ++serial, trailers ? trailers : "",
				    committer);

	if (!t) {
		when += 86400;
		t = when;
	}
	g_string_append_printf(s, "commit refs/heads/main\n"
			       "author %s %lld +0000\ncommitter %s %lld "
			       "+0000\ndata %zu\n%s"
			       "M 100644 inline %s\ndata 11\nchange %04u\n\n",
			       author, (long long)t, committer, (long long)t,
			       strlen(msg), msg, path, serial);
	g_free(msg);
}

static GString *stream(void)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "commit refs/heads/main\ncommitter Root "
			       "Import <root@example.org> 1500000000 +0000\n"
			       "data 5\nroot\nM 100644 inline MAINTAINERS\n"
			       "data %zu\n%s\n", strlen(maintainers),
			       maintainers);
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
		g_string_append_printf(s, "M 100644 inline %s\ndata 2\nx\n",
				       files[i]);
	g_string_append_c(s, '\n');
	/* Mia's last commit to the dormant directory, before the window */
	commit(s, 1550000000, MIA, MIA, NULL, "drivers/broad/dormant/d.c");
	for (int i = 0; i < 6; i++)
		commit(s, 0, MIA, i < 3 ? CARL : MIA, i < 3 ? "Reviewed-by: "
		       RAY "\n" : "Reviewed-by: " VIC "\n",
		       "drivers/broad/mia/sub/s.c");
	for (int i = 0; i < 8; i++)
		commit(s, 0, WES, i < 5 ? WES : CORA,
		       i % 2 ? "Reviewed-by: " RHEA "\n" : i < 6 ?
		       "Reviewed-by: " QUINN "\n" : NULL,
		       i < 5 ? (i % 2 ? "drivers/broad/work/deep/x.c" :
				"drivers/broad/work/deep/y.c") :
		       "drivers/broad/work/a.c");
	for (int i = 0; i < 3; i++)
		commit(s, 0, IAN, IAN, NULL, "drivers/broad/inner/i.c");
	for (int i = 0; i < 2; i++)
		commit(s, 0, OTTO, OTTO, "Acked-by: " RAY "\n",
		       "drivers/broad/top.c");
	for (int i = 0; i < 2; i++)
		commit(s, 0, MIA, ZED, "Reviewed-by: " YAN "\n",
		       "include/broad.h");
	for (int i = 0; i < 2; i++)
		commit(s, 0, WES, WES, NULL, "drivers/broad/excluded/e.c");
	commit(s, 0, TOM, TOM, NULL, "drivers/other/o.c");
	return s;
}

static struct ms_activity *model;
static struct ms_commit_paths *paths;

/* The areas of entry `entry` (0 BROAD, 2 REST) for --split-commits
 * `min`. */
static struct ms_areas *compute_entry(size_t entry, size_t min)
{
	struct ms_areas_query q = MS_AREAS_QUERY_INIT;
	const struct maint_entry *sel[1];
	struct ms_areas *r = NULL;
	const struct maint_file *mf = ms_activity_maintainers(model);

	sel[0] = maint_file_entry(mf, entry);
	q.since = SINCE;
	q.until = UNTIL;
	q.entries = sel;
	q.nr_entries = 1;
	q.min_commits = min;
	if (ms_areas_compute(model, paths, &q, &r) < 0)
		return NULL;
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct ms_areas *compute(size_t min)
{
	return compute_entry(0, min);
}

/* The areas' paths, sorted and joined with spaces. */
static char *area_paths(const struct ms_areas *r)
{
	const struct ms_areas_entry *e = &r->entries[0];
	GPtrArray *v = g_ptr_array_new();
	char *s;

	for (size_t i = 0; i < e->nr_areas; i++)
		g_ptr_array_add(v, e->areas[i].path);
	g_ptr_array_sort(v, cmp_str);
	g_ptr_array_add(v, NULL);
	s = g_strjoinv(" ", (char **)v->pdata);
	g_ptr_array_free(v, TRUE);
	return s;
}

static const struct ms_area *area(const struct ms_areas *r, const char *path)
{
	const struct ms_areas_entry *e = &r->entries[0];

	for (size_t i = 0; i < e->nr_areas; i++)
		if (!strcmp(e->areas[i].path, path))
			return &e->areas[i];
	return NULL;
}

static const struct ms_area_person *person(const struct ms_area *a,
					   const char *email)
{
	for (size_t i = 0; a && i < a->nr_top; i++)
		if (!strcmp(a->top[i].email, email))
			return &a->top[i];
	return NULL;
}

/* The cut for each --split-commits, at the boundaries of the rule. */
static void check_cutting(void)
{
	static const struct {
		size_t min;
		const char *want, *what;
	} cuts[] = {
		{ 20, "drivers/broad/ include/broad.h",
		  "19 commits under drivers/broad/, 20 asked: not cut" },
		{ 19, "drivers/broad/* drivers/broad/dormant/ "
		  "drivers/broad/inner/ drivers/broad/mia/ "
		  "drivers/broad/work/ include/broad.h",
		  "19 asked: cut once (work/ holds 8, under 19); its own "
		  "files are one area, drivers/broad/ followed by a star" },
		{ 9, "drivers/broad/* drivers/broad/dormant/ "
		  "drivers/broad/inner/ drivers/broad/mia/ "
		  "drivers/broad/work/ include/broad.h",
		  "9 asked: work/ (8 commits) not cut" },
		{ 8, "drivers/broad/* drivers/broad/dormant/ "
		  "drivers/broad/inner/ drivers/broad/mia/ "
		  "drivers/broad/work/* drivers/broad/work/deep/ "
		  "include/broad.h",
		  "8 asked: work/ cut into deep/ and its own file" },
		{ 6, "drivers/broad/* drivers/broad/dormant/ "
		  "drivers/broad/inner/ drivers/broad/mia/ "
		  "drivers/broad/work/* drivers/broad/work/deep/ "
		  "include/broad.h",
		  "6 asked: mia/ holds 6 but only sub/ has commits: not cut" },
		{ 0, "drivers/broad/* drivers/broad/dormant/ "
		  "drivers/broad/inner/ drivers/broad/mia/ "
		  "drivers/broad/work/* drivers/broad/work/deep/ "
		  "include/broad.h",
		  "0 asked: still only where more than one part has commits" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cuts); i++) {
		struct ms_areas *r = compute(cuts[i].min);
		char *got = r ? area_paths(r) : NULL;

		is_str(got, cuts[i].want, cuts[i].what);
		g_free(got);
		ms_areas_free(r);
	}
}

static void check_counts(const struct ms_areas *r)
{
	const struct ms_area *top = area(r, "drivers/broad/*");
	const struct ms_area *h = area(r, "include/broad.h");
	const struct ms_area *w = area(r, "drivers/broad/work/");
	const struct ms_area *m = area(r, "drivers/broad/mia/");

	is_int(r->entries[0].commits, 21, "BROAD: 21 commits in the window "
	       "(X: leaves the excluded directory's 2 out)");
	ok(!area(r, "drivers/broad/excluded/"), "no area for X:'s files");
	ok(top && top->files == 1 && top->commits == 2,
	   "the directory's own files: one area, 1 file, 2 commits");
	ok(h && h->files == 1 && h->commits == 2,
	   "the file pattern: one area named as written, 1 file, 2 commits");
	ok(w && w->files == 3 && w->commits == 8 && w->reviewed == 7,
	   "work/: 3 files, 8 commits, 7 reviewed");
	ok(m && m->files == 2 && m->commits == 6,
	   "mia/: 2 files (old.c without commits too), 6 commits");
	is_int(r->entries[0].nr_areas, 6, "six areas at 19");
}

static void check_flags(const struct ms_areas *r)
{
	const struct ms_area *w = area(r, "drivers/broad/work/");
	const struct ms_area *m = area(r, "drivers/broad/mia/");
	const struct ms_area *in = area(r, "drivers/broad/inner/");
	const struct ms_area *d = area(r, "drivers/broad/dormant/");
	const struct ms_area *top = area(r, "drivers/broad/*");
	const struct ms_area *h = area(r, "include/broad.h");
	const struct ms_area_person *p;

	if (!w || !m || !in || !d || !top || !h) {
		ok(0, "every area of the cut at 9 is there");
		return;
	}
	is_int(w->flags, MS_AREA_UNATTENDED | MS_AREA_DEFACTO,
	       "work/: unattended (no listed person) and de-facto");
	p = person(w, "wes@example.net");
	ok(p && p->committed == 5 && p->defacto_committer &&
	   !p->defacto_reviewer, "Wes applied 5 of 8: de-facto committer");
	p = person(w, "cora@example.net");
	ok(p && p->committed == 3 && !p->defacto_committer,
	   "Cora applied 3 of 8, under half: not de-facto");
	p = person(w, "rhea@example.net");
	ok(p && p->reviewed == 4 && p->defacto_reviewer &&
	   !p->defacto_committer, "Rhea reviewed 4 of the 7 reviewed: "
	   "de-facto reviewer");
	p = person(w, "quinn@example.net");
	ok(p && p->reviewed == 3 && !p->defacto_reviewer,
	   "Quinn reviewed 3 of 7, under half: not de-facto");
	is_int(m->flags, 0, "mia/: attended (Mia authored), not de-facto");
	p = person(m, "carl@example.net");
	ok(p && p->committed == 3 && !p->defacto_committer,
	   "Carl applied 3 of 6, exactly half, but fewer than 4 (half of "
	   "--split-commits 9): not de-facto");
	p = person(m, "vic@example.net");
	ok(p && p->reviewed == 3 && !p->defacto_reviewer,
	   "Vic reviewed 3 of 6, exactly half, but fewer than 4: not "
	   "de-facto");
	p = person(m, "mia@example.org");
	ok(p && p->listed && !p->defacto_committer && p->authored == 6,
	   "Mia is listed, never de-facto");
	is_int(in->flags, 0, "inner/: attended by the inner entry's Ian");
	p = person(in, "ian@example.org");
	ok(p && !p->listed && p->listed_in &&
	   !strcmp(p->listed_in, "INNER") && !p->defacto_committer,
	   "Ian is listed in INNER, so not de-facto");
	ok(in->nr_covers == 2 && in->covers[0].inner &&
	   in->covers[0].commits == 3 && !in->covers[1].inner,
	   "INNER covers inner/'s 3 commits from inside, REST from outside");
	is_int(top->flags, 0, "drivers/broad/*: attended by Ray's acks");
	is_int(h->flags, 0, "include/broad.h: Zed applied both and Yan "
	       "reviewed both, fewer than the minimum: not de-facto; Mia "
	       "authored them");
	is_int(d->flags, MS_AREA_DORMANT, "dormant/: dormant, nothing else");
	ok(d->nr_listed == 2 && d->listed[0].role == 'M' &&
	   d->listed[0].author.set &&
	   d->listed[0].author.time == 1550000000 &&
	   d->listed[0].author.count == 0 && !d->listed[1].author.set,
	   "dormant/: Mia's last commit there, before the window");
}

/* At --split-commits 6 de-facto evidence is 3 (MS_AREAS_DEFACTO_MIN):
 * Carl's and Vic's 3 of mia/'s 6 commits make them de-facto. */
static void check_split_6(void)
{
	struct ms_areas *r = compute(6);
	const struct ms_area *m = r ? area(r, "drivers/broad/mia/") : NULL;
	const struct ms_area_person *c = m ? person(m, "carl@example.net") :
		NULL, *v = m ? person(m, "vic@example.net") : NULL;

	ok(m && m->flags == MS_AREA_DEFACTO && c && c->defacto_committer &&
	   v && v->defacto_reviewer && !v->defacto_committer,
	   "at 6: Carl de-facto committer, Vic de-facto reviewer of mia/");
	ms_areas_free(r);
}

/* REST's F: followed by a star and a slash is the whole tree: its areas
 * are the top-level directories, never cut further; F: and a star alone
 * the files at the top. */
static void check_whole_tree(void)
{
	static const struct {
		size_t min;
		const char *want, *what;
	} cuts[] = {
		{ 19, "* drivers/ include/", "REST at 19: its top-level "
		  "directories (drivers/: 22 commits in broad/ and other/, "
		  "not cut) and the top's files" },
		{ 24, "* drivers/ include/", "REST at 24 (all its commits): "
		  "cut" },
		{ 25, "* */", "REST at 25: the whole tree one area" },
	};
	struct ms_areas *r;

	for (size_t i = 0; i < G_N_ELEMENTS(cuts); i++) {
		char *got;

		r = compute_entry(2, cuts[i].min);
		got = r ? area_paths(r) : NULL;
		is_str(got, cuts[i].want, cuts[i].what);
		g_free(got);
		ms_areas_free(r);
	}
	r = compute_entry(2, 0);
	ok(r && r->entries[0].whole_tree, "REST: the whole tree");
	ok(r && area(r, "drivers/") && area(r, "drivers/")->commits == 22 &&
	   area(r, "drivers/")->files == 10 && area(r, "*") &&
	   area(r, "*")->files == 1 && area(r, "*")->flags == MS_AREA_DORMANT,
	   "drivers/: 22 commits (X: is BROAD's only), 10 files; the top's "
	   "MAINTAINERS dormant");
	ms_areas_free(r);
	r = compute(0);
	ok(r && !r->entries[0].whole_tree, "BROAD: not the whole tree");
	ms_areas_free(r);
}

/* ms_area_standing(): the first that holds, in the de-facto rule's
 * order. */
static void test_standing(void)
{
	struct ms_area_person p = { .listed = true, .listed_in = "X",
				    .custodial = 2, .listed_then = true };

	is_int(ms_area_standing(&p), MS_AREA_LISTED, "standing: listed "
	       "first");
	p.listed = false;
	is_int(ms_area_standing(&p), MS_AREA_LISTED_ELSEWHERE,
	       "... then listed in another entry");
	p.listed_in = NULL;
	is_int(ms_area_standing(&p), MS_AREA_CUSTODIAN, "... then custodian");
	p.custodial = 0;
	is_int(ms_area_standing(&p), MS_AREA_LISTED_THEN,
	       "... then listed when the window began");
	p.listed_then = false;
	is_int(ms_area_standing(&p), MS_AREA_UNLISTED, "... else unlisted");
}

int main(void)
{
	char *dir = g_dir_make_tmp("ms-areas-XXXXXX", NULL);
	char *git = g_build_filename(dir, "r.git", NULL);
	char *cmd = g_strdup_printf("git init -q --bare '%s' && git "
				    "--git-dir='%s' symbolic-ref HEAD "
				    "refs/heads/main && git --git-dir='%s' "
				    "fast-import --quiet", git, git, git);
	GString *s = stream();
	FILE *fp = popen(cmd, "w");
	struct ms_activity_load_opts lo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_areas *r;

	test_standing();
	ok(fp != NULL, "git fast-import runs");
	fwrite(s->str, 1, s->len, fp);
	is_int(pclose(fp), 0, "the repository is made");
	lo.gitdir = git;
	lo.keep_paths = true;
	is_int(ms_activity_load(&lo, &model, &diags), 0, "the model loads");
	is_int(ms_commit_paths_load(model, NULL, NULL, false, &paths,
				    &diags), 0, "the paths of its commits");
	if (model && paths) {
		check_cutting();
		check_whole_tree();
		r = compute(19);
		ok(r != NULL, "the areas at 19");
		if (r)
			check_counts(r);
		ms_areas_free(r);
		/* (the same areas at 9, whose de-facto evidence is 4) */
		r = compute(9);
		if (r)
			check_flags(r);
		ms_areas_free(r);
		check_split_6();
	}
	ms_commit_paths_free(paths);
	ms_activity_free(model);
	ms_diags_release(&diags);
	g_string_free(s, TRUE);
	g_free(cmd);
	cmd = g_strdup_printf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cannot remove %s\n", dir);
	g_free(cmd);
	g_free(git);
	g_free(dir);
	return test_done();
}
