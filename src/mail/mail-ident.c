/*
 * mail-ident.c - what list messages tell the identity model (ident.h):
 * who sent each message, which addresses are a list's, which two
 * addresses of one name are two people, and whom a DMARC-rewritten
 * message belongs to.  See mail.h and docs/identities.md.
 */
#include "ident.h"
#include "mail.h"
#include "maintainers.h"
#include "mime.h"
#include "person.h"

#include <glib.h>
#include <string.h>

bool ms_mail_via_list(const struct ms_mail *m)
{
	return m->sender_rewritten && m->sender_email && m->from_email &&
	       !g_ascii_strcasecmp(m->sender_email, m->from_email);
}

/* Whether `needle` (lowercase ASCII) occurs in `hay`, ASCII case
 * ignored. */
static bool has_ascii_word(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	char c0 = needle[0];

	for (const char *p = hay; p && *p; p++)
		if (g_ascii_tolower(*p) == c0 &&
		    !g_ascii_strncasecmp(p + 1, needle + 1, n - 1))
			return true;
	return false;
}

/*
 * The start of the longest word of a display name made of ASCII letters
 * only (words end at blanks and punctuation), when it has three or more;
 * else NULL.  A word with an accent gives none: "Németh" may be written
 * "Nemeth".
 */
static char *ascii_probe(const char *name)
{
	const char *best = NULL, *w = NULL;
	size_t best_n = 0;
	bool ascii = true;

	for (const char *p = name;; p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch >= 0x80 || g_ascii_isalpha(ch)) {
			if (!w) {
				w = p;
				ascii = true;
			}
			if (ch >= 0x80)
				ascii = false;
			continue;
		}
		if (w && ascii && (size_t)(p - w) > best_n) {
			best = w;
			best_n = (size_t)(p - w);
		}
		w = NULL;
		if (!ch)
			break;
	}
	/* its first three letters: "Zoltan" finds "Zoltán" too */
	return best_n >= 3 ? g_ascii_strdown(best, 3) : NULL;
}

/* Whether `email` is one the message's own trailers sign with (git
 * send-email copies every Signed-off-by address to Cc). */
static bool own_trailer(const struct ms_mail *m, const char *email)
{
	for (guint i = 0; i < m->trailers->len; i++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[i];

		if ((t->kind == MS_TRAILER_SIGNED_OFF_BY ||
		     t->kind == MS_TRAILER_CO_DEVELOPED_BY) && t->email &&
		    !g_ascii_strcasecmp(t->email, email))
			return true;
	}
	return false;
}

static void same_name_in(const struct ms_mail *m, const char *header,
			 const char *key, const char *sender, GString *out)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *emails = g_ptr_array_new_with_free_func(g_free);

	ms_mime_parse_address_list(header, names, emails);
	for (guint i = 0; i < names->len; i++) {
		char *k = ms_name_key(names->pdata[i]);
		char *e = ms_email_normalize(emails->pdata[i], 0);

		if (k && !strcmp(k, key) && strcmp(e, sender) &&
		    !strchr(e, ' ') && !own_trailer(m, emails->pdata[i]) &&
		    !strstr(out->str, e)) {
			if (out->len)
				g_string_append_c(out, ' ');
			g_string_append(out, e);
		}
		g_free(k);
		g_free(e);
	}
	g_ptr_array_free(names, TRUE);
	g_ptr_array_free(emails, TRUE);
}

char *ms_mail_same_name_rcpts(const struct ms_mail *m)
{
	char *key, *probe, *sender;
	GString *out;

	if (!m->sender_name || !strchr(m->sender_name, ' ') ||
	    !m->sender_email || (!m->to && !m->cc) || ms_mail_via_list(m))
		return NULL;
	/* most messages Cc no one of the sender's name: a cheap look for
	 * the name's longest word first (when it is ASCII) */
	probe = ascii_probe(m->sender_name);
	if (probe && !has_ascii_word(m->to, probe) &&
	    !has_ascii_word(m->cc, probe)) {
		g_free(probe);
		return NULL;
	}
	g_free(probe);
	key = ms_name_key(m->sender_name);
	if (!key)
		return NULL;
	sender = ms_email_normalize(m->sender_email, 0);
	out = g_string_new(NULL);
	same_name_in(m, m->to, key, sender, out);
	same_name_in(m, m->cc, key, sender, out);
	g_free(sender);
	g_free(key);
	if (!out->len) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
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
	size_t n = ms_mail_index_count(mi);

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
		if (m->same_name) {
			/* From and To/Cc of one message: two people */
			char **rc = g_strsplit(m->same_name, " ", -1);
			char *why = g_strdup_printf("From and To/Cc of %s",
						    m->message_id);

			/* being copied is no use of an address */
			ms_ident_set_evidence(id, m->message_id, false);
			for (int k = 0; rc[k]; k++)
				ms_ident_note_distinct_why(id, from,
					ms_ident_resolve(id, m->sender_name,
							 rc[k]), why);
			g_free(why);
			g_strfreev(rc);
		}
	}
	ms_ident_set_evidence(id, NULL, false);
}

void ms_mail_ident_credit(struct ms_ident *id,
			  const struct ms_mail_index *mi)
{
	size_t n = ms_mail_index_count(mi);

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
