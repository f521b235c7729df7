/*
 * cmd-recruit.c - maintstat recruit: the patch series proposing what the
 * areas show (recruit.h decides and writes the patches; this file reads
 * the options and writes the files).
 */
#include "activity.h"
#include "areas.h"
#include "cli-areas.h"
#include "cli-patches.h"
#include "cli-project.h"
#include "cli-review.h"
#include "commands.h"
#include "git-common.h"
#include "history.h"
#include "inbox-url.h"
#include "maintainers.h"
#include "output.h"
#include "person.h"
#include "recruit.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat recruit [--repo GITDIR] [options] [ENTRY...] "
	"--output-dir DIR",
	"A patch series in git format-patch form (a cover letter, then one\n"
	"patch per proposal, applying in order with git am on the analysed\n"
	"revision) proposing what maintstat areas shows: for each de-facto\n"
	"person of an area, an R: line in the entry, or, for an unattended\n"
	"directory, a new entry (named after the entry and the directory,\n"
	"placed in MAINTAINERS' order) with its de-facto people as R:, the\n"
	"entry's lists and status, and F: the directory.  THE REST (F: */)\n"
	"gets no R: line: only a new entry, named for the directory, for a\n"
	"top-level directory with a de-facto person that no other entry\n"
	"covers; nor does any entry for an area an inner entry covers most\n"
	"of (that entry is the place).  Never an M: line: becoming a\n"
	"maintainer is that person's decision.  Each commit message gives\n"
	"the evidence (commits applied, reviews, the last\n"
	"date, example commits) and says it is a proposal; To: the people\n"
	"proposed, Cc: the entry's listed people and lists.  --keep FILE\n"
	"names people never to propose (addresses or names, one a line).\n"
	"Each patch edits the file its entry was read from: with\n"
	"--find-maintainer-files (or a tree asking for it, as U-Boot's does)\n"
	"also board/*/MAINTAINERS, titled as U-Boot titles changes to them\n"
	"(board: acme: add NAME as reviewer).  With --archive, also an\n"
	"R: line for each de-facto maintainer `review` reports (someone\n"
	"not listed who answers first, tags or applies most of the\n"
	"entry's patches on the list), with example Message-IDs (both\n"
	"evidences for someone de-facto in git too).",
	"  maintstat recruit --repo u-boot.git --from 'Ann <a@example.org>'"
	" -o out DFU\n"
	"  maintstat recruit --split-commits 50 -o out --force --json\n"
	"  maintstat recruit --repo ~/linux --archive rdma.mbox.gz -o list-out",
};

struct recruit_args {
	struct cli_act_opts ao;
	struct cli_strings files;
	const char *keep_file, *from_arg, *outdir, *list_url;
	long min_commits;
	bool force, json;
};

/*
 * The path in the patch of a --maintainers file on disk: relative to the
 * work tree of repository `repo` (ms_git_discover()) when it lies inside
 * it, else the tree's top-level MAINTAINERS, as retire takes it: never a
 * path outside the tree, which git am refuses.
 */
static char *disk_path_in_tree(const char *file, const char *repo)
{
	char *abs = realpath(file, NULL), *top = NULL, *out = NULL;

	if (abs && repo && ms_git_discover(repo, &top) == 0 &&
	    g_str_has_prefix(abs, top) && abs[strlen(top)] == '/')
		out = g_strdup(abs + strlen(top) + 1);
	ms_error_clear();
	free(abs);
	g_free(top);
	return out ? out : g_strdup("MAINTAINERS");
}

/* recruit_read_fn: a file given with --maintainers as it is on disk,
 * else "REV:path" from the repository's revision. */
static int read_maintainers(const char *file, char **path, char **text,
			    void *data)
{
	const struct recruit_args *ra = data;
	const char *rev = ra->ao.rev ? ra->ao.rev : "HEAD";
	size_t len;

	for (int i = 0; i < ra->ao.maintainers.nr; i++)
		if (!strcmp(file, ra->ao.maintainers.items[i])) {
			GError *err = NULL;
			int rc = 0;

			*path = disk_path_in_tree(file, ra->ao.repo);
			if (!g_file_get_contents(file, text, &len, &err)) {
				rc = ms_error_set(MS_ERROR, "cannot read "
						  "'%s': %s", file,
						  err->message);
				g_error_free(err);
			}
			return rc;
		}
	if (g_str_has_prefix(file, rev) && file[strlen(rev)] == ':')
		file += strlen(rev) + 1;
	*path = g_strdup(file);
	return ms_history_read_file(ra->ao.repo, ra->ao.rev, file, text, &len);
}

/* `key`: the header lines `v` as [{"name", "email"}]. */
static void json_people(struct ms_out *o, const char *key, char **v)
{
	ms_out_kv_begin_list(o, key);
	for (size_t i = 0; v && v[i]; i++) {
		ms_out_begin_object(o);
		cli_json_person_line(o, v[i]);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* What was written: the patch files, or in JSON each with its subject
 * and recipients, as retire --json gives them. */
static int print_written(const struct recruit_args *ra,
			 const struct recruit_series *s)
{
	struct ms_out *o = ms_out_new(ra->json ? MS_OUT_JSON : MS_OUT_TEXT,
				      stdout);
	int rc;

	ms_out_begin_document(o);
	if (ra->json) {
		ms_out_kv_string(o, "output_directory", ra->outdir);
		ms_out_kv_begin_list(o, "patch_files");
		for (size_t i = 0; i < s->nr; i++) {
			const struct recruit_patch *p = &s->patches[i];

			ms_out_begin_object(o);
			ms_out_kv_string(o, "file", p->file_name);
			ms_out_kv_string(o, "subject", p->subject);
			json_people(o, "to", p->to);
			json_people(o, "cc", p->cc);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
		ms_out_kv_int(o, "kept", (int64_t)s->kept);
	} else if (s->nr) {
		for (size_t i = 0; i < s->nr; i++)
			printf("%s/%s\n", ra->outdir, s->patches[i].file_name);
	} else {
		printf("nothing to propose (no de-facto person in the "
		       "areas%s)\n", s->kept ?
			" but those --keep keeps" : "");
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	return rc;
}

static int recruit_run(struct recruit_args *ra, int argc, char **argv)
{
	struct ms_areas_query q = MS_AREAS_QUERY_INIT;
	struct recruit_opts ro = { 0 };
	struct cli_keep keep = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct recruit_series *s = NULL;
	struct ms_areas *res = NULL;
	struct ms_activity *a = NULL;
	struct ms_project *proj = NULL;
	struct cli_list_facts *lf = NULL;
	const struct ms_rv_entry **list = NULL;
	char *url = NULL;
	const char *sde = g_getenv("SOURCE_DATE_EPOCH");
	char *from = NULL;
	int64_t cutoff = 0;
	int rc;

	q.min_commits = (size_t)ra->min_commits;
	rc = cli_keep_load(ra->keep_file, &keep, !ra->ao.no_plus_fold) < 0 ?
	     EXIT_RUNTIME : CLI_CONTINUE;
	if (rc == CLI_CONTINUE)
		rc = cli_patch_signer("recruit", ra->ao.repo, ra->from_arg,
				      &from);
	if (rc == CLI_CONTINUE)
		rc = cli_check_outdir(ra->outdir, ra->force, false);
	/* the list's review, as activity and retire read it: their
	 * window and cutoff (ms_verdict_window()) */
	ra->ao.inactive_after = MS_DEFAULT_INACTIVE_AFTER;
	if (rc == CLI_CONTINUE)
		rc = cli_areas_load("recruit", &ra->ao, argc, argv, &ra->files,
				    NULL, NULL, NULL, &q, &cutoff, &lf, &proj,
				    &a, &res);
	if (rc == CLI_CONTINUE && ra->ao.archives.nr) {
		rc = cli_list_facts_load("recruit", &ra->ao, q.since, q.until,
					 cutoff, a, &lf);
		list = g_new0(const struct ms_rv_entry *, res->nr_entries + 1);
		for (size_t i = 0; lf && i < res->nr_entries; i++)
			list[i] = cli_list_facts_entry(lf,
				res->entries[i].entry->name);
		for (int i = 0; !ra->list_url && !url &&
		     i < ra->ao.archives.nr; i++)
			url = ms_inbox_base_url(ra->ao.archives.items[i]);
	}
	if (rc != CLI_CONTINUE)
		goto out;
	ro.list = list;
	ro.list_url = ra->list_url ? ra->list_url : url;
	ro.from = from;
	ro.date = sde ? g_ascii_strtoll(sde, NULL, 10) :
		  g_get_real_time() / G_USEC_PER_SEC;
	ro.since = q.since;
	ro.until = q.until;
	ro.keep = (const char *const *)keep.lines->pdata;
	ro.nr_keep = keep.lines->len;
	ro.plus_fold = !ra->ao.no_plus_fold;
	rc = recruit_build(a, res, read_maintainers, ra, &ro, &s, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0) {
		rc = cli_error_last();
		goto out;
	}
	rc = s->nr ? CLI_WRITE_SERIES(ra->outdir, s, ra->force) :
	     CLI_CONTINUE;
	if (rc == CLI_CONTINUE)
		rc = print_written(ra, s);
out:
	recruit_series_free(s);
	g_free(list);
	g_free(url);
	ms_areas_free(res);
	g_free((void *)q.entries);
	cli_project_close(proj);
	cli_list_facts_free(lf);             /* after the project */
	cli_keep_free(&keep);
	g_free(from);
	return rc;
}

int cmd_recruit(int argc, char **argv)
{
	struct recruit_args ra = { 0 };
	const struct cli_option opts[] = {
		CLI_ACT_OPTIONS(&ra.ao, CLI_WINDOW_HELP),
		CLI_SPLIT_COMMITS_OPTION(&ra.min_commits),
		{ CLI_OPT_STRING, "keep", 0, &ra.keep_file, "FILE",
		  "people never to propose: addresses or names, one per line "
		  "(default: none)" },
		CLI_PATCH_OPTIONS(&ra.from_arg, &ra.outdir, &ra.force),
		CLI_ENTRY_FILE_OPTION(&ra.files),
		CLI_OPT_ARCHIVE(&ra.ao.archives, "a list archive (as "
				"review's): propose its de-facto maintainers "
				"too"),
		{ CLI_OPT_STRING, "list-url", 0, &ra.list_url, "URL",
		  "the archive's base URL, for links to messages (default: "
		  "the remote a public-inbox mirror was fetched from)" },
		CLI_OPT_JSON(&ra.json),
		CLI_OPTION_END,
	};
	int rc;

	ra.min_commits = MS_AREAS_MIN_COMMITS;
	ra.outdir = ".";
	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_default_repo("recruit", &ra.ao.repo, true);
	if (rc != CLI_CONTINUE)
		return rc;
	if (ra.list_url && !ms_url_is_web(ra.list_url))
		return cli_usage_error("recruit", "--list-url takes an http:// "
				       "or https:// address, not '%s'",
				       ra.list_url);
	if (ra.list_url && !ra.ao.archives.nr)
		return cli_usage_error("recruit", "--list-url needs --archive");
	return recruit_run(&ra, argc, argv);
}
