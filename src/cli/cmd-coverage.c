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

/*
 * The overlaps grouped by entry, in the order of their largest share: one
 * row per entry, with the other entries that hold its files.  Plain
 * nesting is left out unless `all`.
 */
struct overlap_row {
	const struct coverage_overlap *first;  /* largest share */
	GPtrArray *others;                     /* const coverage_overlap * */
	bool nested;                           /* every pair is nesting */
};

static GArray *overlap_rows(const struct coverage *c, bool all,
			    size_t *nested_out)
{
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct overlap_row));
	GHashTable *at = g_hash_table_new(NULL, NULL);

	*nested_out = 0;
	for (size_t i = 0; i < c->nr_overlaps; i++) {
		const struct coverage_overlap *v = &c->overlaps[i];
		bool nested = coverage_overlap_nested(v);
		gpointer p = g_hash_table_lookup(at, v->entry);
		struct overlap_row *r;

		if (!p) {
			struct overlap_row nr = { v, g_ptr_array_new(), true };

			g_array_append_val(rows, nr);
			p = GSIZE_TO_POINTER(rows->len);
			g_hash_table_insert(at, (gpointer)v->entry, p);
		}
		r = &g_array_index(rows, struct overlap_row,
				   GPOINTER_TO_SIZE(p) - 1);
		if (!nested)
			r->nested = false;
		if (all || !nested)
			g_ptr_array_add(r->others, (gpointer)v);
	}
	for (guint i = rows->len; i-- > 0;) {
		struct overlap_row *r = &g_array_index(rows,
						       struct overlap_row, i);

		if (r->nested)
			(*nested_out)++;
		if (!r->others->len) {
			g_ptr_array_free(r->others, TRUE);
			g_array_remove_index(rows, i);
		}
	}
	g_hash_table_destroy(at);
	return rows;
}

static void overlap_rows_free(GArray *rows)
{
	for (guint i = 0; i < rows->len; i++)
		g_ptr_array_free(g_array_index(rows, struct overlap_row,
					       i).others, TRUE);
	g_array_free(rows, TRUE);
}

static void emit_dirs(struct ms_out *o, const char *key,
		      const struct coverage_dir *d, size_t nr)
{
	ms_out_kv_begin_list(o, key);
	for (size_t i = 0; i < nr; i++) {
		ms_out_begin_object(o);
		ms_out_kv_string(o, "dir", d[i].dir);
		ms_out_kv_int(o, "count", (int64_t)d[i].count);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

static void emit_json(struct ms_out *o, const struct cli_tree *ct,
		      const struct coverage *c, double share, bool all,
		      long limit)
{
	size_t nested, shown;
	GArray *rows;

	ms_out_kv_string(o, "tree", ms_tree_root(ct->tree));
	ms_out_kv_int(o, "files_total", (int64_t)c->files_total);
	ms_out_kv_int(o, "entries_total",
		      (int64_t)maint_file_nr_entries(ct->mf));
	ms_out_kv_begin_list(o, "catch_all_entries");
	for (size_t i = 0; i < c->nr_catch_all; i++)
		ms_out_string(o, c->catch_all[i]->name);
	ms_out_end_list(o);

	ms_out_kv_begin_object(o, "uncovered");
	ms_out_kv_int(o, "count", (int64_t)c->nr_uncovered);
	emit_dirs(o, "by_directory", c->by_dir, c->nr_by_dir);
	emit_dirs(o, "by_top_directory", c->by_top, c->nr_by_top);
	ms_out_kv_strings(o, "file_list", c->uncovered, c->nr_uncovered);
	ms_out_end_object(o);

	ms_out_kv_begin_list(o, "entries_without_files");
	for (size_t i = 0; i < c->nr_without_files; i++)
		ms_out_string(o, c->without_files[i]->name);
	ms_out_end_list(o);

	ms_out_kv_begin_list(o, "stale_patterns");
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
	rows = overlap_rows(c, all, &nested);
	ms_out_kv_int(o, "overlapping_entries", (int64_t)rows->len);
	ms_out_kv_int(o, "nested_entries_left_out",
		      all ? 0 : (int64_t)nested);
	shown = cli_limit(limit, true, rows->len);
	ms_out_kv_begin_list(o, "overlaps");
	for (size_t i = 0; i < shown; i++) {
		const struct overlap_row *r = &g_array_index(rows,
						      struct overlap_row, i);

		ms_out_begin_object(o);
		ms_out_kv_string(o, "entry", r->first->entry->name);
		ms_out_kv_int(o, "entry_files",
			      (int64_t)r->first->entry_files);
		ms_out_kv_bool(o, "nested", r->nested);
		ms_out_kv_begin_list(o, "others");
		for (guint k = 0; k < r->others->len; k++) {
			const struct coverage_overlap *v = r->others->pdata[k];

			ms_out_begin_object(o);
			ms_out_kv_string(o, "name", v->other->name);
			ms_out_kv_int(o, "shared_files",
				      (int64_t)v->shared_files);
			ms_out_kv_real(o, "share", v->share);
			ms_out_kv_bool(o, "nested",
				       coverage_overlap_nested(v));
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	overlap_rows_free(rows);
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
	cli_print_more(fp, "    ", nr < top ? nr : top, nr);
}

static void print_text(FILE *fp, const struct cli_tree *ct,
		       const struct coverage *c, double share,
		       bool list_files, bool all, long limit)
{
	size_t top = cli_limit(limit, false, SIZE_MAX), nested, shown;
	GArray *rows;

	fprintf(fp, "MAINTAINERS coverage of %s: %zu files, %zu entries\n\n",
		ms_tree_root(ct->tree), c->files_total,
		maint_file_nr_entries(ct->mf));
	fprintf(fp, "Catch-all entries (matching every file):");
	for (size_t i = 0; i < c->nr_catch_all; i++)
		fprintf(fp, "%s %s", i ? "," : "", c->catch_all[i]->name);
	fprintf(fp, "%s\n\n", c->nr_catch_all ? "" : " none");

	fprintf(fp, "Files covered by no entry but catch-all ones: %zu "
		"(%u%%)\n", c->nr_uncovered,
		cli_percent(c->nr_uncovered, c->files_total));
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
	shown = cli_limit(limit, false, c->nr_without_files);
	for (size_t i = 0; i < shown; i++)
		fprintf(fp, "  %s:%u: %s\n",
			short_name(ct, c->without_files[i]->file),
			c->without_files[i]->line, c->without_files[i]->name);
	cli_print_more(fp, "  ", shown, c->nr_without_files);

	fprintf(fp, "\nPatterns that match no file: %zu\n", c->nr_stale);
	shown = cli_limit(limit, false, c->nr_stale);
	for (size_t i = 0; i < shown; i++)
		fprintf(fp, "  %s:%u: %c: %s  (%s)\n",
			short_name(ct, c->stale[i]->file),
			c->stale[i]->line, c->stale[i]->key,
			c->stale[i]->value, c->stale_entry[i]->name);
	cli_print_more(fp, "  ", shown, c->nr_stale);

	rows = overlap_rows(c, all, &nested);
	fprintf(fp, "\nEntries with over %.0f%% of their files also in "
		"another entry: %u", share * 100, rows->len);
	if (!all && nested)
		fprintf(fp, " (and %zu inside a broader entry's directory, "
			"left out: --all-overlaps)", nested);
	fputc('\n', fp);
	shown = cli_limit(limit, false, rows->len);
	for (size_t i = 0; i < shown; i++) {
		const struct overlap_row *r = &g_array_index(rows,
						      struct overlap_row, i);
		const struct coverage_overlap *v = r->others->pdata[0];

		fprintf(fp, "  %s: %zu of %zu files (%u%%) also in %s",
			v->entry->name, v->shared_files, v->entry_files,
			cli_percent(v->shared_files, v->entry_files),
			v->other->name);
		if (r->others->len > 1)
			fprintf(fp, " (and %u more entr%s)",
				r->others->len - 1,
				r->others->len == 2 ? "y" : "ies");
		fputc('\n', fp);
	}
	cli_print_more(fp, "  ", shown, rows->len);
	overlap_rows_free(rows);
}

int cmd_coverage(int argc, char **argv)
{
	struct cli_tree_opts topts = { 0 };
	struct cli_urls urls = CLI_URLS_INIT;
	bool json = false, list_files = false, all_overlaps = false;
	long limit = -1;
	const char *share_arg = NULL;
	const struct cli_option opts[] = {
		CLI_TREE_OPTIONS(&topts),
		{ CLI_OPT_STRING, "overlap-share", 0, &share_arg, "FRACTION",
		  "report entries with more than this share of their files "
		  "in another (default 0.5)" },
		{ CLI_OPT_FLAG, "files", 0, &list_files, NULL,
		  "text: list every uncovered file" },
		{ CLI_OPT_FLAG, "all-overlaps", 0, &all_overlaps, NULL,
		  "also report entries that merely lie inside a broader "
		  "entry's directory" },
		CLI_OPT_LIMIT(&limit),
		CLI_URLS_OPTIONS(&urls),
		CLI_OPT_THREADS,
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
	if (limit < -1)
		return cli_usage_error("coverage", "--limit takes a count");
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
		emit_json(o, &ct, c, share, all_overlaps, limit);
	else
		print_text(stdout, &ct, c, share, list_files, all_overlaps,
			   limit);
	rc = cli_urls_report(o, &urls, ct.mf);
	if (ms_out_finish(o) < 0)
		rc = cli_error_last();
	ms_out_free(o);
	coverage_free(c);
	cli_tree_close(&ct);
	return rc;
}
