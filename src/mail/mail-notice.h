/*
 * mail-notice.h - the notices of a message's new text (mail-notice.c),
 * for mail.c's body scan only.
 */
#ifndef MS_MAIL_NOTICE_H
#define MS_MAIL_NOTICE_H

#include "mail.h"

#include <stdbool.h>
#include <stddef.h>

/* What the scan carries from line to line of the new text. */
struct ms_mail_scan {
	const char *item;       /* the b4 ty item line before, or NULL */
	size_t item_n;
	bool open;              /* the line before ended mid-sentence (a
				   wrapped "...once it is\napplied, ..." is
				   no notice) */
	bool signed_off;        /* after a "-- " signature line */
	unsigned lines, notes;  /* lines of words before it; of thanks */
	size_t last_n;          /* the last of them: its length */
	/* A quoted cover letter's shortlog ("> Ann (3):", then indented
	 * subjects), which new text may split to answer some of its
	 * patches: "These applied to -rc." under items 2-6 of 6. */
	bool shortlog, gap, split, scoped_applied;
	size_t indent;          /* its items' indentation */
	GPtrArray *items;       /* its items since the last new text */
	GPtrArray *applied;     /* the items an applied line answers */
	bool pull;              /* a pull request: its own shortlog's items
				   are applied (ms_mail_notice_end()) */
};

/* Line `s` (`n` bytes, blanks trimmed, not empty) of the new text, a
 * trailer line or not: its notice, or a b4 ty item's applied "trailer"
 * (MS_TRAILER_APPLIED) into `m`. */
void ms_mail_notice_line(struct ms_mail *m, const char *s, size_t n,
			 bool trailer, struct ms_mail_scan *sc);

/* Quoted line `s` (`n` bytes, '>' first): a quoted cover letter's
 * shortlog header or item, kept for the new text under it. */
void ms_mail_notice_quoted(struct ms_mail_scan *sc, const char *s,
			   size_t n);

/* After the last line: no notice, and the new text is thanks only (a
 * last short line of a name aside), is MS_MAIL_NOTICE_NOTE. */
void ms_mail_notice_end(struct ms_mail *m, struct ms_mail_scan *sc);

/* A notice of the new text: an applied one wins over the others (a
 * "NAK" line quoted without '>' in an applied notice is no rejection). */
void ms_mail_notice_add(struct ms_mail *m, enum ms_mail_notice v);

#endif
