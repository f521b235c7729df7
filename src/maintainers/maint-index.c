/*
 * maint-index.c - matching paths to MAINTAINERS entries exactly as
 * scripts/get_maintainer.pl --no-git --no-keywords does, without testing
 * every pattern against every path.
 *
 * get_maintainer.pl turns an F:/X: value into a Perl regex (. -> \.,
 * * -> .*, ? -> .), appends a slash when the result names an existing
 * directory, and matches it anchored at the start of the path; a pattern
 * without a trailing slash must also have as many slashes as the path.
 * N: values are Perl regexes (/x) searched anywhere in the path.  An entry
 * with a matching X: is dropped for that path; otherwise its weight is the
 * "depth" of its last matching F: (slashes, +1 without a trailing slash,
 * -1 when it starts with .*) or 0 for N:, and entries come out deepest
 * first.  get_maintainer.pl leaves ties in Perl's hash order, which changes
 * from run to run; we break them by position in the file.
 *
 * The index buckets F:/X: patterns by their literal directory prefix
 * ("drivers/net/" for "drivers/net/e?.c"), so a path meets only the
 * patterns filed under its own directory prefixes.  Patterns made of
 * literal characters, '*' and '?' (nearly all) are matched by a small
 * prefix-glob matcher; the rest (character classes and other regex syntax)
 * by GRegex.  All N: regexes are first tried as one alternation; those
 * of letters alone are then substrings.
 *
 * Every regex runs under explicit PCRE2 limits (RE_LIMITS): a pattern
 * such as "(.*a){25}$" backtracks for ages on each path, and PCRE's own
 * limit answered "no match" silently.  A match that hits the limit is
 * unknown, not a miss: it is counted per pattern and reported once, with
 * the pattern's file:line (maint_index_report()).
 */
#include "maintainers.h"
#include "bytes.h"
#include "tree.h"

#include <glib.h>
#include <isa-l/crc64.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

enum pat_kind { PAT_GLOB, PAT_REGEX, PAT_LITERAL };

/* An N: value of these characters only matches itself, anywhere in the
 * path (none is special to a /x regex): 59 of the kernel's 92. */
#define N_LITERAL "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
		  "0123456789_,/-"

/*
 * PCRE2's per-match limits, set in the pattern itself (GRegex has no
 * other way): a hundred thousand backtracking steps is far beyond any
 * sane MAINTAINERS pattern on a path, and bounds a hostile one to about
 * a millisecond per path.
 */
#define RE_LIMITS "(*LIMIT_MATCH=100000)(*LIMIT_DEPTH=10000)"

struct pattern {
	uint32_t entry;    /* index of the entry */
	uint32_t order;    /* index of the field in its entry */
	char type;         /* 'F', 'X' or 'N' */
	enum pat_kind kind;
	char *glob;        /* PAT_GLOB: value (+ '/'), '*' and '?' wild;
			      PAT_LITERAL: the N: value */
	bool glob_owned;   /* else borrowed from the field */
	GRegex *re;        /* PAT_REGEX */
	int slashes;       /* '/' in the converted pattern */
	bool trailing_slash;
	int depth;
	const struct maint_field *field;
	unsigned long limit_hits;   /* matches that hit RE_LIMITS */
	char *limit_path;           /* the first path that did */
};

struct maint_index {
	const struct maint_file *mf;
	const struct ms_tree *tree;
	struct pattern *pats;
	size_t nr_pats;
	GHashTable *buckets;  /* dir prefix -> GArray of pattern ids */
	GArray *npats;        /* ids of N: patterns */
	GRegex *nall;         /* all N: patterns as one alternation */
	GString *dirs;        /* the answers of the tree ('0'/'1'), in order */
	GMutex lock;          /* limit_hits and limit_path */
};

/* A regex under RE_LIMITS, with `flags` (and the pattern's diagnostic). */
static GRegex *limited_regex(const char *pattern, GRegexCompileFlags flags,
			     GError **err)
{
	char *p = g_strconcat(RE_LIMITS, pattern, NULL);
	GRegex *re = g_regex_new(p, flags | G_REGEX_RAW, 0, err);

	g_free(p);
	return re;
}

/*
 * Does p->re match `path`?  A match that fails (the limits) is recorded
 * on the pattern and counts as a match.
 */
static bool re_match(const struct maint_index *idx, struct pattern *p,
		     const char *path)
{
	GError *err = NULL;
	bool m = g_regex_match_full(p->re, path, -1, 0, 0, NULL, &err);

	if (!err)
		return m;
	g_error_free(err);
	g_mutex_lock((GMutex *)&idx->lock);
	if (!p->limit_hits++)
		p->limit_path = g_strdup(path);
	g_mutex_unlock((GMutex *)&idx->lock);
	return true;
}

/* strchr("\\^$|()[]{}+", c), NUL included, without a call a byte (the
 * index's 450,000 were a third of building it) */
static bool is_regex_meta(char c)
{
	switch (c) {
	case '\0': case '\\': case '^': case '$': case '|': case '(':
	case ')': case '[': case ']': case '{': case '}': case '+':
		return true;
	default:
		return false;
	}
}

/* get_maintainer.pl's conversion of an F:/X: value to a regex. */
static GString *perl_convert(const char *v)
{
	GString *s = g_string_sized_new(strlen(v) + 8);

	for (const char *p = v; *p; p++) {
		if (*p == '.')
			g_string_append(s, "\\.");
		else if (*p == '*')
			g_string_append(s, ".*");
		else if (*p == '?')
			g_string_append_c(s, '.');
		else
			g_string_append_c(s, *p);
	}
	return s;
}

bool maint_glob_prefix(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		if (!*p)
			return true;
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (*s && (*p == '?' || *p == *s)) {
			p++;
			s++;
			continue;
		}
		if (!star_p || !*star_s)
			return false;
		p = star_p;
		s = ++star_s;
	}
}

static int count_slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* The length of the directory part of the literal prefix of an F:/X:
 * value: its bucket's key. */
static size_t bucket_key_len(const char *v)
{
	size_t n = 0, last = 0;

	if (strchr(v, '|'))
		return 0; /* "^a|b" may match anywhere */
	while (v[n] && v[n] != '*' && v[n] != '?' && !is_regex_meta(v[n]))
		n++;
	/* a quantifier makes the character before it optional */
	if ((v[n] == '{' || v[n] == '+') && n > 0)
		n--;
	for (size_t i = 0; i < n; i++)
		if (v[i] == '/')
			last = i + 1;
	return last;
}

static void add_to_bucket(struct maint_index *idx, const char *v,
			  uint32_t id)
{
	size_t n = bucket_key_len(v);
	char buf[256], *key = n < sizeof(buf) ? buf : g_strndup(v, n);
	GArray *a;

	if (key == buf) {
		memcpy(buf, v, n);
		buf[n] = '\0';
	}
	a = g_hash_table_lookup(idx->buckets, key);
	if (!a) {
		a = g_array_sized_new(FALSE, FALSE, sizeof(uint32_t), 4);
		g_hash_table_insert(idx->buckets, key == buf ?
				    g_strndup(v, n) : key, a);
	} else if (key != buf) {
		g_free(key);
	}
	g_array_append_val(a, id);
}

static void free_bucket(gpointer p)
{
	g_array_free(p, TRUE);
}

/*
 * Xen's get_maintainer.pl expands shell braces in F:/X: first
 * ("xen/common/{kexec,kimage}.c" -> "xen/common/(kexec|kimage).c"), with
 * these two substitutions: commas become '|' one at a time while a brace
 * holds more than one, then "{x|y,z}" becomes "(x|y|z)".  The kernel's
 * script has no such F: values, so doing it for every project changes
 * nothing there.  Returns a new string.
 */
static char *expand_braces(const char *v)
{
	static gsize once;
	static GRegex *many, *last;
	char *s = g_strdup(v);

	if (!strchr(v, '{'))
		return s;
	if (g_once_init_enter(&once)) {
		many = g_regex_new("([^\\\\])\\{(|[^},]*[^,\\\\]),"
				   "((|[^},]*[^,\\\\]),(|[^}]*[^\\\\]))\\}",
				   G_REGEX_RAW, 0, NULL);
		last = g_regex_new("([^\\\\])\\{(|[^},]*[^,\\\\]),"
				   "(|[^}]*[^\\\\])\\}", G_REGEX_RAW, 0, NULL);
		g_once_init_leave(&once, 1);
	}
	for (int guard = 0; many && guard < 1000; guard++) {
		char *n = g_regex_replace(many, s, -1, 0, "\\1{\\2|\\3}", 0,
					  NULL);

		if (!n || !strcmp(n, s)) {
			g_free(n);
			break;
		}
		g_free(s);
		s = n;
	}
	if (last) {
		char *n = g_regex_replace(last, s, -1, 0, "\\1(\\2|\\3)", 0,
					  NULL);

		if (n) {
			g_free(s);
			s = n;
		}
	}
	return s;
}

/*
 * The directory test of get_maintainer.pl: Perl tests -d on the converted
 * text, so a value with '.', '*' or '\\' (then "\\.", ".*") never
 * qualifies, and '?' is tested as '.'.  Records the answer for the
 * fingerprint.
 */
static bool pattern_is_dir(struct maint_index *idx, const char *v, size_t n)
{
	char *q;
	bool dir;

	if (!n || v[n - 1] == '/' || strpbrk(v, ".*\\"))
		return false;
	if (!strchr(v, '?')) {
		dir = ms_tree_is_dir(idx->tree, v);
	} else {
		q = g_strdup(v);
		for (char *c = q; *c; c++)
			if (*c == '?')
				*c = '.';
		dir = ms_tree_is_dir(idx->tree, q);
		g_free(q);
	}
	g_string_append_c(idx->dirs, dir ? '1' : '0');
	return dir;
}

/*
 * An F:/X: pattern.  The slashes, the trailing slash and the ".*" start
 * of get_maintainer.pl's converted text are those of the value itself
 * (the conversion adds no '/', and a converted text starts with ".*"
 * exactly when the value starts with '*'), so the conversion is only
 * written out for the few values with regex syntax; a literal value
 * (nearly all) is matched by the glob matcher straight from the field.
 */
static bool compile_file_pattern(struct maint_index *idx, struct pattern *p,
				 const struct maint_field *f,
				 struct ms_diags *diags)
{
	char *expanded = strchr(f->value, '{') ? expand_braces(f->value) :
			 NULL;
	const char *value = expanded ? expanded : f->value;
	size_t n = strlen(value);
	bool plain = true, dir;

	for (const char *c = value; *c; c++)
		if (is_regex_meta(*c))
			plain = false;
	dir = pattern_is_dir(idx, value, n);
	p->slashes = count_slashes(value) + (dir ? 1 : 0);
	p->trailing_slash = dir || (n && value[n - 1] == '/');
	p->depth = p->slashes + (p->trailing_slash ? 0 : 1);
	if (value[0] == '*')
		p->depth = -1;
	if (plain) {
		p->kind = PAT_GLOB;
		if (dir) {
			p->glob = g_strconcat(value, "/", NULL);
			p->glob_owned = true;
		} else if (expanded) {
			p->glob = expanded;
			p->glob_owned = true;
			expanded = NULL;
		} else {
			p->glob = (char *)f->value;  /* borrowed, as `field` */
		}
	} else {
		GError *err = NULL;
		GString *conv = perl_convert(value);
		char *anchored;

		if (dir)
			g_string_append_c(conv, '/');
		anchored = g_strconcat("^", conv->str, NULL);
		p->kind = PAT_REGEX;
		/* no JIT (G_REGEX_OPTIMIZE): compiling it costs more than
		 * the few paths of its bucket ever take to match */
		p->re = limited_regex(anchored, 0, &err);
		g_free(anchored);
		g_string_free(conv, TRUE);
		if (!p->re) {
			ms_diags_add(diags, f->file, f->line,
				     "invalid %c: pattern '%s' skipped: %s",
				     f->key, f->value, err->message);
			g_error_free(err);
			g_free(expanded);
			return false;
		}
	}
	g_free(expanded);
	return true;
}

int maint_index_new(const struct maint_file *mf, const struct ms_tree *tree,
		    struct maint_index **out, struct ms_diags *diags)
{
	struct maint_index *idx = g_new0(struct maint_index, 1);
	size_t nfields = 0;
	GString *all = g_string_new(NULL);

	idx->mf = mf;
	idx->tree = tree;
	g_mutex_init(&idx->lock);
	idx->buckets = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					     free_bucket);
	idx->npats = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	idx->dirs = g_string_new(NULL);
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++)
		nfields += maint_file_entry(mf, i)->nr_fields;
	idx->pats = g_new0(struct pattern, nfields ? nfields : 1);

	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t k = 0; k < e->nr_fields; k++) {
			const struct maint_field *f = &e->fields[k];
			struct pattern *p = &idx->pats[idx->nr_pats];
			uint32_t id = (uint32_t)idx->nr_pats;

			if (f->key != 'F' && f->key != 'X' && f->key != 'N')
				continue;
			p->entry = (uint32_t)i;
			p->order = (uint32_t)k;
			p->type = f->key;
			p->field = f;
			if (f->key == 'N') {
				GError *err = NULL;

				p->kind = f->value[strspn(f->value,
							  N_LITERAL)] ?
					  PAT_REGEX : PAT_LITERAL;
				p->depth = 0;
				p->glob = (char *)f->value;
				/* no JIT: only tried when the alternation
				 * of all N: below matched */
				if (p->kind == PAT_REGEX)
					p->re = limited_regex(f->value,
						G_REGEX_EXTENDED, &err);
				if (p->kind == PAT_REGEX && !p->re) {
					ms_diags_add(diags, f->file, f->line,
						     "invalid N: regex '%s' "
						     "skipped: %s", f->value,
						     err->message);
					g_error_free(err);
					continue;
				}
				if (all->len)
					g_string_append_c(all, '|');
				/* a newline ends any /x comment in it */
				g_string_append_printf(all, "(?:%s\n)",
						       f->value);
				g_array_append_val(idx->npats, id);
				idx->nr_pats++;
				continue;
			}
			if (!compile_file_pattern(idx, p, f, diags))
				continue;
			add_to_bucket(idx, f->value, id);
			idx->nr_pats++;
		}
	}
	if (all->len) {
		/* only a filter: on failure every N: is simply tried */
		idx->nall = limited_regex(all->str, G_REGEX_EXTENDED |
					  G_REGEX_OPTIMIZE, NULL);
	}
	g_string_free(all, TRUE);
	*out = idx;
	return 0;
}

void maint_index_free(struct maint_index *idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < idx->nr_pats; i++) {
		if (idx->pats[i].glob_owned)
			g_free(idx->pats[i].glob);
		g_free(idx->pats[i].limit_path);
		g_clear_pointer(&idx->pats[i].re, g_regex_unref);
	}
	g_free(idx->pats);
	g_hash_table_destroy(idx->buckets);
	g_array_free(idx->npats, TRUE);
	g_clear_pointer(&idx->nall, g_regex_unref);
	g_string_free(idx->dirs, TRUE);
	g_mutex_clear(&idx->lock);
	g_free(idx);
}

/* Two CRC-64s (ECMA-182 and ISO) of the same bytes: 128 bits, at a
 * tenth of SHA-256's cost (0.6 MB of fields per run on the kernel's). */
static void fp_add(uint64_t c[2], const void *p, size_t n)
{
	c[0] = crc64_ecma_refl(c[0], p, n);
	c[1] = crc64_iso_refl(c[1], p, n);
}

char *maint_index_fingerprint(const struct maint_index *idx)
{
	uint64_t c[2] = { 0, 0 };

	fp_add(c, "maint-index-2\n", 14);
	for (size_t i = 0; i < maint_file_nr_entries(idx->mf); i++) {
		const struct maint_entry *e = maint_file_entry(idx->mf, i);

		for (size_t k = 0; k < e->nr_fields; k++) {
			const struct maint_field *f = &e->fields[k];
			char key[2] = { f->key, 0 };

			fp_add(c, key, 2);
			fp_add(c, f->value, strlen(f->value) + 1);
		}
		fp_add(c, "\n", 1);
	}
	fp_add(c, idx->dirs->str, idx->dirs->len);
	return g_strdup_printf("%016" G_GINT64_MODIFIER "x%016"
			       G_GINT64_MODIFIER "x", (guint64)c[0],
			       (guint64)c[1]);
}

unsigned long maint_index_limit_hits(const struct maint_index *idx)
{
	unsigned long n = 0;

	g_mutex_lock((GMutex *)&idx->lock);
	for (size_t i = 0; i < idx->nr_pats; i++)
		n += idx->pats[i].limit_hits;
	g_mutex_unlock((GMutex *)&idx->lock);
	return n;
}

void maint_index_report(const struct maint_index *idx,
			struct ms_diags *diags)
{
	for (size_t i = 0; idx && i < idx->nr_pats; i++) {
		const struct pattern *p = &idx->pats[i];

		if (!p->limit_hits)
			continue;
		ms_diags_add(diags, p->field->file, p->field->line,
			     "%c: pattern '%s' is too costly to match (it hit "
			     "the regex match limit on %lu path%s, first "
			     "'%s'): whether it matches %s is unknown, taken "
			     "as %s", p->type, p->field->value, p->limit_hits,
			     p->limit_hits == 1 ? "" : "s", p->limit_path,
			     p->limit_hits == 1 ? "it" : "them",
			     p->type == 'X' ? "an exclusion" : "a match");
	}
}

static bool file_pattern_matches(const struct maint_index *idx,
				 struct pattern *p, const char *path,
				 int path_slashes)
{
	bool m;

	if (!p->trailing_slash && p->slashes != path_slashes)
		return false;
	if (p->kind == PAT_GLOB)
		m = maint_glob_prefix(p->glob, path);
	else
		m = re_match(idx, p, path);
	return m;
}

struct hit {
	uint32_t entry, order;
	char type;
	int depth;
};

static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct ranked {
	uint32_t entry;
	int depth, f_depth;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* The N: alternation as a filter: a failure (its limits) is a maybe. */
static bool nall_may_match(const struct maint_index *idx, const char *path)
{
	GError *err = NULL;
	bool m = g_regex_match_full(idx->nall, path, -1, 0, 0, NULL, &err);

	if (!err)
		return m;
	g_error_free(err);
	return true;
}

/*
 * Call fn(pattern id) for every F:/X:/N: pattern that matches `path`.
 * Returns false if fn asked to stop.
 */
static void for_each_match(const struct maint_index *idx, const char *path,
			   void (*fn)(uint32_t id, void *data), void *data)
{
	size_t len = strlen(path);
	char stackbuf[512];
	char *buf = len < sizeof(stackbuf) ? stackbuf : g_malloc(len + 1);
	int slashes = count_slashes(path);

	memcpy(buf, path, len + 1);
	for (size_t i = 0;; i++) {
		/* the prefix buf[0..i) ends in '/' (or is empty) */
		if (i == 0 || buf[i - 1] == '/') {
			char saved = buf[i];
			GArray *a;

			buf[i] = '\0';
			a = g_hash_table_lookup(idx->buckets, buf);
			buf[i] = saved;
			for (guint k = 0; a && k < a->len; k++) {
				uint32_t id = g_array_index(a, uint32_t, k);

				if (file_pattern_matches(idx, &idx->pats[id],
							 path, slashes))
					fn(id, data);
			}
		}
		if (i == len)
			break;
	}
	if (idx->npats->len &&
	    (!idx->nall || nall_may_match(idx, path))) {
		for (guint k = 0; k < idx->npats->len; k++) {
			uint32_t id = g_array_index(idx->npats, uint32_t, k);
			struct pattern *p = &idx->pats[id];
			bool m = p->kind == PAT_LITERAL ?
				 strstr(path, p->glob) != NULL :
				 re_match(idx, p, path);

			if (m)
				fn(id, data);
		}
	}
	if (buf != stackbuf)
		g_free(buf);
}

struct collect {
	const struct maint_index *idx;
	struct hit *hits;
	size_t nr, alloc;
	unsigned char *marks;  /* optional: one byte per pattern id */
	struct hit local[32];
};

static void collect_hit(uint32_t id, void *data)
{
	struct collect *c = data;
	const struct pattern *p = &c->idx->pats[id];

	if (c->marks)
		c->marks[id] = 1;
	if (c->nr == c->alloc) {
		size_t n = c->alloc * 2;

		if (c->hits == c->local) {
			c->hits = g_new(struct hit, n);
			memcpy(c->hits, c->local, sizeof(c->local));
		} else {
			c->hits = g_renew(struct hit, c->hits, n);
		}
		c->alloc = n;
	}
	c->hits[c->nr].entry = p->entry;
	c->hits[c->nr].order = p->order;
	c->hits[c->nr].type = p->type;
	c->hits[c->nr].depth = p->depth;
	c->nr++;
}

size_t maint_index_match_marks(const struct maint_index *idx,
			       const char *path, struct maint_match *out,
			       size_t max, unsigned char *marks)
{
	struct collect c = { idx, NULL, 0, 32, marks, { { 0, 0, 0, 0 } } };
	struct ranked *r;
	size_t nr = 0;

	c.hits = c.local;
	for_each_match(idx, path, collect_hit, &c);
	if (!c.nr)
		return 0;
	qsort(c.hits, c.nr, sizeof(*c.hits), cmp_hit);
	r = g_new(struct ranked, c.nr);
	for (size_t i = 0; i < c.nr;) {
		size_t j = i;
		bool excluded = false, matched = false;
		int depth = 0, f_depth = INT_MIN;

		for (; j < c.nr && c.hits[j].entry == c.hits[i].entry; j++) {
			if (c.hits[j].type == 'X') {
				excluded = true;
			} else {
				/* the last matching F:/N: sets the depth */
				matched = true;
				depth = c.hits[j].depth;
				if (c.hits[j].type == 'F' &&
				    depth > f_depth)
					f_depth = depth;
			}
		}
		if (matched && !excluded) {
			r[nr].entry = c.hits[i].entry;
			r[nr].depth = depth;
			r[nr].f_depth = f_depth;
			nr++;
		}
		i = j;
	}
	qsort(r, nr, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < nr && i < max; i++) {
		out[i].entry = maint_file_entry(idx->mf, r[i].entry);
		out[i].depth = r[i].depth;
		out[i].f_depth = r[i].f_depth;
	}
	g_free(r);
	if (c.hits != c.local)
		g_free(c.hits);
	return nr;
}

size_t maint_index_match_depth(const struct maint_index *idx,
			       const char *path, struct maint_match *out,
			       size_t max)
{
	return maint_index_match_marks(idx, path, out, max, NULL);
}

size_t maint_index_match(const struct maint_index *idx, const char *path,
			 const struct maint_entry **out, size_t max)
{
	struct maint_match local[64];
	struct maint_match *m = local;
	size_t n = maint_index_match_depth(idx, path, local, 64);

	if (n > 64) {
		m = g_new(struct maint_match, n);
		maint_index_match_depth(idx, path, m, n);
	}
	for (size_t i = 0; i < n && i < max; i++)
		out[i] = m[i].entry;
	if (m != local)
		g_free(m);
	return n;
}

size_t maint_index_nr_patterns(const struct maint_index *idx)
{
	return idx->nr_pats;
}

const struct maint_field *maint_index_pattern(const struct maint_index *idx,
					      size_t id)
{
	return idx->pats[id].field;
}
