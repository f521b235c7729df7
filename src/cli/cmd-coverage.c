/*
 * cmd-coverage.c - maintstat coverage: the MAINTAINERS file's own health.
 */
#include "cli.h"
#include "cli-urls.h"
#include "commands.h"
#include "coverage.h"
#include "maintainers.h"
#include "output.h"
#include "tree.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat coverage [TREE] [options]",
	"Report on the health of the tree's MAINTAINERS file(s), as LWN's\n"
	"\"MAINTAINERS truth and fiction\" counted it: files that only\n"
	"catch-all entries (those matching every file, like Linux's THE REST)\n"
	"cover, entries with no F: or N: pattern, F:/X:/N: patterns that match\n"
	"no file, and entries whose files are mostly matched by another entry.",
	"  maintstat coverage /usr/src/linux\n"
	"  maintstat coverage --check-urls --json",
};

static void emit_dirs(struct ms_out *o, const char *key,
		      const struct coverage_dir *d, size_t nr)
{
	ms_out_key(o, key);
	ms_out_begin_list(o);
	for (size_t i = 0; i < nr; i++) {
		ms_out_begin_object(o);
		ms_out_kv_string(o, "dir", d[i].dir);
		ms_out_kv_int(o, "count", (int64_t)d[i].count);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

static void emit_json(struct ms_out *o, const struct cli_tree *ct,
		      const struct coverage *c, double share)
{
	ms_out_kv_string(o, "tree", ms_tree_root(ct->tree));
	ms_out_kv_int(o, "files_total", (int64_t)c->files_total);
	ms_out_kv_int(o, "entries_total",
		      (int64_t)maint_file_nr_entries(ct->mf));
	ms_out_key(o, "catch_all_entries");
	ms_out_begin_list(o);
	for (size_t i = 0; i < c->nr_catch_all; i++)
		ms_out_string(o, c->catch_all[i]->name);
	ms_out_end_list(o);

	ms_out_key(o, "uncovered");
	ms_out_begin_object(o);
	ms_out_kv_int(o, "count", (int64_t)c->nr_uncovered);
	emit_dirs(o, "by_directory", c->by_dir, c->nr_by_dir);
	emit_dirs(o, "by_top_directory", c->by_top, c->nr_by_top);
	ms_out_key(o, "files");
	ms_out_begin_list(o);
	for (size_t i = 0; i < c->nr_uncovered; i++)
		ms_out_string(o, c->uncovered[i]);
	ms_out_end_list(o);
	ms_out_end_object(o);

	ms_out_key(o, "entries_without_files");
	ms_out_begin_list(o);
	for (size_t i = 0; i < c->nr_without_files; i++)
		ms_out_string(o, c->without_files[i]->name);
	ms_out_end_list(o);

	ms_out_key(o, "stale_patterns");
	ms_out_begin_list(o);
	for (size_t i = 0; i < c->nr_stale; i++) {
		char key[2] = { c->stale[i]->key, 0 };

		ms_out_begin_object(o);
		ms_out_kv_string(o, "entry", c->stale_entry[i]->name);
		ms_out_kv_string(o, "key", key);
		ms_out_kv_string(o, "pattern", c->stale[i]->value);
		ms_out_kv_string(o, "file", c->stale[i]->file);
		ms_out_kv_int(o, "line", c->stale[i]->line);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);

	ms_out_kv_real(o, "overlap_min_share", share);
	ms_out_key(o, "overlaps");
	ms_out_begin_list(o);
	for (size_t i = 0; i < c->nr_overlaps; i++) {
		const struct coverage_overlap *v = &c->overlaps[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "entry", v->entry->name);
		ms_out_kv_string(o, "other", v->other->name);
		ms_out_kv_int(o, "entry_files", (int64_t)v->entry_files);
		ms_out_kv_int(o, "shared_files", (int64_t)v->shared_files);
		ms_out_kv_real(o, "share", v->share);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* A MAINTAINERS file name as people read it: relative to the tree. */
static const char *short_name(const struct cli_tree *ct, const char *file)
{
	const char *root = ms_tree_root(ct->tree);
	size_t n = strlen(root);

	if (!strncmp(file, root, n) && file[n] == '/')
		return file + n + 1;
	return file;
}

static void print_dirs(FILE *fp, const char *title,
		       const struct coverage_dir *d, size_t nr, size_t top)
{
	fprintf(fp, "  %s:\n", title);
	for (size_t i = 0; i < nr && i < top; i++)
		fprintf(fp, "    %6zu  %s/\n", d[i].count,
			*d[i].dir ? d[i].dir : ".");
}

static void print_text(FILE *fp, const struct cli_tree *ct,
		       const struct coverage *c, double share,
		       bool list_files)
{
	size_t top = 20;

	fprintf(fp, "MAINTAINERS coverage of %s: %zu files, %zu entries\n\n",
		ms_tree_root(ct->tree), c->files_total,
		maint_file_nr_entries(ct->mf));
	fprintf(fp, "Catch-all entries (matching every file):");
	for (size_t i = 0; i < c->nr_catch_all; i++)
		fprintf(fp, "%s %s", i ? "," : "", c->catch_all[i]->name);
	fprintf(fp, "%s\n\n", c->nr_catch_all ? "" : " none");

	fprintf(fp, "Files covered by no entry but catch-all ones: %zu "
		"(%.1f%%)\n", c->nr_uncovered,
		c->files_total ? 100.0 * (double)c->nr_uncovered /
		(double)c->files_total : 0.0);
	if (c->nr_uncovered) {
		print_dirs(fp, "by top-level directory", c->by_top,
			   c->nr_by_top, top);
		print_dirs(fp, "directories with the most", c->by_dir,
			   c->nr_by_dir, top);
		if (list_files) {
			fprintf(fp, "  files:\n");
			for (size_t i = 0; i < c->nr_uncovered; i++)
				fprintf(fp, "    %s\n", c->uncovered[i]);
		} else {
			fprintf(fp, "  (--files lists them all)\n");
		}
	}

	fprintf(fp, "\nEntries with no F: or N: pattern: %zu\n",
		c->nr_without_files);
	for (size_t i = 0; i < c->nr_without_files; i++)
		fprintf(fp, "  %s:%u: %s\n",
			short_name(ct, c->without_files[i]->file),
			c->without_files[i]->line, c->without_files[i]->name);

	fprintf(fp, "\nPatterns that match no file: %zu\n", c->nr_stale);
	for (size_t i = 0; i < c->nr_stale; i++)
		fprintf(fp, "  %s:%u: %c: %s  (%s)\n",
			short_name(ct, c->stale[i]->file),
			c->stale[i]->line, c->stale[i]->key,
			c->stale[i]->value, c->stale_entry[i]->name);

	fprintf(fp, "\nEntries with over %.0f%% of their files also in "
		"another entry: %zu\n", share * 100, c->nr_overlaps);
	for (size_t i = 0; i < c->nr_overlaps; i++) {
		const struct coverage_overlap *v = &c->overlaps[i];

		fprintf(fp, "  %s: %zu of %zu files (%.0f%%) also in %s\n",
			v->entry->name, v->shared_files, v->entry_files,
			v->share * 100, v->other->name);
	}
}

int cmd_coverage(int argc, char **argv)
{
	struct cli_tree_opts topts = { 0 };
	struct cli_urls urls = { 0 };
	bool json = false, list_files = false;
	const char *share_arg = NULL;
	const struct cli_option opts[] = {
		CLI_TREE_OPTIONS(&topts),
		{ CLI_OPT_STRING, "overlap-share", 0, &share_arg, "FRACTION",
		  "report entries with more than this share of their files "
		  "in another (default 0.5)" },
		{ CLI_OPT_FLAG, "files", 0, &list_files, NULL,
		  "text: list every uncovered file" },
		CLI_URLS_OPTIONS(&urls),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	double share = 0.5;
	struct cli_tree ct;
	struct coverage *c = NULL;
	struct ms_out *o;
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	if (argc > 1)
		return cli_usage_error("coverage", "too many arguments");
	rc = cli_urls_check_args("coverage", &urls);
	if (rc != CLI_CONTINUE)
		return rc;
	if (share_arg) {
		char *end;

		share = g_ascii_strtod(share_arg, &end);
		if (*end || end == share_arg || share < 0 || share >= 1)
			return cli_usage_error("coverage", "--overlap-share "
					       "takes a number from 0 to "
					       "below 1, not '%s'",
					       share_arg);
	}
	rc = cli_tree_open("coverage", &topts, argc ? argv[0] : NULL, &ct);
	if (rc != CLI_CONTINUE)
		return rc;
	if (coverage_compute(ct.mf, ct.idx, ct.tree, share, &c) < 0) {
		cli_tree_close(&ct);
		return cli_error_last();
	}
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	if (json)
		emit_json(o, &ct, c, share);
	else
		print_text(stdout, &ct, c, share, list_files);
	rc = cli_urls_report(o, &urls, ct.mf);
	if (ms_out_finish(o) < 0)
		rc = cli_error_last();
	ms_out_free(o);
	coverage_free(c);
	cli_tree_close(&ct);
	return rc;
}
