/*
 * LWN's categories of urgent entries (urgent.h) on a planted MAINTAINERS,
 * tree, activity and list review, one entry per rule: a corporate alias,
 * overlap by files (and none with a catch-all), overlap by patches for an
 * entry without files, a de-facto maintainer on the list and by commits,
 * a maintainer of last resort, and many committers; an entry counts as
 * active for overlap only when the verdict engine calls a maintainer of
 * it active (a list address, or one too newly listed to judge, is not).
 */
#include "test.h"
#include "error.h"
#include "urgent.h"
#include "verdict.h"

#include <glib.h>
#include <glib/gstdio.h>

#define NR_FILLERS 10

static const char *entries =
	"ALPHA DRIVER\nM:\tAl Old <al@example.org>\nF:\tdrivers/alpha/\n\n"
	"BETA DRIVER\nM:\tBeta Support <support@corp.example.com>\n"
	"F:\tdrivers/beta/\n\n"
	"DRIVERS CORE\nM:\tCora Core <cora@example.org>\n"
	"F:\tdrivers/alpha/\nF:\tdrivers/core.c\n\n"
	"GAMMA DRIVER\nM:\tGus Gone <gus@example.org>\nF:\tdrivers/gamma/\n\n"
	"DELTA DRIVER\nM:\tDee Gone <dee@example.org>\nF:\tdrivers/delta/\n\n"
	"EPS DRIVER\nM:\tEd Gone <ed@example.org>\nF:\tdrivers/eps/\n\n"
	"ZETA DRIVER\nM:\tZed Gone <zed@example.org>\nF:\tdrivers/zeta/\n\n"
	"KAPPA KEYWORD\nM:\tKay Gone <kay@example.org>\nK:\tkappa_magic\n\n"
	"OMEGA FS\nM:\tOm Gone <om@example.org>\nF:\tfs/0.c\n\n"
	"SIGMA DRIVER\nM:\tSi Gone <si@example.org>\nF:\tdrivers/sigma/\n\n"
	"SIGMA PHY\nM:\tPhy Active <phy@example.org>\n"
	"F:\tdrivers/sigma/1.c\nF:\tdrivers/sigma/2.c\n\n"
	"SIGMA DMA\nM:\tDi Active <di@example.org>\nF:\tdrivers/sigma/3.c\n\n"
	"PSI DRIVER\nM:\tPsi Gone <psi@example.org>\nF:\tdrivers/psi/\n\n"
	"PSI LIST\nM:\tpsi@lists.example.org\nF:\tdrivers/psi/\n\n"
	"TAU DRIVER\nM:\tTau Gone <tau@example.org>\nF:\tdrivers/tau/\n\n"
	"TAU NEW\nM:\tTia New <tia@example.org>\nF:\tdrivers/tau/\n\n"
	"THE REST\nM:\tRest Active <rest@example.org>\nF:\t*\nF:\t*/\n";

static void put(const char *dir, const char *path)
{
	char *p = g_build_filename(dir, path, NULL);
	char *d = g_path_get_dirname(p);

	g_mkdir_with_parents(d, 0755);
	g_file_set_contents(p, "x\n", -1, NULL);
	g_free(d);
	g_free(p);
}

/* A review entry of `e`, its first postings `posts` (0-terminated). */
static struct ms_rv_entry *rv_entry(const struct maint_entry *e,
				    const uint32_t *posts)
{
	struct ms_rv_entry *r = g_new0(struct ms_rv_entry, 1);

	r->entry = e;
	r->patches = g_array_new(FALSE, TRUE, sizeof(struct ms_rv_patch));
	r->listed = g_ptr_array_new_with_free_func(g_free);
	r->others = g_ptr_array_new_with_free_func(g_free);
	r->aliases = g_ptr_array_new();
	r->defacto = g_ptr_array_new();
	for (; posts && *posts; posts++) {
		struct ms_rv_patch pt = { 0 };

		pt.postings = g_array_new(FALSE, FALSE, sizeof(uint32_t));
		g_array_append_val(pt.postings, *posts);
		g_array_append_val(r->patches, pt);
	}
	return r;
}

static void rv_entry_free(gpointer data)
{
	struct ms_rv_entry *r = data;

	for (guint i = 0; i < r->patches->len; i++)
		g_array_free(g_array_index(r->patches, struct ms_rv_patch,
					   i).postings, TRUE);
	g_array_free(r->patches, TRUE);
	g_ptr_array_unref(r->listed);
	g_ptr_array_unref(r->others);
	for (guint i = 0; i < r->aliases->len; i++) {
		struct ms_rv_alias *al = r->aliases->pdata[i];

		g_ptr_array_unref(al->people);
		g_free(al);
	}
	g_ptr_array_unref(r->aliases);
	g_ptr_array_unref(r->defacto);
	g_free(r);
}

static struct ms_rv_person *person(const char *email)
{
	struct ms_rv_person *p = g_new0(struct ms_rv_person, 1);

	p->email = email;
	return p;
}

static struct ms_act_entry all[17 + NR_FILLERS];
static struct ms_act_person people[17 + NR_FILLERS];
static size_t nr;

/* The activity of entry `entry` of `mf`: its one M:, inactive unless
 * `active` (then in git on day 200, after the cutoff of day 101), and
 * its top committer `who` with `count` of `commits`. */
static void act(const struct maint_file *mf, const char *entry,
		bool active, const char *who, size_t count, size_t commits)
{
	const struct maint_entry *e = maint_file_find(mf, entry);
	struct ms_act_entry *a = &all[nr];
	struct ms_act_person *m = &people[nr++];
	char *name = NULL, *email = NULL;

	maint_parse_person(e->fields[0].value, &name, &email);
	memset(m, 0, sizeof(*m));
	m->role = 'M';
	m->name = name;
	m->email = email;
	m->inactive = !active;
	m->has_last = active;
	m->last_time = active ? 200 : 0;
	memset(a, 0, sizeof(*a));
	a->entry = e;
	a->people = m;
	a->nr_people = 1;
	a->nr_maintainers = 1;
	a->commits = commits;
	if (who) {
		a->top_committers[0].email = who;
		a->top_committers[0].count = count;
		a->nr_top_committers = 1;
	}
}

/* The category of the entry of all[i], its explanation in *why. */
static const char *category(struct ms_urgent *u, size_t i, char **why)
{
	g_free(*why);
	*why = NULL;
	return ms_urgent_category(u, &all[i], all, nr, why);
}

/* urgent speaks of the maintainers, and of the reviewers only when
 * the entry lists no maintainer. */
static void test_speaks_for(void)
{
	struct ms_act_person m = { .role = 'M' }, r = { .role = 'R' };
	struct ms_act_entry with = { .nr_maintainers = 1 };
	struct ms_act_entry without = { .nr_maintainers = 0 };

	ok(ms_urgent_speaks_for(&with, &m), "a maintainer is spoken of");
	ok(!ms_urgent_speaks_for(&with, &r),
	   "a reviewer is not, beside a maintainer");
	ok(ms_urgent_speaks_for(&without, &r),
	   "a reviewer is, when no maintainer is listed");
}

int main(void)
{
	char *dir = g_dir_make_tmp("test-urgent-XXXXXX", NULL);
	GString *text = g_string_new(entries);
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = maint_file_new();
	struct maint_index *idx = NULL;
	struct ms_tree *tree = NULL;
	struct ms_review rv = { 0 };
	static const uint32_t kappa_posts[] = { 11, 12, 13, 0 };
	static const uint32_t core_posts[] = { 12, 13, 20, 0 };
	struct ms_rv_entry *beta, *gamma, *omega;
	struct ms_rv_alias *al;
	struct ms_urgent *u;
	char *why = NULL;
	const char *files[] = { "drivers/alpha/1.c", "drivers/alpha/2.c",
		"drivers/alpha/3.c", "drivers/beta/1.c", "drivers/core.c",
		"drivers/gamma/1.c", "drivers/delta/1.c", "drivers/eps/1.c",
		"drivers/zeta/1.c", "drivers/sigma/1.c", "drivers/sigma/2.c",
		"drivers/sigma/3.c", "drivers/sigma/4.c", "drivers/psi/1.c",
		"drivers/tau/1.c" };

	for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
		put(dir, files[i]);
	for (int i = 0; i < 12; i++) {
		char *f = g_strdup_printf("fs/%d.c", i);

		put(dir, f);
		g_free(f);
	}
	/* entries whose top committer is Max, a maintainer of last resort */
	for (int i = 0; i < NR_FILLERS; i++)
		g_string_append_printf(text, "\nFILLER %d\nM:\tFil Ler "
				       "<fil%d@example.org>\nF:\tfs/%d.c\n",
				       i, i, i + 1);
	ok(ms_tree_from_dir(dir, &tree, &diags) == 0, "the tree");
	ok(maint_file_parse(mf, "MAINTAINERS", text->str, text->len,
			    &diags) == 0, "MAINTAINERS parses");
	ok(maint_index_new(mf, tree, &idx, &diags) == 0, "the index");

	/* the list: BETA's support@ address answered by its domain, GAMMA
	 * handled by Gina, KAPPA's patches (K: only) mostly CORE's too */
	rv.entries = g_ptr_array_new_with_free_func(rv_entry_free);
	beta = rv_entry(maint_file_find(mf, "BETA DRIVER"), NULL);
	al = g_new0(struct ms_rv_alias, 1);
	al->email = "support@corp.example.com";
	al->people = g_ptr_array_new();
	g_ptr_array_add(beta->others, person("ann@corp.example.com"));
	g_ptr_array_add(al->people, beta->others->pdata[0]);
	g_ptr_array_add(beta->aliases, al);
	g_ptr_array_add(rv.entries, beta);
	gamma = rv_entry(maint_file_find(mf, "GAMMA DRIVER"), NULL);
	g_ptr_array_add(gamma->others, person("gina@example.org"));
	g_ptr_array_add(gamma->defacto, gamma->others->pdata[0]);
	g_ptr_array_add(rv.entries, gamma);
	g_ptr_array_add(rv.entries, rv_entry(maint_file_find(mf,
		"KAPPA KEYWORD"), kappa_posts));
	g_ptr_array_add(rv.entries, rv_entry(maint_file_find(mf,
		"DRIVERS CORE"), core_posts));
	/* Om wrote to the list on day 100: active since day 100, not 101 */
	omega = rv_entry(maint_file_find(mf, "OMEGA FS"), NULL);
	g_ptr_array_add(omega->listed, person("om@example.org"));
	((struct ms_rv_person *)omega->listed->pdata[0])->has_last_list = true;
	((struct ms_rv_person *)omega->listed->pdata[0])->last_list = 100;
	g_ptr_array_add(rv.entries, omega);

	/* git: CORE and THE REST active; Dora commits most of DELTA; Max
	 * most of EPS and of every filler; ZETA's committers many */
	act(mf, "ALPHA DRIVER", false, NULL, 0, 9);
	act(mf, "BETA DRIVER", false, NULL, 0, 9);
	act(mf, "DRIVERS CORE", true, NULL, 0, 9);
	act(mf, "GAMMA DRIVER", false, "gus@example.org", 5, 6);
	act(mf, "DELTA DRIVER", false, "dora@example.org", 5, 6);
	act(mf, "EPS DRIVER", false, "max@example.org", 5, 6);
	act(mf, "ZETA DRIVER", false, "zoe@example.org", 2, 6);
	act(mf, "KAPPA KEYWORD", false, NULL, 0, 9);
	act(mf, "OMEGA FS", false, NULL, 0, 9);
	act(mf, "THE REST", true, NULL, 0, 9);
	for (int i = 0; i < NR_FILLERS; i++) {
		char *name = g_strdup_printf("FILLER %d", i);

		act(mf, name, false, "max@example.org", 1, i ? 2 : 1);
		g_free(name);
	}
	/* SIGMA's four files: two SIGMA PHY's, one SIGMA DMA's (both
	 * active), one its own */
	act(mf, "SIGMA DRIVER", false, NULL, 0, 9);
	act(mf, "SIGMA PHY", true, "lee@example.org", 1, 1);
	act(mf, "SIGMA DMA", true, NULL, 0, 0);
	/* PSI's files also a list address's, TAU's a maintainer's
	 * listed after the cutoff: neither is inactive (activity.h), and
	 * neither is active */
	act(mf, "PSI DRIVER", false, NULL, 0, 9);
	act(mf, "PSI LIST", false, NULL, 0, 9);
	people[nr - 1].inactive = false;
	people[nr - 1].role_address = true;
	people[nr - 1].role_why = MS_ACT_ROLE_LIST;
	act(mf, "TAU DRIVER", false, NULL, 0, 9);
	act(mf, "TAU NEW", false, NULL, 0, 9);
	people[nr - 1].inactive = false;
	people[nr - 1].listed_late = true;

	u = ms_urgent_new(mf, idx, tree, &rv, 101);
	ok(ms_urgent_entry(u, "GAMMA DRIVER") == gamma, "the review by name");
	ok(!ms_urgent_entry(u, "ZETA DRIVER"), "none without patches");
	ok(ms_verdict_listed(omega, "OM@example.org") ==
	   omega->listed->pdata[0], "a listed person's list facts, whatever "
	   "the address's case");
	ok(!ms_verdict_listed(omega, "other@example.org"),
	   "none for someone not listed");
	ok(!ms_verdict_entry_active(&all[8], omega, 101),
	   "a list message before the cutoff: not active");
	ok(ms_verdict_entry_active(&all[8], omega, 100),
	   "one on the cutoff is");

	is_str(category(u, 1, &why), "corporate_alias",
	       "BETA: its support address answered by its domain");
	is_str(why, "support@corp.example.com is answered by 1 people of "
	       "its domain", "...and why");
	is_str(category(u, 0, &why), "overlap",
	       "ALPHA: its files also active CORE's");
	is_str(why, "3 of 3 files also claimed by active DRIVERS CORE",
	       "...and which");
	is_str(category(u, 7, &why), "overlap",
	       "KAPPA (no files): 2 of its 3 patches also CORE's");
	is_str(why, "2 of 3 patches also go to active DRIVERS CORE",
	       "...and why");
	is_str(category(u, 3, &why), "defacto_maintainer",
	       "GAMMA: Gina handles its patches on the list");
	is_str(why, "gina@example.org handles its patches", "...who");
	is_str(category(u, 4, &why), "defacto_maintainer",
	       "DELTA: Dora commits most of it");
	is_str(why, "dora@example.org committed 5 of 6", "...who, how much");
	is_str(category(u, 5, &why), "unmaintained",
	       "EPS: merged by Max, top committer of 11 entries");
	is_str(why, "merged by a maintainer of last resort: max@example.org, "
	       "a top committer of 11 entries", "...and why");
	is_str(category(u, 6, &why), "unmaintained",
	       "ZETA: 2 of 6 commits by its top committer");
	is_str(why, "merged by many different committers", "...and why");
	is_str(category(u, 8, &why), "unmaintained",
	       "OMEGA: only THE REST (a catch-all) also has its file");
	is_str(category(u, 10 + NR_FILLERS, &why), "overlap",
	       "SIGMA: 3 of its 4 files claimed by two active entries");
	is_str(why, "3 of 4 files also claimed by active entries, most (2) "
	       "by SIGMA PHY", "...the one claiming most, with its count");
	is_str(category(u, 10, &why), "unmaintained",
	       "FILLER 0: its one commit merged by Max");
	is_str(why, "merged by a maintainer of last resort: max@example.org, "
	       "a top committer of 11 entries",
	       "...a maintainer of last resort, not 'many committers'");
	is_str(category(u, 11 + NR_FILLERS, &why), "unmaintained",
	       "SIGMA PHY: one commit");
	is_str(why, "one commit in the window, by lee@example.org: too few "
	       "to tell who merges it", "...too few to name anyone");
	is_str(category(u, 12 + NR_FILLERS, &why), "unmaintained",
	       "SIGMA DMA: no commit");
	is_str(why, "no commit in the window", "...said so");
	is_str(category(u, nr - 4, &why), "unmaintained",
	       "PSI: its files also a list address's, which is no active "
	       "maintainer");
	is_str(category(u, nr - 2, &why), "unmaintained",
	       "TAU: its files also a newly listed maintainer's, not judged "
	       "active");
	is_str(ms_urgent_category(u, &all[0], all, nr, NULL), "overlap",
	       "without why, the same category");

	g_free(why);
	ms_urgent_free(u);
	ms_urgent_free(NULL);
	for (size_t i = 0; i < nr; i++) {
		g_free(people[i].name);
		g_free(people[i].email);
	}
	g_ptr_array_unref(rv.entries);
	maint_index_free(idx);
	maint_file_free(mf);
	ms_tree_free(tree);
	ms_diags_release(&diags);
	g_string_free(text, TRUE);
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		char *p = g_build_filename(dir, files[i], NULL);

		g_unlink(p);
		g_free(p);
	}
	for (int i = 0; i < 12; i++) {
		char *p = g_strdup_printf("%s/fs/%d.c", dir, i);

		g_unlink(p);
		g_free(p);
	}
	{
		const char *dirs[] = { "drivers/alpha", "drivers/beta",
			"drivers/gamma", "drivers/delta", "drivers/eps",
			"drivers/zeta", "drivers/sigma", "drivers/psi",
			"drivers/tau", "drivers", "fs", "" };

		for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
			char *p = g_build_filename(dir, dirs[i], NULL);

			g_rmdir(p);
			g_free(p);
		}
	}
	g_free(dir);
	test_speaks_for();
	return test_done();
}
