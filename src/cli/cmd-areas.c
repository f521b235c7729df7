/*
 * cmd-areas.c - maintstat areas: who really looks after each part of a
 * broad MAINTAINERS entry (areas.h decides; this file prints).
 */
#include "activity.h"
#include "areas.h"
#include "cli-activity.h"
#include "cli-areas.h"
#include "cli-project.h"
#include "cli-result.h"
#include "commands.h"
#include "maintainers.h"
#include "output.h"
#include "store.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat areas [--repo GITDIR] [options] [ENTRY...]",
	"Each MAINTAINERS entry (all, or those named) cut into areas: the\n"
	"directories below each F: pattern (a file pattern's files, an N:\n"
	"pattern's files: one area each; F: */, the whole tree, cut once into\n"
	"its top-level directories), cut into their subdirectories and\n"
	"their own files (DIR/*) while they hold at least --split-commits\n"
	"commits of the window and more than one part has commits.  Per\n"
	"area: its files in the tree, the window's commits and how many were\n"
	"reviewed or acked by someone other than the author, when each\n"
	"listed M: and R: person last authored, committed or was named in a\n"
	"*-by: trailer there, and the top people there (authored, applied,\n"
	"reviewed).  Flags: unattended (commits, none by a listed person),\n"
	"de-facto (someone listed by no entry covering the area, nor by an\n"
	"entry naming no file (the whole project's), nor by the entry at\n"
	"any time in the window, applied half of them,\n"
	"or gave half of their review tags and on a quarter of them, either\n"
	"at least --split-commits / 2 times (3 at least): a few tags in\n"
	"five years are no one's care of an area; leaving out tree-wide\n"
	"commits that touch more than 10 entries, and the patches of others\n"
	"that a custodian (an M: of an entry with a T: tree) applied: passing a\n"
	"patch through one's tree is not looking after the area, and such\n"
	"a custodian is none (the area is their tree's already); the\n"
	"newest of those in the window's last year; never where the tree\n"
	"has no file),\n"
	"dormant (no commit in the window).\n"
	"Files an inner entry covers still count for the outer one (as\n"
	"get_maintainer.pl names both): the inner entry is named, and its\n"
	"people count as listed there.  The window, identities and commits\n"
	"are those of maintstat activity (5 years, merges left out).\n"
	"--by month|quarter|year|release adds each area's figures per interval\n"
	"(the areas stay those of the whole window).",
	"  maintstat areas --repo u-boot.git ARM DFU\n"
	"  maintstat areas --repo u-boot.git --by year DFU\n"
	"  maintstat areas --split-commits 50 --json",
};

/* "2024-05-01", or "never". */
static const char *day(bool set, int64_t t, char buf[32])
{
	if (!set)
		return "never";
	ms_act_format(t, 0, false, true, buf);
	return buf;
}

static const enum ms_area_flag all_flags[] = {
	MS_AREA_UNATTENDED, MS_AREA_DEFACTO, MS_AREA_DORMANT,
};

static void print_flags(FILE *fp, unsigned flags)
{
	const enum ms_area_flag *all = all_flags;
	bool first = true;

	for (size_t i = 0; i < G_N_ELEMENTS(all_flags); i++) {
		if (!(flags & all[i]))
			continue;
		fprintf(fp, "%s%s", first ? "  [" : ", ",
			ms_area_flag_name(all[i]));
		first = false;
	}
	if (!first)
		fputc(']', fp);
}

static void print_figures(FILE *fp, const struct ms_area *ar)
{
	fprintf(fp, "%zu file%s, %zu commit%s", ar->files,
		ar->files == 1 ? "" : "s", ar->commits,
		ar->commits == 1 ? "" : "s");
	if (ar->commits)
		fprintf(fp, ", %zu reviewed (%u%%)", ar->reviewed,
			cli_percent(ar->reviewed, ar->commits));
	print_flags(fp, ar->flags);
}

static void print_person(FILE *fp, const struct ms_area_person *p)
{
	char d[32];

	cli_person_label(fp, p->name, p->email);
	fprintf(fp, ": %zu authored, %zu applied, %zu reviewed, "
		"last %s", p->authored, p->committed,
		p->reviewed, day(true, p->last, d));
	switch (ms_area_standing(p)) {
	case MS_AREA_LISTED:
		fprintf(fp, " (listed)");
		break;
	case MS_AREA_LISTED_ELSEWHERE:
		fprintf(fp, " (listed in %s)", p->listed_in);
		break;
	case MS_AREA_CUSTODIAN:
		fprintf(fp, " (%zu applied as the custodian of %s's tree)",
			p->custodial, p->custodian_of);
		break;
	case MS_AREA_LISTED_THEN:
		fprintf(fp, " (listed in the window)");
		break;
	case MS_AREA_UNLISTED:
		break;
	}
	if (ms_area_defacto(p))
		fprintf(fp, " DE-FACTO %s", ms_area_defacto(p));
	fputc('\n', fp);
}

/* One person of an area's "top", the window's or an interval's. */
static void json_top(struct ms_out *o, const struct ms_area_person *p)
{
	char d[32];

	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", p->name);
	ms_out_kv_string(o, "email", p->email);
	ms_out_kv_int(o, "authored", (int64_t)p->authored);
	ms_out_kv_int(o, "committed", (int64_t)p->committed);
	ms_out_kv_int(o, "reviewed", (int64_t)p->reviewed);
	ms_act_format(p->last, 0, true, false, d);
	ms_out_kv_string(o, "last", d);
	ms_out_kv_bool(o, "listed", p->listed);
	ms_out_kv_string(o, "listed_elsewhere", p->listed_in);
	ms_out_kv_int(o, "custodial", (int64_t)p->custodial);
	ms_out_kv_string(o, "custodian_of", p->custodian_of);
	ms_out_kv_bool(o, "listed_then", p->listed_then);
	ms_out_kv_bool(o, "de_facto", ms_area_defacto(p) != NULL);
	ms_out_kv_begin_list(o, "examples");
	for (size_t k = 0; k < p->nr_examples; k++)
		ms_out_string(o, p->examples[k]);
	ms_out_end_list(o);
	ms_out_end_object(o);
}

/* The area's figures per interval of --by, as activity's table
 * (cli_act_series_text()). */
static void print_intervals(FILE *fp, const struct ms_area *ar,
			    const struct cli_act_series *ser)
{
	if (!ar->nr_intervals)
		return;
	fprintf(fp, "    By interval:\n      %-12s %7s %8s %7s  %s\n",
		"start", "commits", "reviewed", "listed", "top");
	for (size_t i = 0; i < ar->nr_intervals; i++) {
		const struct ms_area *iv = &ar->intervals[i];
		size_t active = 0;

		fprintf(fp, "      %-12s", ser->day[i]);
		if (!iv->commits) {
			fprintf(fp, " %7s", "-");
		} else {
			for (size_t l = 0; l < iv->nr_listed; l++)
				active += iv->listed[l].author.count ||
					  iv->listed[l].committer.count ||
					  iv->listed[l].tags.count;
			fprintf(fp, " %7zu %8zu %3zu/%-3zu", iv->commits,
				iv->reviewed, active, iv->nr_listed);
			if (iv->nr_top)
				fprintf(fp, "  %s (%zu)", iv->top[0].name,
					iv->top[0].authored +
					iv->top[0].committed +
					iv->top[0].reviewed);
			print_flags(fp, iv->flags);
		}
		if (ser->labels && ser->labels->pdata[i])
			fprintf(fp, "  (until %s)",
				(const char *)ser->labels->pdata[i]);
		fputc('\n', fp);
	}
}

static void print_area(FILE *fp, const struct ms_area *ar,
		       const struct cli_act_series *ser)
{
	char d1[32], d2[32], d3[32];

	fprintf(fp, "  %s  ", ar->path);
	print_figures(fp, ar);
	fputc('\n', fp);
	for (size_t i = 0; i < ar->nr_listed; i++) {
		const struct ms_area_listed *l = &ar->listed[i];

		fprintf(fp, "    %c: ", l->role);
		cli_person_label(fp, l->name, l->email);
		fprintf(fp, ": authored %s, committed %s, "
			"tagged %s\n",
			day(l->author.set, l->author.time, d1),
			day(l->committer.set, l->committer.time, d2),
			day(l->tags.set, l->tags.time, d3));
	}
	for (size_t i = 0; i < ar->nr_top; i++) {
		fprintf(fp, "    %s", i ? "     " : "top: ");
		print_person(fp, &ar->top[i]);
	}
	for (size_t i = 0; i < ar->nr_covers && ar->covers[i].inner; i++)
		fprintf(fp, "    %s%s (%zu of the commits)\n",
			i ? "              " : "also covered: ",
			ar->covers[i].entry->name, ar->covers[i].commits);
	print_intervals(fp, ar, ser);
}

static void print_entry(FILE *fp, const struct ms_areas_entry *e,
			const struct cli_act_series *ser)
{
	if (e->nr_areas == 1) {
		const struct ms_area *ar = &e->areas[0];

		fprintf(fp, "%s: one area, %s: ", e->entry->name, ar->path);
		print_figures(fp, ar);
		if (ar->nr_top)
			fprintf(fp, "; top %s (%zu)", ar->top[0].name,
				ar->top[0].authored + ar->top[0].committed +
				ar->top[0].reviewed);
		fputc('\n', fp);
		print_intervals(fp, ar, ser);
		return;
	}
	fprintf(fp, "%s (%s:%u): %zu commits, %zu area%s\n", e->entry->name,
		e->entry->file, e->entry->line, e->commits, e->nr_areas,
		e->nr_areas == 1 ? "" : "s");
	for (size_t i = 0; i < e->nr_areas; i++)
		print_area(fp, &e->areas[i], ser);
}

static void json_flags(struct ms_out *o, unsigned flags)
{
	ms_out_kv_begin_list(o, "flags");
	for (size_t i = 0; i < G_N_ELEMENTS(all_flags); i++)
		if (flags & all_flags[i])
			ms_out_string(o, ms_area_flag_name(all_flags[i]));
	ms_out_end_list(o);
}

/* The area's figures per interval of --by: as activity's `intervals`
 * (cli_act_series_json()), an interval without commits there null in
 * every figure. */
static void json_intervals(struct ms_out *o, const struct ms_area *ar,
			   const struct cli_act_series *ser)
{
	static const char *const figures[] = { "commits", "reviewed",
		"people", "top", "flags" };

	ms_out_kv_begin_list(o, "intervals");
	for (size_t i = 0; i < ar->nr_intervals; i++) {
		const struct ms_area *iv = &ar->intervals[i];

		if (!cli_act_series_open(o, ser, i, !iv->commits, figures,
					 G_N_ELEMENTS(figures)))
			continue;
		ms_out_kv_int(o, "commits", (int64_t)iv->commits);
		ms_out_kv_int(o, "reviewed", (int64_t)iv->reviewed);
		ms_out_kv_begin_list(o, "people");
		for (size_t l = 0; l < iv->nr_listed; l++) {
			const struct ms_area_listed *p = &iv->listed[l];

			cli_act_json_tallies(o, p->role, p->name, p->email,
					     &p->author, &p->committer,
					     &p->tags);
		}
		ms_out_end_list(o);
		ms_out_kv_begin_list(o, "top");
		for (size_t t = 0; t < iv->nr_top; t++)
			json_top(o, &iv->top[t]);
		ms_out_end_list(o);
		json_flags(o, iv->flags);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

static void json_area(struct ms_out *o, const struct ms_area *ar,
		      const struct cli_act_series *ser)
{
	ms_out_begin_object(o);
	ms_out_kv_string(o, "path", ar->path);
	ms_out_kv_int(o, "files", (int64_t)ar->files);
	ms_out_kv_int(o, "commits", (int64_t)ar->commits);
	ms_out_kv_int(o, "reviewed", (int64_t)ar->reviewed);
	ms_out_kv_begin_list(o, "people");
	for (size_t i = 0; i < ar->nr_listed; i++) {
		const struct ms_area_listed *l = &ar->listed[i];
		char role[2] = { l->role, 0 };

		ms_out_begin_object(o);
		ms_out_kv_string(o, "role", role);
		cli_json_person(o, l->name, l->email);
		cli_act_json_lasts(o, &l->author, &l->committer, &l->tags);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "top");
	for (size_t i = 0; i < ar->nr_top; i++)
		json_top(o, &ar->top[i]);
	ms_out_end_list(o);
	json_flags(o, ar->flags);
	ms_out_kv_begin_list(o, "also_covered_by");
	for (size_t i = 0; i < ar->nr_covers && ar->covers[i].inner; i++) {
		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", ar->covers[i].entry->name);
		ms_out_kv_int(o, "commits", (int64_t)ar->covers[i].commits);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	if (ser->nr_intervals)
		json_intervals(o, ar, ser);
	ms_out_end_object(o);
}

static int print_all(const struct ms_areas *r, const struct cli_act_opts *ao,
		     const struct ms_areas_query *q,
		     const struct cli_act_series *ser, bool json)
{
	struct ms_out *o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT,
				      stdout);
	char s[32], u[32];
	int rc;

	if (json) {
		ms_out_begin_document(o);
		cli_json_window(o, true, q->since, q->until);
		ms_out_kv_int(o, "split_commits", (int64_t)q->min_commits);
		ms_out_kv_begin_list(o, "entries");
		for (size_t i = 0; i < r->nr_entries; i++) {
			const struct ms_areas_entry *e = &r->entries[i];

			ms_out_begin_object(o);
			ms_out_kv_string(o, "name", e->entry->name);
			ms_out_kv_int(o, "commits", (int64_t)e->commits);
			ms_out_kv_begin_list(o, "areas");
			for (size_t k = 0; k < e->nr_areas; k++)
				json_area(o, &e->areas[k], ser);
			ms_out_end_list(o);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
	} else {
		ms_act_format(q->since, 0, false, true, s);
		ms_act_format(q->until, 0, false, true, u);
		printf("Repository %s at %s\n", ao->repo,
		       ao->rev ? ao->rev : "HEAD");
		printf("Window: commits dated %s to %s (UTC)%s\n", s, u,
		       ao->merges ? ", merges included" : ", merges left out");
		printf("Areas: directories below each F: pattern, cut while "
		       "they hold at least %zu commits\nand more than one part "
		       "has commits.  Files an inner entry covers still count\n"
		       "for the outer one (get_maintainer.pl names both): "
		       "see 'also covered'.\n", q->min_commits);
		for (size_t i = 0; i < r->nr_entries; i++) {
			putchar('\n');
			print_entry(stdout, &r->entries[i], ser);
		}
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	return rc;
}

/* What the result depends on besides the command line and the build
 * (cli-result.h): every input of the project (cli_result_add_project()),
 * the window's dates as resolved now. */
static int areas_key(struct cli_result *kept, const struct cli_act_opts *ao)
{
	int64_t s, u;
	int rc;

	cli_result_add_project(kept, ao);
	rc = cli_window_parse("areas", ao->repo, ao->since, ao->until, &s, &u);
	if (rc != CLI_CONTINUE)
		return rc;
	if (ao->since)
		cli_result_add_int(kept, "since", s);
	if (ao->until)
		cli_result_add_int(kept, "until", u);
	return CLI_CONTINUE;
}

int cmd_areas(int argc, char **argv)
{
	struct cli_act_opts ao = { 0 };
	struct cli_result kept = { 0 };
	char **argv0 = g_new(char *, (size_t)argc + 1);
	int argc0 = argc;
	struct cli_strings files = { 0 };
	struct cli_act_series ser = { 0 };
	const char *by = NULL, *tags = NULL;
	bool json = false;
	long min_commits = MS_AREAS_MIN_COMMITS;
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&ao, CLI_WINDOW_HELP),
		CLI_SPLIT_COMMITS_OPTION(&min_commits),
		CLI_ACT_SERIES_OPTIONS(&by, &tags),
		CLI_ENTRY_FILE_OPTION(&files),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	struct ms_areas_query q = MS_AREAS_QUERY_INIT;
	struct ms_areas *res = NULL;
	struct ms_activity *a = NULL;
	struct ms_project *proj = NULL;
	int rc;

	memcpy(argv0, argv, sizeof(*argv) * (size_t)argc);
	argv0[argc] = NULL;
	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		goto done;
	rc = cli_default_repo("areas", &ao.repo, true);
	if (rc != CLI_CONTINUE)
		goto done;
	q.min_commits = (size_t)min_commits;
	/* a run with the same inputs prints the result kept by the last */
	cli_result_begin(&kept, "areas", json, argc0, argv0,
			 ao.store.no_cache);
	rc = areas_key(&kept, &ao);
	if (rc == CLI_CONTINUE)
		rc = cli_result_serve(&kept, &ao.store, ao.repo, NULL);
	if (rc != CLI_CONTINUE)
		goto out;
	rc = cli_areas_load("areas", &ao, argc, argv, &files, by, tags, &ser,
			    &q, NULL, NULL, &proj, &a, &res);
	if (rc == CLI_CONTINUE)
		rc = print_all(res, &ao, &q, &ser, json);
	rc = cli_result_end(&kept, rc, &ao.store, ao.repo, NULL);
	cli_result_keep(&kept);
out:
	cli_result_release(&kept);
done:
	g_free(argv0);
	ms_areas_free(res);
	cli_act_series_release(&ser);
	g_free((void *)q.entries);
	cli_project_close(proj);
	return rc;
}
