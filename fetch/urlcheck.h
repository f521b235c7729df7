/*
 * urlcheck.h - checking many web links at once (MAINTAINERS W:, B:, Q:, T:
 * fields): status after redirects, final URL and Last-Modified, and a
 * verdict.  Requests are concurrent but at most one at a time and
 * opts->rate a second per host, with the fetcher's retry rules (fetch.h).
 * Only http and https URLs are requested; others are listed as unchecked.
 */
#ifndef MS_URLCHECK_H
#define MS_URLCHECK_H

#include "fetch.h"

#include <stddef.h>
#include <stdint.h>

enum ms_url_verdict {
	MS_URL_UNCHECKED = 0, /* not http(s), or not checked yet */
	MS_URL_OK,            /* 2xx after redirects */
	MS_URL_STALE,         /* 2xx, Last-Modified older than stale_after */
	MS_URL_DEAD,          /* 4xx (not 429), unknown host, refused,
			       * a redirect loop */
	MS_URL_ERROR,         /* 5xx or 429 after retries, timeout, TLS */
};

/* One URL's outcome; strings borrowed from the checker. */
struct ms_url_result {
	const char *url;
	long status;            /* final HTTP status, 0 when none */
	const char *final_url;  /* after redirects; NULL when none */
	int64_t last_modified;  /* Unix time, -1 when not sent */
	enum ms_url_verdict verdict;
	const char *error;      /* why, for DEAD/ERROR without a status */
	unsigned attempts;
};

struct ms_urlcheck;

/* An empty checker; free with ms_urlcheck_free(). */
struct ms_urlcheck *ms_urlcheck_new(void);
void ms_urlcheck_free(struct ms_urlcheck *c);

/*
 * Add `url` (copied) and return its index; adding a URL again returns the
 * first index, so each URL is requested once.
 */
size_t ms_urlcheck_add(struct ms_urlcheck *c, const char *url);

/*
 * Check every URL added (at most `parallel` transfers at once; 0 means 8)
 * and give each a verdict: pages whose Last-Modified is more than
 * `stale_after` seconds before `now` (Unix time) are stale.  Each URL done
 * is reported to opts->progress as an object of "links".  Returns 0, or
 * a negative code when the checker could not run at all; a URL that fails
 * is a verdict, not an error.
 */
int ms_urlcheck_run(struct ms_urlcheck *c, const struct ms_fetch_opts *opts,
		    unsigned parallel, int64_t now, int64_t stale_after);

/* The result for index `i` (< count); borrowed from `c`. */
const struct ms_url_result *ms_urlcheck_result(const struct ms_urlcheck *c,
					       size_t i);

/* "unchecked", "ok", "stale", "dead", "error". */
const char *ms_url_verdict_name(enum ms_url_verdict v);

/*
 * The URL in a MAINTAINERS field value: the first word containing "://"
 * ("T: git git://host/repo.git branch" gives "git://host/repo.git"),
 * otherwise the first word.  Newly allocated (g_free); NULL when empty.
 */
char *ms_urlcheck_extract(const char *value);

/*
 * Parse an age such as "5y", "18m" (months), "6w" or "30d" into seconds,
 * as every duration option does (when.h: ms_duration_parse(), a month a
 * twelfth of 365.25 days).  Returns 0 or MS_EPARSE.
 */
int ms_urlcheck_parse_age(const char *s, int64_t *seconds);

#endif
