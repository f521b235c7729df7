/*
 * inbox-url.h - the web address of a public-inbox archive, for links to
 * its messages (https://HOST/LIST/<msgid>/).
 */
#ifndef MS_INBOX_URL_H
#define MS_INBOX_URL_H

#include <stdbool.h>

/*
 * The base URL of the public-inbox archive at `path`: the remote a mirror
 * was cloned or fetched from (remote "origin" of a v1 repository, or of
 * the lowest-numbered epoch INBOX/git/N.git of a v2 inbox), without the
 * epoch suffix ("/git/N.git", "/N") and trailing slashes.  Newly
 * allocated (g_free), or NULL when `path` is no git archive or has no
 * such remote (an mbox, a plain mirror): the caller then needs a
 * --list-url.  Never fails otherwise.
 */
char *ms_inbox_base_url(const char *path);

/*
 * Whether `url` may become a link: an http:// or https:// address with a
 * host, no spaces, quotes, angle brackets or control characters.
 */
bool ms_url_is_web(const char *url);

/* The base URL of a remote URL `url` as above (newly allocated). */
char *ms_inbox_url_strip(const char *url);

#endif
