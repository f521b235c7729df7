/*
 * mail.h - mailing-list messages as maintstat understands them.
 *
 * Three layers, usable separately:
 *
 *  1. Reading archives (mail-archive.c, git-inbox.c): mbox files (mboxrd
 *     or mboxo, detected; gzip read transparently), directories of mbox
 *     files and public-inbox v1/v2 repositories hand each raw message, one
 *     at a time, to a callback.  Nothing accumulates: memory stays at one
 *     message.
 *
 *  2. Parsing one message (mail.c, through the GMime adapter mime.c) into
 *     a struct ms_mail: headers, the real sender, the parsed subject, the
 *     decoded body split into quoted and new text, trailers, the diff's
 *     files, line counts and patch-id, a kind, and the input problems met.
 *
 *  3. Indexing (mail-index.c): a struct ms_mail_index keeps one compact
 *     struct ms_mail_rec per message and, once finished, threads (from
 *     References and In-Reply-To, in any arrival order), series (a cover
 *     letter with its numbered patches, versions linked), the review tags
 *     given to each patch (cover-letter tags applied to the whole series)
 *     and the counts of `maintstat mail stats`.
 *
 * Records are plain structs of strings and integers so that a store can
 * cache them.  Strings are UTF-8.
 */
#ifndef MS_MAIL_H
#define MS_MAIL_H

#include "error.h"
#include "mapped.h"
#include "trailer.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- problems: recoverable input faults, counted per kind ---- */

enum ms_mail_problem {
	MS_MAIL_P_TRUNCATED,       /* the archive ended inside the message */
	MS_MAIL_P_NUL_BYTES,       /* NUL bytes (replaced by spaces) */
	MS_MAIL_P_LONG_LINE,       /* a line over MS_MAIL_LONG_LINE bytes */
	MS_MAIL_P_BAD_BASE64,      /* invalid base64 in a text part */
	MS_MAIL_P_UNKNOWN_CHARSET, /* text decoded as UTF-8/Latin-1 instead */
	MS_MAIL_P_NO_HEADERS,      /* no header block at all */
	MS_MAIL_P_HUGE_HEADER,     /* header block over MS_MAIL_HUGE_HEADER */
	MS_MAIL_P_BAD_DATE,        /* Date missing, unparsable or impossible */
	MS_MAIL_P_NO_MESSAGE_ID,   /* no Message-ID header */
	MS_MAIL_P_MIME_ERROR,      /* the MIME structure could not be read */
	MS_MAIL_P_OVERSIZED,       /* over the message size bound: only its
				      head was read */
	MS_MAIL_P_MISDATED,        /* Date over MS_MAIL_MISDATED away from
				      the receipt time, which is used */
	MS_MAIL_P__COUNT
};

#define MS_MAIL_LONG_LINE   (64u * 1024)
#define MS_MAIL_HUGE_HEADER (256u * 1024)
/*
 * A message's receipt time is the date of its topmost Received: field (as
 * public-inbox takes it).  A Date further than this from it is misdated
 * (a wrong clock, spam): the receipt time stands in for it.  Moderation
 * holds of up to three weeks are real (LTP's list), so they keep their
 * Date.
 */
#define MS_MAIL_MISDATED    (30 * 86400LL)

/* Stable name of a problem, e.g. "bad_date" (the JSON key). */
const char *ms_mail_problem_name(enum ms_mail_problem p);

/* ---- one parsed message ---- */

enum ms_mail_kind {
	MS_MAIL_OTHER = 0,
	MS_MAIL_PATCH,        /* carries a diff, not a reply */
	MS_MAIL_COVER,        /* [PATCH 0/N] */
	MS_MAIL_REPLY,        /* a reply without review tags */
	MS_MAIL_REVIEW,       /* a reply giving Reviewed/Acked/Tested-by */
	MS_MAIL_NACK,         /* a reply giving Nacked-by */
	MS_MAIL_PULL,         /* [GIT PULL] */
	MS_MAIL_BOT,          /* kernel test robot, syzbot, patchwork-bot */
};

/*
 * What a message's new (unquoted) text announces about the patch it
 * answers (docs/review.md, "Where each patch stands"): an applied notice
 * ("Applied, thanks!", "Applied to <branch>", "Thanks, applied", b4 ty's
 * "[1/3] subject" line followed by "commit: <sha>", patchwork-bot's
 * "This patch was applied to"), a rejection (a "NAK" line, a Nacked-by
 * trailer, "not applying", "dropped from"), or a withdrawal ("please
 * ignore", "self-NAK").  Who may say so is decided in src/metrics.
 */
enum ms_mail_notice {
	MS_MAIL_NOTICE_NONE = 0,
	MS_MAIL_NOTICE_APPLIED,
	MS_MAIL_NOTICE_REJECTED,
	MS_MAIL_NOTICE_WITHDRAWN,
	/* no request: new text of thanks or approval only, at most three
	 * lines each starting "Thanks", "Thank you", "LGTM", "Looks good",
	 * "+1", "Ack" or "Acked" (a greeting, an attribution line, a last
	 * line of a name and what follows "-- " aside) */
	MS_MAIL_NOTICE_NOTE,
};

/* "patch", "cover_letter", "reply", "review", "nack", "pull_request", ... */
const char *ms_mail_kind_name(enum ms_mail_kind kind);

/* A trailer from the message's new (unquoted) text. */
struct ms_mail_trailer {
	enum ms_trailer_kind kind;
	char *token;   /* as written */
	char *value;
	char *name;    /* for person trailers; NULL when absent */
	char *email;   /* for person trailers; NULL when absent */
};

/* Free a struct ms_mail_trailer (a GDestroyNotify for trailer arrays). */
void ms_mail_trailer_free(gpointer p);

/* What the subject line says. */
struct ms_mail_subject {
	char *prefixes;     /* bracket contents joined by " | "; NULL if none */
	char *normalized;   /* no Re:/Fwd: chain, no brackets, spaces folded */
	unsigned reply_depth; /* Re:/Aw:/Antw:/Sv: count */
	bool forward;       /* Fwd:/Fw: seen */
	bool patch;         /* PATCH (or RFC) in a prefix */
	bool rfc;
	bool resend;
	bool pull;          /* GIT PULL / PULL */
	unsigned version;   /* vN, 1 when not given */
	unsigned number;    /* N of N/M; 0 when not numbered */
	unsigned total;     /* M of N/M; 0 when not numbered */
	char *tree;         /* other prefix words, e.g. "net-next"; or NULL */
};

struct ms_mail {
	char *message_id;   /* without <>; NULL when missing */
	char *in_reply_to;  /* first id of In-Reply-To, or NULL */
	GPtrArray *references; /* char *, in header order */
	char *date_raw;     /* the Date header as written, or NULL */
	int64_t date;       /* Unix time, valid when date_valid */
	int date_tz;        /* the zone, minutes east of UTC */
	bool date_valid;
	char *from_name, *from_email;     /* From, RFC 2047 decoded */
	char *sender_name, *sender_email; /* the real author (see below) */
	bool sender_rewritten; /* X-Original-From/B4 Relay/DMARC applied */
	char *to, *cc;      /* decoded, as one string each; or NULL */
	char *list_id;      /* List-Id without <>; or NULL */
	char *subject_raw;  /* decoded Subject */
	struct ms_mail_subject subject;
	char *body;         /* decoded text (MS_MAIL_PARSE_KEEP_BODY only) */
	char *attached_diff; /* the text of the attachments that carry a
				diff, one after the other, or NULL
				(MS_MAIL_PARSE_KEEP_BODY only) */
	unsigned new_lines, quoted_lines;
	GPtrArray *trailers;   /* struct ms_mail_trailer * */
	char *change_id;    /* b4's change-id, or NULL */
	/* the diff, when the message carries one */
	bool has_diff;
	bool diff_in_attachment;
	GPtrArray *files;   /* char *, paths touched, unique, in order */
	/* char *, "BLOB PATH" (unique): the blob id (lowercase hex,
	 * abbreviated as written) left of ".." in the diff's "index A..B"
	 * lines, the file as the patch found it, and its path before the
	 * change (X of "diff --git a/X b/Y"; the id alone without one): the
	 * files the patch modifies, not those it creates (a new file's
	 * zeros), nor the empty blob, which every repository has */
	GPtrArray *preimages;
	unsigned lines_added, lines_removed;
	char *patch_id;     /* 40 hex digits, as git patch-id --stable */
	enum ms_mail_kind kind;
	uint8_t notice;       /* enum ms_mail_notice */
	uint32_t problems;    /* bit (1 << enum ms_mail_problem) */
	size_t size;          /* raw bytes */
};

enum {
	MS_MAIL_PARSE_KEEP_BODY = 1 << 0, /* keep the decoded text in ->body */
	/* only what ms_mail_index_add() reads: no ->patch_id, ->to, ->cc
	 * (`mail stats` without a store needs no more) */
	MS_MAIL_PARSE_INDEX_ONLY = 1 << 1,
};

/*
 * Parse one raw message (`len` bytes, without any mbox From_ line;
 * NUL bytes allowed).  `problems` carries faults the reader saw
 * (MS_MAIL_P_TRUNCATED).  Never fails on bad input: what cannot be read
 * is flagged in ->problems.  The result is the caller's (ms_mail_free).
 */
struct ms_mail *ms_mail_parse(const char *raw, size_t len, uint32_t problems,
			      unsigned flags);

void ms_mail_free(struct ms_mail *m);

/*
 * Parse a Date header value (every RFC 5322 form, obsolete ones included:
 * two-digit years, named zones, comments).  Returns true and sets *t (Unix
 * time) and *tz (minutes east of UTC) when the date is well-formed and
 * possible (years 1970..2199, real days and times); false otherwise.
 */
bool ms_mail_parse_date(const char *s, int64_t *t, int *tz);

/* Parse a subject into `out` (ms_mail_subject_release frees it). */
void ms_mail_parse_subject(const char *subject, struct ms_mail_subject *out);
void ms_mail_subject_release(struct ms_mail_subject *s);

/*
 * The key patches are grouped by: the normalized subject casefolded
 * (g_utf8_casefold), without trailing dots and blanks.  The caller
 * g_free()s it.
 */
char *ms_mail_subject_key(const char *normalized);

/*
 * A stable backport: a prefix word AUTOSEL or "stable", or a release as
 * stable trees name them ("[PATCH 5.15 012/123]", "[PATCH 6.1.y]",
 * "[PATCH 5.10-stable]").  Computed from `prefixes`.
 */
bool ms_mail_subject_stable(const struct ms_mail_subject *s);

/*
 * A stable-tree notice, not a reply: "Patch "X" has been added to the
 * 6.1-stable tree", "FAILED: patch "X" failed to apply to 5.15-stable
 * tree".  They quote the commit with its trailers: ms_mail_parse() keeps
 * none of their trailers and never makes them patches.
 */
bool ms_mail_subject_stable_notice(const struct ms_mail_subject *s);

/*
 * The sibling project a patch's subject names, when it is one of another
 * project sharing the list: its first bracket's word ("[U-Boot]
 * [PATCH]", as a list tags subjects), a word of its bracket prefix
 * ("[PATCH rdma-core]", "[PATCH iproute2-next]": the name, alone or
 * followed by '-') or one of its first two "name:" ("erofs-utils: mkfs:
 * ...", "AOSP: erofs-utils: ..."), from the documented list
 * (sibling_projects in mail.c); else "--foreign-subject" when `extra`
 * (may be NULL) matches `subject_raw`; else NULL.
 */
const char *ms_mail_foreign_project(const struct ms_mail_subject *s,
				    const char *subject_raw,
				    const GRegex *extra);

/*
 * Just the normalized subject of ms_mail_parse_subject(), written to
 * `out` (at least strlen(subject) + 1 bytes); returns its length.
 */
size_t ms_mail_subject_normalize(const char *subject, char *out);

/*
 * The patch-id of a diff as `git patch-id --stable` computes it: per-file
 * SHA-1 of the diff without whitespace, line numbers and index lines,
 * summed.  `text` is a commit message or mail body followed by the diff.
 * Writes 40 hex digits and a NUL to `hex` and returns true, or returns
 * false when there is no diff.
 */
bool ms_patch_id(const char *text, size_t len, char hex[41]);
/* git's scan_hunk_header(): the line counts of the hunk header "@@ -a,b
 * +c,d @@" (`n` bytes at `p`) into *before and *after (1 where a count
 * is left out); *after is not set when the header is malformed. */
void ms_patch_hunk_counts(const char *p, size_t n, int *before, int *after);

/* ---- senders and the identity model (mail-ident.c) ---- */

/*
 * Whether the list rewrote the sender and left no original address
 * (DMARC "Ann Example via linux-foo <linux-foo@...>" without
 * X-Original-From or Reply-To; B4 Relay without Reply-To): then
 * sender_email is the list's or relay's address, and only the name is
 * the sender's.
 */
bool ms_mail_via_list(const struct ms_mail *m);

/*
 * The addresses `m` was sent to, normalized (ms_email_normalize, no
 * plus folding), appended as new strings: its To: to `to`, its Cc: to
 * `cc`.
 */
void ms_mail_recipients(const struct ms_mail *m, GPtrArray *to,
			GPtrArray *cc);

/*
 * The address of the list `m` was archived from, by its List-Id
 * ("linux-erofs.lists.ozlabs.org" is linux-erofs@lists.ozlabs.org:
 * the first dot is the at sign), lower case; NULL without a List-Id.
 */
char *ms_mail_list_address(const struct ms_mail *m);

struct ms_ident;
struct maint_file;
struct ms_mail_index;

/*
 * Feed the identity model what the list shows, before its name join:
 * the L: addresses of `mf` (may be NULL) and the senders a list rewrote
 * are shared (never a person); every sender under its Message-ID; and,
 * when two addresses of the same display name (ms_name_key()) each gave
 * a Reviewed-by or Acked-by in reply to a patch the other sent, the two
 * as two people ("review of <patch> in <reply>; review of <patch> in
 * <reply>"); one way only is one person reviewing their own patch from
 * another address, as in commits.  `mi` must be finished.
 */
void ms_mail_ident_add(struct ms_ident *id, const struct ms_mail_index *mi,
		       const struct maint_file *mf);

/*
 * After the name join: credit each message a list rewrote to the one
 * person of its sender's name (ident.h, ms_ident_dmarc()), under its
 * Message-ID.
 */
void ms_mail_ident_credit(struct ms_ident *id,
			  const struct ms_mail_index *mi);

/*
 * Every M: and R: person of `mf`, resolved and marked listed in `id`
 * under the evidence "FILE:LINE" (FILE without the `root/` prefix; `root`
 * may be NULL).
 */
void ms_mail_ident_listed(struct ms_ident *id, const struct maint_file *mf,
			  const char *root);

/*
 * Without git history, people as the list and MAINTAINERS show them:
 * ms_mail_ident_add() (`mi` may be NULL: no list),
 * ms_mail_ident_listed(), then, when `name_join`, the name join
 * (warnings to `diags`) and ms_mail_ident_credit().
 */
void ms_mail_ident_from_list(struct ms_ident *id,
			     const struct ms_mail_index *mi,
			     const struct maint_file *mf, const char *root,
			     bool name_join, struct ms_diags *diags);

/* ---- reading archives ---- */

enum ms_mail_format {
	MS_MAIL_FMT_MBOXRD,
	MS_MAIL_FMT_MBOXO,
	MS_MAIL_FMT_INBOX_V1,
	MS_MAIL_FMT_INBOX_V2,
};

const char *ms_mail_format_name(enum ms_mail_format f);

/* Where a raw message came from; borrowed for the callback's duration. */
struct ms_mail_source {
	const char *path;     /* the mbox file or inbox directory */
	enum ms_mail_format format;
	unsigned long line;   /* mbox: line of the From_ line; else 0 */
	int epoch;            /* public-inbox: epoch number; else -1 */
	const char *commit;   /* public-inbox: commit hex; else NULL */
	uint32_t problems;    /* what the reader saw (MS_MAIL_P_TRUNCATED) */
	/*
	 * A plain mbox is read through a mapping: when `map` is set, `raw`
	 * lies in it and stays readable after the callback for as long as
	 * the callback keeps a reference (ms_mapped_ref), so it need not be
	 * copied.  NULL: `raw` is valid during the callback only.
	 */
	struct ms_mapped *map;
};

/*
 * Called with each raw message in archive order.  Return 0 to go on, a
 * negative MS_E* code (with ms_error_set) to stop the read, which then
 * returns that code.
 */
typedef int (*ms_mail_raw_fn)(const char *raw, size_t len,
			      const struct ms_mail_source *src, void *data);

/*
 * A resume point: read epoch `epoch` only after `commit`.  An mbox file
 * takes one, `line` and `rd` (epoch and commit unused): its messages from
 * the From_ line at line `line` (1: the first) on, read as mboxrd when
 * `rd` (what a read of the whole file had decided by that line).  A
 * plain file's reader starts at byte `offset` instead of counting the
 * lines to it, when the caller counted them (0: not; an offset where no
 * From_ line starts is not taken: the lines are counted).
 */
struct ms_mail_after {
	int epoch;            /* -1: any epoch that contains the commit */
	const char *commit;   /* hex, full or abbreviated */
	unsigned long line;
	uint64_t offset;
	bool rd;
};


/* An mbox file's first MS_MBOX_SNIFF bytes (inflated) tell mboxrd from
 * mboxo for all of it: a file resumed at a line must have had as many
 * when its first messages were read. */
#define MS_MBOX_SNIFF (2u << 20)

/* What a read did, for reporting and for resuming later. */
struct ms_mail_read_result {
	enum ms_mail_format format; /* of the last archive read */
	unsigned long messages;
	uint64_t bytes;
	GPtrArray *heads;     /* char * "EPOCH:COMMIT", the last commit per
				 epoch read (public-inbox only) */
};

void ms_mail_read_result_init(struct ms_mail_read_result *r);
void ms_mail_read_result_release(struct ms_mail_read_result *r);

/*
 * Read the archive at `path`: an mbox file (optionally .gz), a directory
 * of mbox files (read in name order, recursively), or a public-inbox v1 or
 * v2 directory (epochs in order; `after`/`n_after` resume points).  Calls
 * `fn` for each message.  Returns 0, or a negative code when the archive
 * cannot be opened or read (ms_error_last says why) or `fn` stopped it.
 * Recoverable oddities go to `diags`.
 */
int ms_mail_read(const char *path, const struct ms_mail_after *after,
		 size_t n_after, ms_mail_raw_fn fn, void *data,
		 struct ms_mail_read_result *result, struct ms_diags *diags);

/*
 * Called with each parsed message, in archive order, on the calling
 * thread.  Takes ownership of `m` (ms_mail_free it).  Return 0 to go on
 * or a negative MS_E* code (with ms_error_set) to stop.
 */
typedef int (*ms_mail_parsed_fn)(struct ms_mail *m,
				 const struct ms_mail_source *src,
				 void *data);

/*
 * ms_mail_read() and ms_mail_parse() together, on two threads: a reader
 * thread inflates and splits the archive while the calling thread parses
 * (with `flags`) and calls `fn`.  At most a few dozen raw messages are
 * queued.  `diags` and `result` are written by the reader thread and may
 * be read once this returns.  Returns as ms_mail_read().
 */
int ms_mail_parse_archive(const char *path, const struct ms_mail_after *after,
			  size_t n_after, unsigned flags, ms_mail_parsed_fn fn,
			  void *data, struct ms_mail_read_result *result,
			  struct ms_diags *diags);

/*
 * Walk a directory of mbox files as the readers do: `file` is called for
 * each regular file below `path` (hidden entries left out, byte order of
 * the names, subdirectories in place, 16 levels at most).  Each directory
 * and file is visited once (device and inode), links are followed only to
 * what lies inside `path`, and git repositories or inboxes inside are not
 * entered: every entry left out (a FIFO, a device, a dangling link, a
 * link out, a directory that cannot be opened) is a diagnostic.  A file
 * `file` answers MS_EPARSE for is skipped with a diagnostic; any other
 * negative code stops the walk and is returned.  MS_ENOTFOUND when no
 * file was read (nothing there is an archive); MS_ERROR when `path`
 * itself cannot be opened.
 */
typedef int (*ms_mail_file_fn)(const char *path, void *data);
int ms_mail_dir_walk(const char *path, ms_mail_file_fn file, void *data,
		     struct ms_diags *diags);

/* Whether directory `path` is a public-inbox archive (v2: git/0.git; v1:
 * a bare repository) rather than a directory of mbox files. */
bool ms_mail_is_inbox(const char *path);

/*
 * The largest message the readers take whole (default
 * MS_MAIL_MAX_MESSAGE, 64 MiB): of a larger one only the first
 * MS_MAIL_OVERSIZED_HEAD bytes are handed on, flagged
 * MS_MAIL_P_OVERSIZED, and the rest is skipped without being held in
 * memory (a gzip bomb of one 8 GiB message).  Process-wide; set it
 * before reading.
 */
#define MS_MAIL_MAX_MESSAGE ((size_t)64 << 20)
#define MS_MAIL_OVERSIZED_HEAD ((size_t)256 << 10)
void ms_mail_set_max_message_size(size_t bytes);
size_t ms_mail_max_message_size(void);

/*
 * The most the message index of one run may hold (about:
 * ms_mail_index_memory()) before reading stops with an error, so that an
 * archive of millions of tiny messages ends with a message rather than an
 * allocation failure.  0 sets the default, half the physical memory.
 * Process-wide; set it before reading.
 */
void ms_mail_set_max_index_size(size_t bytes);
size_t ms_mail_max_index_size(void);

/*
 * The error (MS_ERROR, with ms_error_set) of a plain mbox that was cut
 * short while it was read through a mapping (mapped.h, ms_mapped_cut).
 */
int ms_mbox_cut_error(const char *path);

/* The mbox reader alone (used by ms_mail_read), from `at` when not NULL
 * (MS_ESTALE when no message starts at its line). */
int ms_mbox_read(const char *path, const struct ms_mail_after *at,
		 ms_mail_raw_fn fn, void *data,
		 struct ms_mail_read_result *result);

/*
 * The public-inbox reader alone (git-inbox.c): `path` is a v2 inbox
 * (git/N.git epochs) or a v1 inbox (a bare repository).  Returns
 * MS_ENOTFOUND when `path` is neither.
 */
int ms_inbox_read(const char *path, const struct ms_mail_after *after,
		  size_t n_after, ms_mail_raw_fn fn, void *data,
		  struct ms_mail_read_result *result);

/*
 * Where public-inbox archive `path` stands now, without reading any
 * message: one "N:HEX" string per epoch (v1: epoch 0), the commit its
 * HEAD names ("N:-" for an empty epoch), in epoch order, into *out
 * (g_ptr_array_unref; it frees the strings).  A new message changes
 * it; the same heads mean the same messages.  Errors as ms_inbox_read()'s.
 */
int ms_inbox_heads(const char *path, GPtrArray **out);

/*
 * The CRC-64 (ECMA-182, reflected, as ISA-L's crc64_ecma_refl) of `len`
 * bytes, continuing from `crc` (0 to start): a check for damage of data
 * kept between runs that is fast enough for megabytes (0.3 ms for 7 MB,
 * where SHA-1 takes 20 ms).
 */
uint64_t ms_crc64(uint64_t crc, const void *data, size_t len);

/* ---- the index: compact records, threads, series, statistics ---- */

/* One message as the index keeps it.  Strings are interned (borrowed). */
struct ms_mail_rec {
	const char *message_id;   /* never NULL: "<missing-N>" when absent */
	const char *parent_id;    /* In-Reply-To, else last reference; after
				     finish, when that message is not in
				     the archive, the last reference that
				     is (as public-inbox threads) */
	const char *references;   /* References ids, space-separated, or
				     NULL */
	const char *sender_email; /* normalized, or NULL */
	const char *sender_name;
	const char *subject;      /* normalized */
	const char *change_id;
	const char *patch_id;
	int64_t date;             /* valid when date_valid */
	bool date_valid;
	bool duplicate;           /* an earlier message had this id */
	uint8_t notice;           /* enum ms_mail_notice */
	bool stable;              /* a stable backport (subject prefix) */
	bool stable_notice;       /* a stable-tree notice */
	bool foreign;             /* the subject names a sibling project
				     (built-in list) */
	bool via_list;            /* ms_mail_via_list() (beside the other
				     flags: a record is 8 bytes smaller) */
	enum ms_mail_kind kind;
	uint16_t version, number, total;
	uint16_t n_applied;       /* patches an applied notice names (b4 ty
				     items), after the review tags */
	uint32_t problems;
	uint32_t thread;          /* thread number, after finish */
	int32_t series;           /* series posting number, or -1 */
	uint32_t n_review_tags;   /* Reviewed/Acked/Tested-by given */
	uint32_t first_tag;       /* index into the tags array */
};

/* A review trailer given in a message, kept for linking; or, kind
 * MS_TRAILER_APPLIED, a patch an applied notice names: `name` its subject
 * key (ms_mail_subject_key()), `email` the commit id it gives (as
 * written, lowercase), or NULL. */
struct ms_mail_tag {
	enum ms_trailer_kind kind;
	const char *email;        /* normalized, interned; may be NULL */
	const char *name;
};

/* One posting of a series: a cover letter (or lone patch) and patches. */
struct ms_mail_series {
	uint32_t root;            /* record index of cover (or first patch) */
	bool has_cover;
	uint16_t version, total;
	GArray *patches;          /* uint32_t record indexes, by number */
	int32_t family;           /* posting index of this series' v1..vN
				     family head (same for all versions) */
};

struct ms_mail_stats {
	uint64_t messages, message_ids, patches, cover_letters;
	uint64_t series, series_postings, replies, review_replies, nacks;
	uint64_t pulls, bots, applied_notices, threads, senders;
	uint64_t reviewed_patches; /* patches with a review tag, incl. via
				      their cover letter */
	uint64_t stable_patches;   /* patches that are stable backports */
	uint64_t stable_notices;   /* stable-tree notices */
	uint64_t foreign_patches;  /* patches whose subject names a sibling
				      project (and not stable) */
	int64_t first_date, last_date; /* valid when messages with dates;
					* misdated ones left out */
	bool have_dates;
	uint64_t misdated;         /* ms_mail_index_span() left them out */
	uint64_t problems[MS_MAIL_P__COUNT];
	uint64_t bytes;
};

struct ms_mail_index;

struct ms_mail_index *ms_mail_index_new(void);
void ms_mail_index_free(struct ms_mail_index *idx);

/* Add a parsed message (copied into a compact record); returns its index. */
uint32_t ms_mail_index_add(struct ms_mail_index *idx, const struct ms_mail *m);

/*
 * Build threads and series and link versions and review tags.  Call once,
 * after the last ms_mail_index_add().
 */
void ms_mail_index_finish(struct ms_mail_index *idx);

/*
 * Snapshots: an unfinished index (ms_mail_index_add() calls only) saved as
 * bytes and loaded back, so that a re-run adds only new messages to it
 * (link.c keeps one in the store).  The bytes are for this build of this
 * maintstat only: native byte order, and MS_MAIL_INDEX_DUMP_VERSION, which
 * must be bumped whenever ms_mail_index_add() or the format changes.
 *
 * ms_mail_index_dump() appends the index to `out`, with one list of
 * strings per record that the caller keeps alongside (`extra(i)`: a
 * GPtrArray of char *, or NULL; `extra` itself may be NULL).  Returns false
 * when the index is too big for the format (over 4 GiB of text).
 *
 * ms_mail_index_load() reads them back: the index (it keeps a reference
 * to `data`) and, when `extra` is not NULL, a GPtrArray with one element
 * per record, each a GPtrArray of the saved strings or NULL (g_ptr_array_
 * unref it; the strings belong to the index).  NULL when the bytes are not
 * a snapshot of this version, or their structure is damaged (bytes kept
 * are checked where they are kept: the store checks each value's CRC-64).
 */
#define MS_MAIL_INDEX_DUMP_VERSION 10

bool ms_mail_index_dump(const struct ms_mail_index *idx,
			const GPtrArray *(*extra)(uint32_t rec, void *data),
			void *extra_data, GByteArray *out);
struct ms_mail_index *ms_mail_index_load(GBytes *data, GPtrArray **extra);

/*
 * What the index holds, about, in bytes: its records, review tags, thread
 * nodes and interned strings with their hash tables (not the slack of
 * arrays that grow by doubling).  Grows with every ms_mail_index_add().
 */
size_t ms_mail_index_memory(const struct ms_mail_index *idx);

/*
 * 0, or MS_ERROR (with ms_error_set) once the index holds more than
 * ms_mail_max_index_size(): for a reader callback to return, which stops
 * the read.  The message names `path`, the archive being read.
 */
int ms_mail_index_check_size(const struct ms_mail_index *idx,
			     const char *path);

/* The records, in arrival order (borrowed). */
size_t ms_mail_index_count(const struct ms_mail_index *idx);
const struct ms_mail_rec *ms_mail_index_get(const struct ms_mail_index *idx,
					    uint32_t i);

/* The first record with this Message-ID (without <>), or NULL. */
const struct ms_mail_rec *ms_mail_index_find(const struct ms_mail_index *idx,
					     const char *message_id);

/* Review tags given in record `rec` (borrowed, rec->n_review_tags). */
const struct ms_mail_tag *ms_mail_index_tags(const struct ms_mail_index *idx,
					     const struct ms_mail_rec *rec);

/* The patches an applied notice `rec` names (borrowed, rec->n_applied;
 * NULL when it names none: then it answers for every patch below it). */
const struct ms_mail_tag *
ms_mail_index_applied(const struct ms_mail_index *idx,
		      const struct ms_mail_rec *rec);

/* The pull requests (record indexes, uint32_t, ascending) whose own
 * shortlog names subject key `key` (ms_mail_subject_key()): commits of
 * the puller's tree; NULL for none.  After finish; borrowed. */
const GArray *ms_mail_index_pulls(const struct ms_mail_index *idx,
				  const char *key);

/* Series postings after finish (borrowed). */
size_t ms_mail_index_series_count(const struct ms_mail_index *idx);
const struct ms_mail_series *
ms_mail_index_series(const struct ms_mail_index *idx, uint32_t i);

/*
 * The review tags that apply to patch record `i`: those in replies to it
 * and those in replies to its series' cover letter (as b4 am applies
 * them).  Calls `fn` for each with the record that gave it.
 */
void ms_mail_index_patch_reviews(const struct ms_mail_index *idx, uint32_t i,
				 void (*fn)(const struct ms_mail_rec *from,
					    const struct ms_mail_tag *tag,
					    void *data),
				 void *data);

/* The counts, after finish. */
void ms_mail_index_stats(const struct ms_mail_index *idx,
			 struct ms_mail_stats *st);

/*
 * The dates the archive spans, without misdated messages: the oldest (or
 * newest) dates separated from all the others by more than a year, at
 * most one message in a hundred (one in an archive of 10 to 199; none
 * below 10), so that one spam message dated 2000-12-31 in a list
 * archived from 2018 neither starts a window nor stretches a table.
 * Returns false when no message has a date; *misdated (may be NULL)
 * gets how many were left out.
 */
bool ms_mail_index_span(const struct ms_mail_index *idx, int64_t *first,
			int64_t *last, size_t *misdated);

#endif
