/*
 * fuzz-maintainers.c - libFuzzer target for the MAINTAINERS parser and
 * matcher: one input is a MAINTAINERS file (entries, F:/X: globs with
 * brace-free regex syntax, N: regexes under the match limits), parsed,
 * indexed over a small fixed tree and matched against its paths and
 * against the input's own lines taken as paths.
 */
#include "maintainers.h"
#include "tree.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const paths[] = {
	"MAINTAINERS", "README", "drivers/net/ethernet/intel/e1000/main.c",
	"drivers/net/Kconfig", "drivers/tty/serial/8250/8250_core.c",
	"include/linux/netdevice.h", "arch/arm64/boot/dts/a.dts",
	"Documentation/devicetree/bindings/x.yaml", "net/tls/tls_main.c",
	"tools/testing/selftests/net/a.sh",
};
static struct ms_tree *tree;
static struct ms_diags tree_diags = MS_DIAGS_INIT;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *dir = g_dir_make_tmp("maintstat-fuzz-XXXXXX", NULL);

	(void)argc;
	(void)argv;
	if (!dir)
		abort();
	for (size_t i = 0; i < G_N_ELEMENTS(paths); i++) {
		char *p = g_build_filename(dir, paths[i], NULL);
		char *d = g_path_get_dirname(p);

		g_mkdir_with_parents(d, 0700);
		g_file_set_contents(p, "", 0, NULL);
		g_free(d);
		g_free(p);
	}
	if (ms_tree_from_dir(dir, &tree, &tree_diags) < 0)
		abort();
	/* list the tree now, while the directory exists */
	(void)ms_tree_nr_files(tree);
	g_free(dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = maint_file_new();
	struct maint_index *idx = NULL;
	const struct maint_entry *m[16];

	if (maint_file_parse(mf, "MAINTAINERS", (const char *)data, size,
			     &diags) == 0 &&
	    maint_index_new(mf, tree, &idx, &diags) == 0) {
		char *text = g_strndup((const char *)data, MIN(size, 4096));
		char **lines = g_strsplit(text, "\n", 64);

		for (size_t i = 0; i < G_N_ELEMENTS(paths); i++)
			maint_index_match(idx, paths[i], m, G_N_ELEMENTS(m));
		for (char **l = lines; *l; l++)
			if (**l)
				maint_index_match(idx, *l, m,
						  G_N_ELEMENTS(m));
		maint_index_report(idx, &diags);
		g_strfreev(lines);
		g_free(text);
	}
	maint_index_free(idx);
	maint_file_free(mf);
	ms_diags_release(&diags);
	return 0;
}
