/*
 * ident-internal.h - the resolver's data, shared by ident.c (.mailmap,
 * aliases, resolving) and ident-evidence.c (what joins people: settling
 * an address's names, equal names, namesakes kept apart or left open).
 * Nothing outside src/history/ident*.c includes it.
 */
#ifndef MS_IDENT_INTERNAL_H
#define MS_IDENT_INTERNAL_H

#include "ident.h"

#include <glib.h>

/* What a .mailmap says about one commit address (git's mailmap.c). */
struct mm_entry {
	char *name;             /* replacement name, or NULL */
	char *email;            /* replacement address, or NULL */
	GHashTable *by_name;    /* lowercased commit name -> struct mm_sub */
};

struct mm_sub {
	char *name;
	char *email;
};

/* An address seen resolving to a person. */
struct addr_rec {
	char *email;              /* comparable form: addr_seen's key */
	enum ms_ident_source source;
	const char *evidence;     /* its seen_rec's, or "" */
	bool used;                /* seen under evidence of use */
	bool malformed;           /* no address: ms_email_malformed() */
};

struct person {
	char *name;
	char *email;
	unsigned parent;          /* itself for a root */
	bool listed, used, big_name;
	bool group_listed;        /* roots: a member is listed */
	bool shared;              /* a list's or role's: set_shared() */
	unsigned nr_names;        /* distinct name keys seen with it */
	const char *name_keys[2]; /* the first two counted (name_counts()):
				   * keys of `names` */
	unsigned dmarc;           /* messages credited by name (roots) */
	char *dmarc_list;         /* the first one's list address */
	char *dmarc_evidence;     /* and its evidence */
	enum ms_ident_source join_source;   /* into the parent's group */
	char *join_evidence;
	size_t uses;              /* ms_ident_note_use() */
	bool name_fixed;          /* the .mailmap names it */
	GArray *names_used;       /* struct name_use, first noted first
				   * (ms_ident_note_name()), or NULL */
	int64_t first_use, last_use;        /* 0: unknown */
	bool stray;               /* a name once on another's address */
	unsigned addr_person;     /* the first person of its address
				   * (address_key()), counting its names */
	GPtrArray *addrs;         /* struct addr_rec * */
	GArray *members;          /* roots only: unsigned ids */
};

struct ms_ident {
	bool plus_fold;
	char *evidence;           /* current, or NULL */
	bool usage;
	GHashTable *addr_seen;    /* comparable address as written -> id+1 */
	GHashTable *names;        /* ms_name_key() -> GArray of ids */
	GHashTable *distinct;     /* "a:b" (a < b) -> why (owned) */
	GHashTable *distinct_of;  /* id+1 -> GArray of the ids `distinct`
				   * pairs it with */
	GArray *splits;           /* struct split: name joins refused */
	GPtrArray *possible;      /* struct possible: joins left open */
	GHashTable *same;         /* "a:b": one signed for the other */
	GHashTable *same_keys;    /* a name -> its ms_name_key() (or "") */
	GHashTable *addr_groups;  /* address key -> GPtrArray of
				   * struct name_group: its people by name */
	bool names_joined;        /* ms_ident_join_names() ran */
	bool settled;             /* settle() ran: no new name groups */
	GHashTable *mailmap;    /* lowercased commit address -> mm_entry */
	GHashTable *aliases;    /* comparable alias -> comparable canonical */
	GHashTable *by_key;     /* comparable address or "\1name" -> id+1 */
	GHashTable *seen;       /* "name\1email" as written -> id+1 */
	GArray *seen_order;     /* struct seen_rec, in the order first seen */
	GPtrArray *people;      /* struct person * */
};

/*
 * The people of one address key, told apart by the words of their names
 * (address_key()): the first is known by the key itself, the others by
 * "key\2name".
 */
struct name_group {
	char *key;
	char *name;               /* the first name seen, as written */
	char *mapped;             /* the .mailmap's name for it, or NULL */
	GString *words;           /* its name keys, a space between */
};

/* An equal-name join not made for want of corroboration. */
struct possible {
	unsigned a, b;
	char *why;
};

/* Two ids a name join would have merged, and why it did not. */
struct split {
	unsigned a, b;
	const char *why;          /* borrowed from `distinct` */
};

/*
 * A key of `seen` (owned by it), where its name ends, and the evidence
 * (owned) it was first resolved under.
 */
struct seen_rec {
	const char *key;
	size_t name_len;
	char *evidence;
	bool usage;
};

/* A display name and how often it was used (ms_ident_note_name()). */
struct name_use {
	char *name;
	size_t n;
};

/* The name `p` was first seen with (never the one used most: what
 * joins people must not change as messages are counted). */
const char *ident_first_name(const struct ms_ident *id, unsigned p);

/* The root of `p`'s group. */
unsigned ident_root_of(const struct ms_ident *id, unsigned p);

/* The id of a person key (by_key), or MS_IDENT_NONE. */
unsigned ident_key_person(const struct ms_ident *id, const char *key);

/* Whether `p`'s address is a list's or shared (three names or more). */
bool ident_shared_address(const struct ms_ident *id, unsigned p);

/* Whether `p` is a name seen once on another's address. */
bool ident_stray(const struct ms_ident *id, unsigned p);

/* The key of the pair (a, b) in `distinct` and `same` (g_free). */
char *ident_pair_key(unsigned a, unsigned b);

/* Whether two display names share a word (two bytes or more). */
bool ident_names_share(const char *a, const char *b);

#endif
