/*
 * recruit.h - the patch series that proposes, from the areas of
 * areas.h, the MAINTAINERS change the data supports (issue 37): an R:
 * line in the entry for each de-facto person of an area the entry's
 * people attend and for each de-facto maintainer the list's review
 * finds, or a new entry for an unattended subtree (its de-facto
 * people as R:, the parent entry's lists and status, F: the area),
 * never an M: line; none for a catch-all area (THE REST's '*'), nor for
 * an area an inner entry covers most of (that entry proposes), and for
 * the whole tree's entry (areas.h's whole_tree) only a new entry, named
 * for a top-level directory no other entry covers from inside.  git format-patch form, one patch per proposal
 * after a cover letter, each applying on the one before with git am.
 */
#ifndef MS_RECRUIT_H
#define MS_RECRUIT_H

#include "error.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ms_activity;
struct ms_areas;
struct ms_rv_entry;

struct recruit_opts {
	const char *from;          /* "Name <addr>": From and Signed-off-by */
	int64_t date;              /* of every patch */
	int64_t since, until;      /* the window, for the messages */
	/* people never proposed: folded addresses and names (borrowed) */
	const char *const *keep;
	size_t nr_keep;
	bool plus_fold;
	/* the list's review of each entry of the areas (their order; NULL:
	 * no list read, or an entry with no patch there): its de-facto
	 * maintainers (review.h's ms_rv_defacto()) are proposed as R: too,
	 * but not for the whole tree's entry; list_url (may be NULL) links
	 * their messages */
	const struct ms_rv_entry *const *list;
	const char *list_url;
};

struct recruit_patch {
	char *file_name;           /* "0001-MAINTAINERS-....patch" */
	char *subject;
	GString *text;             /* the whole patch */
	char **to;                 /* its To: ("Name <addr>", quoted) */
	char **cc;                 /* its Cc: lines */
};

struct recruit_series {
	struct recruit_patch *patches;   /* [0] is the cover letter */
	size_t nr;
	size_t kept;               /* proposals --keep left out */
};

/*
 * Reads the MAINTAINERS file `file` (a maint_entry's file, as the model
 * names it: "HEAD:board/x/MAINTAINERS", or a file given by path) for
 * the series: *path is its path in the patch (the tree's), *text its
 * contents (both g_free).  Returns 0, or a negative code with the error
 * set.
 */
typedef int (*recruit_read_fn)(const char *file, char **path, char **text,
			       void *data);

/*
 * Build the series for the areas `ar` of model `a`: each proposal edits
 * the MAINTAINERS file its entry was read from (U-Boot's board/x/
 * MAINTAINERS as well as the top-level one), read through `read`; a file
 * that cannot be read leaves its proposals out with a warning in
 * `diags`.  Returns 0 and *out (recruit_series_free; nr is 0 when
 * nothing is proposed), or a negative code.
 */
int recruit_build(const struct ms_activity *a, const struct ms_areas *ar,
		  recruit_read_fn read, void *data,
		  const struct recruit_opts *o, struct recruit_series **out,
		  struct ms_diags *diags);
void recruit_series_free(struct recruit_series *s);

#endif
