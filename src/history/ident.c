#include "ident.h"
#include "person.h"

#include <glib.h>
#include <string.h>

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

struct person {
	char *name;
	char *email;
};

struct ms_ident {
	bool plus_fold;
	GHashTable *mailmap;    /* lowercased commit address -> mm_entry */
	GHashTable *aliases;    /* comparable alias -> comparable canonical */
	GHashTable *by_key;     /* comparable address or "\1name" -> id+1 */
	GHashTable *seen;       /* "name\1email" as written -> id+1 */
	GPtrArray *people;      /* struct person * */
};

static void mm_sub_free(gpointer p)
{
	struct mm_sub *s = p;

	g_free(s->name);
	g_free(s->email);
	g_free(s);
}

static void mm_entry_free(gpointer p)
{
	struct mm_entry *e = p;

	g_free(e->name);
	g_free(e->email);
	if (e->by_name)
		g_hash_table_destroy(e->by_name);
	g_free(e);
}

static void person_free(gpointer p)
{
	struct person *pe = p;

	g_free(pe->name);
	g_free(pe->email);
	g_free(pe);
}

struct ms_ident *ms_ident_new(bool plus_fold)
{
	struct ms_ident *id = g_new0(struct ms_ident, 1);

	id->plus_fold = plus_fold;
	id->mailmap = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    mm_entry_free);
	id->aliases = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    g_free);
	id->by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   NULL);
	id->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	id->people = g_ptr_array_new_with_free_func(person_free);
	return id;
}

void ms_ident_free(struct ms_ident *id)
{
	if (!id)
		return;
	g_hash_table_destroy(id->mailmap);
	g_hash_table_destroy(id->aliases);
	g_hash_table_destroy(id->by_key);
	g_hash_table_destroy(id->seen);
	g_ptr_array_free(id->people, TRUE);
	g_free(id);
}

/*
 * git's parse_name_and_email(): "Name <addr>" at `s`; returns where the
 * next one may start, or NULL when there is no "<...>" (then nothing is
 * stored).
 */
static const char *parse_name_email(const char *s, const char *end,
				    char **name, char **email)
{
	const char *lt = memchr(s, '<', (size_t)(end - s));
	const char *gt = lt ? memchr(lt, '>', (size_t)(end - lt)) : NULL;
	char *n;

	*name = *email = NULL;
	if (!gt)
		return NULL;
	n = g_strstrip(g_strndup(s, (size_t)(lt - s)));
	if (*n)
		*name = n;
	else
		g_free(n);
	*email = g_strstrip(g_strndup(lt + 1, (size_t)(gt - lt - 1)));
	return gt + 1;
}

static void add_mapping(struct ms_ident *id, char *new_name,
			char *new_email, char *old_name, char *old_email)
{
	struct mm_entry *e;
	char *key;

	if (!old_email) {
		old_email = new_email;
		new_email = NULL;
	}
	key = g_ascii_strdown(old_email, -1);
	e = g_hash_table_lookup(id->mailmap, key);
	if (!e) {
		e = g_new0(struct mm_entry, 1);
		g_hash_table_insert(id->mailmap, key, e);
	} else {
		g_free(key);
	}
	if (!old_name) {
		if (new_name) {
			g_free(e->name);
			e->name = g_strdup(new_name);
		}
		if (new_email) {
			g_free(e->email);
			e->email = g_strdup(new_email);
		}
	} else {
		struct mm_sub *sub = g_new0(struct mm_sub, 1);

		if (!e->by_name)
			e->by_name = g_hash_table_new_full(g_str_hash,
							   g_str_equal,
							   g_free,
							   mm_sub_free);
		sub->name = g_strdup(new_name);
		sub->email = g_strdup(new_email);
		g_hash_table_replace(e->by_name, g_utf8_casefold(old_name, -1),
				     sub);
	}
}

void ms_ident_add_mailmap(struct ms_ident *id, const char *file,
			  const char *buf, size_t len,
			  struct ms_diags *diags)
{
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		char *name1, *email1, *name2 = NULL, *email2 = NULL;
		const char *rest;

		lineno++;
		if (*p != '#') {
			rest = parse_name_email(p, le, &name1, &email1);
			if (rest)
				parse_name_email(rest, le, &name2, &email2);
			if (email1) {
				add_mapping(id, name1, email1, name2, email2);
			} else {
				const char *q = p;

				while (q < le && g_ascii_isspace(*q))
					q++;
				if (q < le)
					ms_diags_add(diags, file, lineno,
						     "not a mailmap line (no "
						     "<address>): ignored");
			}
			g_free(name1);
			g_free(email1);
			g_free(name2);
			g_free(email2);
		}
		p = nl ? nl + 1 : end;
	}
}

static char *comparable(const struct ms_ident *id, const char *email)
{
	return ms_email_normalize(email, id->plus_fold);
}

void ms_ident_add_aliases(struct ms_ident *id, const char *file,
			  const char *buf, size_t len,
			  struct ms_diags *diags)
{
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *hash = memchr(p, '#', (size_t)(le - p));
		char *line = g_strndup(p, (size_t)((hash ? hash : le) - p));
		char **tok = g_strsplit_set(g_strstrip(line), " \t", -1);
		char *words[3];
		int n = 0;

		lineno++;
		for (int i = 0; tok[i]; i++)
			if (*tok[i] && n < 3)
				words[n++] = tok[i];
		if (n == 2 && strchr(words[0], '@') && strchr(words[1], '@')) {
			g_hash_table_replace(id->aliases,
					     comparable(id, words[0]),
					     comparable(id, words[1]));
		} else if (n) {
			ms_diags_add(diags, file, lineno,
				     "malformed alias line (want 'alias@addr "
				     "canonical@addr'): ignored");
		}
		g_strfreev(tok);
		g_free(line);
		p = nl ? nl + 1 : end;
	}
}

/*
 * Apply the mailmap to (name, email): store the replacement name (or
 * NULL) and address (or the original) in new allocations.
 */
static void map_user(const struct ms_ident *id, const char *name,
		     const char *email, char **out_name, char **out_email)
{
	char *key = g_ascii_strdown(email, -1);
	struct mm_entry *e = g_hash_table_lookup(id->mailmap, key);
	const char *n = NULL, *m = NULL;

	if (!e && id->plus_fold) {
		g_free(key);
		key = comparable(id, email);
		e = g_hash_table_lookup(id->mailmap, key);
	}
	g_free(key);
	if (e) {
		struct mm_sub *sub = NULL;

		if (e->by_name && name && *name) {
			char *cf = g_utf8_casefold(name, -1);

			sub = g_hash_table_lookup(e->by_name, cf);
			g_free(cf);
		}
		n = sub ? sub->name : e->name;
		m = sub ? sub->email : e->email;
	}
	*out_name = g_strdup(n);
	*out_email = g_strdup(m ? m : email);
}

/* The key a person is known by, and their canonical name and address. */
static char *person_key(const struct ms_ident *id, const char *name,
			const char *email, char **cname, char **cemail)
{
	char *mname = NULL, *memail = NULL;

	*cname = NULL;
	*cemail = NULL;
	if (email && *email) {
		char *k, *alias;

		map_user(id, name, email, &mname, &memail);
		k = comparable(id, memail);
		/* follow alias chains, but never round a loop for ever */
		for (int hops = 0; hops < 8; hops++) {
			alias = g_hash_table_lookup(id->aliases, k);
			if (!alias || !strcmp(alias, k))
				break;
			g_free(k);
			k = g_strdup(alias);
		}
		*cname = mname ? mname : g_strdup(name ? name : "");
		*cemail = g_strdup(k);
		g_free(memail);
		return k;
	}
	if (name && *name) {
		char *cf = g_utf8_casefold(name, -1);
		char *k = g_strconcat("\1", cf, NULL);

		g_free(cf);
		*cname = g_strdup(name);
		*cemail = g_strdup("");
		return k;
	}
	return NULL;
}

static unsigned find(struct ms_ident *id, const char *name,
		     const char *email, bool create)
{
	char *seen_key = g_strconcat(name ? name : "", "\1",
				     email ? email : "", NULL);
	gpointer v = g_hash_table_lookup(id->seen, seen_key);
	char *key, *cname, *cemail;
	unsigned r;

	if (v) {
		g_free(seen_key);
		return GPOINTER_TO_UINT(v) - 1;
	}
	key = person_key(id, name, email, &cname, &cemail);
	if (!key) {
		g_free(seen_key);
		return MS_IDENT_NONE;
	}
	v = g_hash_table_lookup(id->by_key, key);
	if (v) {
		struct person *pe;

		r = GPOINTER_TO_UINT(v) - 1;
		pe = id->people->pdata[r];
		if (!*pe->name && *cname) {
			g_free(pe->name);
			pe->name = cname;
			cname = NULL;
		}
		g_free(key);
	} else if (!create) {
		g_free(key);
		g_free(cname);
		g_free(cemail);
		g_free(seen_key);
		return MS_IDENT_NONE;
	} else {
		struct person *pe = g_new0(struct person, 1);

		pe->name = cname;
		pe->email = cemail;
		cname = cemail = NULL;
		r = id->people->len;
		g_ptr_array_add(id->people, pe);
		g_hash_table_insert(id->by_key, key, GUINT_TO_POINTER(r + 1));
	}
	g_free(cname);
	g_free(cemail);
	g_hash_table_insert(id->seen, seen_key, GUINT_TO_POINTER(r + 1));
	return r;
}

unsigned ms_ident_resolve(struct ms_ident *id, const char *name,
			  const char *email)
{
	return find(id, name, email, true);
}

unsigned ms_ident_lookup(struct ms_ident *id, const char *name,
			 const char *email)
{
	return find(id, name, email, false);
}

size_t ms_ident_count(const struct ms_ident *id)
{
	return id->people->len;
}

const char *ms_ident_name(const struct ms_ident *id, unsigned person)
{
	const struct person *pe = id->people->pdata[person];

	return pe->name;
}

const char *ms_ident_email(const struct ms_ident *id, unsigned person)
{
	const struct person *pe = id->people->pdata[person];

	return pe->email;
}
