/*
 * link-people.c - who is who for the linker (link.h, ms_link_people):
 * commit authors and list senders resolved through one identity model
 * (ident.h), so that a patch posted from another address of its author
 * is still the author's.
 */
#include "ident.h"
#include "link.h"
#include "mail.h"

#include <glib.h>
#include <string.h>

/* The group of (name, email), or none for nobody and for a list's
 * address (a rewritten sender is never a person). */
static unsigned group_of(struct ms_ident *id, const char *name,
			 const char *email)
{
	unsigned p = ms_ident_resolve(id, name, email);

	if (p == MS_IDENT_NONE || !email || !*email)
		return MS_IDENT_NONE;
	p = ms_ident_root(id, p);
	return ms_ident_shared(id, p) ? MS_IDENT_NONE : p;
}

static void add_commits(struct ms_ident *id, const GPtrArray *commits)
{
	for (guint i = 0; i < commits->len; i++) {
		const struct ms_link_commit *c = commits->pdata[i];

		ms_ident_set_evidence(id, c->id, true);
		ms_ident_note_use(id, ms_ident_resolve(id, c->author_name,
						       c->author_email),
				  c->author_time);
		ms_ident_note_use(id, ms_ident_resolve(id, c->committer_name,
						       c->committer_email),
				  c->commit_time);
		for (size_t t = 0; t < c->nr_tags; t++)
			ms_ident_note_use(id, ms_ident_resolve(id,
				c->tags[t].name, c->tags[t].email),
				c->commit_time);
	}
	ms_ident_set_evidence(id, NULL, false);
}

struct ms_link_people *ms_link_people_new(const GPtrArray *commits,
					  const struct ms_link_mail *lm,
					  const struct ms_link_people_src *src,
					  struct ms_diags *diags)
{
	struct ms_link_people *p = g_new0(struct ms_link_people, 1);
	const struct ms_mail_index *mi = ms_link_mail_index(lm);
	size_t n = mi ? ms_mail_index_count(mi) : 0;

	p->ident = ms_ident_new(true);
	if (src->mailmap)
		ms_ident_add_mailmap(p->ident, ".mailmap", src->mailmap,
				     src->mailmap_len, diags);
	for (size_t i = 0; i < src->nr_mailmaps; i++)
		ms_ident_add_mailmap(p->ident, src->mailmap_names[i],
				     src->mailmaps[i], src->mailmap_lens[i],
				     diags);
	if (src->aliases)
		ms_ident_add_aliases(p->ident, src->aliases_name,
				     src->aliases, src->aliases_len, diags);
	add_commits(p->ident, commits);
	ms_mail_ident_add(p->ident, mi, NULL);
	ms_ident_settle(p->ident);
	if (src->name_join) {
		ms_ident_join_names(p->ident, diags);
		ms_mail_ident_credit(p->ident, mi);
	}
	p->nr_commits = commits->len;
	p->author = g_new(unsigned, commits->len ? commits->len : 1);
	p->committer = g_new(unsigned, commits->len ? commits->len : 1);
	for (guint i = 0; i < commits->len; i++) {
		const struct ms_link_commit *c = commits->pdata[i];

		p->author[i] = group_of(p->ident, c->author_name,
					c->author_email);
		p->committer[i] = group_of(p->ident, c->committer_name,
					   c->committer_email);
	}
	p->nr_recs = n;
	p->sender = g_new(unsigned, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(mi,
							       (uint32_t)i);

		p->sender[i] = r->sender_email ?
			group_of(p->ident, r->sender_name, r->sender_email) :
			MS_IDENT_NONE;
	}
	return p;
}

void ms_link_people_free(struct ms_link_people *p)
{
	if (!p)
		return;
	ms_ident_free(p->ident);
	g_free(p->author);
	g_free(p->committer);
	g_free(p->sender);
	g_free(p);
}
