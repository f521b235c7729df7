/*
 * test-inbox-url.c - an archive's web address from the remote URL its
 * mirror was fetched from, and from archives without one.
 */
#include "test.h"
#include "inbox-url.h"

#include <glib.h>

static void strip(const char *in, const char *want)
{
	char *got = ms_inbox_url_strip(in);

	is_str(got, want, in);
	g_free(got);
}

int main(void)
{
	char *u;

	strip("https://lore.kernel.org/linux-rdma/git/0.git",
	      "https://lore.kernel.org/linux-rdma");
	strip("https://lore.kernel.org/linux-rdma/git/12.git/",
	      "https://lore.kernel.org/linux-rdma");
	strip("https://lore.kernel.org/ltp/0", "https://lore.kernel.org/ltp");
	strip("http://127.0.0.1:4000/foo/git/1.git", "http://127.0.0.1:4000/foo");
	strip("https://example.org/inbox/", "https://example.org/inbox");
	strip("https://example.org/inbox.git", "https://example.org/inbox");
	u = ms_inbox_base_url("/nonexistent/archive");
	ok(u == NULL, "no archive, no URL");
	g_free(u);
	u = ms_inbox_base_url("/dev/null");
	ok(u == NULL, "not a directory, no URL");
	g_free(u);
	return test_done();
}
