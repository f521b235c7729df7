/*
 * maint-cc-email.c - get_maintainer.pl's handling of the addresses of one
 * answer (maint-cc.h): mailmap_email(), deduplicate_email(),
 * push_email_address() and add_role(), shared by maint-cc.c and the git
 * roles of maint-cc-git.c.
 */
#include "maint-cc-internal.h"
#include "maint-cc-perl.h"

#include <string.h>

/*
 * maint_cc_parse_email() of `line`, each answer kept: the git roles
 * parse the same few addresses thousands of times (add_role() parses
 * every address pushed so far at each call).
 */
static void parse(struct maint_cc *cc, const char *line, char **name,
		  char **address)
{
	char **got = g_hash_table_lookup(cc->parsed, line);

	if (!got) {
		got = g_new0(char *, 3);
		maint_cc_parse_email(line, &got[0], &got[1]);
		g_hash_table_insert(cc->parsed, g_strdup(line), got);
	}
	*name = g_strdup(got[0]);
	*address = g_strdup(got[1]);
}

/* mcc_mailmap_email() */
char *mcc_mailmap_email(struct maint_cc *cc, const char *line)
{
	char *name, *address, *email, *r;
	const char *rn, *ra;

	parse(cc, line, &name, &address);
	email = mcc_format_email(name, address, true);
	rn = name;
	ra = address;
	if (g_hash_table_contains(cc->mm_names, email) ||
	    g_hash_table_contains(cc->mm_addresses, email)) {
		if (g_hash_table_contains(cc->mm_names, email))
			rn = g_hash_table_lookup(cc->mm_names, email);
		if (g_hash_table_contains(cc->mm_addresses, email))
			ra = g_hash_table_lookup(cc->mm_addresses, email);
	} else {
		if (g_hash_table_contains(cc->mm_names, address))
			rn = g_hash_table_lookup(cc->mm_names, address);
		if (g_hash_table_contains(cc->mm_addresses, address))
			ra = g_hash_table_lookup(cc->mm_addresses, address);
	}
	r = mcc_format_email(rn, ra, true);
	g_free(name);
	g_free(address);
	g_free(email);
	return r;
}

static bool email_inuse(struct maint_cc *cc, const char *name,
			const char *address)
{
	bool r = false;
	char *ln = g_ascii_strdown(name, -1), *la = g_ascii_strdown(address, -1);

	if (!*name && !*address)
		r = true;
	else if (*name && g_hash_table_contains(cc->hash_name, ln))
		r = true;
	else if (*address && g_hash_table_contains(cc->hash_address, la))
		r = true;
	g_free(ln);
	g_free(la);
	return r;
}

void mcc_push_item(GArray *to, char *email, const char *role, char kind,
		      const struct maint_entry *e)
{
	struct item it = { email, g_strdup(role), kind, e };

	g_array_append_val(to, it);
}

/* mcc_push_email_address(): false when there is no address */
bool mcc_push_email_address(struct maint_cc *cc, const char *line,
			       const char *role, char kind,
			       const struct maint_entry *e)
{
	char *name, *address;

	parse(cc, line, &name, &address);
	if (!*address || (cc->ignored &&
			  g_hash_table_contains(cc->ignored, address))) {
		g_free(name);
		g_free(address);
		return false;
	}
	if (!cc->o.remove_duplicates) {
		mcc_push_item(cc->email_to, mcc_format_email(name, address,
						     cc->o.usename),
			  role, kind, e);
	} else if (!email_inuse(cc, name, address)) {
		mcc_push_item(cc->email_to, mcc_format_email(name, address,
						     cc->o.usename),
			  role, kind, e);
		if (*name)
			g_hash_table_add(cc->hash_name,
					 g_ascii_strdown(name, -1));
		g_hash_table_add(cc->hash_address,
				 g_ascii_strdown(address, -1));
	}
	g_free(name);
	g_free(address);
	return true;
}

/* mcc_deduplicate_email() */
char *mcc_deduplicate_email(struct maint_cc *cc, const char *in)
{
	char *name, *address, *email, *r, *ln, *la;
	char **hit = NULL;

	parse(cc, in, &name, &address);
	email = mcc_format_email(name, address, true);
	g_free(name);
	g_free(address);
	r = mcc_mailmap_email(cc, email);
	g_free(email);
	if (!cc->o.remove_duplicates)
		return r;
	parse(cc, r, &name, &address);
	g_free(r);
	ln = g_ascii_strdown(name, -1);
	la = g_ascii_strdown(address, -1);
	if (*name && (hit = g_hash_table_lookup(cc->dedup_name, ln))) {
		;
	} else if ((hit = g_hash_table_lookup(cc->dedup_address, la))) {
		;
	}
	if (hit) {
		g_free(name);
		g_free(address);
		name = g_strdup(hit[0]);
		address = g_strdup(hit[1]);
		g_free(ln);
		g_free(la);
	} else {
		char *pair[3] = { name, address, NULL };

		g_hash_table_replace(cc->dedup_name, ln, g_strdupv(pair));
		g_hash_table_replace(cc->dedup_address, la, g_strdupv(pair));
	}
	email = mcc_format_email(name, address, true);
	r = mcc_mailmap_email(cc, email);
	g_free(email);
	g_free(name);
	g_free(address);
	return r;
}

/* mcc_add_role($line, $role) for 'in file' */
void mcc_add_role(struct maint_cc *cc, const char *line, const char *role)
{
	char *name, *address, *email;
	GRegex *role_re = g_regex_new(role, G_REGEX_RAW, 0, NULL);

	parse(cc, line, &name, &address);
	email = mcc_format_email(name, address, cc->o.usename);
	for (guint i = 0; i < cc->email_to->len; i++) {
		struct item *it = &g_array_index(cc->email_to, struct item, i);
		bool same;

		if (cc->o.remove_duplicates) {
			char *en, *ea;

			parse(cc, it->email, &en, &ea);
			same = !strcmp(name, en) || !strcmp(address, ea);
			g_free(en);
			g_free(ea);
		} else {
			same = !strcmp(email, it->email);
		}
		if (!same || (*role && role_re &&
			      g_regex_match(role_re, it->role, 0, NULL)))
			continue;
		if (!*it->role) {
			g_free(it->role);
			it->role = g_strdup(role);
		} else {
			char *r = g_strconcat(it->role, ",", role, NULL);

			g_free(it->role);
			it->role = r;
		}
	}
	g_clear_pointer(&role_re, g_regex_unref);
	g_free(name);
	g_free(address);
	g_free(email);
}
