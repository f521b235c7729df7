/*
 * The MAINTAINERS parser and every matching rule of get_maintainer.pl,
 * on a small tree built in a temporary directory.
 */
#include "test.h"
#include "maintainers.h"
#include "coverage.h"
#include "tree.h"

#include <glib.h>
#include <glib/gstdio.h>

static char *root;

static void touch(const char *rel)
{
	char *p = g_build_filename(root, rel, NULL);
	char *d = g_path_get_dirname(p);

	g_mkdir_with_parents(d, 0755);
	g_file_set_contents(p, "x\n", -1, NULL);
	g_free(d);
	g_free(p);
}

static void write_file(const char *rel, const char *text)
{
	char *p = g_build_filename(root, rel, NULL);
	char *d = g_path_get_dirname(p);

	g_mkdir_with_parents(d, 0755);
	g_file_set_contents(p, text, -1, NULL);
	g_free(d);
	g_free(p);
}

static const char *maintainers =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"Descriptions of section entries:\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"ALPHA DRIVER\n"
	"M:\tAlice Example <alice@example.com>\n"
	"R:\tBob <bob@example.com>\n"
	"S:\tMaintained\n"
	"F:\tdrivers/alpha\n"        /* a directory: gets a slash */
	"X:\tdrivers/alpha/skip/\n"
	"\n"
	"ALPHA CORE\n"
	"M:\tCarol <carol@example.com>\n"
	"F:\tdrivers/alpha/core.c\n"
	"\n"
	"PREFIX QUIRK\n"
	"M:\tDan <dan@example.com>\n"
	"F:\tdrivers/foo\n"          /* not a dir: prefix + slash count */
	"\n"
	"GLOBS\n"
	"M:\tEve <eve@example.com>\n"
	"F:\tnet/*/glob.c\n"
	"F:\tnet/q?.c\n"
	"F:\tnet/dot.c\n"
	"F:\tnet/cls.[ch]\n"
	"F:\tdrivers/dotted.dir\n"   /* a dir, but '.' stops the slash rule */
	"\n"
	"REGEX NAMES\n"
	"M:\tFay <fay@example.com>\n"
	"N:\tsun [x4-9] i\n"          /* /x: blanks ignored */
	"N:\t(unclosed\n"
	"\n"
	"# a comment line between entries\n"
	"NO FILES\n"
	"M:\tGus <gus@example.com>\n"
	"S:\tOrphan\n"
	"\n"
	"TIE ONE\n"
	"M:\tHal <hal@example.com>\n"
	"F:\tnet/\n"
	"\n"
	"TIE TWO\n"
	"M:\tIda <ida@example.com>\n"
	"F:\tnet/\n"
	"K:\t\\bnet_tie\\b\n"
	"\n"
	"LAST MATCH WINS\n"
	"M:\tJo <jo@example.com>\n"
	"F:\tnet/deep/er/x.c\n"
	"N:\tnet/deep\n"
	"\n"
	"STALE\n"
	"M:\tKim <kim@example.com>\n"
	"F:\tgone/away/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <torvalds@example.org>\n"
	"F:\t*\n"
	"F:\t*/\n";

static char *names(const struct maint_index *idx, const char *path)
{
	const struct maint_entry *m[32];
	size_t n = maint_index_match(idx, path, m, 32);
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s", i ? "|" : "", m[i]->name);
	return g_string_free(s, FALSE);
}

#define MATCH(path, want) do { \
	char *got_ = names(idx, path); \
	is_str(got_, want, path); \
	g_free(got_); \
} while (0)

static bool diag_has(const struct ms_diags *d, unsigned line,
		     const char *needle)
{
	for (size_t i = 0; i < d->nr; i++)
		if (d->items[i].line == line &&
		    strstr(d->items[i].message, needle))
			return true;
	return false;
}

static void test_matching(void)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_tree *t;
	struct maint_file *mf;
	struct maint_index *idx;
	struct maint_load_opts lo = { 0 };
	const struct maint_entry *e;
	struct coverage *cov;

	write_file("MAINTAINERS", maintainers);
	touch("drivers/alpha/core.c");
	touch("drivers/alpha/sub/deep.c");
	touch("drivers/alpha/skip/x.c");
	touch("drivers/foo.c");
	touch("drivers/foobar.c");
	touch("drivers/fooz/inside.c");
	touch("drivers/dotted.dir/a.c");
	touch("net/a/glob.c");
	touch("net/a/b/glob.c");
	touch("net/qx.c");
	touch("net/qxy.c");
	touch("net/dot.c");
	touch("net/dotxc");
	touch("net/cls.c");
	touch("net/cls.o");
	touch("net/deep/er/x.c");
	touch("arch/sun8i/board.c");
	touch("README");

	ok(ms_tree_from_dir(root, &t, &diags) == 0, "tree read");
	is_int(ms_tree_nr_files(t), 19, "19 files (MAINTAINERS too)");
	ok(ms_tree_is_dir(t, "drivers/alpha"), "directory known");
	ok(maint_file_load(t, &lo, &mf, &diags) == 0, "MAINTAINERS loaded");
	is_int(maint_file_nr_entries(mf), 11, "prose is not an entry");
	e = maint_file_entry(mf, 0);
	is_str(e->name, "ALPHA DRIVER", "first entry name");
	is_int(e->line, 10, "entry line");
	is_int(e->nr_fields, 5, "fields of the first entry");
	is_int(e->fields[3].key, 'F', "field key");
	is_str(e->fields[3].value, "drivers/alpha", "field value");
	is_int(e->fields[3].line, 14, "field line");
	ok(maint_file_find(mf, "THE REST") != NULL, "find by name");

	ok(maint_index_new(mf, t, &idx, &diags) == 0, "index built");
	ok(diag_has(&diags, 36, "invalid N: regex '(unclosed'"),
	   "invalid N: regex reported with its line");

	MATCH("drivers/alpha/core.c", "ALPHA CORE|ALPHA DRIVER|THE REST");
	MATCH("drivers/alpha/sub/deep.c", "ALPHA DRIVER|THE REST");
	MATCH("drivers/alpha/skip/x.c", "THE REST");   /* X: drops it */
	MATCH("drivers/foo.c", "PREFIX QUIRK|THE REST");
	MATCH("drivers/foobar.c", "PREFIX QUIRK|THE REST");
	MATCH("drivers/fooz/inside.c", "THE REST");    /* slash count */
	MATCH("drivers/dotted.dir/a.c", "THE REST");
	MATCH("net/a/glob.c", "GLOBS|TIE ONE|TIE TWO|THE REST");
	MATCH("net/a/b/glob.c", "TIE ONE|TIE TWO|THE REST");
	MATCH("net/qx.c", "GLOBS|TIE ONE|TIE TWO|THE REST");
	MATCH("net/qxy.c", "TIE ONE|TIE TWO|THE REST");
	MATCH("net/dot.c", "GLOBS|TIE ONE|TIE TWO|THE REST");
	MATCH("net/dotxc", "TIE ONE|TIE TWO|THE REST"); /* '.' is literal */
	MATCH("net/cls.c", "GLOBS|TIE ONE|TIE TWO|THE REST");
	MATCH("net/cls.o", "TIE ONE|TIE TWO|THE REST");
	/* F: matched at depth 4, then N: (depth 0) is the last match */
	MATCH("net/deep/er/x.c", "TIE ONE|TIE TWO|LAST MATCH WINS|THE REST");
	MATCH("arch/sun8i/board.c", "REGEX NAMES|THE REST");
	MATCH("README", "THE REST");
	MATCH("drivers/alpha/", "ALPHA DRIVER|THE REST");

	/* the stale patterns, as `coverage` finds them */
	ok(coverage_compute(mf, idx, t, 0.5, &cov) == 0, "coverage");
	{
		GString *s = g_string_new(NULL);

		for (size_t i = 0; i < cov->nr_stale; i++)
			g_string_append_printf(s, "%s%c:%s", i ? " " : "",
					       cov->stale[i]->key,
					       cov->stale[i]->value);
		is_str(s->str, "F:drivers/dotted.dir F:gone/away/",
		       "stale patterns");
		g_string_free(s, TRUE);
	}
	coverage_free(cov);
	maint_index_free(idx);
	maint_file_free(mf);
	ms_tree_free(t);
	ms_diags_release(&diags);
}

static void test_bad_input(void)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = maint_file_new();
	GString *s = g_string_new(NULL);

	g_string_append(s, "F:\torphan/before/any/entry\n"
			"ONE\nM:\tA <a@b.c>\n");
	g_string_append(s, "F:\t");
	for (int i = 0; i < 70000; i++)
		g_string_append_c(s, 'x');
	g_string_append(s, "\nF:\tone/\n");
	g_string_append_len(s, "GAR\0BAGE\n", 9);
	g_string_append(s, "Z:\tunknown key\n");
	g_string_append(s, "TWO\nM:\tB <b@b.c>\nF:\ttwo/\n");
	ok(maint_file_parse(mf, "M", s->str, s->len, &diags) == 0,
	   "bad input still parses");
	is_int(maint_file_nr_entries(mf), 2, "both good entries kept");
	ok(diag_has(&diags, 1, "before any entry"), "key before entry");
	ok(diag_has(&diags, 4, "longer than 64 KiB"), "over-long line");
	ok(diag_has(&diags, 6, "NUL"), "binary garbage");
	ok(diag_has(&diags, 7, "unknown field 'Z:'"), "unknown key");
	is_int(maint_file_entry(mf, 0)->nr_fields, 3,
	       "entry ONE keeps its good fields (and Z:)");
	is_str(maint_file_entry(mf, 1)->fields[1].value, "two/",
	       "parsing goes on after the bad lines");
	maint_file_free(mf);
	ms_diags_release(&diags);

	/* rdma-core explains its H: (historical authors) in its preamble:
	 * not an unknown field there; Z:, explained nowhere, still is */
	mf = maint_file_new();
	g_string_assign(s, "Descriptions of section entries:\n"
			"        F: Files and directories\n"
			"        H: Historical authors\n\n"
			"ONE\nM:\tA <a@b.c>\nH:\tOld Author <o@b.c>\n"
			"Z:\tunknown key\nF:\tone/\n");
	ok(maint_file_parse(mf, "M", s->str, s->len, &diags) == 0,
	   "a preamble's fields parse");
	ok(!diag_has(&diags, 7, "unknown field"),
	   "H:, which the preamble explains, is known");
	ok(diag_has(&diags, 8, "unknown field 'Z:'"), "Z: is not");
	maint_file_free(mf);
	ms_diags_release(&diags);

	mf = maint_file_new();
	ok(maint_file_parse(mf, "B", "\x7f" "ELF\x01\x02\n\xff\xfe", 8,
			    &diags) == 0 && maint_file_nr_entries(mf) == 0,
	   "binary file: no entries");
	ok(diag_has(&diags, 0, "no entries found"), "said so");
	maint_file_free(mf);
	ms_diags_release(&diags);
	g_string_free(s, TRUE);
}

/* Patterns and paths are bytes, as get_maintainer.pl reads them: invalid
 * UTF-8 in an N:/K:/F: field (found by fuzz-maintainers: PCRE2 crashed
 * compiling it in UTF-8 mode) is matched byte for byte. */
static void test_invalid_utf8(void)
{
	static const char text[] =
		"BYTES\nM:\tB \x89\xff <b@x>\nN:\t[\x89\xff]weird\n"
		"K:\t\xc3(\n"
		"F:\tbytes/\xe2\x82/\n\nTHE REST\nM:\tR <r@x>\nF:\t*\nF:\t*/\n";
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = maint_file_new();
	struct maint_index *idx = NULL;
	struct ms_tree *t = NULL;

	touch("bytes/\xe2\x82/a.c");
	touch("lib/\x89weird.c");
	ok(ms_tree_from_dir(root, &t, &diags) == 0, "tree with byte names");
	ok(maint_file_parse(mf, "U", text, sizeof(text) - 1, &diags) == 0 &&
	   maint_file_nr_entries(mf) == 2, "invalid UTF-8 parses");
	ok(maint_index_new(mf, t, &idx, &diags) == 0, "and indexes");
	MATCH("lib/\x89weird.c", "BYTES|THE REST");
	MATCH("lib/\xffweird.c", "BYTES|THE REST");
	MATCH("lib/aweird.c", "THE REST");
	MATCH("bytes/\xe2\x82/a.c", "BYTES|THE REST");
	maint_index_free(idx);
	maint_file_free(mf);
	ms_tree_free(t);
	ms_diags_release(&diags);
}

static void test_many_files(void)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	char *sub = g_build_filename(root, "multi", NULL);
	char *saved = root;
	struct ms_tree *t;
	struct maint_file *mf;
	struct maint_index *idx;
	struct maint_load_opts lo = { 0 };

	root = sub;
	write_file("MAINTAINERS", "TOP\nM:\tT <t@x>\nF:\t*\nF:\t*/\n");
	write_file("board/acme/MAINTAINERS",
		   "ACME BOARD\nM:\tA <a@x>\nF:\tboard/acme/\n");
	write_file("board/zeta/MAINTAINERS",
		   "ZETA BOARD\nM:\tZ <z@x>\nF:\tboard/zeta/\n");
	touch("board/acme/a.c");
	ms_tree_from_dir(root, &t, &diags);
	ok(maint_file_load(t, &lo, &mf, &diags) == 0 &&
	   maint_file_nr_entries(mf) == 1, "only the top file by default");
	maint_file_free(mf);
	lo.find_maintainer_files = true;
	ok(maint_file_load(t, &lo, &mf, &diags) == 0 &&
	   maint_file_nr_entries(mf) == 3, "--find-maintainer-files");
	maint_index_new(mf, t, &idx, &diags);
	MATCH("board/acme/a.c", "ACME BOARD|TOP");
	maint_index_free(idx);
	maint_file_free(mf);
	ms_tree_free(t);

	/* the tree's own .get_maintainer.conf turns it on */
	write_file(".get_maintainer.conf",
		   "# U-Boot style\n--find-maintainer-files\n");
	ms_tree_from_dir(root, &t, &diags);
	lo.find_maintainer_files = false;
	ok(maint_file_load(t, &lo, &mf, &diags) == 0 &&
	   maint_file_nr_entries(mf) == 3, ".get_maintainer.conf honoured");
	maint_file_free(mf);
	write_file(".get_maintainer.conf", "--mpath board/zeta/MAINTAINERS\n");
	ms_tree_free(t);
	ms_tree_from_dir(root, &t, &diags);
	ok(maint_file_load(t, &lo, &mf, &diags) == 0 &&
	   maint_file_nr_entries(mf) == 1 &&
	   !strcmp(maint_file_entry(mf, 0)->name, "ZETA BOARD"),
	   "--mpath in .get_maintainer.conf");
	maint_file_free(mf);
	ms_tree_free(t);
	/* U-Boot's own .get_maintainer.conf: the top of the tree */
	write_file(".get_maintainer.conf", "--find-maintainer-files\n"
		   "--maintainer-path=.\n");
	ms_tree_from_dir(root, &t, &diags);
	ok(maint_file_load(t, &lo, &mf, &diags) == 0 &&
	   maint_file_nr_entries(mf) == 3,
	   "--maintainer-path=. with --find-maintainer-files (U-Boot)");
	maint_file_free(mf);
	ms_tree_free(t);

	{
		const char *files[] = { "/nonexistent/MAINTAINERS" };

		lo.maintainers = files;
		lo.nr_maintainers = 1;
		ms_tree_from_dir(root, &t, &diags);
		is_int(maint_file_load(t, &lo, &mf, &diags), MS_ENOTFOUND,
		       "missing --maintainers file");
		ok(strstr(ms_error_last(), "/nonexistent/MAINTAINERS") != NULL,
		   "error names the file");
		ms_tree_free(t);
	}
	root = saved;
	g_free(sub);
	ms_diags_release(&diags);
}

/* QEMU's layout: underlined group titles, entries without blank lines. */
static void test_qemu_style(void)
{
	static const char qemu[] =
		"QEMU Maintainers\n"
		"================\n"
		"\n"
		"The intention of this file is ...\n"
		"\tM: Mail patches to: FullName <address@domain>\n"
		"\n"
		"General Project Administration\n"
		"------------------------------\n"
		"M: Peter Maydell <peter.maydell@linaro.org>\n"
		"\n"
		"All patches CC here\n"
		"L: qemu-devel@nongnu.org\n"
		"F: *\n"
		"F: */\n"
		"\n"
		"Trivial patches\n"
		"---------------\n"
		"Trivial patches\n"
		"M: Michael Tokarev <mjt@tls.msk.ru>\n"
		"S: Maintained\n";
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = maint_file_new();

	maint_file_parse(mf, "QEMU", qemu, sizeof(qemu) - 1, &diags);
	is_int(maint_file_nr_entries(mf), 3, "QEMU file: three entries");
	is_str(maint_file_entry(mf, 0)->name, "General Project Administration",
	       "an underline keeps the title above it");
	is_str(maint_file_entry(mf, 1)->name, "All patches CC here",
	       "a sub-entry title");
	is_str(maint_file_entry(mf, 2)->name, "Trivial patches",
	       "the repeated title names the entry");
	is_int(diags.nr, 0, "no warnings");
	maint_file_free(mf);
	ms_diags_release(&diags);
}

/*
 * QEMU's get_maintainer.pl reads any byte before ':' as a field letter and
 * keeps '#' lines as titles; the kernel's reads neither.  tv counts the
 * lines the script keeps.
 */
static void test_qemu_syntax(void)
{
	static const char text[] =
		"Board A\n"
		"M: Ann <ann@example.org>\n"
		"s: Maintained\n"
		"F: hw/a/\n"
		"\n"
		"Board B\n"
		"M: Bea <bea@example.org>\n"
		"# the bus is Carl's\n"
		"M: Carl <carl@example.org>\n"
		"F: hw/b/\n";
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *k = maint_file_new(), *q = maint_file_new();
	const struct maint_entry *e;

	maint_file_parse(k, "K", text, sizeof(text) - 1, &diags);
	is_int(maint_file_nr_entries(k), 3, "kernel: 's:' starts a section");
	e = maint_file_entry(k, 2);
	is_str(e->name, "Board B", "kernel: the '#' line is skipped");
	is_int(e->nr_fields, 3, "kernel: Board B keeps both M: and its F:");
	is_int(e->fields[2].tv, 7, "kernel: the '#' line is not counted");
	ms_diags_release(&diags);

	maint_file_set_qemu_syntax(q, true);
	maint_file_parse(q, "Q", text, sizeof(text) - 1, &diags);
	is_int(maint_file_nr_entries(q), 3, "qemu: three entries");
	e = maint_file_entry(q, 0);
	is_int(e->nr_fields, 3, "qemu: 's:' is a field of Board A");
	ok(e->fields[1].key == 's', "qemu: its letter is kept");
	is_str(maint_file_entry(q, 1)->name, "Board B", "qemu: Board B");
	is_int(maint_file_entry(q, 1)->nr_fields, 1,
	       "qemu: the '#' line ends Board B after its first M:");
	e = maint_file_entry(q, 2);
	is_str(e->name, "# the bus is Carl's", "qemu: the '#' line names "
	       "the fields under it");
	is_int(e->fields[1].tv, 8, "qemu: the '#' line is counted");
	is_int(diags.nr, 1, "qemu: one warning, the unknown letter");
	maint_file_free(k);
	maint_file_free(q);
	ms_diags_release(&diags);
}

int main(void)
{
	char *cmd;

	root = g_dir_make_tmp("maintstat-test-XXXXXX", NULL);
	test_matching();
	test_bad_input();
	test_many_files();
	test_qemu_style();
	test_qemu_syntax();
	test_invalid_utf8();
	cmd = g_strdup_printf("rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	g_free(cmd);
	g_free(root);
	return test_done();
}
