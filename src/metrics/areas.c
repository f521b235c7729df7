/*
 * areas.c - an entry's files cut into areas, and who is active in each
 * (areas.h).
 *
 * Per entry: its patterns compiled as get_maintainer.pl reads them
 * (F:/X: values as prefixes, '*' any run, '?' one character, the
 * path's number of '/' without a trailing slash, a value naming a
 * directory of the tree taken with its slash; N: a regex searched
 * anywhere; F: followed by a star and a slash, every path in a directory,
 * is the tree's root directory, cut once into its top-level directories),
 * a tree of the directories below each outermost directory pattern, counted with the tree's files and the window's commits, cut
 * where the rule says, then every record up to `until` counted into the
 * areas it touches.
 */
#include "activity.h"
#include "areas.h"
#include "ident.h"
#include "maintainers.h"
#include "tree.h"

#include <glib.h>
#include <string.h>

/* ---- patterns ---- */

enum pat_kind { PAT_DIR, PAT_FILE, PAT_GLOB, PAT_N };

struct pat {
	enum pat_kind kind;
	char key;                 /* 'F', 'X' or 'N' */
	char *value;              /* DIR: with its trailing slash */
	const char *written;      /* as the entry has it */
	size_t slashes;
	bool trailing;
	/* F:/X: the length of `value`, and of its start every path it
	 * matches starts with (up to a wildcard) */
	size_t len, lit;
	GRegex *re;               /* N: */
};

struct pats {
	GArray *all;              /* struct pat, in field order */
	size_t nr_n;              /* of which N: */
};

static size_t count_slashes(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* The first file of the sorted tree at or after `prefix`. */
static size_t tree_lower(const struct ms_tree *t, const char *prefix)
{
	size_t lo = 0, hi = ms_tree_nr_files(t);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ms_tree_path(t, mid), prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool tree_has_dir(const struct ms_tree *t, const char *dir_slash)
{
	size_t i = tree_lower(t, dir_slash);

	return i < ms_tree_nr_files(t) &&
	       g_str_has_prefix(ms_tree_path(t, i), dir_slash);
}

static void pats_compile(struct pats *ps, const struct maint_entry *me,
			 const struct ms_tree *tree)
{
	ps->all = g_array_new(FALSE, TRUE, sizeof(struct pat));
	for (size_t f = 0; f < me->nr_fields; f++) {
		const struct maint_field *fl = &me->fields[f];
		struct pat p = { 0 };
		const char *v = fl->value;

		if (fl->key != 'F' && fl->key != 'X' && fl->key != 'N')
			continue;
		if (!*v)
			continue;
		p.key = fl->key;
		p.written = v;
		if (fl->key == 'N') {
			p.kind = PAT_N;
			p.re = g_regex_new(v, G_REGEX_EXTENDED, 0, NULL);
			if (!p.re)
				continue;   /* the index reports it */
			p.value = g_strdup(v);
		} else if (fl->key == 'F' && !strcmp(v, "*/")) {
			/* the whole tree (THE REST): its top-level
			 * directories are its areas */
			p.kind = PAT_DIR;
			p.value = g_strdup("");
		} else if (strpbrk(v, "*?")) {
			p.kind = PAT_GLOB;
			p.value = g_strdup(v);
		} else if (g_str_has_suffix(v, "/")) {
			p.kind = PAT_DIR;
			p.value = g_strdup(v);
		} else {
			char *d = g_strconcat(v, "/", NULL);

			if (tree_has_dir(tree, d)) {
				p.kind = PAT_DIR;
				p.value = d;
			} else {
				p.kind = PAT_FILE;
				p.value = g_strdup(v);
				g_free(d);
			}
		}
		p.slashes = count_slashes(p.value);
		p.trailing = g_str_has_suffix(p.value, "/");
		p.len = strlen(p.value);
		ps->nr_n += p.kind == PAT_N;
		p.lit = p.kind == PAT_GLOB ? strcspn(p.value, "*?") :
			p.kind == PAT_N ? 0 : p.len;
		g_array_append_val(ps->all, p);
	}
}

static void pats_release(struct pats *ps)
{
	if (!ps->all)
		return;
	for (guint i = 0; i < ps->all->len; i++) {
		struct pat *p = &g_array_index(ps->all, struct pat, i);

		g_free(p->value);
		g_clear_pointer(&p->re, g_regex_unref);
	}
	g_array_free(ps->all, TRUE);
	ps->all = NULL;
}

static bool pat_match(const struct pat *p, const char *path)
{
	bool m;

	switch (p->kind) {
	case PAT_N:
		return g_regex_match(p->re, path, 0, NULL);
	case PAT_DIR:
		/* the root ("" from F: followed by a star and a slash) holds
		 * the paths in a directory */
		return g_str_has_prefix(path, p->value) &&
		       (*p->value || strchr(path, '/'));
	case PAT_FILE:
		m = g_str_has_prefix(path, p->value);
		break;
	default:
		m = maint_glob_prefix(p->value, path);
		break;
	}
	return m && (p->trailing || count_slashes(path) == p->slashes);
}

/*
 * The pattern of `ps` a path of the entry belongs to: the outermost
 * directory pattern holding it, else the first file pattern, else the
 * first N:; NULL when the entry does not match it (or an X: does).
 * `matched`: the index matched the entry to the path, so when no F:
 * pattern has it, an N: does: the only one is the answer, no regex run
 * (a twentieth of a warm U-Boot run).
 */
static const struct pat *pats_owner(const struct pats *ps, const char *path,
				    bool matched)
{
	const struct pat *dir = NULL, *file = NULL;

	/* the N: regexes (a tenth of a warm U-Boot run) only when no
	 * F: pattern has the path */
	for (guint i = 0; i < ps->all->len; i++) {
		const struct pat *p = &g_array_index(ps->all, struct pat, i);

		/* (most patterns fail on their literal start: compared
		 * first, without pat_match()'s two strlen()) */
		if (p->kind == PAT_N || (p->lit && (*path != *p->value ||
		    strncmp(path, p->value, p->lit))) || !pat_match(p, path))
			continue;
		if (p->key == 'X')
			return NULL;
		if (p->kind == PAT_DIR) {
			if (!dir || p->len < dir->len)
				dir = p;
		} else if (!file) {
			file = p;
		}
	}
	if (dir || file)
		return dir ? dir : file;
	for (guint i = 0; i < ps->all->len; i++) {
		const struct pat *p = &g_array_index(ps->all, struct pat, i);

		if (p->kind == PAT_N && matched && ps->nr_n == 1)
			return p;
	}
	for (guint i = 0; i < ps->all->len; i++) {
		const struct pat *p = &g_array_index(ps->all, struct pat, i);

		if (p->kind == PAT_N && pat_match(p, path))
			return p;
	}
	return NULL;
}

/* ---- the tree of an entry's directories ---- */

struct node {
	char *path;               /* "a/b/", "a/b/" and a star, a file pattern... */
	bool dir;
	struct node *parent;
	struct node *own;         /* dir: its own files, made on demand */
	GHashTable *kids;         /* dir: component -> struct node */
	size_t files, commits;
	size_t stamp;             /* the last record counted + 1 */
	int area;                 /* its index among the areas, or -1 */
};

static struct node *node_new(char *path, bool dir)
{
	struct node *n = g_new0(struct node, 1);

	n->path = path;
	n->dir = dir;
	n->area = -1;
	if (dir)
		n->kids = g_hash_table_new(g_str_hash, g_str_equal);
	return n;
}

static void node_free(struct node *n)
{
	GHashTableIter it;
	gpointer k, v;

	if (!n)
		return;
	if (n->kids) {
		g_hash_table_iter_init(&it, n->kids);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			g_free(k);
			node_free(v);
		}
		g_hash_table_destroy(n->kids);
	}
	node_free(n->own);
	g_free(n->path);
	g_free(n);
}

/* Per-person counts of an area in the window (work). */
struct pwork {
	struct ms_area_person out;
	size_t tagged;            /* any *-by: trailer */
};

/* An area's facts being counted over the window or one interval. */
struct aslot {
	GHashTable *people;       /* person + 1 -> struct pwork */
	GHashTable *covers;       /* entry index + 1 -> count */
	struct ms_area *out;
};

/* An area being counted. */
struct awork {
	struct node *node;
	size_t stamp;
	struct aslot *slots;      /* the window, then each interval */
};

/* One entry being counted. */
struct ework {
	const struct maint_entry *me;
	struct pats ps;
	GHashTable *roots;        /* pattern value -> struct node */
	GPtrArray *areas;         /* struct awork */
	struct ms_areas_entry *out;
	unsigned *listed;         /* the M:/R: people, resolved */
	size_t nr_listed;
	size_t stamp;             /* for the entry's commit count */
	size_t listed_rec;        /* the record + 1 naming a listed person */
	size_t nr_slots;          /* 1 + the query's intervals */
};

static struct node *root_of(struct ework *ew, const struct pat *p)
{
	struct node *n = g_hash_table_lookup(ew->roots, p->value);

	if (!n) {
		if (p->kind == PAT_N)
			n = node_new(g_strconcat("N: ", p->value, NULL),
				     false);
		else if (p->kind == PAT_DIR)
			n = node_new(g_strdup(p->value), true);
		else
			n = node_new(g_strdup(p->written), false);
		g_hash_table_insert(ew->roots, p->value, n);
	}
	return n;
}

/*
 * The deepest node path `path` (owned by pattern `p`) reaches: its
 * directory's own files, or its file pattern; made when `make`, else
 * the deepest that exists.
 */
static struct node *node_walk(struct ework *ew, const struct pat *p,
			      const char *path, bool make)
{
	struct node *n = root_of(ew, p);
	const char *rest;
	char comp[256];

	if (!n->dir)
		return n;
	rest = path + strlen(n->path);
	for (;;) {
		const char *slash = strchr(rest, '/');
		size_t len;
		struct node *k;

		if (!slash) {
			if (!n->own && make) {
				n->own = node_new(g_strconcat(n->path, "*",
							      NULL), false);
				n->own->parent = n;
			}
			return n->own ? n->own : n;
		}
		len = (size_t)(slash - rest);
		if (len >= sizeof(comp))
			return n;
		memcpy(comp, rest, len);
		comp[len] = '\0';
		k = g_hash_table_lookup(n->kids, comp);
		if (!k) {
			if (!make)
				return n;
			k = node_new(g_strndup(path, (gsize)(slash + 1 -
							     path)), true);
			k->parent = n;
			g_hash_table_insert(n->kids, g_strdup(comp), k);
		}
		n = k;
		rest = slash + 1;
	}
}

static struct node not_mine;

/*
 * A distinct path of the records (they are interned: one address per
 * text), asked about once: the index's entries and depths (`d`, as
 * ms_activity_match() answers) and, per entry j of `d`, its node_walk()
 * (NULL: not asked yet; &not_mine: the entry does not have the path).
 */
struct pinfo {
	const char *path;
	const uint32_t *d;
	struct node **leaf;
};

/* node_walk() of path `pi` for entry `ew`, the j-th of its answer, kept
 * from the first time it is asked (with `make` then); NULL when the
 * entry does not have the path. */
static struct node *leaf_of(struct ework *ew, struct pinfo *pi, uint32_t j,
			    bool make)
{
	struct node *n;
	const struct pat *p;

	if (!pi->leaf)
		pi->leaf = g_new0(struct node *, pi->d[0] ? pi->d[0] : 1);
	n = pi->leaf[j];
	if (n)
		return n == &not_mine ? NULL : n;
	p = pats_owner(&ew->ps, pi->path, true);
	n = p ? node_walk(ew, p, pi->path, make) : NULL;
	pi->leaf[j] = n ? n : &not_mine;
	return n;
}

/* Count node `n` and those above it: a file of the tree (rec 0) or a
 * path of record `rec` (+1) of the window. */
static void count_up(struct node *n, size_t rec)
{
	for (; n; n = n->parent) {
		if (!rec) {
			n->files++;
		} else if (n->stamp != rec) {
			n->stamp = rec;
			n->commits++;
		}
	}
}

/* A file of the tree into the entry's nodes (`matched`: as
 * pats_owner()). */
static void count_file(struct ework *ew, const char *path, bool matched)
{
	const struct pat *p = pats_owner(&ew->ps, path, matched);

	if (p)
		count_up(node_walk(ew, p, path, true), 0);
}

/* The files of the tree the entry has: those of each F: pattern's
 * range of the sorted tree; false when an N: or a pattern starting with
 * a wildcard can match anywhere (count_all_files() counts them). */
static bool count_files(struct ework *ew, const struct ms_tree *t)
{
	size_t nr = ms_tree_nr_files(t);
	bool all = false;
	bool *done;

	for (guint i = 0; i < ew->ps.all->len; i++) {
		const struct pat *p = &g_array_index(ew->ps.all, struct pat,
						     i);

		all = all || p->key == 'N' || (p->key == 'F' &&
		      (!*p->value || strchr("*?", p->value[0])));
	}
	if (all)
		return false;
	done = g_new0(bool, nr ? nr : 1);
	for (guint i = 0; i < ew->ps.all->len; i++) {
		const struct pat *p = &g_array_index(ew->ps.all, struct pat,
						     i);
		char *prefix;

		if (p->key != 'F')
			continue;
		prefix = g_strndup(p->value, strcspn(p->value, "*?"));
		for (size_t k = tree_lower(t, prefix); k < nr &&
		     g_str_has_prefix(ms_tree_path(t, k), prefix); k++) {
			if (!done[k])
				count_file(ew, ms_tree_path(t, k), false);
			done[k] = true;
		}
		g_free(prefix);
	}
	g_free(done);
	return true;
}

static size_t live_parts(const struct node *n)
{
	GHashTableIter it;
	gpointer v;
	size_t k = n->own && n->own->commits;

	g_hash_table_iter_init(&it, n->kids);
	while (g_hash_table_iter_next(&it, NULL, &v))
		k += ((struct node *)v)->commits > 0;
	return k;
}

static void add_area(struct ework *ew, struct node *n)
{
	struct awork *aw = g_new0(struct awork, 1);

	aw->node = n;
	aw->slots = g_new0(struct aslot, ew->nr_slots);
	for (size_t k = 0; k < ew->nr_slots; k++) {
		aw->slots[k].people = g_hash_table_new_full(NULL, NULL, NULL,
							    g_free);
		aw->slots[k].covers = g_hash_table_new(NULL, NULL);
	}
	n->area = (int)ew->areas->len;
	g_ptr_array_add(ew->areas, aw);
}

static int cmp_node_path(const void *x, const void *y)
{
	const struct node *a = *(struct node *const *)x;
	const struct node *b = *(struct node *const *)y;

	return strcmp(a->path, b->path);
}

/* Choose the areas below `n`: cut while the rule says so. */
static void choose(struct ework *ew, struct node *n, size_t min_commits)
{
	GPtrArray *kids;
	GHashTableIter it;
	gpointer v;

	if (!n->dir || n->commits < min_commits || live_parts(n) < 2 ||
	    (n->parent && !*n->parent->path)) {
		/* (a top-level directory of the whole tree is not cut) */
		add_area(ew, n);
		return;
	}
	kids = g_ptr_array_new();
	g_hash_table_iter_init(&it, n->kids);
	/* the whole tree's top-level directories with no file in the
	 * tree are no areas: the paths of a subtree's own history, merged
	 * in (U-Boot's dts/upstream and mbedtls: src/, Bindings/,
	 * library/...), or a directory gone */
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (((struct node *)v)->files ||
		    (((struct node *)v)->commits && *n->path))
			g_ptr_array_add(kids, v);
	g_ptr_array_sort(kids, cmp_node_path);
	for (guint i = 0; i < kids->len; i++)
		choose(ew, kids->pdata[i], min_commits);
	if (n->own && (n->own->files || n->own->commits))
		add_area(ew, n->own);
	g_ptr_array_free(kids, TRUE);
}

/* The area of path `pi` (entry j of its answer), or NULL (a directory
 * no area is). */
static struct awork *area_of(struct ework *ew, struct pinfo *pi, uint32_t j)
{
	struct node *n = leaf_of(ew, pi, j, false);

	for (; n; n = n->parent)
		if (n->area >= 0)
			return ew->areas->pdata[n->area];
	return NULL;
}

/* ---- counting the records into the areas ---- */

struct cover {
	size_t count, stamp;
	bool inner;
};

/* The entries of one kind (those `want` holds) that list people in a
 * field of `keys` (listing_of()). */
struct listing {
	bool (*want)(const struct maint_entry *me);
	const char *keys;
	GHashTable *t;
};

/* What the whole query shares. */
struct qwork {
	const struct ms_activity *a;
	struct ms_ident *ident;
	size_t nr_all;
	size_t nr_intervals;      /* of the query */
	int64_t since, until;     /* the window, and its intervals' */
	const int64_t *bounds;
	unsigned **entry_people;  /* per entry index: its M:/R: ids, lazily */
	size_t *nr_entry_people;
	/* the entries with a T: line listing people as M: (areas.h's
	 * custodian_of), and those naming no file that list them */
	struct listing custodians, whole;
	size_t defacto_min;       /* the evidence MS_AREA_DEFACTO needs */
	/* the records' paths, each distinct one a struct pinfo (`pinfo`,
	 * by the id `ids` gives its address); per path of a record (the
	 * k-th of record i at occ[occ_off[i] + k]) its id + 1, 0 until
	 * asked */
	GHashTable *ids;
	GArray *pinfo;
	uint32_t *occ;
	size_t *occ_off;
};

/* The k-th path `path` of record `i`. */
static struct pinfo *pinfo_of(struct qwork *qw, size_t i, size_t k,
			      const char *path)
{
	uint32_t *o = &qw->occ[qw->occ_off[i] + k];

	if (!*o) {
		gpointer v = g_hash_table_lookup(qw->ids, path);

		if (!v) {
			struct pinfo pi = { path,
				ms_activity_match(qw->a, path), NULL };

			g_array_append_val(qw->pinfo, pi);
			v = GUINT_TO_POINTER(qw->pinfo->len);
			g_hash_table_insert(qw->ids, (gpointer)path, v);
		}
		*o = GPOINTER_TO_UINT(v);
	}
	return &g_array_index(qw->pinfo, struct pinfo, *o - 1);
}

/* The path table of `cp`'s records (qwork's ids ... occ_off). */
static void paths_init(struct qwork *qw, const struct ms_commit_paths *cp)
{
	size_t nr = ms_activity_nr_commits(qw->a), total = 0;

	qw->occ_off = g_new(size_t, nr + 1);
	for (size_t i = 0; i < nr; i++) {
		size_t n;

		ms_commit_paths_get(cp, i, &n);
		qw->occ_off[i] = total;
		total += n;
	}
	qw->occ_off[nr] = total;
	qw->occ = g_new0(uint32_t, total + 1);
	qw->ids = g_hash_table_new(NULL, NULL);
	qw->pinfo = g_array_new(FALSE, FALSE, sizeof(struct pinfo));
}

static void paths_release(struct qwork *qw)
{
	for (guint i = 0; i < qw->pinfo->len; i++)
		g_free(g_array_index(qw->pinfo, struct pinfo, i).leaf);
	g_array_free(qw->pinfo, TRUE);
	g_hash_table_destroy(qw->ids);
	g_free(qw->occ);
	g_free(qw->occ_off);
}

static void resolve_listed(struct ms_ident *ident,
			   const struct maint_entry *me, unsigned **out,
			   size_t *nr)
{
	*out = g_new(unsigned, me->nr_fields ? me->nr_fields : 1);
	*nr = 0;
	for (size_t f = 0; f < me->nr_fields; f++) {
		char *name = NULL, *email = NULL;

		if (me->fields[f].key != 'M' && me->fields[f].key != 'R')
			continue;
		maint_parse_person(me->fields[f].value, &name, &email);
		(*out)[(*nr)++] = ms_ident_resolve(ident, name, email);
		g_free(name);
		g_free(email);
	}
}

/* Whether entry `me` keeps a tree (T:). */
static bool has_tree(const struct maint_entry *me)
{
	for (size_t f = 0; f < me->nr_fields; f++)
		if (me->fields[f].key == 'T')
			return true;
	return false;
}

/* Whether entry `me` names no file: no F:, N: or K: line (rdma-core's
 * "* OVERALL PACKAGE"). */
static bool names_no_file(const struct maint_entry *me)
{
	for (size_t f = 0; f < me->nr_fields; f++)
		if (strchr("FNK", me->fields[f].key))
			return false;
	return true;
}

/* The name of the first entry of `a` that `l->want` holds and that
 * lists person `p` in a field of `l->keys`, or NULL; l->t (person + 1
 * -> entry name) is made on first use. */
static const char *listing_of(const struct ms_activity *a,
			      struct listing *l, unsigned p)
{
	const struct maint_file *mf = ms_activity_maintainers(a);
	size_t i = l->t ? 0 : maint_file_nr_entries(mf);

	if (!l->t)
		l->t = g_hash_table_new(NULL, NULL);
	while (i-- > 0) {
		const struct maint_entry *me = maint_file_entry(mf, i);

		for (size_t f = 0; f < me->nr_fields && l->want(me); f++) {
			char *name = NULL, *email = NULL;
			unsigned id;

			if (!strchr(l->keys, me->fields[f].key))
				continue;
			maint_parse_person(me->fields[f].value, &name, &email);
			id = ms_ident_resolve(ms_activity_ident(a), name,
					      email);
			if (id != MS_IDENT_NONE)
				g_hash_table_insert(l->t,
						    GUINT_TO_POINTER(id + 1),
						    (gpointer)me->name);
			g_free(name);
			g_free(email);
		}
	}
	return p == MS_IDENT_NONE ? NULL :
	       g_hash_table_lookup(l->t, GUINT_TO_POINTER(p + 1));
}

static bool lists(struct qwork *qw, size_t entry, unsigned person)
{
	if (!qw->entry_people[entry])
		resolve_listed(qw->ident, maint_file_entry(
				       ms_activity_maintainers(qw->a), entry),
			       &qw->entry_people[entry],
			       &qw->nr_entry_people[entry]);
	for (size_t i = 0; i < qw->nr_entry_people[entry]; i++)
		if (qw->entry_people[entry][i] == person)
			return true;
	return false;
}

/* The tree's files into the entries of `ew` (slot: entry index -> its
 * place in `ew`) whose count_files() could not take ranges: each file
 * into the entries that match it (the index's answer), not every file
 * into each entry. */
static void count_all_files(struct qwork *qw, struct ework *ew,
			    const int *slot, const bool *all,
			    const struct ms_tree *t)
{
	for (size_t i = 0; i < ms_tree_nr_files(t); i++) {
		const char *path = ms_tree_path(t, i);
		const uint32_t *d = ms_activity_match(qw->a, path);

		for (uint32_t j = 0; j < d[0]; j++) {
			size_t x = d[1 + j];

			if (x < qw->nr_all && slot[x] >= 0 && all[slot[x]])
				count_file(&ew[slot[x]], path, true);
		}
	}
}

/* Count, for record `rec` (+1), the other entries of `d` (a path's):
 * they cover these files too, from inside (deeper patterns) or
 * outside. */
static void note_covers(struct ework *ew, struct aslot *aw,
			const uint32_t *d, size_t rec)
{
	const int32_t *depth = (const int32_t *)d + 1 + d[0];
	int mine = 0;
	bool found = false;

	/* THE REST's '*' patterns are -1 deep, N: 0 */
	for (uint32_t i = 0; i < d[0]; i++)
		if (d[1 + i] == ew->me->index) {
			mine = depth[i];
			found = true;
		}
	if (!found)
		return;
	for (uint32_t i = 0; i < d[0]; i++) {
		gpointer k = GUINT_TO_POINTER(d[1 + i] + 1);
		struct cover *c;

		if (d[1 + i] == ew->me->index)
			continue;
		c = g_hash_table_lookup(aw->covers, k);
		if (!c) {
			c = g_new0(struct cover, 1);
			g_hash_table_insert(aw->covers, k, c);
		}
		if (c->stamp != rec) {
			c->stamp = rec;
			c->count++;
		}
		/* inner: a deeper pattern, or an N: keyword (depth 0, as
		 * get_maintainer.pl ranks it, even when the entry's F: line
		 * is deeper: ARM VERSAL's N: follows its F:
		 * arch/arm/mach-versal/), which names a part of the tree
		 * more narrowly than any directory pattern */
		c->inner = c->inner || depth[i] > mine ||
			   (depth[i] == 0 && mine > 0);
	}
}

static struct pwork *pw_of(const struct qwork *qw, struct aslot *aw,
			   unsigned person)
{
	gpointer k = GUINT_TO_POINTER(person + 1);
	struct pwork *pw = g_hash_table_lookup(aw->people, k);

	if (!pw) {
		pw = g_new0(struct pwork, 1);
		pw->out.person = person;
		pw->out.name = ms_ident_name(qw->ident, person);
		pw->out.email = ms_ident_email(qw->ident, person);
		g_hash_table_insert(aw->people, k, pw);
	}
	return pw;
}

static void last_bump(struct ms_act_last *l, int64_t t, const char *id,
		      bool inwin)
{
	if (!l->set || t > l->time) {
		l->set = true;
		l->time = t;
		memcpy(l->id, id, 41);
	}
	if (inwin)
		l->count++;
}

/* Person `p` took part in record `r` (window): note the date and keep
 * the record as an example. */
static void involved(struct pwork *pw, const struct ms_act_record *r,
		     bool example)
{
	if (!pw->tagged++ || r->ctime > pw->out.last)
		pw->out.last = r->ctime;
	if (example && pw->out.nr_examples < MS_AREAS_EXAMPLES &&
	    (!pw->out.nr_examples ||
	     strcmp(pw->out.examples[pw->out.nr_examples - 1], r->id)))
		memcpy(pw->out.examples[pw->out.nr_examples++], r->id, 41);
}

/* Record `r` counts in what the de-facto rule weighs of `pw`. */
static void weighed_last(struct pwork *pw, const struct ms_act_record *r)
{
	if (r->ctime > pw->out.focused_last)
		pw->out.focused_last = r->ctime;
}

/* Whether a tag of record `r` (index i) names `person`. */
static bool tagged(const struct qwork *qw, size_t i,
		   const struct ms_act_record *r, unsigned person)
{
	for (size_t t = 0; t < r->nr_tags; t++) {
		unsigned who;
		const char *token;
		bool review;

		ms_activity_record_tag(qw->a, i, t, &who, &token, &review);
		if (who == person)
			return true;
	}
	return false;
}

static void note_listed(const struct qwork *qw, struct ework *ew,
			struct aslot *aw, size_t rec,
			const struct ms_act_record *r, bool inwin)
{
	struct ms_area *o = aw->out;

	for (size_t l = 0; l < ew->nr_listed; l++) {
		struct ms_area_listed *p = &o->listed[l];

		if (p->person == MS_IDENT_NONE)
			continue;
		if (r->author == p->person)
			last_bump(&p->author, r->atime, r->id, inwin);
		if (r->committer == p->person)
			last_bump(&p->committer, r->ctime, r->id, inwin);
		if (tagged(qw, rec, r, p->person))
			last_bump(&p->tags, r->ctime, r->id, inwin);
	}
}

static void note_record(struct qwork *qw, struct ework *ew,
			struct aslot *aw, size_t rec,
			const struct ms_act_record *r, bool inwin)
{
	struct ms_area *o = aw->out;
	bool focused = r->nr_entries <= MS_AREAS_TREEWIDE;
	/* applied by a custodian, written by another (areas.h) */
	const char *tree = r->applier != r->author ?
		listing_of(qw->a, &qw->custodians, r->applier) : NULL;
	bool custodial = focused && tree;

	if (!o->has_last_commit || r->ctime > o->last_commit) {
		o->has_last_commit = true;
		o->last_commit = r->ctime;
	}
	note_listed(qw, ew, aw, rec, r, inwin);
	if (!inwin)
		return;
	o->commits++;
	o->reviewed += r->reviewed;
	o->focused += focused;
	o->focused_reviewed += focused && r->reviewed;
	if (r->author != MS_IDENT_NONE) {
		pw_of(qw, aw, r->author)->out.authored++;
		pw_of(qw, aw, r->author)->out.focused_authored += focused;
		involved(pw_of(qw, aw, r->author), r, false);
		if (focused)
			weighed_last(pw_of(qw, aw, r->author), r);
	}
	if (r->applier != MS_IDENT_NONE) {
		struct pwork *pw = pw_of(qw, aw, r->applier);

		pw->out.committed++;
		pw->out.focused_committed += focused && !custodial;
		pw->out.custodial += custodial;
		if (custodial)
			pw->out.custodian_of = tree;
		/* examples: commits the de-facto rule weighs */
		involved(pw, r, focused && !custodial);
		if (focused && !custodial)
			weighed_last(pw, r);
	}
	if (r->committer != MS_IDENT_NONE && r->committer != r->applier)
		involved(pw_of(qw, aw, r->committer), r, false);
	for (size_t t = 0; t < r->nr_tags; t++) {
		unsigned who;
		const char *token;
		bool review, dup = false;

		ms_activity_record_tag(qw->a, rec, t, &who, &token, &review);
		for (size_t u = 0; u < t && review && !dup; u++) {
			unsigned w2;
			const char *t2;
			bool r2;

			ms_activity_record_tag(qw->a, rec, u, &w2, &t2, &r2);
			dup = r2 && w2 == who;
		}
		if (review && who != r->author && !dup) {
			bool weighed = focused &&
				!(custodial && who == r->applier);

			pw_of(qw, aw, who)->out.reviewed++;
			pw_of(qw, aw, who)->out.focused_reviewed += weighed;
			involved(pw_of(qw, aw, who), r, weighed);
			if (weighed)
				weighed_last(pw_of(qw, aw, who), r);
		} else {
			involved(pw_of(qw, aw, who), r, false);
		}
	}
}

/* ---- the answer ---- */

static int cmp_person(const void *x, const void *y)
{
	const struct ms_area_person *a = x, *b = y;
	size_t ta = a->authored + a->committed + a->reviewed;
	size_t tb = b->authored + b->committed + b->reviewed;
	int c;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	c = strcmp(a->email, b->email);
	return c ? c : strcmp(a->name, b->name);
}

static int cmp_cover(const void *x, const void *y)
{
	const struct ms_area_cover *a = x, *b = y;

	if (a->inner != b->inner)
		return a->inner ? -1 : 1;
	if (a->commits != b->commits)
		return a->commits > b->commits ? -1 : 1;
	return a->entry->index < b->entry->index ? -1 :
	       a->entry->index > b->entry->index;
}

static void finish_covers(struct qwork *qw, struct aslot *aw)
{
	const struct maint_file *mf = ms_activity_maintainers(qw->a);
	struct ms_area *o = aw->out;
	GHashTableIter it;
	gpointer k, v;

	o->covers = g_new0(struct ms_area_cover,
			   g_hash_table_size(aw->covers) + 1);
	g_hash_table_iter_init(&it, aw->covers);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct ms_area_cover *c = &o->covers[o->nr_covers++];

		c->entry = maint_file_entry(mf, (size_t)GPOINTER_TO_INT(k) - 1);
		c->commits = ((struct cover *)v)->count;
		c->inner = ((struct cover *)v)->inner;
		g_free(v);
	}
	g_hash_table_destroy(aw->covers);
	aw->covers = NULL;
	qsort(o->covers, o->nr_covers, sizeof(*o->covers), cmp_cover);
}

/* The de-facto rule (areas.h's MS_AREA_DEFACTO) on the counts of `p`
 * in area `o`, what it does not weigh set aside already: at least `min`
 * commits applied and half of the area's, or at least `min` review tags,
 * half of all the area's and on a quarter of its commits.  Sets p's
 * defacto_committer and defacto_reviewer; true when either holds. */
static bool defacto(const struct ms_area *o, struct ms_area_person *p,
		    size_t min)
{
	p->defacto_committer = p->focused_committed >= min &&
			       2 * p->focused_committed >= o->focused;
	p->defacto_reviewer = p->focused_reviewed >= min &&
			      2 * p->focused_reviewed >= o->focused_reviewed &&
			      4 * p->focused_reviewed >= o->focused;
	return p->defacto_committer || p->defacto_reviewer;
}

/* Who the area's people are to the entry, the flags and the top. */
static void finish_area(struct qwork *qw, struct ework *ew, struct aslot *aw,
			size_t files, size_t slot)
{
	/* de-facto is what someone does now: in the last
	 * MS_AREAS_RECENT_YEARS of the window (slot 0) or interval */
	int64_t recent = ms_act_date_shift(slot ? qw->bounds[slot] :
					   qw->until,
					   -MS_AREAS_RECENT_YEARS);
	struct ms_area *o = aw->out;
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct ms_area_person));
	GHashTableIter it;
	gpointer v;
	bool attended = false;
	size_t keep;

	finish_covers(qw, aw);
	g_hash_table_iter_init(&it, aw->people);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const struct pwork *pw = v;
		struct ms_area_person p = pw->out;

		for (size_t l = 0; l < ew->nr_listed && !p.listed; l++)
			p.listed = ew->listed[l] == p.person;
		for (size_t c = 0; c < o->nr_covers && !p.listed &&
		     !p.listed_in; c++)
			if (lists(qw, o->covers[c].entry->index, p.person))
				p.listed_in = o->covers[c].entry->name;
		for (size_t c = 0; c < o->nr_covers && !p.listed &&
		     p.listed_in; c++)
			if (p.listed_in == o->covers[c].entry->name)
				attended = attended || o->covers[c].inner;
		attended = attended || p.listed;
		if (!p.listed && !p.listed_in)
			p.listed_in = listing_of(qw->a, &qw->whole, p.person);
		/* (no one looks after files the tree no longer has; a
		 * custodian whose tree carries the area's patches is its
		 * maintainer already) */
		if (!p.listed && !p.listed_in && files && !p.custodial &&
		    p.focused_last >= recent &&
		    defacto(o, &p, qw->defacto_min)) {
			p.listed_then = ms_activity_listed_during(qw->a,
					ew->me, p.person, qw->since,
					qw->until) == 1;
			if (p.listed_then)
				p.defacto_committer = p.defacto_reviewer =
					false;
			else
				o->flags |= MS_AREA_DEFACTO;
		}
		g_array_append_val(all, p);
	}
	g_hash_table_destroy(aw->people);
	aw->people = NULL;
	if (!o->commits)
		o->flags |= MS_AREA_DORMANT;
	else if (!attended)
		o->flags |= MS_AREA_UNATTENDED;
	g_array_sort(all, cmp_person);
	/* the top, and any de-facto person below it */
	keep = 0;
	for (guint i = 0; i < all->len; i++) {
		struct ms_area_person *p = &g_array_index(all,
			struct ms_area_person, i);

		if (keep < MS_AREAS_TOP || ms_area_defacto(p))
			g_array_index(all, struct ms_area_person, keep++) = *p;
	}
	o->nr_top = keep;
	o->top = (struct ms_area_person *)g_array_free(all, FALSE);
}

static int cmp_area(const void *x, const void *y)
{
	const struct ms_area *a = x, *b = y;

	if (a->commits != b->commits)
		return a->commits > b->commits ? -1 : 1;
	return strcmp(a->path, b->path);
}

static void ework_init(struct qwork *qw, struct ework *ew,
		       const struct maint_entry *me, struct ms_areas_entry *out)
{
	ew->me = me;
	ew->out = out;
	ew->nr_slots = 1 + qw->nr_intervals;
	out->entry = me;
	pats_compile(&ew->ps, me, ms_activity_tree(qw->a));
	for (guint i = 0; i < ew->ps.all->len; i++)
		out->whole_tree = out->whole_tree ||
			!*g_array_index(ew->ps.all, struct pat, i).value;
	ew->roots = g_hash_table_new(g_str_hash, g_str_equal);
	ew->areas = g_ptr_array_new();
	resolve_listed(qw->ident, me, &ew->listed, &ew->nr_listed);
}

/* An area's answer, with the entry's listed people: of node `n`, or
 * of an interval (no path). */
static struct ms_area *area_new(const struct ework *ew, const struct node *n)
{
	struct ms_area *o = g_new0(struct ms_area, 1);
	size_t l = 0;

	if (n) {
		o->path = g_strdup(*n->path ? n->path : "*/");
		o->files = n->files;
	}
	o->listed = g_new0(struct ms_area_listed,
			   ew->nr_listed ? ew->nr_listed : 1);
	for (size_t f = 0; f < ew->me->nr_fields; f++) {
		const struct maint_field *fl = &ew->me->fields[f];
		struct ms_area_listed *p;

		if (fl->key != 'M' && fl->key != 'R')
			continue;
		p = &o->listed[l];
		p->role = fl->key;
		maint_parse_person(fl->value, &p->name, &p->email);
		if (!p->name)
			p->name = g_strdup("");
		if (!p->email)
			p->email = g_strdup("");
		p->person = ew->listed[l++];
	}
	o->nr_listed = l;
	return o;
}

/* Make the areas' answers, with the entry's listed people in each. */
static void ework_areas(struct ework *ew, size_t min_commits)
{
	GPtrArray *roots = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, ew->roots);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(roots, v);
	g_ptr_array_sort(roots, cmp_node_path);
	for (guint i = 0; i < roots->len; i++)
		choose(ew, roots->pdata[i], min_commits);
	g_ptr_array_free(roots, TRUE);
	for (guint i = 0; i < ew->areas->len; i++) {
		struct awork *aw = ew->areas->pdata[i];

		for (size_t k = 0; k < ew->nr_slots; k++)
			aw->slots[k].out = area_new(ew, k ? NULL : aw->node);
	}
}

static void ework_release(struct qwork *qw, struct ework *ew)
{
	struct ms_areas_entry *out = ew->out;
	GHashTableIter it;
	gpointer v;

	out->areas = g_new0(struct ms_area, ew->areas->len + 1);
	for (guint i = 0; i < ew->areas->len; i++) {
		struct awork *aw = ew->areas->pdata[i];
		struct ms_area *o = &out->areas[out->nr_areas++];

		for (size_t k = 0; k < ew->nr_slots; k++)
			finish_area(qw, ew, &aw->slots[k], aw->node->files, k);
		*o = *aw->slots[0].out;
		g_free(aw->slots[0].out);
		o->nr_intervals = ew->nr_slots - 1;
		o->intervals = o->nr_intervals ?
			g_new0(struct ms_area, o->nr_intervals) : NULL;
		for (size_t k = 1; k < ew->nr_slots; k++) {
			o->intervals[k - 1] = *aw->slots[k].out;
			g_free(aw->slots[k].out);
		}
		g_free(aw->slots);
		g_free(aw);
	}
	qsort(out->areas, out->nr_areas, sizeof(*out->areas), cmp_area);
	g_ptr_array_free(ew->areas, TRUE);
	g_hash_table_iter_init(&it, ew->roots);
	while (g_hash_table_iter_next(&it, NULL, &v))
		node_free(v);
	g_hash_table_destroy(ew->roots);
	pats_release(&ew->ps);
	g_free(ew->listed);
}

/* Whether record `r` (index i) names a person entry `ew` lists. */
static bool names_listed(const struct qwork *qw, const struct ework *ew,
			 size_t i, const struct ms_act_record *r)
{
	for (size_t l = 0; l < ew->nr_listed; l++) {
		unsigned p = ew->listed[l];

		if (p == MS_IDENT_NONE)
			continue;
		if (r->author == p || r->committer == p ||
		    tagged(qw, i, r, p))
			return true;
	}
	return false;
}

/* Path `pi` of record `i` into entry `e`, the j-th of the path's
 * answer: its directory tree (pass 1, the window's records) or, the
 * areas chosen, its area (pass 2). */
static void count_path(struct qwork *qw, struct ework *e, size_t i,
		       const struct ms_act_record *r, int w, size_t iv,
		       struct pinfo *pi, uint32_t j, bool pass2)
{
	struct awork *aw;

	if (!pass2) {
		struct node *n = leaf_of(e, pi, j, true);

		if (n)
			count_up(n, i + 1);
		return;
	}
	aw = area_of(e, pi, j);
	if (!aw)
		return;
	if (w)
		note_covers(e, &aw->slots[0], pi->d, i + 1);
	if (iv)
		note_covers(e, &aw->slots[iv], pi->d, i + 1);
	if (aw->stamp == i + 1)
		return;
	aw->stamp = i + 1;
	note_record(qw, e, &aw->slots[0], i, r, w);
	if (iv)
		note_record(qw, e, &aw->slots[iv], i, r, true);
}

/* The slot of a record of the window committed at `t`: 1 + its interval
 * (a record of the window dated before it, with --since REV: the
 * first), or 0 without intervals. */
static size_t slot_of(const struct ms_areas_query *q, int64_t t)
{
	size_t lo = 0, hi = q->nr_intervals;

	if (!q->nr_intervals)
		return 0;
	/* the last interval starting at or before t */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->bounds[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

/* The window's records into the directory trees (pass 1) or, the areas
 * chosen, every record up to `until` into the areas (pass 2). */
static void count_records(struct qwork *qw, struct ework *ew,
			  const int *slot, const struct ms_commit_paths *cp,
			  const struct ms_areas_query *q, bool pass2)
{
	size_t nr = ms_activity_nr_commits(qw->a);

	for (size_t i = 0; i < nr; i++) {
		int w = ms_activity_record_window(qw->a, i, q->since,
						  q->until);
		struct ms_act_record r;
		const char *const *paths;
		size_t np, iv;
		bool listed = false;

		if (w < 0 || (!pass2 && !w))
			continue;
		ms_activity_record(qw->a, i, &r);
		iv = w ? slot_of(q, r.ctime) : 0;
		paths = ms_commit_paths_get(cp, i, &np);
		for (size_t k = 0; k < r.nr_entries && (!pass2 || !w); k++) {
			struct ework *e;

			if (r.entries[k] >= qw->nr_all || slot[r.entries[k]] < 0)
				continue;
			e = &ew[slot[r.entries[k]]];
			if (!pass2) {
				e->out->commits++;
				continue;
			}
			/* before the window, only the listed people's last
			 * dates are wanted: no covers */
			if (names_listed(qw, e, i, &r)) {
				e->listed_rec = i + 1;
				listed = true;
			}
		}
		/* each path into the selected entries that match it (the
		 * index's answer, kept per path), not every path into every
		 * entry of the record: a tree-wide commit touches hundreds */
		for (size_t p = 0; p < np && (w || listed); p++) {
			struct pinfo *pi = pinfo_of(qw, i, p, paths[p]);
			const uint32_t *d = pi->d;

			for (uint32_t j = 0; j < d[0]; j++) {
				size_t x = d[1 + j];

				if (x < qw->nr_all && slot[x] >= 0 &&
				    (w || ew[slot[x]].listed_rec == i + 1))
					count_path(qw, &ew[slot[x]], i, &r, w,
						   iv, pi, j, pass2);
			}
		}
	}
}

int ms_areas_compute(const struct ms_activity *a,
		     const struct ms_commit_paths *cp,
		     const struct ms_areas_query *q, struct ms_areas **out)
{
	const struct maint_file *mf = ms_activity_maintainers(a);
	struct qwork qw = { 0 };
	struct ms_areas *r = g_new0(struct ms_areas, 1);
	struct ework *ew;
	int *slot;
	bool *all, any_all = false;
	size_t n;

	qw.a = a;
	qw.custodians = (struct listing){ has_tree, "M", NULL };
	qw.whole = (struct listing){ names_no_file, "MR", NULL };
	qw.ident = ms_activity_ident(a);
	qw.nr_all = maint_file_nr_entries(mf);
	qw.nr_intervals = q->bounds ? q->nr_intervals : 0;
	qw.since = q->since;
	qw.until = q->until;
	qw.bounds = q->bounds;
	qw.defacto_min = MAX(MS_AREAS_DEFACTO_MIN, q->min_commits / 2);
	qw.entry_people = g_new0(unsigned *, qw.nr_all + 1);
	qw.nr_entry_people = g_new0(size_t, qw.nr_all + 1);
	n = q->entries ? q->nr_entries : qw.nr_all;
	r->entries = g_new0(struct ms_areas_entry, n + 1);
	r->nr_entries = n;
	ew = g_new0(struct ework, n + 1);
	all = g_new0(bool, n + 1);
	slot = g_new(int, qw.nr_all + 1);
	for (size_t i = 0; i < qw.nr_all; i++)
		slot[i] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct maint_entry *me = q->entries ? q->entries[i] :
			maint_file_entry(mf, i);

		ework_init(&qw, &ew[i], me, &r->entries[i]);
		slot[me->index] = (int)i;
		all[i] = !count_files(&ew[i], ms_activity_tree(a));
		any_all = any_all || all[i];
	}
	if (any_all)
		count_all_files(&qw, ew, slot, all, ms_activity_tree(a));
	g_free(all);
	paths_init(&qw, cp);
	count_records(&qw, ew, slot, cp, q, false);
	for (size_t i = 0; i < n; i++)
		ework_areas(&ew[i], q->min_commits);
	count_records(&qw, ew, slot, cp, q, true);
	for (size_t i = 0; i < n; i++)
		ework_release(&qw, &ew[i]);
	for (size_t i = 0; i < qw.nr_all; i++)
		g_free(qw.entry_people[i]);
	g_free(qw.entry_people);
	g_free(qw.nr_entry_people);
	g_clear_pointer(&qw.custodians.t, g_hash_table_destroy);
	g_clear_pointer(&qw.whole.t, g_hash_table_destroy);
	paths_release(&qw);
	g_free(ew);
	g_free(slot);
	*out = r;
	return 0;
}

static void area_release(struct ms_area *o)
{
	for (size_t l = 0; l < o->nr_listed; l++) {
		g_free(o->listed[l].name);
		g_free(o->listed[l].email);
	}
	g_free(o->listed);
	g_free(o->top);
	g_free(o->covers);
	g_free(o->path);
	for (size_t k = 0; k < o->nr_intervals; k++)
		area_release(&o->intervals[k]);
	g_free(o->intervals);
}

const char *ms_areas_listed_in(const struct ms_activity *a,
			       const struct ms_areas_entry *e,
			       unsigned person)
{
	struct ms_ident *id = ms_activity_ident(a);
	struct listing whole = { names_no_file, "MR", NULL };
	const char *name;

	for (size_t k = 0; k < e->nr_areas; k++)
		for (size_t c = 0; c < e->areas[k].nr_covers; c++) {
			const struct maint_entry *me =
				e->areas[k].covers[c].entry;
			unsigned *who;
			size_t nr;
			bool found = false;

			resolve_listed(id, me, &who, &nr);
			for (size_t i = 0; i < nr && !found; i++)
				found = who[i] == person;
			g_free(who);
			if (found)
				return me->name;
		}
	name = listing_of(a, &whole, person);
	g_hash_table_destroy(whole.t);
	return name;
}

void ms_areas_free(struct ms_areas *r)
{
	if (!r)
		return;
	for (size_t e = 0; e < r->nr_entries; e++) {
		struct ms_areas_entry *en = &r->entries[e];

		for (size_t i = 0; i < en->nr_areas; i++)
			area_release(&en->areas[i]);
		g_free(en->areas);
	}
	g_free(r->entries);
	g_free(r);
}

const char *ms_area_flag_name(enum ms_area_flag f)
{
	switch (f) {
	case MS_AREA_UNATTENDED:
		return "unattended";
	case MS_AREA_DEFACTO:
		return "de-facto";
	case MS_AREA_DORMANT:
		return "dormant";
	}
	return "";
}

enum ms_area_standing ms_area_standing(const struct ms_area_person *p)
{
	if (p->listed)
		return MS_AREA_LISTED;
	if (p->listed_in)
		return MS_AREA_LISTED_ELSEWHERE;
	if (p->custodial)
		return MS_AREA_CUSTODIAN;
	return p->listed_then ? MS_AREA_LISTED_THEN : MS_AREA_UNLISTED;
}

const char *ms_area_defacto(const struct ms_area_person *p)
{
	if (p->defacto_committer)
		return p->defacto_reviewer ? "committer and reviewer" :
			"committer";
	return p->defacto_reviewer ? "reviewer" : NULL;
}
