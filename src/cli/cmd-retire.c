/*
 * cmd-retire.c - maintstat retire: the MAINTAINERS/CREDITS patch series
 * that retires inactive maintainers and reviewers, one patch per entry,
 * with the activity report of the entry in each commit message.
 */
#include "activity.h"
#include "cli-activity.h"
#include "cli-review.h"
#include "commands.h"
#include "git-common.h"
#include "history.h"
#include "maintainers.h"
#include "output.h"
#include "person.h"
#include "retire.h"

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
	"`maintstat activity` finds them), setting S: Orphan when no\n"
	"maintainer remains and crediting maintainers who leave MAINTAINERS\n"
	"altogether in CREDITS.  The patches are in git format-patch form and\n"
	"apply in order with git am onto the analysed revision; a cover\n"
	"letter says who is retired, why, and who --keep kept.",
	"  maintstat retire --repo ~/linux --output-dir outgoing TLS\n"
	"  git am outgoing/*.patch",
};

/* --keep FILE: addresses or names, one per line, '#' comments. */
struct keep {
	GPtrArray *lines;   /* folded addresses and names */
	GPtrArray *used;    /* lines that kept someone */
};

static int keep_load(const char *path, struct keep *k, bool plus_fold)
{
	char *buf;
	GError *err = NULL;
	char **lines;

	k->lines = g_ptr_array_new_with_free_func(g_free);
	k->used = g_ptr_array_new();
	if (!path)
		return 0;
	if (!g_file_get_contents(path, &buf, NULL, &err)) {
		cli_error("cannot read '%s': %s", path, err->message);
		g_error_free(err);
		return -1;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *hash = strchr(*l, '#');
		char *name, *email;

		if (hash)
			*hash = '\0';
		g_strstrip(*l);
		if (!**l)
			continue;
		ms_person_parse(*l, -1, &name, &email);
		if (email)
			g_ptr_array_add(k->lines,
					ms_email_normalize(email, plus_fold));
		if (name)
			g_ptr_array_add(k->lines, ms_casefold(name, -1));
		g_free(name);
		g_free(email);
	}
	g_strfreev(lines);
	g_free(buf);
	return 0;
}

static bool keep_has(struct keep *k, const struct ms_act_person *p,
		     bool plus_fold)
{
	char *email = *p->email ? ms_email_normalize(p->email, plus_fold) :
		      NULL;
	char *name = *p->name ? ms_casefold(p->name, -1) : NULL;
	bool found = false;

	for (guint i = 0; i < k->lines->len && !found; i++) {
		const char *l = k->lines->pdata[i];

		found = (email && !strcmp(l, email)) ||
			(name && !strcmp(l, name));
	}
	g_free(email);
	g_free(name);
	return found;
}

static void keep_free(struct keep *k)
{
	if (k->lines)
		g_ptr_array_free(k->lines, TRUE);
	if (k->used)
		g_ptr_array_free(k->used, TRUE);
}

/* "no authored, committed or tagged change there since 2019-06-01 (last: ...)" */
static char *why(const struct ms_act_person *p, int64_t active_since)
{
	char since[32], last[32];

	ms_act_format(active_since, 0, false, true, since);
	if (!p->seen_anywhere)
		return g_strdup_printf("not authored, committed or tagged any "
				       "change anywhere in the history");
	if (!p->has_last)
		return g_strdup_printf("not authored, committed or tagged a "
				       "change to its files in the history");
	ms_act_format(p->last_time, p->last_offset, false, true, last);
	return g_strdup_printf("not authored, committed or tagged a change "
			       "to its files since %s (last seen there on "
			       "%s)", since, last);
}

/*
 * The *.patch files already in `dir` (sorted; NULL when none or no such
 * directory).  Stale patches mixed with a new series would all be applied
 * by `git am` on the whole directory.
 */
static GPtrArray *old_patches(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *names = NULL;
	const char *name;

	if (!d)
		return NULL;
	while ((name = g_dir_read_name(d))) {
		if (!g_str_has_suffix(name, ".patch"))
			continue;
		if (!names)
			names = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(names, g_strdup(name));
	}
	g_dir_close(d);
	if (names)
		g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	return names;
}

/* Refuse a directory holding patches; with --force, empty it of them. */
static int check_outdir(const char *dir, bool force)
{
	GPtrArray *old = old_patches(dir);
	int rc = CLI_CONTINUE;

	if (!old)
		return CLI_CONTINUE;
	if (!force) {
		rc = cli_error("'%s' already holds %u patch%s ('%s'%s): they "
			       "would mix with the new series (git am applies "
			       "both); empty it, choose another --output-dir, "
			       "or --force to remove its *.patch first", dir,
			       old->len,
			       old->len == 1 ? "" : "es",
			       (char *)old->pdata[0],
			       old->len > 1 ? ", ..." : "");
		g_ptr_array_unref(old);
		return rc;
	}
	for (guint i = 0; i < old->len && rc == CLI_CONTINUE; i++) {
		char *path = g_build_filename(dir, old->pdata[i], NULL);

		if (g_unlink(path) < 0)
			rc = cli_error("cannot remove '%s': %s", path,
				       g_strerror(errno));
		g_free(path);
	}
	g_ptr_array_unref(old);
	return rc;
}

static int write_series(const char *dir, const struct retire_series *s)
{
	if (g_mkdir_with_parents(dir, 0777) < 0)
		return cli_error("cannot create '%s': %s", dir,
				 g_strerror(errno));
	for (size_t i = 0; i < s->nr; i++) {
		char *path = g_build_filename(dir, s->patches[i].file_name,
					      NULL);
		GError *err = NULL;

		/* g_file_set_contents writes a temporary file and renames */
		if (!g_file_set_contents(path, s->patches[i].text->str,
					 (gssize)s->patches[i].text->len,
					 &err)) {
			int rc = cli_error("cannot write '%s': %s", path,
					   err->message);

			g_error_free(err);
			g_free(path);
			return rc;
		}
		g_free(path);
	}
	return CLI_CONTINUE;
}

int cmd_retire(int argc, char **argv)
{
	struct cli_act_opts ao = { 0 };
	struct cli_strings files = { 0 };
	struct cli_strings archives = { 0 };
	const char *inactive_arg = "5y", *keep_file = NULL, *from_arg = NULL;
	const char *outdir = ".";
	long min_commits = 100;
	bool json = false, no_credits = false, force = false;
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&ao, "5 years before --until"),
		{ CLI_OPT_STRING, "inactive-after", 0, &inactive_arg,
		  "DURATION", "retire people idle this long (6m, 2y, or a "
		  "date; default 5y)" },
		{ CLI_OPT_INT, "min-commits", 0, &min_commits, "N",
		  "only entries with at least N commits in the window "
		  "(default 100)" },
		{ CLI_OPT_STRING, "keep", 0, &keep_file, "FILE",
		  "people to keep: addresses or names, one per line "
		  "(default: none)" },
		{ CLI_OPT_STRING_LIST, "archive", 0, &archives, "PATH",
		  "list archives: who wrote to the list since the cutoff is not retired" },
		{ CLI_OPT_STRING, "from", 0, &from_arg, "\"NAME <ADDR>\"",
		  "author and Signed-off-by (default: the repository's "
		  "user.name and user.email)" },
		{ CLI_OPT_STRING, "output-dir", 0, &outdir, "DIR",
		  "write the patches here (default: .); it must hold no "
		  "*.patch" },
		{ CLI_OPT_FLAG, "force", 0, &force, NULL,
		  "remove the *.patch files of --output-dir DIR before "
		  "writing" },
		{ CLI_OPT_FLAG, "no-credits", 0, &no_credits, NULL,
		  "leave CREDITS alone (for a revision without one)" },
		CLI_ENTRY_FILE_OPTION(&files),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	bool plus_fold;
	struct ms_activity *a = NULL;
	struct ms_activity_query q = { 0 };
	struct ms_act_entry *res = NULL;
	struct cli_list_facts *lf = NULL;
	const struct maint_entry **sel = NULL;
	size_t nr = 0;
	struct keep keep = { NULL, NULL };
	GPtrArray *kept = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *joins = g_ptr_array_new_with_free_func(g_free);
	GHashTable *joins_seen = g_hash_table_new(g_str_hash, g_str_equal);
	GArray *plans = g_array_new(FALSE, TRUE, sizeof(struct retire_plan));
	GPtrArray *owned = g_ptr_array_new_with_free_func(g_free);
	char *maint = NULL, *credits = NULL, *from = NULL;
	size_t len;
	struct retire_opts ro = { 0 };
	struct retire_series *series = NULL;
	struct ms_diags diags = MS_DIAGS_INIT;
	GString *intro = g_string_new(NULL);
	char datebuf[32];
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		goto done_early;
	rc = cli_default_repo("retire", &ao.repo, true);
	if (rc != CLI_CONTINUE)
		goto done_early;
	plus_fold = !ao.no_plus_fold;
	if (min_commits < 0) {
		rc = cli_usage_error("retire", "--min-commits must not be "
				     "negative");
		goto done_early;
	}
	if (!ao.repo) {
		rc = cli_usage_error("retire", "--repo GITDIR is required");
		goto done_early;
	}
	if (keep_load(keep_file, &keep, plus_fold) < 0) {
		rc = EXIT_RUNTIME;
		goto done_early;
	}

	/* The texts the series edits, before the long walk. */
	rc = ms_history_read_file(ao.repo, ao.rev, "MAINTAINERS", &maint,
				  &len);
	if (rc < 0) {
		rc = cli_error_last();
		goto done_early;
	}
	if (!no_credits) {
		rc = ms_history_read_file(ao.repo, ao.rev, "CREDITS", &credits,
					  &len);
		if (rc == MS_ENOTFOUND) {
			rc = cli_error("revision '%s' of '%s' has no CREDITS "
				       "file; --no-credits writes the patches "
				       "without CREDITS changes",
				       ao.rev ? ao.rev : "HEAD", ao.repo);
			goto done_early;
		}
		if (rc < 0) {
			rc = cli_error_last();
			goto done_early;
		}
	}
	if (from_arg) {
		char *n, *e;

		ms_person_parse(from_arg, -1, &n, &e);
		if (!n || !e) {
			g_free(n);
			g_free(e);
			rc = cli_usage_error("retire", "--from takes \"Name "
					     "<address>\", not '%s'",
					     from_arg);
			goto done_early;
		}
		from = g_strdup_printf("%s <%s>", n, e);
		g_free(n);
		g_free(e);
	} else {
		char *n, *e;

		if (ms_git_user(ao.repo, &n, &e) < 0) {
			rc = cli_error_last();
			goto done_early;
		}
		if (!n || !e) {
			g_free(n);
			g_free(e);
			rc = cli_error("no user.name and user.email in the git "
				       "configuration of '%s': say who signs "
				       "the series with --from", ao.repo);
			goto done_early;
		}
		from = g_strdup_printf("%s <%s>", n, e);
		g_free(n);
		g_free(e);
	}

	rc = cli_act_load("retire", &ao, 5, &a, &q.since, &q.until);
	if (rc != CLI_CONTINUE)
		goto done_early;
	rc = cli_act_select("retire", a, argc, argv, &files, &q, &sel);
	if (rc != CLI_CONTINUE)
		goto out;
	if (ms_act_parse_before(inactive_arg, q.until, &q.active_since) < 0) {
		rc = cli_usage_error("retire", "--inactive-after: %s",
				     ms_error_last());
		goto out;
	}
	if (ms_activity_query(a, &q, &res, &nr) < 0) {
		rc = cli_error_last();
		goto out;
	}
	if (archives.nr) {
		rc = cli_list_facts_load("retire", &ao, &archives,
					 q.since, q.until, q.active_since, a,
					 &lf);
		if (rc != CLI_CONTINUE)
			goto out;
	}

	for (size_t i = 0; i < nr; i++) {
		const struct ms_act_entry *e = &res[i];
		struct retire_plan pl = { 0 };
		GArray *people = g_array_new(FALSE, TRUE,
					     sizeof(struct retire_person));
		char *buf = NULL;
		size_t blen = 0;
		FILE *mem;

		if (e->commits < (size_t)min_commits)
			continue;
		for (size_t k = 0; k < e->nr_people; k++) {
			const struct ms_act_person *p = &e->people[k];
			struct retire_person rp;
			char *w;

			if (!p->inactive ||
			    cli_list_facts_active(lf, e->entry->name,
						  p->email))
				continue;
			if (keep_has(&keep, p, plus_fold)) {
				g_ptr_array_add(kept, *p->name ?
					g_strdup_printf("%s <%s> (%s)",
							p->name, p->email,
							e->entry->name) :
					g_strdup_printf("%s (%s)", p->email,
							e->entry->name));
				continue;
			}
			w = why(p, q.active_since);
			g_ptr_array_add(owned, w);
			rp.name = *p->name ? p->name : NULL;
			rp.email = *p->email ? p->email : NULL;
			rp.role = p->role;
			rp.why = w;
			rp.also = (const char *const *)p->also;
			g_array_append_val(people, rp);
		}
		/* the joins this entry's verdicts rest on, for the cover */
		if (e->commits >= (size_t)min_commits)
			for (size_t k = 0; k < e->nr_people; k++) {
				const struct ms_act_person *p = &e->people[k];
				char *j = cli_act_joins(a, p);

				if (j && !g_hash_table_contains(joins_seen,
								p->email)) {
					g_hash_table_add(joins_seen,
							 p->email);
					g_ptr_array_add(joins, g_strdup_printf(
						"%s <%s> is also %s",
						p->name, p->email, j));
				}
				g_free(j);
			}
		if (!people->len) {
			g_array_free(people, TRUE);
			continue;
		}
		mem = open_memstream(&buf, &blen);
		cli_act_print_entry(mem, e, lf);
		fclose(mem);
		g_ptr_array_add(owned, g_strdup(buf));
		free(buf);
		pl.entry = e->entry->name;
		pl.nr_people = people->len;
		pl.people = (struct retire_person *)g_array_free(people,
								 FALSE);
		g_ptr_array_add(owned, pl.people);
		pl.report = owned->pdata[owned->len - 2];
		g_array_append_val(plans, pl);
	}

	ms_act_format(q.since, 0, false, true, datebuf);
	g_string_append_printf(intro, "These patches retire the MAINTAINERS "
			       "people who authored, committed or were named "
			       "in a *-by: trailer of no change to their "
			       "entry's files");
	ms_act_format(q.active_since, 0, false, true, datebuf);
	g_string_append_printf(intro, " since %s (--inactive-after %s), "
			       "among entries with at least %ld commits "
			       "between ", datebuf, inactive_arg, min_commits);
	ms_act_format(q.since, 0, false, true, datebuf);
	g_string_append_printf(intro, "%s and ", datebuf);
	ms_act_format(q.until, 0, false, true, datebuf);
	g_string_append_printf(intro, "%s", datebuf);
	if (archives.nr)
		g_string_append(intro, ", or in a reply on the list");
	g_string_append(intro, ".  Maintainers who leave MAINTAINERS "
			"altogether move to CREDITS; entries left without a "
			"maintainer become Orphan.");
	{
		char *w = retire_wrap(intro->str, 72);

		g_string_assign(intro, w);
		g_string_append_c(intro, '\n');
		g_free(w);
	}
	if (kept->len) {
		g_string_append(intro, "\nKept, as they asked (--keep):\n");
		for (guint i = 0; i < kept->len; i++)
			g_string_append_printf(intro, "  %s\n",
					       (char *)kept->pdata[i]);
	}
	if (joins->len) {
		g_string_append(intro, "\nThe verdicts count each person under "
				"all their addresses; these\njoins were "
				"relied on (source, first evidence):\n");
		for (guint i = 0; i < joins->len; i++) {
			char *w = retire_wrap(joins->pdata[i], 68);
			char **ls = g_strsplit(w, "\n", -1);

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

	ro.from = from;
	{
		const char *sde = g_getenv("SOURCE_DATE_EPOCH");
		GDateTime *now = g_date_time_new_now_local();

		ro.date = sde ? g_ascii_strtoll(sde, NULL, 10) :
			  g_date_time_to_unix(now);
		ro.date_offset = sde ? 0 : (int)(g_date_time_get_utc_offset(
			now) / G_TIME_SPAN_MINUTE);
		g_date_time_unref(now);
	}
	ro.no_credits = no_credits;
	ro.plus_fold = plus_fold;
	ro.cover_intro = intro->str;
	rc = retire_build(maint, credits, (struct retire_plan *)plans->data,
			  plans->len, &ro, &series, &diags);
	cli_print_diags(&diags);
	if (rc < 0) {
		rc = cli_error_last();
		goto out;
	}
	if (series->nr > 1) {
		rc = check_outdir(outdir, force);
		if (rc == CLI_CONTINUE)
			rc = write_series(outdir, series);
		if (rc != CLI_CONTINUE)
			goto out;
	}

	{
		struct ms_out *o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT,
					      stdout);

		ms_out_begin_document(o);
		if (json) {
			ms_out_kv_string(o, "output_directory", outdir);
			ms_out_key(o, "patches");
			ms_out_begin_list(o);
			for (size_t i = 0; i < series->nr && series->nr > 1;
			     i++) {
				const struct retire_patch *p =
					&series->patches[i];

				ms_out_begin_object(o);
				ms_out_kv_string(o, "file", p->file_name);
				ms_out_kv_string(o, "subject", p->subject);
				ms_out_kv_string(o, "entry", p->entry);
				ms_out_kv_bool(o, "credits", p->credits_changed);
				ms_out_kv_bool(o, "orphaned", p->orphaned);
				ms_out_end_object(o);
			}
			ms_out_end_list(o);
			ms_out_key(o, "kept");
			ms_out_begin_list(o);
			for (guint i = 0; i < kept->len; i++)
				ms_out_string(o, kept->pdata[i]);
			ms_out_end_list(o);
		} else if (series->nr > 1) {
			for (size_t i = 0; i < series->nr; i++)
				printf("%s/%s\n", outdir,
				       series->patches[i].file_name);
		} else {
			printf("no inactive people to retire\n");
		}
		rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
		ms_out_free(o);
	}
out:
	retire_series_free(series);
	cli_list_facts_free(lf);
	ms_act_entries_free(res, nr);
	ms_activity_free(a);
	g_free(sel);
done_early:
	ms_diags_release(&diags);
	g_string_free(intro, TRUE);
	g_free(maint);
	g_free(credits);
	g_free(from);
	keep_free(&keep);
	g_ptr_array_free(kept, TRUE);
	g_ptr_array_free(joins, TRUE);
	g_hash_table_destroy(joins_seen);
	g_ptr_array_free(owned, TRUE);
	g_array_free(plans, TRUE);
	return rc;
}
