/*
 * people.h - the whole list's people and companies (`maintstat people`,
 * the netdev development report): per person over the window, the
 * patches they posted, the messages they sent, the patches they answered
 * and the scores of linux-netdev/ml-stat; per company the sums.  Every
 * figure is defined in docs/review.md ("The list's people").
 *
 * Patches, versions, bots, the identity model and what is set aside are
 * review's (review.h): the same archives, map and options.  Results are
 * the caller's (ms_people_free); strings inside are borrowed from the
 * identity model and the employers file, which must outlive them.
 */
#ifndef MS_PEOPLE_H
#define MS_PEOPLE_H

#include "error.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ms_link_mail;
struct ms_review;
struct ms_review_map;
struct ms_review_opts;

/* ---- employers: address or domain to company ---- */

struct ms_employers;

/*
 * Read an employers file (`text`, `len` bytes, named `file` in errors):
 * ml-stat's db.json (its "corpmap": ["needle", "Company"] pairs, a needle
 * matched within "<address>") or gitdm's domain-map and aliases lines
 * ("address-or-domain Company", optionally "< YYYY-MM-DD": that company
 * until that date; "alias canonical-address": the alias gets the
 * canonical address's company; '#' starts a comment).  Returns 0 and
 * *out (ms_employers_free), or MS_EPARSE naming "file:line".
 */
int ms_employers_parse(const char *file, const char *text, size_t len,
		       struct ms_employers **out);
void ms_employers_free(struct ms_employers *e);

/* ---- people and companies ---- */

/* The figures of a person, and summed, of a company. */
struct ms_people_counts {
	size_t authored;          /* patch postings sent */
	size_t series;            /* postings of a series (cover or N>1) */
	size_t own, other, stable; /* authored, by review's project rules */
	size_t messages;          /* messages sent (bots' never) */
	size_t threads;           /* threads they sent to */
	size_t replied;           /* others' patches they answered */
	size_t first_responses;   /* patches theirs answered first */
	size_t tags_given;        /* others' patches they gave a tag */
	size_t tags_received;     /* their patches someone tagged */
	/* ml-stat's parts: change sets, threads and messages as the
	 * thread's author or as reviewer */
	size_t author_cs, author_threads, author_messages;
	size_t reviewer_cs, reviewer_threads, reviewer_messages;
	int64_t reviewer_score;   /* ml-stat's score ("positive") */
	int64_t author_score;     /* its negation ("negative") */
	size_t entries_listed, entries_answered;
};

/* A stretch of the window in which a person who moved worked for
 * `company` (the window cut at the employers file's end dates, the
 * stretches of one company in a row joined): their figures there. */
struct ms_people_employer {
	const char *company;
	int64_t since, until;     /* inclusive; since 0: the window's */
	struct ms_people_counts c;
};

struct ms_people_person {
	unsigned person;          /* ident id */
	const char *name, *email; /* canonical */
	char **addresses;         /* every address of the group */
	const char *company;
	struct ms_people_counts c;
	int64_t median_first_response; /* seconds; -1: no reply */
	int64_t first, last;      /* their oldest and newest message of
				   * the window */
	/* the employers file gives them another company at `first` than
	 * at `last`: the companies' sums split their figures by date, the
	 * parts in `employers` (oldest first; none when they did not
	 * move) */
	bool moved;
	struct ms_people_employer *employers;
	size_t nr_employers;
	/* ms_people_compare(): rank by a figure in the earlier run (0:
	 * not in it) and the figure's change since */
	size_t prev_rank;
	int64_t score_change;
};

struct ms_people_company {
	const char *name;
	/* "(Unknown)": the people of no company known, summed; a
	 * remainder, never ranked as a company (the netdev report lists
	 * each such person as their own) */
	bool unknown;
	/* its people (struct ms_people_person *, borrowed from the same
	 * ms_people): one who moved is in each of their companies, whose
	 * sums hold only their figures there (ms_people_person.employers) */
	GPtrArray *people;
	struct ms_people_counts c;
	/* review points over author points: the score's parts, 2 x cs +
	 * 8 x threads + 2 x (messages - 1) as reviewer over 4 x messages as
	 * author; -1 when they authored none */
	double review_balance;
	size_t prev_rank;         /* as a person's */
	int64_t score_change;
};

struct ms_people {
	GPtrArray *people;        /* struct ms_people_person * */
	GPtrArray *companies;     /* struct ms_people_company * */
	int64_t since, until;
	struct ms_ident *ident;   /* review's (borrowed) */
	GHashTable *strings;      /* the companies named by a domain */
	GHashTable *index;        /* person id -> person */
	/* With review's series (rvo->nr_intervals, its bounds): the same
	 * computation over each interval, cut by the window, as a window
	 * of its own (a person's company there at their newest message
	 * there); without the entries (entries_listed and _answered 0).
	 * NULL in an interval's own ms_people (and in the parts of the
	 * window cut at the employers file's end dates) */
	struct ms_people **intervals;
	size_t nr_intervals;
};

/*
 * The people of archive `lm` over rvo's window (since, until), as
 * review's map, commits (may be NULL) and options (their identity model
 * required) see them; `rv` (may be NULL) is the review over the same, for
 * the entries each person answered.  With rvo->nr_intervals, each
 * interval too (ms_people.intervals).  Companies by `emp` (may be NULL).
 * People and companies come sorted by reviewer score.
 */
struct ms_people *ms_people_compute(const struct ms_link_mail *lm,
				    const struct ms_review_map *map,
				    const GPtrArray *commits,
				    const struct ms_review_opts *rvo,
				    const struct ms_review *rv,
				    const struct ms_employers *emp);
void ms_people_free(struct ms_people *p);

/* Person `person` (ident id, as ms_people_person.person) and company
 * `name` of `p` (an interval's, say), or NULL when not there: nothing
 * sent in it. */
const struct ms_people_person *ms_people_find(const struct ms_people *p,
					      unsigned person);
const struct ms_people_company *ms_people_find_company(
	const struct ms_people *p, const char *name);

/*
 * Release to release, as ml-stat's stat-print.py: each person's and
 * company's rank by figure `key` (ms_people_sort_keys) in an earlier run
 * (`people`: address -> int64_t * that figure, a person found under any
 * of their addresses; `companies`: name -> figure; borrowed) and the
 * figure's change since (prev_rank, score_change; 0 when not there).
 */
void ms_people_compare(struct ms_people *p, const char *key,
		       GHashTable *people, GHashTable *companies);

/*
 * What a list owner should fix (`--check`, as ml-stat's --check), each a
 * line saying it and the .mailmap lines that settle it (NULL when none;
 * a question is commented out):
 *   - addresses of one name the model did not join (ident.h,
 *     ms_ident_foreach_possible()): "# Name <a> <b>" with its why;
 *   - addresses joined by their display name or a MAINTAINERS change
 *     only: "Name <canonical> <other>";
 *   - domains of several people that no --employers line names.
 * A new array of struct ms_people_problem * (g_ptr_array_unref frees).
 */
struct ms_people_problem {
	/* "possible_join", "weak_join", "domain_without_company" (in
	 * that order above) */
	const char *kind;
	char *what;
	char *mailmap;
};
GPtrArray *ms_people_check(const struct ms_people *p);

/*
 * Sort people, companies and each company's people by figure `key` (a
 * JSON key: "authored", "messages", "reviewer_score", ...), greatest
 * first, then by address or name.  Returns 0, or MS_EUSAGE for an
 * unknown key.
 */
int ms_people_sort(struct ms_people *p, const char *key);

/* The keys ms_people_sort() takes, NULL-terminated: the JSON keys of
 * the figures ("reviewer_score", ...; "ml_stat.reviewer_cs" for the
 * parts of the score). */
extern const char *const ms_people_sort_keys[];

/* Figure `key` (ms_people_sort_keys) of `c`; 0 for an unknown key. */
int64_t ms_people_figure(const struct ms_people_counts *c, const char *key);

#endif
