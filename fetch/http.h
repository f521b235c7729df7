/*
 * http.h - the fetcher's HTTP layer (internal to fetch/): one libcurl
 * session with the politeness and retry rules of fetch.h, and a concurrent
 * checker of many URLs.  http.c is the only file that includes
 * <curl/curl.h>.
 */
#ifndef MS_FETCH_HTTP_H
#define MS_FETCH_HTTP_H

#include "fetch.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

struct ms_http;

/*
 * A session: one reused connection pool and a per-host rate limiter.
 * `opts` is copied (its strings and callback data are borrowed).  Free
 * with ms_http_free().
 */
int ms_http_new(const struct ms_fetch_opts *opts, struct ms_http **out);
void ms_http_free(struct ms_http *h);

/* The options the session was made with; borrowed. */
const struct ms_fetch_opts *ms_http_opts(const struct ms_http *h);

/* The User-Agent every request sends; borrowed. */
const char *ms_http_user_agent(const struct ms_http *h);

/* The backoff before retry number `attempt` (1-based), with jitter, ms. */
unsigned ms_http_backoff_ms(const struct ms_http *h, unsigned attempt);

/* The final answer to a request. */
struct ms_http_response {
	long status;             /* HTTP status of the last response */
	char *content_type;      /* NULL when absent */
	char *final_url;         /* after redirects */
	int64_t last_modified;   /* Unix time, -1 when absent */
	bool to_sink;            /* the body went to the sink */
	bool gunzipped;          /* ... and was an application/gzip stream */
	GByteArray *body;        /* otherwise its first 1 MiB */
	uint64_t bytes;          /* body bytes received (before gunzip) */
	unsigned attempts;
};

void ms_http_response_release(struct ms_http_response *r);

/*
 * GET `url` (POST with an empty body when `post`), following redirects,
 * retrying as fetch.h says.  A 200 answer that is not HTML goes to
 * `sink_fd` when it is >= 0 (truncated first on each retry), unpacked when
 * its Content-Type is application/gzip; the gzip stream must be complete
 * (a truncated one is retried, then MS_EPARSE).  Other answers, or all
 * when `sink_fd` is -1, are kept in resp->body.  `what` names the transfer
 * for progress reports (NULL: a small request, not reported).
 *
 * Returns 0 when a final answer arrived (any status below 500 but 429),
 * MS_ENET when the transfer failed or the server kept failing,
 * MS_EPARSE for a bad gzip stream, MS_ERROR when the sink cannot be
 * written.  *resp is filled in either case; release it.
 */
int ms_http_request(struct ms_http *h, const char *url, bool post,
		    int sink_fd, const char *what,
		    struct ms_http_response *resp);

/*
 * ms_http_request() with a body of at most `limit` bytes (inflated, for a
 * gzip stream) rather than opts->max_bytes: a larger one fails with
 * MS_ERROR, without a retry.
 */
int ms_http_request_limited(struct ms_http *h, const char *url, bool post,
			    int sink_fd, const char *what, uint64_t limit,
			    struct ms_http_response *resp);

/*
 * A streamed request, for libgit2's smart HTTP: the answer is read piece
 * by piece as libgit2 asks for it, with the session's stall timeout.
 */
struct ms_http_stream;

/*
 * GET `url`, or POST `body` (`len` bytes, typed `content_type`) when body
 * is not NULL, with an Accept header when `accept` is not NULL.  Waits
 * for the answer to start and retries (connection errors, 5xx, 429 and
 * 503 with Retry-After) as ms_http_request() does; a retry is safe since
 * nothing of the body has been handed out yet.  On success *out is the
 * stream (free with ms_http_stream_free()) and `resp` has the status,
 * Content-Type and final URL, whatever the status.  Returns 0 or MS_ENET.
 */
int ms_http_stream_open(struct ms_http *h, const char *url,
			const void *body, size_t len,
			const char *content_type, const char *accept,
			struct ms_http_stream **out,
			struct ms_http_response *resp);

/*
 * Read up to `size` bytes of the answer into `buf`; *n is 0 at its end.
 * Returns 0, or MS_ENET when the transfer broke off or stalled.
 */
int ms_http_stream_read(struct ms_http_stream *s, void *buf, size_t size,
			size_t *n);

void ms_http_stream_free(struct ms_http_stream *s);

/* One URL for ms_http_check_many(). */
struct ms_http_check {
	const char *url;         /* in; borrowed */
	long status;             /* out: final status, 0 when none */
	char *final_url;         /* out (g_free): after redirects */
	int64_t last_modified;   /* out: Unix time, -1 when absent */
	int error;               /* out: 0, or MS_ENET/MS_EUSAGE */
	char *message;           /* out (g_free): why, when error */
	unsigned attempts;       /* out */
};

/*
 * Check `n` URLs concurrently (at most `parallel` transfers at once, one
 * at a time per host, each host at most opts->rate requests a second),
 * with the retry rules of ms_http_request().  Only the status line and
 * headers are wanted: each body is abandoned at its first byte.  Fills in
 * the out fields of every item; `progress` (may be NULL) is called after
 * each URL completes with the number done.  Returns 0, or a negative code
 * when libcurl could not be set up.
 */
int ms_http_check_many(const struct ms_fetch_opts *opts,
		       struct ms_http_check *items, size_t n,
		       unsigned parallel,
		       void (*progress)(void *data, size_t done, size_t n),
		       void *data);

#endif
