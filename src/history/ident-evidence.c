/*
 * ident-evidence.c - what makes two addresses one person, or not: the
 * names written with one address settled (a placeholder, a typo), equal
 * names joined unless the evidence says two people, or left open when
 * nothing corroborates namesakes years apart (docs/identities.md).
 */
#include "ident-internal.h"
#include "bytes.h"
#include "person.h"

#include <string.h>

/* Where person `m` is among the members of group `g`. */
static guint member_pos(const struct person *g, unsigned m)
{
	guint i = 0;

	while (i < g->members->len &&
	       g_array_index(g->members, unsigned, i) != m)
		i++;
	return i;
}

/*
 * Whether any member of group `ra` is known to differ from one of `rb`:
 * the evidence (borrowed), else NULL.  The pairs are looked up from the
 * smaller group's members (distinct_of), so that a person joining a
 * group of thousands costs no walk over them; of several pairs, the one
 * first in `ra`'s member order, then `rb`'s, gives the evidence.
 */
static const char *groups_distinct(const struct ms_ident *id, unsigned ra,
				   unsigned rb)
{
	const struct person *a = id->people->pdata[ra];
	const struct person *b = id->people->pdata[rb];
	bool from_a = a->members->len <= b->members->len;
	const struct person *small = from_a ? a : b;
	const char *why = NULL;
	guint best_a = 0, best_b = 0;

	if (!g_hash_table_size(id->distinct))
		return NULL;
	for (guint i = 0; i < small->members->len; i++) {
		unsigned m = g_array_index(small->members, unsigned, i);
		GArray *with = g_hash_table_lookup(id->distinct_of,
						   GUINT_TO_POINTER(m + 1));

		for (guint j = 0; with && j < with->len; j++) {
			unsigned o = g_array_index(with, unsigned, j);
			unsigned ma = from_a ? m : o, mb = from_a ? o : m;
			guint pa, pb;
			char *key;

			if (ident_root_of(id, o) != (from_a ? rb : ra))
				continue;
			pa = member_pos(a, ma);
			pb = member_pos(b, mb);
			if (why && (pa > best_a || (pa == best_a && pb > best_b)))
				continue;
			key = ident_pair_key(ma, mb);
			why = g_hash_table_lookup(id->distinct, key);
			g_free(key);
			best_a = pa;
			best_b = pb;
		}
	}
	return why;
}

void ms_ident_note_use(struct ms_ident *id, unsigned person, int64_t when)
{
	struct person *pe;

	if (person == MS_IDENT_NONE || person >= id->people->len)
		return;
	pe = id->people->pdata[person];
	pe->uses++;
	if (when > 0 && (!pe->first_use || when < pe->first_use))
		pe->first_use = when;
	if (when > pe->last_use)
		pe->last_use = when;
}

/* The uses (ms_ident_note_use()) that make a name seen once a typo. */
#define STRAY_OTHER_USES 20

/*
 * Settle an address written with names sharing no word (address_key()):
 * a name used once on an address used STRAY_OTHER_USES times or more
 * under another is a typo, a stray that joins no one; names of which
 * none is the .mailmap's name for the address are several people (a
 * placeholder), each under their own name; anything else is one person,
 * as the address says.
 */
void ms_ident_settle(struct ms_ident *id)
{
	GHashTableIter it;
	gpointer v;

	if (id->settled)
		return;
	id->settled = true;
	g_hash_table_iter_init(&it, id->addr_groups);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		GPtrArray *gs = v;
		size_t most = 0;
		unsigned base = MS_IDENT_NONE;
		bool placeholder = true;

		if (gs->len < 2)
			continue;
		if (ident_shared_address(id, ident_key_person(id, ((struct name_group *)
							gs->pdata[0])->key)))
			placeholder = false;
		for (guint i = 0; i < gs->len; i++) {
			const struct name_group *g = gs->pdata[i];
			unsigned p = ident_key_person(id, g->key);

			if (p != MS_IDENT_NONE)
				most = MAX(most, ((struct person *)
					id->people->pdata[p])->uses);
			if (!g->mapped || ident_names_share(g->mapped, g->name))
				placeholder = false;
		}
		for (guint i = 0; i < gs->len; i++) {
			const struct name_group *g = gs->pdata[i];
			unsigned p = ident_key_person(id, g->key);
			struct person *pe;

			if (p == MS_IDENT_NONE)
				continue;
			pe = id->people->pdata[p];
			if (ident_shared_address(id, p)) {
				if (base == MS_IDENT_NONE)
					base = p;
				else
					ms_ident_join(id, base, p,
						      MS_IDENT_SELF, "");
			} else if (pe->uses <= 1 && most >= STRAY_OTHER_USES) {
				pe->stray = true;
			} else if (placeholder) {
				g_free(pe->name);
				pe->name = g_strdup(g->name);
			} else if (base == MS_IDENT_NONE) {
				base = p;
			} else {
				ms_ident_join(id, base, p, MS_IDENT_SELF, "");
			}
		}
	}
}

char *ms_ident_org(const char *email)
{
	/* mailboxes and forwarders anyone (or any kernel developer) can
	 * have: acm.org forwards for its members, infradead.org hosts
	 * kernel developers of many employers */
	static const char *const free_mail[] = {
		"gmail.com", "googlemail.com", "yahoo.com", "hotmail.com",
		"outlook.com", "live.com", "msn.com", "qq.com", "163.com",
		"126.com", "foxmail.com", "gmx.de", "gmx.net", "gmx.com",
		"web.de", "icloud.com", "me.com", "mail.ru", "yandex.ru",
		"aol.com", "protonmail.com", "proton.me", "pm.me",
		"fastmail.com", "posteo.de", "posteo.net",
		"users.sourceforge.net", "kernel.org", "linux.dev", "acm.org",
		"infradead.org",
	};
	const char *at = email ? strrchr(email, '@') : NULL, *end, *dot[3];
	int n = 0;

	if (!at || ms_email_malformed(email))
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(free_mail); i++)
		if (!g_ascii_strcasecmp(at + 1, free_mail[i]))
			return NULL;
	/* the last three dots, from the end; the domain's start before */
	for (end = at + strlen(at); end > at + 1 && n < 3;)
		if (*--end == '.')
			dot[n++] = end;
	while (n < 3)
		dot[n++] = at;
	if (dot[0] == at)
		return NULL;
	/* example.co.uk, example.com.cn: three labels */
	if (dot[1] != at && strlen(dot[0]) == 3 && dot[0] - dot[1] <= 4)
		return g_ascii_strdown(dot[2] + 1, -1);
	return g_ascii_strdown(dot[1] + 1, -1);
}

/* Add the local part of `email` to `set` ("@" first: no domain). */
static void add_local(GHashTable *set, const char *email)
{
	const char *at = email ? strrchr(email, '@') : NULL;

	if (at && at - email >= 3)
		g_hash_table_add(set, g_strndup(email, (size_t)(at - email)));
}

/* Whether one address of group `ra` has the local part of one of `rb`,
 * or one signed for the other in a commit (ms_ident_note_same()). */
static bool corroborated(const struct ms_ident *id, unsigned ra,
			 unsigned rb)
{
	const struct person *a = id->people->pdata[ra];
	const struct person *b = id->people->pdata[rb];
	GHashTable *la = g_hash_table_new_full(g_str_hash, g_str_equal,
					       g_free, NULL);
	bool yes = false;

	for (guint i = 0; i < a->members->len; i++) {
		const struct person *m = id->people->pdata[
			g_array_index(a->members, unsigned, i)];

		for (guint k = 0; k < m->addrs->len; k++)
			add_local(la, ((struct addr_rec *)m->addrs->pdata[k])->
				  email);
	}
	for (guint i = 0; i < b->members->len && !yes; i++) {
		unsigned mb = g_array_index(b->members, unsigned, i);
		const struct person *m = id->people->pdata[mb];

		for (guint k = 0; k < m->addrs->len && !yes; k++) {
			const char *e = ((struct addr_rec *)
					 m->addrs->pdata[k])->email;
			const char *at = strrchr(e, '@');
			char *lp = at ? g_strndup(e, (size_t)(at - e)) : NULL;

			yes = lp && g_hash_table_contains(la, lp);
			g_free(lp);
		}
		for (guint k = 0; k < a->members->len && !yes; k++) {
			char *key = ident_pair_key(mb, g_array_index(a->members,
							      unsigned, k));

			yes = g_hash_table_contains(id->same, key);
			g_free(key);
		}
	}
	g_hash_table_destroy(la);
	return yes;
}

/* ms_name_key() of `name`, "" for none, kept: the same few thousand
 * names come back in every commit's trailers, and a key costs a Unicode
 * normalisation (a fifth of a warm U-Boot run before they were kept). */
static const char *same_key(struct ms_ident *id, const char *name)
{
	char *k;

	if (!name)
		return "";
	k = g_hash_table_lookup(id->same_keys, name);
	if (!k) {
		k = ms_name_key(name);
		if (!k)
			k = g_strdup("");
		g_hash_table_insert(id->same_keys, g_strdup(name), k);
	}
	return k;
}

void ms_ident_note_same(struct ms_ident *id, unsigned a, unsigned b)
{
	const char *ka, *kb;

	if (a == b || a == MS_IDENT_NONE || b == MS_IDENT_NONE)
		return;
	ka = same_key(id, ident_first_name(id, a));
	kb = same_key(id, ident_first_name(id, b));
	if (*ka && !strcmp(ka, kb))
		g_hash_table_add(id->same, ident_pair_key(a, b));
}

/*
 * A group's organisations (a set) and the span of its uses, as of its
 * first `len` members: a group only grows at its end (ms_ident_join()),
 * so one kept per root is brought up to date, not built again, when a
 * name joins thousands of addresses one by one.
 */
struct group_span {
	GHashTable *orgs;
	int64_t first, last;
	guint len;
};

static void group_span_free(gpointer p)
{
	struct group_span *sp = p;

	g_hash_table_destroy(sp->orgs);
	g_free(sp);
}

/* The span of group `root`, kept in `spans` (root+1 -> group_span). */
static const struct group_span *group_span(const struct ms_ident *id,
					   GHashTable *spans, unsigned root)
{
	const struct person *pe = id->people->pdata[root];
	struct group_span *sp = g_hash_table_lookup(spans,
						    GUINT_TO_POINTER(root + 1));

	if (!sp) {
		sp = g_new0(struct group_span, 1);
		sp->orgs = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
		g_hash_table_insert(spans, GUINT_TO_POINTER(root + 1), sp);
	}
	for (; sp->len < pe->members->len; sp->len++) {
		const struct person *m = id->people->pdata[
			g_array_index(pe->members, unsigned, sp->len)];
		char *o = ms_ident_org(m->email);

		if (o)
			g_hash_table_add(sp->orgs, o);
		for (guint k = 0; k < m->addrs->len; k++) {
			o = ms_ident_org(((struct addr_rec *)m->addrs->pdata[k])->
				   email);
			if (o)
				g_hash_table_add(sp->orgs, o);
		}
		if (m->first_use && (!sp->first || m->first_use < sp->first))
			sp->first = m->first_use;
		sp->last = MAX(sp->last, m->last_use);
	}
	return sp;
}

/* Years between activities that make two organisations two people. */
#define ERA_GAP (5 * 365 * 86400LL)

/*
 * Why groups `ra` and `rb`, of one name, are not joined without more
 * evidence: addresses at different organisations only (none shared, no
 * mailbox anyone can have) whose uses are ERA_GAP or more apart; NULL
 * when nothing stands against the join.
 */
static char *era_apart(const struct ms_ident *id, GHashTable *spans,
		       unsigned ra, unsigned rb)
{
	const struct group_span *sa = group_span(id, spans, ra);
	const struct group_span *sb = group_span(id, spans, rb);
	int64_t fa = sa->first, la = sa->last, fb = sb->first, lb = sb->last;
	int64_t gap;
	GHashTable *oa = sa->orgs, *ob = sb->orgs;
	GHashTableIter it;
	gpointer k;
	bool disjoint = g_hash_table_size(oa) && g_hash_table_size(ob);
	char *why = NULL;

	if (g_hash_table_size(oa) > g_hash_table_size(ob)) {
		oa = sb->orgs;      /* walk the smaller set */
		ob = sa->orgs;
	}
	g_hash_table_iter_init(&it, oa);
	while (disjoint && g_hash_table_iter_next(&it, &k, NULL))
		disjoint = !g_hash_table_contains(ob, k);
	gap = !fa || !fb ? 0 : fa > lb ? fa - lb : fb > la ? fb - la : 0;
	if (disjoint && gap >= ERA_GAP && !corroborated(id, ra, rb)) {
		GDateTime *t[4];
		int64_t when[4] = { fa, la, fb, lb };
		char *y[4];

		for (int i = 0; i < 4; i++) {
			t[i] = g_date_time_new_from_unix_utc(when[i]);
			y[i] = t[i] ? g_date_time_format(t[i], "%Y-%m") :
			       g_strdup("?");
			g_clear_pointer(&t[i], g_date_time_unref);
		}
		why = g_strdup_printf("same name, another organisation, "
				      "active %s..%s and %s..%s", y[0], y[1],
				      y[2], y[3]);
		for (int i = 0; i < 4; i++)
			g_free(y[i]);
	}
	return why;
}

/*
 * Join `pi` to the first earlier id of its name (ids[0..i)) that nothing
 * stands against, recording a split or a possible join for each group
 * refused on the way.  Each group is weighed once (`tried`): the ids
 * before `pi` are mostly one group already, and weighing it again for
 * each of them made a name of thousands of addresses quadratic.
 */
static bool join_one(struct ms_ident *id, const char *name, GArray *ids,
		     guint i, GHashTable *tried, GHashTable *spans)
{
	unsigned pi = g_array_index(ids, unsigned, i);

	g_hash_table_remove_all(tried);
	for (guint k = 0; k < i; k++) {
		unsigned pk = g_array_index(ids, unsigned, k);
		unsigned ri, rk;
		const char *why;
		char *ev;
		bool made;

		if (ident_shared_address(id, pk) || ident_stray(id, pk))
			continue;
		ri = ident_root_of(id, pi);
		rk = ident_root_of(id, pk);
		if (ri == rk || !g_hash_table_add(tried,
						  GUINT_TO_POINTER(rk + 1)))
			continue;
		why = groups_distinct(id, ri, rk);
		if (why) {
			struct split sp = { pk, pi, why };

			g_array_append_val(id->splits, sp);
			continue;
		}
		ev = era_apart(id, spans, ri, rk);
		if (ev) {
			struct possible *po = g_new(struct possible, 1);

			po->a = pk;
			po->b = pi;
			po->why = ev;
			g_ptr_array_add(id->possible, po);
			continue;
		}
		ev = g_strdup_printf("name '%s'", name);
		made = ms_ident_join(id, pk, pi, MS_IDENT_NAME, ev);
		g_free(ev);
		return made;
	}
	return false;
}

size_t ms_ident_join_names(struct ms_ident *id, struct ms_diags *diags)
{
	guint nr_keys;
	gpointer *keys = g_hash_table_get_keys_as_array(id->names, &nr_keys);
	size_t joins = 0, big = 0, most = 0;
	const char *most_name = NULL;
	GHashTable *tried = g_hash_table_new(NULL, NULL);
	GHashTable *spans = g_hash_table_new_full(NULL, NULL, NULL,
						  group_span_free);

	ms_ident_settle(id);
	/* in name order, so that the result does not depend on hashing */
	qsort(keys, nr_keys, sizeof(*keys), ms_cmp_str);
	for (guint n = 0; n < nr_keys; n++) {
		GArray *ids = g_hash_table_lookup(id->names, keys[n]);
		size_t made = 0;
		unsigned root = MS_IDENT_NONE;

		g_hash_table_remove_all(spans);
		for (guint i = 1; i < ids->len; i++) {
			unsigned pi = g_array_index(ids, unsigned, i);

			if (ident_shared_address(id, pi) || ident_stray(id, pi))
				continue;
			if (join_one(id, keys[n], ids, i, tried, spans)) {
				made++;
				root = ident_root_of(id, pi);
			}
		}
		joins += made;
		if (made + 1 > 5 && root != MS_IDENT_NONE) {
			struct person *pr = id->people->pdata[root];

			pr->big_name = true;
			big++;
			if (made + 1 > most) {
				most = made + 1;
				most_name = keys[n];
			}
		}
	}
	/* one line a run, not one per name: Xen has eight */
	if (big == 1)
		ms_diags_add(diags, NULL, 0, "the name '%s' joins %zu "
			     "addresses into one person; check them with "
			     "'maintstat identities'", most_name, most);
	else if (big)
		ms_diags_add(diags, NULL, 0, "%zu names each join more than "
			     "5 addresses into one person (the most: '%s', "
			     "%zu); check them with 'maintstat identities'",
			     big, most_name, most);
	g_free(keys);
	g_hash_table_destroy(tried);
	g_hash_table_destroy(spans);
	id->names_joined = true;
	return joins;
}

/* fn(other, why) once for each person paired with `root` by the pair
 * (a, b), when the pair's other side is another person not yet seen. */
static void visit_pair(const struct ms_ident *id, unsigned root,
		       unsigned a, unsigned b, const char *why,
		       GHashTable *done,
		       void (*fn)(unsigned other, const char *why, void *data),
		       void *data)
{
	unsigned ra = ident_root_of(id, a), rb = ident_root_of(id, b);
	unsigned other = ra == root ? rb : rb == root ? ra : MS_IDENT_NONE;

	if (other == MS_IDENT_NONE || other == root ||
	    g_hash_table_contains(done, GUINT_TO_POINTER(other + 1)))
		return;
	g_hash_table_add(done, GUINT_TO_POINTER(other + 1));
	fn(other, why, data);
}

void ms_ident_foreach_split(const struct ms_ident *id, unsigned person,
			    void (*fn)(unsigned other, const char *why,
				       void *data),
			    void *data)
{
	unsigned root = ident_root_of(id, person);
	GHashTable *done = g_hash_table_new(NULL, NULL);

	for (guint i = 0; i < id->splits->len; i++) {
		const struct split *sp = &g_array_index(id->splits,
							struct split, i);

		visit_pair(id, root, sp->a, sp->b, sp->why, done, fn, data);
	}
	g_hash_table_destroy(done);
}

void ms_ident_foreach_possible(const struct ms_ident *id, unsigned person,
			       void (*fn)(unsigned other, const char *why,
					  void *data),
			       void *data)
{
	unsigned root = ident_root_of(id, person);
	GHashTable *done = g_hash_table_new(NULL, NULL);

	for (guint i = 0; i < id->possible->len; i++) {
		const struct possible *po = id->possible->pdata[i];

		visit_pair(id, root, po->a, po->b, po->why, done, fn, data);
	}
	g_hash_table_destroy(done);
}
