/*
 * trailer.h - "Token: value" trailers of commit messages and mail bodies
 * (Signed-off-by, Reviewed-by, Acked-by, Link, Fixes, ...).
 */
#ifndef MS_TRAILER_H
#define MS_TRAILER_H

#include <stdbool.h>
#include <stddef.h>

/* Well-known tokens; everything else is MS_TRAILER_OTHER. */
enum ms_trailer_kind {
	MS_TRAILER_OTHER = 0,
	MS_TRAILER_SIGNED_OFF_BY,
	MS_TRAILER_REVIEWED_BY,
	MS_TRAILER_ACKED_BY,
	MS_TRAILER_TESTED_BY,
	MS_TRAILER_NACKED_BY,
	MS_TRAILER_REPORTED_BY,
	MS_TRAILER_SUGGESTED_BY,
	MS_TRAILER_CO_DEVELOPED_BY,
	MS_TRAILER_LINK,
	MS_TRAILER_FIXES,
	MS_TRAILER_CC,
	MS_TRAILER_MESSAGE_ID,
	MS_TRAILER_CHANGE_ID,   /* b4's "change-id:" */
	/* not a trailer line: what an applied notice names (mail.h,
	 * struct ms_mail's trailers) */
	MS_TRAILER_APPLIED,
	/* after it: the numbers above are kept in stores */
	MS_TRAILER_BASE_COMMIT, /* b4's "base-commit:" */
};

/* A parsed trailer line; pointers borrow the parsed text. */
struct ms_trailer_line {
	const char *token;      /* as written, e.g. "Reviewed-by" */
	size_t token_len;
	const char *value;      /* trimmed */
	size_t value_len;
	enum ms_trailer_kind kind;
	bool is_person;         /* a "*-by" token, or Cc: names a person */
};

/*
 * Parse one line (`len` bytes, no newline) as "Token: value", where the
 * token is letters, digits and '-' and starts with a letter.  Tokens are
 * matched case-insensitively.  Returns false when the line is not a
 * trailer.
 */
bool ms_trailer_parse_line(const char *line, size_t len,
			   struct ms_trailer_line *out);

/* Canonical spelling of a kind ("Reviewed-by"); NULL for OTHER. */
const char *ms_trailer_kind_name(enum ms_trailer_kind kind);

/*
 * Find the trailer block of a commit message as git interpret-trailers
 * does: the message ends at the first line starting with "---" and a
 * blank or its end (a patch divider), then the last paragraph, if every line in it is a trailer or a
 * continuation (starts with whitespace), or at least 25% are trailers and
 * one of them is a known "*-by:" token.  Stores the block's byte range in
 * *start and *end and returns true, or returns false when there is none.
 */
bool ms_trailer_block(const char *msg, size_t len, size_t *start,
		      size_t *end);

/*
 * Every trailer block of a commit message, in order: the last paragraph
 * when ms_trailer_block() takes it, and each other paragraph after the
 * first (the subject) made only of unindented trailer lines, at least one
 * of a known kind.  Committers append notes and their own Signed-off-by
 * after the original trailers ("Re-committed with a tag removed.\n\n
 * Signed-off-by: ..."), so the original block is no longer the last.
 * Calls `fn` with each block's byte range [start, end).
 */
void ms_trailer_blocks(const char *msg, size_t len,
		       void (*fn)(size_t start, size_t end, void *data),
		       void *data);

#endif
