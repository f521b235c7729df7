#include "ident-internal.h"
#include "bytes.h"
#include "person.h"

#include <glib.h>
#include <string.h>

static void seen_rec_clear(gpointer p)
{
	g_free(((struct seen_rec *)p)->evidence);
}

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
	g_clear_pointer(&e->by_name, g_hash_table_destroy);
	g_free(e);
}

static void person_free(gpointer p)
{
	struct person *pe = p;

	g_free(pe->name);
	g_free(pe->email);
	g_free(pe->join_evidence);
	g_free(pe->dmarc_list);
	g_free(pe->dmarc_evidence);
	g_ptr_array_free(pe->addrs, TRUE);
	for (guint i = 0; pe->names_used && i < pe->names_used->len; i++)
		g_free(g_array_index(pe->names_used, struct name_use, i).name);
	if (pe->names_used)
		g_array_free(pe->names_used, TRUE);
	if (pe->members)
		g_array_free(pe->members, TRUE);
	g_free(pe);
}

static void name_group_free(gpointer p)
{
	struct name_group *g = p;

	g_free(g->key);
	g_free(g->name);
	g_free(g->mapped);
	g_string_free(g->words, TRUE);
	g_free(g);
}

static void possible_free(gpointer p)
{
	g_free(((struct possible *)p)->why);
	g_free(p);
}

struct ms_ident *ms_ident_new(bool plus_fold)
{
	struct ms_ident *id = g_new0(struct ms_ident, 1);

	id->plus_fold = plus_fold;
	id->mailmap = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					    mm_entry_free);
	id->aliases = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					    g_free);
	/* never iterated: a faster hash than GLib's */
	id->by_key = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					   NULL);
	id->seen = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					 NULL);
	id->seen_order = g_array_new(FALSE, FALSE, sizeof(struct seen_rec));
	g_array_set_clear_func(id->seen_order, seen_rec_clear);
	id->people = g_ptr_array_new_with_free_func(person_free);
	id->addr_seen = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					      NULL);
	id->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  (GDestroyNotify)g_array_unref);
	id->distinct = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					     g_free);
	id->distinct_of = g_hash_table_new_full(NULL, NULL, NULL,
						(GDestroyNotify)g_array_unref);
	id->splits = g_array_new(FALSE, FALSE, sizeof(struct split));
	id->possible = g_ptr_array_new_with_free_func(possible_free);
	id->same = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					 NULL);
	id->same_keys = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					      g_free);
	/* keyed by its first group's key */
	id->addr_groups = g_hash_table_new_full(
		g_str_hash, g_str_equal, NULL,
		(GDestroyNotify)g_ptr_array_unref);
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
	g_array_free(id->seen_order, TRUE);
	g_ptr_array_free(id->people, TRUE);
	g_hash_table_destroy(id->addr_seen);
	g_hash_table_destroy(id->names);
	g_hash_table_destroy(id->distinct);
	g_hash_table_destroy(id->distinct_of);
	g_array_free(id->splits, TRUE);
	g_ptr_array_free(id->possible, TRUE);
	g_hash_table_destroy(id->same);
	g_hash_table_destroy(id->same_keys);
	g_hash_table_destroy(id->addr_groups);
	g_free(id->evidence);
	g_free(id);
}

/*
 * git's parse_name_and_email(): "Name <addr>" at `s`; returns where the
 * next one may start, or NULL when there is no "<...>" (then nothing is
 * stored).  (libgit2 1.5's git_mailmap_from_buffer() is not git's rules:
 * it matches addresses and names case-sensitively, a later line for an
 * address replaces an earlier one instead of adding to it, and it drops
 * malformed lines without a word.)
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
		g_hash_table_replace(e->by_name, ms_casefold(old_name, -1),
				     sub);
	}
}

static void ms_ident_add_mailmap_line(struct ms_ident *id,
				      const char *file, unsigned lineno,
				      const char *p, const char *le,
				      struct ms_diags *diags)
{
	char *name1, *email1, *name2 = NULL, *email2 = NULL;
	const char *rest;

	if (*p == '#')
		return;
	rest = parse_name_email(p, le, &name1, &email1);
	if (rest)
		parse_name_email(rest, le, &name2, &email2);
	if (email1 && *email1 && (!email2 || *email2)) {
		add_mapping(id, name1, email1, name2, email2);
	} else {
		const char *q = p;

		while (q < le && g_ascii_isspace(*q))
			q++;
		if (q < le)
			ms_diags_add(diags, file, lineno,
				     email1 ? "empty <address> in a mailmap "
				     "line: ignored" : "not a mailmap line "
				     "(no <address>): ignored");
	}
	g_free(name1);
	g_free(email1);
	g_free(name2);
	g_free(email2);
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

		lineno++;
		ms_ident_add_mailmap_line(id, file, lineno, p, le, diags);
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
		if (memchr(p, '<', (size_t)(le - p)) && (!hash ||
		    memchr(p, '<', (size_t)(hash - p)))) {
			/* a .mailmap line among the aliases */
			ms_ident_add_mailmap_line(id, file, lineno, p, le,
						  diags);
			g_strfreev(tok);
			g_free(line);
			p = nl ? nl + 1 : end;
			continue;
		}
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
 * Apply the mailmap to (name, email), `raw` its comparable form: store
 * the replacement name and address (or NULL) in new allocations.
 */
static void map_user(const struct ms_ident *id, const char *name,
		     const char *email, const char *raw, char **out_name,
		     char **out_email)
{
	char *key = g_ascii_strdown(email, -1);
	struct mm_entry *e = g_hash_table_lookup(id->mailmap, key);
	const char *n = NULL, *m = NULL;

	if (!e && id->plus_fold && strcmp(key, raw))
		e = g_hash_table_lookup(id->mailmap, raw);
	g_free(key);
	if (e) {
		struct mm_sub *sub = NULL;

		if (e->by_name && name && *name) {
			char *cf = ms_casefold(name, -1);

			sub = g_hash_table_lookup(e->by_name, cf);
			g_free(cf);
		}
		n = sub ? sub->name : e->name;
		m = sub ? sub->email : e->email;
	}
	*out_name = g_strdup(n);
	*out_email = g_strdup(m);
}

/*
 * The key a person is known by, their canonical name and address, and
 * how the address got there; `raw` is `email`'s comparable form.
 */
static char *person_key(const struct ms_ident *id, const char *name,
			const char *email, const char *raw, char **cname,
			char **cemail, enum ms_ident_source *source,
			bool *mm_named)
{
	char *mname = NULL, *memail = NULL;

	*mm_named = false;
	*cname = NULL;
	*cemail = NULL;
	*source = MS_IDENT_SELF;
	if (email && *email) {
		char *k, *alias;

		map_user(id, name, email, raw, &mname, &memail);
		k = memail ? comparable(id, memail) : g_strdup(raw);
		if (strcmp(k, raw))
			*source = MS_IDENT_MAILMAP;
		/* follow alias chains, but never round a loop for ever */
		for (int hops = 0; hops < 8; hops++) {
			alias = g_hash_table_lookup(id->aliases, k);
			if (!alias || !strcmp(alias, k))
				break;
			g_free(k);
			k = g_strdup(alias);
			if (*source == MS_IDENT_SELF)
				*source = MS_IDENT_ALIASES;
		}
		*mm_named = mname != NULL;
		*cname = mname ? mname : g_strdup(name ? name : "");
		*cemail = g_strdup(k);
		g_free(memail);
		return k;
	}
	if (name && *name) {
		char *cf = ms_casefold(name, -1);
		char *k = g_strconcat("\1", cf, NULL);

		g_free(cf);
		*cname = g_strdup(name);
		*cemail = g_strdup("");
		return k;
	}
	return NULL;
}

/*
 * Whether name keys `a` and `b` are at most one edit apart (a letter
 * added, dropped, changed, or two neighbours swapped), or two when both
 * are twelve or more bytes long: a typo of one name, not another name.
 */
static bool names_near(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	size_t most = n >= 12 && m >= 12 ? 2 : 1;
	size_t *d0, *d1, *d2, best = 0;

	if ((n > m ? n - m : m - n) > most)
		return false;
	/* optimal string alignment distance, three rows */
	d0 = g_new(size_t, 3 * (m + 1));
	d1 = d0 + m + 1;
	d2 = d1 + m + 1;
	for (size_t j = 0; j <= m; j++)
		d1[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t *t;

		d2[0] = i;
		best = i;
		for (size_t j = 1; j <= m; j++) {
			size_t c = a[i - 1] != b[j - 1];
			size_t v = MIN(MIN(d1[j] + 1, d2[j - 1] + 1),
				       d1[j - 1] + c);

			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1])
				v = MIN(v, d0[j - 2] + 1);
			d2[j] = v;
			best = MIN(best, v);
		}
		t = d0;
		d0 = d1;
		d1 = d2;
		d2 = t;
		if (best > most)
			break;
	}
	best = best > most ? best : d1[m];
	g_free(MIN(MIN(d0, d1), d2));
	return best <= most;
}

/* Name key `key`'s words, sorted, without a parenthesized comment
 * ("gaoxiang (xiang os lab)" is "gaoxiang"): a new string. */
static char *name_words(const char *key)
{
	char *bare = g_strdup(key), *out, *save = NULL;
	GPtrArray *w = g_ptr_array_new();

	for (char *o; (o = strchr(bare, '(')) != NULL;) {
		char *c = strchr(o, ')');

		c = c ? c + 1 : o + strlen(o);
		memmove(o, c, strlen(c) + 1);
	}
	/* its words, never an empty one */
	for (char *t = strtok_r(bare, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		g_ptr_array_add(w, t);
	g_ptr_array_sort(w, ms_cmp_str);
	g_ptr_array_add(w, NULL);
	out = g_strjoinv(" ", (char **)w->pdata);
	g_ptr_array_free(w, TRUE);
	g_free(bare);
	return out;
}

/* Whether name keys `a` and `b` are one name: a typo ("Jason Gunthrope"
 * and "Jason Gubthorpe" are rdma-core's Jason Gunthorpe), its words in
 * another order ("Xiang Gao" for Gao Xiang), or a comment added
 * ("Gaoxiang (xiang, OS Lab)": linux-erofs, 2019). */
static bool one_name(const char *a, const char *b)
{
	char *wa, *wb;
	bool same;

	if (names_near(a, b))
		return true;
	wa = name_words(a);
	wb = name_words(b);
	same = *wa && *wb && names_near(wa, wb);
	g_free(wa);
	g_free(wb);
	return same;
}

/*
 * Count name key `key` among the names of person `r` (an address with
 * three names is a list's or a shared one: ident_shared_address()), unless it
 * is one of those already counted (one_name()): Gao Xiang's addresses,
 * joined by the kernel's .mailmap, are seen as "Gao Xiang", "Xiang Gao"
 * and "Gaoxiang (xiang, OS Lab)", and were taken for a list's, so that
 * `people` left the EROFS maintainer out.
 */
static void name_counts(struct person *pe, const char *key)
{
	for (int i = 0; i < 2; i++)
		if (pe->name_keys[i] && one_name(pe->name_keys[i], key))
			return;
	if (pe->nr_names < 2)
		pe->name_keys[pe->nr_names] = key;
	pe->nr_names++;
}

/* Note what a new (name, email) sighting of person `r` tells; `raw`
 * and `nk` are comparable(email) and ms_name_key(name) (consumed). */
static void first_sight(struct ms_ident *id, unsigned r, const char *name,
			const char *email, enum ms_ident_source source,
			char *raw, char *nk)
{
	struct person *pe = id->people->pdata[r];
	char *key;

	if (email && *email) {
		struct addr_rec *old = NULL;
		gpointer v = g_hash_table_lookup(id->addr_seen, raw);

		if (v) {
			/* an address first listed, then used */
			const struct person *op =
				id->people->pdata[GPOINTER_TO_UINT(v) - 1];

			for (guint i = 0; i < op->addrs->len && !old; i++) {
				old = op->addrs->pdata[i];
				if (strcmp(old->email, raw))
					old = NULL;
			}
			if (old && id->usage)
				old->used = true;
		}
		if (!v) {
			struct addr_rec *a = g_new0(struct addr_rec, 1);

			a->email = raw;
			a->source = source;
			/* the pair's, as find() just recorded it */
			a->evidence = g_array_index(id->seen_order,
				struct seen_rec, id->seen_order->len - 1).evidence;
			a->evidence = a->evidence ? a->evidence : "";
			a->used = id->usage;
			a->malformed = ms_email_malformed(raw);
			g_ptr_array_add(pe->addrs, a);
			g_hash_table_insert(id->addr_seen, raw,
					    GUINT_TO_POINTER(r + 1));
		} else {
			g_free(raw);
		}
	}
	if (!email || !*email)
		return;
	/* "Pearson, Robert B" is also "Robert B Pearson": under both keys,
	 * the second not counted as another name of the address */
	for (int k = 0; k < 2; k++) {
		GArray *ids;
		bool have = false;
		const char *kstr;

		key = k == 0 ? nk : ms_name_key_reordered(name);
		if (!key)
			continue;
		/* the table's key, kept for the resolver's life */
		if (!g_hash_table_lookup_extended(id->names, key,
						  (gpointer *)&kstr,
						  (gpointer *)&ids)) {
			kstr = key;
			ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
			g_hash_table_insert(id->names, key, ids);
			key = NULL;
		}
		for (guint i = 0; i < ids->len && !have; i++)
			have = g_array_index(ids, unsigned, i) == r;
		if (!have) {
			g_array_append_val(ids, r);
			if (k == 0)
				name_counts(id->people->pdata[pe->addr_person],
					    kstr);
		}
		g_free(key);
	}
}


/* The id of a key of by_key, or MS_IDENT_NONE. */
unsigned ident_key_person(const struct ms_ident *id, const char *key)
{
	gpointer v = g_hash_table_lookup(id->by_key, key);

	return v ? GPOINTER_TO_UINT(v) - 1 : MS_IDENT_NONE;
}

/* A name seen once on another's address (settle()). */
bool ident_stray(const struct ms_ident *id, unsigned p)
{
	return ((const struct person *)id->people->pdata[p])->stray;
}

unsigned ident_root_of(const struct ms_ident *id, unsigned p)
{
	for (;;) {
		const struct person *pe = id->people->pdata[p];

		if (pe->parent == p)
			return p;
		p = pe->parent;
	}
}

/*
 * A pair seen before is seen in use now (an address first listed, then
 * in a message): the person and that address are used.
 */
static void mark_used(struct ms_ident *id, unsigned r, const char *email)
{
	struct person *pe = id->people->pdata[r];
	bool all = true;
	char *raw;

	pe->used = true;
	for (guint i = 0; i < pe->addrs->len && all; i++)
		all = ((struct addr_rec *)pe->addrs->pdata[i])->used;
	if (all || !email || !*email)
		return;
	raw = comparable(id, email);
	for (guint i = 0; i < pe->addrs->len; i++) {
		struct addr_rec *a = pe->addrs->pdata[i];

		if (!strcmp(a->email, raw))
			a->used = true;
	}
	g_free(raw);
}

/* Whether name key `nk` has a word of two bytes or more of `words`
 * (name keys, a space between). */
static bool ident_shares_word(const char *words, const char *nk)
{
	for (size_t n; *nk; nk += n + !!nk[n]) {
		n = strcspn(nk, " ");
		for (const char *w = words, *e; n >= 2 && *w; w = e + !!*e) {
			e = w + strcspn(w, " ");
			if ((size_t)(e - w) == n && !memcmp(w, nk, n))
				return true;
		}
	}
	return false;
}

/*
 * The key of the person `name` is at address key `key` (which it
 * consumes): one address written with names that share no word is
 * several people until ms_ident_join_names() settles it (settle()): a
 * .mailmap placeholder for several people (U-Boot's noreply@example.com
 * for Pali Rohár and Stephen Warren), or someone else's name mistyped
 * on it.  Names without a key (`nk`, ms_name_key(name): one word, no
 * person's) are the first's.  *cname becomes `name` for a new person
 * whose name the .mailmap's does not share.
 */
static char *address_key(struct ms_ident *id, char *key, const char *name,
			 const char *nk, bool mm_named, char **cname,
			 bool create)
{
	GPtrArray *gs;
	struct name_group *g;

	if (!nk)
		return key;
	if (id->settled)
		create = false;
	gs = g_hash_table_lookup(id->addr_groups, key);
	for (guint i = 0; gs && i < gs->len; i++) {
		g = gs->pdata[i];
		if (!ident_shares_word(g->words->str, nk))
			continue;
		if (create)
			g_string_append_printf(g->words, " %s", nk);
		if (i == 0)
			return key;
		g_free(key);
		return g_strdup(g->key);
	}
	if (gs && (!create || ident_shared_address(id, ident_key_person(id, key))))
		return key;
	g = g_new0(struct name_group, 1);
	g->words = g_string_new(nk);
	g->name = g_strdup(name);
	g->mapped = mm_named ? g_strdup(*cname) : NULL;
	if (!gs) {
		gs = g_ptr_array_new_with_free_func(name_group_free);
		g->key = g_strdup(key);
		g_hash_table_insert(id->addr_groups, g->key, gs);
	} else {
		g->key = g_strconcat(key, "\2", nk, NULL);
		g_free(key);
		key = g_strdup(g->key);
		if (!mm_named || !ident_names_share(*cname, name)) {
			g_free(*cname);
			*cname = g_strdup(name);
		}
	}
	g_ptr_array_add(gs, g);
	return key;
}

static unsigned find(struct ms_ident *id, const char *name,
		     const char *email, bool create)
{
	/* most lookups find a pair seen before: its key is made on the
	 * stack, and copied only for a pair not seen yet */
	char buf[256], *seen_key = buf;
	size_t nl = name ? strlen(name) : 0, el = email ? strlen(email) : 0;
	gpointer v;
	char *key, *cname, *cemail, *nk = NULL, *raw = NULL;
	enum ms_ident_source source;
	bool mm_named;
	unsigned r;

	if (nl + el + 2 > sizeof(buf))
		seen_key = g_malloc(nl + el + 2);
	memcpy(seen_key, name ? name : "", nl);
	seen_key[nl] = '\1';
	memcpy(seen_key + nl + 1, email ? email : "", el + 1);
	v = g_hash_table_lookup(id->seen, seen_key);
	if (v) {
		if (seen_key != buf)
			g_free(seen_key);
		r = GPOINTER_TO_UINT(v) - 1;
		if (id->usage)
			mark_used(id, r, email);
		return r;
	}
	if (seen_key == buf)
		seen_key = g_strdup(buf);
	if (email && *email)
		raw = comparable(id, email);
	key = person_key(id, name, email, raw, &cname, &cemail, &source,
			 &mm_named);
	if (!key) {
		g_free(seen_key);
		return MS_IDENT_NONE;
	}
	if (email && *email) {
		nk = ms_name_key(name);
		key = address_key(id, key, name, nk, mm_named, &cname, create);
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
		g_free(raw);
		g_free(nk);
		g_free(key);
		g_free(cname);
		g_free(cemail);
		g_free(seen_key);
		return MS_IDENT_NONE;
	} else {
		struct person *pe = g_new0(struct person, 1);

		pe->name = cname;
		pe->name_fixed = mm_named;
		pe->email = cemail;
		cname = cemail = NULL;
		r = id->people->len;
		pe->parent = r;
		pe->addr_person = r;
		if (strchr(key, '\2')) {
			char *base = g_strndup(key, (size_t)(strchr(key, '\2') -
							     key));
			unsigned b = ident_key_person(id, base);

			g_free(base);
			if (b != MS_IDENT_NONE)
				pe->addr_person = b;
		}
		pe->addrs = g_ptr_array_new_with_free_func(g_free);
		pe->members = g_array_new(FALSE, FALSE, sizeof(unsigned));
		g_array_append_val(pe->members, r);
		g_ptr_array_add(id->people, pe);
		g_hash_table_insert(id->by_key, key, GUINT_TO_POINTER(r + 1));
	}
	g_free(cname);
	g_free(cemail);
	{
		struct seen_rec sr = { seen_key, name ? strlen(name) : 0,
				       g_strdup(id->evidence), id->usage };

		g_array_append_val(id->seen_order, sr);
	}
	g_hash_table_insert(id->seen, seen_key, GUINT_TO_POINTER(r + 1));
	if (id->usage)
		((struct person *)id->people->pdata[r])->used = true;
	first_sight(id, r, name, email, source, raw, nk);
	return r;
}

/*
 * The one person (a root, not shared) whose name key is `name`'s, or
 * MS_IDENT_NONE when none or several.
 */
static unsigned person_named(const struct ms_ident *id, const char *name)
{
	unsigned found = MS_IDENT_NONE;

	for (int k = 0; k < 2; k++) {
		char *key = k == 0 ? ms_name_key(name) :
			    ms_name_key_reordered(name);
		GArray *ids = key ? g_hash_table_lookup(id->names, key) : NULL;

		g_free(key);
		for (guint i = 0; ids && i < ids->len; i++) {
			unsigned p = g_array_index(ids, unsigned, i);
			unsigned r = ident_root_of(id, p);

			if (ident_shared_address(id, p) || ident_shared_address(id, r) ||
			    ident_stray(id, p) || r == found)
				continue;
			if (found != MS_IDENT_NONE)
				return MS_IDENT_NONE;
			found = r;
		}
	}
	return found;
}

/* A message a list rewrote, credited by name to `to` (a root). */
static void credit_dmarc(struct ms_ident *id, unsigned to, unsigned list)
{
	struct person *pe = id->people->pdata[to];

	pe->dmarc++;
	if (!pe->dmarc_list) {
		pe->dmarc_list = g_strdup(ms_ident_email(id, list));
		pe->dmarc_evidence = g_strdup(id->evidence ? id->evidence :
					      "");
	}
}

unsigned ms_ident_resolve(struct ms_ident *id, const char *name,
			  const char *email)
{
	unsigned r = find(id, name, email, true);

	if (r == MS_IDENT_NONE)
		return r;
	/* a list's address (ms_ident_set_shared(): not merely one seen
	 * with several names) with a sender's name (a DMARC rewrite that
	 * kept no original address): the person of that name, once the
	 * names are joined and when only one person has it */
	if (id->names_joined && name && *name &&
	    ((const struct person *)id->people->pdata[
		((const struct person *)id->people->pdata[r])->addr_person])->
	    shared) {
		unsigned p = person_named(id, name);

		if (p != MS_IDENT_NONE) {
			credit_dmarc(id, p, r);
			return p;
		}
	}
	return ident_root_of(id, r);
}

unsigned ms_ident_lookup(struct ms_ident *id, const char *name,
			 const char *email)
{
	unsigned r = find(id, name, email, false);

	return r == MS_IDENT_NONE ? r : ident_root_of(id, r);
}

const char *ms_ident_source_name(enum ms_ident_source s)
{
	switch (s) {
	case MS_IDENT_SELF:
		return "self";
	case MS_IDENT_MAILMAP:
		return "mailmap";
	case MS_IDENT_ALIASES:
		return "aliases";
	case MS_IDENT_MAINTAINERS:
		return "maintainers-history";
	case MS_IDENT_NAME:
		return "name";
	}
	return "?";
}

void ms_ident_set_evidence(struct ms_ident *id, const char *evidence,
			   bool usage)
{
	g_free(id->evidence);
	id->evidence = g_strdup(evidence);
	id->usage = evidence && usage;
}

void ms_ident_set_shared(struct ms_ident *id, unsigned person)
{
	struct person *pe;

	if (person == MS_IDENT_NONE)
		return;
	pe = id->people->pdata[person];
	pe->shared = true;
	pe = id->people->pdata[pe->addr_person];
	pe->nr_names = 1000;
	pe->shared = true;
}

void ms_ident_set_listed(struct ms_ident *id, unsigned person)
{
	struct person *pe;

	if (person == MS_IDENT_NONE)
		return;
	pe = id->people->pdata[person];
	pe->listed = true;
	pe = id->people->pdata[ident_root_of(id, person)];
	pe->group_listed = true;
}

char *ident_pair_key(unsigned a, unsigned b)
{
	return g_strdup_printf("%u:%u", MIN(a, b), MAX(a, b));
}

void ms_ident_note_distinct_why(struct ms_ident *id, unsigned a, unsigned b,
				const char *why)
{
	char *key;

	if (a == b || a == MS_IDENT_NONE || b == MS_IDENT_NONE)
		return;
	key = ident_pair_key(a, b);
	/* the first evidence stays */
	if (g_hash_table_contains(id->distinct, key)) {
		g_free(key);
		return;
	}
	g_hash_table_insert(id->distinct, key, g_strdup(why ? why : ""));
	for (int side = 0; side < 2; side++) {
		unsigned from = side ? b : a, to = side ? a : b;
		gpointer k = GUINT_TO_POINTER(from + 1);
		GArray *with = g_hash_table_lookup(id->distinct_of, k);

		if (!with) {
			with = g_array_new(FALSE, FALSE, sizeof(unsigned));
			g_hash_table_insert(id->distinct_of, k, with);
		}
		g_array_append_val(with, to);
	}
}

static bool group_listed(const struct ms_ident *id, unsigned root)
{
	return ((const struct person *)id->people->pdata[root])->group_listed;
}

bool ms_ident_join(struct ms_ident *id, unsigned a, unsigned b,
		   enum ms_ident_source source, const char *evidence)
{
	unsigned ra, rb, keep, gone;
	struct person *pk, *pg;

	if (a == MS_IDENT_NONE || b == MS_IDENT_NONE)
		return false;
	ra = ident_root_of(id, a);
	rb = ident_root_of(id, b);
	if (ra == rb)
		return false;
	/* the listed address is the person's canonical one, and an
	 * address before a text that is none */
	keep = MIN(ra, rb);
	if (ms_email_malformed(((struct person *)id->people->pdata[keep])->
			       email))
		keep = keep == ra ? rb : ra;
	if (group_listed(id, ra) != group_listed(id, rb))
		keep = group_listed(id, ra) ? ra : rb;
	gone = keep == ra ? rb : ra;
	pk = id->people->pdata[keep];
	pg = id->people->pdata[gone];
	pg->parent = keep;
	pg->join_source = source;
	g_free(pg->join_evidence);
	pg->join_evidence = g_strdup(evidence ? evidence : "");
	g_array_append_vals(pk->members, pg->members->data,
			    pg->members->len);
	g_array_free(pg->members, TRUE);
	pg->members = NULL;
	pk->big_name = pk->big_name || pg->big_name;
	pk->group_listed = pk->group_listed || pg->group_listed;
	if (!*pk->name && *pg->name) {
		g_free(pk->name);
		pk->name = g_strdup(pg->name);
	}
	return true;
}

/*
 * An address written with three or more different names is a list's (a
 * DMARC rewrite keeps the sender's name and puts the list's address) or
 * a shared one: its names say nothing about who it is.
 */
bool ident_shared_address(const struct ms_ident *id, unsigned p)
{
	const struct person *pe;

	if (p == MS_IDENT_NONE)
		return false;
	pe = id->people->pdata[p];

	return ((const struct person *)id->people->pdata[pe->addr_person])->
		nr_names >= 3;
}

bool ms_ident_shared(const struct ms_ident *id, unsigned person)
{
	return person != MS_IDENT_NONE && ident_shared_address(id, person);
}

unsigned ms_ident_root(const struct ms_ident *id, unsigned person)
{
	return person == MS_IDENT_NONE ? person : ident_root_of(id, person);
}

const unsigned *ms_ident_members(const struct ms_ident *id, unsigned root,
				 size_t *nr)
{
	const struct person *pe = id->people->pdata[ident_root_of(id, root)];

	*nr = pe->members->len;
	return (const unsigned *)(void *)pe->members->data;
}

enum ms_ident_source ms_ident_join_source(const struct ms_ident *id,
					  unsigned person,
					  const char **evidence)
{
	const struct person *pe = id->people->pdata[person];

	if (pe->parent == person) {
		*evidence = "";
		return MS_IDENT_SELF;
	}
	*evidence = pe->join_evidence ? pe->join_evidence : "";
	return pe->join_source;
}

size_t ms_ident_nr_addresses(const struct ms_ident *id, unsigned person)
{
	const struct person *pe = id->people->pdata[person];

	return pe->addrs->len;
}

const char *ms_ident_address(const struct ms_ident *id, unsigned person,
			     size_t i, enum ms_ident_source *source,
			     const char **evidence)
{
	const struct person *pe = id->people->pdata[person];
	const struct addr_rec *a = pe->addrs->pdata[i];

	*source = a->source;
	*evidence = a->evidence;
	return a->email;
}

char **ms_ident_group_addresses(const struct ms_ident *id, unsigned person)
{
	const struct person *root = id->people->pdata[ident_root_of(id, person)];
	GPtrArray *out = g_ptr_array_new();
	GHashTable *have = g_hash_table_new(g_str_hash, g_str_equal);

	if (*root->email) {
		g_ptr_array_add(out, g_strdup(root->email));
		g_hash_table_add(have, root->email);
	}
	for (guint i = 0; i < root->members->len; i++) {
		const struct person *m = id->people->pdata[
			g_array_index(root->members, unsigned, i)];

		if (*m->email && !g_hash_table_contains(have, m->email)) {
			g_ptr_array_add(out, g_strdup(m->email));
			g_hash_table_add(have, m->email);
		}
		for (guint k = 0; k < m->addrs->len; k++) {
			const struct addr_rec *a = m->addrs->pdata[k];

			if (g_hash_table_contains(have, a->email))
				continue;
			g_ptr_array_add(out, g_strdup(a->email));
			g_hash_table_add(have, a->email);
		}
	}
	g_hash_table_destroy(have);
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

bool ms_ident_addr_unused(const struct ms_ident_addr *a, bool usage_read)
{
	return usage_read && a->listed && !a->used;
}

void ms_ident_foreach_address(const struct ms_ident *id, unsigned person,
			      void (*fn)(const struct ms_ident_addr *a,
					 void *data),
			      void *data)
{
	const struct person *root = id->people->pdata[ident_root_of(id, person)];
	GHashTable *have = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < root->members->len; i++) {
		unsigned mid = g_array_index(root->members, unsigned, i);
		const struct person *m = id->people->pdata[mid];
		const char *jev;
		enum ms_ident_source js = ms_ident_join_source(id, mid, &jev);

		for (guint k = 0; k < m->addrs->len; k++) {
			const struct addr_rec *a = m->addrs->pdata[k];
			bool own = a->source == MS_IDENT_SELF;
			struct ms_ident_addr out;

			if (g_hash_table_contains(have, a->email))
				continue;
			g_hash_table_add(have, a->email);
			out.email = a->email;
			out.source = own ? js : a->source;
			out.join_evidence = own ? jev : a->evidence;
			out.first_seen = a->evidence;
			out.used = a->used;
			out.listed = own && m->listed;
			out.malformed = a->malformed;
			fn(&out, data);
		}
		/* a .mailmap's proper address, never written as such */
		if (*m->email && !g_hash_table_contains(have, m->email)) {
			struct ms_ident_addr out = {
				m->email, js, jev, "", false, false,
				ms_email_malformed(m->email) };

			g_hash_table_add(have, m->email);
			fn(&out, data);
		}
	}
	g_hash_table_destroy(have);
}

bool ms_ident_used(const struct ms_ident *id, unsigned person)
{
	return ((const struct person *)id->people->pdata[person])->used;
}

bool ms_ident_big_name(const struct ms_ident *id, unsigned root)
{
	return ((const struct person *)
		id->people->pdata[ident_root_of(id, root)])->big_name;
}

size_t ms_ident_nr_seen(const struct ms_ident *id)
{
	return id->seen_order->len;
}

void ms_ident_seen(const struct ms_ident *id, size_t i, const char **name,
		   size_t *name_len, const char **email, const char **evidence,
		   bool *usage)
{
	const struct seen_rec *sr = &g_array_index(id->seen_order,
						   struct seen_rec, i);

	*name = sr->key;
	*name_len = sr->name_len;
	*email = sr->key + sr->name_len + 1;
	*evidence = sr->evidence;
	*usage = sr->usage;
}

unsigned ms_ident_seen_person(const struct ms_ident *id, size_t i)
{
	const struct seen_rec *sr = &g_array_index(id->seen_order,
						   struct seen_rec, i);

	return GPOINTER_TO_UINT(g_hash_table_lookup(id->seen, sr->key)) - 1;
}

size_t ms_ident_dmarc(const struct ms_ident *id, unsigned person,
		      const char **list, const char **evidence)
{
	const struct person *root = id->people->pdata[ident_root_of(id, person)];
	size_t n = 0;

	*list = *evidence = NULL;
	for (guint i = 0; i < root->members->len; i++) {
		const struct person *m = id->people->pdata[
			g_array_index(root->members, unsigned, i)];

		n += m->dmarc;
		if (m->dmarc_list && !*list) {
			*list = m->dmarc_list;
			*evidence = m->dmarc_evidence;
		}
	}
	return n;
}

size_t ms_ident_count(const struct ms_ident *id)
{
	return id->people->len;
}

void ms_ident_note_name(struct ms_ident *id, unsigned person,
			const char *name)
{
	struct person *pe;
	struct name_use u;

	if (person == MS_IDENT_NONE || person >= id->people->len || !name ||
	    !*name || strchr(name, '@'))
		return;
	pe = id->people->pdata[person];
	if (!pe->names_used)
		pe->names_used = g_array_new(FALSE, FALSE,
					     sizeof(struct name_use));
	for (guint i = 0; i < pe->names_used->len; i++) {
		struct name_use *x = &g_array_index(pe->names_used,
						    struct name_use, i);

		if (!strcmp(x->name, name)) {
			x->n++;
			return;
		}
	}
	u.name = g_strdup(name);
	u.n = 1;
	g_array_append_val(pe->names_used, u);
}

/* A name as a mail client writes it for a directory ("Last, First",
 * "Name (Company)"), which loses to one written plainly. */
static bool name_decorated(const char *name)
{
	return strchr(name, ',') || strchr(name, '(');
}

/* The name `p` was used under most (ms_ident_note_name()), a plain one
 * before a decorated one, if it beats *most (uses, plain ones counted
 * above every decorated one), or NULL. */
static const char *most_used_name(const struct person *p, size_t *most)
{
	const char *best = NULL;

	for (guint i = 0; p->names_used && i < p->names_used->len; i++) {
		const struct name_use *x = &g_array_index(p->names_used,
							  struct name_use, i);
		size_t n = x->n + (name_decorated(x->name) ? 0 : SIZE_MAX / 2);

		if (n > *most) {
			*most = n;
			best = x->name;
		}
	}
	return best;
}

const char *ms_ident_name(const struct ms_ident *id, unsigned person)
{
	const struct person *pe = id->people->pdata[person];
	const GArray *mem = pe->members;   /* NULL: joined to another */
	const char *best = NULL, *n;
	size_t most = 0;

	if (pe->name_fixed)
		return pe->name;
	if (!mem) {
		best = most_used_name(pe, &most);
		return best ? best : pe->name;
	}
	for (guint i = 0; i < mem->len; i++) {
		n = most_used_name(id->people->pdata[
			g_array_index(mem, unsigned, i)], &most);
		best = n ? n : best;
	}
	return best ? best : pe->name;
}

const char *ident_first_name(const struct ms_ident *id, unsigned person)
{
	return ((const struct person *)id->people->pdata[person])->name;
}

const char *ms_ident_email(const struct ms_ident *id, unsigned person)
{
	const struct person *pe = id->people->pdata[person];

	return pe->email;
}

bool ident_names_share(const char *a, const char *b)
{
	char *ka = ms_name_key(a), *kb = ms_name_key(b);
	bool yes = ka && kb && ident_shares_word(ka, kb);

	g_free(ka);
	g_free(kb);
	return yes;
}
