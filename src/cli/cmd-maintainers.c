/*
 * cmd-maintainers.c - maintstat maintainers: who to Cc for some paths or
 * patches, byte for byte as scripts/get_maintainer.pl --no-git
 * --no-git-fallback prints it.
 */
#include "cli-cc-activity.h"
#include "cli.h"
#include "commands.h"
#include "maint-cc.h"
#include "maintainers.h"
#include "output.h"
#include "tree.h"

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
	"that of scripts/get_maintainer.pl --no-git --no-git-fallback, and the\n"
	"switches below are its own.  An argument naming a file or directory\n"
	"of the tree is a path, any other existing file a patch; '-' reads\n"
	"paths (one a line) or a patch from standard input.",
	"  maintstat maintainers --tree ~/linux drivers/infiniband/core/cma.c\n"
	"  git format-patch -1 --stdout | maintstat maintainers -",
};

struct opts {
	bool no_email, no_m, no_r, no_l, no_moderated, s, no_n;
	bool no_rolestats, roles, no_remove_duplicates, no_mailmap;
	bool no_keywords, file_emails, chief_penguins, no_multiline;
	bool scm, status, subsystem, web, paths, patches, json, each;
	bool to_cc, activity, active_only;
	const char *inactive_after;
	const char *separator;
	const char *dialect;
	struct cli_strings archives;
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
			GError *err = NULL;
			char *buf;
			gsize len;

			if (!g_file_test(arg, G_FILE_TEST_IS_REGULAR)) {
				cli_error("'%s' is neither a path of '%s' nor "
					  "a patch file", arg,
					  ms_tree_root(ct->tree));
				ok = false;
				continue;
			}
			if (!g_file_get_contents(arg, &buf, &len, &err)) {
				cli_error("cannot read '%s': %s", arg,
					  err->message);
				g_error_free(err);
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

	for (guint i = from; i < to; i++) {
		struct input *in = &g_array_index(inputs, struct input, i);

		if (in->path)
			maint_cc_add_path(cc, in->path);
		else if (!maint_cc_add_patch(cc, in->patch, in->len))
			cli_warning("file '%s' doesn't appear to be a patch",
				    in->name);
	}
	maint_cc_run(cc, &diags);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	return cc;
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
 * git send-email arguments, one a line, quoted for the shell: --to for
 * maintainers (and supporters, odd fixers...: every M:), --cc for
 * reviewers, lists and addresses found in files.
 */
static char *answer_to_cc(const struct maint_cc *cc)
{
	GString *out = g_string_new(NULL);

	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++) {
		const struct maint_cc_line *l = maint_cc_line(cc, i);
		char *a = cli_send_email_arg(l->kind == 'M' ? "--to" : "--cc",
					 l->email);

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
	bool multiline = !op->no_multiline &&
			 (!op->separator || !strcmp(op->separator, ", "));
	const char *sep = op->separator ? op->separator : ", ";
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
				l->kind == 'M' ? "--to" : "--cc", l->email));
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
	static const char *const keys[] = { "subsystem", "status", "scm",
					    "web" };

	ms_out_kv_string(o, "text", text);
	g_free(text);
	ms_out_key(o, "files");
	ms_out_begin_list(o);
	for (size_t i = 0; i < maint_cc_nr_files(cc); i++)
		ms_out_string(o, maint_cc_file(cc, i));
	ms_out_end_list(o);
	ms_out_key(o, "cc");
	ms_out_begin_list(o);
	for (size_t i = 0; i < maint_cc_nr_lines(cc); i++) {
		const struct maint_cc_line *l = maint_cc_line(cc, i);

		ms_out_begin_object(o);
		ms_out_kv_string(o, "email", l->email);
		ms_out_kv_string(o, "name", *l->name ? l->name : NULL);
		ms_out_kv_string(o, "address", l->address);
		ms_out_kv_string(o, "kind", kind_name(l->kind));
		ms_out_kv_string(o, "role", l->role);
		ms_out_kv_string(o, "entry", l->entry ? l->entry->name : NULL);
		if (ac && (l->kind == 'M' || l->kind == 'R'))
			cc_act_json(o, ac, l);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_key(o, "entries");
	ms_out_begin_list(o);
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
		ms_out_key(o, keys[k]);
		ms_out_begin_list(o);
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
};

/* Parse the options into `a`: CLI_CONTINUE or the exit code. */
static int parse_args(struct args *a, int *argc, char ***argv)
{
	struct opts *op = &a->op;
	const struct cli_option opts[] = {
		CLI_TREE_OPTIONS(&a->topts),
		{ CLI_OPT_FLAG, "paths", 'f', &op->paths, NULL,
		  "every argument is a path of the tree "
		  "(get_maintainer.pl -f)" },
		{ CLI_OPT_FLAG, "patches", 0, &op->patches, NULL,
		  "every argument is a patch file" },
		{ CLI_OPT_FLAG, "no-email", 0, &op->no_email, NULL,
		  "no people, only lists (and --scm, --status, ...)" },
		{ CLI_OPT_FLAG, "no-m", 0, &op->no_m, NULL,
		  "leave out maintainers" },
		{ CLI_OPT_FLAG, "no-r", 0, &op->no_r, NULL,
		  "leave out reviewers" },
		{ CLI_OPT_FLAG, "no-l", 0, &op->no_l, NULL,
		  "leave out mailing lists" },
		{ CLI_OPT_FLAG, "no-moderated", 0, &op->no_moderated, NULL,
		  "leave out moderated lists" },
		{ CLI_OPT_FLAG, "s", 0, &op->s, NULL,
		  "include subscribers-only lists" },
		{ CLI_OPT_FLAG, "no-n", 0, &op->no_n, NULL,
		  "addresses without names" },
		{ CLI_OPT_FLAG, "no-rolestats", 0, &op->no_rolestats, NULL,
		  "no '(maintainer:ENTRY)' after each address" },
		{ CLI_OPT_FLAG, "roles", 0, &op->roles, NULL,
		  "with --no-rolestats: print the roles all the same" },
		{ CLI_OPT_FLAG, "no-remove-duplicates", 0,
		  &op->no_remove_duplicates, NULL,
		  "keep people listed under several names or addresses" },
		{ CLI_OPT_FLAG, "no-mailmap", 0, &op->no_mailmap, NULL,
		  "ignore the tree's .mailmap" },
		{ CLI_OPT_FLAG, "no-keywords", 0, &op->no_keywords, NULL,
		  "ignore K: patterns" },
		{ CLI_OPT_FLAG, "file-emails", 0, &op->file_emails, NULL,
		  "add the addresses found in each file (always for .yaml)" },
		{ CLI_OPT_STRING, "dialect", 0, &op->dialect, "NAME",
		  "answer as this project's get_maintainer.pl: kernel or qemu "
		  "(default: as the tree's scripts/get_maintainer.pl)" },
		{ CLI_OPT_FLAG, "git-chief-penguins", 0, &op->chief_penguins,
		  NULL, "keep Linus Torvalds" },
		{ CLI_OPT_STRING, "separator", 0, &op->separator, "SEP",
		  "one line, addresses joined by SEP (default: one a line)" },
		{ CLI_OPT_FLAG, "no-multiline", 0, &op->no_multiline, NULL,
		  "one line, addresses joined by ', '" },
		{ CLI_OPT_FLAG, "scm", 0, &op->scm, NULL,
		  "also print the T: trees" },
		{ CLI_OPT_FLAG, "status", 0, &op->status, NULL,
		  "also print the S: statuses" },
		{ CLI_OPT_FLAG, "subsystem", 0, &op->subsystem, NULL,
		  "also print the entry names" },
		{ CLI_OPT_FLAG, "web", 0, &op->web, NULL,
		  "also print the W: pages" },
		{ CLI_OPT_FLAG, "to-cc", 0, &op->to_cc, NULL,
		  "print git send-email arguments: --to for maintainers, "
		  "--cc for the rest" },
		{ CLI_OPT_FLAG, "activity", 0, &op->activity, NULL,
		  "with --repo: mark inactive people from the history and "
		  "add the entries' de-facto reviewers; with --archive: "
		  "each person's list replies (--archive alone: those only)" },
		{ CLI_OPT_FLAG, "active-only", 0, &op->active_only, NULL,
		  "with --activity: leave out the people marked inactive" },
		{ CLI_OPT_STRING, "inactive-after", 0, &op->inactive_after,
		  "DURATION|DATE", "with --activity: nothing in the entry since "
		  "then is inactive (default 5y)" },
		{ CLI_OPT_STRING_LIST, "archive", 0, &op->archives, "PATH",
		  "with --activity: a list archive (mbox, public-inbox; "
		  "repeatable): each person's replies to the entry's patches "
		  "and their median time to a first reply" },
		CLI_STORE_OPTIONS(&a->store),
		{ CLI_OPT_FLAG, "each", 0, &op->each, NULL,
		  "answer for each argument (each path of '-') on its own, "
		  "as separate runs would" },
		CLI_OPT_JSON(&op->json),
		CLI_OPTION_END,
	};

	return cli_parse_options(argc, argv, opts, &help);
}

/* get_maintainer.pl's switches from ours: CLI_CONTINUE or exit 2. */
static int cc_opts(struct maint_cc_opts *co, const struct args *a, int argc)
{
	const struct opts *op = &a->op;

	if (argc < 1)
		return cli_usage_error("maintainers", "no PATH or PATCH given "
				       "('-' reads standard input)");
	if (op->paths && op->patches)
		return cli_usage_error("maintainers", "--paths and --patches "
				       "exclude each other");
	maint_cc_opts_init(co);
	co->email = !op->no_email;
	co->maintainer = !op->no_m;
	co->reviewer = !op->no_r;
	co->list = !op->no_l;
	co->moderated = !op->no_moderated;
	co->subscriber = op->s;
	co->usename = !op->no_n;
	co->remove_duplicates = !op->no_remove_duplicates;
	co->mailmap = !op->no_mailmap;
	co->keywords = !op->no_keywords;
	co->file_emails = op->file_emails;
	co->chief_penguins = op->chief_penguins;
	if (!op->dialect)
		co->dialect = MAINT_DIALECT_AUTO;
	else if (!strcmp(op->dialect, "kernel"))
		co->dialect = MAINT_DIALECT_KERNEL;
	else if (!strcmp(op->dialect, "qemu"))
		co->dialect = MAINT_DIALECT_QEMU;
	else
		return cli_usage_error("maintainers", "--dialect takes kernel "
				       "or qemu, not '%s'", op->dialect);
	if (!co->email && !op->scm && !op->status && !op->subsystem &&
	    !op->web)
		return cli_usage_error("maintainers", "--no-email needs one of "
				       "--scm, --status, --subsystem, --web");
	if (co->email && !co->maintainer && !co->reviewer && !co->list &&
	    !co->subscriber && !co->chief_penguins)
		return cli_usage_error("maintainers", "--no-m, --no-r and "
				       "--no-l leave nothing to print");
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
	return CLI_CONTINUE;
}

/* --each: one answer per input, as separate runs would give. */
static void answer_each(struct ms_out *o, const struct cli_tree *ct,
			const struct maint_cc_opts *co, GArray *inputs,
			const struct opts *op, bool roles, struct cc_act *ac)
{
	if (op->json) {
		ms_out_key(o, "answers");
		ms_out_begin_list(o);
	}
	for (guint i = 0; i < inputs->len; i++) {
		struct input *in = &g_array_index(inputs, struct input, i);
		struct maint_cc *cc = look_up(ct, co, inputs, i, i + 1);

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
		maint_cc_free(cc);
	}
}

/* All inputs together, as one get_maintainer.pl run. */
static void answer_all(struct ms_out *o, const struct cli_tree *ct,
		       const struct maint_cc_opts *co, GArray *inputs,
		       const struct opts *op, bool roles, struct cc_act *ac)
{
	struct maint_cc *cc = look_up(ct, co, inputs, 0, inputs->len);

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
	maint_cc_free(cc);
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
		       const struct maint_cc_opts *co, bool activity)
{
	struct maint_load_opts lo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf = NULL;
	struct maint_index *idx = NULL;
	int rc;

	if (maint_cc_tree_dialect(ct->tree, co->dialect) != MAINT_DIALECT_QEMU)
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

int cmd_maintainers(int argc, char **argv)
{
	struct args a = { 0 };
	struct maint_cc_opts co;
	GArray *inputs;
	struct cc_act *ac = NULL;
	struct cli_tree ct;
	struct ms_out *o;
	bool roles;
	int rc;

	rc = parse_args(&a, &argc, &argv);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cc_opts(&co, &a, argc);
	if (rc != CLI_CONTINUE)
		return rc;
	roles = !a.op.no_rolestats || a.op.roles;
	rc = cli_tree_open("maintainers", &a.topts, NULL, &ct);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = reload_qemu(&ct, &a.topts, &co, a.op.activity);
	if (rc != CLI_CONTINUE) {
		cli_tree_close(&ct);
		return rc;
	}
	if (a.op.activity) {
		struct cc_act_args aa = { &a.topts, &a.store,
					  a.op.inactive_after, &a.op.archives,
					  a.op.active_only };

		rc = cc_act_load(&aa, &ac);
		if (rc != CLI_CONTINUE) {
			cli_tree_close(&ct);
			return rc;
		}
	}
	inputs = g_array_new(FALSE, FALSE, sizeof(struct input));
	g_array_set_clear_func(inputs, input_clear);
	if (!read_inputs(inputs, &ct, &a.op, argc, argv)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	o = ms_out_new(a.op.json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	if (a.op.each)
		answer_each(o, &ct, &co, inputs, &a.op, roles, ac);
	else
		answer_all(o, &ct, &co, inputs, &a.op, roles, ac);
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	g_array_free(inputs, TRUE);
	cc_act_free(ac);
	cli_tree_close(&ct);
	return rc;
}
