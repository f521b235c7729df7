/*
 * git-tags.c - libgit2: the release tags of a repository, for the
 * release intervals of a time series (series.h).
 */
#include "series.h"

#include "error.h"
#include "git-common.h"

#include <fnmatch.h>
#include <git2.h>
#include <string.h>

struct tag {
	int64_t time;
	char *name;
};

struct collect {
	git_repository *repo;
	const char *glob;
	GArray *tags;                /* struct tag */
};

static int on_tag(const char *ref, git_oid *oid, void *data)
{
	struct collect *c = data;
	const char *name = ref + strlen("refs/tags/");
	git_object *obj = NULL, *peeled = NULL;
	struct tag t;

	(void)oid;
	if (strncmp(ref, "refs/tags/", 10) || strstr(name, "-rc") ||
	    fnmatch(c->glob, name, 0))
		return 0;
	/* a tag of a tree or blob dates nothing: skipped */
	if (git_revparse_single(&obj, c->repo, ref) == 0 &&
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0) {
		t.time = (int64_t)git_commit_time((git_commit *)peeled);
		t.name = g_strdup(name);
		g_array_append_val(c->tags, t);
	}
	git_object_free(peeled);
	git_object_free(obj);
	return 0;
}

static int cmp_tag(gconstpointer a, gconstpointer b)
{
	const struct tag *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return strcmp(x->name, y->name);
}

int ms_series_releases(const char *gitdir, const char *glob, int64_t lo,
		       int64_t hi, GArray **out, GPtrArray **labels)
{
	struct collect c = { 0 };
	int64_t b;
	int rc;

	*out = NULL;
	*labels = NULL;
	if (lo > hi)
		return ms_error_set(MS_EUSAGE, "no interval to divide");
	rc = ms_git_open(gitdir, &c.repo);
	if (rc < 0)
		return rc;
	c.glob = glob;
	c.tags = g_array_new(FALSE, FALSE, sizeof(struct tag));
	rc = git_tag_foreach(c.repo, on_tag, &c);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot list the tags of '%s'", gitdir);
		goto done;
	}
	g_array_sort(c.tags, cmp_tag);
	*out = g_array_new(FALSE, FALSE, sizeof(int64_t));
	*labels = g_ptr_array_new_with_free_func(g_free);
	g_array_append_val(*out, lo);
	for (guint i = 0; i < c.tags->len; i++) {
		struct tag *t = &g_array_index(c.tags, struct tag, i);
		int64_t last = g_array_index(*out, int64_t, (*out)->len - 1);

		if (t->time <= lo || t->time > hi || t->time == last)
			continue;
		if ((*out)->len > MS_SERIES_MAX) {
			rc = ms_error_set(MS_EUSAGE, "more than %d releases: "
					  "narrow the window or the tags",
					  MS_SERIES_MAX);
			goto done;
		}
		g_array_append_val(*out, t->time);
		g_ptr_array_add(*labels, g_strdup(t->name));
	}
	b = hi + 1;
	g_array_append_val(*out, b);
	g_ptr_array_add(*labels, NULL);
	rc = 0;
done:
	if (rc < 0) {
		if (*out)
			g_array_free(*out, TRUE);
		if (*labels)
			g_ptr_array_unref(*labels);
		*out = NULL;
		*labels = NULL;
	}
	for (guint i = 0; i < c.tags->len; i++)
		g_free(g_array_index(c.tags, struct tag, i).name);
	g_array_free(c.tags, TRUE);
	git_repository_free(c.repo);
	return rc;
}
