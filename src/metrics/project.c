/*
 * project.c - one project, each part loaded once when first asked for.
 */
#include "project.h"
#include "activity.h"
#include "history.h"
#include "ident.h"
#include "link.h"
#include "maintainers.h"
#include "mail.h"
#include "store.h"
#include "tree.h"
#include "git-common.h"
#include "git-graph.h"

#include <glib.h>
#include <string.h>

/* A part not loaded yet, loaded, or failed (with its code). */
enum part { PART_NONE, PART_OK, PART_FAILED };

struct ms_project {
	struct ms_project_options o;
	/* the aliases and --mailmap texts, read once */
	char *aliases;
	gsize aliases_len;
	char **mailmaps;
	size_t *mailmap_lens;
	/* the revision's .mailmap, for the people of link.h */
	char *rev_mailmap;
	size_t rev_mailmap_len;
	bool rev_mailmap_read;

	enum part tree_state;
	int tree_rc;
	struct ms_tree *tree;
	struct maint_file *mf;
	struct maint_index *idx;
	struct ms_diags late;

	struct ms_link_mail *lm;
	const struct ms_mail_index *mail;

	enum part hist_state;
	int hist_rc;
	struct ms_activity *act;
	struct ms_store *store;

	struct ms_ident *own_ident;   /* without a repository */
	struct ms_git_graph *objects; /* ms_project_objects() */
	bool objects_tried;
};

static int read_text(const char *path, char **text, gsize *len)
{
	GError *err = NULL;

	if (g_file_get_contents(path, text, len, &err))
		return 0;
	ms_error_set(MS_ERROR, "cannot read '%s': %s", path, err->message);
	g_error_free(err);
	return MS_ERROR;
}

int ms_project_open(const struct ms_project_options *o,
		    struct ms_project **out)
{
	struct ms_project *p = g_new0(struct ms_project, 1);

	*out = NULL;
	p->o = *o;
	p->late = (struct ms_diags)MS_DIAGS_INIT;
	p->mailmaps = g_new0(char *, o->nr_mailmaps + 1);
	p->mailmap_lens = g_new0(size_t, o->nr_mailmaps + 1);
	if (o->aliases && read_text(o->aliases, &p->aliases,
				    &p->aliases_len) < 0)
		goto fail;
	for (size_t i = 0; i < o->nr_mailmaps; i++) {
		gsize len = 0;

		if (read_text(o->mailmaps[i], &p->mailmaps[i], &len) < 0)
			goto fail;
		p->mailmap_lens[i] = len;
	}
	*out = p;
	return 0;
fail:
	ms_project_free(p);
	return MS_ERROR;
}

void ms_project_free(struct ms_project *p)
{
	if (!p)
		return;
	ms_ident_free(p->own_ident);
	ms_git_graph_free(p->objects);
	ms_activity_free(p->act);
	ms_link_mail_free(p->lm);
	ms_diags_release(&p->late);
	maint_index_free(p->idx);
	maint_file_free(p->mf);
	ms_tree_free(p->tree);
	ms_store_free(p->store);
	g_free(p->rev_mailmap);
	for (size_t i = 0; i < p->o.nr_mailmaps; i++)
		g_free(p->mailmaps[i]);
	g_free(p->mailmaps);
	g_free(p->mailmap_lens);
	g_free(p->aliases);
	g_free(p);
}

void ms_project_set_store(struct ms_project *p, struct ms_store *store)
{
	ms_store_free(p->store);
	p->store = store;
}

static void add_str(void (*add)(const char *, const void *, size_t, void *),
		    void *data, const char *what, const char *s)
{
	add(what, s ? s : "", s ? strlen(s) + 1 : 0, data);
}

int ms_project_inputs(struct ms_project *p,
		      void (*add)(const char *what, const void *bytes,
				  size_t len, void *data),
		      void *data)
{
	char *refs = NULL;
	int rc = 0;

	add_str(add, data, "aliases", p->o.aliases);
	if (p->aliases)
		add("aliases bytes", p->aliases, p->aliases_len, data);
	for (size_t i = 0; i < p->o.nr_mailmaps; i++) {
		add_str(add, data, "mailmap", p->o.mailmaps[i]);
		add("mailmap bytes", p->mailmaps[i], p->mailmap_lens[i], data);
	}
	for (size_t i = 0; rc == 0 && i < p->o.nr_maintainers; i++) {
		char *text = NULL;
		gsize len = 0;

		rc = read_text(p->o.maintainers[i], &text, &len);
		add_str(add, data, "maintainers", p->o.maintainers[i]);
		add("maintainers bytes", text, len, data);
		g_free(text);
	}
	if (rc == 0 && p->o.gitdir) {
		rc = ms_git_refs_digest(p->o.gitdir, &refs);
		add_str(add, data, "repo", p->o.gitdir);
		add_str(add, data, "rev", p->o.rev);
		add_str(add, data, "refs", refs);
		g_free(refs);
	}
	return rc < 0 ? rc : 0;
}

const struct ms_project_options *
ms_project_options(const struct ms_project *p)
{
	return &p->o;
}

static int load_tree(struct ms_project *p, struct ms_diags *diags)
{
	struct maint_load_opts lo = { 0 };
	int rc;

	if (p->o.gitdir)
		rc = ms_tree_from_git(p->o.gitdir, p->o.rev, &p->tree);
	else
		rc = ms_tree_from_dir(p->o.tree_dir ? p->o.tree_dir : ".",
				      &p->tree, &p->late);
	if (rc < 0)
		return rc;
	if (p->o.tree_blobs)
		ms_tree_blobs_take(p->tree, p->o.tree_blobs);
	lo.maintainers = p->o.maintainers;
	lo.nr_maintainers = p->o.nr_maintainers;
	lo.find_maintainer_files = p->o.find_maintainer_files;
	rc = maint_file_load(p->tree, &lo, &p->mf, diags);
	if (rc < 0)
		return rc;
	return maint_index_new(p->mf, p->tree, &p->idx, diags);
}

int ms_project_tree(struct ms_project *p, const struct ms_tree **tree,
		    const struct maint_file **mf,
		    const struct maint_index **idx, struct ms_diags *diags)
{
	if (p->tree_state == PART_NONE) {
		p->tree_rc = load_tree(p, diags);
		p->tree_state = p->tree_rc < 0 ? PART_FAILED : PART_OK;
	}
	if (p->tree_state == PART_FAILED)
		return p->tree_rc;
	if (tree)
		*tree = p->tree;
	if (mf)
		*mf = p->mf;
	if (idx)
		*idx = p->idx;
	return 0;
}

struct ms_diags *ms_project_late(struct ms_project *p)
{
	return &p->late;
}

void ms_project_late_diags(struct ms_project *p, struct ms_diags *diags)
{
	maint_index_report(p->idx, &p->late);
	for (size_t i = 0; i < p->late.nr; i++) {
		const struct ms_diag *d = &p->late.items[i];

		ms_diags_add(diags, d->file, d->line, "%s", d->message);
	}
	ms_diags_release(&p->late);
	p->late = (struct ms_diags)MS_DIAGS_INIT;
}

void ms_project_set_mail(struct ms_project *p, struct ms_link_mail *lm)
{
	ms_link_mail_free(p->lm);
	p->lm = lm;
	p->mail = lm ? ms_link_mail_index(lm) : NULL;
}

void ms_project_set_mail_index(struct ms_project *p,
			       const struct ms_mail_index *idx)
{
	ms_link_mail_free(p->lm);
	p->lm = NULL;
	p->mail = idx;
}

struct ms_link_mail *ms_project_mail(const struct ms_project *p)
{
	return p->lm;
}

static int load_history(struct ms_project *p, struct ms_diags *diags)
{
	struct ms_activity_load_opts lo = { 0 };
	int rc;

	if (!p->o.gitdir) {
		return ms_error_set(MS_EUSAGE, "no repository to read the "
				    "history of");
	}
	lo.gitdir = p->o.gitdir;
	lo.rev = p->o.rev;
	lo.maintainers = p->o.maintainers;
	lo.nr_maintainers = p->o.nr_maintainers;
	lo.find_maintainer_files = p->o.find_maintainer_files;
	lo.merges = p->o.merges;
	lo.no_plus_fold = p->o.no_plus_fold;
	lo.no_name_join = p->o.no_name_join;
	lo.mailmaps = (const char *const *)p->mailmaps;
	lo.mailmap_lens = p->mailmap_lens;
	lo.mailmap_names = p->o.mailmaps;
	lo.nr_mailmaps = p->o.nr_mailmaps;
	lo.aliases = p->aliases;
	lo.aliases_len = p->aliases_len;
	lo.aliases_name = p->o.aliases;
	lo.mail = p->mail;
	lo.last_addresses = p->o.last_addresses;
	lo.keep_paths = p->o.keep_paths;
	lo.store = p->store;
	lo.progress = p->o.progress;
	lo.progress_data = p->o.progress_data;
	rc = ms_activity_load(&lo, &p->act, diags);
	if (rc < 0)
		return rc;
	g_clear_pointer(&p->store, ms_store_free);
	return 0;
}

int ms_project_history(struct ms_project *p, struct ms_activity **out,
		       struct ms_diags *diags)
{
	*out = NULL;
	if (p->hist_state == PART_NONE) {
		p->hist_rc = load_history(p, diags);
		p->hist_state = p->hist_rc < 0 ? PART_FAILED : PART_OK;
	}
	if (p->hist_state == PART_FAILED)
		return p->hist_rc;
	*out = p->act;
	return 0;
}

/* Without history: the tree's .mailmap, the files, then the list. */
static int tree_ident(struct ms_project *p, struct ms_diags *diags)
{
	const struct maint_file *mf;
	const struct ms_tree *t;
	char *mm = NULL;
	size_t mm_len = 0;
	int rc = ms_project_tree(p, &t, &mf, NULL, diags);

	if (rc < 0)
		return rc;
	p->own_ident = ms_ident_new(!p->o.no_plus_fold);
	if (ms_tree_read(t, ".mailmap", &mm, &mm_len) == 0)
		ms_ident_add_mailmap(p->own_ident, ".mailmap", mm, mm_len,
				     diags);
	else
		ms_error_clear();
	g_free(mm);
	for (size_t i = 0; i < p->o.nr_mailmaps; i++)
		ms_ident_add_mailmap(p->own_ident, p->o.mailmaps[i],
				     p->mailmaps[i], p->mailmap_lens[i],
				     diags);
	if (p->aliases)
		ms_ident_add_aliases(p->own_ident, p->o.aliases, p->aliases,
				     p->aliases_len, diags);
	ms_mail_ident_from_list(p->own_ident, p->mail, mf,
				ms_tree_root(t), !p->o.no_name_join, diags);
	return 0;
}

int ms_project_ident(struct ms_project *p, struct ms_ident **out,
		     struct ms_diags *diags)
{
	struct ms_activity *act;
	int rc;

	*out = NULL;
	if (p->o.gitdir) {
		rc = ms_project_history(p, &act, diags);
		if (rc < 0)
			return rc;
		*out = ms_activity_ident(act);
		return 0;
	}
	if (!p->own_ident) {
		rc = tree_ident(p, diags);
		if (rc < 0)
			return rc;
	}
	*out = p->own_ident;
	return 0;
}

void ms_project_people_src(struct ms_project *p,
			   struct ms_link_people_src *src)
{
	if (!p->rev_mailmap_read && p->o.gitdir) {
		if (ms_history_read_file(p->o.gitdir, p->o.rev, ".mailmap",
					 &p->rev_mailmap,
					 &p->rev_mailmap_len) < 0) {
			ms_error_clear();
			p->rev_mailmap = NULL;
			p->rev_mailmap_len = 0;
		}
	}
	p->rev_mailmap_read = true;
	*src = (struct ms_link_people_src){
		.mailmap = p->rev_mailmap,
		.mailmap_len = p->rev_mailmap_len,
		.mailmaps = p->mailmaps,
		.mailmap_lens = p->mailmap_lens,
		.mailmap_names = p->o.mailmaps,
		.nr_mailmaps = p->o.nr_mailmaps,
		.aliases = p->aliases,
		.aliases_len = p->aliases_len,
		.aliases_name = p->o.aliases,
		.name_join = !p->o.no_name_join,
	};
}

struct ms_git_graph *ms_project_objects(struct ms_project *p)
{
	if (!p->objects_tried && p->o.gitdir &&
	    ms_git_graph_open(p->o.gitdir, &p->objects) < 0)
		ms_error_clear();
	p->objects_tried = true;
	return p->objects;
}
