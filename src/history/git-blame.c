/*
 * git-blame.c - the libgit2 adapter for git blame (git-blame.h): git
 * 2.39's assign_blame() and pass_blame() (blame.c), without -M, -C or
 * ignored revisions.  A suspect (a commit and a path) holds some of the
 * final file's lines, as line numbers of its own blob; the newest commit
 * is taken first.  Its parents are tried in order at the same path,
 * then through find_rename() (git-follow.h) where a parent lacks it: the
 * first with an identical blob takes all the lines; else each parent in
 * turn takes the lines xdiff leaves unchanged (xdi_diff(): the common
 * tail trimmed, no context, the indent heuristic unless
 * diff.indentHeuristic is false).  What no parent takes is the
 * suspect's commit's.  Lines of a root commit are boundary lines, which
 * git prints with a '^' and the script's /^([0-9a-f]+) / misses, unless
 * blame.showRoot.  A work tree's file is first the suspect of
 * fake_working_tree_commit(): the file's bytes (converted by nothing),
 * HEAD its parent; the lines HEAD does not take are the null id's, "Not
 * Committed Yet" (a suspect without a commit here).  Per line the
 * answer does not depend on which lines are asked (-L) nor on the order
 * suspects are taken in, so a file is blamed whole once and each range
 * cut from it.
 */
#include "git-blame.h"
#include "error.h"
#include "git-common.h"
#include "git-follow.h"
#include "utf8.h"

#include <git2.h>
#include <string.h>
#include <sys/stat.h>

struct line {
	int lno;                /* in the suspect's blob, from 0 */
	int fin;                /* in the final file */
};

struct suspect {
	git_commit *commit;     /* NULL: the work tree's (the null id) */
	char *path;
	git_oid blob;
	git_filemode_t mode;
	GArray *lines;          /* struct line, by lno */
	gint64 date;
	guint64 seq;            /* first in, first out among equal dates */
	bool queued;
};

struct ms_blame {
	git_repository *repo;
	git_commit *head;
	git_index *index;       /* a work tree's, read at the first blame */
	bool work, show_root, indent, autocrlf;
	GHashTable *files;      /* path -> each line's id (NULL: boundary) */
};

struct walk {
	struct ms_blame *b;
	GHashTable *suspects;   /* "id path" -> struct suspect */
	GHashTable *drivers;    /* path -> whether a diff driver applies */
	GSequence *queue;
	guint64 seq;
	git_commit **fin;       /* each final line's commit (borrowed) */
	const char *work;       /* the work tree's file, as git reads it */
	size_t work_len;
};

static void suspect_free(gpointer p)
{
	struct suspect *s = p;

	git_commit_free(s->commit);
	g_free(s->path);
	g_array_free(s->lines, TRUE);
	g_free(s);
}

static gint newest_first(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct suspect *x = a, *y = b;

	(void)data;
	if (x->date != y->date)
		return x->date > y->date ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static gint by_lno(gconstpointer a, gconstpointer b)
{
	const struct line *x = a, *y = b;

	if (x->lno != y->lno)
		return x->lno < y->lno ? -1 : 1;
	return x->fin < y->fin ? -1 : x->fin > y->fin;
}

/* 1 when a diff driver's textconv may apply to `path`: git must say */
static int driver(struct walk *w, const char *path)
{
	gpointer d;
	bool bin;

	if (!g_hash_table_lookup_extended(w->drivers, path, NULL, &d)) {
		int rc = ms_git_is_binary(w->b->repo, path, NULL, &bin);

		if (rc < 0)
			return rc;
		d = GINT_TO_POINTER(rc == 1);
		g_hash_table_insert(w->drivers, g_strdup(path), d);
	}
	return d != NULL;
}

/* The suspect of commit `c` (not taken) and `path`; 1 when git must
 * say (a diff driver) */
static int suspect_of(struct walk *w, git_commit *c, const char *path,
		      const git_oid *blob, git_filemode_t mode,
		      struct suspect **out)
{
	char *key;
	struct suspect *s;
	int rc = driver(w, path);

	if (rc)
		return rc;
	key = g_strconcat(git_oid_tostr_s(git_commit_id(c)), " ", path, NULL);
	s = g_hash_table_lookup(w->suspects, key);
	if (!s) {
		s = g_new0(struct suspect, 1);
		git_commit_dup(&s->commit, c);
		s->path = g_strdup(path);
		s->blob = *blob;
		s->mode = mode;
		s->lines = g_array_new(FALSE, FALSE, sizeof(struct line));
		s->date = git_commit_time(c);
		g_hash_table_insert(w->suspects, key, s);
	} else {
		g_free(key);
	}
	*out = s;
	return 0;
}

/* queue_blames(): `lines` (taken) to `s`, queued unless it is */
static void give(struct walk *w, struct suspect *s, GArray *lines)
{
	g_array_append_vals(s->lines, lines->data, lines->len);
	g_array_free(lines, TRUE);
	g_array_sort(s->lines, by_lno);
	if (!s->queued && s->lines->len) {
		s->queued = true;
		s->seq = w->seq++;
		g_sequence_insert_sorted(w->queue, s, newest_first, NULL);
	}
}

static int entry_of(git_commit *c, const char *path, git_tree_entry **e)
{
	git_tree *t = NULL;
	int rc = git_commit_tree(&t, c);

	*e = NULL;
	if (rc == 0)
		rc = git_tree_entry_bypath(e, t, path);
	git_tree_free(t);
	return rc == GIT_ENOTFOUND ? 0 : rc;
}

#define IFMT(m) ((m) & 0170000)

/* find_origin(): the suspect of parent `p` at s->path, NULL when the
 * path is not a file there ('A') or changes type ('T'); into *out */
static int find_origin(struct walk *w, git_commit *p, struct suspect *s,
		       struct suspect **out)
{
	git_tree_entry *e;
	int rc = entry_of(p, s->path, &e);

	*out = NULL;
	if (rc == 0 && e && git_tree_entry_type(e) != GIT_OBJECT_TREE &&
	    IFMT(git_tree_entry_filemode(e)) == IFMT(s->mode))
		rc = suspect_of(w, p, s->path, git_tree_entry_id(e),
				git_tree_entry_filemode(e), out);
	git_tree_entry_free(e);
	return rc;
}

/* find_rename(): where the commit adds s->path to parent `p`'s tree,
 * the suspect of the file it renames, or NULL; into *out.  The work
 * tree's has none: its index deletes nothing (work_file()). */
static int find_rename(struct walk *w, git_commit *p, struct suspect *s,
		       struct suspect **out)
{
	git_tree *pt = NULL, *t = NULL;
	git_tree_entry *e = NULL, *dst = NULL;
	char *src = NULL;
	int rc = s->commit ? entry_of(p, s->path, &e) : 0;

	*out = NULL;
	if (!s->commit)
		return 0;
	if (rc || (e && git_tree_entry_type(e) != GIT_OBJECT_TREE)) {
		git_tree_entry_free(e);
		return rc;
	}
	rc = git_commit_tree(&pt, p);
	if (rc == 0)
		rc = git_commit_tree(&t, s->commit);
	if (rc == 0)
		rc = git_tree_entry_bypath(&dst, t, s->path);
	if (rc == 0)
		rc = ms_git_follow(w->b->repo, pt, t, s->path, dst, true, &src);
	if (rc == 0 && src) {
		git_tree_entry_free(e);
		rc = git_tree_entry_bypath(&e, pt, src);
		if (rc == 0)
			rc = suspect_of(w, p, src, git_tree_entry_id(e),
					git_tree_entry_filemode(e), out);
	}
	g_free(src);
	git_tree_entry_free(e);
	git_tree_entry_free(dst);
	git_tree_free(pt);
	git_tree_free(t);
	return rc;
}

/* xdi_diff()'s trim_common_tail() */
static void trim_tail(const char *a, size_t *na, const char *b, size_t *nb)
{
	const size_t blk = 1024;
	size_t trimmed = 0, recovered = 0, smaller = MIN(*na, *nb);
	const char *ap = a + *na, *bp = b + *nb;

	while (blk + trimmed <= smaller && !memcmp(ap - blk, bp - blk, blk)) {
		trimmed += blk;
		ap -= blk;
		bp -= blk;
	}
	while (recovered < trimmed)
		if (ap[recovered++] == '\n')
			break;
	*na -= trimmed - recovered;
	*nb -= trimmed - recovered;
}

/* blame_chunk_cb()'s numbers: where each change starts (from 0) and
 * how many lines it has, on either side */
static int hunk_fn(const git_diff_delta *d, const git_diff_hunk *h,
		   void *data)
{
	int x[4] = { h->old_lines ? h->old_start - 1 : h->old_start,
		     h->old_lines, h->new_lines ? h->new_start - 1 :
		     h->new_start, h->new_lines };

	(void)d;
	g_array_append_vals(data, x, 4);
	return 0;
}

/* pass_blame_to_parent(): the lines of `s` outside xdiff's changes go
 * to `p` */
static int pass_to_parent(struct walk *w, struct suspect *s,
			  struct suspect *p)
{
	git_blob *pb = NULL, *sb = NULL;
	GArray *h = g_array_new(FALSE, FALSE, sizeof(int));
	GArray *moved = g_array_new(FALSE, FALSE, sizeof(struct line));
	git_diff_options o;
	int rc = git_blob_lookup(&pb, w->b->repo, &p->blob);
	guint k = 0, kept = 0;
	int delta = 0;

	if (rc == 0 && s->commit)
		rc = git_blob_lookup(&sb, w->b->repo, &s->blob);
	if (rc == 0) {
		const char *pa = git_blob_rawcontent(pb);
		const char *sa = sb ? git_blob_rawcontent(sb) : w->work;
		size_t pn = (size_t)git_blob_rawsize(pb);
		size_t sn = sb ? (size_t)git_blob_rawsize(sb) : w->work_len;

		trim_tail(pa, &pn, sa, &sn);
		git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
		o.context_lines = 0;
		o.interhunk_lines = 0;
		o.flags = GIT_DIFF_FORCE_TEXT |
			  (w->b->indent ? GIT_DIFF_INDENT_HEURISTIC : 0);
		rc = git_diff_buffers(pa, pn, NULL, sa, sn, NULL, &o, NULL,
				      NULL, hunk_fn, NULL, h);
	}
	for (guint i = 0; rc == 0 && i < s->lines->len; i++) {
		struct line l = g_array_index(s->lines, struct line, i);
		const int *x;

		for (; k < h->len; k += 4) {
			x = &g_array_index(h, int, k);
			if (x[2] + x[3] > l.lno)
				break;
			delta = x[0] + x[1] - x[2] - x[3];
		}
		x = k < h->len ? &g_array_index(h, int, k) : NULL;
		if (x && l.lno >= x[2]) {
			g_array_index(s->lines, struct line, kept++) = l;
		} else {
			l.lno += delta;
			g_array_append_val(moved, l);
		}
	}
	if (rc == 0)
		g_array_set_size(s->lines, kept);
	give(w, p, moved);
	g_array_free(h, TRUE);
	git_blob_free(pb);
	git_blob_free(sb);
	return rc;
}

/* The parents' suspects, a pass at the same path then one through
 * renames; 2 when one has the blob of `s` and took all its lines. */
static int scapegoats(struct walk *w, struct suspect *s, struct suspect **sg,
		      unsigned n)
{
	int rc = 0;

	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < n && rc == 0; i++) {
			git_commit *p = NULL;
			struct suspect *ps = NULL;
			bool same = false;

			if (sg[i])
				continue;
			rc = s->commit ? git_commit_parent(&p, s->commit, i) :
			     git_commit_dup(&p, w->b->head);
			if (rc == 0)
				rc = pass ? find_rename(w, p, s, &ps) :
				     find_origin(w, p, s, &ps);
			git_commit_free(p);
			if (rc || !ps)
				continue;
			if (git_oid_equal(&ps->blob, &s->blob)) {
				GArray *all = s->lines;

				s->lines = g_array_new(FALSE, FALSE,
						       sizeof(struct line));
				give(w, ps, all);
				return 2;
			}
			for (unsigned j = 0; j < i && !same; j++)
				same = sg[j] && git_oid_equal(&sg[j]->blob,
							      &ps->blob);
			if (!same)
				sg[i] = ps;
		}
	return rc;
}

/* pass_blame(), then what is left is the suspect's commit's */
static int pass_blame(struct walk *w, struct suspect *s)
{
	unsigned n = s->commit ? git_commit_parentcount(s->commit) : 1;
	struct suspect **sg = g_new0(struct suspect *, n + 1);
	int rc = scapegoats(w, s, sg, n);

	for (unsigned i = 0; rc == 0 && i < n && s->lines->len; i++)
		if (sg[i])
			rc = pass_to_parent(w, s, sg[i]);
	for (guint i = 0; i < s->lines->len; i++)
		w->fin[g_array_index(s->lines, struct line, i).fin] =
			s->commit;
	g_array_set_size(s->lines, 0);
	g_free(sg);
	return rc == 2 ? 0 : rc;
}

/* Whether git's diff-index --cached of HEAD against the index would
 * have a deletion (a source for find_rename()) or a conflict */
static int index_deletes(struct ms_blame *b)
{
	git_tree *t = NULL;
	git_diff *d = NULL;
	int rc = git_commit_tree(&t, b->head);

	if (rc == 0)
		rc = git_diff_tree_to_index(&d, b->repo, t, b->index, NULL);
	for (size_t i = 0; rc == 0 && d && i < git_diff_num_deltas(d); i++)
		rc = git_diff_get_delta(d, i)->status == GIT_DELTA_DELETED;
	git_diff_free(d);
	git_tree_free(t);
	return rc < 0 ? rc : rc || git_index_has_conflicts(b->index);
}

static bool set(const char *attr)
{
	return GIT_ATTR_IS_UNSPECIFIED(attr) == 0;
}

/*
 * The work tree's `path` as fake_working_tree_commit() reads it into
 * *buf, its bytes: 1 when convert_to_git() may change them (a filter,
 * an encoding, a CR that an attribute or core.autocrlf may convert, a
 * "$Id" with the ident attribute) or git must say otherwise (not a
 * regular file, HEAD's `e` not one either, or where HEAD lacks it, the
 * index deleting or conflicting); 2 when git dies (neither HEAD nor the
 * index has it).
 */
static int work_file(struct ms_blame *b, const char *path,
		     const git_tree_entry *e, char **buf, gsize *len)
{
	const char *names[] = { "filter", "working-tree-encoding", "ident",
				"text", "eol", "crlf" }, *v[6];
	char *full = g_build_filename(git_repository_workdir(b->repo), path,
				      NULL);
	bool head = e && git_tree_entry_type(e) != GIT_OBJECT_TREE;
	struct stat st;
	int rc = lstat(full, &st) || !S_ISREG(st.st_mode) ||
		 !g_file_get_contents(full, buf, len, NULL);

	g_free(full);
	if (rc == 0)
		rc = git_attr_get_many(v, b->repo, 0, path, 6, names);
	if (rc == 0)
		rc = set(v[0]) || set(v[1]) ||
		     (set(v[2]) && memmem(*buf, *len, "$Id", 3)) ||
		     (memchr(*buf, '\r', *len) &&
		      (set(v[3]) || set(v[4]) || set(v[5]) || b->autocrlf)) ||
		     (head && git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB &&
		      git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB_EXECUTABLE);
	if (rc == 0 && !head && !b->index)
		rc = git_repository_index(&b->index, b->repo);
	/* verify_working_tree_path(): the index has it, maybe unmerged */
	if (rc == 0 && !head)
		rc = git_index_find(NULL, b->index, path) ? 2 :
		     index_deletes(b);
	return rc;
}

/* The lines of p[0..len), a last one without its newline too */
static int count_lines(const char *p, size_t len)
{
	return (int)ms_count_lines(p, len) + (len && p[len - 1] != '\n');
}

/* The first suspect, with every line: HEAD's blob at `e`, or in a work
 * tree the file's own suspect, whose lines pass_blame() hands to HEAD
 * at once; into *n the lines */
static int first(struct walk *w, const char *path, const git_tree_entry *e,
		 git_blob **blob, int *n)
{
	struct suspect *s = NULL;
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct line));
	int rc = 0;

	if (w->b->work) {
		s = g_new0(struct suspect, 1);
		s->path = g_strdup(path);
		s->mode = GIT_FILEMODE_BLOB;
		s->lines = all;
		*n = count_lines(w->work, w->work_len);
		rc = git_odb_hash(&s->blob, w->work, w->work_len,
				  GIT_OBJECT_BLOB);
	} else {
		rc = git_blob_lookup(blob, w->b->repo, git_tree_entry_id(e));
		if (rc == 0)
			rc = suspect_of(w, w->b->head, path,
					git_tree_entry_id(e),
					git_tree_entry_filemode(e), &s);
		*n = rc ? 0 : count_lines(git_blob_rawcontent(*blob),
					  (size_t)git_blob_rawsize(*blob));
	}
	for (int i = 0; i < *n; i++) {
		struct line l = { i, i };

		g_array_append_val(all, l);
	}
	w->fin = g_new0(git_commit *, *n + 1);
	if (w->b->work) {
		if (rc == 0)
			rc = pass_blame(w, s);
		suspect_free(s);
	} else if (rc == 0) {
		give(w, s, all);
	} else {
		g_array_free(all, TRUE);
	}
	return rc;
}

/* Each line's commit id, NULL for a boundary line, into *out; an
 * empty array when git finds no such file.  1: git must say. */
static int blame_file(struct ms_blame *b, const char *path, GPtrArray **out)
{
	struct walk w = { .b = b };
	git_tree_entry *e;
	git_blob *blob = NULL;
	char *work = NULL;
	gsize len = 0;
	int rc = entry_of(b->head, path, &e), n = 0;

	*out = g_ptr_array_new_with_free_func(g_free);
	if (rc == 0 && b->work)
		rc = work_file(b, path, e, &work, &len);
	else if (rc == 0 && e && git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		rc = 1;
	if (rc || (!e && !b->work)) {
		git_tree_entry_free(e);
		g_free(work);
		return rc == 2 ? 0 : rc;
	}
	w.work = work;
	w.work_len = len;
	w.suspects = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   suspect_free);
	w.drivers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  NULL);
	w.queue = g_sequence_new(NULL);
	rc = b->work ? driver(&w, path) : 0;
	if (rc == 0)
		rc = first(&w, path, e, &blob, &n);
	while (rc == 0 && g_sequence_get_length(w.queue)) {
		GSequenceIter *it = g_sequence_get_begin_iter(w.queue);
		struct suspect *s = g_sequence_get(it);

		g_sequence_remove(it);
		s->queued = false;
		rc = pass_blame(&w, s);
	}
	for (int i = 0; rc == 0 && i < n; i++)
		g_ptr_array_add(*out, !w.fin[i] ? g_strnfill(40, '0') :
				!b->show_root &&
				!git_commit_parentcount(w.fin[i]) ? NULL :
				g_strdup(git_oid_tostr_s(git_commit_id(
					w.fin[i]))));
	g_free(w.fin);
	g_sequence_free(w.queue);
	g_hash_table_destroy(w.suspects);
	g_hash_table_destroy(w.drivers);
	git_blob_free(blob);
	git_tree_entry_free(e);
	g_free(work);
	return rc;
}

/* The configuration and state that make git blame otherwise: 1 */
static int other_blame(git_repository *repo, bool work, bool *show_root,
		       bool *indent, bool *autocrlf)
{
	git_config *cfg = NULL;
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	const char *s;
	char *merge = g_build_filename(git_repository_path(repo), "MERGE_HEAD",
				       NULL);
	int v, rc = git_repository_config_snapshot(&cfg, repo);
	bool other = git_repository_is_shallow(repo) ||
		     (work && g_file_test(merge, G_FILE_TEST_EXISTS));

	*show_root = false;
	*indent = true;
	*autocrlf = false;
	if (rc == 0) {
		other |= !git_config_get_string(&s, cfg,
						"blame.ignoreRevsFile");
		if (!git_config_get_bool(&v, cfg, "blame.showRoot"))
			*show_root = v;
		if (!git_config_get_bool(&v, cfg, "diff.indentHeuristic"))
			*indent = v;
		/* true or input: CRLF converted */
		if (!git_config_get_string(&s, cfg, "core.autocrlf"))
			*autocrlf = git_config_parse_bool(&v, s) || v;
		rc = git_reference_iterator_glob_new(&it, repo,
						     "refs/replace/*");
	}
	if (rc == 0 && git_reference_next(&ref, it) == 0)
		other = true;
	git_reference_free(ref);
	git_reference_iterator_free(it);
	git_config_free(cfg);
	g_free(merge);
	return rc < 0 ? rc : other;
}

int ms_blame_open(const char *dir, bool bare, const char *rev,
		  struct ms_blame **out)
{
	struct ms_blame *b = g_new0(struct ms_blame, 1);
	git_object *o = NULL;
	char *top = NULL;
	int rc = ms_git_open(dir, &b->repo);

	*out = NULL;
	if (rc < 0) {
		g_free(b);
		return rc;
	}
	b->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 (GDestroyNotify)g_ptr_array_unref);
	if (!bare) {
		char *real = realpath(dir, NULL);

		top = real ? g_strconcat(real, "/", NULL) : NULL;
		free(real);
		rc = !git_repository_workdir(b->repo) || !top ||
		     strcmp(top, git_repository_workdir(b->repo));
		b->work = true;
	}
	if (rc == 0)
		rc = other_blame(b->repo, !bare, &b->show_root, &b->indent,
				 &b->autocrlf);
	if (rc == 0)
		rc = git_revparse_single(&o, b->repo, bare && rev ? rev :
					 "HEAD");
	if (rc == 0)
		rc = git_object_peel((git_object **)&b->head, o,
				     GIT_OBJECT_COMMIT);
	git_object_free(o);
	g_free(top);
	if (rc) {
		ms_blame_free(b);
		return rc < 0 ? ms_git_error(rc, "cannot blame in '%s'", dir) :
		       ms_error_set(MS_ERROR, "git blame must say in '%s'",
				    dir);
	}
	*out = b;
	return 0;
}

void ms_blame_free(struct ms_blame *b)
{
	if (!b)
		return;
	g_hash_table_destroy(b->files);
	git_commit_free(b->head);
	git_index_free(b->index);
	git_repository_free(b->repo);
	g_free(b);
}

bool ms_git_plain_path(const char *file)
{
	char **parts;
	bool ok;

	if (!*file || *file == ':' || strpbrk(file, " \t\n*?[\\"))
		return false;
	parts = g_strsplit(file, "/", -1);
	ok = true;
	for (char **p = parts; *p; p++)
		ok &= **p && strcmp(*p, ".") && strcmp(*p, "..");
	g_strfreev(parts);
	return ok;
}

/* A count the script's \d+ gives, as git's -L reads it */
static bool count(const char *s, long *n)
{
	size_t len = strlen(s);

	if (!len || len > 9 || strspn(s, "0123456789") != len)
		return false;
	*n = strtol(s, NULL, 10);
	return true;
}

GPtrArray *ms_blame_lines(const char *file, const char *start,
			  const char *length, void *data)
{
	struct ms_blame *b = data;
	GPtrArray *all, *out;
	long from = 0, n = 0;
	guint to;

	if (!ms_git_plain_path(file) ||
	    (start && (!count(start, &from) || !count(length, &n))))
		return NULL;
	all = g_hash_table_lookup(b->files, file);
	if (!all) {
		int rc = blame_file(b, file, &all);

		if (rc) {
			ms_error_clear();
			g_ptr_array_unref(all);
			return NULL;
		}
		g_hash_table_insert(b->files, g_strdup(file), all);
	}
	out = g_ptr_array_new_with_free_func(g_free);
	/* -L: "invalid line number" 0, "invalid empty range" +0, "file
	 * has only N lines" past its end: git blames nothing */
	if (start && (from < 1 || n < 1 || from > (long)all->len))
		return out;
	to = start ? (guint)MIN((long)all->len, from - 1 + n) : all->len;
	for (guint i = start ? (guint)from - 1 : 0; i < to; i++)
		if (all->pdata[i])
			g_ptr_array_add(out, g_strdup(all->pdata[i]));
	return out;
}

char *ms_blame_commit_log(const char *id, bool body, bool stat, void *b)
{
	return ms_git_log_show(((struct ms_blame *)b)->repo, id, body, stat);
}
