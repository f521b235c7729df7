/*
 * cli-tree.c - opening the tree and MAINTAINERS files for a command.
 */
#include "cli.h"
#include "maintainers.h"
#include "tree.h"

#include <glib.h>

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
