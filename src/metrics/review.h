/*
 * review.h - how each MAINTAINERS entry's patches are answered on the
 * list: reply shares, times to first response, ignored patches, merged
 * share, per listed person figures and scores, the tag ledger, corporate
 * aliases and de-facto maintainers.  Every metric is defined in
 * docs/review.md.
 *
 * Build a struct ms_review_map while the archives are read (its hook maps
 * each patch to entries by the files its diff touches and by K: patterns
 * matched against its changed lines), then ms_review_compute() over the
 * mail model, optionally with the commits of the window and their links.
 *
 * Times are seconds since the epoch; intervals are seconds.  Results are
 * the caller's (ms_review_free); strings inside are borrowed from the
 * inputs, which must outlive them.
 */
#ifndef MS_REVIEW_H
#define MS_REVIEW_H

#include "error.h"
#include "link.h"
#include "mail.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

struct maint_file;
struct ms_ident;
struct maint_index;
struct maint_entry;
struct ms_tree;
struct ms_git_graph;
struct ms_store;

/* ---- patch to entry mapping ---- */

struct ms_review_map;

/*
 * A map over the entries of `mf` matched through `idx` (both borrowed).
 * Invalid K: regexes are reported in `diags` and skipped.
 */
struct ms_review_map *ms_review_map_new(const struct maint_file *mf,
					const struct maint_index *idx,
					struct ms_diags *diags);
void ms_review_map_free(struct ms_review_map *map);

/* One diagnostic per K: pattern that hit the regex match limits (its
 * file:line and on how many patch lines); such a line counts as a match. */
void ms_review_map_report(const struct ms_review_map *map,
			  struct ms_diags *diags);

/* Patches whose subject matches `re` (borrowed; may be NULL) belong to
 * another project too (ms_mail_foreign_project()).  Call before reading. */
void ms_review_map_foreign_subject(struct ms_review_map *map,
				   const GRegex *re);

/* The sibling project the subject of record `rec`, a patch or a cover
 * letter, names (ms_mail_foreign_project()), or NULL. */
const char *ms_review_map_foreign(const struct ms_review_map *map,
				  uint32_t rec);

/* The ms_link_mail_hook to read archives with (MS_MAIL_PARSE_KEEP_BODY
 * is needed for K: patterns); `data` is the map. */
void ms_review_map_hook(const struct ms_mail *m, uint32_t rec, void *data);

/*
 * The map's answers for the records read so far, kept with link.c's mail
 * snapshot (ms_link_mail_opts.hook_dump, hook_load; `data` is the map):
 * dump appends them to `out` (false: not to be kept, a pattern hit the
 * regex limits); load takes them back before the records after the
 * snapshot are read, false when they do not decode whole or were made
 * under other MAINTAINERS, tree answers, K: patterns or
 * --foreign-subject (the map is then empty).  Load with `p` NULL
 * forgets every record's answers.
 */
bool ms_review_map_dump(GByteArray *out, void *data);
bool ms_review_map_load(const uint8_t *p, size_t len, void *data);

/*
 * K: answers kept in `store` (may be NULL: none): read the ones saved
 * under the same K: patterns before reading the archives, so that the hook
 * matches only patches none matched before; then save the new ones
 * (returns 0 or the store's error code).  Best effort on reading: a
 * missing or unreadable table is matched afresh.
 */
void ms_review_map_read_saved(struct ms_review_map *map,
			      struct ms_store *store);
int ms_review_map_save(struct ms_review_map *map, struct ms_store *store);

/* The entry indexes (maint_entry.index) record `rec` maps to, ascending,
 * or NULL when it maps to none (borrowed). */
const GArray *ms_review_map_entries(const struct ms_review_map *map,
				    uint32_t rec);

/* The entry indexes a commit's paths map to (new array, g_array_free). */
GArray *ms_review_map_paths(const struct ms_review_map *map,
			    char *const *paths, size_t nr_paths);

/* ---- the report ---- */

struct ms_review_opts {
	int64_t since, until;        /* postings' dates, inclusive */
	int64_t ignore_after;        /* seconds (default 14 days) */
	int64_t target;              /* seconds (default 48 hours) */
	/* Only these entries (borrowed); NULL means every entry with
	 * patches, in file order. */
	const struct maint_entry *const *entries;
	size_t nr_entries;
	/* Who is who (ident.h; borrowed, used from this thread only): list
	 * senders, tag givers, MAINTAINERS people and committers resolve
	 * through it exactly as activity's git side does (.mailmap,
	 * aliases, case, plus-folding).  NULL: a resolver of our own, with
	 * case and plus-folding only. */
	struct ms_ident *ident;
	/* Keep stable backports (ms_mail_subject_stable()) as patches. */
	bool include_stable;
	/* Keep patches of other projects: named by their subject, or whose
	 * every path is foreign to `tree`, to `history_paths` and to the
	 * paths of `commits`. */
	bool include_foreign;
	/* The analysed tree for the path test (borrowed); NULL: no path
	 * test. */
	const struct ms_tree *tree;
	/* Every path a commit of the repository's whole history touched
	 * (borrowed strings; NULL: only `tree` and the window's commits are
	 * known), so that a patch to a file removed before the snapshot,
	 * or under a directory since gone, belongs to the project. */
	const GPtrArray *history_paths;
	/* The analysed repository's objects (git-graph.h; borrowed), or
	 * NULL: a patch whose pre-image blobs (ms_link_mail_preimages())
	 * it holds is the project's whatever its subject or recipients
	 * say. */
	struct ms_git_graph *objects;
	/* Whether `person` (an id of `ident`) authored, committed or gave a
	 * tag in any commit of the history up to the end of the window, for
	 * the corporate alias rule.  NULL: only the window's commits are
	 * known. */
	bool (*git_seen)(unsigned person, void *data);
	void *git_seen_data;
	/*
	 * A time series (`--by`): nr_intervals intervals, interval i
	 * being [bounds[i], bounds[i + 1]) (nr_intervals + 1 values,
	 * ascending; borrowed, copied into the report).  Each entry's
	 * patches are partitioned by their first posting's date and every
	 * figure is computed again, by the same rules, over each part (and
	 * its commits by their commit date): the sum over the intervals of
	 * patches equals the window's count when the intervals cover the
	 * window.  0: no series.
	 */
	const int64_t *bounds;
	size_t nr_intervals;
};

/* One reply that counts as a response. */
struct ms_rv_reply {
	uint32_t rec;                /* the reply */
	uint32_t to;                 /* the posting it answers */
	int64_t latency;             /* from the patch's first posting,
					clamped at 0 */
	bool negative;               /* the raw interval was negative */
	bool tag;                    /* it gave Reviewed-by or Acked-by */
};

/*
 * Where a patch stands (docs/review.md, "Where each patch stands"), by
 * its newest version: the older versions are superseded.  The open
 * states are those after MS_RV_SUPERSEDED.
 */
enum ms_rv_state {
	MS_RV_ACCEPTED, MS_RV_REJECTED, MS_RV_WITHDRAWN, MS_RV_SUPERSEDED,
	MS_RV_CHANGES_REQUESTED, MS_RV_WAITING_FOR_MAINTAINER, MS_RV_WAITING,
	MS_RV_IGNORED, MS_RV__STATES
};

/* "accepted", "waiting_for_maintainer", ... (the JSON value). */
const char *ms_rv_state_name(enum ms_rv_state s);

/* Whether a patch in state `s` still waits on someone. */
bool ms_rv_state_open(enum ms_rv_state s);

/* What decided a patch's state: a message, a commit, or neither (no
 * answer yet: `date` is its newest version's). */
struct ms_rv_evidence {
	enum { MS_RV_BY_NONE, MS_RV_BY_MESSAGE, MS_RV_BY_COMMIT } by;
	uint32_t rec;                /* the message, with MS_RV_BY_MESSAGE */
	uint32_t commit;             /* index into commits, MS_RV_BY_COMMIT */
	const char *applied;         /* the commit id an applied notice
					gives (borrowed from the index), or
					NULL */
	int64_t date;
};

/* One message below a patch's versions or their cover letters, as the
 * state rules see it. */
struct ms_rv_event {
	uint32_t rec;
	int64_t date;
	enum ms_mail_kind kind;
	enum ms_mail_notice notice;  /* for this patch: an applied notice
					naming other patches is none */
	const char *applied;         /* the commit id it gives, or NULL */
	bool by_author;              /* the patch's author sent it */
	bool by_listed;              /* a listed M:/R: person of the entry */
	bool by_committer;           /* who committed an entry's commit */
	bool by_reviewer;            /* who gave a Reviewed-by or Acked-by
					on the list (any patch) */
	bool human;                  /* a human answer (is not the author's,
					not a bot's) */
	bool tag;                    /* it gave Reviewed-by or Acked-by */
	bool newest;                 /* sent after the newest version */
};

struct ms_rv_patch;

/*
 * The state of patch `pt` (its merged, commit, ignored and too_recent
 * set) from the messages `ev` (n of them, any order) below its versions,
 * with what decided it in *why.  `commit_time` is the linked commit's
 * date when pt->merged.  The rules, first that holds:
 *   accepted  - linked to a commit, or an applied notice (any version)
 *               from a bot, a listed person or an entry's committer, or
 *               from anyone when it names the commit (b4 ty);
 *               the earlier of the notice and the commit decides;
 *   withdrawn - on the newest version, the author's "please ignore" or
 *               self-NAK;
 *   rejected  - on the newest version, a NAK or a "not applying" notice
 *               from a listed person;
 *   changes_requested - the newest version's last human answer gave no
 *               review tag;
 *   waiting_for_maintainer - the newest version has a review tag and no
 *               listed person answered it;
 *   ignored   - pt->ignored;
 *   waiting   - anything else.
 */
/* The date of the last message of patch `pt`: its newest version, or
 * the message that decided its state when later. */
int64_t ms_rv_last_message(const struct ms_mail_index *idx,
			   const struct ms_rv_patch *pt);

enum ms_rv_state ms_rv_patch_state(const struct ms_rv_event *ev, size_t n,
				   const struct ms_rv_patch *pt,
				   int64_t commit_time,
				   struct ms_rv_evidence *why);

/* One patch: every posted version of it (same sender and subject). */
struct ms_rv_patch {
	GArray *postings;            /* uint32_t records, oldest first */
	int64_t posted;              /* the first posting's date */
	bool has_first, has_maint, has_tag;
	struct ms_rv_reply first;    /* first human reply */
	struct ms_rv_reply first_maint; /* first listed M:/R: reply */
	struct ms_rv_reply first_tag;   /* first Reviewed-by/Acked-by */
	bool ignored;                /* no response at all; judged after
				      * ignore_after */
	bool too_recent;             /* posted within ignore_after of until */
	bool merged;
	uint32_t commit;             /* index into commits, when merged */
	int64_t merge_time;          /* commit date - first posting date */
	bool within_target;          /* a listed person replied in target */
	enum ms_rv_state state;      /* ms_rv_patch_state() */
	struct ms_rv_evidence why;
};

/* A listed person of the entry, or a replier. */
struct ms_rv_person {
	char role;                   /* 'M', 'R', or 0 when not listed */
	const char *name, *email;    /* email normalized (lowercase); as
					listed for M:/R:, else canonical */
	unsigned person;             /* ident id (MS_IDENT_NONE: unknown) */
	size_t own_patches;          /* the entry's patches they wrote */
	size_t replied;              /* patches replied to */
	size_t within_target;        /* ... within the target */
	int64_t median_latency;      /* of their first reply per patch */
	bool has_latency;
	size_t reviewed_by, acked_by, tested_by; /* tags given on the list */
	size_t messages, threads;    /* replies sent, distinct threads */
	size_t authored;             /* patch postings they sent */
	size_t first_responses;        /* patches where theirs came first */
	/* ... the first and newest of those patches' postings dates, and
	 * the Message-IDs of three of those replies (borrowed
	 * from the index; NULL when fewer) */
	int64_t first_reply_since, first_reply_until;
	const char *first_reply_ids[3];
	size_t commits;              /* entry commits they committed */
	size_t applied;              /* merged patches they committed */
	size_t accepted_by_notice;   /* patches their applied notice
					accepted (state_evidence), listed
					for none of the patch's files */
	int64_t last_list;           /* their newest message, any list */
	bool has_last_list;
	double responsiveness;       /* within_target / (patches -
					own_patches); -1 over none */
	int64_t netdev_score;
	/* not a person: replies from a list's address (`email`) under a
	 * sender's `name` no one, or several people, have (a DMARC rewrite
	 * that kept no original address) */
	bool via_list;
};

struct ms_rv_tag {
	uint32_t commit;
	enum ms_trailer_kind kind;
	const char *name, *email;
	uint32_t rec;                /* list side: the giving message */
};

struct ms_rv_alias {
	const char *name, *email;    /* the M:/R: role address */
	GPtrArray *people;           /* struct ms_rv_person * of its domain */
};

/* The rules that set a patch posting aside (docs/review.md, "Set
 * aside"), in the order the JSON's "set_aside" gives them. */
enum ms_rv_aside_rule {
	MS_RV_STABLE, MS_RV_FOREIGN_SUBJECT, MS_RV_FOREIGN_RECIPIENTS,
	MS_RV_FOREIGN_PATHS, MS_RV_ASIDE_RULES
};

/* A rule's name, as the JSON keys and the text name it: "stable",
 * "foreign_subject", "foreign_recipients", "foreign_paths". */
const char *ms_rv_aside_rule_name(enum ms_rv_aside_rule rule);

struct ms_rv_entry {
	const struct maint_entry *entry;
	GArray *patches;             /* struct ms_rv_patch, by first
					posting's date */
	size_t series;
	size_t replied, replied_maint, tagged, ignored, merged;
	size_t ignored_contributor;  /* ignored, author not listed */
	size_t own_unreviewed;       /* by a listed person, no review tag
					from anyone else */
	size_t aside[MS_RV_ASIDE_RULES]; /* patches set aside (not in
					    `patches`), by rule */
	size_t aside_total;          /* their sum */
	size_t own_by_blobs;         /* patches kept against their subject
					or recipients by their pre-image
					blobs (ASIDE_OWN_BLOBS) */
	int64_t ttfr_median, ttfr_p90;       /* time to first response */
	int64_t ttmr_median, ttmr_p90;       /* ... from a listed person */
	int64_t tttag_median, tttag_p90;     /* ... first review tag */
	int64_t merge_median, merge_p90;     /* review cycle duration */
	size_t negative;             /* clamped negative intervals */
	double responsiveness;       /* patches answered by a listed person
					within the target, over patches
					(-1 over none) */
	GPtrArray *listed;           /* struct ms_rv_person *, M: and R: */
	GPtrArray *others;           /* unlisted repliers, most replies first */
	GArray *tags_dropped;        /* struct ms_rv_tag: on list, not commit */
	GArray *tags_untraced;       /* in commit, not on the list */
	GPtrArray *aliases;          /* struct ms_rv_alias * */
	GPtrArray *defacto;          /* struct ms_rv_person * (in others):
					those ms_rv_defacto() finds */
	/* the shares' bases of the de-facto rule: the review tags all gave,
	 * the patches with a first human reply */
	size_t tags_total, first_replied_total;
	size_t accepted_by_notice;   /* patches an applied notice accepted */
	size_t commits;              /* linked or not, touching the entry */
	/* where the patches stand: a count per state (superseded counts
	 * the versions a newer one replaced), accepted over accepted and
	 * rejected (-1 over none), versions posted until accepted, first
	 * posting to acceptance, and the open patches' wait from their
	 * first posting to the window's end (medians and p90s, -1: none) */
	size_t states[MS_RV__STATES];
	double accept_rate;
	int64_t revisions_median;
	int64_t accept_median, accept_p90;
	size_t open;
	int64_t open_median, open_p90;
	/* With opts->nr_intervals: per interval, the entry's figures over
	 * that interval's part (struct ms_rv_entry *, whose own intervals
	 * are NULL), or NULL when neither a patch nor a commit falls in
	 * it.  Else NULL. */
	GPtrArray *intervals;
	GPtrArray *strings;          /* private: strings the entry owns */
};

/* Which of ms_rv_defacto()'s (verdict.h) shares holds (bits). */
enum {
	MS_RV_DEFACTO_APPLIED = 1,   /* applied most of the merged patches */
	MS_RV_DEFACTO_TAGS = 2,      /* gave most of the review tags */
	MS_RV_DEFACTO_FIRST = 4,     /* answered most answered patches first */
	MS_RV_DEFACTO_NOTICES = 8,   /* accepted most of the patches an
					applied notice accepted */
};


/* A patch posting of the window set aside, and why (docs/review.md,
 * "Set aside"). */
struct ms_rv_aside {
	uint32_t rec;                /* the posting */
	enum ms_rv_aside_rule rule;
	char *evidence;              /* what showed it (owned) */
	uint32_t by;                 /* the posting that evidence is of:
					`rec`, or a patch of its series */
};

struct ms_review {
	GPtrArray *entries;          /* struct ms_rv_entry * */
	int64_t since, until;
	int64_t *bounds;             /* the series' bounds, or NULL */
	size_t nr_intervals;
	size_t negative;             /* over all entries */
	/* patch postings of the window set aside, by rule (any entry) */
	size_t aside[MS_RV_ASIDE_RULES];
	size_t aside_total;          /* their sum */
	size_t own_by_blobs;         /* kept by pre-image blobs */
	GArray *aside_list;          /* struct ms_rv_aside: the postings
					counted in aside_*, in archive
					order */
	const struct ms_link_result *links; /* borrowed: the postings
					    * applied as commits, or NULL */
	GHashTable *strings;         /* private: interned canonical names */
	struct ms_ident *own_ident;  /* private: when opts->ident was NULL */
};

/*
 * Compute the report.  `commits` and `links` may be NULL (no merged
 * figures, no tag ledger, no commit counts).
 */
struct ms_review *ms_review_compute(const struct ms_link_mail *lm,
				    const struct ms_review_map *map,
				    const struct maint_file *mf,
				    const GPtrArray *commits,
				    const struct ms_link_result *links,
				    const struct ms_review_opts *opts);
void ms_review_free(struct ms_review *rv);
/* Free one entry of a report (ms_review_free does it for all). */
void ms_rv_entry_free(struct ms_rv_entry *e);

/* ---- the triage queue (`maintstat pending`) ---- */

/* An open patch: entry and patch indexes of a report. */
struct ms_rv_pending {
	size_t entry;
	guint patch;
};

/*
 * The open patches of `rv` (ms_rv_state_open()), oldest first posting
 * first, each once (in the first entry that has it): a new array of
 * struct ms_rv_pending (g_array_free).  With a person (`person`, an id
 * of `ident`, or `email`; MS_IDENT_NONE and NULL: anyone): only in the
 * entries listing them, and not those whose state was decided by a
 * message of theirs (their answer is the last word so far) nor those
 * whose newest version they sent (it waits on others).
 * *listing: how many entries were looked at (with a person, those listing
 * them: 0 tells that nothing can wait on them, a mistyped address as much
 * as a person listed nowhere).
 */
GArray *ms_rv_pending(const struct ms_review *rv,
		      const struct ms_mail_index *idx, struct ms_ident *ident,
		      unsigned person, const char *email, size_t *listing);

/* One who answered a patch: the entry's person (review's label, one
 * per person however many addresses they wrote from), or, when the
 * sender is none of the entry's people, the message's sender. */
struct ms_rv_answer {
	const char *name, *email;
};

/*
 * Who answered patch `pt` of entry `e` so far: the senders of its first
 * response, first listed response and first review tag, in that order,
 * each person once (`ident` joins their addresses; NULL: addresses
 * only).  Fills `out` and returns how many (at most 3).
 */
size_t ms_rv_answered(const struct ms_rv_entry *e,
		      const struct ms_mail_index *idx, struct ms_ident *ident,
		      const struct ms_rv_patch *pt, struct ms_rv_answer out[3]);

/* Who answers entry `e`'s patches first: its people (struct
 * ms_rv_person *, borrowed) with first_responses, most first, at most
 * `max` (a new array: g_ptr_array_unref). */
GPtrArray *ms_rv_first_responders(const struct ms_rv_entry *e, size_t max);

#endif
