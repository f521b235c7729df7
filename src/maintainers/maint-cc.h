/*
 * maint-cc.h - who to Cc for a set of paths or patches, exactly as
 * scripts/get_maintainer.pl --no-git --no-git-fallback answers.
 *
 * A struct maint_cc collects the files (paths given as they are, or the
 * files a patch touches) and the K: keywords found, then computes, the way
 * get_maintainer.pl does, the people and lists of the matching entries:
 * roles from S:, lists by kind (open, moderated, subscribers-only), the
 * .mailmap and de-duplication by name and address, the chief penguin of
 * the tree's own get_maintainer.pl (Linus; U-Boot's Tom Rini) dropped
 * unless asked for, addresses found in .yaml files ("in file"), THE REST.
 *
 * --git and the git fallback run the script's `git log` per file
 * (maint-cc-vcs.h); --git-blame and Fixes: signers are left out.
 *
 * Ownership: everything returned by a getter is borrowed from the
 * maint_cc and valid until maint_cc_free().
 */
#ifndef MS_MAINT_CC_H
#define MS_MAINT_CC_H

#include "error.h"

#include <glib.h>

#include <stdbool.h>
#include <stddef.h>

struct maint_entry;
struct maint_file;
struct maint_index;
struct ms_tree;

/*
 * Whose get_maintainer.pl to answer as.  QEMU's (a fork of the kernel's
 * of about 2010) names an entry by the line right above its fields, so by
 * the "-----" under a title, and cuts names at 20 characters (17 and
 * "...", the kernel's at 50); it never prints the addresses of the tree's
 * .ignoredmailmap; it names a patch's files by its "+++" lines only; it
 * reads addresses in files only for paths, with --file-emails, unmapped;
 * and a P: names the bare M:/R: address under it.  Its MAINTAINERS syntax
 * (any field letter, '#' lines as titles) is the maint_file's to read
 * (maint_load_opts.qemu_syntax).  AUTO reads the tree's
 * scripts/get_maintainer.pl ("a QEMU source tree"); the kernel's
 * otherwise.
 *
 * Xen's fork (version "0.26-xen") also cuts names at 20 characters; its
 * reviewers' role is a bare "reviewer"; an L: value is read as an
 * address ("Team <list@x>" is list@x) and is never moderated; it reads
 * addresses in files as QEMU's does; a Fixes: line is text like any
 * other; and, with --drop_the_rest_supporter (on by default), THE REST's
 * supporters are dropped when some other M: matched and no file is THE
 * REST's alone.  Its defaults differ too (maint-cc-args.h): no role
 * statistics, duplicates kept, no git fallback.
 * docs/get-maintainer-dialects.md says what was measured.
 */
enum maint_dialect {
	MAINT_DIALECT_AUTO,
	MAINT_DIALECT_KERNEL,
	MAINT_DIALECT_QEMU,
	MAINT_DIALECT_XEN,
};

/* get_maintainer.pl's switches; maint_cc_opts_init() sets its defaults. */
struct maint_cc_opts {
	bool email;             /* --email: people at all */
	bool maintainer;        /* --m */
	bool reviewer;          /* --r */
	bool list;              /* --l */
	bool moderated;         /* --moderated */
	bool subscriber;        /* --s (off by default) */
	bool usename;           /* --n: "Name <addr>" rather than "addr" */
	bool remove_duplicates; /* --remove-duplicates */
	bool mailmap;           /* --mailmap: the tree's .mailmap */
	bool keywords;          /* --keywords: K: patterns */
	bool file_emails;       /* --file-emails (.yaml files always) */
	bool chief_penguins;    /* --git-chief-penguins: keep Linus */
	bool drop_the_rest_supporter; /* Xen's: see MAINT_DIALECT_XEN */
	enum maint_dialect dialect;
	/*
	 * The git options, the kernel's script's vcs_file_signoffs() (its
	 * U-Boot copy's too): with `git`, each file's recent signers and
	 * authors ("commit_signer:5/12=42%"); with `git_fallback`, only for
	 * the files no maintained entry with a maintainer matches at their
	 * depth.  Both need `vcs_dir`: without a VCS the script adds nobody.
	 */
	bool git;               /* --git */
	bool git_fallback;      /* --git-fallback */
	bool git_all_signature_types; /* any "*-by:" line */
	bool fixes;             /* --fixes: the signers of the commits a
				 * patch's Fixes: lines name */
	bool git_blame;         /* --git-blame: signers of the commits
				 * that last changed the patch's lines */
	bool git_blame_signatures; /* --git-blame-signatures */
	bool from_filename;     /* -f: the inputs are files, not patches */
	bool rolestats;         /* --rolestats: the roles' figures */
	long git_min_signatures, git_max_maintainers, git_min_percent;
	const char *git_since;  /* --git-since, as given */
	const char *vcs_dir;    /* where the script would run git, or NULL */
	bool vcs_bare;          /* vcs_dir is a repository, not a work tree */
	const char *vcs_rev;    /* the revision answered for; NULL: HEAD */
	/* Where a file's git log lines come from (maint-cc-vcs.h): NULL
	 * runs git; store.h's ms_store_vcs_log() keeps them. */
	GPtrArray *(*vcs_log)(const char *file, void *data);
	void *vcs_log_data;
	/* Where --git-blame's commits come from: git-blame.h's
	 * ms_blame_lines(), or git (NULL, or where it returns NULL). */
	GPtrArray *(*vcs_blame)(const char *file, const char *start,
				const char *length, void *data);
	void *vcs_blame_data;
	/* Where mcc_vcs_commit_log()'s git output comes from: git-blame.h's
	 * ms_blame_commit_log() with vcs_blame_data (without the numstat
	 * lines, which no grep of a commit's log takes), or git (NULL, or
	 * where it returns NULL). */
	char *(*vcs_commit_log)(const char *id, bool body, bool stat,
				void *data);
};

void maint_cc_opts_init(struct maint_cc_opts *o);

/* One line of the answer, in get_maintainer.pl's order. */
struct maint_cc_line {
	char *email;       /* as printed: "Name <addr>", "addr", a list */
	char *name;        /* parsed from `email` ("" when none); quoted as
			    * get_maintainer.pl quotes it */
	char *address;
	char *role;        /* "maintainer:ENTRY", "open list:ENTRY", ... */
	char kind;         /* 'M' maintainer, 'R' reviewer, 'L' list,
			    * 'F' found in a file, 'G' from git (--git) */
	const struct maint_entry *entry; /* whose field it came from; NULL
					  * for 'F' */
};

/* Whether line `l` is a listed person of its entry (M: or R:), the
 * people verdicts are about. */
bool maint_cc_line_listed(const struct maint_cc_line *l);

struct maint_cc;

/*
 * A new query over `mf` as matched by `idx` in `tree` (all borrowed for
 * the life of the maint_cc).  Reads the tree's .mailmap when o->mailmap.
 * Never fails.
 */
struct maint_cc *maint_cc_new(const struct maint_file *mf,
			      const struct maint_index *idx,
			      const struct ms_tree *tree,
			      const struct maint_cc_opts *o);
/*
 * The dialect a maint_cc over `tree` answers in when `asked` for: `asked`
 * itself, or for MAINT_DIALECT_AUTO the one of the tree's own
 * scripts/get_maintainer.pl.  A QEMU answer needs the MAINTAINERS files
 * read in QEMU's syntax (maint_load_opts.qemu_syntax).
 */
enum maint_dialect maint_cc_tree_dialect(const struct ms_tree *tree,
					 enum maint_dialect asked);
void maint_cc_free(struct maint_cc *cc);

/*
 * Add a path of the tree (get_maintainer.pl -f): `path` is already in
 * canonical form, a directory with a trailing slash.  With keywords, a
 * file of the tree is searched for K: patterns.
 */
void maint_cc_add_path(struct maint_cc *cc, const char *path);

/*
 * Add a patch or a mailbox of patches (`len` bytes of `buf`): the files
 * its diff headers name and the K: patterns of its text, as
 * get_maintainer.pl reads a patch.  Returns how many file names it had
 * (0: it does not look like a patch).
 */
size_t maint_cc_add_patch(struct maint_cc *cc, const char *buf, size_t len);

/*
 * Compute the answer from everything added.  Problems that
 * get_maintainer.pl warns about (an address it cannot parse) go to
 * `diags`.  Call once.
 */
void maint_cc_run(struct maint_cc *cc, struct ms_diags *diags);

/* The answer: people (if o->email) then lists (if o->list), merged. */
size_t maint_cc_nr_lines(const struct maint_cc *cc);
const struct maint_cc_line *maint_cc_line(const struct maint_cc *cc,
					  size_t i);

/* The files looked up, in get_maintainer.pl's order. */
size_t maint_cc_nr_files(const struct maint_cc *cc);
const char *maint_cc_file(const struct maint_cc *cc, size_t i);

/*
 * get_maintainer.pl's --subsystem, --status, --scm and --web answers:
 * 'N' entry names, 'S' S: values, 'T' T: values, 'W' W: values, each
 * without repeats, in the order the entries were met.
 */
size_t maint_cc_nr_values(const struct maint_cc *cc, char what);
const char *maint_cc_value(const struct maint_cc *cc, char what, size_t i);

/* The entries met, without repeats, in the order they were met. */
size_t maint_cc_nr_entries(const struct maint_cc *cc);
const struct maint_entry *maint_cc_entry(const struct maint_cc *cc,
					 size_t i);

/*
 * get_maintainer.pl's parse_email(): split "Name <addr>" into name and
 * address, quoting a name that has characters other than letters, digits,
 * '_', ' ' and '-'.  New strings (g_free them), "" when absent.
 */
void maint_cc_parse_email(const char *s, char **name, char **address);

/* The checks of get_maintainer.pl --self-test, for maint_self_test(). */
enum {
	MAINT_SELF_TEST_SECTIONS = 1,
	MAINT_SELF_TEST_PATTERNS = 2,
	MAINT_SELF_TEST_LINKS = 4,
	MAINT_SELF_TEST_SCM = 8,
};

/*
 * get_maintainer.pl --self-test on the MAINTAINERS file `buf` (`len`
 * bytes) named `name` (the script's "./MAINTAINERS"), the checks
 * `checks` (MAINT_SELF_TEST_*): each warning line its self_test()
 * prints, without the newline, appended to `out` (new strings), in its
 * order.  "sections": a header (a line of two characters or more, the
 * second no ':', followed by a field) that begins an earlier one, or
 * whose fields have no M:, R: or L: (unless its S: says orphan or
 * obsolete), no S:, no F: or N:.  "patterns": an F: or X: whose regex, a
 * directory's with a '/' added, matches the start of none of `lsfiles`
 * (git ls-files).  "links": a W:, Q: or B: http(s) link that the
 * script's `wget --spider` (run here as it runs it) does not reach;
 * "scm": a T: that is malformed, or whose `git ls-remote --exit-code -h`
 * (a git tree) or `wget --spider` (quilt, hg over http) fails, each run
 * in the top of `t` (which is the network: the commands are the
 * script's, without its shell).  -1 when a pattern is no regex (the
 * script dies there).
 */
int maint_self_test(const struct ms_tree *t, const char *name,
		    const char *buf, size_t len, GPtrArray *lsfiles,
		    unsigned checks, GPtrArray *out);

#endif
