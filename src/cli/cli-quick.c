/*
 * cli-quick.c - what the quick program (main-quick.c) links instead of
 * the list stage and `maintainers --activity`: the few of their functions
 * that the shared CLI code names (cli-nogit.c has the git ones).  Every
 * command line that could reach them goes to maintstat-full
 * (cli_route()), so they only refuse, with an error that says so should a
 * new option ever slip past it.
 */
#include "cli-cc-activity.h"
#include "cli.h"
#include "store.h"
#include "tree.h"

#define NOT_HERE "needs maintstat-full (this is the quick maintstat)"

int cc_act_load(const struct cc_act_args *a, struct cc_act **out)
{
	(void)a;
	*out = NULL;
	return cli_error("--activity " NOT_HERE);
}

void cc_act_free(struct cc_act *ac)
{
	(void)ac;
}

void cc_act_compute(struct cc_act *ac, const struct maint_cc *cc)
{
	(void)ac;
	(void)cc;
}

char *cc_act_note(const struct cc_act *ac, const struct maint_cc_line *l,
		  bool *drop)
{
	(void)ac;
	(void)l;
	*drop = false;
	return NULL;
}

void cc_act_defacto(struct cc_act *ac, const struct maint_cc *cc,
		    GPtrArray *items, bool roles, bool to_cc)
{
	(void)ac;
	(void)cc;
	(void)items;
	(void)roles;
	(void)to_cc;
}

void cc_act_json(struct ms_out *o, const struct cc_act *ac,
		 const struct maint_cc_line *l)
{
	(void)o;
	(void)ac;
	(void)l;
}

/* The store's copy of git logs: maintstat-full's (cmd-maintainers.c
 * hands it the command lines that need them). */
int cli_store_open(const struct cli_store_opts *o, const char *gitdir,
		   struct ms_store **out)
{
	(void)o;
	(void)gitdir;
	*out = NULL;
	return CLI_CONTINUE;
}

int ms_store_vcs_open(struct ms_store *s, const struct mcc_vcs *v,
		      struct ms_store_vcs **out)
{
	(void)s;
	(void)v;
	*out = NULL;
	return 0;
}

GPtrArray *ms_store_vcs_log(const char *file, void *c)
{
	(void)file;
	(void)c;
	return g_ptr_array_new();
}

void ms_store_vcs_free(struct ms_store_vcs *c)
{
	(void)c;
}

void ms_store_free(struct ms_store *s)
{
	(void)s;
}
/*
 * The quick program has no store: the tree's list (tree.h,
 * ms_tree_list_bytes(), what --find-maintainer-files walks, U-Boot's
 * 3,005 directories) is kept in a file of the cache directory instead,
 * tree-<16 hex digits of the SHA-256 of the tree's real path>.list, and
 * taken while every directory still answers stat() as it did.
 */
static char *list_file(const struct ms_tree *t)
{
	const char *key = ms_tree_list_key(t);
	char *hash, *dir, *name, *path;

	if (!key)
		return NULL;
	hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	hash[16] = '\0';
	name = g_strconcat("tree-", hash, ".list", NULL);
	dir = cli_store_dir();
	path = g_build_filename(dir, name, NULL);
	g_free(dir);
	g_free(name);
	g_free(hash);
	return path;
}

bool ms_store_tree_take(struct ms_store *s, struct ms_tree *t)
{
	char *path = list_file(t), *buf;
	gsize n;
	bool taken = false;

	(void)s;
	if (path && g_file_get_contents(path, &buf, &n, NULL)) {
		taken = ms_tree_list_take(t, buf, n);
		g_free(buf);
	}
	if (!taken)
		ms_tree_list_record(t);
	g_free(path);
	return taken;
}

void ms_store_tree_keep(struct ms_store *s, const struct ms_tree *t)
{
	GBytes *b = ms_tree_list_bytes(t);
	char *path, *dir;
	gsize n;
	const void *p;

	(void)s;
	if (!b)
		return;
	path = list_file(t);
	dir = g_path_get_dirname(path);
	p = g_bytes_get_data(b, &n);
	if (g_mkdir_with_parents(dir, 0700) == 0)
		g_file_set_contents(path, p, (gssize)n, NULL);
	g_free(dir);
	g_free(path);
	g_bytes_unref(b);
}
