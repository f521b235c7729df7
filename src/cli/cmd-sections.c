/*
 * cmd-sections.c - maintstat sections: the MAINTAINERS entries matching
 * each path, in get_maintainer.pl's order.
 */
#include "cli.h"
#include "commands.h"
#include "maintainers.h"
#include "output.h"
#include "tree.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct cli_command_help help = {
	"maintstat sections [TREE] [options] PATH... | -",
	"Print, for each PATH (or each line of standard input with '-'), the\n"
	"MAINTAINERS entries that match it, most specific first, exactly as\n"
	"scripts/get_maintainer.pl --no-git --no-keywords --sections orders\n"
	"them (ties, which get_maintainer.pl leaves in random order, by their\n"
	"place in the file).  PATHs are relative to the tree.  TREE, when given\n"
	"before the paths, is a directory holding a MAINTAINERS file.  A PATH\n"
	"that is not in the tree is skipped with a warning; when none is, the\n"
	"exit status is 1.",
	"  maintstat sections /usr/src/linux net/tls/tls_main.c\n"
	"  git diff --name-only | maintstat sections -",
};

static void emit_entry_fields(struct ms_out *o, const struct maint_entry *e,
			      int depth)
{
	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", e->name);
	ms_out_kv_int(o, "depth", depth);
	ms_out_kv_string(o, "file", e->file);
	ms_out_kv_int(o, "line", e->line);
	ms_out_kv_begin_list(o, "fields");
	for (size_t i = 0; i < e->nr_fields; i++) {
		char key[2] = { e->fields[i].key, 0 };

		ms_out_begin_object(o);
		ms_out_kv_string(o, "key", key);
		ms_out_kv_string(o, "value", e->fields[i].value);
		ms_out_kv_int(o, "line", e->fields[i].line);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_end_object(o);
}

/*
 * One path; false (after a warning, as get_maintainer.pl dies "file not
 * found") when it is neither a file nor a directory of the tree.
 */
static bool one_path(struct ms_out *o, const struct cli_tree *ct,
		     const char *arg, bool full)
{
	char *path = cli_tree_path(ct, arg);
	struct maint_match local[64], *m = local;
	size_t n = maint_index_match_depth(ct->idx, path, local, 64);
	FILE *fp = ms_out_fp(o);
	size_t len = strlen(path);

	if (!len || (path[len - 1] != '/' &&
		     !ms_tree_has_file(ct->tree, path))) {
		cli_warning("'%s' is not a file or directory of '%s'", arg,
			    ms_tree_root(ct->tree));
		g_free(path);
		return false;
	}
	if (n > 64) {
		m = g_new(struct maint_match, n);
		maint_index_match_depth(ct->idx, path, m, n);
	}
	if (ms_out_is_json(o)) {
		ms_out_begin_object(o);
		ms_out_kv_string(o, "path", path);
		ms_out_kv_begin_list(o, "sections");
		for (size_t i = 0; i < n; i++)
			ms_out_string(o, m[i].entry->name);
		ms_out_end_list(o);
		if (full) {
			ms_out_kv_begin_list(o, "entries");
			for (size_t i = 0; i < n; i++)
				emit_entry_fields(o, m[i].entry, m[i].depth);
			ms_out_end_list(o);
		}
		ms_out_end_object(o);
	} else {
		fprintf(fp, "%s\n", path);
		for (size_t i = 0; i < n; i++) {
			const struct maint_entry *e = m[i].entry;

			fprintf(fp, "  %s\n", e->name);
			for (size_t k = 0; full && k < e->nr_fields; k++)
				fprintf(fp, "    %c:\t%s\n", e->fields[k].key,
					e->fields[k].value);
		}
		if (!n)
			fprintf(fp, "  (no entry)\n");
		fputc('\n', fp);
	}
	if (m != local)
		g_free(m);
	g_free(path);
	return true;
}

int cmd_sections(int argc, char **argv)
{
	struct cli_tree_opts topts = { 0 };
	bool json = false, full = false;
	const struct cli_option opts[] = {
		CLI_TREE_OPTIONS(&topts),
		{ CLI_OPT_FLAG, "full", 0, &full, NULL,
		  "also print every field of each entry" },
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	const char *positional_tree = NULL;
	struct cli_tree ct;
	struct ms_out *o;
	size_t nr_paths = 0, nr_found = 0;
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	/* "sections TREE PATH...": a first argument that holds MAINTAINERS */
	if (argc >= 1 && !topts.tree && !topts.repo) {
		char *m = g_build_filename(argv[0], "MAINTAINERS", NULL);

		if (g_file_test(m, G_FILE_TEST_IS_REGULAR)) {
			positional_tree = argv[0];
			argc--;
			argv++;
		}
		g_free(m);
	}
	if (argc < 1 && positional_tree)
		return cli_usage_error("sections", "no PATH given after the "
				       "tree '%s' (PATH... or '-')",
				       positional_tree);
	if (argc < 1)
		return cli_usage_error("sections", "no path given");
	rc = cli_tree_open("sections", &topts, positional_tree, &ct);
	if (rc != CLI_CONTINUE)
		return rc;

	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	if (json) {
		ms_out_kv_begin_list(o, "paths");
	}
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-")) {
			nr_paths++;
			nr_found += one_path(o, &ct, argv[i], full);
			continue;
		}
		{
			GString *in = g_string_new(NULL);
			char **lines;

			if (cli_read_stdin(in) != 0) {
				g_string_free(in, TRUE);
				ms_out_free(o);
				cli_tree_close(&ct);
				return EXIT_RUNTIME;
			}
			lines = g_strsplit(in->str, "\n", -1);
			g_string_free(in, TRUE);
			for (char **l = lines; *l; l++) {
				size_t len = strlen(*l);

				if (len && (*l)[len - 1] == '\r')
					(*l)[--len] = 0;
				if (len) {
					nr_paths++;
					nr_found += one_path(o, &ct, *l,
							     full);
				}
			}
			g_strfreev(lines);
		}
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
	cli_tree_close(&ct);
	if (rc == EXIT_OK && nr_paths && !nr_found)
		rc = cli_error("none of the paths is in the tree");
	return rc;
}
