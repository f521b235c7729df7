/*
 * cmd-retire.c - maintstat retire: the MAINTAINERS/CREDITS patch series
 * that retires inactive maintainers and reviewers, one patch per entry,
 * with the activity report of the entry in each commit message.
 */
#include "activity.h"
#include "cli-activity.h"
#include "cli-outdir.h"
#include "cli-patches.h"
#include "cli-project.h"
#include "cli-review.h"
#include "commands.h"
#include "git-common.h"
#include "history.h"
#include "maint-cc.h"
#include "maintainers.h"
#include "output.h"
#include "person.h"
#include "retire.h"
#include "tree.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat retire [--repo GITDIR] [options] [ENTRY...]",
	"Write the patch series that retires inactive people: for each entry\n"
	"(all, or those named) with at least --min-commits commits in the\n"
	"window, one patch removing its inactive M: and R: people (as\n"
	"`maintstat activity` finds them; never a role or list address, nor\n"
	"in an entry with no commit and no patch to judge by), setting\n"
	"S: Orphan when its last maintainer leaves (in an entry of reviewers\n"
	"only, its last reviewer) and crediting maintainers who leave MAINTAINERS\n"
	"altogether in CREDITS.  The patches are in git format-patch form and\n"
	"apply in order with git am onto the analysed revision; a cover\n"
	"letter (0000-cover-letter.patch, for git send-email; git am stops on\n"
	"it, as on format-patch's) says who is retired, why, and who --keep\n"
	"kept.  An entry of another MAINTAINERS file\n"
	"(--find-maintainer-files: U-Boot's boards) is edited in that file.\n"
	"Each patch Cc's the people it removes at their listed address and,\n"
	"when it is another one, at the address they used last in the\n"
	"history, then the M: and R: people the entry keeps and its lists;\n"
	"its To: is what get_maintainer.pl answers for the file it edits,\n"
	"less those.",
	"  maintstat retire --repo ~/linux --min-commits 10 -o outgoing TLS\n"
	"  ls outgoing/*.patch | grep -v cover-letter | xargs git am",
};

/* What `maintstat retire` was asked: its options. */
struct retire_args {
	struct cli_act_opts ao;
	struct cli_strings files;
	const char *keep_file, *from_arg, *outdir;
	long min_commits;
	bool json, no_credits, force;
	bool plus_fold;              /* not --no-plus-fold */
	int argc;                    /* the ENTRY arguments */
	char **argv;
};

/* What retire reads and builds, freed by retire_data_release(). */
struct retire_data {
	struct cli_keep keep;
	char *maint, *credits;       /* the texts the series edits */
	char *from;                  /* "Name <address>" */
	struct ms_activity *a;
	struct ms_project *proj;     /* owns a */
	struct ms_activity_query q;
	struct ms_act_entry *res;    /* the entries' activity */
	size_t nr;
	const struct maint_entry **sel;
	struct cli_list_facts *lf;   /* with --archive */
	GPtrArray *kept;             /* {name, email, entry} --keep kept */
	GPtrArray *joins;            /* "who is also ..." for the cover */
	GHashTable *joins_seen;      /* people (ident ids) in joins */
	GArray *plans;               /* struct retire_plan */
	GPtrArray *plan_entries;     /* each plan's maint_entry */
	GPtrArray *owned;            /* what the plans point into */
	struct ms_tree *tree;        /* the revision's files */
	GArray *texts;               /* struct retire_text: its MAINTAINERS
				      * files */
	GHashTable *to;              /* path -> GArray of struct retire_to */
	struct retire_series *series;
};

/* Parse the command line into `a`; CLI_CONTINUE or the exit code. */
static int retire_parse(int *argc, char ***argv, struct retire_args *a)
{
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&a->ao, CLI_WINDOW_HELP),
		CLI_INACTIVE_AFTER_OPTION(&a->ao.inactive_after),
		CLI_MIN_COMMITS_OPTION(&a->min_commits),
		{ CLI_OPT_STRING, "keep", 0, &a->keep_file, "FILE",
		  "people to keep: addresses or names, one per line "
		  "(default: none)" },
		CLI_OPT_ARCHIVE(&a->ao.archives, "list archives: who wrote to "
				"the list since the cutoff is not retired"),
		CLI_PATCH_OPTIONS(&a->from_arg, &a->outdir, &a->force),
		{ CLI_OPT_FLAG, "no-credits", 0, &a->no_credits, NULL,
		  "leave CREDITS alone (a revision without one is left "
		  "alone anyway, with a warning)" },
		CLI_ENTRY_FILE_OPTION(&a->files),
		CLI_OPT_JSON(&a->json),
		CLI_OPTION_END,
	};

	return cli_parse_options(argc, argv, opts, &help);
}

/* What the options say: the repository, --min-commits, --keep. */
static int retire_check(struct retire_args *a, struct retire_data *d)
{
	int rc = cli_default_repo("retire", &a->ao.repo, true);

	if (rc != CLI_CONTINUE)
		return rc;
	a->plus_fold = !a->ao.no_plus_fold;
	if (cli_keep_load(a->keep_file, &d->keep, a->plus_fold) < 0)
		return EXIT_RUNTIME;
	return CLI_CONTINUE;
}

/* The texts the series edits, MAINTAINERS and CREDITS, read before the
 * long walk. */
static int retire_read_texts(struct retire_args *a, struct retire_data *d)
{
	size_t len;
	int rc;

	rc = ms_history_read_file(a->ao.repo, a->ao.rev, "MAINTAINERS",
				  &d->maint, &len);
	if (rc < 0)
		return cli_error_last();
	if (a->no_credits)
		return CLI_CONTINUE;
	rc = ms_history_read_file(a->ao.repo, a->ao.rev, "CREDITS",
				  &d->credits, &len);
	if (rc == MS_ENOTFOUND) {
		/* most projects but the kernel keep none */
		cli_warning("revision '%s' of '%s' has no CREDITS file: the "
			    "patches change MAINTAINERS only (--no-credits "
			    "says so without this warning)",
			    a->ao.rev ? a->ao.rev : "HEAD", a->ao.repo);
		a->no_credits = true;
		return CLI_CONTINUE;
	}
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

/* The history's activity of the selected entries, as `activity` finds
 * it with the --inactive-after cutoff, and with --archive the lists'. */
static int retire_activity(const struct retire_args *a,
			   struct retire_data *d)
{
	struct ms_activity_query *q = &d->q;
	int rc;

	rc = cli_act_load("retire", &a->ao, MS_DEFAULT_WINDOW_YEARS, &d->proj,
			  &d->a, &q->since, &q->until, &q->active_since,
			  &d->lf);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_act_select("retire", d->a, a->argc, a->argv, &a->files, q,
			    &d->sel);
	if (rc != CLI_CONTINUE)
		return rc;
	if (ms_activity_query(d->a, q, &d->res, &d->nr) < 0)
		return cli_error_last();
	return cli_list_facts_load("retire", &a->ao, q->since, q->until,
				   q->active_since, d->a, &d->lf);
}

/* Where `p` is to be reached besides the listed address: the address
 * they used last in the history (retire.c Cc's it when it is another). */
static void last_address(struct retire_data *d, const struct ms_act_person *p,
			 struct retire_person *rp)
{
	char *email, commit[41];
	int64_t when;

	rp->last_email = NULL;
	rp->last_commit = NULL;
	rp->last_time = 0;
	if (!ms_activity_last_address(d->a, p->person, &email, &when, commit))
		return;
	g_ptr_array_add(d->owned, email);
	rp->last_email = email;
	rp->last_time = when;
	rp->last_commit = g_strdup(commit);
	g_ptr_array_add(d->owned, (char *)rp->last_commit);
}

/* The people entry `e` retires (struct retire_person): the inactive
 * ones, silent on the lists, that --keep does not keep. */
static GArray *retired_people(const struct retire_args *a,
			      struct retire_data *d,
			      const struct ms_act_entry *e)
{
	GArray *people = g_array_new(FALSE, TRUE,
				     sizeof(struct retire_person));

	for (size_t k = 0; k < e->nr_people; k++) {
		const struct ms_act_person *p = &e->people[k];
		struct retire_person rp;
		struct ms_verdict v;
		char *w;

		cli_act_verdict(e, p, d->lf, d->q.active_since, &v);
		if (!ms_verdict_retire(e, &v, a->min_commits))
			continue;
		if (cli_keep_has(&d->keep, p->name, p->email, a->plus_fold)) {
			const char *k[] = { p->name, p->email,
					    e->entry->name, NULL };

			g_ptr_array_add(d->kept, g_strdupv((char **)k));
			continue;
		}
		w = ms_verdict_retire_reason(d->a, &d->q, p);
		g_ptr_array_add(d->owned, w);
		rp.name = *p->name ? p->name : NULL;
		rp.email = *p->email ? p->email : NULL;
		rp.role = p->role;
		rp.why = w;
		rp.also = (const char *const *)p->also;
		last_address(d, p, &rp);
		g_array_append_val(people, rp);
	}
	return people;
}

/* The joins entry `e`'s verdicts rest on, for the cover letter: once a
 * person, also when entries list them under different addresses (one
 * line names all the others). */
static void entry_joins(struct retire_data *d, const struct ms_act_entry *e)
{
	for (size_t k = 0; k < e->nr_people; k++) {
		const struct ms_act_person *p = &e->people[k];
		char *j = cli_act_joins(d->a, p);
		gpointer who = GUINT_TO_POINTER(p->person + 1);

		if (j && !g_hash_table_contains(d->joins_seen, who)) {
			g_hash_table_add(d->joins_seen, who);
			g_ptr_array_add(d->joins, g_strdup_printf(
				"%s <%s> is also %s", p->name, p->email, j));
		}
		g_free(j);
	}
}

/* The plan of each entry with --min-commits commits and someone to
 * retire: the people, and the entry's activity report for its commit
 * message. */
static void retire_plans(const struct retire_args *a, struct retire_data *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		const struct ms_act_entry *e = &d->res[i];
		struct retire_plan pl = { 0 };
		GArray *people;
		char *buf = NULL;
		size_t blen = 0;
		FILE *mem;

		if (!ms_verdict_busy(e, a->min_commits))
			continue;
		people = retired_people(a, d, e);
		entry_joins(d, e);
		if (!people->len) {
			g_array_free(people, TRUE);
			continue;
		}
		mem = open_memstream(&buf, &blen);
		cli_act_print_entry(mem, d->a, &d->q, e, d->lf);
		fclose(mem);
		g_ptr_array_add(d->owned, g_strdup(buf));
		free(buf);
		pl.entry = e->entry->name;
		pl.nr_people = people->len;
		pl.people = (struct retire_person *)g_array_free(people,
								 FALSE);
		g_ptr_array_add(d->owned, pl.people);
		pl.report = d->owned->pdata[d->owned->len - 2];
		g_array_append_val(d->plans, pl);
		g_ptr_array_add(d->plan_entries, (gpointer)e->entry);
	}
}

/*
 * The path in the revision of the file entry `e` was read from ("REV:PATH"
 * as maint_file_load() names it), or NULL for a file on disk
 * (--maintainers).
 */
static const char *entry_path(const struct retire_args *a,
			      const struct maint_entry *e)
{
	const char *rev = a->ao.rev ? a->ao.rev : "HEAD";
	size_t n = strlen(rev);

	if (!e->file || strncmp(e->file, rev, n) || e->file[n] != ':')
		return NULL;
	return e->file + n + 1;
}

/*
 * The MAINTAINERS files of the revision the entries were read from, each
 * once, the top-level one first: the series edits those its entries live
 * in, and CREDITS credits only who is listed in none of them.
 */
static int retire_texts(const struct retire_args *a, struct retire_data *d)
{
	const struct maint_file *mf = ms_activity_maintainers(d->a);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	struct retire_text top = { "MAINTAINERS", d->maint };
	int rc = CLI_CONTINUE;

	if (ms_tree_from_git(a->ao.repo, a->ao.rev, &d->tree) < 0) {
		g_hash_table_destroy(seen);
		return cli_error_last();
	}
	g_array_append_val(d->texts, top);
	g_hash_table_add(seen, (gpointer)top.path);
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const char *path = entry_path(a, maint_file_entry(mf, i));
		struct retire_text t;
		char *buf;
		size_t len;

		if (!path || g_hash_table_contains(seen, path))
			continue;
		g_hash_table_add(seen, (gpointer)path);
		if (ms_tree_read(d->tree, path, &buf, &len) < 0) {
			rc = cli_error_last();
			break;
		}
		g_ptr_array_add(d->owned, buf);
		t.path = path;
		t.text = buf;
		g_array_append_val(d->texts, t);
	}
	g_hash_table_destroy(seen);
	return rc;
}

/* "INDEX address": `email` in the entry of that index. */
static char *entry_key(size_t index, const char *email, bool plus_fold)
{
	char *n = ms_email_normalize(email, plus_fold);
	char *key = g_strdup_printf("%zu %s", index, n);

	g_free(n);
	return key;
}

/*
 * The entry_key() of every address the plans retire from an entry,
 * listed and joined: who will not be there to take a patch.
 */
static GHashTable *retired_set(const struct retire_args *a,
			       const struct retire_data *d)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);

	for (guint i = 0; i < d->plans->len; i++) {
		const struct retire_plan *pl = &g_array_index(
			d->plans, struct retire_plan, i);
		const struct maint_entry *e = d->plan_entries->pdata[i];

		for (size_t k = 0; k < pl->nr_people; k++) {
			const struct retire_person *rp = &pl->people[k];

			if (rp->email)
				g_hash_table_add(set, entry_key(
					e->index, rp->email, a->plus_fold));
			for (const char *const *x = rp->also; x && *x; x++)
				g_hash_table_add(set, entry_key(
					e->index, *x, a->plus_fold));
		}
	}
	return set;
}

/*
 * Whom a contributor sends a change of `path` To: get_maintainer.pl's
 * answer for it (--no-git, as the tree's own script answers: for a
 * U-Boot board file its board's maintainers, THE REST's and the list),
 * without whom the series retires from the entry naming them.
 */
static GArray *file_to(const struct retire_args *a, struct retire_data *d,
		       const char *path, GHashTable *retired)
{
	struct maint_cc_opts co;
	struct maint_cc *cc;
	struct ms_diags diags = MS_DIAGS_INIT;
	GArray *to = g_array_new(FALSE, TRUE, sizeof(struct retire_to));

	maint_cc_opts_init(&co);
	/* the model read the entries in the kernel's syntax */
	if (maint_cc_tree_dialect(d->tree, co.dialect) == MAINT_DIALECT_QEMU)
		co.dialect = MAINT_DIALECT_KERNEL;
	cc = maint_cc_new(ms_activity_maintainers(d->a),
			  ms_activity_index(d->a), d->tree, &co);
	maint_cc_add_path(cc, path);
	maint_cc_run(cc, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++) {
		const struct maint_cc_line *l = maint_cc_line(cc, i);
		struct retire_to t;

		if (!strchr("MRL", l->kind) || !l->address || !*l->address)
			continue;
		if (l->kind != 'L' && l->entry) {
			char *key = entry_key(l->entry->index, l->address,
					      a->plus_fold);
			bool gone = g_hash_table_contains(retired, key);

			g_free(key);
			if (gone)
				continue;
		}
		t.line = g_strdup(l->email);
		t.address = g_strdup(l->address);
		t.kind = l->kind;
		g_ptr_array_add(d->owned, (char *)t.line);
		g_ptr_array_add(d->owned, (char *)t.address);
		g_array_append_val(to, t);
	}
	maint_cc_free(cc);
	return to;
}

/*
 * Where each plan's entry lives: its file in the revision (the top-level
 * MAINTAINERS for one on disk), which entry of that name there, where it
 * was read; and whom its patch is sent To:.
 */
static void retire_targets(const struct retire_args *a,
			   struct retire_data *d)
{
	const struct maint_file *mf = ms_activity_maintainers(d->a);
	GHashTable *retired = retired_set(a, d);

	for (guint i = 0; i < d->plans->len; i++) {
		struct retire_plan *pl = &g_array_index(d->plans,
							struct retire_plan, i);
		const struct maint_entry *e = d->plan_entries->pdata[i];
		const char *path = entry_path(a, e);
		GArray *to;

		pl->path = path ? path : "MAINTAINERS";
		pl->nth = 0;
		for (size_t k = 0; path && k < e->index; k++) {
			const struct maint_entry *o = maint_file_entry(mf, k);

			if (!g_strcmp0(o->file, e->file) &&
			    !strcmp(o->name, e->name))
				pl->nth++;
		}
		pl->where = e->file;
		pl->line = e->line;
		to = g_hash_table_lookup(d->to, pl->path);
		if (!to) {
			to = file_to(a, d, pl->path, retired);
			g_hash_table_insert(d->to, (gpointer)pl->path, to);
		}
		pl->to = (const struct retire_to *)(void *)to->data;
		pl->nr_to = to->len;
	}
	g_hash_table_destroy(retired);
}

/* The cover letter's text: the rule applied, who --keep kept, and the
 * joins of addresses the verdicts rely on (g_free). */
static char *cover_intro(const struct retire_args *a,
			 const struct retire_data *d)
{
	GString *intro = g_string_new(NULL);
	char datebuf[32], *w;

	g_string_append_printf(intro, "These patches retire the MAINTAINERS "
			       "people who authored, committed or were named "
			       "in a *-by: trailer of no change to their "
			       "entry's files");
	ms_act_format(d->q.active_since, 0, false, true, datebuf);
	g_string_append_printf(intro, " since %s (--inactive-after %s), "
			       "among entries with at least %ld commits "
			       "between ", datebuf, a->ao.inactive_after,
			       a->min_commits);
	ms_act_format(d->q.since, 0, false, true, datebuf);
	g_string_append_printf(intro, "%s and ", datebuf);
	ms_act_format(d->q.until, 0, false, true, datebuf);
	g_string_append_printf(intro, "%s", datebuf);
	if (a->ao.archives.nr)
		g_string_append(intro, ", or in a reply on the list");
	g_string_append(intro, a->no_credits ? ".  Entries whose last "
			"maintainer leaves become Orphan." : ".  Maintainers "
			"who leave MAINTAINERS altogether move to CREDITS; "
			"entries whose last maintainer leaves become Orphan.");
	w = retire_wrap(intro->str, 72);
	g_string_assign(intro, w);
	g_string_append_c(intro, '\n');
	g_free(w);
	if (d->kept->len) {
		g_string_append(intro, "\nKept, as they asked (--keep):\n");
		for (guint i = 0; i < d->kept->len; i++) {
			char **k = d->kept->pdata[i];

			g_string_append_printf(intro, "  %s%s%s%s (%s)\n",
					       k[0], *k[0] ? " <" : "", k[1],
					       *k[0] ? ">" : "", k[2]);
		}
	}
	if (d->joins->len) {
		g_string_append(intro, "\nThe verdicts count each person under "
				"all their addresses; these\njoins were "
				"relied on (source, first evidence):\n");
		for (guint i = 0; i < d->joins->len; i++) {
			char **ls;

			w = retire_wrap(d->joins->pdata[i], 68);
			ls = g_strsplit(w, "\n", -1);
			for (char **l = ls; *l; l++)
				g_string_append_printf(intro, "%s%s\n",
						       l == ls ? "  " :
						       "    ", *l);
			g_strfreev(ls);
			g_free(w);
		}
	}
	g_string_append(intro, "\nmaintstat wrote this series; each "
			"commit message carries the\n`maintstat activity` "
			"report of its entry.\n");
	return g_string_free(intro, FALSE);
}

/* The series built from the plans, and written to --output-dir when it
 * retires someone (more than its cover letter). */
static int retire_write(const struct retire_args *a, struct retire_data *d)
{
	struct retire_opts ro = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	const char *sde = g_getenv("SOURCE_DATE_EPOCH");
	GDateTime *now = g_date_time_new_now_local();
	char *intro = cover_intro(a, d);
	int rc;

	ro.from = d->from;
	ro.date = sde ? g_ascii_strtoll(sde, NULL, 10) :
		  g_date_time_to_unix(now);
	ro.date_offset = sde ? 0 : (int)(g_date_time_get_utc_offset(now) /
					 G_TIME_SPAN_MINUTE);
	g_date_time_unref(now);
	ro.no_credits = a->no_credits;
	ro.plus_fold = a->plus_fold;
	ro.cover_intro = intro;
	rc = retire_build((struct retire_text *)(void *)d->texts->data,
			  d->texts->len, d->credits,
			  (struct retire_plan *)(void *)d->plans->data,
			  d->plans->len, &ro, &d->series, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	g_free(intro);
	if (rc < 0)
		return cli_error_last();
	if (d->series->nr <= 1)
		return CLI_CONTINUE;
	rc = cli_check_outdir(a->outdir, a->force, false);
	if (rc == CLI_CONTINUE)
		rc = CLI_WRITE_SERIES(a->outdir, d->series, a->force);
	return rc;
}

/* "people": whom patch `p` removes, where they are listed and where they
 * were last seen writing. */
static void json_people(struct ms_out *o, const struct retire_patch *p)
{
	ms_out_kv_begin_list(o, "people");
	for (size_t k = 0; k < p->nr_people; k++) {
		const struct retire_person *rp = p->people[k];
		char date[32];

		ms_out_begin_object(o);
		cli_json_person(o, rp->name, rp->email);
		ms_out_kv_string(o, "role", rp->role == 'M' ? "maintainer" :
				 "reviewer");
		if (rp->last_email) {
			ms_out_kv_begin_object(o, "last_used_address");
			ms_out_kv_string(o, "email", rp->last_email);
			ms_act_format(rp->last_time, 0, true, false, date);
			ms_out_kv_string(o, "date", date);
			ms_out_kv_string(o, "commit", rp->last_commit);
			ms_out_end_object(o);
		} else {
			ms_out_kv_null(o, "last_used_address");
		}
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

static const char *kind_name(enum retire_cc_kind kind)
{
	switch (kind) {
	case RETIRE_CC_LISTED: return "listed";
	case RETIRE_CC_LAST_USED: return "last_used";
	case RETIRE_CC_REMAINING: return "remaining";
	case RETIRE_CC_LIST: return "list";
	case RETIRE_TO_MAINTAINER: return "maintainer";
	case RETIRE_TO_REVIEWER: return "reviewer";
	case RETIRE_TO_LIST: return "list";
	}
	return "?";
}

/* `key`: the addresses `cc` of patch, each with why it is there. */
static void json_addresses(struct ms_out *o, const char *key,
			   const struct retire_cc *cc, size_t nr)
{
	ms_out_kv_begin_list(o, key);
	for (size_t k = 0; k < nr; k++) {
		char *name = NULL, *email = NULL;

		ms_person_parse(cc[k].line, -1, &name, &email);
		ms_out_begin_object(o);
		cli_json_person(o, name, cc[k].address);
		g_free(name);
		g_free(email);
		ms_out_kv_string(o, "kind", kind_name(cc[k].kind));
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* What was written: the patch files, or in JSON each with its subject,
 * entry and changes, and who --keep kept. */
static int retire_print(const struct retire_args *a,
			const struct retire_data *d)
{
	const struct retire_series *series = d->series;
	struct ms_out *o = ms_out_new(a->json ? MS_OUT_JSON : MS_OUT_TEXT,
				      stdout);
	int rc;

	ms_out_begin_document(o);
	if (a->json) {
		ms_out_kv_string(o, "output_directory", a->outdir);
		ms_out_kv_begin_list(o, "patch_files");
		for (size_t i = 0; i < series->nr && series->nr > 1; i++) {
			const struct retire_patch *p = &series->patches[i];

			ms_out_begin_object(o);
			ms_out_kv_string(o, "file", p->file_name);
			ms_out_kv_string(o, "subject", p->subject);
			ms_out_kv_string(o, "entry", p->entry);
			ms_out_kv_string(o, "maintainers_file", p->path);
			ms_out_kv_bool(o, "credits", p->credits_changed);
			ms_out_kv_bool(o, "orphaned", p->orphaned);
			json_people(o, p);
			json_addresses(o, "to", p->to, p->nr_to);
			json_addresses(o, "cc", p->cc, p->nr_cc);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
		ms_out_kv_begin_list(o, "kept");
		for (guint i = 0; i < d->kept->len; i++) {
			char **k = d->kept->pdata[i];

			ms_out_begin_object(o);
			cli_json_person(o, k[0], k[1]);
			ms_out_kv_string(o, "entry", k[2]);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
	} else if (series->nr > 1) {
		for (size_t i = 0; i < series->nr; i++)
			printf("%s/%s\n", a->outdir,
			       series->patches[i].file_name);
	} else {
		printf("no inactive people to retire\n");
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	return rc;
}

static void retire_data_release(struct retire_data *d)
{
	retire_series_free(d->series);
	ms_act_entries_free(d->res, d->nr);
	cli_project_close(d->proj);
	cli_list_facts_free(d->lf);          /* after the project */
	g_free(d->sel);
	g_free(d->maint);
	g_free(d->credits);
	g_free(d->from);
	cli_keep_free(&d->keep);
	g_ptr_array_free(d->kept, TRUE);
	g_ptr_array_free(d->joins, TRUE);
	g_hash_table_destroy(d->joins_seen);
	g_ptr_array_free(d->owned, TRUE);
	g_array_free(d->plans, TRUE);
	g_ptr_array_free(d->plan_entries, TRUE);
	g_array_free(d->texts, TRUE);
	g_hash_table_destroy(d->to);
	ms_tree_free(d->tree);
}

int cmd_retire(int argc, char **argv)
{
	struct retire_args a = { 0 };
	struct retire_data d = { 0 };
	int rc;

	a.ao.inactive_after = MS_DEFAULT_INACTIVE_AFTER;
	a.outdir = ".";
	a.min_commits = MS_DEFAULT_MIN_COMMITS;
	a.ao.last_addresses = true;   /* the patches Cc them */
	d.kept = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	d.joins = g_ptr_array_new_with_free_func(g_free);
	d.joins_seen = g_hash_table_new(NULL, NULL);
	d.plans = g_array_new(FALSE, TRUE, sizeof(struct retire_plan));
	d.plan_entries = g_ptr_array_new();
	d.texts = g_array_new(FALSE, TRUE, sizeof(struct retire_text));
	d.to = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
				     (GDestroyNotify)g_array_unref);
	d.owned = g_ptr_array_new_with_free_func(g_free);
	rc = retire_parse(&argc, &argv, &a);
	a.argc = argc;
	a.argv = argv;
	if (rc == CLI_CONTINUE)
		rc = retire_check(&a, &d);
	if (rc == CLI_CONTINUE)
		rc = retire_read_texts(&a, &d);
	if (rc == CLI_CONTINUE)
		rc = cli_patch_signer("retire", a.ao.repo, a.from_arg,
				      &d.from);
	if (rc == CLI_CONTINUE)
		rc = retire_activity(&a, &d);
	if (rc == CLI_CONTINUE) {
		retire_plans(&a, &d);
		rc = retire_texts(&a, &d);
	}
	if (rc == CLI_CONTINUE) {
		retire_targets(&a, &d);
		rc = retire_write(&a, &d);
	}
	if (rc == CLI_CONTINUE)
		rc = retire_print(&a, &d);
	retire_data_release(&d);
	return rc;
}
