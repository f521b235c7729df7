/*
 * test-link.c - Message-IDs from Link: trailer URLs in every form commits
 * carry them, and the method names of the JSON schema.
 */
#include "test.h"
#include "link.h"

#include <glib.h>

static void url(const char *in, const char *want)
{
	char *got = ms_link_url_msgid(in);

	is_str(got, want, in);
	g_free(got);
}

int main(void)
{
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
