/*
 * cmd-maintainers.c - maintstat maintainers: who to Cc for some paths or
 * patches, byte for byte as scripts/get_maintainer.pl --no-git
 * --no-git-fallback prints it.
 */
#include "cli-cc-activity.h"
#include "cli.h"
#include "commands.h"
#include "git-blame.h"
#include "maint-cc.h"
#include "maint-cc-args.h"
#include "maint-cc-vcs.h"
#include "maintainers.h"
#include "output.h"
#include "store.h"
#include "tree.h"
#include "verdict.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct cli_command_help help = {
	"maintstat maintainers [--tree DIR | --repo GITDIR [--rev REV]] "
	"[options] PATH... | PATCH... | -",
	"Print who to send a patch to: the maintainers, reviewers and lists of\n"
	"the MAINTAINERS entries of each PATH of the tree, or of the files a\n"
	"PATCH (git format-patch output, an mbox of patches) touches, with\n"
	"the K: keywords of its changed lines.  The output is byte for byte\n"
	"that of scripts/get_maintainer.pl, and the switches below are its\n"
	"own: in a git work tree (or with --repo), --git and the git fallback\n"
	"add each file's recent signers and authors from git log, --git-blame\n"
	"the signers of the commits that last changed a patch's lines, and a\n"
	"patch's Fixes: lines the fixed commits' signers, as the tree's own\n"
	"script adds them (QEMU's and Xen's: signers only, and their own\n"
	"fallback rules).  An argument naming a\n"
	"file or directory of the tree is a path, any other existing file a\n"
	"patch; '-' reads paths (one a line) or a patch from standard input.\n\n"
	"Every option of the tree's get_maintainer.pl is taken as the script\n"
	"takes it (Getopt::Long without abbreviations): --name or -name in\n"
	"any case, --noname or --no-name for a switch, a value inline\n"
	"(--name=V) or next; a prefix is never an option, and an option of\n"
	"another project's script is refused.  Its defaults are the script's\n"
	"own (Xen's: no role statistics, duplicates kept).  Those maintstat\n"
	"does not reproduce (--interactive, --sections, --letters,\n"
	"--pattern-depth, --version) exit 2.  --self-test's links and scm\n"
	"checks run wget and git ls-remote as the script does.\n"
	"The\n"
	"tree's .get_maintainer.conf is read first, as the script reads it.",
	"  maintstat maintainers --tree ~/linux drivers/infiniband/core/cma.c\n"
	"  git format-patch -1 --stdout | maintstat maintainers -",
};

struct opts {
	bool paths, patches, json, each;
	bool to_cc, activity, active_only;
	const char *inactive_after;
	const char *dialect;
	struct cli_strings archives;
	struct maint_cc_args gm;  /* the script's options */
	/* from the script's options, in the tree's dialect */
	bool roles, multiline, scm, status, subsystem, web;
	const char *separator;
};

static bool looks_like_patch(const char *buf, size_t len)
{
	static const char *const marks[] = {
		"diff --git ", "--- ", "+++ ", "rename from ", "rename to ",
		" mode change ", "From ",
	};
	size_t pos = 0;

	while (pos < len) {
		const char *l = buf + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos;

		for (size_t i = 0; i < G_N_ELEMENTS(marks); i++)
			if (n >= strlen(marks[i]) &&
			    !memcmp(l, marks[i], strlen(marks[i])))
				return true;
		pos += n + 1;
	}
	return false;
}

/* One argument, or one line of standard input, ready to look up. */
struct input {
	char *name;   /* as given */
	char *path;   /* a path of the tree, canonical; or NULL */
	char *patch;  /* the text of a patch; or NULL */
	size_t len;
};

static void input_clear(gpointer p)
{
	struct input *in = p;

	g_free(in->name);
	g_free(in->path);
	g_free(in->patch);
}

/* A path of the tree: false with a message when it is not one. */
static bool add_path(GArray *inputs, const struct cli_tree *ct,
		     const char *arg)
{
	char *path = cli_tree_path(ct, arg);
	size_t n = strlen(path);
	bool ok = n && (ms_tree_has_file(ct->tree, path) ||
			(path[n - 1] == '/'));

	if (ok) {
		struct input in = { g_strdup(arg), path, NULL, 0 };

		g_array_append_val(inputs, in);
	} else {
		cli_error("file '%s' not found in '%s'", arg,
			  ms_tree_root(ct->tree));
		g_free(path);
	}
	return ok;
}

static void add_patch(GArray *inputs, const char *name, char *buf,
		      size_t len)
{
	struct input in = { g_strdup(name), NULL, buf, len };

	g_array_append_val(inputs, in);
}

/* Read the arguments into `inputs`; false after printing an error. */
static bool read_inputs(GArray *inputs, const struct cli_tree *ct,
			const struct opts *op, int argc, char **argv)
{
	bool ok = true;

	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-")) {
			GString *s = g_string_new(NULL);

			if (cli_read_stdin(s) != 0) {
				ok = false;
			} else if (op->patches || (!op->paths &&
				   looks_like_patch(s->str, s->len))) {
				size_t len = s->len;

				add_patch(inputs, "-", g_string_free(s, FALSE),
					  len);
				continue;
			} else {
				char **lines = g_strsplit(s->str, "\n", -1);

				for (char **l = lines; *l; l++) {
					g_strchomp(*l);
					if (**l && !add_path(inputs, ct, *l))
						ok = false;
				}
				g_strfreev(lines);
			}
			g_string_free(s, TRUE);
			continue;
		}
		if (!op->patches) {
			char *path = cli_tree_path(ct, arg);
			size_t n = strlen(path);
			bool in_tree = n && (ms_tree_has_file(ct->tree, path) ||
					     path[n - 1] == '/');

			g_free(path);
			if (in_tree || op->paths) {
				if (!add_path(inputs, ct, arg))
					ok = false;
				continue;
			}
		}
		{
			char *buf;
			gsize len;

			if (!g_file_test(arg, G_FILE_TEST_IS_REGULAR)) {
				cli_error("'%s' is neither a path of '%s' nor "
					  "a patch file", arg,
					  ms_tree_root(ct->tree));
				ok = false;
				continue;
			}
			if (cli_read_file(arg, &buf, &len) != CLI_CONTINUE) {
				ok = false;
				continue;
			}
			add_patch(inputs, arg, buf, len);
		}
	}
	return ok;
}

/* Look up `inputs` [from, to) together, as one get_maintainer.pl run. */
static struct maint_cc *look_up(const struct cli_tree *ct,
				const struct maint_cc_opts *co,
				GArray *inputs, guint from, guint to)
{
	struct maint_cc *cc = maint_cc_new(ct->mf, ct->idx, ct->tree, co);
	struct ms_diags diags = MS_DIAGS_INIT;
	GPtrArray *not_patches = g_ptr_array_new();

	for (guint i = from; i < to; i++) {
		struct input *in = &g_array_index(inputs, struct input, i);

		if (in->path)
			maint_cc_add_path(cc, in->path);
		else if (!maint_cc_add_patch(cc, in->patch, in->len))
			g_ptr_array_add(not_patches, in->name);
	}
	maint_cc_run(cc, &diags);
	/* the quick program lacks a log: maintstat-full answers, and
	 * says all this */
	if (co->vcs_log == ms_store_vcs_saved &&
	    ms_store_vcs_missed(co->vcs_log_data)) {
		maint_cc_free(cc);
		cc = NULL;
	} else {
		for (guint i = 0; i < not_patches->len; i++)
			cli_warning("file '%s' doesn't appear to be a patch",
				    (char *)not_patches->pdata[i]);
		cli_print_diags(&diags);
	}
	ms_diags_release(&diags);
	g_ptr_array_free(not_patches, TRUE);
	return cc;
}

/* The answers to `inputs`, all together or each alone (--each), found
 * before any is printed; NULL when the quick program lacks a log. */
static GPtrArray *look_up_all(const struct cli_tree *ct,
			      const struct maint_cc_opts *co, GArray *inputs,
			      bool each)
{
	GPtrArray *ccs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)maint_cc_free);

	for (guint i = 0; i < (each ? inputs->len : 1); i++) {
		struct maint_cc *cc = look_up(ct, co, inputs, each ? i : 0,
					      each ? i + 1 : inputs->len);

		if (!cc) {
			g_ptr_array_free(ccs, TRUE);
			return NULL;
		}
		g_ptr_array_add(ccs, cc);
	}
	return ccs;
}

/* get_maintainer.pl's output(): one a line, or joined by the separator */
static void output(GString *out, GPtrArray *items, bool multiline,
		   const char *sep)
{
	if (multiline) {
		for (guint i = 0; i < items->len; i++)
			g_string_append_printf(out, "%s\n",
					       (char *)items->pdata[i]);
		return;
	}
	for (guint i = 0; i < items->len; i++)
		g_string_append_printf(out, "%s%s", i ? sep : "",
				       (char *)items->pdata[i]);
	g_string_append_c(out, '\n');
}

static const char *kind_name(char kind)
{
	switch (kind) {
	case 'M': return "maintainer";
	case 'R': return "reviewer";
	case 'L': return "list";
	default: return "file";
	}
}

/*
 * git send-email arguments, one a line: --to for maintainers (and
 * supporters, odd fixers...: every M:), --cc for reviewers, lists and
 * addresses found in files.  Bare addresses, so that `git send-email
 * $(maintstat maintainers --to-cc ...)` works as xargs does.
 */
static char *answer_to_cc(const struct maint_cc *cc)
{
	GString *out = g_string_new(NULL);

	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++) {
		const struct maint_cc_line *l = maint_cc_line(cc, i);
		char *a = cli_send_email_arg(l->kind == 'M' ? "--to" : "--cc",
					     l->address);

		g_string_append_printf(out, "%s\n", a);
		g_free(a);
	}
	return g_string_free(out, FALSE);
}

/* What get_maintainer.pl prints for the same question. */
static char *answer_text(const struct maint_cc *cc, const struct opts *op,
			 bool roles, struct cc_act *ac)
{
	GString *out;

	if (op->to_cc && !ac)
		return answer_to_cc(cc);
	out = g_string_new(NULL);
	bool multiline = op->multiline;
	const char *sep = op->separator;
	GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
	static const char whats[] = { 'T', 'S', 'N', 'W' };
	const bool want[] = { op->scm, op->status, op->subsystem, op->web };

	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++) {
		const struct maint_cc_line *l = maint_cc_line(cc, i);
		char *note = NULL;
		bool drop = false;

		if (ac && l->kind == 'L')
			cc_act_defacto(ac, cc, items, roles, op->to_cc);
		if (ac)
			note = cc_act_note(ac, l, &drop);
		if (drop)
			continue;
		if (op->to_cc)
			g_ptr_array_add(items, cli_send_email_arg(
				l->kind == 'M' ? "--to" : "--cc", l->address));
		else
			g_ptr_array_add(items, roles ?
				g_strdup_printf("%s (%s%s)", l->email, l->role,
						note ? note : "") :
				g_strdup(l->email));
		g_free(note);
	}
	if (ac)
		cc_act_defacto(ac, cc, items, roles, op->to_cc);
	if (items->len)
		output(out, items, multiline, sep);
	for (size_t k = 0; k < G_N_ELEMENTS(whats); k++) {
		if (!want[k])
			continue;
		g_ptr_array_set_size(items, 0);
		for (size_t i = 0; i < maint_cc_nr_values(cc, whats[k]); i++)
			g_ptr_array_add(items, g_strdup(
				maint_cc_value(cc, whats[k], i)));
		output(out, items, multiline, sep);
	}
	g_ptr_array_free(items, TRUE);
	return g_string_free(out, FALSE);
}

static void emit_json(struct ms_out *o, const struct maint_cc *cc,
		      const struct opts *op, bool roles,
		      struct cc_act *ac)
{
	char *text = answer_text(cc, op, roles, ac);

	static const char whats[] = { 'N', 'S', 'T', 'W' };
	static const char *const keys[] = { "subsystem", "status_list", "scm",
					    "web" };

	ms_out_kv_string(o, "text", text);
	g_free(text);
	ms_out_kv_begin_list(o, "file_list");
	for (size_t i = 0; i < maint_cc_nr_files(cc); i++)
		ms_out_string(o, maint_cc_file(cc, i));
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "cc");
	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++) {
		const struct maint_cc_line *l = maint_cc_line(cc, i);

		ms_out_begin_object(o);
		cli_json_person(o, l->name, l->address);
		ms_out_kv_string(o, "kind", kind_name(l->kind));
		ms_out_kv_string(o, "role", l->role);
		ms_out_kv_string(o, "entry", l->entry ? l->entry->name : NULL);
		if (ac && maint_cc_line_listed(l))
			cc_act_json(o, ac, l);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "entries");
	for (size_t i = 0; i < maint_cc_nr_entries(cc); i++) {
		const struct maint_entry *e = maint_cc_entry(cc, i);

		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", e->name);
		ms_out_kv_string(o, "file", e->file);
		ms_out_kv_int(o, "line", e->line);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	for (size_t k = 0; k < G_N_ELEMENTS(whats); k++) {
		ms_out_kv_begin_list(o, keys[k]);
		for (size_t i = 0; i < maint_cc_nr_values(cc, whats[k]); i++)
			ms_out_string(o, maint_cc_value(cc, whats[k], i));
		ms_out_end_list(o);
	}
}

/* Everything the command line sets. */
struct args {
	struct cli_tree_opts topts;
	struct opts op;
	struct cli_store_opts store;
	GPtrArray *argv;  /* what is left for cli_parse_options() */
	char **conf;      /* the words of the tree's .get_maintainer.conf */
	int script_words; /* the command line's words of the script's */
};

/* Help lines for the script's options (the script's own words). */
static bool help_only;

#define HELP_OPT(name, argh, text) \
	{ argh ? CLI_OPT_STRING : CLI_OPT_FLAG, name, 0, \
	  argh ? (void *)&help_string : (void *)&help_only, argh, text }
static const char *help_string;

/*
 * Whether `arg` is `--NAME` or `--NAME=...` for a long option of `opts`
 * spelled exactly (maintstat's own options take no abbreviation here
 * either).  *value: whether it takes the next argument as its value.
 */
static bool own_option(const struct cli_option *opts, const char *arg,
		       bool *value)
{
	static const char *const common[] = { "help", "quiet" };
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg) - 2;

	*value = false;
	if (arg[0] != '-' || arg[1] != '-')
		return !strcmp(arg, "-q") || !strcmp(arg, "-h");
	for (const struct cli_option *o = opts; o->type; o++) {
		if (o->value == &help_only || o->value == &help_string ||
		    strlen(o->long_name) != n ||
		    strncmp(o->long_name, arg + 2, n))
			continue;
		*value = !eq && CLI_OPT_TYPE(o) != CLI_OPT_FLAG;
		return true;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(common); i++)
		if (!eq && !strcmp(arg + 2, common[i]))
			return true;
	return false;
}

/*
 * Take the script's options out of the arguments, into op->gm, exactly as
 * its Getopt::Long would (maint-cc-args.h), and keep maintstat's own,
 * spelled exactly, in a->argv.  `--tree` (lower case) stays maintstat's
 * --tree DIR; the script's --tree switch (check the top of the tree) is
 * spelled --notree or in another case.  CLI_CONTINUE or exit 2.
 */
static int take_script_args(struct args *a, const struct cli_option *opts,
			    int argc, char **argv)
{
	a->argv = g_ptr_array_new();
	g_ptr_array_add(a->argv, argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		bool value;
		int used;

		if (!strcmp(arg, "--")) {
			while (i < argc)
				g_ptr_array_add(a->argv, argv[i++]);
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			g_ptr_array_add(a->argv, argv[i]);
			continue;
		}
		if (strncmp(arg, "--tree", 6) || (arg[6] && arg[6] != '=')) {
			used = maint_cc_args_take(&a->op.gm, argc - i, argv + i);
			if (used < 0)
				return cli_usage_error("maintainers", "%s",
						       ms_error_last());
			if (used > 0) {
				a->script_words += used;
				i += used - 1;
				continue;
			}
		}
		if (!own_option(opts, arg, &value))
			return cli_usage_error("maintainers", "unknown option "
					       "'%s'", arg);
		g_ptr_array_add(a->argv, argv[i]);
		if (value && i + 1 < argc)
			g_ptr_array_add(a->argv, argv[++i]);
	}
	g_ptr_array_add(a->argv, NULL);
	return CLI_CONTINUE;
}

/* Parse the options into `a`: CLI_CONTINUE or the exit code. */
static int parse_args(struct args *a, int *argc, char ***argv)
{
	struct opts *op = &a->op;
	const struct cli_option opts[] = {
		CLI_TREE_OPTIONS(&a->topts),
		{ CLI_OPT_FLAG, "paths", 'f', &op->paths, NULL,
		  "every argument is a path of the tree "
		  "(get_maintainer.pl -f, --file)" },
		{ CLI_OPT_FLAG, "patches", 0, &op->patches, NULL,
		  "every argument is a patch file" },
		HELP_OPT("no-email", NULL, "no people: only lists (and --scm, --status...)"),
		HELP_OPT("no-m", NULL, "leave out maintainers"),
		HELP_OPT("no-r", NULL, "leave out reviewers"),
		HELP_OPT("no-l", NULL, "leave out mailing lists"),
		HELP_OPT("no-moderated", NULL, "leave out moderated lists (the "
			 "kernel's script only)"),
		HELP_OPT("s", NULL, "include subscribers-only lists"),
		HELP_OPT("no-n", NULL, "addresses without names"),
		HELP_OPT("no-rolestats", NULL, "no '(maintainer:ENTRY)' after "
			 "each address (Xen's default; --rolestats: the "
			 "kernel's)"),
		HELP_OPT("roles", NULL, "with --no-rolestats: the roles all the "
			 "same"),
		HELP_OPT("no-remove-duplicates", NULL, "keep people listed under "
			 "several names or addresses (Xen's default; "
			 "--remove-duplicates: the kernel's)"),
		HELP_OPT("no-mailmap", NULL, "ignore the tree's .mailmap"),
		HELP_OPT("no-keywords", NULL, "ignore K: patterns (--nok)"),
		HELP_OPT("file-emails", NULL, "add the addresses found in each "
			 "file (--fe; the kernel's script: .yaml files always)"),
		HELP_OPT("git-chief-penguins", NULL, "keep the chief penguin "
			 "(Linus Torvalds; U-Boot's Tom Rini)"),
		HELP_OPT("nodrop_the_rest_supporter", NULL, "Xen's: keep THE "
			 "REST's supporters when another entry's M: matched"),
		HELP_OPT("separator", "SEP", "one line, addresses joined by SEP "
			 "(default: one a line)"),
		HELP_OPT("no-multiline", NULL, "one line, addresses joined by "
			 "', '"),
		HELP_OPT("scm", NULL, "also print the T: trees"),
		HELP_OPT("status", NULL, "also print the S: statuses"),
		HELP_OPT("subsystem", NULL, "also print the entry names"),
		HELP_OPT("web", NULL, "also print the W: pages"),
		HELP_OPT("git", NULL, "add each file's recent signers and authors "
			 "(git log --since=--git-since; needs a git tree)"),
		HELP_OPT("no-git-fallback", NULL, "no git signers for files no "
			 "maintained entry matches exactly (the kernel's "
			 "default: added)"),
		HELP_OPT("git-since", "DATE", "with --git: how far back "
			 "(default 1-year-ago, as git reads it)"),
		HELP_OPT("git-min-percent", "N", "with --git: signers of at "
			 "least N% of the commits (default 5; also "
			 "--git-min-signatures, --git-max-maintainers, "
			 "--git-all-signature-types)"),
		HELP_OPT("no-fixes", NULL, "taken; so are --notree and "
			 "--hg-since: nothing to do without history"),
		{ CLI_OPT_STRING, "dialect", 0, &op->dialect, "NAME",
		  "answer as this project's get_maintainer.pl: kernel, qemu "
		  "or xen (default: as the tree's scripts/get_maintainer.pl)" },
		{ CLI_OPT_FLAG, "to-cc", 0, &op->to_cc, NULL,
		  "print git send-email arguments: --to for maintainers, "
		  "--cc for the rest" },
		{ CLI_OPT_FLAG | CLI_OPT_FULL, "activity", 0, &op->activity,
		  NULL,
		  "with --repo: mark inactive people from the history and "
		  "add the entries' de-facto reviewers; with --archive: "
		  "each person's list replies (--archive alone: those only)" },
		{ CLI_OPT_FLAG | CLI_OPT_FULL, "active-only", 0,
		  &op->active_only, NULL,
		  "with --activity: leave out the people marked inactive" },
		{ CLI_OPT_STRING | CLI_OPT_FULL, "inactive-after", 0,
		  &op->inactive_after,
		  "DURATION|DATE", "with --activity: nothing in the entry since "
		  "then is inactive (default " MS_DEFAULT_INACTIVE_AFTER ")" },
		CLI_OPT_ARCHIVE(&op->archives, "with --activity: a list "
				"archive (mbox, public-inbox; repeatable): "
				"each person's replies to the entry's patches "
				"and their median time to a first reply"),
		CLI_STORE_OPTIONS(&a->store),
		{ CLI_OPT_FLAG, "each", 0, &op->each, NULL,
		  "answer for each argument (each path of '-') on its own, "
		  "as separate runs would" },
		CLI_OPT_JSON(&op->json),
		CLI_OPTION_END,
	};
	int rc = take_script_args(a, opts, *argc, *argv);

	if (rc != CLI_CONTINUE)
		return rc;
	if (op->gm.given[MCC_ARG_HELP]) {
		cli_print_help(stdout, opts, &help);
		return EXIT_OK;
	}
	*argc = (int)a->argv->len - 1;
	*argv = (char **)a->argv->pdata;
	rc = cli_parse_options(argc, argv, opts, &help);
	if (op->gm.given[MCC_ARG_FILE])
		op->paths = true;
	if (op->gm.given[MCC_ARG_FIND_MAINTAINER_FILES])
		a->topts.find_maintainer_files = true;
	return rc;
}

/* What maintstat takes from the script's switches but does not do. */
static const enum maint_cc_arg not_reproduced[] = {
	MCC_ARG_GIT, MCC_ARG_GIT_BLAME, MCC_ARG_INTERACTIVE,
	MCC_ARG_SECTIONS, MCC_ARG_VERSION,
};

/* Checks that need no tree: CLI_CONTINUE or exit 2. */
static int check_args(const struct args *a, int argc)
{
	const struct opts *op = &a->op;

	if (argc < 1 && !op->gm.given[MCC_ARG_SELF_TEST])
		return cli_usage_error("maintainers", "no PATH or PATCH given "
				       "('-' reads standard input)");
	if (op->paths && op->patches)
		return cli_usage_error("maintainers", "--paths and --patches "
				       "exclude each other");
	if ((op->active_only || op->inactive_after || op->archives.nr) &&
	    !op->activity)
		return cli_usage_error("maintainers", "--active-only, "
				       "--inactive-after and --archive need "
				       "--activity");
	if (op->activity && !a->topts.repo && !op->archives.nr)
		return cli_usage_error("maintainers", "--activity needs --repo "
				       "GITDIR (the history to read), "
				       "--archive PATH (a list), or both");
	if (op->active_only && !a->topts.repo)
		return cli_usage_error("maintainers", "--active-only needs "
				       "--repo: the list alone never makes "
				       "someone inactive");
	if (op->dialect && strcmp(op->dialect, "kernel") &&
	    strcmp(op->dialect, "qemu") && strcmp(op->dialect, "xen"))
		return cli_usage_error("maintainers", "--dialect takes kernel, "
				       "qemu or xen, not '%s'", op->dialect);
	return CLI_CONTINUE;
}

/* Whether get_maintainer.pl run at the top of the tree would find a
 * VCS there (its vcs_exists(): a .git, a directory for Xen's, or an .hg
 * directory: 'g' or 'h'); a --repo always has git; 0 for none. */
static char has_vcs(const struct cli_tree_opts *t, const struct ms_tree *tree,
		    enum maint_dialect d)
{
	char yes = t->repo ? 'g' : 0;

	for (int i = 0; !yes && i < 2; i++) {
		char *p = g_build_filename(ms_tree_root(tree),
					   i ? ".hg" : ".git", NULL);

		if (g_file_test(p, i || d == MAINT_DIALECT_XEN ?
				G_FILE_TEST_IS_DIR : G_FILE_TEST_EXISTS))
			yes = i ? 'h' : 'g';
		g_free(p);
	}
	return yes;
}

/* The git options into `co`, reproduced in a git tree for every
 * dialect (not hg's). */
static void git_opts(struct maint_cc_opts *co, const struct args *a,
		     const struct ms_tree *tree, enum maint_dialect d,
		     char vcs)
{
	const struct maint_cc_args *gm = &a->op.gm;

	co->git = maint_cc_args_get(gm, MCC_ARG_GIT, d);
	co->git_blame = maint_cc_args_get(gm, MCC_ARG_GIT_BLAME, d);
	co->git_fallback = maint_cc_args_get(gm, MCC_ARG_GIT_FALLBACK, d);
	co->git_all_signature_types =
		maint_cc_args_get(gm, MCC_ARG_GIT_ALL_SIGNATURE_TYPES, d);
	co->rolestats = maint_cc_args_get(gm, MCC_ARG_ROLESTATS, d);
	co->git_min_signatures =
		maint_cc_args_get(gm, MCC_ARG_GIT_MIN_SIGNATURES, d);
	co->git_max_maintainers =
		maint_cc_args_get(gm, MCC_ARG_GIT_MAX_MAINTAINERS, d);
	co->git_min_percent = maint_cc_args_get(gm, MCC_ARG_GIT_MIN_PERCENT, d);
	if (gm->str[MCC_ARG_GIT_SINCE])
		co->git_since = gm->str[MCC_ARG_GIT_SINCE];
	if (vcs != 'g')
		return;
	co->vcs_dir = a->topts.repo ? a->topts.repo : ms_tree_root(tree);
	co->vcs_bare = a->topts.repo != NULL;
	co->vcs_rev = a->topts.repo ? a->topts.rev : NULL;
}

static enum maint_dialect asked_dialect(const struct opts *op)
{
	if (!op->dialect)
		return MAINT_DIALECT_AUTO;
	if (!strcmp(op->dialect, "qemu"))
		return MAINT_DIALECT_QEMU;
	if (!strcmp(op->dialect, "xen"))
		return MAINT_DIALECT_XEN;
	return MAINT_DIALECT_KERNEL;
}

/*
 * get_maintainer.pl's switches, in dialect `d`, into `co` and a->op:
 * CLI_CONTINUE or exit 2 (an option the script has not, or one maintstat
 * does not reproduce, or a selection the script refuses).
 */
static int cc_opts(struct maint_cc_opts *co, struct args *a,
		   const struct ms_tree *tree, enum maint_dialect d, char vcs)
{
	struct opts *op = &a->op;
	const struct maint_cc_args *gm = &op->gm;

	if (maint_cc_args_check(gm, d) < 0)
		return cli_usage_error("maintainers", "%s", ms_error_last());
	for (size_t i = 0; i < G_N_ELEMENTS(not_reproduced); i++) {
		enum maint_cc_arg id = not_reproduced[i];
		bool git = id == MCC_ARG_GIT || id == MCC_ARG_GIT_BLAME;

		if (!maint_cc_args_get(gm, id, d))
			continue;
		/* --git and --git-blame in a git tree */
		if (git && vcs == 'g')
			continue;
		/* without .git (or .hg) the script's --git adds nobody: it
		 * warns "No supported VCS found" and answers without */
		if (git && !vcs) {
			cli_warning("'%s': no git work tree, so get_maintainer.pl "
				    "adds nobody for it either", gm->spelled[id]);
			continue;
		}
		/* asked by the tree (U-Boot's conf says --git), not by the
		 * user: answer without the git signers, and say so */
		if (git && gm->from_conf[id]) {
			cli_warning("'%s' of .get_maintainer.conf: git signers "
				    "are not reproduced, so this answer has none "
				    "(--nogit says so and stops this warning)",
				    gm->spelled[id]);
			continue;
		}
		return cli_usage_error("maintainers", "'%s' is not "
				       "reproduced by maintstat%s",
				       gm->spelled[id], git ? " (give --nogit "
				       "--nogit-blame)" : "");
	}
	if (gm->given[MCC_ARG_LETTERS] || gm->given[MCC_ARG_MAINTAINER_PATH] ||
	    maint_cc_args_get(gm, MCC_ARG_PATTERN_DEPTH, d))
		return cli_usage_error("maintainers", "--letters, --mpath and "
				       "--pattern-depth are not reproduced by "
				       "maintstat");
	maint_cc_opts_init(co);
	maint_cc_args_apply(gm, d, co);
	git_opts(co, a, tree, d, vcs);
	op->separator = gm->str[MCC_ARG_SEPARATOR] ?
			gm->str[MCC_ARG_SEPARATOR] : ", ";
	op->multiline = maint_cc_args_get(gm, MCC_ARG_MULTILINE, d) &&
			!strcmp(op->separator, ", ");
	op->roles = maint_cc_args_get(gm, MCC_ARG_ROLES, d) ||
		    maint_cc_args_get(gm, MCC_ARG_ROLESTATS, d);
	op->scm = maint_cc_args_get(gm, MCC_ARG_SCM, d);
	op->status = maint_cc_args_get(gm, MCC_ARG_STATUS, d);
	op->subsystem = maint_cc_args_get(gm, MCC_ARG_SUBSYSTEM, d);
	op->web = maint_cc_args_get(gm, MCC_ARG_WEB, d);
	if (!co->email && !op->scm && !op->status && !op->subsystem &&
	    !op->web)
		return cli_usage_error("maintainers", "missing required option: "
				       "email, scm, status, subsystem or web");
	if (co->email && !co->maintainer && !co->reviewer && !co->list &&
	    !co->subscriber && !co->chief_penguins)
		return cli_usage_error("maintainers", "please select at least "
				       "1 email option (--m, --r, --l, --s)");
	return CLI_CONTINUE;
}

/* --each: one answer per input, as separate runs would give. */
static void answer_each(struct ms_out *o, GPtrArray *ccs, GArray *inputs,
			const struct opts *op, bool roles, struct cc_act *ac)
{
	if (op->json) {
		ms_out_kv_begin_list(o, "answers");
	}
	for (guint i = 0; i < inputs->len; i++) {
		struct input *in = &g_array_index(inputs, struct input, i);
		struct maint_cc *cc = ccs->pdata[i];

		if (ac)
			cc_act_compute(ac, cc);
		if (op->json) {
			ms_out_begin_object(o);
			ms_out_kv_string(o, "input", in->name);
			emit_json(o, cc, op, roles, ac);
			ms_out_end_object(o);
		} else {
			char *t = answer_text(cc, op, roles, ac);

			fprintf(ms_out_fp(o), "%s:\n%s\n", in->name, t);
			g_free(t);
		}
	}
}

/* All inputs together, as one get_maintainer.pl run. */
static void answer_all(struct ms_out *o, struct maint_cc *cc,
		       const struct opts *op, bool roles, struct cc_act *ac)
{
	if (ac)
		cc_act_compute(ac, cc);
	if (op->json) {
		emit_json(o, cc, op, roles, ac);
	} else {
		char *t = answer_text(cc, op, roles, ac);

		fputs(t, ms_out_fp(o));
		g_free(t);
	}
	if (!maint_cc_nr_files(cc))
		cli_warning("no file to look up: no patch had a diff");
}

/* Whether `a` and `b` have the same entries: the same fields, in order. */
static bool same_entries(const struct maint_file *a,
			 const struct maint_file *b)
{
	size_t n = maint_file_nr_entries(a);

	if (n != maint_file_nr_entries(b))
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct maint_entry *x = maint_file_entry(a, i);
		const struct maint_entry *y = maint_file_entry(b, i);

		if (x->nr_fields != y->nr_fields ||
		    strcmp(x->file, y->file) ||
		    (x->nr_fields && x->fields[0].line != y->fields[0].line))
			return false;
	}
	return true;
}

/*
 * QEMU's get_maintainer.pl reads MAINTAINERS its own way (maintainers.h,
 * maint_file_set_qemu_syntax): when answering as it, read the files again
 * so.  --activity reads the files the kernel's way, entry by entry in
 * their order: when QEMU's reading makes other entries, the answer keeps
 * the kernel's reading, with a warning.
 */
static int reload_qemu(struct cli_tree *ct, const struct cli_tree_opts *t,
		       enum maint_dialect d, bool activity)
{
	struct maint_load_opts lo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = NULL;
	struct maint_index *idx = NULL;
	int rc;

	if (d != MAINT_DIALECT_QEMU)
		return CLI_CONTINUE;
	lo.maintainers = t->maintainers.items;
	lo.nr_maintainers = (size_t)t->maintainers.nr;
	lo.find_maintainer_files = t->find_maintainer_files;
	lo.qemu_syntax = true;
	rc = maint_file_load(ct->tree, &lo, &mf, &diags);
	if (rc == 0)
		rc = maint_index_new(mf, ct->tree, &idx, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	if (rc < 0) {
		maint_file_free(mf);
		return cli_error_last();
	}
	if (activity && !same_entries(mf, ct->mf)) {
		cli_warning("QEMU's get_maintainer.pl splits MAINTAINERS into "
			    "other entries than the kernel's: with --activity "
			    "the answer reads it the kernel's way");
		maint_index_free(idx);
		maint_file_free(mf);
		return CLI_CONTINUE;
	}
	maint_index_free(ct->idx);
	maint_file_free(ct->mf);
	ct->mf = mf;
	ct->idx = idx;
	return CLI_CONTINUE;
}

/*
 * The store's copy of the files' git logs, when the answer needs git
 * (--git, the git fallback): co->vcs_log reads through it, in the quick
 * program only what it keeps (see needs_full()).  Without a store
 * (--no-cache, or one that cannot be opened) git is run.
 */
static void open_vcs_cache(struct args *a, struct maint_cc_opts *co,
			   struct ms_store **store, struct ms_store_vcs **vc)
{
	struct mcc_vcs v = { co->vcs_dir, co->vcs_bare, co->vcs_rev,
			     co->git_since, false, 0,
			     co->dialect != MAINT_DIALECT_KERNEL };

	*vc = NULL;
	if (!co->vcs_dir || !co->email || !(co->git || co->git_fallback))
		return;
	if (!*store && cli_store_open(&a->store, co->vcs_dir, store) !=
	    CLI_CONTINUE)
		*store = NULL;
	if (*store && ms_store_vcs_open(*store, &v, vc) == 0 && *vc) {
		co->vcs_log = cli_quick_program ? ms_store_vcs_saved :
			      ms_store_vcs_log;
		co->vcs_log_data = *vc;
	}
}

static bool reads_stdin(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-"))
			return true;
	return false;
}

/* Whether a patch of `inputs` has a line starting "Fixes:" (the ids
 * whose logs the answer reads; a few more lines than the script's
 * /^Fixes:\s+([0-9a-fA-F]{6,40})/ takes). */
static bool names_fixes(GArray *inputs)
{
	for (guint i = 0; i < inputs->len; i++) {
		const struct input *in = &g_array_index(inputs, struct input,
							i);

		for (const char *p = in->patch; p;) {
			size_t left = in->len - (size_t)(p - in->patch);

			if (left >= 6 && !memcmp(p, "Fixes:", 6))
				return true;
			p = memchr(p, '\n', left);
			p = p ? p + 1 : NULL;
		}
	}
	return false;
}

/*
 * --git-blame's commits and the logs of blamed commits and of a patch's
 * Fixes: ids from the objects (git-blame.h), where git blame and git
 * log -1 would otherwise run: maintstat-full's.  The quick program,
 * which has no libgit2, hands a --git-blame line to it (true) unless it
 * reads standard input, which cannot be read twice; it runs git then,
 * and for Fixes: ids (a handover costs more than a git log -1: 35 ms of
 * CPU on U-Boot).
 */
static bool open_blame(struct maint_cc_opts *co, int argc, char **argv,
		       GArray *inputs, struct ms_blame **b)
{
	*b = NULL;
	if (!co->vcs_dir || !co->email ||
	    !(co->git_blame || (co->fixes && names_fixes(inputs))))
		return false;
	if (cli_quick_program)
		return co->git_blame && !reads_stdin(argc, argv);
	if (ms_blame_open(co->vcs_dir, co->vcs_bare, co->vcs_rev, b) < 0) {
		ms_error_clear();
	} else {
		co->vcs_blame = ms_blame_lines;
		co->vcs_commit_log = ms_blame_commit_log;
		co->vcs_blame_data = *b;
	}
	return false;
}

static GPtrArray *flag_log(const char *file, void *data)
{
	(void)file;
	*(bool *)data = true;
	return g_ptr_array_new_with_free_func(g_free);
}

/*
 * Whether the answer reads some file's git log (--git, or a file the git
 * fallback takes).  The quick program then reads the logs the store
 * keeps, and hands the command line to maintstat-full, which makes them,
 * when one is missing (look_up()).
 */
static bool needs_git(const struct cli_tree *ct,
		      const struct maint_cc_opts *co, GArray *inputs)
{
	struct maint_cc_opts o = *co;
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_cc *cc;
	bool needed = false;

	if (!co->vcs_dir || !co->email || !(co->git || co->git_fallback))
		return false;
	if (co->git)
		return true;
	o.vcs_log = flag_log;
	o.vcs_log_data = &needed;
	o.fixes = false;        /* a commit's log, not the store's */
	cc = maint_cc_new(ct->mf, ct->idx, ct->tree, &o);
	for (guint i = 0; i < inputs->len; i++) {
		struct input *in = &g_array_index(inputs, struct input, i);

		if (in->path)
			maint_cc_add_path(cc, in->path);
		else
			maint_cc_add_patch(cc, in->patch, in->len);
	}
	maint_cc_run(cc, &diags);
	ms_diags_release(&diags);
	maint_cc_free(cc);
	return needed;
}

/* Perl's $self_test =~ /\bNAME\b/ */
static bool selected(const char *which, const char *name)
{
	size_t n = strlen(name);

	if (!which || !*which)
		return true;
	for (const char *p = which; (p = strstr(p, name)); p++)
		if ((p == which || !(g_ascii_isalnum(p[-1]) || p[-1] == '_')) &&
		    !(g_ascii_isalnum(p[n]) || p[n] == '_'))
			return true;
	return false;
}

/*
 * --self-test[=CHECKS]: the kernel's script's checks of ./MAINTAINERS,
 * against `git ls-files` of the work tree; its links and scm checks run
 * wget and git ls-remote as it does.
 */
static int self_test(const struct args *a, const struct cli_tree *ct,
		     enum maint_dialect d, int argc)
{
	const char *which = a->op.gm.str[MCC_ARG_SELF_TEST];
	struct mcc_vcs v = { ms_tree_root(ct->tree), false, NULL, "", false,
			     0, false };
	GPtrArray *files, *out;
	char *buf;
	size_t len;
	int rc;

	if (maint_cc_args_check(&a->op.gm, d) < 0)
		return cli_usage_error("maintainers", "%s", ms_error_last());
	if (a->script_words > 1 || argc > 0 || (a->conf && *a->conf))
		return cli_usage_error("maintainers", "using --self-test does "
				       "not allow any other option or argument "
				       "(nor a .get_maintainer.conf)");
	if (a->topts.repo)
		return cli_usage_error("maintainers", "--self-test reads a work "
				       "tree's files: give --tree, not --repo");
	if (ms_tree_read(ct->tree, "MAINTAINERS", &buf, &len) < 0)
		return cli_error_last();
	if (has_vcs(&a->topts, ct->tree, d) == 'g') {
		files = mcc_vcs_ls_files(&v);
	} else {
		/* vcs_list_files() returns 0: no pattern matches "0" */
		cli_warning("no supported VCS found: every F: and X: pattern "
			    "is checked against \"0\", as the script does");
		files = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(files, g_strdup("0"));
	}
	out = g_ptr_array_new_with_free_func(g_free);
	rc = maint_self_test(ct->tree, "./MAINTAINERS", buf, len, files,
			     (selected(which, "sections") ?
			      MAINT_SELF_TEST_SECTIONS : 0) |
			     (selected(which, "patterns") ?
			      MAINT_SELF_TEST_PATTERNS : 0) |
			     (selected(which, "links") ?
			      MAINT_SELF_TEST_LINKS : 0) |
			     (selected(which, "scm") ? MAINT_SELF_TEST_SCM : 0),
			     out);
	for (guint i = 0; rc == 0 && i < out->len; i++)
		printf("%s\n", (char *)out->pdata[i]);
	rc = rc < 0 ? cli_error_last() : EXIT_OK;
	g_ptr_array_free(out, TRUE);
	g_ptr_array_free(files, TRUE);
	g_free(buf);
	return rc;
}

/*
 * In a git work tree: the tree's list taken from the cache directory
 * when it still holds (--find-maintainer-files walks U-Boot's 3,005
 * directories otherwise, tree.h); the directory to keep it in, or NULL.
 */
static char *take_tree_list(struct args *a, struct cli_tree *ct)
{
	char *dir;

	if (a->topts.repo || a->store.no_cache ||
	    has_vcs(&a->topts, ct->tree, MAINT_DIALECT_KERNEL) != 'g')
		return NULL;
	dir = cli_store_dir();
	ms_tree_list_load(ct->tree, dir);
	return dir;
}

int cmd_maintainers(int argc, char **argv)
{
	struct ms_store *store = NULL;
	struct ms_store_vcs *vc = NULL;
	struct ms_blame *blame = NULL;
	struct args a = { 0 };
	struct maint_cc_opts co;
	GArray *inputs;
	struct cc_act *ac = NULL;
	GPtrArray *ccs;
	struct cli_tree ct;
	struct ms_out *o;
	enum maint_dialect d;
	char *conf_error = NULL;
	char *list_dir = NULL;
	bool roles;
	int rc, conf_rc;

	rc = parse_args(&a, &argc, &argv);
	if (rc == CLI_CONTINUE)
		rc = check_args(&a, argc);
	if (rc != CLI_CONTINUE)
		goto done;
	rc = cli_tree_open_dir("maintainers", &a.topts, NULL, &ct);
	if (rc != CLI_CONTINUE)
		goto done;
	ms_tree_no_facts(ct.tree);      /* no result is kept */
	d = maint_cc_tree_dialect(ct.tree, asked_dialect(&a.op));
	conf_rc = maint_cc_args_conf(&a.op.gm, ct.tree, &a.conf);
	conf_error = conf_rc < 0 ? g_strdup(ms_error_last()) : NULL;
	if (a.op.gm.given[MCC_ARG_SELF_TEST]) {
		rc = conf_rc < 0 ? cli_usage_error("maintainers", "%s",
						   conf_error) :
		     self_test(&a, &ct, d, argc);
		cli_tree_close(&ct);
		goto done;
	}
	list_dir = take_tree_list(&a, &ct);
	rc = cli_tree_load(&a.topts, &ct);
	if (rc != CLI_CONTINUE)
		goto done;
	ms_tree_list_save(ct.tree, list_dir);
	if (conf_rc < 0)
		rc = cli_usage_error("maintainers", "%s", conf_error);
	else
		rc = cc_opts(&co, &a, ct.tree, d,
			     has_vcs(&a.topts, ct.tree, d));
	if (a.op.gm.given[MCC_ARG_FILE])
		a.op.paths = !a.op.patches;
	if (rc == CLI_CONTINUE)
		rc = reload_qemu(&ct, &a.topts, d, a.op.activity);
	if (rc != CLI_CONTINUE) {
		cli_tree_close(&ct);
		goto done;
	}
	roles = a.op.roles;
	if (a.op.activity) {
		struct cc_act_args aa = { &a.topts, &a.store,
					  a.op.inactive_after, &a.op.archives,
					  a.op.active_only };

		rc = cc_act_load(&aa, &ac);
		if (rc != CLI_CONTINUE) {
			cli_tree_close(&ct);
			goto done;
		}
	}
	inputs = g_array_new(FALSE, FALSE, sizeof(struct input));
	g_array_set_clear_func(inputs, input_clear);
	if (!read_inputs(inputs, &ct, &a.op, argc, argv)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	/* standard input cannot be read twice: with '-' the quick program
	 * runs git itself */
	if (open_blame(&co, argc, argv, inputs, &blame)) {
		rc = CLI_RUN_FULL;
		goto out;
	}
	if (!cli_quick_program || (!reads_stdin(argc, argv) &&
				   needs_git(&ct, &co, inputs)))
		open_vcs_cache(&a, &co, &store, &vc);
	ccs = look_up_all(&ct, &co, inputs, a.op.each);
	if (!ccs) {
		rc = CLI_RUN_FULL;
		goto out;
	}
	o = ms_out_new(a.op.json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	if (a.op.each)
		answer_each(o, ccs, inputs, &a.op, roles, ac);
	else
		answer_all(o, ccs->pdata[0], &a.op, roles, ac);
	g_ptr_array_free(ccs, TRUE);
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	g_array_free(inputs, TRUE);
	ms_store_vcs_free(vc);
	ms_blame_free(blame);
	cc_act_free(ac);
	cli_tree_close(&ct);
done:
	g_free(list_dir);
	ms_store_free(store);
	if (a.argv)
		g_ptr_array_free(a.argv, TRUE);
	g_strfreev(a.conf);
	g_free(conf_error);
	return rc;
}
