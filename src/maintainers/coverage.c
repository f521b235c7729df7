#include "coverage.h"
#include "maintainers.h"
#include "tree.h"
#include "workers.h"

#include <glib.h>
#include <string.h>

struct match_job {
	const struct maint_index *idx;
	const struct ms_tree *tree;
	size_t begin, end;
	/* per file: offset into `ids`, count */
	guint32 *start, *count;
	GArray *ids;        /* entry indices of every match, file by file */
	unsigned char *marks; /* patterns that matched some file */
};

static gpointer match_range(gpointer data)
{
	struct match_job *j = data;
	struct maint_match local[256];

	j->ids = g_array_new(FALSE, FALSE, sizeof(guint32));
	j->marks = g_new0(unsigned char, maint_index_nr_patterns(j->idx) + 1);
	for (size_t i = j->begin; i < j->end; i++) {
		const char *path = ms_tree_path(j->tree, i);
		struct maint_match *m = local;
		size_t n = maint_index_match_marks(j->idx, path, local, 256,
						   j->marks);

		if (n > 256) {
			m = g_new(struct maint_match, n);
			maint_index_match_depth(j->idx, path, m, n);
		}
		j->start[i] = j->ids->len;
		j->count[i] = (guint32)n;
		for (size_t k = 0; k < n; k++) {
			guint32 e = (guint32)m[k].entry->index;

			g_array_append_val(j->ids, e);
		}
		if (m != local)
			g_free(m);
	}
	return NULL;
}

static guint pair_hash(gconstpointer p)
{
	guint64 k = GPOINTER_TO_SIZE(p);

	return (guint)((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull >> 32);
}

static int cmp_dir(const void *a, const void *b)
{
	const struct coverage_dir *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static struct coverage_dir *dirs_from_table(GHashTable *h, size_t *nr)
{
	struct coverage_dir *d = g_new(struct coverage_dir,
				       g_hash_table_size(h) + 1);
	GHashTableIter it;
	gpointer k, v;
	size_t n = 0;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		d[n].dir = g_strdup(k);
		d[n].count = GPOINTER_TO_SIZE(v);
		n++;
	}
	qsort(d, n, sizeof(*d), cmp_dir);
	*nr = n;
	return d;
}

static void bump(GHashTable *h, char *key)
{
	gpointer v = g_hash_table_lookup(h, key);

	g_hash_table_replace(h, key,
			     GSIZE_TO_POINTER(GPOINTER_TO_SIZE(v) + 1));
}

static int cmp_overlap(const void *a, const void *b)
{
	const struct coverage_overlap *x = a, *y = b;

	if (x->share != y->share)
		return x->share > y->share ? -1 : 1;
	if (x->shared_files != y->shared_files)
		return x->shared_files > y->shared_files ? -1 : 1;
	if (x->entry->index != y->entry->index)
		return x->entry->index < y->entry->index ? -1 : 1;
	return x->other->index < y->other->index ? -1 :
	       x->other->index > y->other->index;
}

/* Every file's matches, computed in parallel over contiguous ranges. */
struct matches {
	struct match_job jobs[8];
	unsigned nthreads;
	guint32 *start, *count; /* per file: offset into its job's ids, count */
	unsigned *job_of;       /* per file: the job that matched it */
};

/* The k-th entry index matched by file i. */
static guint32 match_id(const struct matches *m, size_t i, guint32 k)
{
	return g_array_index(m->jobs[m->job_of[i]].ids, guint32,
			     m->start[i] + k);
}

/* 1. match every file, in parallel over contiguous ranges */
static void match_files(const struct maint_index *idx,
			const struct ms_tree *tree, size_t nfiles,
			struct matches *m)
{
	GThread *threads[8];
	unsigned nthreads = ms_workers();

	if (nthreads > 8)
		nthreads = 8;
	if (nthreads < 1 || nfiles < 1000)
		nthreads = 1;
	m->nthreads = nthreads;
	m->start = g_new(guint32, nfiles + 1);
	m->count = g_new(guint32, nfiles + 1);
	for (unsigned t = 0; t < nthreads; t++) {
		m->jobs[t] = (struct match_job){ idx, tree,
			nfiles * t / nthreads, nfiles * (t + 1) / nthreads,
			m->start, m->count, NULL, NULL };
		threads[t] = nthreads > 1 ?
			g_thread_new("coverage", match_range, &m->jobs[t]) :
			NULL;
		if (!threads[t])
			match_range(&m->jobs[t]);
	}
	for (unsigned t = 0; t < nthreads; t++)
		if (threads[t])
			g_thread_join(threads[t]);
	m->job_of = g_new(unsigned, nfiles + 1);
	for (unsigned t = 0; t < nthreads; t++)
		for (size_t i = m->jobs[t].begin; i < m->jobs[t].end; i++)
			m->job_of[i] = t;
}

static void matches_release(struct matches *m)
{
	for (unsigned t = 0; t < m->nthreads; t++) {
		g_array_free(m->jobs[t].ids, TRUE);
		g_free(m->jobs[t].marks);
	}
	g_free(m->start);
	g_free(m->count);
	g_free(m->job_of);
}

/* 2. per-entry file counts; catch-all = matches all files */
static void count_entry_files(const struct maint_file *mf,
			      const struct matches *m, size_t nfiles,
			      struct coverage *c, bool *catch_all)
{
	size_t nentries = maint_file_nr_entries(mf);
	GPtrArray *ca = g_ptr_array_new();

	c->entry_files = g_new0(size_t, nentries + 1);
	for (size_t i = 0; i < nfiles; i++)
		for (guint32 k = 0; k < m->count[i]; k++)
			c->entry_files[match_id(m, i, k)]++;
	for (size_t e = 0; e < nentries; e++)
		if (nfiles && c->entry_files[e] == nfiles) {
			catch_all[e] = true;
			g_ptr_array_add(ca, (gpointer)maint_file_entry(mf, e));
		}
	c->nr_catch_all = ca->len;
	c->catch_all = (const struct maint_entry **)g_ptr_array_free(ca, FALSE);
}

/* Count, in `pairs`, each ordered pair of the `nr` entries of one file. */
static void count_pairs(GHashTable *pairs, const guint32 *real, size_t nr)
{
	for (size_t x = 0; x < nr; x++)
		for (size_t y = 0; y < nr; y++) {
			gpointer key;

			if (x == y)
				continue;
			key = GSIZE_TO_POINTER(((gsize)real[x] << 32) |
					       real[y]);
			g_hash_table_replace(pairs, key, GSIZE_TO_POINTER(
				GPOINTER_TO_SIZE(g_hash_table_lookup(pairs,
								     key)) +
				1));
		}
}

/* 3. uncovered files (and their folders), and pair counts of the entries
 * that are not catch-alls */
static void uncovered_and_pairs(const struct ms_tree *tree,
				const struct matches *m, size_t nfiles,
				const bool *catch_all, struct coverage *c,
				GHashTable *pairs)
{
	GHashTable *by_dir = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
	GHashTable *by_top = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
	GPtrArray *unc = g_ptr_array_new();

	for (size_t i = 0; i < nfiles; i++) {
		guint32 real[256];
		size_t nr = 0;

		for (guint32 k = 0; k < m->count[i]; k++)
			if (!catch_all[match_id(m, i, k)] && nr < 256)
				real[nr++] = match_id(m, i, k);
		if (!nr) {
			const char *p = ms_tree_path(tree, i);
			const char *slash = strrchr(p, '/');
			const char *first = strchr(p, '/');

			g_ptr_array_add(unc, (gpointer)p);
			bump(by_dir, slash ? g_strndup(p, (gsize)(slash - p)) :
					     g_strdup(""));
			bump(by_top, first ? g_strndup(p, (gsize)(first - p)) :
					     g_strdup(""));
			continue;
		}
		count_pairs(pairs, real, nr);
	}
	c->nr_uncovered = unc->len;
	c->uncovered = (const char **)g_ptr_array_free(unc, FALSE);
	c->by_dir = dirs_from_table(by_dir, &c->nr_by_dir);
	c->by_top = dirs_from_table(by_top, &c->nr_by_top);
	g_hash_table_destroy(by_dir);
	g_hash_table_destroy(by_top);
}

/* 4. overlaps: more than min_share of an entry's files */
static void find_overlaps(const struct maint_file *mf, GHashTable *pairs,
			  double min_share, struct coverage *c)
{
	GArray *ov = g_array_new(FALSE, FALSE,
				  sizeof(struct coverage_overlap));
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, pairs);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		gsize key = GPOINTER_TO_SIZE(k);
		size_t a = key >> 32, b = key & 0xffffffffu;
		struct coverage_overlap o;

		o.entry = maint_file_entry(mf, a);
		o.other = maint_file_entry(mf, b);
		o.entry_files = c->entry_files[a];
		o.shared_files = GPOINTER_TO_SIZE(v);
		o.share = (double)o.shared_files / (double)o.entry_files;
		if (o.share > min_share)
			g_array_append_val(ov, o);
	}
	g_array_sort(ov, cmp_overlap);
	c->nr_overlaps = ov->len;
	c->overlaps = (struct coverage_overlap *)g_array_free(ov, FALSE);
}

/* 5. patterns that match no file, and the entry of each */
static void find_stale(const struct maint_file *mf,
		       const struct maint_index *idx, const struct matches *m,
		       struct coverage *c)
{
	size_t np = maint_index_nr_patterns(idx);
	size_t nentries = maint_file_nr_entries(mf);

	c->stale = g_new(const struct maint_field *, np + 1);
	for (size_t id = 0; id < np; id++) {
		bool hit = false;

		for (unsigned t = 0; t < m->nthreads; t++)
			hit = hit || m->jobs[t].marks[id];
		if (!hit)
			c->stale[c->nr_stale++] = maint_index_pattern(idx, id);
	}
	c->stale_entry = g_new(const struct maint_entry *, c->nr_stale + 1);
	for (size_t i = 0, e = 0; i < c->nr_stale; i++) {
		/* fields come in entry order: find each one's entry */
		for (; e < nentries; e++) {
			const struct maint_entry *en = maint_file_entry(mf, e);

			if (c->stale[i] >= en->fields &&
			    c->stale[i] < en->fields + en->nr_fields) {
				c->stale_entry[i] = en;
				break;
			}
		}
	}
}

/* 6. entries without F: or N: patterns */
static void find_without_files(const struct maint_file *mf,
			       struct coverage *c)
{
	size_t nentries = maint_file_nr_entries(mf);
	GPtrArray *wf = g_ptr_array_new();

	for (size_t e = 0; e < nentries; e++) {
		const struct maint_entry *en = maint_file_entry(mf, e);
		bool has = false;

		for (size_t k = 0; k < en->nr_fields; k++)
			if (en->fields[k].key == 'F' || en->fields[k].key == 'N')
				has = true;
		if (!has)
			g_ptr_array_add(wf, (gpointer)en);
	}
	c->nr_without_files = wf->len;
	c->without_files = (const struct maint_entry **)
		g_ptr_array_free(wf, FALSE);
}

int coverage_compute(const struct maint_file *mf,
		     const struct maint_index *idx, const struct ms_tree *tree,
		     double min_share, struct coverage **out)
{
	struct coverage *c = g_new0(struct coverage, 1);
	size_t nfiles = ms_tree_nr_files(tree);
	bool *catch_all = g_new0(bool, maint_file_nr_entries(mf) + 1);
	GHashTable *pairs = g_hash_table_new(pair_hash, g_direct_equal);
	struct matches m;

	c->files_total = nfiles;
	match_files(idx, tree, nfiles, &m);
	count_entry_files(mf, &m, nfiles, c, catch_all);
	uncovered_and_pairs(tree, &m, nfiles, catch_all, c, pairs);
	find_overlaps(mf, pairs, min_share, c);
	find_stale(mf, idx, &m, c);
	find_without_files(mf, c);
	g_hash_table_destroy(pairs);
	matches_release(&m);
	g_free(catch_all);
	*out = c;
	return 0;
}

void coverage_free(struct coverage *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_by_dir; i++)
		g_free(c->by_dir[i].dir);
	for (size_t i = 0; i < c->nr_by_top; i++)
		g_free(c->by_top[i].dir);
	g_free(c->by_dir);
	g_free(c->by_top);
	g_free(c->catch_all);
	g_free(c->uncovered);
	g_free(c->without_files);
	g_free(c->stale);
	g_free(c->stale_entry);
	g_free(c->overlaps);
	g_free(c->entry_files);
	g_free(c);
}

bool coverage_overlap_nested(const struct coverage_overlap *v)
{
	size_t own = 0;

	for (size_t i = 0; i < v->entry->nr_fields; i++) {
		const struct maint_field *f = &v->entry->fields[i];
		bool inside = false;

		if (f->key == 'N')
			return false;
		if (f->key != 'F')
			continue;
		own++;
		for (size_t k = 0; k < v->other->nr_fields && !inside; k++) {
			const struct maint_field *g = &v->other->fields[k];
			size_t n = strlen(g->value);

			inside = g->key == 'F' && n && g->value[n - 1] == '/' &&
				 strlen(f->value) > n &&
				 !strncmp(f->value, g->value, n);
		}
		if (!inside)
			return false;
	}
	return own > 0;
}
