/*
 * A directory tree's list kept for a later run (tree.h:
 * ms_tree_list_bytes(), ms_tree_list_take()): taken back while it holds,
 * refused after each kind of change a walk would see.
 *
 * A directory made here is "racy" (changed within two seconds of the
 * walk), so the tests move the walk's start time on (tree-internal.h)
 * instead of sleeping; and every directory is given an old modification
 * time first, so that a change made a millisecond later still shows.
 */
#include "test.h"
#include "tree.h"
#include "tree-internal.h"

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *base, *root;

static char *at(const char *rel)
{
	return g_build_filename(root, rel, NULL);
}

static void put(const char *rel)
{
	char *p = at(rel);
	char *d = g_path_get_dirname(p);

	g_mkdir_with_parents(d, 0755);
	g_file_set_contents(p, "x\n", -1, NULL);
	g_free(d);
	g_free(p);
}

/* Every directory of the tree dated 2001. */
static void age(const char *rel)
{
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	char *p = at(rel);
	GDir *d = g_dir_open(p, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		char *sub = g_build_filename(rel, name, NULL);
		char *full = at(sub);

		if (g_file_test(full, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(full, G_FILE_TEST_IS_SYMLINK))
			age(sub);
		g_free(full);
		g_free(sub);
	}
	if (d)
		g_dir_close(d);
	utimensat(AT_FDCWD, p, old, AT_SYMLINK_NOFOLLOW);
	g_free(p);
}

/* The list of a new tree of `root`, walked, as bytes (NULL: none). */
static GBytes *walked(char **digest)
{
	struct ms_tree *t = NULL;
	GBytes *b;
	size_t n;

	ms_tree_from_dir(root, &t, NULL);
	ms_tree_list_record(t);
	ms_tree_nr_files(t);
	t->walk_began += 10;
	b = ms_tree_list_bytes(t);
	*digest = ms_tree_facts(t, &n);
	ms_tree_free(t);
	return b;
}

/* Whether a new tree takes `b`; its facts (the list's digest) into
 * *digest when it does. */
static bool takes(GBytes *b, char **digest)
{
	struct ms_tree *t = NULL;
	bool yes;
	size_t len;

	ms_tree_from_dir(root, &t, NULL);
	yes = ms_tree_list_take(t, b);
	if (digest)
		*digest = yes ? ms_tree_facts(t, &len) : NULL;
	ms_tree_free(t);
	return yes;
}

static void test_taken(void)
{
	char *walk_digest, *take_digest;
	GBytes *b, *cut;
	struct ms_tree *t = NULL;

	b = walked(&walk_digest);
	ok(b != NULL, "a walked list gives bytes");
	ok(takes(b, &take_digest), "an unchanged tree takes them back");
	is_str(take_digest, walk_digest, "the same list, to the byte");
	g_free(take_digest);
	g_free(walk_digest);

	ms_tree_from_dir(root, &t, NULL);
	ok(ms_tree_list_take(t, b) && ms_tree_is_dir(t, "in-link") &&
	   ms_tree_has_file(t, "a/MAINTAINERS") &&
	   ms_tree_has_file(t, "b/c/MAINTAINERS") &&
	   !ms_tree_has_file(t, "a/none") && ms_tree_nr_files(t) == 4,
	   "answers from the list taken");
	ok(ms_tree_list_bytes(t) == NULL, "a taken list is not given again");
	ms_tree_free(t);

	ms_tree_from_dir(root, &t, NULL);
	ms_tree_nr_files(t);
	t->walk_began += 10;
	ok(ms_tree_list_bytes(t) == NULL, "a walk not recorded: no bytes");
	ms_tree_free(t);

	ms_tree_from_dir(root, &t, NULL);
	cut = g_bytes_new_from_bytes(b, 0, g_bytes_get_size(b) - 1);
	ok(!ms_tree_list_take(t, cut), "cut short: refused");
	g_bytes_unref(cut);
	ok(ms_tree_nr_files(t) == 4, "and the tree walks as if never offered");
	ms_tree_free(t);
	g_bytes_unref(b);
}

/* Each change refuses the bytes taken before it. */
static void test_changes(void)
{
	struct { const char *what; int step; } change[] = {
		{ "a file added to a directory", 0 },
		{ "a file removed", 1 },
		{ "a directory renamed", 2 },
		{ "a link out of the tree now leads to a directory", 3 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(change); i++) {
		char *d, *p, *q;
		GBytes *b;

		age("");
		b = walked(&d);
		g_free(d);
		switch (change[i].step) {
		case 0:
			put("b/c/new");
			break;
		case 1:
			p = at("b/c/new");
			g_unlink(p);
			g_free(p);
			break;
		case 2:
			p = at("b/c");
			q = at("b/e");
			g_rename(p, q);
			g_free(p);
			g_free(q);
			break;
		case 3:
			p = g_build_filename(base, "outside", NULL);
			g_mkdir(p, 0755);
			g_free(p);
			break;
		}
		d = g_strconcat("refused after ", change[i].what, NULL);
		ok(b && !takes(b, NULL), d);
		g_free(d);
		if (b)
			g_bytes_unref(b);
	}
}

static void test_racy(void)
{
	struct ms_tree *t = NULL;

	put("a/fresh");
	ms_tree_from_dir(root, &t, NULL);
	ms_tree_list_record(t);
	ms_tree_nr_files(t);
	ok(ms_tree_list_bytes(t) == NULL,
	   "a directory changed just before the walk: no bytes");
	ms_tree_free(t);
}

/* The list kept in a file of a directory: saved, taken back, its file
 * named as `store list` knows it; nothing kept without a directory. */
static void test_file(void)
{
	char *dir = g_build_filename(base, "cache", NULL);
	struct ms_tree *t = NULL;
	GDir *d;
	const char *name;
	int files = 0;

	ms_tree_from_dir(root, &t, NULL);
	ok(!ms_tree_list_load(t, NULL), "no directory: nothing to take");
	ms_tree_nr_files(t);
	t->walk_began += 10;
	ms_tree_list_save(t, NULL);
	ok(!g_file_test(dir, G_FILE_TEST_EXISTS), "... nor to save");
	ms_tree_free(t);

	ms_tree_from_dir(root, &t, NULL);
	ok(!ms_tree_list_load(t, dir), "no file yet: walked");
	ms_tree_nr_files(t);
	t->walk_began += 10;
	ms_tree_list_save(t, dir);
	ms_tree_free(t);
	d = g_dir_open(dir, 0, NULL);
	while (d && (name = g_dir_read_name(d)))
		files += ms_tree_list_file(name);
	if (d)
		g_dir_close(d);
	ok(files == 1, "one file saved, named tree-<16 hex>.list");
	ms_tree_from_dir(root, &t, NULL);
	ok(ms_tree_list_load(t, dir) && ms_tree_has_file(t, "a/MAINTAINERS"),
	   "a new tree takes it back");
	ms_tree_list_save(t, dir);     /* a taken list: no bytes, no write */
	ms_tree_free(t);
	ok(ms_tree_list_file("tree-0123456789abcdef.list") &&
	   !ms_tree_list_file("tree-0123456789ABCDEF.list") &&
	   !ms_tree_list_file("tree-0123456789abcde.list") &&
	   !ms_tree_list_file("tree-0123456789abcdef.list.tmp") &&
	   !ms_tree_list_file("x-0123456789abcdef.sqlite"),
	   "only such names are lists");
	g_free(dir);
}

/* A file's git blob id, hashed once: the fact a later tree checks is
 * that id, and it stops holding when the bytes change. */
static void test_blob_id(void)
{
	struct ms_tree *t = NULL, *u = NULL;
	char *id = NULL, *facts, *p = at("f");
	size_t n = 0;

	ms_tree_from_dir(root, &t, NULL);
	ok(ms_tree_blob_id(t, "f", &id) == 0 &&
	   !strcmp(id, "587be6b4c3f93f93c489c0111bba5596147a26cb"),
	   "the blob id `git hash-object` gives");
	facts = ms_tree_facts(t, &n);
	ok(n && strstr(facts, id) != NULL, "the fact is that id");
	g_free(id);
	ms_tree_from_dir(root, &u, NULL);
	ok(ms_tree_facts_hold(u, facts, n), "it holds in a new tree");
	ms_tree_free(u);
	g_file_set_contents(p, "y\n", -1, NULL);
	ms_tree_from_dir(root, &u, NULL);
	ok(!ms_tree_facts_hold(u, facts, n), "not once the bytes changed");
	ms_tree_free(u);
	g_file_set_contents(p, "x\n", -1, NULL);
	ok(ms_tree_blob_id(t, "none", &id) < 0, "no file, no id");
	ms_tree_free(t);
	g_free(facts);
	g_free(p);
}

int main(void)
{
	char *cmd, *link;

	base = g_dir_make_tmp("maintstat-tree-XXXXXX", NULL);
	root = g_build_filename(base, "tree", NULL);
	put("a/MAINTAINERS");
	put("b/c/MAINTAINERS");
	put("f");
	link = at("in-link");
	ok(symlink("a", link) == 0, "a link to a directory");
	g_free(link);
	link = at("out-link");
	ok(symlink("../outside", link) == 0, "a link to nothing, outside");
	g_free(link);
	put("b/d/x");
	age("");
	test_taken();
	test_changes();
	test_racy();
	test_file();
	test_blob_id();
	cmd = g_strdup_printf("rm -rf '%s'", base);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", base);
	g_free(cmd);
	g_free(root);
	g_free(base);
	return test_done();
}
