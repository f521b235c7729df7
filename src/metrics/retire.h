/*
 * retire.h - the MAINTAINERS/CREDITS patch series that retires inactive
 * maintainers and reviewers, one patch per entry, in git format-patch
 * form (the netdev clean-up of January 2021, written by the tool).
 *
 * The caller decides who goes (activity.h); this module edits the texts
 * patch after patch, so that the series applies in order with git am.
 */
#ifndef MS_RETIRE_H
#define MS_RETIRE_H

#include "error.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct retire_person {
	const char *name;     /* as MAINTAINERS writes it; may be NULL */
	const char *email;    /* as MAINTAINERS writes it */
	char role;            /* 'M' or 'R' */
	const char *why;      /* one clause: "no authored, committed or
			       * tagged change since 2018-05-02" */
	/* the person's other addresses (NULL-terminated, may be NULL): a
	 * CREDITS record under any of them is theirs */
	const char *const *also;
	/* the address the person used last in the history, in lowercase
	 * (ms_activity_last_address(); NULL: none known that reaches
	 * them), the commit date and hex id of that use: when it is not
	 * the listed one, the patch Cc's both and says why */
	const char *last_email;
	int64_t last_time;
	const char *last_commit;
};

struct retire_plan {
	const char *entry;    /* the entry's name */
	struct retire_person *people;
	size_t nr_people;
	const char *report;   /* the activity report block of the entry */
};

struct retire_opts {
	const char *from;     /* "Name <addr>": From and Signed-off-by */
	int64_t date;         /* of every patch */
	int date_offset;
	bool no_credits;      /* the revision has no CREDITS: leave it be */
	bool plus_fold;       /* compare addresses with user+tag folded */
	const char *cover_intro; /* the cover letter's body */
};

/* One Cc: line of a patch. */
struct retire_cc {
	char *line;           /* as written: "Name <addr>" or "addr" */
	char *address;        /* the address in it */
	/* whose (borrowed from the plan); NULL: one of the entry's lists */
	const struct retire_person *who;
	bool last_used;       /* who->last_email, not the listed address */
};

/* One written patch. */
struct retire_patch {
	const char *entry;    /* borrowed from the plan; NULL: cover */
	char *file_name;      /* "0001-MAINTAINERS-...patch" */
	char *subject;
	GString *text;        /* the whole patch */
	bool credits_changed;
	bool orphaned;        /* the entry was set to S: Orphan */
	/* the people it removes (borrowed from the plan) and its Cc: lines,
	 * in order (none in the cover letter) */
	const struct retire_person **people;
	size_t nr_people;
	struct retire_cc *cc;
	size_t nr_cc;
};

struct retire_series {
	struct retire_patch *patches; /* [0] is the cover letter */
	size_t nr;
	char *maintainers;    /* MAINTAINERS after the whole series */
	char *credits;        /* CREDITS after it (NULL with no_credits) */
};

/*
 * Build the series: for each plan in order, remove each person's M:/R:
 * line from the entry, set "S: Orphan" when no M: remains, and credit a
 * maintainer in CREDITS once they are listed nowhere any more (one record,
 * a D: line per entry they left; an existing record gains D: lines;
 * reviewers are not credited).  Each patch Cc's the people it removes
 * and the entry's L: lists, and its subject stays within 75 characters.
 * A person whose last_email is not the listed address (compared in
 * lowercase, user+tag folded with opts->plus_fold) is Cc'd at both, and
 * the message names the address last used, when and in which commit.
 * No address is Cc'd twice in a patch.
 * `credits` may be NULL only with
 * opts->no_credits.  Plans whose people cannot be found are reported in
 * `diags` and skipped.  Returns 0 or a negative code.
 */
int retire_build(const char *maintainers, const char *credits,
		 const struct retire_plan *plans, size_t nr_plans,
		 const struct retire_opts *opts, struct retire_series **out,
		 struct ms_diags *diags);
void retire_series_free(struct retire_series *s);

/*
 * git format-patch's file-name form of a subject: runs of characters other
 * than letters, digits, '.' and '_' become one '-', at most 52 characters.
 */
char *retire_slug(const char *subject);

/*
 * `text` re-flowed to lines of at most `width` characters (longer words
 * stand alone); paragraphs (blank-line separated) are kept.  g_free it.
 */
char *retire_wrap(const char *text, size_t width);

/* An entry name short enough for a subject line. */
char *retire_short_name(const char *entry);

#endif
