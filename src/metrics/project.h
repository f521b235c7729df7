/*
 * project.h - one project, opened once: its tree and MAINTAINERS, who is
 * who (the identity model), the store, the history model and the list's
 * messages.  Each part is loaded when first asked for, and only once, so
 * that every command loads a project the same way and a new command
 * reuses the loading of the others.
 */
#ifndef MS_PROJECT_H
#define MS_PROJECT_H

#include "error.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

struct maint_file;
struct maint_index;
struct ms_activity;
struct ms_ident;
struct ms_link_mail;
struct ms_link_people_src;
struct ms_mail_index;
struct ms_git_graph;
struct ms_store;
struct ms_tree;

/*
 * What to open.  Declare with MS_PROJECT_OPTIONS_INIT, which holds every
 * default, then set what the command line says.  Strings are borrowed
 * until ms_project_free().
 */
struct ms_project_options {
	/* the repository (history, and the tree of `rev`), or NULL: the
	 * tree is the directory `tree_dir` and there is no history */
	const char *gitdir;
	const char *rev;              /* NULL: HEAD */
	const char *tree_dir;         /* without gitdir */
	/* MAINTAINERS files on disk read instead of the tree's, and every
	 * * /MAINTAINERS of the tree too (maint_load_opts) */
	const char *const *maintainers;
	size_t nr_maintainers;
	bool find_maintainer_files;
	/* the tree's blob ids kept (ms_tree_blobs_take()), or NULL */
	GBytes *tree_blobs;
	/* who is who besides the tree's .mailmap: a gitdm aliases file and
	 * more .mailmap files (paths, read once by ms_project_open()) */
	const char *aliases;
	const char *const *mailmaps;
	size_t nr_mailmaps;
	bool no_name_join;            /* no join by equal display names */
	bool no_plus_fold;            /* keep user+tag@ apart from user@ */
	/* the history model: merge commits counted, last addresses noted
	 * (ms_activity_load_opts) */
	bool merges;
	bool last_addresses;
	/* keep each walked commit's paths (ms_activity_walked_paths()) */
	bool keep_paths;
	/* commits taken in so far while the history loads (may be NULL) */
	void (*progress)(size_t commits, void *data);
	void *progress_data;
};

#define MS_PROJECT_OPTIONS_INIT { \
	.gitdir = NULL, .rev = NULL, .tree_dir = ".", \
	.maintainers = NULL, .nr_maintainers = 0, \
	.find_maintainer_files = false, .tree_blobs = NULL, .aliases = NULL, .mailmaps = NULL, \
	.nr_mailmaps = 0, .no_name_join = false, .no_plus_fold = false, \
	.merges = false, .last_addresses = false, .keep_paths = false, \
	.progress = NULL, .progress_data = NULL }

struct ms_project;

/*
 * Open a project: the options are copied and the aliases and mailmap
 * files read (an unreadable one is an error: "cannot read 'F': why").
 * Nothing else is loaded yet.  Returns 0 and *out (ms_project_free), or
 * a negative code.
 */
int ms_project_open(const struct ms_project_options *o,
		    struct ms_project **out);
void ms_project_free(struct ms_project *p);

/* The store (taken; NULL: none), which the history reads and writes. */
void ms_project_set_store(struct ms_project *p, struct ms_store *store);

/*
 * Every input the project reads, for the key of what is computed from
 * them (a command's kept result): `add` is called with a name and the
 * bytes of each, in a fixed order: the --aliases and --mailmap files
 * (their paths, and the bytes ms_project_open() read), the --maintainers
 * files (paths and bytes), and with a repository its path, the revision
 * and a digest of all its references (the history, the revision's tree
 * and its files are git objects, which never change).  A tree read from
 * a directory is not keyed: what a run asked of it are the tree's facts
 * (tree.h, ms_tree_facts()), checked before its result is reused.
 * Returns 0, or a negative code when an input cannot be read.
 */
int ms_project_inputs(struct ms_project *p,
		      void (*add)(const char *what, const void *bytes,
				  size_t len, void *data),
		      void *data);

/* The options it was opened with (borrowed). */
const struct ms_project_options *
ms_project_options(const struct ms_project *p);

/*
 * The tree (a directory, or the revision of the repository) with its
 * MAINTAINERS and their matching index, all borrowed.  Problems with the
 * input go to `diags`.  Returns 0, or a negative code (MS_ENOTFOUND: no
 * MAINTAINERS); a failure is remembered and returned again.
 */
int ms_project_tree(struct ms_project *p, const struct ms_tree **tree,
		    const struct maint_file **mf,
		    const struct maint_index **idx, struct ms_diags *diags);

/*
 * Problems found late: files a lazy walk of the tree could not read, and
 * what a caller adds (borrowed, to append to).  ms_project_late_diags()
 * adds the index's warnings and moves them all to `diags`: ask for them
 * before ms_project_free().
 */
struct ms_diags *ms_project_late(struct ms_project *p);
void ms_project_late_diags(struct ms_project *p, struct ms_diags *diags);

/*
 * The list's messages, read by the caller (taken; NULL: none): their
 * senders join people in every identity model built afterwards.
 */
void ms_project_set_mail(struct ms_project *p, struct ms_link_mail *lm);
/* The same with only their index, borrowed until ms_project_free(). */
void ms_project_set_mail_index(struct ms_project *p,
			       const struct ms_mail_index *idx);
/* The messages (borrowed), or NULL. */
struct ms_link_mail *ms_project_mail(const struct ms_project *p);

/*
 * The history model of the repository (borrowed): ms_activity_load()
 * with the options above and the messages set so far.  Needs a gitdir.
 * Returns 0, or a negative code after the first failure too.
 */
int ms_project_history(struct ms_project *p, struct ms_activity **out,
		       struct ms_diags *diags);

/* The repository's objects (git-graph.h; borrowed, not thread-safe),
 * opened on first use; NULL without a gitdir or when it cannot be
 * opened (review's pre-image rule then says nothing). */
struct ms_git_graph *ms_project_objects(struct ms_project *p);

/*
 * Who is who (borrowed, not thread-safe), built one way for every
 * command: with a repository, the history model's (its revision's
 * .mailmap, the mailmap and aliases files, plus-folding, MAINTAINERS
 * history, the list's senders, equal names); without, the tree's
 * .mailmap, the mailmap and aliases files, then the list's senders and
 * MAINTAINERS' people (ms_mail_ident_from_list()).  Returns 0 or a
 * negative code.
 */
int ms_project_ident(struct ms_project *p, struct ms_ident **out,
		     struct ms_diags *diags);

/*
 * The same sources for link.h's people model (ms_link_people_new()):
 * the revision's .mailmap, the mailmap and aliases texts, the name join.
 * Borrowed until ms_project_free().
 */
void ms_project_people_src(struct ms_project *p,
			   struct ms_link_people_src *src);

#endif
