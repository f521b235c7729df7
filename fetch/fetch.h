/*
 * fetch.h - the network fetcher: mirrors public-inbox (lore) archives over
 * HTTP.  libcurl does every request (fetch/http.c, the only file that
 * includes <curl/curl.h>); libgit2 speaks the smart-HTTP git protocol and
 * writes the repositories (fetch/git-mirror.c), its requests carried by
 * our libcurl layer through a smart subtransport, so git transfers get the
 * same timeouts, retries, rate limit, proxy and TLS rules.
 *
 * Every request is polite and robust: a User-Agent naming maintstat, connect
 * and stall timeouts, retries with exponential backoff and jitter on
 * connection errors and 5xx, Retry-After honoured on 429 and 503, a
 * per-host request-rate limit, TLS verification always on, and libcurl's
 * proxy environment variables (http_proxy, https_proxy, no_proxy).
 *
 * Nothing is ever left half-written: files are written under a temporary
 * name and renamed when complete; a new epoch is cloned into
 * "N.git.partial" and renamed; an existing epoch's refs move only after a
 * complete fetch.  A run interrupted at any point is resumed by the next.
 *
 * Errors: MS_ENOTFOUND (404: unknown inbox, thread or page), MS_ENET
 * (DNS, refused connection, TLS, timeouts, 5xx after the retries),
 * MS_EPARSE (the server sent something else than asked for: an HTML page,
 * an anti-bot challenge, a truncated gzip stream, a server that is not
 * public-inbox), MS_EBUSY (another run holds the mirror's lock), MS_ERROR
 * (local I/O).
 */
#ifndef MS_FETCH_H
#define MS_FETCH_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a long transfer reports while it runs. */
struct ms_fetch_progress {
	const char *what;        /* "epoch 1/3", "query", "thread" */
	uint64_t bytes;          /* received so far */
	uint64_t objects;        /* git objects received (0 for plain HTTP) */
	uint64_t total_objects;  /* 0 when unknown */
};

typedef void (*ms_fetch_progress_fn)(void *data,
				     const struct ms_fetch_progress *p);

/* Knobs shared by every request; MS_FETCH_OPTS_INIT gives the defaults. */
struct ms_fetch_opts {
	double rate;             /* requests per second, per host */
	int retries;             /* retries after the first attempt */
	long connect_timeout;    /* seconds to establish a connection */
	long stall_timeout;      /* seconds without a byte before giving up */
	unsigned backoff_ms;     /* delay before the first retry; doubles */
	long max_retry_after;    /* longest Retry-After we wait, seconds */
	const char *user_agent;  /* NULL: "maintstat/VERSION" */
	ms_fetch_progress_fn progress; /* may be NULL */
	void *progress_data;
	/* A transfer slower than low_speed_bytes a second for stall_timeout
	 * seconds is abandoned, as is one without any byte that long: a
	 * server trickling a byte a second must not hold a run forever. */
	long low_speed_bytes;
	long request_timeout;    /* seconds one request may take at most */
	uint64_t max_bytes;      /* largest body (inflated) one request may
				    bring; more is an error */
};
#define MS_FETCH_OPTS_INIT { 2.0, 4, 30, 60, 1000, 300, NULL, NULL, NULL, \
			     1024, 3600, (uint64_t)8 << 30 }
/* The largest manifest.js.gz (inflated) an inbox may serve: lore's
 * biggest lists have a few hundred KiB. */
#define MS_FETCH_MAX_MANIFEST ((uint64_t)16 << 20)

/*
 * Append to `epochs` (a GArray of unsigned) the epochs named in the
 * grokmirror manifest `json` (`len` bytes): its keys "/INBOX/git/N.git",
 * N canonical decimal (no leading zero, at most 7 digits).  Only the
 * keys matter, so a scan for them does (not GRegex: GLib 2.74's leaks
 * PCRE2 match frames).  The list comes out sorted without duplicates.
 */
void ms_fetch_manifest_epochs(const char *json, size_t len, GArray *epochs);

/* What happened to one epoch during ms_fetch_mirror(). */
struct ms_fetch_epoch {
	unsigned n;              /* N of git/N.git */
	bool is_new;             /* cloned during this run */
	size_t new_messages;     /* commits that arrived (one per message) */
	char tip[41];            /* hex id of the epoch's head after the run */
};

/* The outcome of mirroring one inbox.  Free with ms_fetch_result_free(). */
struct ms_fetch_result {
	char *inbox;             /* name, the URL's last path segment */
	char *url;               /* the inbox URL, with a trailing '/' */
	char *path;              /* DIR/<inbox> */
	bool from_manifest;      /* epochs came from manifest.js.gz */
	struct ms_fetch_epoch *epochs;
	size_t nr_epochs;
	size_t new_messages;     /* sum over the epochs */
};

void ms_fetch_result_free(struct ms_fetch_result *r);

/*
 * Mirror the public-inbox inbox at `url` (http or https, e.g.
 * "https://lore.kernel.org/netdev/") into `dest`/<inbox>/git/N.git (bare
 * repositories): find the epochs (the inbox's manifest.js.gz, otherwise
 * probing git/0.git, git/1.git, ... until one is missing), clone new ones
 * and fetch new commits of known ones.  `dest` is created when missing.
 * On success stores a new result in *out (caller frees).  Errors as above;
 * epochs completed before a failure stay complete.
 */
int ms_fetch_mirror(const char *url, const char *dest,
		    const struct ms_fetch_opts *opts,
		    struct ms_fetch_result **out);

/*
 * Save the public-inbox search `query` on the inbox at `url` as an mboxrd
 * file `out_path` (POST url?q=QUERY&x=m, with t=1 for whole threads when
 * `threads`).  No match writes an empty file.  Stores the number of
 * messages written in *nr_messages.  `out_path` is replaced only when the
 * whole answer arrived.
 */
int ms_fetch_query(const char *url, const char *query, bool threads,
		   const char *out_path, const struct ms_fetch_opts *opts,
		   size_t *nr_messages);

/*
 * Save the thread containing Message-ID `msgid` (with or without <>) from
 * the inbox at `url` as an mboxrd file `out_path` (url/MSGID/t.mbox.gz).
 * MS_ENOTFOUND when the server does not know the message.
 */
int ms_fetch_thread(const char *url, const char *msgid,
		    const char *out_path, const struct ms_fetch_opts *opts,
		    size_t *nr_messages);

/*
 * The inbox name of an inbox URL (its last non-empty path segment), newly
 * allocated (g_free), or NULL when the URL has none usable as a directory
 * name.
 */
char *ms_fetch_inbox_name(const char *url);

/*
 * The path segment for Message-ID `msgid` (surrounding <> removed,
 * percent-encoded as public-inbox expects: '/' as %2F, '+', '=' and '@'
 * literal).  Newly allocated (g_free).
 */
char *ms_fetch_msgid_segment(const char *msgid);

#endif
