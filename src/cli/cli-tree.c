/*
 * cli-tree.c - opening the tree and MAINTAINERS files for a command.
 */
#include "cli.h"
#include "maintainers.h"
#include "tree.h"

#include <glib.h>
#include <string.h>

static bool has(const char *dir, const char *name)
{
	char *p = g_build_filename(dir, name, NULL);
	bool yes = g_file_test(p, G_FILE_TEST_EXISTS);

	g_free(p);
	return yes;
}

/*
 * The tree enclosing the current directory: the git work tree above it
 * when that holds MAINTAINERS (or `any`: MAINTAINERS comes from
 * elsewhere), else the nearest directory holding MAINTAINERS; NULL when
 * it is the current directory or none.  *prefix: the current directory
 * inside it, "kernel/sched/" (g_free both).
 */
static char *enclosing_tree(bool any, char **prefix)
{
	char *cwd = g_get_current_dir();
	char *dir = g_strdup(cwd), *found = NULL, *nearest = NULL;

	*prefix = NULL;
	for (;;) {
		char *up;

		if (!nearest && has(dir, "MAINTAINERS"))
			nearest = g_strdup(dir);
		if (has(dir, ".git")) {
			if (any || has(dir, "MAINTAINERS"))
				found = g_strdup(dir);
			break;
		}
		up = g_path_get_dirname(dir);
		if (!strcmp(up, dir)) {
			g_free(up);
			break;
		}
		g_free(dir);
		dir = up;
	}
	g_free(dir);
	if (!found) {
		found = nearest;
		nearest = NULL;
	}
	g_free(nearest);
	if (found && strcmp(found, cwd)) {
		size_t n = strlen(found);

		*prefix = g_strconcat(cwd + n + (found[n - 1] != '/'), "/",
				      NULL);
	} else {
		g_free(found);
		found = NULL;
	}
	g_free(cwd);
	return found;
}

int cli_tree_open_dir(const char *cmd, const struct cli_tree_opts *o,
		      const char *positional, struct cli_tree *out)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	char *top = NULL, *prefix = NULL;
	int rc;

	*out = (struct cli_tree){ NULL, NULL, NULL, MS_DIAGS_INIT, NULL };
	if (!o->tree && !o->repo && !positional)
		top = enclosing_tree(o->maintainers.nr > 0, &prefix);
	if (o->tree && o->repo)
		return cli_usage_error(cmd, "--tree and --repo exclude each "
				       "other");
	if (o->rev && !o->repo)
		return cli_usage_error(cmd, "--rev needs --repo");
	if (o->repo)
		rc = ms_tree_from_git(o->repo, o->rev, &out->tree);
	else
		rc = ms_tree_from_dir(o->tree ? o->tree :
				      positional ? positional :
				      top ? top : ".",
				      &out->tree, &out->diags);
	out->prefix = prefix;
	g_free(top);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0)
		return cli_error_last();
	return CLI_CONTINUE;
}

int cli_tree_load(const struct cli_tree_opts *o, struct cli_tree *out)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_load_opts lo = { 0 };
	int rc;

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

int cli_tree_open(const char *cmd, const struct cli_tree_opts *o,
		  const char *positional, struct cli_tree *out)
{
	int rc = cli_tree_open_dir(cmd, o, positional, out);

	return rc == CLI_CONTINUE ? cli_tree_load(o, out) : rc;
}

void cli_tree_close(struct cli_tree *t)
{
	maint_index_report(t->idx, &t->diags);
	cli_print_diags(&t->diags);
	ms_diags_release(&t->diags);
	maint_index_free(t->idx);
	maint_file_free(t->mf);
	ms_tree_free(t->tree);
	g_free(t->prefix);
	*t = (struct cli_tree){ NULL, NULL, NULL, MS_DIAGS_INIT, NULL };
}

char *cli_tree_path(const struct cli_tree *ct, const char *in)
{
	GString *s = g_string_new(NULL);
	char **parts;
	char *root_abs = NULL, *joined = NULL;

	if (ct->prefix && !g_path_is_absolute(in) &&
	    g_file_test(in, G_FILE_TEST_EXISTS))
		in = joined = g_strconcat(ct->prefix, in, NULL);
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
		if (joined && !strcmp(*p, "..")) {
			/* up from the current directory, inside the tree */
			char *slash = strrchr(s->str, '/');

			g_string_truncate(s, slash ? (size_t)(slash - s->str)
					  : 0);
			continue;
		}
		if (s->len)
			g_string_append_c(s, '/');
		g_string_append(s, *p);
	}
	g_strfreev(parts);
	g_free(root_abs);
	g_free(joined);
	if (s->len && ms_tree_is_dir(ct->tree, s->str))
		g_string_append_c(s, '/');
	return g_string_free(s, FALSE);
}
