/*
 * coverage.h - the health of a MAINTAINERS file against its tree, as
 * LWN's "MAINTAINERS truth and fiction" (2021) counted it: files only
 * catch-all entries cover, entries without file patterns, patterns that
 * match nothing, and entries whose files another entry claims too.
 */
#ifndef MS_COVERAGE_H
#define MS_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>

struct maint_file;
struct maint_index;
struct maint_entry;
struct maint_field;
struct ms_tree;

struct coverage_dir {
	char *dir;        /* "kernel/sched" ("" for the top level) */
	size_t count;
};

struct coverage_overlap {
	const struct maint_entry *entry;
	const struct maint_entry *other;
	size_t entry_files;   /* files the entry matches */
	size_t shared_files;  /* of those, matched by `other` too */
	double share;         /* shared_files / entry_files */
};

/*
 * Whether overlap `v` is plain nesting: every F: pattern of the entry lies
 * below a directory F: pattern of the other (strictly deeper), and the
 * entry has no N: pattern, so it is a part of a broader area by design.
 */
bool coverage_overlap_nested(const struct coverage_overlap *v);

struct coverage {
	size_t files_total;
	/* entries that match every file of the tree (Linux: THE REST) */
	const struct maint_entry **catch_all;
	size_t nr_catch_all;
	/* files no other entry covers, sorted */
	const char **uncovered;
	size_t nr_uncovered;
	struct coverage_dir *by_dir;   /* by parent directory, most first */
	size_t nr_by_dir;
	struct coverage_dir *by_top;   /* by top-level directory, most first */
	size_t nr_by_top;
	const struct maint_entry **without_files; /* no F: and no N: */
	size_t nr_without_files;
	const struct maint_field **stale;         /* F:/X:/N: matching none */
	size_t nr_stale;
	const struct maint_entry **stale_entry;   /* the entry of each */
	struct coverage_overlap *overlaps;        /* share desc */
	size_t nr_overlaps;
	size_t *entry_files;  /* files matched, per entry index */
};

/*
 * Compute the report for every file of `tree`.  Overlaps are the pairs
 * where more than `min_share` (0..1) of an entry's files are matched by
 * the other entry too; catch-all entries take no part in them.  The result
 * borrows from `mf`, `idx` and `tree`; free it with coverage_free().
 */
int coverage_compute(const struct maint_file *mf,
		     const struct maint_index *idx, const struct ms_tree *tree,
		     double min_share, struct coverage **out);
void coverage_free(struct coverage *c);

#endif
