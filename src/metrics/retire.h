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

/* One address of a patch's To: header. */
struct retire_to {
	const char *line;     /* as written: "Name <addr>" or "addr" */
	const char *address;  /* the address in it */
	char kind;            /* 'M' maintainer, 'R' reviewer, 'L' list */
};

struct retire_plan {
	const char *entry;    /* the entry's name */
	struct retire_person *people;
	size_t nr_people;
	const char *report;   /* the activity report block of the entry */
	/* the file the entry lives in, as a retire_text names it (NULL:
	 * "MAINTAINERS"), and which of that file's entries of this name it
	 * is (0: the first) */
	const char *path;
	unsigned nth;
	/* where the entry was read (file and title line, for messages; NULL
	 * and 0 when unknown) */
	const char *where;
	unsigned line;
	/* whom the patch is sent To: (get_maintainer.pl's answer for the
	 * file); addresses Cc'd already are left out */
	const struct retire_to *to;
	size_t nr_to;
};

/* A MAINTAINERS file of the revision: the series edits those its plans'
 * entries live in. */
struct retire_text {
	const char *path;     /* in the tree: "MAINTAINERS",
			       * "board/acme/x/MAINTAINERS" */
	const char *text;
};

struct retire_opts {
	const char *from;     /* "Name <addr>": From and Signed-off-by */
	int64_t date;         /* of every patch */
	int date_offset;
	bool no_credits;      /* the revision has no CREDITS: leave it be */
	bool plus_fold;       /* compare addresses with user+tag folded */
	const char *cover_intro; /* the cover letter's body */
};

/* Why an address is on a patch. */
enum retire_cc_kind {
	RETIRE_CC_LISTED,     /* a removed person's listed address */
	RETIRE_CC_LAST_USED,  /* the address they used last (another one) */
	RETIRE_CC_REMAINING,  /* an M: or R: the entry keeps */
	RETIRE_CC_LIST,       /* an L: of the entry */
	RETIRE_TO_MAINTAINER, /* To: get_maintainer.pl's maintainer, */
	RETIRE_TO_REVIEWER,   /* reviewer */
	RETIRE_TO_LIST,       /* or list for the file */
};

/* One Cc: line, or one address of the To: header, of a patch. */
struct retire_cc {
	char *line;           /* as written: "Name <addr>" or "addr" */
	char *address;        /* the address in it */
	/* whose (borrowed from the plan); NULL: not a removed person's */
	const struct retire_person *who;
	enum retire_cc_kind kind;
};

/* One written patch. */
struct retire_patch {
	const char *entry;    /* borrowed from the plan; NULL: cover */
	const char *path;     /* the MAINTAINERS file it edits (borrowed
			       * from the retire_text); NULL: cover */
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
	struct retire_cc *to;  /* its To: header, in order */
	size_t nr_to;
};

/* A MAINTAINERS file after the series. */
struct retire_file {
	const char *path;     /* borrowed from the retire_text */
	char *text;
};

struct retire_series {
	struct retire_patch *patches; /* [0] is the cover letter */
	size_t nr;
	/* every retire_text after the whole series, in the order given */
	struct retire_file *files;
	size_t nr_files;
	char *credits;        /* CREDITS after it (NULL with no_credits) */
};

/*
 * Build the series: for each plan in order, remove each person's M:/R:
 * line from the entry in the file it lives in (one of `files`), set "S:
 * Orphan" when no M: remains (the entry stays), and credit a maintainer
 * in CREDITS once they are listed in none of `files` any more (one
 * record, a D: line per entry they left; an existing record gains D:
 * lines; reviewers are not credited).  Each patch edits one file, so that
 * the series applies in order with git am.
 *
 * Each patch Cc's the people it removes, then the M: and R: people the
 * entry keeps (at their listed address), then the entry's L: lists; its
 * To: header is the plan's `to` without the addresses Cc'd.  A person
 * whose last_email is not the listed address (compared in lowercase,
 * user+tag folded with opts->plus_fold) is Cc'd at both, and the message
 * names the address last used, when and in which commit.  No address is
 * on a patch twice.  The subject names the file's place ("MAINTAINERS:
 * ENTRY: ", "board: acme: x: " and the entry when the file has several)
 * and stays within 75 characters.
 *
 * `credits` may be NULL only with opts->no_credits.  Plans whose file,
 * entry or people cannot be found are reported in `diags` (at the plan's
 * `where` and `line`) and skipped.  Returns 0 or a negative code.
 */
int retire_build(const struct retire_text *files, size_t nr_files,
		 const char *credits, const struct retire_plan *plans,
		 size_t nr_plans, const struct retire_opts *opts,
		 struct retire_series **out, struct ms_diags *diags);
/* The text of `path` after the series `s`, or NULL when not one given. */
const char *retire_series_text(const struct retire_series *s,
			       const char *path);
void retire_series_free(struct retire_series *s);

/*
 * git format-patch's file name of patch `nr` (0: the cover letter) of a
 * series: "NNNN-" and the subject's runs of characters other than
 * letters, digits, '.' and '_' as one '-', at most 52 characters, then
 * ".patch".
 */
char *retire_patch_name(size_t nr, const char *subject);

/*
 * `text` re-flowed to lines of at most `width` characters (longer words
 * stand alone); paragraphs (blank-line separated) are kept.  g_free it.
 */
char *retire_wrap(const char *text, size_t width);

/*
 * The start of the subject of a change to `path`: "MAINTAINERS" for the
 * top-level file, else its directories as U-Boot titles changes to its
 * board files ("board: acme: x" for board/acme/x/MAINTAINERS).  g_free it.
 */
char *retire_file_tag(const char *path);

/* An entry name short enough for a subject line. */
char *retire_short_name(const char *entry);

/*
 * "TAG: NAME: TAIL" ("TAG: TAIL" when `name` is empty) within 75
 * characters: words come off the end of NAME, then NAME goes, as far
 * as needed; TAIL, which names people, is never cut (the subject is
 * longer only when "TAG: TAIL" is).  g_free it.
 */
char *retire_subject(const char *tag, const char *name, const char *tail);

#endif
