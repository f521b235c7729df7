/*
 * review-internal.h - what review.c, review-map.c and review-aside.c
 * share, and people.c, built on review's model: the map of patch
 * postings to MAINTAINERS entries, the versions of a patch, and the
 * postings set aside.  Not for other files.
 */
#ifndef MS_REVIEW_INTERNAL_H
#define MS_REVIEW_INTERNAL_H

#include "review.h"
#include "maintainers.h"

#include <glib.h>

struct kpat {
	size_t entry;
	GRegex *re;
	GRegex *joined;      /* re on all changed lines, or NULL: k_joinable() */
	const struct maint_field *field;
	gint limit_hits;     /* lines on which it hit the match limits */
};

struct ms_review_map {
	const struct maint_file *mf;
	const struct maint_index *idx;
	GArray *kpats;               /* struct kpat */
	GPtrArray *recs;             /* per record: GArray of size_t, or NULL */
	GPtrArray *foreign;          /* per record: sibling project, or NULL */
	const GRegex *foreign_re;    /* --foreign-subject, or NULL */
	/* K: answers kept between runs (ms_review_map_read_saved()) */
	GBytes *saved_bytes;         /* the saved table, or NULL */
	GHashTable *saved;           /* digest -> record in saved_bytes */
	GByteArray *fresh;           /* records of this run's new answers */
	char *kkey;                  /* their key; NULL: none kept */
	/* the lists each patch was sent to (review-aside.c's recipients
	 * rule): list addresses, those MAINTAINERS names first */
	GHashTable *list_ix;         /* address -> index + 1 */
	GPtrArray *lists;            /* index -> address */
	guint nr_named;              /* indexes below it: named by an L: */
	GHashTable *hosts;           /* host -> how many named lists it has */
	GPtrArray *rcpts;            /* per record: struct ms_rv_rcpts *, or
					NULL */
	/* earlier versions a posting names ("Link to v1: <lore URL>") */
	GRegex *earlier_re;
	GPtrArray *earlier;          /* per record: GStrv of ids, or NULL */
	GPtrArray *base;             /* per record: b4's base-commit, or
					NULL */
	GPtrArray *loaded;           /* sibling names and base commits
					(foreign and base point into them) */
	GPtrArray *people;           /* per entry: its M:/R: people as
					ms_review_map_listed()'s ident has
					them (GArray of unsigned), or NULL */
};

/* A host where MAINTAINERS names this many lists is the project's own:
 * an unnamed list there is a newer one of it (review-map.c). */
#define MS_REVIEW_HOME_HOST 3

/* The lists a patch posting was sent to. */
struct ms_rv_rcpts {
	int32_t own;                 /* the list it was archived from (by its
					List-Id), or -1 */
	uint32_t n;
	uint32_t ix[];               /* list index << 1 | 1 when in To: */
};

/*
 * Which patch postings of `lm` are versions of one patch: per record, the
 * record that stands for its patch (a new array: g_free).  Versions share
 * a sender (`sender`: canonical, per record) and subject, or a patch-id
 * outside one posting, or a place in the next version of a series (its
 * subject, else its files alone), or a renamed lone patch's next version
 * (never after a posting `applied` names: records applied as commits,
 * struct ms_link_result's by_rec; may be NULL).
 */
uint32_t *ms_review_versions(const struct ms_link_mail *lm,
			     const struct ms_review_map *map,
			     const char *const *sender,
			     const GHashTable *applied);

/* The Message-IDs of the earlier versions posting `rec` links to ("Link
 * to v1: https://lore.kernel.org/r/ID"), NULL-terminated, or NULL. */
char *const *ms_review_map_earlier(const struct ms_review_map *map,
				   uint32_t rec);

/* The lists patch posting `rec` was sent to, or NULL. */
const struct ms_rv_rcpts *ms_review_map_rcpts(const struct ms_review_map *map,
					      uint32_t rec);

/* Why a patch posting is set aside, or (ASIDE_OWN_BLOBS) kept by what
 * evidence against the subject and recipient rules. */
enum aside { ASIDE_NONE, ASIDE_STABLE, ASIDE_SUBJECT, ASIDE_PATHS,
	     ASIDE_OWN_BLOBS, /* kept: the repository has its pre-image
				 blobs (ms_review_opts.objects) */
	     ASIDE_TOP_ONLY, /* kept by new top-level files: as its series */
	     ASIDE_RECIPIENTS,
	     ASIDE_TOP_RECIPIENTS, /* kept by new top-level files only, and
				     sent to another project's list: aside
				     unless its series is the project's */
	     ASIDE_MODIFIED /* modifies a file the project could not have:
			       aside with its series (as ASIDE_PATHS) */ };

/*
 * Why each patch posting of `lm` is set aside (enum aside per record, a
 * new array: g_free), given the entries' map, the window's `commits`
 * (their paths are the project's), the postings applied as commits
 * (`links`, may be NULL: those are the project's) and `opts`; those of
 * the window are
 * counted in `rv`'s aside_* figures.  A series is one project's: a patch
 * whose own paths are all unknown stays when another patch of its series
 * touches a known path.
 */
uint8_t *ms_review_set_aside(const struct ms_link_mail *lm,
			     const struct ms_review_map *map,
			     const GPtrArray *commits,
			     const struct ms_link_result *links,
			     const struct ms_review_opts *opts,
			     struct ms_review *rv);

/* The commit b4's "base-commit:" footer of record `rec` (a patch or a
 * cover letter) names, as written, or NULL. */
const char *ms_review_map_base(const struct ms_review_map *map, uint32_t rec);

/* The rule that set-aside answer `a` (enum aside) counts under, or -1
 * when it sets nothing aside. */
int ms_rv_aside_rule_of(uint8_t a);

/* An empty ms_review.aside_list (g_array_free frees its evidence). */
GArray *ms_rv_aside_list_new(void);

/* Median and 90th percentile (nearest rank) of `v` (int64_t, sorted in
 * place); -1 and false when empty. */
bool ms_rv_quantiles(GArray *v, int64_t *median, int64_t *p90);

/* Entry `e`'s figures over its patches' states (review.h), the open
 * patches' wait measured to `until`. */
void ms_rv_entry_states(struct ms_rv_entry *e, int64_t until);

/* Whether the sender of `r` is an M: or R: person (through `ident`,
 * the same at each call on `map`) of any entry patch posting `rec` maps
 * to: a tree's maintainer applying a patch that touches several entries
 * is listed in one of them only. */
struct ms_ident;
bool ms_review_map_listed(const struct ms_review_map *map, uint32_t rec,
			  struct ms_ident *ident, const struct ms_mail_rec *r);

/*
 * An applied notice `rr` that names patches (b4 ty items) answers for
 * the patch whose versions have the subject keys `keys` only when it
 * names one of them: *commit is then the commit id it gives (borrowed
 * from `idx`, or NULL).  For a patch it does not name it is a note (no
 * request, no decision).  Any other message: its own notice.
 */
enum ms_mail_notice ms_rv_notice_for(const struct ms_mail_index *idx,
				     const struct ms_mail_rec *rr,
				     const GPtrArray *keys, const char **commit);

/* The subject keys (ms_mail_subject_key()) of the records `postings`
 * (review-versions.c), each once (a version may retitle a patch); the
 * caller unrefs it. */
GPtrArray *ms_rv_subject_keys(const struct ms_mail_index *idx,
			      const GArray *postings);

/* The date of the newest of the records `postings` (a patch's
 * versions; at least one). */
int64_t ms_rv_newest_posting(const struct ms_mail_index *idx,
			     const GArray *postings);

/* Patches (struct ms_rv_patch) by their first posting's date, then its
 * place in the archives: every list of them, in text, JSON and HTML, is
 * in date order. */
gint ms_rv_patch_cmp(gconstpointer a, gconstpointer b);

/* Add `v` to the set `*s` (of g_direct_hash()), made by the first: most
 * people listed for an entry answer none of its patches (making their
 * four sets anyway was some 3% of a review's instructions). */
static inline void ms_rv_set_add(GHashTable **s, guint v)
{
	if (!*s)
		*s = g_hash_table_new(NULL, NULL);
	g_hash_table_add(*s, GUINT_TO_POINTER(v));
}

static inline guint ms_rv_set_size(GHashTable *s)
{
	return s ? g_hash_table_size(s) : 0;
}

#endif
