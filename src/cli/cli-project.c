/*
 * cli-project.c - opening the project for a command.
 */
#include "cli-project.h"
#include "cli-result.h"
#include "project.h"

#include <glib.h>

static void project_options(const struct cli_act_opts *o,
			    struct ms_project_options *out)
{
	struct ms_project_options po = MS_PROJECT_OPTIONS_INIT;

	po.gitdir = o->repo;
	po.rev = o->rev;
	if (o->tree)
		po.tree_dir = o->tree;
	po.maintainers = o->maintainers.items;
	po.nr_maintainers = (size_t)o->maintainers.nr;
	po.find_maintainer_files = o->find_maintainer_files;
	po.tree_blobs = o->tree_blobs;
	po.aliases = o->aliases;
	po.mailmaps = o->mailmaps.items;
	po.nr_mailmaps = (size_t)o->mailmaps.nr;
	po.no_name_join = o->no_name_join;
	po.no_plus_fold = o->no_plus_fold;
	po.merges = o->merges;
	po.last_addresses = o->last_addresses;
	po.keep_paths = o->keep_paths;
	po.progress = cli_progress_count;
	*out = po;
}

int cli_project_open(const struct cli_act_opts *o,
		     struct ms_project **out)
{
	struct ms_project_options po;

	*out = NULL;
	project_options(o, &po);
	if (ms_project_open(&po, out) < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

static void add_input(const char *what, const void *bytes, size_t len,
		      void *data)
{
	cli_result_add(data, what, bytes, len);
}

void cli_result_add_project(struct cli_result *r,
			    const struct cli_act_opts *o)
{
	struct ms_project_options po;
	struct ms_project *p = NULL;

	if (r->off)
		return;
	project_options(o, &po);
	/* an input that cannot be read: no result; the run says why */
	if (ms_project_open(&po, &p) < 0 ||
	    ms_project_inputs(p, add_input, r) < 0) {
		ms_error_clear();
		r->off = true;
	}
	ms_project_free(p);
}

int cli_project_store(const struct cli_store_opts *o, struct ms_project *p)
{
	const char *gitdir = ms_project_options(p)->gitdir;
	struct ms_store *store = NULL;
	int rc;

	if (!gitdir)
		return CLI_CONTINUE;
	rc = cli_store_open(o, gitdir, &store);
	if (rc != CLI_CONTINUE)
		return rc;
	ms_project_set_store(p, store);
	return CLI_CONTINUE;
}

static int print_done(struct ms_diags *diags, int rc)
{
	cli_print_diags(diags);
	ms_diags_release(diags);
	return rc < 0 ? cli_error_last() : CLI_CONTINUE;
}

int cli_project_history(struct ms_project *p, struct ms_activity **out)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	int rc;

	cli_progress_start("walking history", 0);
	rc = ms_project_history(p, out, &diags);
	cli_progress_done();
	return print_done(&diags, rc);
}

int cli_project_ident(struct ms_project *p, struct ms_ident **out)
{
	struct ms_diags diags = MS_DIAGS_INIT;

	return print_done(&diags, ms_project_ident(p, out, &diags));
}

int cli_project_tree(struct ms_project *p, const struct ms_tree **tree,
		     const struct maint_file **mf,
		     const struct maint_index **idx)
{
	struct ms_diags diags = MS_DIAGS_INIT;

	return print_done(&diags, ms_project_tree(p, tree, mf, idx, &diags));
}

void cli_project_close(struct ms_project *p)
{
	struct ms_diags diags = MS_DIAGS_INIT;

	if (!p)
		return;
	ms_project_late_diags(p, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (CLI_FREE_AT_END)
		ms_project_free(p);
	else
		ms_project_set_store(p, NULL);   /* closed all the same */
}
