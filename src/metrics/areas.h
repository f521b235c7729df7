/*
 * areas.h - who really looks after each part of a MAINTAINERS entry
 * (issue 37): an entry's files cut into areas (directories below its
 * F: patterns, a file pattern's files), and per area the window's
 * commits, the share reviewed, when each listed person was last active
 * there, the top people there and three flags (unattended, de-facto,
 * dormant), each with its evidence.
 *
 * It counts the records of the activity model (activity.h: the same
 * window, identity model and non-merge commits as `activity`) by path,
 * so it needs each commit's touched paths: ms_commit_paths_load() gets
 * them from the load's walk, the store, or git, in that order.
 *
 * Ownership: results are the caller's (the matching _free); strings in
 * them are owned by the result unless said borrowed.
 */
#ifndef MS_AREAS_H
#define MS_AREAS_H

#include "activity.h"
#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ms_activity;
struct ms_store;
struct maint_entry;

/* ---- the paths of each commit ---- */

struct ms_commit_paths;

/*
 * The touched paths of every record of `a`: from the load's walk
 * (ms_activity_load_opts.keep_paths), else from the store's row of kind
 * "areas-paths" (`store`, borrowed; may be NULL), else from git (`rev`
 * of the model's repository; a walk through the store when many are
 * missing, else those commits only).  What was not in the row is saved
 * in it again; a store that cannot be read or written is a warning in
 * `diags`.  Returns 0 and *out (ms_commit_paths_free), or a negative
 * code of the history walk.
 */
int ms_commit_paths_load(const struct ms_activity *a, struct ms_store *store,
			 const char *rev, bool merges,
			 struct ms_commit_paths **out, struct ms_diags *diags);
/* Record i's paths (borrowed) and their number in *n. */
const char *const *ms_commit_paths_get(const struct ms_commit_paths *cp,
				       size_t i, size_t *n);
/* How many records came from the walk, the store's row and git. */
void ms_commit_paths_sources(const struct ms_commit_paths *cp,
			     size_t *walked, size_t *stored, size_t *read);
void ms_commit_paths_free(struct ms_commit_paths *cp);

/* ---- the areas ---- */

/* An area with fewer commits in the window is not cut further. */
#define MS_AREAS_MIN_COMMITS 20
/* People named per area. */
#define MS_AREAS_TOP 5
/* A de-facto person applied or reviewed at least half of
 * ms_areas_query.min_commits (the commits an area needs to be looked
 * into) of the area's commits, and never fewer than this: a handful of
 * tags in five years is no one's care of an area (rdma-core's
 * libibverbs/: 5 review tags of 74 commits). */
#define MS_AREAS_DEFACTO_MIN 3
/* ... and the newest of those is at most this many years before the end
 * of the window (a few old commits make no one de-facto now: a person
 * removed from MAINTAINERS as inactive, a series reviewed years ago). */
#define MS_AREAS_RECENT_YEARS 1
/* A commit touching more entries than this is tree-wide (U-Boot's
 * "global: Move remaining CONFIG_SYS_* to CFG_SYS_*", 744 files): it
 * counts in every figure, but applying or reviewing it is no evidence
 * of looking after any one area (the de-facto shares leave it out). */
#define MS_AREAS_TREEWIDE 10
/* Example commits kept per person (the newest). */
#define MS_AREAS_EXAMPLES 3

struct ms_areas_query {
	int64_t since, until;     /* the window, both inclusive */
	/* Only these entries (borrowed); NULL means all, in file order. */
	const struct maint_entry *const *entries;
	size_t nr_entries;
	size_t min_commits;       /* see MS_AREAS_MIN_COMMITS */
	/* --by: interval k is [bounds[k], bounds[k + 1]) cut by the window
	 * (nr_intervals + 1 increasing dates, borrowed); NULL: none */
	const int64_t *bounds;
	size_t nr_intervals;
};
#define MS_AREAS_QUERY_INIT { .min_commits = MS_AREAS_MIN_COMMITS }

enum ms_area_flag {
	/* commits in the window, none authored, committed or tagged by a
	 * person the entry lists (nor one an inner entry covering files of
	 * the area lists) */
	MS_AREA_UNATTENDED = 1 << 0,
	/* someone no entry covering files of the area lists (so
	 * get_maintainer.pl names them for none), nor an entry naming no
	 * file (the whole project's, as rdma-core's "* OVERALL PACKAGE"),
	 * applied half of the window's commits there, or gave half of its
	 * review tags and on at least a quarter of its commits (half of
	 * the few reviewed ones of a mostly unreviewed area is no one's
	 * reviewing), either at least min_commits / 2 times (and
	 * MS_AREAS_DEFACTO_MIN); tree-wide commits (MS_AREAS_TREEWIDE)
	 * left out, the newest of them in the window's last
	 * MS_AREAS_RECENT_YEARS; never in an area with no file in the
	 * tree, nor for a custodian who applied others' patches of it
	 * through their tree (ms_area_person.custodial), nor for someone
	 * the entry listed in the window (listed_then) */
	MS_AREA_DEFACTO = 1 << 1,
	/* no commit in the window */
	MS_AREA_DORMANT = 1 << 2,
};

/* A person the entry lists (M: or R:), in the area. */
struct ms_area_listed {
	char role;                /* 'M' or 'R' */
	char *name, *email;       /* as listed (may be "") */
	unsigned person;          /* ident.h id */
	struct ms_act_last author, committer, tags; /* tag: NULL */
};

/* A person active in the area in the window. */
struct ms_area_person {
	unsigned person;
	const char *name, *email; /* canonical (ident.h), borrowed */
	size_t authored;          /* commits authored */
	size_t committed;         /* commits applied (activity's committer) */
	size_t reviewed;          /* commits with their Reviewed-/Acked-by,
				     not as the author */
	int64_t last;             /* newest commit date of those */
	/* What the de-facto rule weighs: the same, of the area's focused
	 * commits (ms_area.focused), less what they did there as a
	 * custodian (below). */
	size_t focused_authored, focused_committed, focused_reviewed;
	int64_t focused_last;     /* the newest of those commits' dates */
	/*
	 * A custodian keeps a tree the project pulls from: the person is
	 * an M: of an entry with a T: line (custodian_of, borrowed; the
	 * first in file order).  Applying another's patch is then passing
	 * it through that tree, not looking after the area: such commits
	 * (custodial of them here, focused ones only) count for neither
	 * their committing nor their review tag on them.
	 */
	const char *custodian_of;
	size_t custodial;
	/* the first other entry covering files of the area that lists
	 * the person, inner ones first, else the first entry naming no
	 * file that lists them (borrowed name), or NULL */
	const char *listed_in;
	bool listed;              /* the entry lists them */
	/* not listed now, but the entry listed them at some time in the
	 * window (ms_activity_listed_during()): their work there was a
	 * listed person's (Xen's Christian Lindig, removed from OCAML TOOLS
	 * two months before the window's end; DPDK's Paul Szczepanek, DTS
	 * maintainer for ten months of it), so never de-facto; asked of
	 * those the rule would make de-facto only */
	bool listed_then;
	/* de-facto evidence: the share that made it (MS_AREA_DEFACTO) */
	bool defacto_committer, defacto_reviewer;
	char examples[MS_AREAS_EXAMPLES][41];  /* newest first */
	size_t nr_examples;
};

/* Whether `p` is the area's de-facto person, and as what: "committer",
 * "reviewer", "committer and reviewer"; NULL when not. */
const char *ms_area_defacto(const struct ms_area_person *p);

/* What the entry's listing makes of `p` in the area, the first that
 * holds in the order the de-facto rule weighs them: listed by the
 * entry, by another entry (listed_in), applying as a custodian
 * (custodial, custodian_of), listed in the window; else
 * unlisted. */
enum ms_area_standing {
	MS_AREA_UNLISTED,
	MS_AREA_LISTED,
	MS_AREA_LISTED_ELSEWHERE,
	MS_AREA_CUSTODIAN,
	MS_AREA_LISTED_THEN,
};
enum ms_area_standing ms_area_standing(const struct ms_area_person *p);

/* Another entry matching files of the area (get_maintainer.pl names
 * both): how many of the window's commits there it covers too. */
struct ms_area_cover {
	const struct maint_entry *entry;   /* borrowed */
	size_t commits;
	/* an inner entry (a deeper pattern: it takes part of the area);
	 * else an outer one (THE REST...) */
	bool inner;
};

struct ms_area {
	/* relative to the tree: "dir/" (its files below), "dir/" followed by a star (the
	 * files right in dir/ when its subdirectories are areas of their
	 * own), a file, a glob pattern, or "N: regex" */
	char *path;
	size_t files;             /* files of the tree the entry has there */
	size_t commits;           /* of the window */
	size_t reviewed;          /* ... reviewed or acked by another */
	/* of those, the ones not tree-wide (MS_AREAS_TREEWIDE): what the
	 * de-facto shares are of */
	size_t focused, focused_reviewed;
	int64_t last_commit;      /* newest commit date there, up to until */
	bool has_last_commit;
	struct ms_area_listed *listed;   /* the entry's M: and R:, in order */
	size_t nr_listed;
	struct ms_area_person *top;      /* most active first */
	size_t nr_top;
	struct ms_area_cover *covers;    /* most commits first */
	size_t nr_covers;
	unsigned flags;           /* enum ms_area_flag */
	/* with ms_areas_query.bounds: the same facts over each interval's
	 * commits only (the areas are the window's; path NULL, files 0,
	 * each listed person's newest dates inside the interval), else
	 * NULL */
	struct ms_area *intervals;
	size_t nr_intervals;
};

struct ms_areas_entry {
	const struct maint_entry *entry;   /* borrowed */
	size_t commits;           /* of the window touching the entry */
	/* an F: line of a star and a slash: the entry has every path in a
	 * directory (THE REST), and its areas are the top-level
	 * directories, never cut further */
	bool whole_tree;
	struct ms_area *areas;    /* most commits first, then by path */
	size_t nr_areas;
};

struct ms_areas {
	struct ms_areas_entry *entries;    /* as the query asked */
	size_t nr_entries;
};

/*
 * Cut each entry of query `q` into areas and count the records of `a`
 * (their paths from `cp`) into them.  A path belongs to the entry when
 * its F: (or N:) patterns match it and no X: does, as get_maintainer.pl
 * matches; to the outermost directory pattern holding it, else to the
 * first file pattern, else to the N: pattern.  A directory is cut into
 * its subdirectories (and its own files, "dir/" followed by a star) while it holds at
 * least q->min_commits commits of the window and more than one of those
 * parts has commits.  An F: line of a star and a slash (every path in a
 * directory) is the root directory, whose parts are the top-level
 * directories, each one area.  With q->bounds, each area's facts over each
 * interval too, in one pass over the records.  Returns 0 and *out
 * (ms_areas_free).
 */
int ms_areas_compute(const struct ms_activity *a,
		     const struct ms_commit_paths *cp,
		     const struct ms_areas_query *q, struct ms_areas **out);
void ms_areas_free(struct ms_areas *r);

/*
 * The first other entry matching files of `e`'s areas (their covers,
 * inner ones first) that lists `person` (an id of `a`'s identity model)
 * as M: or R:, else the first entry naming no file (no F:, N: or K:)
 * that lists them, or NULL: get_maintainer.pl names them for those
 * files already, or MAINTAINERS lists them for the whole project.
 */
const char *ms_areas_listed_in(const struct ms_activity *a,
			       const struct ms_areas_entry *e,
			       unsigned person);

/* "unattended", "de-facto", "dormant": the JSON and text names. */
const char *ms_area_flag_name(enum ms_area_flag f);

#endif
