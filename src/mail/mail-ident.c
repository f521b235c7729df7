/*
 * mail-ident.c - what list messages tell the identity model (ident.h):
 * who sent each message, which addresses are a list's, which two
 * addresses of one name are two people (one reviewing the other's
 * patch), and whom a DMARC-rewritten message belongs to.  See mail.h and docs/identities.md.
 */
#include "ident.h"
#include "mail.h"
#include "maintainers.h"
#include "bytes.h"
#include "person.h"

#include <glib.h>
#include <string.h>

/* ms_name_key(name), made once a name: borrowed from `keys`. */
static const char *name_key(GHashTable *keys, const char *name)
{
	gpointer k = NULL;

	if (name && !g_hash_table_lookup_extended(keys, name, NULL, &k)) {
		k = ms_name_key(name);
		g_hash_table_insert(keys, (gpointer)name, k);
	}
	return k;
}

/* Whether tag `t` of message `m` names its sender (address or name). */
static bool own_tag(const struct ms_mail_tag *t, const struct ms_mail_rec *m,
		    GHashTable *keys)
{
	const char *a;

	if (t->email && m->sender_email && !strcmp(t->email, m->sender_email))
		return true;
	a = name_key(keys, t->name);
	return a && *a && !g_strcmp0(a, name_key(keys, m->sender_name));
}

/*
 * Message `m`, a reply (not a patch), gives its sender's own Reviewed-by
 * or Acked-by in reply to a patch whose sender has `m`'s sender's name
 * under another address.  (A new version posted in reply to the last
 * carries others' tags: on linux-erofs, Gao Xiang's v5 from
 * xiang@kernel.org answering his v4 from hsiangkao@linux.alibaba.com with
 * Liu Bo's Reviewed-by made him two people.)  One way only,
 * that is one person reviewing their own patch from a second address
 * (the commit rule says the same: ident.h); each reviewing the other's
 * patch makes them two people, with both reviews as evidence.
 * `reviews` maps "REVIEWER>AUTHOR" (ids as resolved) to the first such
 * review, "review of PATCH-ID in REPLY-ID"; `keys` the names' keys.
 */
static void note_review(struct ms_ident *id, const struct ms_mail_index *mi,
			const struct ms_mail_rec *m, unsigned from,
			GHashTable *reviews, GHashTable *keys)
{
	const struct ms_mail_rec *p;
	const struct ms_mail_tag *t = ms_mail_index_tags(mi, m);
	bool review = false;
	const char *k1, *k2;
	char *why;

	if (m->kind == MS_MAIL_PATCH || !m->parent_id || !m->sender_name)
		return;
	for (uint32_t i = 0; i < m->n_review_tags && !review; i++)
		review = (t[i].kind == MS_TRAILER_REVIEWED_BY ||
			  t[i].kind == MS_TRAILER_ACKED_BY) &&
			 own_tag(&t[i], m, keys);
	if (!review)
		return;
	p = ms_mail_index_find(mi, m->parent_id);
	if (!p || p->kind != MS_MAIL_PATCH || !p->sender_email ||
	    p->via_list || !p->sender_name)
		return;
	k1 = name_key(keys, m->sender_name);
	k2 = k1 ? name_key(keys, p->sender_name) : NULL;
	if (k1 && k2 && !strcmp(k1, k2) &&
	    strcmp(m->sender_email, p->sender_email)) {
		unsigned to = ms_ident_resolve(id, p->sender_name,
					       p->sender_email);
		char *key = g_strdup_printf("%u>%u", from, to);
		char *rkey = g_strdup_printf("%u>%u", to, from);
		const char *back = g_hash_table_lookup(reviews, rkey);

		if (from != to && back) {
			why = g_strdup_printf("%s; review of %s in %s", back,
					      p->message_id, m->message_id);
			ms_ident_note_distinct_why(id, from, to, why);
			g_free(why);
		}
		if (!g_hash_table_contains(reviews, key))
			g_hash_table_insert(reviews, key, g_strdup_printf(
				"review of %s in %s", p->message_id,
				m->message_id));
		else
			g_free(key);
		g_free(rkey);
	}
}

/* Every L: address of MAINTAINERS: a list's, never a person. */
static void lists_shared(struct ms_ident *id, const struct maint_file *mf)
{
	for (size_t i = 0; mf && i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			char *name = NULL, *email = NULL;

			if (e->fields[f].key != 'L')
				continue;
			maint_parse_person(e->fields[f].value, &name, &email);
			if (email && *email)
				ms_ident_set_shared(id, ms_ident_resolve(
					id, NULL, email));
			g_free(name);
			g_free(email);
		}
	}
}

void ms_mail_ident_add(struct ms_ident *id, const struct ms_mail_index *mi,
		       const struct maint_file *mf)
{
	size_t n = mi ? ms_mail_index_count(mi) : 0;
	GHashTable *reviews = g_hash_table_new_full(g_str_hash, g_str_equal,
						    g_free, g_free);
	GHashTable *keys = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
						 g_free);

	/* the lists' own addresses carry rewritten senders' names */
	lists_shared(id, mf);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *m = ms_mail_index_get(mi,
							       (uint32_t)i);

		if (m->sender_email && m->via_list)
			ms_ident_set_shared(id, ms_ident_resolve(
				id, NULL, m->sender_email));
	}
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *m = ms_mail_index_get(mi,
							       (uint32_t)i);
		unsigned from;

		if (!m->sender_email)
			continue;
		ms_ident_set_evidence(id, m->message_id, true);
		from = ms_ident_resolve(id, m->sender_name, m->sender_email);
		ms_ident_note_use(id, from, m->date_valid ? m->date : 0);
		if (m->via_list)
			continue;
		ms_ident_note_name(id, from, m->sender_name);
		note_review(id, mi, m, from, reviews, keys);
	}
	ms_ident_set_evidence(id, NULL, false);
	g_hash_table_destroy(reviews);
	g_hash_table_destroy(keys);
}

void ms_mail_ident_credit(struct ms_ident *id,
			  const struct ms_mail_index *mi)
{
	size_t n = mi ? ms_mail_index_count(mi) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *m = ms_mail_index_get(mi,
							       (uint32_t)i);

		if (!m->sender_email || !m->via_list)
			continue;
		ms_ident_set_evidence(id, m->message_id, true);
		ms_ident_resolve(id, m->sender_name, m->sender_email);
	}
	ms_ident_set_evidence(id, NULL, false);
}

void ms_mail_ident_listed(struct ms_ident *id, const struct maint_file *mf,
			  const char *root)
{
	size_t rl = root ? strlen(root) : 0;
	/* a line's person again: listed already, first seen at the first */
	GHashTable *done = g_hash_table_new(ms_str_hash, g_str_equal);

	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			const struct maint_field *fl = &e->fields[f];
			const char *file = fl->file;
			char *name = NULL, *email = NULL, *ev;

			if ((fl->key != 'M' && fl->key != 'R') ||
			    !g_hash_table_add(done, fl->value))
				continue;
			if (rl && !strncmp(file, root, rl) && file[rl] == '/')
				file += rl + 1;
			ev = g_strdup_printf("%s:%u", file, fl->line);
			ms_ident_set_evidence(id, ev, false);
			maint_parse_person(fl->value, &name, &email);
			if (email && *email)
				ms_ident_set_listed(id, ms_ident_resolve(
					id, name, email));
			g_free(ev);
			g_free(name);
			g_free(email);
		}
	}
	g_hash_table_destroy(done);
	ms_ident_set_evidence(id, NULL, false);
}

void ms_mail_ident_from_list(struct ms_ident *id,
			     const struct ms_mail_index *mi,
			     const struct maint_file *mf, const char *root,
			     bool name_join, struct ms_diags *diags)
{
	ms_mail_ident_add(id, mi, mf);
	ms_mail_ident_listed(id, mf, root);
	ms_ident_settle(id);
	if (name_join) {
		ms_ident_join_names(id, diags);
		ms_mail_ident_credit(id, mi);
	}
}
