/*
 * activity-internal.h - the model of activity.c, shared with
 * activity-model.c, which saves it in the store and reads it back.  Not
 * for other files.
 */
#ifndef MS_ACTIVITY_INTERNAL_H
#define MS_ACTIVITY_INTERNAL_H

#include "activity.h"
#include "bytes.h"
#include "trailer.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

struct ms_walk_opts;
struct ms_diags;

/*
 * A saved model starts with a head naming what it is the model of: the
 * model key without the commit (options, --maintainers files, mailmaps),
 * the commit, and a->state (MAINTAINERS as matched, .mailmap), 64 + 40 +
 * 64 hex digits.  A run over another commit with the same head but the
 * commit may take it as the tail of its walk (act_prev_read()).
 */
#define ACT_HEAD_LEN (64 + 40 + 64)
#define ACT_MODEL_KIND "activity"   /* in the store's `models` */

/*
 * The first records, ents, tags, trailer tokens, (name, address) pairs
 * and MAINTAINERS changes of a model: those a walk after new commits
 * made before act_model_append() put the saved model's tail behind them
 * (the part of the model saved alone, activity-model.c).
 */
struct act_span {
	size_t commits, ents, tags, tokens, seen, changes, hidden;
};

/* The saved model as rows of the store: a whole model and the parts
 * appended to it (activity-model.c). */
struct act_chain;

/* One commit, compactly: 72 bytes plus its entries and *-by trailers. */
struct crec {
	unsigned char raw[20];
	int16_t aoff, coff;
	int64_t atime, ctime;
	unsigned author, committer, applier;
	uint32_t ent_off, tag_off;
	uint16_t nr_ent, nr_tag;
	bool reviewed;            /* a review or ack by someone else */
};

/* A "*-by:" trailer naming a person. */
struct ctag {
	unsigned person;
	const char *token;        /* interned */
	bool review;              /* Reviewed-by or Acked-by */
};

/*
 * What a load read from the store and how its walk fits it: the model's
 * persistence, kept apart from the model (activity-model.c).
 */
struct act_saved {
	GHashTable *saved_paths;  /* path -> entries, as saved by earlier
				     runs (activity-paths), or NULL */
	struct ms_activity *prev;  /* the saved model of an older commit,
				     the tail of this walk if it fits */
	bool prev_fits;           /* the walk delivered only the head */
	size_t prev_from;         /* prev's records from here are the tail */
	struct act_chain *chain;  /* the saved rows model_read() found, or
				     NULL */
	size_t prev_rows;         /* rows of the chain prev was read from */
	char prev_head[ACT_HEAD_LEN + 1];   /* prev's head */
	char prev_key[65];        /* the key of the row prev was read from
				     last (a part is saved under it) */
	bool appended;            /* act_model_append() took prev's tail */
	struct act_span head_span;  /* then: the walked head's sizes */
};

struct seen_first;           /* activity.c's */
struct act_used;             /* activity-people.c's */
struct act_addresses;        /* activity-people.c's */

struct ms_activity {
	struct ms_tree *tree;
	struct maint_file *mf;
	struct maint_index *idx;
	struct ms_ident *ident;
	bool no_plus_fold;
	GArray *commits;          /* struct crec, in walk order */
	/* raw ids (20 bytes each) of merges of the history the walk left
	 * out (no --merges): with the records, the walk order the next
	 * walk starts from (ms_store_prev_walk) */
	GArray *hidden;
	GArray *ents;             /* uint32_t entry indexes */
	GArray *tags;             /* struct ctag */
	GHashTable *tokens;       /* interned trailer tokens */
	GHashTable *reviews;      /* "author>reviewer" ids -> commit hex
				     (note_distinct), or NULL */
	GPtrArray *token_order;   /* the same, in the order interned */
	GArray *maint_changes;    /* raw ids of commits touching MAINTAINERS */
	/* per change: the paths it touched named MAINTAINERS (the top-level
	 * one, board/x/MAINTAINERS...), '\n'-separated, owned */
	GPtrArray *maint_paths;
	GPtrArray *maint_joins;   /* struct act_mjoin, NULL until computed */
	bool *has_files;          /* per entry: some file of the tree is its */
	GHashTable *lists;        /* comparable L: addresses */
	GHashTable *match_cache;  /* path -> entries (match_path) */
	bool *in_range;           /* per commit, with --since REV, or NULL */
	int64_t range_since;      /* REV's commit date */
	GHashTable *paths;        /* paths of a saved model (match_cache is
				     empty then), or NULL */
	struct act_saved *sv;     /* what was read from the store, and how
				     the walk fits it (activity-model.c) */
	char state[65];           /* digest of what the records depend on at
				     this commit: MAINTAINERS, .mailmap */
	GMutex match_lock;
	/* ms_activity_seen()'s index, built on its first call: per person
	 * id, the oldest commit time of a record naming them (author,
	 * committer or trailer), and the number of records it covers */
	GMutex seen_lock;
	struct seen_first *first_seen;
	size_t nr_first_seen;
	guint seen_records;
	int64_t seen_newest;      /* the newest commit date of the records */
	/* per id as resolved, before the joins: the newest record naming it
	 * (act_note_used()), for ms_activity_last_address() */
	struct act_used *last_used;
	size_t nr_last_used;
	/* built on the first call of that (under seen_lock): how each id is
	 * written, who uses which domain */
	struct act_addresses *addresses;
	/* ms_activity_last_seen()'s index for an `until` before
	 * seen_newest: the same over the records up to it, for the last
	 * such `until` asked (upto) and number of records */
	struct seen_first *upto_seen;
	size_t nr_upto_seen;
	bool upto_built;
	guint upto_records;
	int64_t upto;
	int64_t newest;           /* newest commit date not in the future */
	int64_t now;              /* when the load began */
	size_t future;            /* commits dated after now + a day */
	int64_t future_max;
	int64_t oldest;           /* oldest commit date read */
	bool shallow;             /* a shallow clone: history cut short */
	const struct ms_activity_load_opts *opts;   /* during the load */
	/* who was listed where when a window began (act_listed_then(),
	 * activity-listing.c): the repository, whether MAINTAINERS came
	 * from it (not from --maintainers files), and the last window
	 * start asked about with the MAINTAINERS files of its commit */
	char *gitdir;
	bool maint_from_rev;
	GMutex then_lock;
	bool then_done;
	int64_t then_since;
	char then_rev[41];        /* that commit, "" when none is that old */
	GHashTable *then_files;   /* path -> struct maint_file *, or NULL
				     for a file absent then (or unreadable:
				     a marker) */
	bool then_all_done;       /* then_all read (NULL: could not be) */
	struct maint_file *then_all;   /* every MAINTAINERS file then */
	/* opts->keep_paths: the paths of the records this load walked,
	 * interned in walked_chunk; record i's are walked_paths from
	 * walked_off[i] to walked_off[i + 1] (i < walked_off->len - 1) */
	GStringChunk *walked_chunk;
	GPtrArray *walked_paths;  /* const char *, borrowed from the chunk */
	GArray *walked_off;       /* uint32_t */
};

/*
 * Whether listed person `p` of entry `me` was listed in that entry at
 * `since`: in the MAINTAINERS file of the entry as of the newest commit
 * dated before `since`, under any of their addresses or their name (an
 * entry absent from that file is a new or renamed one: not listed; a
 * file absent then is looked for among every MAINTAINERS file of that
 * commit, as board/freescale/x/MAINTAINERS became board/nxp/x/...): 1
 * listed, 0 not, -1 when that cannot be known (MAINTAINERS from
 * --maintainers, no commit that old).
 */
int act_listed_then(const struct ms_activity *a,
		     const struct maint_entry *me,
		     const struct ms_act_person *p, int64_t since);

/* At ms_activity_free(): free the sets. */
void act_listing_release(struct ms_activity *a);

/*
 * A change of address a MAINTAINERS commit records: "Name <old>" left
 * the M:/R: lines and "Name <new>" came in.  Names may be NULL.
 */
struct act_mjoin {
	char id[41];              /* the commit */
	char *oname, *oemail, *nname, *nemail;
};

void act_mjoin_free(gpointer p);
/* One change of address in the byte codec (the saved model and the
 * kept table of changes): act_mjoin_get() always returns a change, of
 * commit `id`, to free; r->ok says whether it was read whole. */
void act_mjoin_put(GByteArray *b, const struct act_mjoin *j);
struct act_mjoin *act_mjoin_get(struct ms_rd *r, const char *id);

/* A commit id in hex from its raw 20 bytes. */
void act_set_id(char id[41], const unsigned char raw[20]);
/* The entries `path` matches, count first, then their depths (as
 * ms_activity_match() gives them), cached in a->match_cache (shared by
 * the walk's workers under a lock). */
const uint32_t *act_match_path(struct ms_activity *a, const char *path);
/* The walk's callbacks that make a's records (wo->data = a). */
struct ms_walk_opts;
void act_walk_fns(struct ms_walk_opts *wo, struct ms_activity *a);

/*
 * activity-mjoins.c: find the changes of address of a->maint_changes
 * (each commit's files named MAINTAINERS, read at the commit and its
 * parent; the store's saved ones reused) into a->maint_joins, and join
 * their people in a->ident under each commit.  A failure to save the
 * ones found is a warning in `diags` (may be NULL), not an error.
 */
void act_find_maint_joins(struct ms_activity *a, struct ms_diags *diags);
void act_join_history(struct ms_activity *a);

/*
 * The path -> entries answers saved under `key` (a maint_index
 * fingerprint) into a->saved_paths (left NULL when none or not whole);
 * and saved again, with this run's new ones, when there are any.
 */
void act_paths_read(struct ms_activity *a, const char *key);
int act_paths_write(struct ms_activity *a, const char *key);
#define ACT_PATHS_FEW 64

/*
 * Append the records of `old` (a saved model) from a->prev_from on, the
 * end of the walk order a's walk stopped before (act_walk_head()), as a
 * walk of the whole history would have made them: its people resolved
 * again after a's, ids, entry and trailer offsets moved to a's; with
 * `note`, act_note_commit() on each.  Notes a's sizes before it in
 * a->head_span.  False when its people do not map one to one (then `a`
 * must be discarded and walked in full).
 */
bool act_model_append(struct ms_activity *a, struct ms_activity *old,
		      bool note);

/*
 * The walk of `a` (options `wo`), through the store: after the walk
 * order of a->prev when there is one (only the commits it lacks are
 * read), noting the merges it leaves out in a->hidden.
 */
int act_walk(struct ms_activity *a, const struct ms_walk_opts *wo,
	     struct ms_diags *diags);

/* What collect() notes of a commit record besides keeping it: its
 * distinct people and its date (`nr_before` records before it). */
void act_note_commit(struct ms_activity *a, const struct crec *r,
		     size_t nr_before);

void act_model_head(const struct ms_activity *a, const char *id,
		    char head[ACT_HEAD_LEN + 1]);

/* a->state: the .mailmap's digest (act_ident_setup()) with the
 * MAINTAINERS fingerprint `pkey`. */
void act_state_finish(struct ms_activity *a, const char *pkey);

void act_chain_free(struct act_chain *c);

/*
 * When a->chain ends in a part saved under `key`: the model it makes
 * (read into `a` as act_model_decode() does, without act_note_commit()),
 * 1; 0 when it does not end so; 2 when the parts do not make a whole
 * model (`a` must then be discarded).
 */
int act_chain_load_key(struct ms_activity *a, const char *key);

/*
 * Save the model of `a` under `key`: after act_model_append(), as a part
 * holding only the walked head behind a->prev_head, unless the chain
 * would grow past ACT_MAX_PARTS parts or the head is not small beside
 * the tail; else as a whole model, the parts behind it forgotten.
 */
#define ACT_MAX_PARTS 8
int act_model_save(struct ms_activity *a, const char *key, const char *head);

/*
 * After new commits: the model saved by the last run (any commit), if it
 * has the same head but the commit, read into a->prev.  The walk then
 * delivers only the commits before it in walk order (act_walk_head(), an
 * ms_walk_opts.head), if its commits are exactly the tail of this walk,
 * and act_model_append() adds it.
 */
void act_prev_read(struct ms_activity *a, const char *head);
size_t act_walk_head(const unsigned char *ids, size_t n, void *data);

/* Why the listed address of `p` names a role or a list, not a person
 * (activity.c); MS_ACT_ROLE_NONE when it does not. */
enum ms_act_role act_role_address(const struct ms_activity *a,
				  const struct ms_act_person *p);

/* "noreply", "no-reply" or "bot" as a word: a bot's name or address. */
bool act_is_word_bot(const char *s);

/*
 * activity-people.c: note in a->last_used, per id, the newest record
 * naming it as author, committer or in a *-by: trailer.  Called after the
 * walk (or the saved model's reading) and before the records' ids become
 * their groups', so that it sees which address each record used.
 */
void act_note_used(struct ms_activity *a);
void act_addresses_free(struct act_addresses *x);

/* The model's empty arrays and tables (activity.c). */
void act_model_init(struct ms_activity *a);

/* Give `ident` the .mailmap of a's tree, --mailmap and --aliases, and
 * note the .mailmap's digest in a->state (activity.c). */
int act_ident_setup(struct ms_activity *a, struct ms_ident *ident,
		    struct ms_diags *diags);

/* The interned copy of a trailer token (activity.c). */
const char *act_intern(struct ms_activity *a, const char *token,
		       enum ms_trailer_kind kind);

/*
 * The store key of the model of a walk from commit `id` with `opts`: it
 * names everything the saved part of the model depends on.
 */
char *act_model_key(const struct ms_activity_load_opts *opts,
		    const char id[41]);


/*
 * Fill `a` (its resolver holding only .mailmap and aliases so far) from
 * saved bytes, as act_model_encode() had it.  False when they do not hold
 * a whole model (a must then be discarded).
 */
bool act_model_decode(struct ms_activity *a, const void *data, size_t len);

#endif
