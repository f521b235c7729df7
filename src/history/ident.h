/*
 * ident.h - who is who: people behind the names and addresses of commits,
 * trailers and MAINTAINERS lines.
 *
 * An address goes through, in order: the repository's .mailmap (the four
 * forms git accepts), a gitdm-style aliases file ("alias canonical" per
 * line), then a comparable form (lowercase, and "user+tag@domain" folded
 * to "user@domain" unless plus-folding is off).  Everything that ends at
 * the same address is one person, known by a small integer id.  A person
 * without any address is known by their name, compared case-insensitively.
 *
 * Addresses that do not meet there can still be one person: a join
 * (ms_ident_join(): MAINTAINERS history, or ms_ident_join_names(): equal
 * display names unless the evidence says two people) makes them one
 * group.  ms_ident_resolve() returns the group's id (its "root"), whose
 * address is the listed one when any address of the group is listed in
 * MAINTAINERS (ms_ident_set_listed()).  Every address and join keeps the
 * first evidence it was seen with (ms_ident_set_evidence()), so a report
 * can show why two addresses are one person.
 *
 * Not thread-safe: resolve from one thread at a time.
 */
#ifndef MS_IDENT_H
#define MS_IDENT_H

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Id of nobody: no name and no address. */
#define MS_IDENT_NONE ((unsigned)-1)

struct ms_ident;

/* An empty resolver.  Free with ms_ident_free(). */
struct ms_ident *ms_ident_new(bool plus_fold);
void ms_ident_free(struct ms_ident *id);

/*
 * Add the mailmap text `buf` (`len` bytes) named `file` (for messages).
 * Lines git would ignore are reported in `diags` with their number.
 */
void ms_ident_add_mailmap(struct ms_ident *id, const char *file,
			  const char *buf, size_t len,
			  struct ms_diags *diags);

/*
 * Add a gitdm aliases file: "alias@addr canonical@addr" per line, '#'
 * starts a comment; a line with a '<' is read as a .mailmap line (any of
 * the four forms), so a .mailmap can be given as aliases.  A malformed line is reported in `diags` with its
 * number and skipped.
 */
void ms_ident_add_aliases(struct ms_ident *id, const char *file,
			  const char *buf, size_t len,
			  struct ms_diags *diags);

/*
 * The person behind `name` and `email` (either may be NULL or ""), created
 * on first sight; MS_IDENT_NONE when both are empty.
 */
unsigned ms_ident_resolve(struct ms_ident *id, const char *name,
			  const char *email);

/*
 * The person `email` resolves to, if anyone was seen with it, else
 * MS_IDENT_NONE (does not create one).
 */
unsigned ms_ident_lookup(struct ms_ident *id, const char *name,
			 const char *email);



/* Where an address of a group came from, strongest first. */
enum ms_ident_source {
	MS_IDENT_SELF,            /* the group's own address */
	MS_IDENT_MAILMAP,         /* a .mailmap line */
	MS_IDENT_ALIASES,         /* an --aliases line */
	MS_IDENT_MAINTAINERS,     /* a MAINTAINERS change of address */
	MS_IDENT_NAME,            /* the same display name */
};

/* "self", "mailmap", "aliases", "maintainers-history", "name". */
const char *ms_ident_source_name(enum ms_ident_source s);

/*
 * The evidence every following resolve is made under: a commit id,
 * "MAINTAINERS:12", a Message-ID (copied).  `usage` says whether it
 * shows the address in use (a commit, a message), as opposed to merely
 * listed.  NULL clears it.
 */
void ms_ident_set_evidence(struct ms_ident *id, const char *evidence,
			   bool usage);

/*
 * Mark `person`'s address as shared (a mailing list's: a DMARC rewrite
 * puts the sender's name on it): no name join takes it.
 */
void ms_ident_set_shared(struct ms_ident *id, unsigned person);

/* Mark `person` as listed in MAINTAINERS: its address wins as canonical. */
void ms_ident_set_listed(struct ms_ident *id, unsigned person);

/*
 * Record that `a` and `b` (ids as resolved, before joins) are two
 * different people (e.g. author and reviewer of one commit), so that no
 * name join puts them together, with the evidence said (copied): "From
 * and Cc of <id>".  The first evidence of a pair stays.
 */
void ms_ident_note_distinct_why(struct ms_ident *id, unsigned a, unsigned b,
				const char *why);

/*
 * Whether `person` is a shared address (ms_ident_set_shared(), or seen
 * with three or more names): a list's or a role's, never a person.
 */
bool ms_ident_shared(const struct ms_ident *id, unsigned person);

/*
 * Join the groups of `a` and `b` as one person, for `source` with
 * `evidence` (copied; a commit id...).  Returns true when they were two
 * groups.
 */
bool ms_ident_join(struct ms_ident *id, unsigned a, unsigned b,
		   enum ms_ident_source source, const char *evidence);

/*
 * One use of `person` (an id as resolved, before any join: a commit's
 * author, committer or trailer, a list message's sender) at `when` (Unix
 * time, 0 when unknown).  How often and when an address was used is the
 * evidence ms_ident_settle() and ms_ident_join_names() weigh.
 */
void ms_ident_note_use(struct ms_ident *id, unsigned person, int64_t when);

/*
 * `a` and `b` (ids as resolved) in one commit, one the author and the
 * other a trailer (a Signed-off-by...): when their names are equal, one
 * signed for the other, which corroborates a name join
 * (ms_ident_foreach_possible()).
 */
void ms_ident_note_same(struct ms_ident *id, unsigned a, unsigned b);

/*
 * Settle the addresses written with names that share no word (each name
 * resolved to a person of its own until now): a name used once on an
 * address used 20 times or more under another is a typo and joins no one
 * ("Tested-by: Ayoub Zaki <hs@denx.de>" on Heiko Schocher's address); a
 * .mailmap target whose name is none of the names written with it is a
 * placeholder for several people (U-Boot's noreply@example.com for Pali
 * Rohár and Stephen Warren), each known by their own name; otherwise the
 * names are one person's, as the address says.  After all uses are
 * noted; ms_ident_join_names() does it first, so call it only without
 * name joins.  Later resolves make no new person of a new name.
 */
void ms_ident_settle(struct ms_ident *id);

/*
 * Join every two groups whose addresses were seen with the same display
 * name (ms_name_key()) unless ms_ident_note_distinct_why() says otherwise.
 * A name that joins more than five addresses is reported in `diags` and
 * flagged (ms_ident_big_name()).  Returns how many joins were made.
 */
size_t ms_ident_join_names(struct ms_ident *id, struct ms_diags *diags);

/*
 * After ms_ident_join_names(), ms_ident_resolve() of an address marked
 * shared (ms_ident_set_shared(): a list's) with a display name answers the one person of that name
 * (ms_name_key()), when exactly one has it: a DMARC rewrite that kept no
 * original address ("Ann Example via linux-foo <linux-foo@...>") is
 * credited to Ann, never to the list.  Each such credit is counted on
 * the person ("dmarc-name"): ms_ident_dmarc() gives how many, the first
 * one's list address and evidence (NULL when none).
 */
size_t ms_ident_dmarc(const struct ms_ident *id, unsigned person,
		      const char **list, const char **evidence);

/*
 * The people a name join would have merged with `person`'s group, but
 * the evidence said two (ms_ident_note_distinct_why()): `fn` gets each
 * other group's root once, with the first evidence.
 */
void ms_ident_foreach_split(const struct ms_ident *id, unsigned person,
			    void (*fn)(unsigned other, const char *why,
				       void *data),
			    void *data);

/*
 * The people of `person`'s name that no join took, for want of
 * corroboration: addresses at different organisations, used years apart
 * (a .mailmap line or a MAINTAINERS change of address would have joined
 * them first, and so does one address signing for the other or the same
 * local part at both).  `fn` gets each other group's root once, with why.
 * Shown as possible joins, never used for verdicts.
 */
void ms_ident_foreach_possible(const struct ms_ident *id, unsigned person,
			       void (*fn)(unsigned other, const char *why,
					  void *data),
			       void *data);

/*
 * The organisation of address `email`: its domain without the host part
 * ("linux.ibm.com" -> "ibm.com"; "example.co.uk", "example.com.cn"
 * keep three labels), lowercase, a new string; NULL for a malformed
 * address or a mailbox anyone can have (gmail.com, kernel.org, acm.org,
 * infradead.org, ...).  What tells namesakes apart (ms_ident_join_names())
 * and what `people` takes for a company without an employers file.
 */
char *ms_ident_org(const char *email);

/* The group `person` belongs to (itself when not joined). */
unsigned ms_ident_root(const struct ms_ident *id, unsigned person);

/*
 * The ids of a group's members (root first, then in join order),
 * borrowed until the next join; count in *nr.
 */
const unsigned *ms_ident_members(const struct ms_ident *id, unsigned root,
				 size_t *nr);

/*
 * How member `person` came into its group, and the first evidence of that
 * join (borrowed; "" when none); MS_IDENT_SELF for a root.
 */
enum ms_ident_source ms_ident_join_source(const struct ms_ident *id,
					  unsigned person,
					  const char **evidence);

/*
 * The addresses (comparable form) seen resolving to `person` itself, with
 * how each got there (self, mailmap, aliases) and its first evidence.
 */
size_t ms_ident_nr_addresses(const struct ms_ident *id, unsigned person);
const char *ms_ident_address(const struct ms_ident *id, unsigned person,
			     size_t i, enum ms_ident_source *source,
			     const char **evidence);

/*
 * Every address (comparable form) seen for the group of `person`, the
 * group's canonical one first: a new NULL-terminated array (g_strfreev).
 */
char **ms_ident_group_addresses(const struct ms_ident *id, unsigned person);

/* One address of a person, as ms_ident_foreach_address() reports it. */
struct ms_ident_addr {
	const char *email;          /* comparable form */
	enum ms_ident_source source;/* how it joined (self: canonical) */
	const char *join_evidence;  /* of that join: a commit id, "name
				     * 'ann example'"...; "" when none */
	const char *first_seen;     /* first evidence of the address */
	bool used;                  /* seen in a commit or message */
	bool listed;                /* in an M: or R: line */
	bool malformed;             /* no address (ms_email_malformed()):
				     * evidence text, never written as one */
};

/*
 * Walk every address of the group of `person`, in group order (the
 * canonical one first).
 */
void ms_ident_foreach_address(const struct ms_ident *id, unsigned person,
			      void (*fn)(const struct ms_ident_addr *a,
					 void *data),
			      void *data);

/* Whether address `a` is an unused one: listed in an M: or R: line, yet
 * no commit or message read came from it; never when nothing was read to
 * tell (`usage_read` false: no history or list). */
bool ms_ident_addr_unused(const struct ms_ident_addr *a, bool usage_read);

/* Whether `person` (this id, not its group) was seen in use. */
bool ms_ident_used(const struct ms_ident *id, unsigned person);

/* Whether the group's name join merged more than five addresses. */
bool ms_ident_big_name(const struct ms_ident *id, unsigned root);

/*
 * The distinct (name, address) pairs resolved so far, in the order first
 * seen: ms_ident_seen() gives the i-th (0 <= i < ms_ident_nr_seen()),
 * with the evidence (NULL when none) and usage set when it was first
 * resolved.  Resolving them again, in that order and each under its
 * evidence (ms_ident_set_evidence()), in a resolver given the same
 * .mailmap and aliases gives every person the same id, canonical name
 * and first evidence, which is how a saved model (activity.c) restores
 * its resolver.  The name is `name_len` bytes (not terminated); all are
 * borrowed until the resolver is freed.
 */
size_t ms_ident_nr_seen(const struct ms_ident *id);
void ms_ident_seen(const struct ms_ident *id, size_t i, const char **name,
		   size_t *name_len, const char **email, const char **evidence,
		   bool *usage);

/*
 * The id the i-th pair of ms_ident_seen() resolves to: the one of its
 * address (as .mailmap and aliases make it), not its group's.
 */
unsigned ms_ident_seen_person(const struct ms_ident *id, size_t i);

/* How many people there are; ids run from 0 to this minus one. */
size_t ms_ident_count(const struct ms_ident *id);

/*
 * One use of display name `name` by `person` (an id as resolved: a list
 * message's sender).  A name that is an address ("a@b") or empty is not
 * counted.
 */
void ms_ident_note_name(struct ms_ident *id, unsigned person,
			const char *name);

/*
 * The canonical name and address (lowercase; "" when none) of a person.
 * The name: the .mailmap's for the group's own address, else the one
 * the group was used under most (ms_ident_note_name(); a tie goes to the
 * name noted first), one written plainly before one a mail client
 * decorated ("Last, First", "Name (Company)"), else the first one seen
 * ("" when none).  Borrowed
 * until the resolver is freed.
 */
const char *ms_ident_name(const struct ms_ident *id, unsigned person);
const char *ms_ident_email(const struct ms_ident *id, unsigned person);

#endif
