/*
 * link-commits.c - the commit side of linking (link.h): what the history
 * walk and the commits' patch-ids tell about each commit in the window.
 */
#include "link.h"
#include "history.h"
#include "patchid.h"
#include "person.h"
#include "store.h"

#include <string.h>

#define TIME_LIMIT ((int64_t)1 << 40)

/* ---- the commit side ---- */

/*
 * The strings of one load's commits: names, addresses and paths recur
 * from commit to commit and are kept once.  Each commit holds a
 * reference.
 */
struct ms_link_strings {
	GStringChunk *chunk;
	/* the stored patch-ids, whose summaries the commits borrow */
	struct ms_store_patchids *patchids;
};

static void strings_clear(gpointer p)
{
	struct ms_link_strings *ls = p;

	g_string_chunk_free(ls->chunk);
	ms_store_patchids_free(ls->patchids);
}

/* A commit of the load's array: one allocation, and its share of the
 * load's strings. */
static void commit_free(gpointer p)
{
	struct ms_link_commit *c = p;

	g_atomic_rc_box_release_full(c->strings, strings_clear);
	g_free(c);
}

/* A patch-id computed now (prepare()), to be stored (store.h). */
struct fresh_patchid {
	struct ms_store_patchid v;      /* first: the store reads this */
	char id[41];
	bool failed;                    /* no patch-id: not stored */
};

static void fresh_free(struct fresh_patchid *x)
{
	g_free(x->v.summary);
	g_free(x);
}

static void release_user(void *user, void *data)
{
	(void)data;
	fresh_free(user);
}

struct load {
	const struct ms_link_commits_opts *opts;
	GPtrArray *out;
	size_t failed;          /* commits whose patch-id could not be had */
	char *error_msg;        /* the first one's reason */
	GMutex lock;
	size_t walked;
	/* through the store: patch-ids known before (strings->patchids),
	 * and computed now */
	struct ms_store_patchids *known;
	GPtrArray *fresh;       /* struct fresh_patchid * */
	/* on_commit()'s */
	struct ms_link_strings *strings;
	GString *buf;
};

static char *strip_brackets(const char *v)
{
	char *s = g_strstrip(g_strdup(v));
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '<' && s[n - 1] == '>') {
		memmove(s, s + 1, n - 2);
		s[n - 2] = 0;
	}
	return s;
}

static bool in_window(const struct load *ld, const struct ms_commit *c)
{
	return c->committer.time >= ld->opts->since &&
	       c->committer.time <= ld->opts->until;
}

/*
 * On the pool: the patch-id of a commit of the window the store does not
 * know (a struct fresh_patchid *), or NULL.
 */
static void *prepare(const struct ms_commit *c, void *data)
{
	struct load *ld = data;
	struct fresh_patchid *x;
	int rc;

	if (!in_window(ld, c) ||
	    (ld->known && ms_store_patchids_find(ld->known, c->id)))
		return NULL;
	x = g_new0(struct fresh_patchid, 1);
	memcpy(x->id, c->id, sizeof(x->id));
	rc = ms_commit_patchid(ld->opts->gitdir, c->id,
			       c->incomplete ? NULL : c->paths,
			       c->incomplete ? 0 : c->nr_paths,
			       x->v.patch_id, &x->v.summary);
	if (rc < 0) {
		/* a missing blob or a broken tree: this commit goes without
		 * a patch-id and subject (its trailers, author and dates
		 * still link it), the rest of the history is linked, and
		 * the count is said */
		g_mutex_lock(&ld->lock);
		if (!ld->failed++)
			ld->error_msg = g_strdup(ms_error_last());
		g_mutex_unlock(&ld->lock);
		x->v.patch_id[0] = 0;
		g_clear_pointer(&x->v.summary, g_free);
		x->failed = true;
	}
	return x;
}

static char *keep(struct load *ld, const char *s)
{
	return s ? g_string_chunk_insert_const(ld->strings->chunk, s) : NULL;
}

static char *keep_email(struct load *ld, const char *s)
{
	if (!s)
		return NULL;
	g_string_assign(ld->buf, s);
	ms_email_normalize_in_place(ld->buf->str, 0);
	return g_string_chunk_insert_const(ld->strings->chunk, ld->buf->str);
}

static bool is_tag(enum ms_trailer_kind kind)
{
	return kind == MS_TRAILER_REVIEWED_BY ||
	       kind == MS_TRAILER_ACKED_BY || kind == MS_TRAILER_TESTED_BY;
}

/*
 * The commit as linking sees it, in one allocation with its arrays, its
 * strings in ld->strings; `summary` is copied there unless `kept` (it
 * lives as long as ld->strings already).
 */
static struct ms_link_commit *link_commit(struct load *ld,
					  const struct ms_commit *c,
					  const char *patch_id,
					  const char *summary, bool kept)
{
	struct ms_link_commit *lc;
	GStringChunk *chunk = ld->strings->chunk;
	size_t nr_links = 0, nr_msgids = 0, nr_tags = 0;

	for (size_t i = 0; i < c->nr_trailers; i++) {
		nr_links += c->trailers[i].kind == MS_TRAILER_LINK;
		nr_msgids += c->trailers[i].kind == MS_TRAILER_MESSAGE_ID;
		nr_tags += is_tag(c->trailers[i].kind);
	}
	lc = g_malloc0(sizeof(*lc) + sizeof(char *) * (c->nr_paths +
						       nr_links + nr_msgids) +
		       sizeof(struct ms_link_tag) * nr_tags);
	lc->paths = (char **)(void *)(lc + 1);
	lc->link_ids = lc->paths + c->nr_paths;
	lc->msgid_ids = lc->link_ids + nr_links;
	lc->tags = (struct ms_link_tag *)(void *)(lc->msgid_ids + nr_msgids);
	lc->strings = g_atomic_rc_box_acquire(ld->strings);
	memcpy(lc->id, c->id, sizeof(lc->id));
	g_strlcpy(lc->patch_id, patch_id, sizeof(lc->patch_id));
	lc->author_name = keep(ld, c->author.name);
	lc->author_email = keep_email(ld, c->author.email);
	lc->committer_name = keep(ld, c->committer.name);
	lc->committer_email = keep_email(ld, c->committer.email);
	/* times come from any commit, or a store anyone may have written:
	 * kept within +-2^40 s (35,000 years), so that the matcher's windows
	 * (link.c) cannot overflow */
	lc->author_time = CLAMP(c->author.time, -TIME_LIMIT, TIME_LIMIT);
	lc->commit_time = CLAMP(c->committer.time, -TIME_LIMIT, TIME_LIMIT);
	lc->summary = kept ? (char *)summary :
		      g_string_chunk_insert(chunk, summary);
	g_string_set_size(ld->buf, strlen(summary));
	g_string_set_size(ld->buf, ms_mail_subject_normalize(summary,
							     ld->buf->str));
	/* most summaries are their own normalized subject */
	lc->subject = !strcmp(ld->buf->str, summary) ? lc->summary :
		      g_string_chunk_insert_len(chunk, ld->buf->str,
						(gssize)ld->buf->len);
	for (size_t i = 0; i < c->nr_paths; i++)
		lc->paths[lc->nr_paths++] = keep(ld, c->paths[i]);
	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct ms_commit_trailer *t = &c->trailers[i];
		struct ms_link_tag *tag;
		char *id = NULL;

		if (t->kind == MS_TRAILER_LINK) {
			id = ms_link_url_msgid(t->value);
			if (id)
				lc->link_ids[lc->nr_link_ids++] =
					g_string_chunk_insert(chunk, id);
		} else if (t->kind == MS_TRAILER_MESSAGE_ID) {
			id = strip_brackets(t->value);
			if (*id)
				lc->msgid_ids[lc->nr_msgid_ids++] =
					g_string_chunk_insert(chunk, id);
		} else if (is_tag(t->kind)) {
			tag = &lc->tags[lc->nr_tags++];
			tag->kind = t->kind;
			tag->name = keep(ld, t->name ? t->name : "");
			tag->email = keep_email(ld, t->email ? t->email : "");
		}
		g_free(id);
	}
	return lc;
}

/* On the calling thread, in walk order. */
static int on_commit(const struct ms_commit *c, void *data)
{
	struct load *ld = data;
	struct fresh_patchid *x = c->user;
	const struct ms_store_patchid *known = NULL;
	const char *patch_id = "", *summary = "";
	bool kept = true;

	if (ld->opts->progress)
		ld->opts->progress(++ld->walked, ld->opts->progress_data);
	if (!in_window(ld, c))
		return 0;
	if (x) {
		patch_id = x->v.patch_id;
		summary = x->v.summary ? x->v.summary : "";
		kept = false;
	} else if (ld->known) {
		known = ms_store_patchids_find(ld->known, c->id);
	}
	if (known) {
		patch_id = known->patch_id;
		summary = known->summary;
	}
	/* neither: prepare() failed for this commit (counted) */
	g_ptr_array_add(ld->out, link_commit(ld, c, patch_id, summary,
					     kept));
	if (x && ld->fresh && !c->incomplete && !x->failed)
		g_ptr_array_add(ld->fresh, x);
	else if (x)
		fresh_free(x);
	return 0;
}

/* Store the patch-ids of ld.fresh (keep_patchid()'s records). */
static int put_patchids(struct ms_store *s, GPtrArray *fresh)
{
	const char **ids = g_new(const char *, fresh->len);
	int rc;

	for (guint i = 0; i < fresh->len; i++)
		ids[i] = ((struct fresh_patchid *)fresh->pdata[i])->id;
	rc = ms_store_patchids_put(s, ids, (const struct ms_store_patchid
					    *const *)fresh->pdata,
				   fresh->len);
	g_free(ids);
	return rc;
}

int ms_link_commits_load(const struct ms_link_commits_opts *opts,
			 GPtrArray **out, struct ms_diags *diags)
{
	struct ms_walk_opts wo = { 0 };
	struct load ld = { 0 };
	int rc;

	ld.opts = opts;
	ld.out = g_ptr_array_new_with_free_func(commit_free);
	ld.strings = g_atomic_rc_box_new0(struct ms_link_strings);
	ld.strings->chunk = g_string_chunk_new(64 * 1024);
	ld.buf = g_string_new(NULL);
	g_mutex_init(&ld.lock);
	wo.rev = opts->rev;
	wo.prepare = prepare;
	wo.fn = on_commit;
	wo.release = release_user;
	wo.data = &ld;
	if (opts->store) {
		rc = ms_store_patchids_get(opts->store, &ld.known);
		if (rc < 0)
			goto out;
		ld.strings->patchids = ld.known;
		ld.fresh = g_ptr_array_new();
	}
	rc = ms_store_history_walk(opts->store, opts->gitdir, &wo, NULL,
				   diags);
	if (rc == 0 && ld.failed)
		ms_diags_add(diags, NULL, 0, "%zu commit%s could not be diffed "
			     "(the first: %s): linked without a patch-id",
			     ld.failed, ld.failed == 1 ? "" : "s",
			     ld.error_msg);
	if (rc == 0 && ld.fresh && ld.fresh->len)
		rc = put_patchids(opts->store, ld.fresh);
out:
	if (ld.fresh) {
		for (guint i = 0; i < ld.fresh->len; i++)
			fresh_free(ld.fresh->pdata[i]);
		g_ptr_array_free(ld.fresh, TRUE);
	}
	g_atomic_rc_box_release_full(ld.strings, strings_clear);
	g_string_free(ld.buf, TRUE);
	g_free(ld.error_msg);
	g_mutex_clear(&ld.lock);
	if (rc < 0) {
		g_ptr_array_unref(ld.out);
		*out = NULL;
		return rc;
	}
	*out = ld.out;
	return 0;
}

char *ms_link_url_msgid(const char *url)
{
	char *v = strip_brackets(url), *p, *host, *path, *id = NULL;
	char **segs = NULL;
	guint n;

	p = strstr(v, "://");
	if (!p)
		goto out;
	host = p + 3;
	path = strchr(host, '/');
	if (!path)
		goto out;
	*path++ = 0;
	path[strcspn(path, "?#")] = 0;
	segs = g_strsplit(path, "/", -1);
	/* drop empty segments */
	n = 0;
	for (guint i = 0; segs[i]; i++) {
		if (*segs[i])
			segs[n++] = segs[i];
		else
			g_free(segs[i]);
	}
	segs[n] = NULL;
	if (n == 0)
		goto out;
	for (guint i = 0; i < n; i++) {
		char *dec = g_uri_unescape_string(segs[i], NULL);

		if (dec) {
			g_free(segs[i]);
			segs[i] = dec;
		}
	}
	if (!g_ascii_strcasecmp(host, "patch.msgid.link") ||
	    !g_ascii_strcasecmp(host, "msgid.link")) {
		id = segs[0];
		if (!strcmp(id, "r") && n > 1)
			id = segs[1];
	} else {
		for (guint i = 0; i + 1 < n; i++)
			if (!strcmp(segs[i], "r")) {
				id = segs[i + 1];
				break;
			}
		if (!id && n >= 2 && strchr(segs[1], '@'))
			id = segs[1];
		else if (!id && strchr(segs[0], '@'))
			id = segs[0];
	}
	if (id)
		id = strchr(id, '@') ? strip_brackets(id) : NULL;
out:
	g_strfreev(segs);
	g_free(v);
	return id;
}
