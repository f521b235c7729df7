/*
 * test-link.c - Message-IDs from Link: trailer URLs in every form commits
 * carry them, the method names of the JSON schema, and what ms_link_run()
 * compares: ties between postings of one date go to the first posted,
 * subjects compared casefolded without final dots, names casefolded
 * beyond ASCII, files of a tree-wide change in common; and the links
 * kept in a store (link-cache.h), written while the caller goes on.
 */
#include "test.h"
#include "link.h"
#include "link-cache.h"
#include "store.h"

#include <glib.h>
#include <glib/gstdio.h>

static void url(const char *in, const char *want)
{
	char *got = ms_link_url_msgid(in);

	is_str(got, want, in);
	g_free(got);
}

/* 2024-01-01 10:00:00 UTC and the days after */
#define T0 1704103200
#define DAY 86400

static GString *mbox;

/* A posting by `from` dated `day` days after T0 whose diff touches
 * files f0 .. f<nr_files - 1> under `dir`; its lines name `tag`, so
 * postings of one tag have one patch-id. */
static void post_diff(const char *id, const char *from,
		      const char *subject, int day, const char *dir,
		      int nr_files, const char *tag)
{
	GDateTime *d = g_date_time_new_from_unix_utc(T0 + (gint64)day * DAY);
	char *date = g_date_time_format(d, "%a, %d %b %Y %H:%M:%S +0000");

	g_string_append_printf(mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			       "From: %s\nSubject: [PATCH] %s\nDate: %s\n"
			       "Message-ID: <%s>\n\nA change.\n\n"
			       "Signed-off-by: %s\n---\n", from, subject,
			       date, id, from);
	for (int i = 0; i < nr_files; i++)
		g_string_append_printf(mbox, "diff --git a/%s/f%d.c b/%s/f%d.c\n"
				       "index 1111111..2222222 100644\n"
				       "--- a/%s/f%d.c\n+++ b/%s/f%d.c\n"
				       "@@ -1 +1 @@\n-old %s %d\n+new %s %d\n",
				       dir, i, dir, i, dir, i, dir, i, tag, i,
				       tag, i);
	g_string_append(mbox, "-- \n2.40.0\n\n");
	g_free(date);
	g_date_time_unref(d);
}

static void post(const char *id, const char *from, const char *subject,
		 int day, const char *dir, int nr_files)
{
	post_diff(id, from, subject, day, dir, nr_files, id);
}

/* Commit `c` given the patch-id of posting `id`. */
static void take_patch_id(struct ms_link_commit *c,
			  const struct ms_link_mail *lm, const char *id)
{
	const struct ms_mail_index *idx = ms_link_mail_index(lm);

	for (size_t i = 0; i < ms_mail_index_count(idx); i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, (uint32_t)i);

		if (r->message_id && r->patch_id &&
		    !strcmp(r->message_id, id))
			g_strlcpy(c->patch_id, r->patch_id,
				  sizeof(c->patch_id));
	}
}

static struct ms_link_commit *commit(const char *name, const char *email,
				     const char *subject, int day,
				     const char *dir, int nr_files)
{
	static int nr;
	struct ms_link_commit *c = g_new0(struct ms_link_commit, 1);

	/* distinct ids: the store keeps a link per commit */
	g_snprintf(c->id, sizeof(c->id), "%040d", ++nr);
	c->author_name = g_strdup(name);
	c->author_email = g_strdup(email);
	c->committer_name = g_strdup("Maint Ainer");
	c->committer_email = g_strdup("maint@k.org");
	c->author_time = T0 + (gint64)day * DAY;
	c->commit_time = c->author_time + 2 * DAY;
	c->summary = g_strdup(subject);
	c->subject = g_strdup(subject);
	c->paths = g_new(char *, nr_files);
	for (int i = 0; i < nr_files; i++)
		c->paths[c->nr_paths++] = g_strdup_printf("%s/f%d.c", dir, i);
	return c;
}

/* A commit() and what it holds (ms_link_commits_load()'s commits are
 * freed by their array's function). */
static void commit_free(gpointer p)
{
	struct ms_link_commit *c = p;

	g_free(c->author_name);
	g_free(c->author_email);
	g_free(c->committer_name);
	g_free(c->committer_email);
	g_free(c->summary);
	g_free(c->subject);
	for (size_t i = 0; i < c->nr_link_ids; i++)
		g_free(c->link_ids[i]);
	g_free(c->link_ids);
	for (size_t i = 0; i < c->nr_paths; i++)
		g_free(c->paths[i]);
	g_free(c->paths);
	g_free(c);
}

/* The link of commit `ci`, or NULL. */
static const struct ms_link *link_of(const struct ms_link_result *r,
				     uint32_t ci)
{
	for (guint i = 0; i < r->links->len; i++)
		if (g_array_index(r->links, struct ms_link, i).commit == ci)
			return &g_array_index(r->links, struct ms_link, i);
	return NULL;
}

/* Commit `ci` linked to posting `id` by `method`, with (at least)
 * `evidence` when not 0. */
static void linked_to(const struct ms_link_mail *lm,
		      const struct ms_link_result *r, uint32_t ci,
		      const char *id, enum ms_link_method method,
		      unsigned evidence, const char *what)
{
	const struct ms_link *l = link_of(r, ci);
	const struct ms_mail_rec *rec = l ? ms_mail_index_get(
		ms_link_mail_index(lm), l->rec) : NULL;

	is_str(rec ? rec->message_id : NULL, id, what);
	is_int(l ? (int)l->method : -1, (int)method, what);
	if (evidence)
		is_int(l ? l->evidence & evidence : 0, evidence, what);
}

/* Whether results `a` and `b` are the same links. */
static bool same_links(const struct ms_link_result *a,
		       const struct ms_link_result *b)
{
	if (a->links->len != b->links->len ||
	    a->unlinked->len != b->unlinked->len)
		return false;
	for (guint i = 0; i < a->links->len; i++) {
		const struct ms_link *x = &g_array_index(a->links,
							 struct ms_link, i);
		const struct ms_link *y = &g_array_index(b->links,
							 struct ms_link, i);

		if (x->commit != y->commit || x->rec != y->rec ||
		    x->method != y->method || x->evidence != y->evidence ||
		    x->earlier->len != y->earlier->len)
			return false;
	}
	return true;
}

/* The stored row of commit `ci`, read back now (NULL: none); *state
 * its state. */
static char *stored_msgid(struct ms_store *s, const GPtrArray *commits,
			  uint32_t ci, char **state)
{
	const struct ms_link_commit *c = commits->pdata[ci];
	struct ms_store_links *l = NULL;
	const struct ms_store_link *sl;
	char *id = NULL;

	*state = NULL;
	if (ms_store_links_get(s, MS_LINK_VERSION, 0, &l) < 0)
		return NULL;
	sl = ms_store_links_find(l, c->id);
	if (sl) {
		id = g_strdup(sl->message_id ? sl->message_id : "(unlinked)");
		*state = g_strdup(sl->state);
	}
	ms_store_links_free(l);
	return id;
}

/*
 * The links through a store: the result is ms_link_run()'s, every
 * commit gets its row with the messages' state, a wrong row is put
 * right, and the two halves (_begin, then _end after the caller's own
 * work) do the same as the whole.
 */
static void stored_links(const char *dir, const struct ms_link_mail *lm,
			 const GPtrArray *commits)
{
	char *db = g_build_filename(dir, "links.sqlite", NULL);
	char *state = ms_link_mail_state(lm), *st, *id;
	struct ms_link_opts lo = { 0 };
	struct ms_link_result *want = ms_link_run(lm, commits, &lo), *r;
	struct ms_link_stored *pending;
	struct ms_store *s = NULL;
	struct ms_store_link wrong = { 0 };
	const struct ms_link_commit *c0 = commits->pdata[0];
	const char *ids[1] = { c0->id };
	bool all = true;

	if (ms_store_open(db, NULL, &s, NULL) < 0) {
		ok(0, "open a store", ms_error_last());
		goto out;
	}
	is_int(ms_link_run_stored_begin(s, lm, commits, &lo, &r, &pending), 0,
	       "links through a new store");
	is_int(ms_link_run_stored_end(pending), 0, "... written");
	ok(r && same_links(r, want), "... are ms_link_run()'s");
	ms_link_result_free(r);
	for (guint ci = 0; ci < commits->len; ci++) {
		const struct ms_link *l = link_of(want, ci);
		const char *w = l ? ms_mail_index_get(ms_link_mail_index(lm),
						      l->rec)->message_id :
				    "(unlinked)";

		id = stored_msgid(s, commits, ci, &st);
		if (g_strcmp0(id, w) || g_strcmp0(st, state))
			all = false;
		g_free(id);
		g_free(st);
	}
	ok(all, "every commit's link stored, with the messages' state");

	/* a wrong row of the current state is rewritten */
	wrong.rec = -1;
	is_int(ms_store_links_put(s, MS_LINK_VERSION, 0, state, NULL, 0, ids,
				  &wrong, 1), 0, "store a wrong link");
	id = stored_msgid(s, commits, 0, &st);
	is_str(id, "(unlinked)", "... it is stored");
	g_free(id);
	g_free(st);
	is_int(ms_link_run_stored_begin(s, lm, commits, &lo, &r, &pending), 0,
	       "links in two halves");
	ok(r && same_links(r, want), "... the result at once");
	ok(pending != NULL, "... the rows being written");
	is_int(ms_link_run_stored_end(pending), 0, "... and then written");
	ms_link_result_free(r);
	id = stored_msgid(s, commits, 0, &st);
	is_str(id, "tie-1@a.org", "the wrong link was put right");
	g_free(id);
	g_free(st);

	/* without a store: nothing pending */
	is_int(ms_link_run_stored_begin(NULL, lm, commits, &lo, &r,
					&pending), 0, "no store");
	ok(r && same_links(r, want) && !pending,
	   "... the result, nothing pending");
	is_int(ms_link_run_stored_end(pending), 0, "... ending it is a no-op");
	ms_link_result_free(r);
out:
	ms_store_free(s);
	ms_link_result_free(want);
	g_free(state);
	{
		/* the store's files: the database and its journals */
		GDir *d = g_dir_open(dir, 0, NULL);
		const char *name;

		while (d && (name = g_dir_read_name(d))) {
			char *p = g_build_filename(dir, name, NULL);

			if (g_str_has_prefix(name, "links.sqlite"))
				g_unlink(p);
			g_free(p);
		}
		if (d)
			g_dir_close(d);
	}
	g_free(db);
}

static void run_linker(void)
{
	char *dir = g_dir_make_tmp("test-link-XXXXXX", NULL);
	char *path = g_build_filename(dir, "list.mbox", NULL);
	const char *archives[1] = { path };
	struct ms_link_mail_opts mo = { 0 };
	struct ms_link_opts lo = { 0 };
	struct ms_link_mail *lm = NULL;
	struct ms_diags diags = MS_DIAGS_INIT;
	GPtrArray *commits = g_ptr_array_new_with_free_func(commit_free);
	struct ms_link_result *r;

	mbox = g_string_new(NULL);
	/* one day, two equal postings: the first posted is applied */
	post("tie-1@a.org", "Ann Author <ann@a.org>", "net: fix one", 0,
	     "net", 1);
	post("tie-2@a.org", "Ann Author <ann@a.org>", "net: fix one", 0,
	     "net", 1);
	/* the maintainer cased the subject and added a final dot */
	post("case@a.org", "Bob Builder <bob@b.org>", "mm: Fix the Pager",
	     1, "mm", 1);
	/* the sender's name in other case beyond ASCII, another address,
	 * subject reworded: the name is what confirms the author */
	post("name@a.org", "=?UTF-8?Q?J=C3=B6rg_R=C3=B6del?= <joro@a.org>",
	     "iommu: rework", 2, "iommu", 1);
	/* a tree-wide change: 12 files on both sides */
	post("wide@a.org", "Cat Coder <cat@c.org>", "treewide: rename", 3,
	     "fs", 12);
	/* Eve's patch, reposted unchanged by the maintainer, who then
	 * committed it: he pushed his repost (git am kept Eve's Date) */
	post("eve@e.org", "Eve Ember <eve@e.org>", "crypto: fix the key", 4,
	     "crypto", 1);
	post_diff("repost@k.org", "Maint Ainer <maint@k.org>",
		  "crypto: fix the key", 5, "crypto", 1, "eve@e.org");
	/* Fay's patch, reposted by the maintainer only after he committed
	 * it: her posting was applied */
	post("fay@f.org", "Fay Fern <fay@f.org>", "hash: speed up", 11,
	     "hash", 1);
	post_diff("late@k.org", "Maint Ainer <maint@k.org>",
		  "hash: speed up", 14, "hash", 1, "fay@f.org");
	/* Gus's patch, resent by Hal (not the committer): the posting at
	 * the author date */
	post("gus@g.org", "Gus Gray <gus@g.org>", "sched: tidy", 15, "sched",
	     1);
	post_diff("hal@h.org", "Hal Hue <hal@h.org>", "sched: tidy", 16,
		  "sched", 1, "gus@g.org");
	/* a reply, no posting, under a subject nothing else has: a Link:
	 * trailer names it (matched on the second thread, whose subject
	 * keys are frozen) */
	g_string_append(mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			"From: Dan Dev <dan@d.org>\n"
			"Subject: Re: odd words nobody else used\n"
			"Date: Fri, 05 Jan 2024 10:00:00 +0000\n"
			"Message-ID: <reply@a.org>\n\nApplied, thanks.\n\n");
	/* ... and one under a subject no commit has either */
	g_string_append(mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			"From: Dan Dev <dan@d.org>\n"
			"Subject: Re: an unrelated thread\n"
			"Date: Sat, 06 Jan 2024 10:00:00 +0000\n"
			"Message-ID: <reply-2@a.org>\n\nSure.\n\n");
	g_assert(g_file_set_contents(path, mbox->str, (gssize)mbox->len,
				     NULL));
	mo.archives = archives;
	mo.nr_archives = 1;
	is_int(ms_link_mail_load(&mo, &lm, &diags), 0, "load the list");
	g_ptr_array_add(commits, commit("Ann Author", "ann@a.org",
					"net: fix one", 0, "net", 1));
	g_ptr_array_add(commits, commit("Bob Builder", "bob@b.org",
					"MM: fix the pager..", 1, "mm", 1));
	g_ptr_array_add(commits, commit("J\xc3\x96" "RG R\xc3\x96" "DEL",
					"joerg@other.org",
					"iommu: rework the tables", 2,
					"iommu", 1));
	g_ptr_array_add(commits, commit("Cat Coder", "cat@c.org",
					"treewide: rename it all", 3, "fs",
					12));
	{
		struct ms_link_commit *c = commit("Dan Dev", "dan@d.org",
						  "odd words nobody else used",
						  9, "drv", 1);

		c->link_ids = g_new(char *, 1);
		c->link_ids[c->nr_link_ids++] = g_strdup("reply@a.org");
		g_ptr_array_add(commits, c);
		c = commit("Dan Dev", "dan@d.org", "drv: another fix", 10,
			   "drv", 1);
		c->link_ids = g_new(char *, 1);
		c->link_ids[c->nr_link_ids++] = g_strdup("reply-2@a.org");
		g_ptr_array_add(commits, c);
	}
	{
		static const char *const by[][3] = {
			{ "Eve Ember", "eve@e.org", "crypto: fix the key" },
			{ "Fay Fern", "fay@f.org", "hash: speed up" },
			{ "Gus Gray", "gus@g.org", "sched: tidy" },
		};
		static const int day[] = { 4, 11, 15 };
		static const char *const dir[] = { "crypto", "hash", "sched" };
		static const char *const id[] = { "eve@e.org", "fay@f.org",
						   "gus@g.org" };

		for (int i = 0; i < 3; i++) {
			struct ms_link_commit *c = commit(by[i][0], by[i][1],
							  by[i][2], day[i],
							  dir[i], 1);

			take_patch_id(c, lm, id[i]);
			g_ptr_array_add(commits, c);
		}
	}
	r = ms_link_run(lm, commits, &lo);
	linked_to(lm, r, 6, "repost@k.org", MS_LINK_PATCH_ID, 0,
		  "a patch the committer reposted: his repost");
	linked_to(lm, r, 7, "fay@f.org", MS_LINK_PATCH_ID, 0,
		  "a repost after the commit: the author's posting");
	linked_to(lm, r, 8, "gus@g.org", MS_LINK_PATCH_ID, 0,
		  "a repost by someone else: the posting at the author "
		  "date");
	linked_to(lm, r, 0, "tie-1@a.org", MS_LINK_AUTHOR_DATE,
		  MS_LINK_EV_SUBJECT | MS_LINK_EV_FILES | MS_LINK_EV_AUTHOR,
		  "a tie between postings of one date: the first");
	linked_to(lm, r, 1, "case@a.org", MS_LINK_AUTHOR_DATE,
		  MS_LINK_EV_SUBJECT,
		  "subjects equal but for case and final dots");
	linked_to(lm, r, 2, "name@a.org", MS_LINK_AUTHOR_DATE,
		  MS_LINK_EV_AUTHOR,
		  "names equal but for non-ASCII case");
	linked_to(lm, r, 3, "wide@a.org", MS_LINK_AUTHOR_DATE,
		  MS_LINK_EV_FILES,
		  "a tree-wide change's files in common");
	{
		const struct ms_link *l = link_of(r, 4);
		const struct ms_mail_rec *rec = l ? ms_mail_index_get(
			ms_link_mail_index(lm), l->rec) : NULL;

		is_str(rec ? rec->message_id : NULL, "reply@a.org",
		       "a Link: trailer naming a reply, on the second thread");
		is_int(l ? (int)l->method : -1, MS_LINK_TRAILER,
		       "... found by the trailer");
		is_int(l ? (int)l->evidence : -1, MS_LINK_EV_SUBJECT |
		       MS_LINK_EV_AUTHOR, "... its subject and sender agree");
		l = link_of(r, 5);
		rec = l ? ms_mail_index_get(ms_link_mail_index(lm), l->rec) :
			  NULL;
		is_str(rec ? rec->message_id : NULL, "reply-2@a.org",
		       "a Link: trailer naming a reply under a subject of "
		       "its own");
		is_int(l ? (int)l->evidence : -1, MS_LINK_EV_AUTHOR,
		       "... only its sender agrees");
	}
	is_int(r->unlinked->len, 0, "every commit linked");
	ms_link_result_free(r);
	stored_links(dir, lm, commits);
	ms_link_mail_free(lm);
	ms_diags_release(&diags);
	g_ptr_array_unref(commits);
	g_string_free(mbox, TRUE);
	g_unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

/*
 * A record's pre-image blobs (review's blob rule) come back from the
 * store's snapshot of the index as the first read had them, beside its
 * files, and a record without any has none.
 */
static void snapshot_preimages(void)
{
	char *dir = g_dir_make_tmp("test-link-pre-XXXXXX", NULL);
	char *path = g_build_filename(dir, "pre.mbox", NULL);
	char *db = g_build_filename(dir, "pre.sqlite", NULL);
	const char *archives[1] = { path };
	static const char mbox[] =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: Ann <ann@a.org>\nSubject: [PATCH] a: b\n"
		"Date: Mon, 01 Jan 2024 10:00:00 +0000\n"
		"Message-ID: <pre@a.org>\n\nText.\n---\n"
		"diff --git a/a.c b/a.c\nindex 0ffc3c02247d..1234567 100644\n"
		"--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a\n+b\n\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: Bob <bob@b.org>\nSubject: [PATCH] c: d\n"
		"Date: Tue, 02 Jan 2024 10:00:00 +0000\n"
		"Message-ID: <new@b.org>\n\nText.\n---\n"
		"diff --git a/n.c b/n.c\nnew file mode 100644\n"
		"index 0000000..1234567\n--- /dev/null\n+++ b/n.c\n"
		"@@ -0,0 +1 @@\n+n\n\n";
	struct ms_link_mail_opts mo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_store *s = NULL;

	g_assert(g_file_set_contents(path, mbox, -1, NULL));
	if (ms_store_open(db, NULL, &s, NULL) < 0) {
		ok(0, "open a store: %s", ms_error_last());
		goto out;
	}
	mo.archives = archives;
	mo.nr_archives = 1;
	mo.store = s;
	for (int run = 0; run < 2; run++) {
		struct ms_link_mail *lm = NULL;
		const GPtrArray *p, *f;

		is_int(ms_link_mail_load(&mo, &lm, &diags), 0, run ?
		       "read again, from the snapshot" : "read, into a store");
		if (!lm)
			continue;
		p = ms_link_mail_preimages(lm, 0);
		f = ms_link_mail_files(lm, 0);
		ok(p && p->len == 1 && !strcmp(p->pdata[0], "0ffc3c02247d a.c"),
		   "... the first patch's pre-image blob");
		ok(f && f->len == 1 && !strcmp(f->pdata[0], "a.c"),
		   "... and its file, apart");
		ok(!ms_link_mail_preimages(lm, 1) &&
		   ms_link_mail_files(lm, 1) != NULL,
		   "... a new file: a file, no pre-image");
		ms_link_mail_free(lm);
	}
	ms_store_free(s);
out:
	ms_diags_release(&diags);
	g_unlink(path);
	for (const char *const *x = (const char *const[]){ "", "-wal", "-shm",
							   NULL }; *x; x++) {
		char *f = g_strconcat(db, *x, NULL);

		g_unlink(f);
		g_free(f);
	}
	g_rmdir(dir);
	g_free(path);
	g_free(db);
	g_free(dir);
}

int main(void)
{
	snapshot_preimages();
	run_linker();
	url("https://lore.kernel.org/ltp/20240101.1-2-a@suse.cz/",
	    "20240101.1-2-a@suse.cz");
	url("https://lore.kernel.org/ltp/20240101.1-2-a@suse.cz",
	    "20240101.1-2-a@suse.cz");
	url("https://lore.kernel.org/all/x.y@z.org/T/#u", "x.y@z.org");
	url("https://lore.kernel.org/r/abc@def.com", "abc@def.com");
	url("http://lkml.kernel.org/r/abc@def.com", "abc@def.com");
	url("https://lore.kernel.org/linux-rdma/abc%40def.com/",
	    "abc@def.com");
	url("https://lore.kernel.org/netdev/%3Cabc@def.com%3E/",
	    "abc@def.com");
	url("https://patch.msgid.link/20250101-foo-v2-1-aa@kernel.org",
	    "20250101-foo-v2-1-aa@kernel.org");
	url("https://msgid.link/r/abc@def.com", "abc@def.com");
	url("<https://lore.kernel.org/ltp/ZqeFKkUbhlikEfNS@yuki/>",
	    "ZqeFKkUbhlikEfNS@yuki");
	url("https://lore.kernel.org/ltp/a@b/?q=1", "a@b");
	url("https://github.com/linux-test-project/ltp/pull/1234", NULL);
	url("https://bugzilla.kernel.org/show_bug.cgi?id=1", NULL);
	url("not a url", NULL);
	url("", NULL);
	is_str(ms_link_method_name(MS_LINK_TRAILER), "link-trailer", "name");
	is_str(ms_link_method_name(MS_LINK_MSGID_TRAILER),
	       "message-id-trailer", "name");
	is_str(ms_link_method_name(MS_LINK_PATCH_ID), "patch-id", "name");
	is_str(ms_link_method_name(MS_LINK_SUBJECT), "subject", "name");
	is_str(ms_link_method_name(MS_LINK_AUTHOR_DATE), "author-date",
	       "name");
	return test_done();
}
