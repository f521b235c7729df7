/*
 * activity.h - who really authors, commits and reviews in each
 * MAINTAINERS entry, from one pass over a repository's history.
 *
 * ms_activity_load() walks the history once (history.h), matching every
 * touched path to its entries (maintainers.h, as `sections` does) on the
 * walk's worker threads and resolving every person through ident.h, and
 * keeps a compact record per commit.  ms_activity_query() then computes
 * the facts of any window from those records without walking again, so
 * `activity`, `urgent` and later reports share one model.
 *
 * Dates are seconds since the epoch; a commit belongs to a window by its
 * commit date.  Ownership: results are the caller's (free with the
 * matching _free); strings inside them are borrowed from the
 * struct ms_activity and valid until it is freed.
 */
#ifndef MS_ACTIVITY_H
#define MS_ACTIVITY_H

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ms_activity;
struct ms_ident;
struct ms_mail_index;
struct ms_store;
struct maint_entry;
struct maint_file;

struct ms_activity_load_opts {
	const char *gitdir;       /* the repository */
	const char *rev;          /* where history starts; NULL: HEAD.  Its
				   * MAINTAINERS and .mailmap are used. */
	bool merges;              /* count merge commits too */
	bool no_plus_fold;        /* keep user+tag@ apart from user@ */
	bool no_name_join;        /* do not join people by equal names */
	/* .mailmap texts besides the revision's (--mailmap FILE), named
	 * for messages; may be NULL */
	const char *const *mailmaps;
	const size_t *mailmap_lens;
	const char *const *mailmap_names;
	size_t nr_mailmaps;
	/* a gitdm aliases file's text (may be NULL), named for messages */
	const char *aliases;
	size_t aliases_len;
	const char *aliases_name;
	/* MAINTAINERS files on disk read instead of the revision's
	 * (--maintainers), and --find-maintainer-files: every MAINTAINERS file
	 * of the revision's tree too; as maint_file_load() takes them */
	const char *const *maintainers;
	size_t nr_maintainers;
	bool find_maintainer_files;
	/* note the address each person used last, for
	 * ms_activity_last_address() (false: it answers nothing) */
	bool last_addresses;
	/* keep the paths each commit walked in this load touched, for
	 * ms_activity_walked_paths() (the saved model holds none) */
	bool keep_paths;
	/* the incremental store (store.h), borrowed; NULL: walk git only */
	struct ms_store *store;
	/* called on the calling thread with the number of commits taken in
	 * so far, after each one (may be NULL): the CLI's progress line */
	void (*progress)(size_t commits, void *data);
	void *progress_data;
	/* list messages (mail.h's index, borrowed; may be NULL): their
	 * senders join the identity model before its name join
	 * (ms_mail_ident_add()), so that review and identities judge people
	 * from commits and list alike; never part of the saved model */
	const struct ms_mail_index *mail;
};

/*
 * Read MAINTAINERS and .mailmap from opts->rev and walk its history.
 * Returns 0 and the model in *out (ms_activity_free), or a negative code
 * (errors as ms_history_walk(); MS_ENOTFOUND when the revision has no
 * MAINTAINERS).  Problems with the input (a malformed aliases or mailmap
 * line, missing objects) go to `diags`.
 */
int ms_activity_load(const struct ms_activity_load_opts *opts,
		     struct ms_activity **out, struct ms_diags *diags);
void ms_activity_free(struct ms_activity *a);

/*
 * The newest commit date of the history that is not in the future (the
 * default --until); commits dated more than a day after the load began
 * are left out of it, with a diagnostic.
 */
int64_t ms_activity_newest(const struct ms_activity *a);
/* How many commits are dated from `since` to `until` (inclusive). */
size_t ms_activity_nr_in_window(const struct ms_activity *a, int64_t since,
				 int64_t until);
/* The oldest commit date of the history. */
int64_t ms_activity_oldest(const struct ms_activity *a);
/* How many commits the model holds. */
size_t ms_activity_nr_commits(const struct ms_activity *a);
/* The MAINTAINERS entries, borrowed. */
const struct maint_file *ms_activity_maintainers(const struct ms_activity *a);
/* The matching index of those entries, borrowed. */
const struct maint_index *ms_activity_index(const struct ms_activity *a);
/* The identity resolver, borrowed (not thread-safe). */
struct ms_ident *ms_activity_ident(const struct ms_activity *a);
/*
 * Whether `person` (an id of the resolver) authored, committed or gave a
 * trailer tag in any commit of the history with a commit date up to
 * `until`, whatever the files.
 */
bool ms_activity_seen(const struct ms_activity *a, unsigned person,
		      int64_t until);
/*
 * The newest commit date up to `until` of any commit `person` authored,
 * committed or gave a trailer tag in, whatever the files, into *when;
 * false when there is none.  From ms_activity_seen()'s index when no
 * record is dated after `until`, else from the same index over the
 * records up to `until`, built in one pass for the last `until` asked.
 */
bool ms_activity_last_seen(const struct ms_activity *a, unsigned person,
			   int64_t until, int64_t *when);

/*
 * With ms_activity_load_opts.last_addresses (else false, always): the
 * address `person`'s group (any id of it) used last in the history
 * read, whatever --until: of the records naming one of its addresses as
 * author, committer or in a *-by: trailer, the one with the newest
 * commit date (on a tie, the first in walk order, then author before
 * committer before the trailers in order).  Addresses are as .mailmap,
 * --mailmap and --aliases make them (what `git log --use-mailmap`
 * shows), in lowercase, a +tag kept when it is the only one written with
 * that address.  Never one that reaches no person: a list's (an entry's
 * L:, or shared: ms_ident_shared()), a bot's or a no-reply one ("bot" as
 * a word, "noreply", "devnull"), a role's (a role word in the local part,
 * its +tag aside, at a domain other people use too, or a role's display
 * name), nor one no mail can go to (not one '@', no dot in the domain,
 * spaces, brackets, "(none)", localhost).  Returns false when there is
 * none; else the address in *email (g_free), the commit date in *when
 * and the commit's hex id in `commit` (docs/cli.md, retire).
 */
bool ms_activity_last_address(const struct ms_activity *a, unsigned person,
			      char **email, int64_t *when, char commit[41]);

/*
 * --since REV: from now on a commit is in a query's window only when
 * in_range(its hex id, data) says so (the commits of REV..rev, whatever
 * their dates), and, for a window starting after `since` (REV's commit
 * date: an interval of a series), when its commit date is in the window
 * too.  The window's end stays a date.
 */
void ms_activity_set_range(struct ms_activity *a,
			   bool (*in_range)(const char *id, void *data),
			   void *data, int64_t since);

/*
 * Call fn(path, data) once for each path a commit of the walked history
 * touched (against its first parent), in no particular order: files
 * since removed or renamed included.  The paths come from the walk's
 * records (through the store when there is one), so no git object is
 * read again.  `path` is borrowed until `a` is freed.
 */
void ms_activity_foreach_path(const struct ms_activity *a,
			      void (*fn)(const char *path, void *data),
			      void *data);

/*
 * One commit record of the model, as ms_activity_query() counts it:
 * commits touching an entry's files, their people (ident.h ids, joined)
 * and trailers.  Records are in walk order (newest commit date first).
 * ms_activity_record() fills `out`; entries (MAINTAINERS entry indexes)
 * are borrowed until `a` is freed.
 */
struct ms_act_record {
	char id[41];
	int64_t atime, ctime;     /* author and commit dates */
	unsigned author, committer;
	/* who applied it: the committer, or the last Signed-off-by when
	 * the committer is a bot (ms_act_entry.top_committers) */
	unsigned applier;
	bool reviewed;            /* a review or ack by someone else */
	const uint32_t *entries;  /* the entries its paths match */
	size_t nr_entries;
	size_t nr_tags;           /* its *-by: trailers naming a person */
};
void ms_activity_record(const struct ms_activity *a, size_t i,
			struct ms_act_record *out);
/* Trailer t of record i: its person, token ("Reviewed-by", borrowed)
 * and whether it is a review or an ack. */
void ms_activity_record_tag(const struct ms_activity *a, size_t i, size_t t,
			    unsigned *person, const char **token,
			    bool *review);
/*
 * Where record i falls for the window [since, until], as
 * ms_activity_query() decides it (--since REV included): 1 inside, 0
 * before it, -1 after `until` (not counted at all).
 */
int ms_activity_record_window(const struct ms_activity *a, size_t i,
			      int64_t since, int64_t until);
/*
 * With ms_activity_load_opts.keep_paths: the paths record i touched
 * (against its first parent, as the walk gives them) when this load
 * walked it, their number in *n; NULL when the record came from the
 * saved model instead (or keep_paths was off).  Borrowed until `a` is
 * freed.
 */
const char *const *ms_activity_walked_paths(const struct ms_activity *a,
					    size_t i, size_t *n);
/*
 * The entries `path` matches, as get_maintainer.pl matches them: their
 * number n, n entry indexes, then their depths (maint_match.depth, as
 * int32_t).  The load's answers (kept in the store with the model's, so a
 * warm run matches only paths no run matched), else matched now and kept
 * in `a` (a cache: not thread-safe against a load).  Borrowed until `a`
 * is freed.
 */
const uint32_t *ms_activity_match(const struct ms_activity *a,
				  const char *path);
/* The tree of the revision (its files), borrowed. */
const struct ms_tree *ms_activity_tree(const struct ms_activity *a);
/* The repository the model was loaded from, borrowed. */
const char *ms_activity_gitdir(const struct ms_activity *a);

struct ms_activity_query {
	int64_t since, until;     /* the window, both inclusive */
	/* A listed person with no authored, committed or tagged commit in
	 * the entry at or after this date is inactive. */
	int64_t active_since;
	/* Only these entries (borrowed); NULL means all, in file order. */
	const struct maint_entry *const *entries;
	size_t nr_entries;
};

/* The newest commit of one kind for one person, and a count. */
struct ms_act_last {
	bool set;                 /* false: never, up to until */
	char id[41];
	int64_t time;             /* author date for author, else commit date */
	int offset;               /* minutes east of UTC, of that date */
	size_t count;             /* such commits inside the window */
	const char *tag;          /* tags only: e.g. "Reviewed-by" */
	/* private: the commit's 20 bytes while the query runs (id is
	 * written once, not at every newer record) */
	const unsigned char *raw;
};

/* Why a listed address is a role's or a list's, not a person's. */
enum ms_act_role {
	MS_ACT_ROLE_NONE,
	MS_ACT_ROLE_LIST,         /* an L: list of MAINTAINERS */
	MS_ACT_ROLE_NAME,         /* a role's display name ("... Team") */
	MS_ACT_ROLE_LOCAL_PART,   /* a role word before the @ ("support") */
};

struct ms_act_person {
	char role;                /* 'M' or 'R' */
	/* name, email and also are owned by the result; in a series
	 * (ms_activity_query_series()) every interval's are the same
	 * strings, kept until the last interval is freed */
	char *name;               /* as listed in MAINTAINERS (may be "") */
	char *email;              /* as listed (may be "") */
	unsigned person;          /* ident.h id */
	/* the person's other addresses (joined through .mailmap, aliases,
	 * MAINTAINERS history or the name), NULL-terminated, owned */
	char **also;
	struct ms_act_last author, committer, tags;
	bool inactive;            /* never for a role address, nor in an
				   * entry without files */
	/* a role or list address, not a person: never in the history, and
	 * an entry's L: list, or a role word in its display name or local
	 * part ("Community Manager", "support@"), whatever its domain */
	bool role_address;
	enum ms_act_role role_why;
	bool seen_anywhere;       /* in any commit of the history, any role */
	/* not in the entry in MAINTAINERS when the window began (the newest
	 * commit before active_since): too new to judge, so never inactive
	 * (ms_activity_query() only; a series' intervals leave it false) */
	bool listed_late;
	int64_t last_time;        /* newest activity in the entry, if any */
	int last_offset;
	bool has_last;
};

/* A person and a count (top reviewers, de-facto committers). */
struct ms_act_count {
	unsigned person;
	const char *name;         /* canonical (ident.h) */
	const char *email;
	size_t count;
};

#define MS_ACT_TOP 3

struct act_names;           /* activity-query.c: a series's strings */

struct ms_act_entry {
	const struct maint_entry *entry;
	const char *status;       /* the S: value, or NULL */
	/* no file of the tree is the entry's (its code lives elsewhere): no
	 * one in it is called inactive */
	bool no_files;
	size_t commits;           /* in the window, touching the entry */
	/* ... from the query's active_since to its until (what the
	 * verdicts are judged on) */
	size_t cutoff_commits;
	size_t reviewed;          /* ... with a review or ack by another */
	bool has_last_activity;   /* any listed person's, up to until */
	int64_t last_activity;
	int last_activity_offset;
	struct ms_act_person *people;   /* each M: and R: field, in order */
	size_t nr_people;
	size_t nr_maintainers;    /* of which M: */
	/* Reviewed-by/Acked-by in the window by people not listed (and not
	 * the commit's author), one per commit and person; most first. */
	struct ms_act_count top_reviewers[MS_ACT_TOP];
	size_t nr_top_reviewers;
	/* Who committed the window's commits: the committer, or the last
	 * Signed-off-by when the committer is a bot (a name or address
	 * with "bot" as a word, or "noreply"); most first. */
	struct ms_act_count top_committers[MS_ACT_TOP];
	size_t nr_top_committers;
	/* private: in a series, the strings its people borrow (a
	 * reference, dropped by ms_act_entries_free()), and the people of
	 * all the entries of its array are one block, the first entry's
	 * first; NULL: its own strings and array */
	struct act_names *names;
};

/*
 * Compute the facts of query `q`: a new array of one ms_act_entry per
 * entry (ms_act_entries_free) in *out and its length in *nr.
 */
int ms_activity_query(const struct ms_activity *a,
		      const struct ms_activity_query *q,
		      struct ms_act_entry **out, size_t *nr);
void ms_act_entries_free(struct ms_act_entry *e, size_t nr);

/* The listed person of entry `e` (may be NULL) with address `email`
 * (case aside), else, with `name`, the first whose name `name` contains
 * (a line's "Name (comment)"); NULL when none. */
const struct ms_act_person *ms_act_entry_person(const struct ms_act_entry *e,
						const char *email,
						const char *name);

/*
 * ms_activity_query() for each of the `nq` queries `qs` (a series of
 * windows: their ends in order, the same entries), in one pass over the
 * records (one per window when the records are not in commit time
 * order; windows not a series are asked one by one): out[k] is what
 * ms_activity_query(&qs[k]) makes but for listed_late (each freed with
 * ms_act_entries_free), *nr the entries of each.  Returns 0 or negative
 * (nothing in out[k] to free beyond the queries made).
 */
int ms_activity_query_series(const struct ms_activity *a,
			     const struct ms_activity_query *qs, size_t nq,
			     struct ms_act_entry **out, size_t *nr);

/*
 * Whether entry `me` listed `person` (an ident.h id: under any of their
 * addresses, or their name) as M: or R: in MAINTAINERS at the newest
 * commit dated before `since`, as listed_late asks: 1 listed, 0 not, -1
 * when that cannot be known (MAINTAINERS not read from the revision, no
 * commit that old).
 */
int ms_activity_listed_then(const struct ms_activity *a,
			    const struct maint_entry *me, unsigned person,
			    int64_t since);

/*
 * The same, but at any time from `since` to `until`: listed then, or in
 * the MAINTAINERS file of `me` at a commit of that span changing it.
 * Reads that file at each such commit where it names the person.
 */
int ms_activity_listed_during(const struct ms_activity *a,
			      const struct maint_entry *me, unsigned person,
			      int64_t since, int64_t until);

/*
 * Date helpers shared by the reports.  ms_act_date_shift() moves `t` by
 * whole years (negative: back) on the calendar, in UTC.
 * ms_act_format() writes "YYYY-MM-DD HH:MM:SS" (iso: ISO 8601 with the
 * offset, "YYYY-MM-DDTHH:MM:SS+HH:MM"; date_only: "YYYY-MM-DD") of `t`
 * as seen at `offset` minutes east of UTC, into `buf` (32 bytes).
 */
int64_t ms_act_date_shift(int64_t t, int years);
void ms_act_format(int64_t t, int offset, bool iso, bool date_only,
		   char buf[32]);

#endif
