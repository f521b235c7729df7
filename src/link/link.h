/*
 * link.h - which mailing-list message posted each commit.
 *
 * Two models and a matcher:
 *
 *  - struct ms_link_mail: list archives read once (mail.h) into the mail
 *    index, plus what linking needs per patch message (the files its diff
 *    touches).  A hook sees every parsed message, so a report can keep
 *    more (review.h matches MAINTAINERS K: patterns against diff lines).
 *  - struct ms_link_commit: the commits of a window (history.h) with their
 *    author, dates, normalized subject, stable patch-id (patchid.h), the
 *    Message-IDs their Link:/Message-Id: trailers name, touched paths and
 *    review trailers.
 *  - ms_link_run(): for each commit, in this order: a Link: trailer naming
 *    a message of the archive (lore URLs in all their forms, /r/<id>,
 *    patch.msgid.link/<id>), a Message-Id: trailer, equal patch-ids, a
 *    posting whose Date is the commit's author date (git am keeps it)
 *    confirmed by its subject, sender or files, then author plus
 *    normalized subject (touched files break ties), and last, for
 *    commits still unlinked, a similar subject (half its words) on a
 *    posting of the same files no other commit took.  Among several
 *    postings of the same patch the one dated exactly at the author date
 *    is the applied version, else the newest one posted before the
 *    commit; the others posted earlier by the same author under the same
 *    subject are its earlier versions.
 *
 * Ownership: everything returned through **out is the caller's, freed
 * with the matching _free; records are borrowed from their model.
 */
#ifndef MS_LINK_H
#define MS_LINK_H

#include "error.h"
#include "mail.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- the mail side ---- */

struct ms_link_mail;
struct ms_store;

/* Called for every parsed message with its index record number; the
 * message is borrowed for the call. */
typedef void (*ms_link_mail_hook)(const struct ms_mail *m, uint32_t rec,
				  void *data);

struct ms_link_mail_opts {
	const char *const *archives;  /* paths (mail.h formats) */
	size_t nr_archives;
	unsigned parse_flags;         /* MS_MAIL_PARSE_KEEP_BODY for hooks */
	ms_link_mail_hook hook;       /* may be NULL */
	void *hook_data;
	/* store.h, borrowed: public-inbox archives are read through it
	 * (only what is new is parsed); NULL reads every archive whole */
	struct ms_store *store;
	/* called with the number of messages read so far, after each one
	 * (may be NULL): the CLI's progress line */
	void (*progress)(size_t done, void *data);
	void *progress_data;
	/* What the hook derived, kept with the mail snapshot of one archive
	 * read through the store (both NULL: with a hook, no snapshot):
	 * hook_dump appends it (false: not to be kept); hook_load takes it
	 * back before the records after the snapshot are handed to the
	 * hook (false: it does not apply, the archive is read whole), and
	 * with `p` NULL forgets it all */
	bool (*hook_dump)(GByteArray *out, void *hook_data);
	bool (*hook_load)(const uint8_t *p, size_t len, void *hook_data);
};

/*
 * Read every archive into a finished index.  Returns 0 and the model in
 * *out (ms_link_mail_free), or the archive reader's error.  Input
 * problems go to `diags`.
 */
int ms_link_mail_load(const struct ms_link_mail_opts *opts,
		      struct ms_link_mail **out, struct ms_diags *diags);
void ms_link_mail_free(struct ms_link_mail *lm);

/* The index (borrowed). */
const struct ms_mail_index *ms_link_mail_index(const struct ms_link_mail *lm);

/* The pre-image blob ids of record `rec`'s diff (mail.h ->preimages;
 * borrowed; NULL when none). */
const GPtrArray *ms_link_mail_preimages(const struct ms_link_mail *lm,
					uint32_t rec);

/* Files touched by record `rec`'s diff (borrowed; NULL when none). */
const GPtrArray *ms_link_mail_files(const struct ms_link_mail *lm,
				    uint32_t rec);

/* ---- the commit side ---- */

struct ms_link_tag {
	enum ms_trailer_kind kind;  /* Reviewed-by, Acked-by, Tested-by */
	char *name, *email;         /* email normalized, may be "" */
};

struct ms_link_commit {
	char id[41];
	char *author_name, *author_email;   /* email normalized */
	char *committer_name, *committer_email;
	int64_t author_time, commit_time;
	char *summary;              /* the summary line as written */
	char *subject;              /* normalized as mail subjects are */
	char patch_id[41];          /* "" when the commit changes nothing */
	char **link_ids;            /* from Link: trailers */
	size_t nr_link_ids;
	char **msgid_ids;           /* from Message-Id: trailers */
	size_t nr_msgid_ids;
	char **paths;
	size_t nr_paths;
	struct ms_link_tag *tags;
	size_t nr_tags;
	/*
	 * Set by ms_link_commits_load(): the commit and its arrays are one
	 * allocation, its strings live in a store the commits of one load
	 * share (the last one frees it; the array's free function frees
	 * the commit).  A commit built by hand (tests) has none.
	 */
	struct ms_link_strings *strings;
};

struct ms_store;

struct ms_link_commits_opts {
	const char *gitdir;
	const char *rev;            /* NULL: HEAD */
	int64_t since, until;       /* commit dates, inclusive */
	struct ms_store *store;     /* store.h, borrowed; NULL: git only */
	/* called on the calling thread with the number of commits walked so
	 * far, after each one (may be NULL) */
	void (*progress)(size_t done, void *data);
	void *progress_data;
};

/*
 * The non-merge commits of the window, newest first, in *out (a
 * GPtrArray of struct ms_link_commit *, freeing them; g_ptr_array_unref
 * it).  Errors as ms_history_walk().
 */
int ms_link_commits_load(const struct ms_link_commits_opts *opts,
			 GPtrArray **out, struct ms_diags *diags);

/*
 * The Message-ID a Link: trailer value names (without <>), or NULL:
 * lore.kernel.org/<list>/<id>/..., .../r/<id>, lkml.kernel.org/r/<id>,
 * patch.msgid.link/<id>, msgid.link/<id>, percent-decoded.
 * Newly allocated.
 */
char *ms_link_url_msgid(const char *url);

/* ---- linking ---- */

enum ms_link_method {
	MS_LINK_TRAILER = 0,     /* "link-trailer" */
	MS_LINK_MSGID_TRAILER,   /* "message-id-trailer" */
	MS_LINK_PATCH_ID,        /* "patch-id" */
	MS_LINK_SUBJECT,         /* "subject" */
	MS_LINK_AUTHOR_DATE,     /* "author-date" (tried before "subject") */
	MS_LINK__COUNT
};

/*
 * What a commit and its linked posting agree on (bits of
 * ms_link.evidence), whatever method found the link.
 */
enum {
	MS_LINK_EV_PATCH_ID = 1 << 0,    /* equal stable patch-ids */
	MS_LINK_EV_AUTHOR_DATE = 1 << 1, /* posting Date == author date */
	MS_LINK_EV_SUBJECT = 1 << 2,     /* equal normalized subjects */
	MS_LINK_EV_AUTHOR = 1 << 3,      /* sender is the author */
	MS_LINK_EV_FILES = 1 << 4,       /* a touched file in common */
	/* the sender is the author only through a join of the identity
	 * model (ms_link_people): another address of the same person
	 * (not among ms_link_evidence_names()) */
	MS_LINK_EV_AUTHOR_JOINED = 1 << 5,
};

/* The names of the bits set in `evidence`, in bit order, through `fn`. */
void ms_link_evidence_names(unsigned evidence,
			    void (*fn)(const char *name, void *data),
			    void *data);

const char *ms_link_method_name(enum ms_link_method m);

struct ms_link {
	uint32_t commit;         /* index into the commits array */
	uint32_t rec;            /* the applied posting's index record */
	enum ms_link_method method;
	unsigned evidence;       /* MS_LINK_EV_* */
	GArray *earlier;         /* uint32_t records of earlier versions,
				    oldest first */
};

struct ms_link_result {
	GArray *links;           /* struct ms_link, in commit order */
	GArray *unlinked;        /* uint32_t commit indexes */
	size_t counts[MS_LINK__COUNT];
	/* record -> link index + 1 of the commit it was applied as */
	GHashTable *by_rec;
};

/*
 * Who is who, for "the sender is the author (or committer)": each
 * commit's author and committer and each message's sender (index record)
 * as a group of the identity model (ident.h; MS_IDENT_NONE: nobody, or
 * a list's address), so that a patch posted from another address of its
 * author (.mailmap, the same display name) is the author's.
 */
struct ms_ident;
struct ms_link_people {
	struct ms_ident *ident;
	unsigned *author, *committer;   /* per commit of the array */
	size_t nr_commits;
	unsigned *sender;               /* per record of the mail index */
	size_t nr_recs;
};

/* Where people's joins come from besides commits and senders. */
struct ms_link_people_src {
	const char *mailmap;        /* the repository's .mailmap, or NULL */
	size_t mailmap_len;
	char **mailmaps;            /* more .mailmap texts (--mailmap) */
	const size_t *mailmap_lens;
	const char *const *mailmap_names; /* their file names */
	size_t nr_mailmaps;
	const char *aliases;        /* gitdm-style aliases text, or NULL */
	size_t aliases_len;
	const char *aliases_name;
	bool name_join;             /* equal display names join */
};

/*
 * The people of `commits` (authors, committers, trailers) and of `lm`'s
 * senders, joined by `src`'s .mailmap texts and aliases (lines they cannot
 * use go to `diags`), the list's senders and, with `src->name_join`, equal
 * display names (ms_ident_join_names()).
 */
struct ms_link_people *ms_link_people_new(const GPtrArray *commits,
					  const struct ms_link_mail *lm,
					  const struct ms_link_people_src *src,
					  struct ms_diags *diags);
void ms_link_people_free(struct ms_link_people *p);

struct ms_link_opts {
	bool ignore_link_trailers;  /* methods 1 and 2 off */
	/* NULL: a sender is the author by equal address or name only */
	const struct ms_link_people *people;
};

/*
 * Link `commits` to the messages of `lm`.  Free with ms_link_result_free.
 * The methods before the last resort match each half of the commits on a
 * thread of its own (a commit's link depends on it and the messages
 * only); the result is the same as one thread's.
 */
struct ms_link_result *ms_link_run(const struct ms_link_mail *lm,
				   const GPtrArray *commits,
				   const struct ms_link_opts *opts);
void ms_link_result_free(struct ms_link_result *r);

#endif
