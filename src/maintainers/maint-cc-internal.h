/*
 * maint-cc-internal.h - what maint-cc.c's parts share (internal to
 * src/maintainers): the state of one answer, and the script's address
 * helpers that the git roles (maint-cc-git.c) use too.
 */
#ifndef MS_MAINT_CC_INTERNAL_H
#define MS_MAINT_CC_INTERNAL_H

#include "maint-cc.h"
#include "maintainers.h"

#include <glib.h>

/* One line of @email_to or @list_to. */
struct item {
	char *email;
	char *role;
	char kind;
	const struct maint_entry *entry;
};

struct maint_cc {
	const struct maint_file *mf;
	const struct maint_index *idx;
	const struct ms_tree *tree;
	struct maint_cc_opts o;
	GHashTable *mm_names;     /* .mailmap: email or address -> name */
	GHashTable *mm_addresses; /* .mailmap: email or address -> address */
	GPtrArray *files;         /* char *, get_maintainer.pl's @files */
	GArray *keyword_tv;       /* unsigned, @keyword_tvi */
	struct keyword *kw;
	size_t nr_kw;
	GHashTable *kw_by_tv;     /* tv -> struct keyword * */
	/* the computation */
	GArray *email_to, *list_to; /* struct item */
	GHashTable *list_seen, *hash_name, *hash_address;
	GHashTable *dedup_name, *dedup_address; /* lc -> char *[2] */
	GHashTable *parsed;       /* parse_email(): line -> char *[2] */
	GPtrArray *values[4];     /* N S T W */
	GPtrArray *entries;
	GHashTable *entry_seen;
	GArray *lines;            /* struct maint_cc_line */
	GPtrArray *chiefs;        /* "Name:address", @penguin_chief */
	enum maint_dialect dialect;
	GHashTable *ignored;      /* QEMU's .ignoredmailmap: addresses */
	GPtrArray *path_emails;   /* QEMU: addresses found in the -f paths */
	GPtrArray *git_ignore;    /* .get_maintainer.ignore's lines */
	GHashTable *exact;        /* files an entry matches exactly */
	GPtrArray *fixes;         /* the ids of the patches' Fixes: lines */
	GPtrArray *ranges;        /* --git-blame's "file:start:length" */
	GHashTable *commit_logs;  /* "0ID", "1ID" (with body) -> its lines */
	struct ms_diags *diags;
};

/* An item of `email` (taken) and a copy of `role` onto `to`. */
void mcc_push_item(GArray *to, char *email, const char *role, char kind,
		   const struct maint_entry *e);
/* mailmap_email(), deduplicate_email(): new strings */
char *mcc_mailmap_email(struct maint_cc *cc, const char *line);
char *mcc_deduplicate_email(struct maint_cc *cc, const char *in);
/* push_email_address(): false when there is no address */
bool mcc_push_email_address(struct maint_cc *cc, const char *line,
			    const char *role, char kind,
			    const struct maint_entry *e);
/* add_role($line, $role) */
void mcc_add_role(struct maint_cc *cc, const char *line, const char *role);

/* The git signers of each file (--git, the git fallback, --git-blame),
 * and of the commits the patches' Fixes: lines name. */
void mcc_git_signers(struct maint_cc *cc);
void mcc_fixes_signers(struct maint_cc *cc);

#endif
