/*
 * cmd-entries.c - maintstat entries: every MAINTAINERS entry with where it
 * is, its status, how many M:, R: and L: it lists and how many files of
 * the tree it covers; optionally only those whose name matches a pattern.
 */
#include "person.h"
#include "cli.h"
#include "commands.h"
#include "maintainers.h"
#include "output.h"
#include "tree.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat entries [--tree DIR | --repo GITDIR [--rev REV]] [options] "
	"[PATTERN]",
	"List the MAINTAINERS entries: file and line, status (S:), the number\n"
	"of maintainers (M:), reviewers (R:) and lists (L:), and the files of\n"
	"the tree each matches (get_maintainer.pl's matching; an X: excludes).\n"
	"PATTERN keeps the entries whose name contains it, ignoring case, or,\n"
	"when it has '*', '?' or '[', whose whole name matches it as a glob.",
	"  maintstat entries --tree ~/linux 'INFINIBAND'\n"
	"  maintstat entries --repo ~/linux --rev v6.1 'ARM/*' --json",
};

struct row {
	const struct maint_entry *e;
	const char *status;
	size_t m, r, l, files;
};

static bool is_glob(const char *p)
{
	return strpbrk(p, "*?[") != NULL;
}

static bool name_matches(const char *name, const char *pattern,
			 GPatternSpec *glob)
{
	char *n = ms_casefold(name, -1);
	bool m;

	if (glob) {
		m = g_pattern_spec_match_string(glob, n);
	} else {
		char *p = ms_casefold(pattern, -1);

		m = strstr(n, p) != NULL;
		g_free(p);
	}
	g_free(n);
	return m;
}

static bool any_matches(const struct maint_file *mf, const char *pattern,
			GPatternSpec *glob)
{
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++)
		if (name_matches(maint_file_entry(mf, i)->name, pattern, glob))
			return true;
	return false;
}

/* A PATTERN no entry name matches: a usage error, proposing the names
 * it may be a mistyped spelling of, as for the ENTRY of other commands. */
static int no_match(const struct maint_file *mf, const char *pattern,
		    GPatternSpec *glob)
{
	char *names[] = { (char *)pattern, NULL };
	const struct maint_entry **sel;
	size_t nr;
	int rc;

	if (glob)
		return cli_usage_error("entries", "no entry name matches "
				       "'%s'", pattern);
	rc = cli_select_entries("entries", mf, NULL, 1, names, NULL, &sel,
				&nr);
	g_free(sel);
	return rc == CLI_CONTINUE ? EXIT_USAGE : rc;
}

int cmd_entries(int argc, char **argv)
{
	struct cli_tree_opts topts = { 0 };
	bool json = false, no_files = false;
	const struct cli_option opts[] = {
		CLI_TREE_OPTIONS(&topts),
		{ CLI_OPT_FLAG, "no-files", 0, &no_files, NULL,
		  "do not count the files of each entry (faster)" },
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	const char *pattern = NULL;
	GPatternSpec *glob = NULL;
	struct cli_tree ct;
	struct row *rows;
	size_t n, nr_rows = 0;
	struct ms_out *o;
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	if (argc > 1)
		return cli_usage_error("entries", "one PATTERN at most");
	if (argc == 1) {
		pattern = argv[0];
		if (is_glob(pattern)) {
			char *p = ms_casefold(pattern, -1);

			glob = g_pattern_spec_new(p);
			g_free(p);
		}
	}
	rc = cli_tree_open("entries", &topts, NULL, &ct);
	if (rc != CLI_CONTINUE)
		goto done;

	n = maint_file_nr_entries(ct.mf);
	if (pattern && !any_matches(ct.mf, pattern, glob)) {
		rc = no_match(ct.mf, pattern, glob);
		cli_tree_close(&ct);
		goto done;
	}
	rows = g_new0(struct row, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		const struct maint_entry *e = maint_file_entry(ct.mf, i);
		struct row *r = &rows[i];

		r->e = e;
		for (size_t k = 0; k < e->nr_fields; k++) {
			switch (e->fields[k].key) {
			case 'S': r->status = e->fields[k].value; break;
			case 'M': r->m++; break;
			case 'R': r->r++; break;
			case 'L': r->l++; break;
			default: break;
			}
		}
	}
	if (!no_files) {
		struct maint_match *m = g_new(struct maint_match, n + 1);

		for (size_t i = 0; i < ms_tree_nr_files(ct.tree); i++) {
			size_t k = maint_index_match_depth(
				ct.idx, ms_tree_path(ct.tree, i), m, n + 1);

			for (size_t j = 0; j < k && j <= n; j++)
				rows[m[j].entry->index].files++;
		}
		g_free(m);
	}

	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	if (json) {
		ms_out_kv_string(o, "tree", ms_tree_root(ct.tree));
		if (!no_files)
			ms_out_kv_int(o, "files_total",
				      (int64_t)ms_tree_nr_files(ct.tree));
		ms_out_kv_begin_list(o, "entries");
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		if (pattern && !name_matches(r->e->name, pattern, glob))
			continue;
		nr_rows++;
		if (json) {
			ms_out_begin_object(o);
			ms_out_kv_string(o, "name", r->e->name);
			ms_out_kv_string(o, "file", r->e->file);
			ms_out_kv_int(o, "line", r->e->line);
			ms_out_kv_string(o, "status", r->status);
			ms_out_kv_int(o, "maintainer_count", (int64_t)r->m);
			ms_out_kv_int(o, "reviewer_count", (int64_t)r->r);
			ms_out_kv_int(o, "list_count", (int64_t)r->l);
			if (!no_files)
				ms_out_kv_int(o, "files", (int64_t)r->files);
			ms_out_end_object(o);
			continue;
		}
		fprintf(ms_out_fp(o), "%s\n  %s:%u  %s  M:%zu R:%zu L:%zu",
			r->e->name, r->e->file, r->e->line,
			r->status ? r->status : "(no S:)", r->m, r->r, r->l);
		if (!no_files)
			fprintf(ms_out_fp(o), "  %zu file%s", r->files,
				r->files == 1 ? "" : "s");
		fputc('\n', ms_out_fp(o));
	}
	if (json) {
		ms_out_end_list(o);
	} else {
		fprintf(ms_out_fp(o), "%zu of %zu entries\n", nr_rows, n);
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	g_free(rows);
	cli_tree_close(&ct);
done:
	if (glob)
		g_pattern_spec_free(glob);
	return rc;
}
