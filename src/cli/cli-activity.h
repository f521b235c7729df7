/*
 * cli-activity.h - what `activity` and `urgent` share on the CLI side:
 * their repository, window and identity options, and loading the model.
 */
#ifndef MS_CLI_ACTIVITY_H
#define MS_CLI_ACTIVITY_H

#include "cli.h"
#include "cli-date.h"
#include "verdict.h"

#include <glib.h>

#include <stdint.h>
#include <stdio.h>

struct ms_activity;
struct ms_mail_index;
struct ms_review_map;

struct cli_act_opts {
	const char *repo;        /* --repo GITDIR */
	const char *rev;         /* --rev REV */
	const char *since;       /* --since DATE|REV */
	const char *until;       /* --until DATE|REV */
	const char *tree;        /* without repo: the tree (--tree DIR) */
	const char *aliases;     /* --aliases FILE */
	/* --inactive-after DURATION|DATE, as the command's default sets
	 * it (MS_DEFAULT_INACTIVE_AFTER); NULL: no verdicts, no cutoff */
	const char *inactive_after;
	struct cli_strings mailmaps; /* --mailmap FILE... */
	struct cli_strings maintainers; /* --maintainers FILE... */
	bool find_maintainer_files; /* --find-maintainer-files */
	GBytes *tree_blobs;      /* the tree's blob ids kept, or NULL */
	bool no_name_join;       /* --no-name-join */
	bool merges;             /* --merges */
	bool no_plus_fold;       /* --no-plus-fold */
	struct cli_store_opts store; /* --db, --no-cache, --db-wait */
	struct cli_strings archives; /* --archive PATH... (CLI_REV_OPTIONS) */
	/* review's map, whose K: answers are read from and saved to the
	 * store with the archives (ms_review_map_read_saved()), or NULL */
	struct ms_review_map *kmap;
	/* list messages whose senders join people (not an option: set by
	 * a command that read --archive first); may be NULL */
	const struct ms_mail_index *mail;
	/* note the address each person used last (retire Cc's it) */
	bool last_addresses;
	/* keep each walked commit's paths (areas) */
	bool keep_paths;
};

/* The identity options every command that resolves people shares. */
#define CLI_IDENT_OPTIONS(o) \
	{ CLI_OPT_STRING_LIST, "mailmap", 0, &(o)->mailmaps, "FILE", \
	  "a .mailmap besides the revision's or tree's own" }, \
	{ CLI_OPT_FLAG, "no-name-join", 0, &(o)->no_name_join, NULL, \
	  "do not join addresses by equal display names" }

/*
 * The two thresholds of the verdicts (verdict.h), one meaning and one
 * default in every command that takes them (docs/cli.md).
 */
#define CLI_INACTIVE_AFTER_OPTION(p) \
	{ CLI_OPT_STRING, "inactive-after", 0, (p), "DURATION", \
	  "listed people with nothing in the entry in git and no list " \
	  "message for this long before --until are inactive (6m, 18m, " \
	  "2y, or a date; default " MS_DEFAULT_INACTIVE_AFTER ")" }
#define CLI_MIN_COMMITS_OPTION(p) \
	{ CLI_OPT_COUNT, "min-commits", 0, (p), "N", \
	  "leave out entries with fewer commits in the window (default " \
	  G_STRINGIFY(MS_DEFAULT_MIN_COMMITS) ")" }

/* The options of the history commands; `since_default` ends --since's
 * help, as "(default: ...)" (a string literal: CLI_WINDOW_HELP or
 * CLI_URGENT_WINDOW_HELP, the policy's defaults). */
#define CLI_WINDOW_HELP \
	G_STRINGIFY(MS_DEFAULT_WINDOW_YEARS) " years before --until"
#define CLI_URGENT_WINDOW_HELP \
	G_STRINGIFY(MS_DEFAULT_URGENT_WINDOW_YEARS) " year before --until"
#define CLI_ACT_OPTIONS(o, since_default) \
	{ CLI_OPT_STRING, "repo", 0, &(o)->repo, "GITDIR", CLI_REPO_HELP }, \
	{ CLI_OPT_STRING, "rev", 0, &(o)->rev, "REV", \
	  "walk history from here and read its MAINTAINERS (default HEAD)" }, \
	{ CLI_OPT_STRING_LIST, "maintainers", 0, &(o)->maintainers, "FILE", \
	  "read this MAINTAINERS file instead of the revision's (default: " \
	  "the revision's)" }, \
	{ CLI_OPT_FLAG, "find-maintainer-files", 0, \
	  &(o)->find_maintainer_files, NULL, \
	  "also read every */MAINTAINERS of the revision's tree" }, \
	{ CLI_OPT_STRING, "since", 0, &(o)->since, "WHEN", \
	  "start of the window: a date, a duration back from now (1y, " \
	  "'6 months ago'), or REV for the commits not reachable from it " \
	  "(REV..) (default: " since_default ")" }, \
	{ CLI_OPT_STRING, "until", 0, &(o)->until, "WHEN", \
	  "end of the window and of history (default: the newest commit)" }, \
	{ CLI_OPT_STRING, "aliases", 0, &(o)->aliases, "FILE", \
	  "gitdm-style aliases: 'alias canonical' addresses per line " \
	  "(default: none; .mailmap is always read)" }, \
	CLI_IDENT_OPTIONS(o), \
	{ CLI_OPT_FLAG, "no-plus-fold", 0, &(o)->no_plus_fold, NULL, \
	  "keep user+tag@domain apart from user@domain" }, \
	{ CLI_OPT_FLAG, "merges", 0, &(o)->merges, NULL, \
	  "count merge commits too" }, \
	CLI_STORE_OPTIONS(&(o)->store)

/*
 * With --since REV (`since` not a date), make the commits of REV..rev the
 * window's (ms_activity_set_range(); `since_time` is REV's commit date).
 * Returns CLI_CONTINUE or an exit code after printing the error.
 */
int cli_act_set_range(const char *cmd, struct ms_activity *a,
		      const char *repo, const char *rev, const char *since,
		      int64_t since_time);

/*
 * Check the options, load the model and work out the window: `until`
 * (--until, else the newest commit) and `since` (--since, else
 * `default_years` before until; with --since REV the commits of REV..rev,
 * whatever their dates, as cli_act_set_range()).  The model is the
 * history of project *proj (cli-project.h), which the caller closes with
 * cli_project_close().  With `cutoff`, the --inactive-after point
 * (cli_inactive_after() of o->inactive_after, from until), checked
 * before the walk.  With `facts` and archives in `o`, their list facts
 * are read first (cli_list_facts_open()), so that the list's senders
 * join the history's people as review joins them: complete them with
 * cli_list_facts_load(), free them after *proj.  Prints warnings and
 * errors.  Returns CLI_CONTINUE or an exit code (then *proj and *facts
 * are NULL).
 */
struct ms_project;
struct cli_list_facts;
int cli_act_load(const char *cmd, const struct cli_act_opts *o,
		 int default_years, struct ms_project **proj,
		 struct ms_activity **out, int64_t *since, int64_t *until,
		 int64_t *cutoff, struct cli_list_facts **facts);


/*
 * The context a text report starts with: repository and revision, the
 * window, the inactivity cutoff and where identities come from.
 */
void cli_act_print_context(FILE *fp, const struct cli_act_opts *o,
			   int64_t since, int64_t until, int64_t active_since);

struct ms_act_entry;
struct ms_act_count;
struct ms_out;
struct ms_activity_query;

/* Key `key`: a JSON list of {name, email, count} (top reviewers...). */
void cli_act_json_counts(struct ms_out *o, const char *key,
			 const struct ms_act_count *c, size_t nr);

struct ms_act_last;

/* A listed person's newest commits in the entry, each null (never, up
 * to until) or {commit, date, count (in the window)}: "last_authored" by
 * author date, "last_committed" and "last_tagged" (with "tag", the
 * trailer naming them, null when not known) by commit date.  The one
 * emitter of these facts for activity, areas and review. */
void cli_act_json_lasts(struct ms_out *o, const struct ms_act_last *author,
			const struct ms_act_last *committer,
			const struct ms_act_last *tags);

/* The same in text: a line for each that is set, "    Author ID DATE
 * (N in window)", then Committer and Tags: activity's and review's. */
void cli_act_print_lasts(FILE *fp, const struct ms_act_person *p);

/* A listed person in an interval of --by, as one object: "role",
 * "name", "email", and the counts of `author`, `committer` and `tags`
 * there ("authored", "committed", "tagged"), for activity and areas. */
void cli_act_json_tallies(struct ms_out *o, char role, const char *name,
			  const char *email, const struct ms_act_last *author,
			  const struct ms_act_last *committer,
			  const struct ms_act_last *tags);
struct maint_entry;

/*
 * Restrict query `q` to the entries named in argv (none: all), setting
 * *sel to the array it points to (g_free it).  An unknown name is a usage
 * error.  Returns CLI_CONTINUE or an exit code.
 */
int cli_act_select(const char *cmd, const struct ms_activity *a, int argc,
		   char **argv, const struct cli_strings *files,
		   struct ms_activity_query *q,
		   const struct maint_entry ***sel);

struct ms_act_person;

/*
 * A listed person's other addresses: " (also: a, b)" in text (nothing
 * when none); in JSON, key "also", a list, and key "joins", the same
 * addresses with the source and evidence of each join
 * (cli_ident_json_joins()).
 */
void cli_act_print_also(FILE *fp, const struct ms_act_person *p);
/* The verdict engine's answer as every command writes it: "inactive"
 * (null when no git history was read: not judged), "verdict" and
 * "role_address". */
void cli_json_verdict(struct ms_out *o, const struct ms_verdict *v);

/*
 * The joins behind a listed person's other addresses, for a reader to
 * check: "a@x (name 'ann example'), b@y (mailmap)"; NULL when none.
 * g_free it.
 */
char *cli_act_joins(const struct ms_activity *a,
		    const struct ms_act_person *p);

/*
 * The same for any group of the identity model: every address of
 * `person`'s group but `shown` (the one the report names), each with the
 * source and evidence of its join; NULL when none.  g_free it.
 */
struct ms_ident;
char *cli_ident_joins(const struct ms_ident *id, unsigned person,
		      const char *shown);

/*
 * Key `key`: the addresses cli_ident_joins() names, as a list of
 * {"address", "source" (mailmap, aliases, maintainers-history, name),
 * "join_evidence" (a commit id, "MAINTAINERS:12", a Message-ID, "name
 * 'ann example'"; "" when none), "first_seen" (the first commit or
 * message with the address; "" when none)}; [] when none.
 */
void cli_ident_json_joins(struct ms_out *o, const char *key,
			  const struct ms_ident *id, unsigned person,
			  const char *shown);

/*
 * Print entry `e` in the activity report's text layout (the layout of the
 * netdev series); `list_facts` (may be NULL) adds the list lines and
 * keeps people active on the list from being called inactive.  `retire`
 * writes the same block into its commit messages.
 */
void cli_act_print_entry(FILE *fp, const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 const struct ms_act_entry *e,
			 const struct cli_list_facts *list_facts);

struct ms_verdict;

/*
 * Listed person `p` of entry `e` (a result of query `q` of `a`) as one
 * JSON object, the one emitter of a listed person for activity's
 * "people" and urgent's "maintainers" and "reviewers": "role", "name",
 * "email", the newest commits (cli_act_json_lasts()), "last_activity",
 * "seen_anywhere", the verdict ("inactive", "verdict", "listed_late",
 * "active_elsewhere_until"), "also", "joins", "role_address"; the
 * verdict with the list facts `lf` when a list was read (NULL: none).
 */
void cli_act_json_person(struct ms_out *o, const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 const struct ms_act_entry *e,
			 const struct ms_act_person *p,
			 const struct cli_list_facts *lf);

/*
 * The verdict (verdict.h) on listed person `p` of entry `e`, a result of
 * a query with cutoff `cutoff` (its active_since), with the list facts
 * `list_facts` when a list was read (NULL: none).
 */
void cli_act_verdict(const struct ms_act_entry *e,
		     const struct ms_act_person *p,
		     const struct cli_list_facts *list_facts, int64_t cutoff,
		     struct ms_verdict *v);

/*
 * --by month|quarter|year|release of `activity` and `urgent`: the window
 * [q->since, q->until] cut into intervals (release: the tags of `repo`
 * matching `tags`, see series.h), and query `q` answered again over each
 * interval from the model already loaded (one walk of the history): the
 * k-th entry of each interval's result is the k-th of the window's.
 */
struct cli_act_series {
	GArray *bounds;              /* int64_t, nr_intervals + 1 */
	int64_t since, until;        /* the window, which cuts the first
					and last intervals */
	GPtrArray *labels;           /* release names, or NULL */
	size_t nr_intervals;
	struct ms_act_entry **res;   /* per interval: the query's result */
	size_t nr;                   /* entries in each */
	/* per interval, its start and end as the reports write them (cut
	 * by the window), once for every entry: ISO 8601 (JSON) and the
	 * start's day (text) */
	char (*start)[32], (*end)[32], (*day)[32];
};

#define CLI_ACT_SERIES_OPTIONS(by, tags) \
	{ CLI_OPT_STRING, "by", 0, (by), "UNIT", \
	  "a time series: month, quarter, year or release " \
	  "(default: none)" }, \
	{ CLI_OPT_STRING, "release-tags", 0, (tags), "GLOB", \
	  "--by release: the tags that end a release (default 'v*', -rc " \
	  "tags never)" }

/* The intervals of --by `by` (and --release-tags `tags`) over the window
 * [since, until] with their dates (s->bounds, labels, start, end, day;
 * s->res stays NULL), as areas reads them: CLI_CONTINUE (nothing without
 * `by`), or an exit code after printing the error. */
int cli_act_series_bounds(const char *cmd, const char *by, const char *tags,
			  const char *repo, int64_t since, int64_t until,
			  struct cli_act_series *s);
/* Returns CLI_CONTINUE (s filled; nothing to do without `by`) or an exit
 * code after printing the error. */
int cli_act_series_run(const char *cmd, const char *by, const char *tags,
		       const char *repo, const struct ms_activity *a,
		       const struct ms_activity_query *q,
		       struct cli_act_series *s);
/* The queries of a series whose s->bounds are set (nr_intervals + 1
 * dates): query `q` over each interval (clipped to [q->since, q->until]).
 * Returns CLI_CONTINUE or an exit code after printing the error (s is
 * then released). */
int cli_act_series_query(const struct ms_activity *a,
			 const struct ms_activity_query *q,
			 struct cli_act_series *s);
void cli_act_series_release(struct cli_act_series *s);
/*
 * Interval i of `s` in JSON, opened: "start", "end" and with --by release
 * "release", the members every command's intervals begin with.  When
 * `empty`, each of `figures` is null and the object is closed: returns
 * whether it still is open, for the caller's figures and
 * ms_out_end_object().
 */
bool cli_act_series_open(struct ms_out *o, const struct cli_act_series *s,
			 size_t i, bool empty, const char *const *figures,
			 size_t nr_figures);
/* Entry k's series: JSON key "series" (an interval without commits in
 * the entry is null in every figure), or a compact text table.  Each
 * interval is given as counted: the first and last cut by the window. */
void cli_act_series_json(struct ms_out *o, const struct cli_act_series *s,
			 size_t k);
void cli_act_series_text(FILE *fp, const struct cli_act_series *s,
			 size_t k);

#endif
