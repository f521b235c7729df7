/*
 * cli-tree.c - opening the tree and MAINTAINERS files for a command.
 */
#include "cli.h"
#include "maintainers.h"
#include "tree.h"

#include <glib.h>
#include <string.h>

int cli_tree_open(const char *cmd, const struct cli_tree_opts *o,
		  const char *positional, struct cli_tree *out)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_load_opts lo = { 0 };
	int rc;

	*out = (struct cli_tree){ NULL, NULL, NULL, MS_DIAGS_INIT };
	if (o->tree && o->repo)
		return cli_usage_error(cmd, "--tree and --repo exclude each "
				       "other");
	if (o->rev && !o->repo)
		return cli_usage_error(cmd, "--rev needs --repo");
	if (o->repo)
		rc = ms_tree_from_git(o->repo, o->rev, &out->tree);
	else
		rc = ms_tree_from_dir(o->tree ? o->tree :
				      positional ? positional : ".",
				      &out->tree, &out->diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0)
		return cli_error_last();

	lo.maintainers = o->maintainers.items;
	lo.nr_maintainers = (size_t)o->maintainers.nr;
	lo.find_maintainer_files = o->find_maintainer_files;
	rc = maint_file_load(out->tree, &lo, &out->mf, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0) {
		cli_tree_close(out);
		return cli_error_last();
	}
	rc = maint_index_new(out->mf, out->tree, &out->idx, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0) {
		cli_tree_close(out);
		return cli_error_last();
	}
	return CLI_CONTINUE;
}

void cli_tree_close(struct cli_tree *t)
{
	maint_index_report(t->idx, &t->diags);
	cli_print_diags(&t->diags);
	ms_diags_release(&t->diags);
	maint_index_free(t->idx);
	maint_file_free(t->mf);
	ms_tree_free(t->tree);
	*t = (struct cli_tree){ NULL, NULL, NULL, MS_DIAGS_INIT };
}

char *cli_tree_path(const struct cli_tree *ct, const char *in)
{
	GString *s = g_string_new(NULL);
	char **parts;
	char *root_abs = NULL;

	if (g_path_is_absolute(in)) {
		root_abs = g_canonicalize_filename(ms_tree_root(ct->tree),
						   NULL);
		if (g_str_has_prefix(in, root_abs) &&
		    in[strlen(root_abs)] == '/')
			in += strlen(root_abs) + 1;
	}
	parts = g_strsplit(in, "/", -1);
	for (char **p = parts; *p; p++) {
		if (!**p || !strcmp(*p, "."))
			continue;
		if (s->len)
			g_string_append_c(s, '/');
		g_string_append(s, *p);
	}
	g_strfreev(parts);
	g_free(root_abs);
	if (s->len && ms_tree_is_dir(ct->tree, s->str))
		g_string_append_c(s, '/');
	return g_string_free(s, FALSE);
}
