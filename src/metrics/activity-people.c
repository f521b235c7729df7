/*
 * activity-people.c - who people are beyond their records: the
 * identity model's inputs (.mailmap, --mailmap, --aliases), role and
 * list addresses, and the address a person used last: which of a
 * group's addresses the newest record naming the person wrote, so that a
 * patch about them (retire) reaches them where they are now, not only
 * where MAINTAINERS once listed them.
 *
 * The records name people by the id each address resolved to (ident.h:
 * one per address as .mailmap and aliases make it) until join_people()
 * makes every id its group's; act_note_used() reads them just before.
 * The saved model keeps the records as the walk left them, so a run
 * served from the store notes the same ids and dates as a walk.
 */
#include "activity-internal.h"
#include "ident.h"
#include "person.h"
#include "tree.h"

#include <string.h>

/* The newest record naming one id. */
struct act_used {
	int64_t when;             /* its commit date */
	guint ci;                 /* its index in a->commits */
	unsigned slot;            /* 0 author, 1 committer, 2 + trailer */
	bool set;
};

/* Whether (when, ci, slot) is newer than `u`: a later commit date, else
 * earlier in walk order (newest first), else earlier in the record. */
static bool newer(const struct act_used *u, int64_t when, guint ci,
		  unsigned slot)
{
	if (!u->set || when != u->when)
		return !u->set || when > u->when;
	return ci != u->ci ? ci < u->ci : slot < u->slot;
}

static void note(struct act_used *used, size_t n, unsigned id,
		 int64_t when, guint ci, unsigned slot)
{
	if (id == MS_IDENT_NONE || id >= n || !newer(&used[id], when, ci, slot))
		return;
	used[id] = (struct act_used){ when, ci, slot, true };
}

void act_note_used(struct ms_activity *a)
{
	size_t n = ms_ident_count(a->ident);
	struct act_used *used = g_new0(struct act_used, n ? n : 1);

	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);
		const struct ctag *tags = &g_array_index(a->tags, struct ctag,
							 r->tag_off);

		note(used, n, r->author, r->ctime, ci, 0);
		note(used, n, r->committer, r->ctime, ci, 1);
		for (unsigned t = 0; t < r->nr_tag; t++)
			note(used, n, tags[t].person, r->ctime, ci, 2 + t);
	}
	g_free(a->last_used);
	a->last_used = used;
	a->nr_last_used = n;
}

/* An address mail can be sent to: one '@' between a local part and a
 * domain with a dot, nothing a mailer would read as syntax, no
 * placeholder domain ("user@host.(none)" from an unset user.email). */
static bool deliverable(const char *email)
{
	const char *at = strchr(email, '@');
	const char *dom = at ? at + 1 : NULL;

	if (!at || at == email || strchr(dom, '@') || !strchr(dom, '.') ||
	    *dom == '.' || g_str_has_suffix(dom, "."))
		return false;
	if (strpbrk(email, " \t<>[](),;:\"\\"))
		return false;
	return strcmp(dom, "localhost") &&
	       !g_str_has_prefix(dom, "localhost.") &&
	       !g_str_has_suffix(dom, ".localdomain") &&
	       !g_str_has_suffix(dom, ".local");
}

/*
 * What ms_activity_last_address() asks of every id and domain, built once
 * from the resolver after the joins.
 */
struct act_addresses {
	/* per id: the one address its pairs in use write (lowercase), when
	 * they write only one that resolves to it without .mailmap or
	 * aliases (a +tag the comparable form folds is kept); else NULL */
	char **written;
	size_t n;
	/* the domain of each address in use -> its group's id + 1, or
	 * G_MAXUINT when several groups use it */
	GHashTable *domains;
};

void act_addresses_free(struct act_addresses *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++)
		g_free(x->written[i]);
	g_free(x->written);
	g_hash_table_destroy(x->domains);
	g_free(x);
}

static void written_forms(const struct ms_activity *a, struct act_addresses *x)
{
	const struct ms_ident *id = a->ident;
	bool *several = g_new0(bool, x->n ? x->n : 1);

	for (size_t i = 0; i < ms_ident_nr_seen(id); i++) {
		const char *name, *email, *ev;
		size_t name_len;
		bool usage;
		unsigned m;
		char *c, *low;

		ms_ident_seen(id, i, &name, &name_len, &email, &ev, &usage);
		m = ms_ident_seen_person(id, i);
		if (!usage || !*email || m >= x->n || several[m])
			continue;
		c = ms_email_normalize(email, !a->no_plus_fold);
		if (strcmp(c, ms_ident_email(id, m))) {
			g_free(c);        /* through .mailmap or aliases */
			continue;
		}
		g_free(c);
		low = g_ascii_strdown(email, -1);
		if (!x->written[m]) {
			x->written[m] = low;
			continue;
		}
		if (strcmp(x->written[m], low)) {
			several[m] = true;
			g_clear_pointer(&x->written[m], g_free);
		}
		g_free(low);
	}
	g_free(several);
}

static void used_domains(const struct ms_ident *id, struct act_addresses *x)
{
	for (size_t p = 0; p < ms_ident_count(id); p++) {
		guint root = ms_ident_root(id, (unsigned)p) + 1;

		if (!ms_ident_used(id, (unsigned)p))
			continue;
		for (size_t i = 0; i < ms_ident_nr_addresses(id, (unsigned)p);
		     i++) {
			enum ms_ident_source src;
			const char *ev;
			const char *e = ms_ident_address(id, (unsigned)p, i,
							 &src, &ev);
			const char *at = strrchr(e, '@');
			guint v;

			if (!at || !at[1])
				continue;
			v = GPOINTER_TO_UINT(g_hash_table_lookup(x->domains,
								 at + 1));
			if (v == root)
				continue;
			v = v ? G_MAXUINT : root;
			g_hash_table_insert(x->domains, g_strdup(at + 1),
					    GUINT_TO_POINTER(v));
		}
	}
}

/* a->addresses, built on the first call. */
static const struct act_addresses *addresses(const struct ms_activity *a)
{
	struct ms_activity *m = (struct ms_activity *)a;
	struct act_addresses *x;

	g_mutex_lock(&m->seen_lock);
	x = m->addresses;
	if (!x) {
		x = g_new0(struct act_addresses, 1);
		x->n = ms_ident_count(a->ident);
		x->written = g_new0(char *, x->n ? x->n : 1);
		x->domains = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
		written_forms(a, x);
		used_domains(a->ident, x);
		m->addresses = x;
	}
	g_mutex_unlock(&m->seen_lock);
	return x;
}

/* Whether a word of `low` (g_free()d here), split at `seps`, is one of
 * `words`. */
static bool has_word(char *low, const char *seps, const char *const *words)
{
	char **tok = g_strsplit_set(low, seps, -1);
	bool r = false;

	for (size_t i = 0; tok[i] && !r; i++)
		r = g_strv_contains(words, tok[i]);
	g_strfreev(tok);
	g_free(low);
	return r;
}

/* Words that make an address's local part a role's, not a person's. */
static bool act_role_local_part(const char *email)
{
	static const char *const words[] = {
		"support", "maintainer", "maintainers", "opensource",
		"upstream", "team", "patches", "list", "lists", "drivers",
		"help", "info", "admin", "bugs", "security", "devel", "kernel",
		"linux", "qa", "sw", "all", "community", "manager", NULL
	};
	const char *at = strrchr(email, '@');
	char *low = g_ascii_strdown(email, at ? at - email : -1);
	char **parts = g_strsplit_set(low, ".-_+", -1);
	char *joined = g_strjoinv("", parts);
	/* a word written in parts is one too: "open-source" (U-Boot's
	 * open-source@softing.de) */
	bool whole = g_strv_contains(words, joined);

	g_strfreev(parts);
	g_free(joined);
	return has_word(low, ".-_+", words) || whole;   /* frees low */
}

/* "NXP i.MX U-Boot Team", "Aspeed BMC SW team": a name that is a role's;
 * "Cogent Embedded, Inc." (U-Boot's Renesas boards): a company's. */
static bool act_role_name(const char *name)
{
	static const char *const words[] = {
		"team", "support", "maintainers", "upstream", "group", "list",
		"bot", "manager", "inc", "ltd", "llc", "gmbh", "corp",
		"corporation", "limited", NULL
	};

	return has_word(ms_casefold(name, -1), " \t.,-_", words);
}

/*
 * Whether id `m` of group `root`, written `email`, reaches a person.  A
 * role word in the local part names an organisation's mailbox when
 * others use the domain too; at a domain of their own, "linux@" is
 * theirs.
 */
static bool personal(const struct ms_activity *a,
		     const struct act_addresses *x, unsigned m, unsigned root,
		     const char *email)
{
	const struct ms_ident *id = a->ident;
	const char *key = ms_ident_email(id, m);
	const char *at = strrchr(key, '@');
	char *bare;
	bool role;
	guint dom;

	if (!deliverable(email) || !deliverable(key) ||
	    ms_ident_shared(id, m) ||
	    (a->lists && g_hash_table_contains(a->lists, key)) ||
	    act_is_word_bot(key) || strstr(key, "devnull") ||
	    act_role_name(ms_ident_name(id, m)))
		return false;
	/* a +tag is the owner's label ("ann+kernel@"), not a role */
	bare = ms_email_normalize(key, true);
	role = act_role_local_part(bare);
	g_free(bare);
	if (!at || !role)
		return true;
	dom = GPOINTER_TO_UINT(g_hash_table_lookup(x->domains, at + 1));
	return !dom || dom == root + 1;
}

bool ms_activity_last_address(const struct ms_activity *a, unsigned person,
			      char **email, int64_t *when, char commit[41])
{
	const struct act_used *best = NULL;
	const char *best_email = NULL;
	const struct act_addresses *x;
	const unsigned *members;
	size_t nr;
	unsigned root;

	*email = NULL;
	if (person == MS_IDENT_NONE || person >= ms_ident_count(a->ident) ||
	    !a->last_used)
		return false;
	x = addresses(a);
	root = ms_ident_root(a->ident, person);
	members = ms_ident_members(a->ident, root, &nr);
	for (size_t i = 0; i < nr; i++) {
		unsigned m = members[i];
		const struct act_used *u;
		const char *e;

		if (m >= a->nr_last_used || !a->last_used[m].set)
			continue;
		u = &a->last_used[m];
		e = m < x->n && x->written[m] ? x->written[m] :
		    ms_ident_email(a->ident, m);
		if ((best && !newer(best, u->when, u->ci, u->slot)) ||
		    !personal(a, x, m, root, e))
			continue;
		best_email = e;
		best = u;
	}
	if (!best)
		return false;
	*email = g_strdup(best_email);
	*when = best->when;
	act_set_id(commit, g_array_index(a->commits, struct crec,
					 best->ci).raw);
	return true;
}

/*
 * Why the listed address of `p` names a role or a list, not a person
 * (MS_ACT_ROLE_NONE: it does not): never in the history, and one of the
 * lists of MAINTAINERS, or a role's display name or local part whatever
 * its domain (Xen's "Community Manager <community.manager@...>").
 */
enum ms_act_role act_role_address(const struct ms_activity *a,
				  const struct ms_act_person *p)
{
	char *key;
	enum ms_act_role r = MS_ACT_ROLE_NONE;

	if (!*p->email || p->person == MS_IDENT_NONE || p->seen_anywhere)
		return MS_ACT_ROLE_NONE;
	key = ms_email_normalize(p->email, !a->no_plus_fold);
	if (g_hash_table_contains(a->lists, key))
		r = MS_ACT_ROLE_LIST;
	else if (act_role_name(p->name))
		r = MS_ACT_ROLE_NAME;
	else if (act_role_local_part(key))
		r = MS_ACT_ROLE_LOCAL_PART;
	g_free(key);
	return r;
}

/*
 * Give `ident` the .mailmap of a's tree, --mailmap and --aliases, and note
 * the .mailmap's digest in a->state (load() completes it).
 */
int act_ident_setup(struct ms_activity *a, struct ms_ident *ident,
		    struct ms_diags *diags)
{
	const struct ms_activity_load_opts *opts = a->opts;
	char *buf = NULL;
	size_t len = 0;
	int rc = ms_tree_read(a->tree, ".mailmap", &buf, &len);
	char *sum;

	if (rc == 0)
		ms_ident_add_mailmap(ident, ".mailmap", buf, len, diags);
	else if (rc != MS_ENOTFOUND)
		return rc;
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
					  (const guchar *)(buf ? buf : ""),
					  buf ? len : 0);
	g_strlcpy(a->state, sum, sizeof(a->state));
	g_free(sum);
	g_free(buf);
	for (size_t i = 0; i < opts->nr_mailmaps; i++)
		ms_ident_add_mailmap(ident, opts->mailmap_names[i],
				     opts->mailmaps[i], opts->mailmap_lens[i],
				     diags);
	if (opts->aliases)
		ms_ident_add_aliases(ident, opts->aliases_name,
				     opts->aliases, opts->aliases_len, diags);
	return 0;
}
