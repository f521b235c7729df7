/*
 * verdict.h - the one place that decides what maintstat says of a listed
 * person and of an entry: active in git, active on the list, inactive,
 * never active, a role or list address, no evidence; urgent and its
 * category; to be retired.  Every command asks here and only prints the
 * answer, so the same person gets the same verdict from activity, urgent,
 * retire, maintainers --activity, review and report (docs/cli.md,
 * "Verdicts").  Library code: it decides and gives the evidence, the CLI
 * prints.
 */
#ifndef MS_VERDICT_H
#define MS_VERDICT_H

#include "activity.h"
#include "review.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * The policy defaults, each once (docs/cli.md, "Windows and
 * thresholds"): every command takes these unless an option says
 * otherwise.
 */
/* A listed person with nothing in the entry in git, and no list message,
 * for this long before the window's end is inactive. */
#define MS_DEFAULT_INACTIVE_AFTER "5y"
/* Entries with fewer commits in the window are left out (activity,
 * urgent, retire): none by default, busy ones only when asked. */
#define MS_DEFAULT_MIN_COMMITS 0
/* The window of activity, retire, maintainers --activity and identities,
 * and of urgent (years back from --until). */
#define MS_DEFAULT_WINDOW_YEARS 5
#define MS_DEFAULT_WINDOW "5y"           /* the same, as a duration */
#define MS_DEFAULT_URGENT_WINDOW_YEARS 1
/* review: a patch with no human reply this long after it is ignored;
 * the response target.  Each once, as a number, and as the duration an
 * option takes. */
#define MS_DEFAULT_IGNORE_AFTER_DAYS 14
#define MS_DEFAULT_TARGET_HOURS 48
#define MS_VERDICT_STR_(x) #x
#define MS_VERDICT_STR(x) MS_VERDICT_STR_(x)
#define MS_DEFAULT_IGNORE_AFTER MS_VERDICT_STR(MS_DEFAULT_IGNORE_AFTER_DAYS) "d"
#define MS_DEFAULT_TARGET MS_VERDICT_STR(MS_DEFAULT_TARGET_HOURS) "h"
/* A review's options with those defaults (the list facts of activity,
 * urgent, retire and maintainers --activity). */
#define MS_VERDICT_REVIEW_OPTS_INIT { \
	.ignore_after = MS_DEFAULT_IGNORE_AFTER_DAYS * 86400, \
	.target = MS_DEFAULT_TARGET_HOURS * 3600 }
/* coverage --check-urls: a URL not seen working this long is stale. */
#define MS_DEFAULT_STALE_AFTER "5y"

/*
 * The window of activity query `q` over history `a` for a command whose
 * window is `years` long by default (MS_DEFAULT_WINDOW_YEARS; urgent's,
 * which `report` takes for its urgent entries too, is
 * MS_DEFAULT_URGENT_WINDOW_YEARS): q->until is `until` when `until_set`,
 * else the newest commit, and never more than a day after the newest
 * commit (nobody is judged idle up to a date in the future); q->since is
 * `since` when `since_set`, else `years` before q->until; the cutoff
 * q->active_since is `inactive_after` (a duration or a date,
 * ms_when_parse()) before q->until, 0 when NULL.  Returns 1 when
 * `until` was moved back to the newest commit, else 0; -1 when
 * `inactive_after` does not parse (ms_error_last()).
 */
int ms_verdict_window(const struct ms_activity *a, bool since_set,
		      int64_t since, bool until_set, int64_t until, int years,
		      const char *inactive_after,
		      struct ms_activity_query *q);

/* What is said of one listed person (M: or R:) of one entry. */
enum ms_verdict_kind {
	MS_VERDICT_ACTIVE,         /* in git in the entry since the cutoff */
	MS_VERDICT_ACTIVE_ON_LIST, /* not in git, but a list message since */
	MS_VERDICT_INACTIVE,       /* in the history, nothing since */
	MS_VERDICT_NEVER_ACTIVE,   /* nowhere in the history read: inactive */
	MS_VERDICT_ROLE_ADDRESS,   /* a role or list address: no person */
	MS_VERDICT_NO_EVIDENCE,    /* nothing to judge by: see `why` */
};

/* Why there is no evidence (MS_VERDICT_NO_EVIDENCE). */
enum ms_verdict_why {
	MS_VERDICT_WHY_NONE,
	MS_VERDICT_WHY_NO_HISTORY,    /* no git history was read */
	MS_VERDICT_WHY_NO_FILES,      /* no file of the tree is the entry's */
	MS_VERDICT_WHY_EMPTY_WINDOW,  /* no commit, no patch to judge by */
	MS_VERDICT_WHY_SHORT_HISTORY, /* the history starts after the cutoff */
	MS_VERDICT_WHY_LISTED_LATE,   /* not listed there at the cutoff */
};

/* A verdict and what it was decided on. */
struct ms_verdict {
	enum ms_verdict_kind kind;
	enum ms_verdict_why why;
	/* the evidence looked at */
	const char *email;         /* the listed address (borrowed) */
	int64_t cutoff;            /* the --inactive-after point */
	bool git_read, list_read;  /* the sources */
	enum ms_act_role role;     /* why a role address */
	bool seen_anywhere;        /* in any commit of the history */
	bool has_last_git;         /* newest activity in the entry */
	int64_t last_git;
	int last_git_offset;
	bool has_last_list;        /* newest list message, any list */
	int64_t last_list;
	size_t entry_commits;      /* the entry's commits in the window */
	size_t cutoff_commits;     /* ... and since the cutoff */
	size_t entry_patches;      /* its patches in the list's window */
};

/*
 * The verdict on listed person `p` of entry `e` (an ms_activity_query()
 * result for cutoff `cutoff`, its active_since), with the list facts `le`
 * of the entry when a list was read (`list_read`; `le` NULL: the entry
 * had no patch on it).  `e` and `p` may be NULL when no history was read:
 * then `email` names the person, and the answer is active on the list or
 * no evidence.  In order: a role or list address; active in git; active
 * on the list (a message, on any list read, at or after the cutoff); no
 * evidence (no files; no commit of the entry in the window nor since the
 * cutoff, and no patch of it on the list; a history that starts after
 * the cutoff; listed after it); else inactive, or never active when the history has
 * nothing of theirs at all.  Never fails.
 */
void ms_verdict_person(const struct ms_act_entry *e,
		       const struct ms_act_person *p, const char *email,
		       const struct ms_rv_entry *le, bool list_read,
		       int64_t cutoff, struct ms_verdict *v);

/* The list facts of listed `email` in review entry `e` (NULL: none),
 * or NULL. */
const struct ms_rv_person *ms_verdict_listed(const struct ms_rv_entry *e,
					     const char *email);

/*
 * Whether entry `e` (a query result for `cutoff`, with its list facts
 * `le`, from a list that was read) has an active maintainer: an M: whose
 * verdict (ms_verdict_person()) is active in git or on the list.  A role
 * address, or a maintainer with no evidence, makes no entry active.
 */
bool ms_verdict_entry_active(const struct ms_act_entry *e,
			     const struct ms_rv_entry *le, int64_t cutoff);

/* Whether verdict `v` calls the person inactive (never active too). */
bool ms_verdict_inactive(const struct ms_verdict *v);

/*
 * What a listed person with verdict `v` is marked by wherever a command
 * names the inactive: "INACTIVE" (ms_verdict_inactive()), or NULL (not
 * marked: active, active on the list, no evidence, a role address).  The
 * one rule behind review's INACTIVE lines, the report's faded people and
 * its count of inactive listed people, and `maintainers --activity`'s
 * notes and --active-only.
 */
const char *ms_verdict_mark(const struct ms_verdict *v);

/* Whether verdict `v` judged activity at all: a git history was read
 * (else "inactive" is null in JSON: not judged). */
bool ms_verdict_judged(const struct ms_verdict *v);

/* Whether verdict `v` found a role or list address, not a person. */
bool ms_verdict_role_address(const struct ms_verdict *v);

/* The verdict in a word for a text line: "INACTIVE", "no evidence" or
 * "active" (active on the list too). */
const char *ms_verdict_word(const struct ms_verdict *v);

/*
 * What a report flags in verdict `v` on listed person `p` (of query `q`
 * of `a`): "ROLE ADDRESS", "NEWLY LISTED", "NO EVIDENCE" or "INACTIVE";
 * NULL when nothing is (active, active on the list, or no evidence for
 * a reason of the entry's: no files, no history).  Then `why` holds what
 * follows the person: ": not a person (never in the history; a list, or
 * a role's name or address)", ": WHY (2021-08-20), so not judged"
 * (ms_verdict_why_text(), the cutoff), " (active elsewhere in the
 * history until 2026-05-14)", for one never active in the entry " (never
 * in its files; last in the history 2021-04-05)" or " (never seen in the
 * history)", or "".
 */
#define MS_VERDICT_WHY_SIZE 128
const char *ms_verdict_flag(const struct ms_activity *a,
			    const struct ms_activity_query *q,
			    const struct ms_act_person *p,
			    const struct ms_verdict *v,
			    char why[MS_VERDICT_WHY_SIZE]);

/*
 * Why retire proposes removing `p` (a new string, for the patch's
 * commit message): never in the history at all, never a change to the
 * entry's files, or none since the cutoff with the last one's date; and
 * when the person was active elsewhere in the history, until when.
 */
char *ms_verdict_retire_reason(const struct ms_activity *a,
			       const struct ms_activity_query *q,
			       const struct ms_act_person *p);

/*
 * What `urgent` says of listed person `p` of query `q` of `a` after the
 * person's name, verdict `v` (a new string): "a role or list address,
 * not a person"; else "last active here 2019-03-02" or
 * ms_verdict_never_text(), then "; active elsewhere in the history until
 * DATE" (ms_verdict_elsewhere()), "; newly listed (not in this entry on
 * DATE), not judged" (listed after the cutoff), and for a reviewer "; "
 * and ms_verdict_word().
 */
char *ms_verdict_person_text(const struct ms_activity *a,
			     const struct ms_activity_query *q,
			     const struct ms_act_person *p,
			     const struct ms_verdict *v);

/*
 * Verdict `v` in a short phrase with its evidence, for a table cell or a
 * note after a person (a new string): "active", "active on the list",
 * "inactive since 2019-03" (the newest activity in the entry), "inactive:
 * nothing in the entry", "not a person (a role or list address)", "not
 * judged (no git history read)" or "no evidence (WHY)"
 * (ms_verdict_why_text()).
 */
char *ms_verdict_text(const struct ms_verdict *v);

/* What `v`'s evidence says of a person with no activity in the entry:
 * "never active here" (seen elsewhere in the history) or "never seen in
 * the history". */
const char *ms_verdict_never_text(const struct ms_verdict *v);

/* Whether the evidence of `v` holds a list message at or after the
 * cutoff ("active on the list", whatever git says). */
bool ms_verdict_list_active(const struct ms_verdict *v);

/* Whether listed person `p` of a review entry has list evidence to
 * show: a reply to a patch of the entry, or a message on a list read
 * (else a command's list lines leave them out). */
bool ms_verdict_list_evidence(const struct ms_rv_person *p);

/* The verdict's name in JSON and tests: "active", "active_on_list",
 * "inactive", "never_active", "role_address", "no_evidence". */
const char *ms_verdict_name(const struct ms_verdict *v);

/* Why there is no evidence, in words ("no file of the tree is the
 * entry's"); "" for MS_VERDICT_WHY_NONE. */
const char *ms_verdict_why_text(enum ms_verdict_why w);

/*
 * Whether inactive person `p` (of the query `q` of `a`) was active
 * elsewhere in the history after the cutoff and after their newest
 * activity in the entry: then *when is their newest commit anywhere.
 */
bool ms_verdict_elsewhere(const struct ms_activity *a,
			  const struct ms_activity_query *q,
			  const struct ms_act_person *p, int64_t *when);

/* Whether entry `e`'s people get a verdict at all: not when no file of
 * the tree is its own (its code lives elsewhere). */
bool ms_verdict_entry_judged(const struct ms_act_entry *e);

/*
 * The one definition of urgent (verdict-urgent.c), for `urgent` and
 * `report`: what is said of entry `e` (one of `all`, the query result
 * of every entry for `cutoff`) with the lists' review `u` (urgent.h;
 * NULL: no list read).
 * It is urgent when it has files of the tree, is no catch-all listing
 * no maintainer (the project's default route, maint_entry_catch_all()),
 * has a commit in the window or
 * a patch on the list, and no maintainer (M:) of it is active in git or
 * on the list (a role address is no active maintainer; one with no
 * evidence, ms_verdict_person(), makes it not urgent); then its LWN
 * category
 * (ms_urgent_category(); "urgent" without a list to judge by); else "not
 * urgent".  With `why`, the reason (a new string, g_free it; NULL for
 * "urgent"): the category's, or why not: no file pattern, no file of the
 * tree is its own, a catch-all listing no maintainer, no commit and no
 * patch in the window, a maintainer
 * active in git or on the list since the cutoff, or a maintainer not
 * judged (ms_verdict_why_text()).
 */
struct ms_urgent;
const char *ms_verdict_urgency(struct ms_urgent *u,
			       const struct ms_act_entry *e,
			       const struct ms_act_entry *all, size_t nr_all,
			       int64_t cutoff, char **why);

/* Whether entry `e` has at least `min_commits` commits in the window
 * (--min-commits; 0 or less: every entry). */
bool ms_verdict_busy(const struct ms_act_entry *e, long min_commits);

/* What `urgent` lists: the urgent entries, --never or --nomaint. */
enum ms_verdict_selection {
	MS_VERDICT_SELECT_URGENT,
	MS_VERDICT_SELECT_NEVER,
	MS_VERDICT_SELECT_NOMAINT,
};

/*
 * Whether `urgent`'s selection `s` lists entry `e` (a query result for
 * `cutoff`): busy (ms_verdict_busy()), and urgent (ms_verdict_urgency(),
 * with the lists' review `u` when not NULL), never active
 * (ms_verdict_never()) or with no maintainer listed.
 */
bool ms_verdict_selected(enum ms_verdict_selection s,
			 const struct ms_act_entry *e,
			 const struct ms_urgent *u, int64_t cutoff,
			 long min_commits);

/* Whether `urgent --never` lists entry `e`: judged, and none of its
 * maintainers is anywhere in the history. */
bool ms_verdict_never(const struct ms_act_entry *e);

/* Why an entry is listed by `urgent` (JSON "reason"): "no_maintainer",
 * "inactive" (a maintainer is in the history), "never". */
const char *ms_verdict_urgent_reason(const struct ms_act_entry *e);

/* The rank of an urgent category in `urgent`'s order (overlap,
 * corporate_alias, defacto_maintainer, unmaintained, then "not urgent"
 * and anything else). */
int ms_verdict_category_rank(const char *category);

/*
 * Whether person `p` of entry `e` is to be retired: the entry is busy
 * (ms_verdict_busy()) and the person's verdict
 * (ms_verdict_person(), in `v`) is inactive or never active.  A role or
 * list address, or no evidence, is never retired.
 */
bool ms_verdict_retire(const struct ms_act_entry *e,
		       const struct ms_verdict *v, long min_commits);

/*
 * The verdict "de-facto maintainer on the list" that review gives: an
 * unlisted person `p` of entry `e` (one of e->others, not a via-list
 * sender) who, at least twice each, applied more than half of the
 * entry's merged patches, gave more than half of its review tags,
 * accepted by their applied notice more than half of the patches
 * notices accepted and a quarter of all its patches (linux-leds: Lee
 * Jones, LED's maintainer since 2023 beside a MAINTAINERS of 2022), or
 * was the first to answer more than half of its answered patches; the
 * tags and first answers must lie in two threads at least (on
 * linux-rdma's 2023 slice, first answers to one cross-posted series
 * made Al Viro the de-facto maintainer of 12 file systems).
 * Returns the shares that hold (0: not de-facto); the evidence is in `p`
 * (applied, reviewed_by + acked_by, accepted_by_notice, first_responses
 * with their dates and Message-IDs) over `e` (merged, tags_total,
 * accepted_by_notice, first_replied_total).
 */
unsigned ms_rv_defacto(const struct ms_rv_entry *e,
		       const struct ms_rv_person *p);

/*
 * The de-facto reviewers maintainers --activity proposes for entry `e`:
 * its top Reviewed-by/Acked-by givers of the window (*top, the count
 * returned), none for a catch-all entry (maint_entry_catch_all()): on
 * U-Boot THE REST's (1,321 and 880 reviews over five years) would be
 * proposed for every patch.
 */
size_t ms_verdict_defacto_reviewers(const struct ms_act_entry *e,
				    const struct ms_act_count **top);

#endif
