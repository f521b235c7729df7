/*
 * cli-review.h - what `link` and `review` share on the CLI side: the
 * repository, archive and window options, and loading the mail and commit
 * models (link.h).
 */
#ifndef MS_CLI_REVIEW_H
#define MS_CLI_REVIEW_H

#include "cli-activity.h"
#include "link.h"
#include "verdict.h"

struct ms_review_map;

#include <stdint.h>
#include <stdio.h>

/* The options of the commands over archives, into a struct cli_act_opts
 * (cli-activity.h). */
#define CLI_REV_OPTIONS(o) \
	{ CLI_OPT_STRING, "repo", 0, &(o)->repo, "GITDIR", CLI_REPO_HELP }, \
	{ CLI_OPT_STRING, "rev", 0, &(o)->rev, "REV", \
	  "walk history from here (default HEAD)" }, \
	CLI_OPT_ARCHIVE(&(o)->archives, "a list archive: mbox (.gz), " \
			"directory, public-inbox (repeatable)"), \
	{ CLI_OPT_STRING, "since", 0, &(o)->since, "WHEN", \
	  "start of the window: a date, a duration back from now (1y, " \
	  "'6 months ago'), or REV for the commits not reachable from it " \
	  "(REV..) (default: no start)" }, \
	{ CLI_OPT_STRING, "until", 0, &(o)->until, "WHEN", \
	  "end of the window: a date, a duration or a revision's date " \
	  "(default: no end)" }, \
	CLI_STORE_OPTIONS(&(o)->store)

/*
 * Work out the window from --since and --until (dates or revisions of
 * --repo); unset ends are 0 and INT64_MAX.  Returns CLI_CONTINUE or an
 * exit code after printing the error.
 */
int cli_rev_window(const char *cmd, const struct cli_act_opts *o,
		   int64_t *since, int64_t *until);

/*
 * The first line of a text report over archives: their paths, how many
 * messages they hold and the dates those span ("Archives: a.mbox (1,234
 * messages, 2023-01-02 to 2023-12-30)").
 */
void cli_rev_print_archives(FILE *fp, const struct cli_act_opts *o,
			    const struct ms_mail_index *idx);

/* Read the archives (printing a capped list of input problems). */
int cli_rev_load_mail(const char *cmd, const struct cli_act_opts *o,
		      unsigned parse_flags, ms_link_mail_hook hook,
		      void *hook_data, struct ms_link_mail **out);

/*
 * Both at once: the history is walked on a thread of its own while the
 * archives are read (each with its own connection to the store), which
 * halves a warm run's loading on two cores.  Diagnostics and errors are
 * printed as a walk of the history and then cli_rev_load_mail() would
 * (the first error only); on failure *commits and *lm are NULL.  Without
 * --repo, only the mail is read and *commits is NULL.
 */
int cli_rev_load(const char *cmd, const struct cli_act_opts *o,
		 int64_t since, int64_t until, unsigned parse_flags,
		 ms_link_mail_hook hook, void *hook_data,
		 GPtrArray **commits, struct ms_link_mail **lm);

/* Link `commits` to the messages of `lm` through the repository's store
 * (link-cache.h): links computed before against the same messages are
 * reused.  *out as ms_link_run()'s. */
int cli_rev_link(const struct cli_act_opts *o, const struct ms_link_mail *lm,
		 const GPtrArray *commits, const struct ms_link_opts *lo,
		 struct ms_link_result **out);

/*
 * cli_rev_link() in two halves, so that a report prints while the links
 * are written to the store (link-cache.h, ms_link_run_stored_begin()):
 * *out as soon as the links are computed; cli_rev_link_end() waits for
 * the writing and returns CLI_CONTINUE, or reports the store's error and
 * returns the exit code.  When _begin() returns CLI_CONTINUE, _end() must
 * be called (once), before `lm`, `commits` or *out are freed.
 */
struct cli_rev_linking;
int cli_rev_link_begin(const struct cli_act_opts *o,
		       const struct ms_link_mail *lm,
		       const GPtrArray *commits,
		       const struct ms_link_opts *lo,
		       struct ms_link_result **out,
		       struct cli_rev_linking **pending);
int cli_rev_link_end(struct cli_rev_linking *pending);

/*
 * `review` with another writer than its own (the `report` command's
 * site), defined in cmd-review.c: the options and the computation of
 * `maintstat review`, then the caller's `sink` with what was computed
 * (borrowed for the call), whose return is the exit code.
 */
struct ms_review;
struct ms_review_opts;
struct ms_activity;
struct ms_project;

/* Who counts as seen in git: in history `act` up to `until`. */
struct cli_git_seen {
	const struct ms_activity *act;
	int64_t until;
};

/*
 * What review options `rvo` take from history `act` of project `proj`:
 * people resolve through its identities; an address counts as seen in
 * git as `seen` says (seen->act set to `act`, its `until` the caller's;
 * kept by the caller until the review is computed); a patch to a path the
 * history once had (*paths, a new array to g_ptr_array_unref() after the
 * review), or made against its blobs, is the project's.
 */
void cli_review_history(struct ms_review_opts *rvo, struct ms_activity *act,
			struct ms_project *proj, struct cli_git_seen *seen,
			GPtrArray **paths);
struct ms_rv_person;
struct ms_mail_index;
struct ms_act_entry;
struct ms_out;
struct ms_ident;
struct cli_review_view {
	const struct ms_review *rv;
	const struct ms_mail_index *idx;
	const GPtrArray *commits;        /* NULL without --repo */
	struct ms_act_entry *const *act; /* per rv entry (or NULL) */
	const char *list_url;            /* NULL when unknown */
	int64_t target;                  /* seconds */
	const char *by;                  /* --by, or NULL */
	const GPtrArray *labels;   /* release names per interval, or NULL */
	int64_t since, until;
	int64_t inactive_since;    /* with --repo: the git cutoff, else 0 */
	int64_t ignore_after;            /* seconds */
	long limit;                      /* --limit */
	struct ms_activity *act_model;   /* the history's model, or NULL */
	/* With --by: the same review by quarter (entries in rv's order),
	 * else NULL. */
	const struct ms_review *rv_quarter;
	struct ms_ident *ident;          /* who is who (this thread only) */
	/* what it was computed from: the messages, their map to entries
	 * and review's options (the window, who is who, the tree) */
	const struct ms_link_mail *lm;
	const struct ms_review_map *map;
	const struct ms_review_opts *rvo;
	/* review's options: the repository, archives and store, the
	 * tree's MAINTAINERS, who is who (mailmaps, aliases) */
	const struct cli_act_opts *opts;
};
typedef int (*cli_review_sink)(const struct cli_review_view *v, void *data);
/*
 * A command built on review's loading: its help, its own options (after
 * review's shared ones, in one table: review's --by, --release-tags and
 * --json are not among them), the series it needs (a --by unit), a check
 * of its options after parsing (CLI_CONTINUE or an exit code, after
 * printing why), and the sink.  argv as a command's.
 */
struct cli_review_caller {
	const char *name;            /* the command, for its messages */
	const struct cli_command_help *help;
	const struct cli_option *options;
	const char *by;
	int (*check)(void *data);
	cli_review_sink sink;
	void *data;
	/* the finished result is kept under this command's name (NULL:
	 * not kept), keyed by the line and *result_key (what check() read,
	 * as --mine's address) too (cli-result.h) */
	const char *result;
	const char *const *result_key;
	const bool *json;            /* its own --json, when it has one */
};
int cli_review_main(int argc, char **argv,
		    const struct cli_review_caller *caller);
/* One entry's object of the `review --json` document in a document of
 * its own ({"schema_version", "entry"}), written to `o`. */
void cli_review_view_entry(const struct cli_review_view *v,
			   struct ms_out *o, size_t i);
/* The verdict engine's verdict on the person listed as `email` in entry
 * `i`, as review gives it (verdict.h). */
void cli_review_view_verdict(const struct cli_review_view *v, size_t i,
			     const char *email, struct ms_verdict *out);
/* What that verdict marks them by (ms_verdict_mark()), or NULL. */
const char *cli_review_view_mark(const struct cli_review_view *v, size_t i,
				 const char *email);

#endif

/* ---- list facts for `activity` and `urgent` (--archive) ---- */

struct ms_out;
struct ms_act_entry;
struct ms_activity;
struct ms_rv_entry;
struct cli_list_facts;

/*
 * Read the archives of `ao` (through its store, with the K: map of its
 * MAINTAINERS): the first half of cli_list_facts_load().  With `history`
 * (may be NULL), a project whose history is not loaded yet, the list's
 * senders join its people (ms_project_set_mail_index(): borrowed, so
 * free the facts after the project).  *out NULL when `ao` names no
 * archive.  Returns CLI_CONTINUE or an exit code after printing the
 * error.
 */
struct cli_act_opts;
struct ms_project;
int cli_list_facts_open(const char *cmd, const struct cli_act_opts *ao,
			struct ms_project *history,
			struct cli_list_facts **out);

/*
 * Read the archives of `ao` (unless *out holds the facts
 * cli_list_facts_open() read) and compute the review figures (list side
 * only) of every entry of its MAINTAINERS at `rev` of `repo` over
 * [since, until].
 * List addresses resolve through `act`'s resolver (its .mailmap,
 * aliases, plus-folding), and the corporate alias rule asks `act` whether
 * an address appears in the history up to `until`.
 * A listed person counts as active on the list when their newest message
 * is dated `active_since` or later (the cutoff of --inactive-after or
 * --months, the same one the git side uses).  Returns CLI_CONTINUE (*out
 * NULL when `ao` names no archive) or an exit code after printing the
 * error.
 */
int cli_list_facts_load(const char *cmd, const struct cli_act_opts *ao,
			int64_t since, int64_t until, int64_t active_since,
			struct ms_activity *act, struct cli_list_facts **out);

/*
 * The same facts without a history (`maintainers --activity --archive`
 * without --repo): the entries of the tree of `ao` (o->tree, its
 * MAINTAINERS options), people resolved by its .mailmap and the list's
 * names, the window `window` (a duration, "5y") back from the archive's
 * newest message, which is also where o->inactive_after counts back
 * from.
 * Sets *since and *until to the window.  Returns CLI_CONTINUE or an exit
 * code after printing the error.
 */
int cli_list_facts_load_tree(const char *cmd, const struct cli_act_opts *ao,
			     const char *window, int64_t *since,
			     int64_t *until, struct cli_list_facts **out);
void cli_list_facts_free(struct cli_list_facts *f);

/* The review figures of entry `name`, or NULL when it had no patches. */
const struct ms_rv_entry *cli_list_facts_entry(const struct cli_list_facts *f,
					       const char *name);

/* The list lines of the text layout for entry `name`. */
void cli_list_facts_text(FILE *fp, const struct cli_list_facts *f,
			 const char *name);

/*
 * The one emitter of a person's list figures in an entry (struct
 * ms_rv_person, docs/review.md): the members of the object open in `o`,
 * "role" first for a listed person, "name", "email", their replies and
 * latencies, "tags", messages, "commits" and "applied" (null unless
 * `git`: no history read), "via_list" for one not listed,
 * "last_list_activity".  `n` is the entry's patches, over which
 * "replied_share" counts.  review's "people", "others",
 * "defacto_maintainers" and intervals, the "list" of activity and urgent
 * and pending's "first_responders" all write it.
 */
struct ms_rv_person;
void cli_rv_json_person(struct ms_out *o, const struct ms_rv_person *p,
			size_t n, bool git);

/* Key `key`: the persons `people` (struct ms_rv_person *), each an
 * object as cli_rv_json_person() writes it. */
void cli_rv_json_people(struct ms_out *o, const char *key,
			const GPtrArray *people, size_t n, bool git);

/* Key "list": the entry's list figures (or null) in JSON. */
void cli_list_facts_json(struct ms_out *o, const struct cli_list_facts *f,
			 const char *name);

/* The facts as the verdicts of urgent read them (ms_verdict_urgency(),
 * ms_verdict_selected()); NULL when `f` is. */
struct ms_urgent *cli_list_facts_urgent(const struct cli_list_facts *f);
