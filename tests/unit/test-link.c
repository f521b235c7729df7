/*
 * test-link.c - Message-IDs from Link: trailer URLs in every form commits
 * carry them, the method names of the JSON schema, and what ms_link_run()
 * compares: ties between postings of one date go to the first posted,
 * subjects compared casefolded without final dots, names casefolded
 * beyond ASCII, files of a tree-wide change in common.
 */
#include "test.h"
#include "link.h"

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
 * files f0 .. f<nr_files - 1> under `dir`. */
static void post(const char *id, const char *from, const char *subject,
		 int day, const char *dir, int nr_files)
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
				       dir, i, dir, i, dir, i, dir, i, id, i,
				       id, i);
	g_string_append(mbox, "-- \n2.40.0\n\n");
	g_free(date);
	g_date_time_unref(d);
}

static struct ms_link_commit *commit(const char *name, const char *email,
				     const char *subject, int day,
				     const char *dir, int nr_files)
{
	struct ms_link_commit *c = g_new0(struct ms_link_commit, 1);

	g_strlcpy(c->id, "0123456789012345678901234567890123456789",
		  sizeof(c->id));
	c->author_name = g_strdup(name);
	c->author_email = g_strdup(email);
	c->committer_name = g_strdup("Maint Ainer");
	c->committer_email = g_strdup("maint@k.org");
	c->author_time = T0 + (gint64)day * DAY;
	c->commit_time = c->author_time + 2 * DAY;
	c->summary = g_strdup(subject);
	c->subject = g_strdup(subject);
	c->link_ids = g_ptr_array_new_with_free_func(g_free);
	c->msgid_ids = g_ptr_array_new_with_free_func(g_free);
	c->paths = g_ptr_array_new_with_free_func(g_free);
	for (int i = 0; i < nr_files; i++)
		g_ptr_array_add(c->paths, g_strdup_printf("%s/f%d.c", dir, i));
	c->tags = g_array_new(FALSE, FALSE, sizeof(struct ms_link_tag));
	return c;
}

static void commit_free(gpointer p)
{
	ms_link_commit_free(p);
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

static void linked_to(const struct ms_link_mail *lm,
		      const struct ms_link_result *r, uint32_t ci,
		      const char *id, unsigned evidence, const char *what)
{
	const struct ms_link *l = link_of(r, ci);
	const struct ms_mail_rec *rec = l ? ms_mail_index_get(
		ms_link_mail_index(lm), l->rec) : NULL;

	is_str(rec ? rec->message_id : NULL, id, what);
	is_int(l ? (int)l->method : -1, MS_LINK_AUTHOR_DATE, what);
	is_int(l ? l->evidence & evidence : 0, evidence, what);
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
	r = ms_link_run(lm, commits, &lo);
	linked_to(lm, r, 0, "tie-1@a.org", MS_LINK_EV_SUBJECT |
		  MS_LINK_EV_FILES | MS_LINK_EV_AUTHOR,
		  "a tie between postings of one date: the first");
	linked_to(lm, r, 1, "case@a.org", MS_LINK_EV_SUBJECT,
		  "subjects equal but for case and final dots");
	linked_to(lm, r, 2, "name@a.org", MS_LINK_EV_AUTHOR,
		  "names equal but for non-ASCII case");
	linked_to(lm, r, 3, "wide@a.org", MS_LINK_EV_FILES,
		  "a tree-wide change's files in common");
	is_int(r->unlinked->len, 0, "every commit linked");
	ms_link_result_free(r);
	ms_link_mail_free(lm);
	ms_diags_release(&diags);
	g_ptr_array_unref(commits);
	g_string_free(mbox, TRUE);
	g_unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

int main(void)
{
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
