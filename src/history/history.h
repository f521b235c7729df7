/*
 * history.h - one pass over a repository's history: every commit's
 * author, committer, trailers and touched paths, with the tree diffs
 * spread over worker threads (each with its own libgit2 repository
 * handle) and the commits handed back to the caller in walk order.
 *
 * Implemented in git-walk.c, the libgit2 adapter for history.
 *
 * Odd data never stops a walk: a missing email comes back as "", names
 * that are not UTF-8 are converted (from the commit's encoding header,
 * else Latin-1), an empty message has no trailers, and commits whose
 * trees or parents are missing from a partial mirror are delivered with
 * `incomplete` set; the walk adds one diagnostic with their count.
 */
#ifndef MS_HISTORY_H
#define MS_HISTORY_H

#include "error.h"
#include "trailer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An author or committer line. */
struct ms_sig {
	const char *name;   /* UTF-8; "" when absent */
	const char *email;  /* as written; "" when absent */
	int64_t time;       /* seconds since the epoch */
	int offset;         /* minutes east of UTC */
};

/* One trailer of the message's trailer block (git interpret-trailers). */
struct ms_commit_trailer {
	enum ms_trailer_kind kind;
	const char *token;  /* as written, e.g. "Reviewed-by" */
	const char *value;  /* first line of the value, trimmed */
	bool is_person;     /* "*-by:" or Cc: */
	const char *name;   /* person trailers: parsed name, or NULL */
	const char *email;  /* person trailers: parsed address, or NULL */
};

/*
 * One commit.  Everything is borrowed from the walk and valid only during
 * the callback that receives it.
 */
struct ms_commit {
	char id[41];          /* full hex id */
	unsigned nr_parents;
	const char *const *parents; /* nr_parents full hex ids, in order */
	struct ms_sig author;
	struct ms_sig committer;
	struct ms_commit_trailer *trailers;
	size_t nr_trailers;
	/* Paths touched against the first parent (all paths of a root
	 * commit), in tree order, no rename detection, as git log --raw
	 * --no-renames lists them.  Empty with MS_WALK_NO_PATHS. */
	const char **paths;
	size_t nr_paths;
	bool incomplete;      /* an object was missing: paths may lack some */
	void *user;           /* what opts->prepare returned */
};

enum ms_walk_flags {
	MS_WALK_MERGES = 1 << 0,   /* deliver merge commits too */
	MS_WALK_NO_PATHS = 1 << 1, /* skip the tree diffs */
};

struct ms_walk_opts {
	const char *rev;      /* where to start; NULL means "HEAD" */
	unsigned flags;       /* enum ms_walk_flags */
	int nr_threads;       /* diff workers; 0: ms_workers() */
	/*
	 * When set, no revwalk: exactly these commits (full hex ids) are
	 * read and delivered, in this order, and `rev` is ignored.  The
	 * store (store.h) uses it to extract only what it lacks.
	 */
	const char *const *ids;
	size_t nr_ids;
	/*
	 * Optional, called on a worker thread for each delivered commit
	 * once it is complete (so it must be thread-safe): per-commit work
	 * that parallelises, such as matching paths to MAINTAINERS entries.
	 * Its result is stored in commit->user.
	 */
	void *(*prepare)(const struct ms_commit *c, void *data);
	/*
	 * Called on the calling thread for each commit, in walk order
	 * (newest commit date first, commits of equal date by id, a total
	 * order: the walk from any tip restricted to an older tip's
	 * commits is that tip's walk; with `ids`, their order).  A nonzero
	 * return stops the walk, and ms_history_walk() returns it.  It owns
	 * commit->user and must free it.
	 */
	int (*fn)(const struct ms_commit *c, void *data);
	/* Frees a prepare result of a commit that a stopped walk never
	 * handed to fn; may be NULL when prepare allocates nothing. */
	void (*release)(void *user, void *data);
	void *data;
	/*
	 * Optional, store walks only (ms_store_history_walk() with a store
	 * that knows the history): given the raw ids (20 bytes each) of the
	 * `n` commits the walk would deliver, in walk order, how many of the
	 * first ones to deliver (n: all).  A caller that kept what it made
	 * of the tail of this order reads only the new head.  Not called
	 * when the walk reads git itself.
	 */
	size_t (*head)(const unsigned char *ids, size_t n, void *data);
};

struct ms_walk_stats {
	size_t walked;        /* commits the revwalk produced */
	size_t delivered;     /* commits passed to fn */
	size_t merges;        /* merges skipped (without MS_WALK_MERGES) */
	size_t incomplete;    /* commits with missing objects */
};

/*
 * Walk the history of `gitdir` (a bare repository, a .git directory or a
 * work tree) from opts->rev.  Returns 0, the nonzero value fn returned,
 * or a negative code: MS_ENOTFOUND for a repository that does not exist
 * ("not a git repository: 'X'"), MS_EBADREV for a revision that names no
 * commit ("unknown revision 'R'", "'R' does not name a commit"),
 * including an empty repository's HEAD ("unknown revision 'HEAD':
 * repository 'X' has no commits"), MS_ERROR otherwise.  Recoverable
 * problems go to `diags` (may be NULL); `stats` may be NULL.
 */
int ms_history_walk(const char *gitdir, const struct ms_walk_opts *opts,
		    struct ms_walk_stats *stats, struct ms_diags *diags);

/*
 * Resolve `rev` (NULL: "HEAD") of `gitdir` to a commit: its hex id into
 * `id` (may be NULL) and its commit date into *time (may be NULL).
 * Errors as for ms_history_walk().
 */
int ms_history_resolve(const char *gitdir, const char *rev, char id[41],
		       int64_t *time);

/*
 * The commits of `from`..`to` (git rev-list's meaning: reachable from `to`,
 * NULL meaning HEAD, and not from `from`), merges included: fn(id, commit
 * date, data) for each, in no particular order.  Errors as
 * ms_history_resolve(), for either revision.
 */
int ms_history_range(const char *gitdir, const char *from, const char *to,
		     void (*fn)(const char *id, int64_t time, void *data),
		     void *data);

/*
 * Read file `path` of revision `rev` (NULL: "HEAD") into a new
 * NUL-terminated buffer (g_free it); *len excludes the NUL.  MS_ENOTFOUND
 * when the revision has no such file (or `gitdir` is no repository),
 * MS_EBADREV when `rev` names no commit.
 */
int ms_history_read_file(const char *gitdir, const char *rev,
			 const char *path, char **buf, size_t *len);

/*
 * The same for each of the `n` revisions `revs`, the repository opened
 * once: `fn` gets each revision having the file, with its text (borrowed
 * for the call), until it returns true.  Returns 0, or a negative code
 * when `gitdir` cannot be opened.
 */
int ms_history_read_files(const char *gitdir, char *const *revs, size_t n,
			  const char *path,
			  bool (*fn)(const char *rev, const char *buf,
				     size_t len, void *data),
			  void *data);

/*
 * Whether `gitdir` is a shallow clone (git clone --depth): its history
 * stops at boundary commits whose parents are absent.  ms_history_walk()
 * then leaves the boundary commits out and says so in `diags`; what came
 * before is unknown.
 */
bool ms_history_is_shallow(const char *gitdir);

#endif
