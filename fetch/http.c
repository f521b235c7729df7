/*
 * http.c - the libcurl adapter: the only file that includes <curl/curl.h>.
 *
 * Every handle gets CURLOPT_ERRORBUFFER, so a failure is reported with
 * libcurl's precise message, turned into our MS_E* codes here.
 *
 * libcurl is loaded (dlopen) when the network is first used, not linked:
 * it brings 17 shared libraries whose loading every start of the program
 * paid, some 5 ms of wall and 18 ms of CPU on the loaded 2-core machine
 * (perf stat, docs/performance.md), for the two commands of the
 * network.  So one program serves every command that is not a quick one.
 */
#include "http.h"

#include "error.h"

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define BODY_KEEP (1024 * 1024)

/* The functions of libcurl this file calls, as loaded. */
#define CURL_FUNCTIONS(X) \
	X(CURLcode, curl_global_init, (long)) \
	X(char *, curl_version, (void)) \
	X(CURL *, curl_easy_init, (void)) \
	X(void, curl_easy_cleanup, (CURL *)) \
	X(void, curl_easy_reset, (CURL *)) \
	X(CURLcode, curl_easy_setopt, (CURL *, CURLoption, ...)) \
	X(CURLcode, curl_easy_getinfo, (CURL *, CURLINFO, ...)) \
	X(CURLcode, curl_easy_perform, (CURL *)) \
	X(const char *, curl_easy_strerror, (CURLcode)) \
	X(CURLM *, curl_multi_init, (void)) \
	X(CURLMcode, curl_multi_cleanup, (CURLM *)) \
	X(CURLMcode, curl_multi_add_handle, (CURLM *, CURL *)) \
	X(CURLMcode, curl_multi_remove_handle, (CURLM *, CURL *)) \
	X(CURLMcode, curl_multi_perform, (CURLM *, int *)) \
	X(CURLMcode, curl_multi_poll, (CURLM *, struct curl_waitfd *, \
				       unsigned int, int, int *)) \
	X(CURLMsg *, curl_multi_info_read, (CURLM *, int *)) \
	X(struct curl_slist *, curl_slist_append, (struct curl_slist *, \
						   const char *)) \
	X(void, curl_slist_free_all, (struct curl_slist *))

#define CURL_POINTER(ret, name, args) ret (*name) args;
static struct {
	CURL_FUNCTIONS(CURL_POINTER)
} lc;
#undef CURL_POINTER

/* Load libcurl and its functions; NULL, or why not (static). */
static const char *load_curl(void)
{
	static char why[256];
	void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(why, sizeof(why), "cannot load libcurl: %s",
			 dlerror());
		return why;
	}
#define CURL_LOAD(ret, name, args) \
	*(void **)&lc.name = dlsym(h, #name); \
	if (!lc.name) { \
		snprintf(why, sizeof(why), "libcurl has no %s", #name); \
		return why; \
	}
	CURL_FUNCTIONS(CURL_LOAD)
#undef CURL_LOAD
	return NULL;
}

/* From here on the names call what was loaded (curl.h's own macros for
 * the two of them count their arguments only). */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init (*lc.curl_global_init)
#define curl_version (*lc.curl_version)
#define curl_easy_init (*lc.curl_easy_init)
#define curl_easy_cleanup (*lc.curl_easy_cleanup)
#define curl_easy_reset (*lc.curl_easy_reset)
#define curl_easy_setopt (*lc.curl_easy_setopt)
#define curl_easy_getinfo (*lc.curl_easy_getinfo)
#define curl_easy_perform (*lc.curl_easy_perform)
#define curl_easy_strerror (*lc.curl_easy_strerror)
#define curl_multi_init (*lc.curl_multi_init)
#define curl_multi_cleanup (*lc.curl_multi_cleanup)
#define curl_multi_add_handle (*lc.curl_multi_add_handle)
#define curl_multi_remove_handle (*lc.curl_multi_remove_handle)
#define curl_multi_perform (*lc.curl_multi_perform)
#define curl_multi_poll (*lc.curl_multi_poll)
#define curl_multi_info_read (*lc.curl_multi_info_read)
#define curl_slist_append (*lc.curl_slist_append)
#define curl_slist_free_all (*lc.curl_slist_free_all)

struct ms_http {
	struct ms_fetch_opts opts;
	char *user_agent;
	CURL *curl;
	GHashTable *next_turn; /* host -> gint64 *, monotonic us */
};

/* NULL once libcurl is loaded and initialised, else why not. */
static gpointer global_init(gpointer unused)
{
	const char *why = load_curl();

	(void)unused;
	if (!why && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		why = "cannot initialise libcurl";
	return (gpointer)why;
}

static int ensure_global_init(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, global_init, NULL);
	if (once.retval)
		return ms_error_set(MS_ERROR, "%s",
				    (const char *)once.retval);
	return 0;
}

static char *default_user_agent(void)
{
	return g_strdup_printf("maintstat/%s (+https://maintstat.invalid/; "
			       "%s)", MS_VERSION, curl_version());
}

int ms_http_new(const struct ms_fetch_opts *opts, struct ms_http **out)
{
	struct ms_http *h;
	int rc = ensure_global_init();

	if (rc)
		return rc;
	h = g_new0(struct ms_http, 1);
	h->opts = *opts;
	if (h->opts.rate <= 0)
		h->opts.rate = 2.0;
	if (h->opts.retries < 0)
		h->opts.retries = 0;
	h->user_agent = opts->user_agent ? g_strdup(opts->user_agent) :
		default_user_agent();
	h->opts.user_agent = h->user_agent;
	h->curl = curl_easy_init();
	if (!h->curl) {
		ms_http_free(h);
		return ms_error_set(MS_ERROR, "cannot create a libcurl handle");
	}
	h->next_turn = g_hash_table_new_full(g_str_hash, g_str_equal,
					     g_free, g_free);
	*out = h;
	return 0;
}

void ms_http_free(struct ms_http *h)
{
	if (!h)
		return;
	if (h->curl)
		curl_easy_cleanup(h->curl);
	g_clear_pointer(&h->next_turn, g_hash_table_destroy);
	g_free(h->user_agent);
	g_free(h);
}

const struct ms_fetch_opts *ms_http_opts(const struct ms_http *h)
{
	return &h->opts;
}

const char *ms_http_user_agent(const struct ms_http *h)
{
	return h->user_agent;
}

/* The host[:port] of a URL, newly allocated; "" when it has none. */
static char *url_host(const char *url)
{
	GUri *uri = g_uri_parse(url, G_URI_FLAGS_NONE, NULL);
	char *host;

	if (!uri)
		return g_strdup("");
	host = g_strdup_printf("%s:%d", g_uri_get_host(uri) ?
			       g_uri_get_host(uri) : "", g_uri_get_port(uri));
	g_uri_unref(uri);
	return host;
}

static int64_t interval_us(const struct ms_fetch_opts *o)
{
	return (int64_t)(1e6 / (o->rate > 0 ? o->rate : 2.0));
}

static void wait_turn(struct ms_http *h, const char *url)
{
	char *host = url_host(url);
	gint64 *next = g_hash_table_lookup(h->next_turn, host);
	gint64 now = g_get_monotonic_time();

	if (!next) {
		next = g_new(gint64, 1);
		*next = now;
		g_hash_table_insert(h->next_turn, host, next);
	} else {
		g_free(host);
	}
	if (*next > now) {
		g_usleep((gulong)(*next - now));
		now = *next;
	}
	*next = now + interval_us(&h->opts);
}

static unsigned backoff(const struct ms_fetch_opts *o, unsigned attempt)
{
	uint64_t d = o->backoff_ms ? o->backoff_ms : 1;

	for (unsigned i = 1; i < attempt && d < 600000; i++)
		d *= 2;
	if (d > 600000)
		d = 600000;
	/* "Equal jitter": half fixed, half random. */
	return (unsigned)(d / 2 + (uint64_t)g_random_int_range(0,
				(gint32)(d / 2 + 1)));
}

unsigned ms_http_backoff_ms(const struct ms_http *h, unsigned attempt)
{
	return backoff(&h->opts, attempt);
}

void ms_http_response_release(struct ms_http_response *r)
{
	g_free(r->content_type);
	g_free(r->final_url);
	g_clear_pointer(&r->body, g_byte_array_unref);
	memset(r, 0, sizeof(*r));
	r->last_modified = -1;
}

/* How a failed attempt is treated. */
enum verdict { DONE, RETRY, FAIL };

/*
 * Classify a transport error; sets the error message for `url`.  `errbuf`
 * is libcurl's message for the transfer.
 */
static enum verdict curl_failure(CURLcode cc, const char *url,
				 const char *errbuf, int *code)
{
	const char *msg = *errbuf ? errbuf : curl_easy_strerror(cc);

	*code = MS_ENET;
	switch (cc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		ms_error_set(MS_ENET, "cannot resolve host of '%s': %s",
			     url, msg);
		return FAIL;
	case CURLE_COULDNT_CONNECT:
		ms_error_set(MS_ENET, "cannot connect to '%s': %s", url, msg);
		return RETRY;
	case CURLE_OPERATION_TIMEDOUT:
		ms_error_set(MS_ENET, "'%s' timed out: %s", url, msg);
		return RETRY;
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		ms_error_set(MS_ENET, "transfer of '%s' broke off: %s", url,
			     msg);
		return RETRY;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
		ms_error_set(MS_ENET, "tls failure for '%s': %s", url, msg);
		return FAIL;
	case CURLE_TOO_MANY_REDIRECTS:
		ms_error_set(MS_ENET, "too many redirects from '%s': %s", url,
			     msg);
		return FAIL;
	case CURLE_UNSUPPORTED_PROTOCOL:
		if (g_str_has_prefix(url, "http://") ||
		    g_str_has_prefix(url, "https://")) {
			/* a redirect to file://, ftp://, ...: the server's
			 * doing, refused (CURLOPT_REDIR_PROTOCOLS_STR) */
			ms_error_set(MS_ENET, "'%s' redirected to another "
				     "scheme than http or https (refused): %s",
				     url, msg);
			return FAIL;
		}
		*code = MS_EUSAGE;
		ms_error_set(MS_EUSAGE, "cannot fetch '%s': %s", url, msg);
		return FAIL;
	default:
		ms_error_set(MS_ENET, "cannot fetch '%s': %s", url, msg);
		return FAIL;
	}
}

/* The state of one transfer. */
struct xfer {
	struct ms_http *h;
	CURL *c;
	int fd;
	const char *what;
	enum { UNDECIDED, MEMORY, RAW, INFLATE } mode;
	z_stream z;
	bool z_init, z_end, z_bad;
	int write_errno;
	GByteArray *mem;
	uint64_t bytes;
	int64_t last_now;      /* dlnow at the last change */
	gint64 last_change_us; /* when it changed, monotonic */
	bool stalled;
	uint64_t limit;        /* most bytes (inflated) the body may have */
	uint64_t out;          /* bytes written to the sink */
	bool too_big;
};

static bool is_html(const char *ct)
{
	return ct && (g_str_has_prefix(ct, "text/html") ||
		      g_str_has_prefix(ct, "application/xhtml"));
}

static bool is_gzip(const char *ct)
{
	return ct && (g_str_has_prefix(ct, "application/gzip") ||
		      g_str_has_prefix(ct, "application/x-gzip"));
}

static bool write_all(struct xfer *x, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(x->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			x->write_errno = errno;
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool inflate_chunk(struct xfer *x, const unsigned char *in, size_t len)
{
	unsigned char out[65536];

	x->z.next_in = (unsigned char *)in;
	x->z.avail_in = (uInt)len;
	while (x->z.avail_in) {
		int zr;

		if (x->z_end) {
			/* Another gzip member may follow (gzip -c a b). */
			if (inflateReset(&x->z) != Z_OK)
				return !(x->z_bad = true);
			x->z_end = false;
		}
		x->z.next_out = out;
		x->z.avail_out = sizeof(out);
		zr = inflate(&x->z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			x->z_bad = true;
			return false;
		}
		x->out += sizeof(out) - x->z.avail_out;
		if (x->out > x->limit)          /* a gzip bomb */
			return !(x->too_big = true);
		if (!write_all(x, out, sizeof(out) - x->z.avail_out))
			return false;
		if (zr == Z_STREAM_END)
			x->z_end = true;
		else if (zr == Z_BUF_ERROR && x->z.avail_out)
			break;
	}
	return true;
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct xfer *x = data;
	size_t len = size * nmemb;

	if (x->mode == UNDECIDED) {
		long status = 0;
		char *ct = NULL;

		curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &status);
		curl_easy_getinfo(x->c, CURLINFO_CONTENT_TYPE, &ct);
		if (x->fd < 0 || status != 200 || is_html(ct)) {
			x->mode = MEMORY;
		} else if (is_gzip(ct)) {
			x->mode = INFLATE;
			memset(&x->z, 0, sizeof(x->z));
			if (inflateInit2(&x->z, 16 + MAX_WBITS) != Z_OK)
				return 0;
			x->z_init = true;
		} else {
			x->mode = RAW;
		}
	}
	x->bytes += len;
	if (x->bytes > x->limit) {
		x->too_big = true;
		return 0;
	}
	switch (x->mode) {
	case MEMORY:
		if (x->mem->len < BODY_KEEP)
			g_byte_array_append(x->mem, (guint8 *)ptr,
					    (guint)MIN(len, BODY_KEEP -
						       x->mem->len));
		return len;
	case RAW:
		return write_all(x, ptr, len) ? len : 0;
	case INFLATE:
		return inflate_chunk(x, (unsigned char *)ptr, len) ? len : 0;
	case UNDECIDED:
		break;
	}
	return 0;
}

static int on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct xfer *x = data;
	struct ms_fetch_progress p = { x->what, (uint64_t)dlnow, 0, 0 };
	gint64 now = g_get_monotonic_time();

	(void)dltotal;
	(void)ultotal;
	(void)ulnow;
	/*
	 * CURLOPT_LOW_SPEED_TIME averages over its window, so a transfer
	 * that stops after a fast start takes several times longer to be
	 * noticed; count the seconds since the last byte instead.
	 */
	if (dlnow != x->last_now) {
		x->last_now = dlnow;
		x->last_change_us = now;
	} else if (now - x->last_change_us >
		   (gint64)x->h->opts.stall_timeout * 1000000) {
		x->stalled = true;
		return 1;
	}
	if (x->h->opts.progress && x->what && dlnow > 0)
		x->h->opts.progress(x->h->opts.progress_data, &p);
	return 0;
}

/* The options every handle gets, plain requests and checks alike. */
static void common_setopts(CURL *c, const struct ms_fetch_opts *o,
			   const char *ua, char *errbuf)
{
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_USERAGENT, ua);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
	/* Never off: a mirror that cannot be authenticated is not one. */
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, o->connect_timeout);
	/* Slower than low_speed_bytes a second for stall_timeout seconds
	 * is as good as stalled (on_progress catches a full stop sooner). */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT,
			 o->low_speed_bytes > 0 ? o->low_speed_bytes : 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, o->stall_timeout);
	if (o->request_timeout > 0)
		curl_easy_setopt(c, CURLOPT_TIMEOUT, o->request_timeout);
	/* An announced Content-Length over the cap fails before the body */
	if (o->max_bytes)
		curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
				 (curl_off_t)MIN(o->max_bytes,
						 (uint64_t)INT64_MAX));
	curl_easy_setopt(c, CURLOPT_FILETIME, 1L);
	/* Transparent Content-Encoding (not public-inbox's gzip bodies). */
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
}

static void reset_xfer(struct xfer *x)
{
	if (x->z_init)
		inflateEnd(&x->z);
	x->z_init = x->z_end = x->z_bad = false;
	x->mode = UNDECIDED;
	x->write_errno = 0;
	x->bytes = 0;
	x->last_now = 0;
	x->last_change_us = g_get_monotonic_time();
	x->stalled = false;
	x->out = 0;
	x->too_big = false;
	g_byte_array_set_size(x->mem, 0);
}

static int rewind_sink(int fd)
{
	if (fd < 0)
		return 0;
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return ms_error_set_errno(MS_ERROR, errno,
					  "cannot rewind a temporary file");
	return 0;
}

static void fill_response(CURL *c, struct ms_http_response *r)
{
	char *s = NULL;
	curl_off_t ft = -1;

	g_free(r->content_type);
	g_free(r->final_url);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &s);
	r->content_type = g_strdup(s);
	s = NULL;
	curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &s);
	r->final_url = g_strdup(s);
	curl_easy_getinfo(c, CURLINFO_FILETIME_T, &ft);
	r->last_modified = ft;
}

/*
 * What to do with a completed HTTP answer: DONE, or RETRY after *delay_ms
 * (from Retry-After on 429/503, else the backoff), or FAIL when the server
 * wants a longer wait than we accept.
 */
static enum verdict http_answer(CURL *c, const struct ms_fetch_opts *o,
				long status, unsigned attempt,
				const char *url, unsigned *delay_ms)
{
	curl_off_t ra = 0;

	if (status < 500 && status != 429)
		return DONE;
	*delay_ms = backoff(o, attempt);
	if (status == 429 || status == 503) {
		curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &ra);
		if (ra > o->max_retry_after) {
			ms_error_set(MS_ENET, "'%s' answered %ld and asks to "
				     "retry after %lds, longer than %lds",
				     url, status, (long)ra,
				     o->max_retry_after);
			return FAIL;
		}
		if (ra > 0)
			*delay_ms = (unsigned)ra * 1000;
	}
	ms_error_set(MS_ENET, "'%s' answered %ld (server error)", url,
		     status);
	return RETRY;
}

int ms_http_request(struct ms_http *h, const char *url, bool post,
		    int sink_fd, const char *what,
		    struct ms_http_response *resp)
{
	return ms_http_request_limited(h, url, post, sink_fd, what,
				       h->opts.max_bytes, resp);
}

static int too_big(const char *url, uint64_t limit)
{
	return ms_error_set(MS_ERROR, "'%s' sent more than %" PRIu64 " bytes "
			    "(the limit for this request): refusing the rest",
			    url, limit);
}

int ms_http_request_limited(struct ms_http *h, const char *url, bool post,
			    int sink_fd, const char *what, uint64_t limit,
			    struct ms_http_response *resp)
{
	char errbuf[CURL_ERROR_SIZE];
	struct xfer x = { .h = h, .c = h->curl, .fd = sink_fd, .what = what,
			  .limit = limit ? limit : UINT64_MAX };
	int rc = MS_ENET;
	unsigned attempt;

	memset(resp, 0, sizeof(*resp));
	resp->last_modified = -1;
	x.mem = g_byte_array_new();
	for (attempt = 1;; attempt++) {
		CURLcode cc;
		enum verdict v;
		unsigned delay = 0;

		reset_xfer(&x);
		rc = rewind_sink(sink_fd);
		if (rc)
			break;
		curl_easy_reset(h->curl);
		errbuf[0] = '\0';
		common_setopts(h->curl, &h->opts, h->user_agent, errbuf);
		if (x.limit < UINT64_MAX)
			curl_easy_setopt(h->curl, CURLOPT_MAXFILESIZE_LARGE,
					 (curl_off_t)MIN(x.limit,
							 (uint64_t)INT64_MAX));
		curl_easy_setopt(h->curl, CURLOPT_URL, url);
		if (post) {
			curl_easy_setopt(h->curl, CURLOPT_POST, 1L);
			curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, "");
			curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE, 0L);
		}
		curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);
		curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, &x);
		curl_easy_setopt(h->curl, CURLOPT_NOPROGRESS, 0L);
		curl_easy_setopt(h->curl, CURLOPT_XFERINFOFUNCTION,
				 on_progress);
		curl_easy_setopt(h->curl, CURLOPT_XFERINFODATA, &x);
		wait_turn(h, url);
		cc = curl_easy_perform(h->curl);
		resp->attempts = attempt;
		fill_response(h->curl, resp);
		if ((cc == CURLE_WRITE_ERROR && x.too_big) ||
		    cc == CURLE_FILESIZE_EXCEEDED) {
			rc = too_big(url, x.limit);
			break;
		}
		if (cc == CURLE_WRITE_ERROR && x.write_errno) {
			rc = ms_error_set_errno(MS_ERROR, x.write_errno,
						"cannot write what '%s' "
						"returned", url);
			break;
		}
		if (cc == CURLE_OK || (cc == CURLE_WRITE_ERROR && x.z_bad)) {
			v = http_answer(h->curl, &h->opts, resp->status,
					attempt, url, &delay);
			rc = v == DONE ? 0 : MS_ENET;
			if (v == DONE && x.mode == INFLATE &&
			    (x.z_bad || !x.z_end)) {
				rc = ms_error_set(MS_EPARSE, "'%s' sent a %s "
						  "gzip stream", url, x.z_bad ?
						  "corrupt" : "truncated");
				v = RETRY;
				delay = backoff(&h->opts, attempt);
			}
		} else {
			if (cc == CURLE_ABORTED_BY_CALLBACK && x.stalled) {
				cc = CURLE_OPERATION_TIMEDOUT;
				snprintf(errbuf, sizeof(errbuf), "no data for "
					 "%ld seconds", h->opts.stall_timeout);
			}
			v = curl_failure(cc, url, errbuf, &rc);
			delay = backoff(&h->opts, attempt);
		}
		if (v != RETRY || attempt > (unsigned)h->opts.retries)
			break;
		g_usleep((gulong)delay * 1000);
	}
	resp->to_sink = x.mode == RAW || x.mode == INFLATE;
	resp->gunzipped = x.mode == INFLATE;
	resp->bytes = x.bytes;
	if (x.z_init)
		inflateEnd(&x.z);
	resp->body = x.mem;
	return rc;
}

/* Streamed requests, over a curl multi handle driven by the reader. */

struct ms_http_stream {
	struct ms_http *h;
	CURLM *m;
	CURL *c;
	struct curl_slist *headers;
	char errbuf[CURL_ERROR_SIZE];
	GByteArray *buf;        /* received, not yet read */
	size_t off;             /* read up to here */
	bool done;
	CURLcode result;
	gint64 last_data_us;
	char *url;
	uint64_t total;         /* body bytes received */
};

static size_t stream_on_body(char *ptr, size_t size, size_t nmemb,
			     void *data)
{
	struct ms_http_stream *s = data;
	uint64_t max = s->h->opts.max_bytes;

	s->total += size * nmemb;
	if (max && s->total > max) {    /* a pack larger than allowed */
		snprintf(s->errbuf, sizeof(s->errbuf), "more than %" PRIu64
			 " bytes (the limit of one transfer)", max);
		return 0;
	}
	g_byte_array_append(s->buf, (guint8 *)ptr, (guint)(size * nmemb));
	s->last_data_us = g_get_monotonic_time();
	return size * nmemb;
}

static void stream_close(struct ms_http_stream *s)
{
	if (s->c) {
		curl_multi_remove_handle(s->m, s->c);
		curl_easy_cleanup(s->c);
		s->c = NULL;
	}
	if (s->m) {
		curl_multi_cleanup(s->m);
		s->m = NULL;
	}
}

void ms_http_stream_free(struct ms_http_stream *s)
{
	if (!s)
		return;
	stream_close(s);
	curl_slist_free_all(s->headers);
	g_clear_pointer(&s->buf, g_byte_array_unref);
	g_free(s->url);
	g_free(s);
}

/*
 * Drive the transfer until there is something to read or it is over.
 * Returns 0, or MS_ENET on a stall (the transfer result says the rest).
 */
static int stream_pump(struct ms_http_stream *s)
{
	gint64 stall = (gint64)s->h->opts.stall_timeout * 1000000;

	while (s->buf->len == s->off && !s->done) {
		CURLMsg *msg;
		int running, left;

		curl_multi_perform(s->m, &running);
		while ((msg = curl_multi_info_read(s->m, &left)))
			if (msg->msg == CURLMSG_DONE) {
				s->done = true;
				s->result = msg->data.result;
			}
		if (s->buf->len > s->off || s->done)
			break;
		if (g_get_monotonic_time() - s->last_data_us > stall) {
			s->done = true;
			s->result = CURLE_OPERATION_TIMEDOUT;
			snprintf(s->errbuf, sizeof(s->errbuf), "no data for "
				 "%ld seconds", s->h->opts.stall_timeout);
			return MS_ENET;
		}
		curl_multi_poll(s->m, NULL, 0, 200, NULL);
	}
	return 0;
}

static int stream_start(struct ms_http_stream *s, const void *body,
			size_t len)
{
	s->m = curl_multi_init();
	s->c = curl_easy_init();
	if (!s->m || !s->c)
		return ms_error_set(MS_ERROR, "cannot create a libcurl handle");
	s->errbuf[0] = '\0';
	g_byte_array_set_size(s->buf, 0);
	s->off = 0;
	s->total = 0;
	s->done = false;
	s->result = CURLE_OK;
	common_setopts(s->c, &s->h->opts, s->h->user_agent, s->errbuf);
	/* The pack itself is compressed; do not ask for gzip on top. */
	curl_easy_setopt(s->c, CURLOPT_ACCEPT_ENCODING, NULL);
	curl_easy_setopt(s->c, CURLOPT_URL, s->url);
	curl_easy_setopt(s->c, CURLOPT_WRITEFUNCTION, stream_on_body);
	curl_easy_setopt(s->c, CURLOPT_WRITEDATA, s);
	if (s->headers)
		curl_easy_setopt(s->c, CURLOPT_HTTPHEADER, s->headers);
	if (body) {
		curl_easy_setopt(s->c, CURLOPT_POST, 1L);
		curl_easy_setopt(s->c, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)len);
		curl_easy_setopt(s->c, CURLOPT_COPYPOSTFIELDS, body);
	}
	curl_multi_add_handle(s->m, s->c);
	s->last_data_us = g_get_monotonic_time();
	return 0;
}

int ms_http_stream_open(struct ms_http *h, const char *url,
			const void *body, size_t len,
			const char *content_type, const char *accept,
			struct ms_http_stream **out,
			struct ms_http_response *resp)
{
	struct ms_http_stream *s = g_new0(struct ms_http_stream, 1);
	int rc = 0;

	memset(resp, 0, sizeof(*resp));
	resp->last_modified = -1;
	s->h = h;
	s->url = g_strdup(url);
	s->buf = g_byte_array_new();
	if (content_type) {
		char *hd = g_strdup_printf("Content-Type: %s", content_type);

		s->headers = curl_slist_append(s->headers, hd);
		g_free(hd);
	}
	if (accept) {
		char *hd = g_strdup_printf("Accept: %s", accept);

		s->headers = curl_slist_append(s->headers, hd);
		g_free(hd);
	}
	/* No "Expect: 100-continue" round trip before a POST. */
	s->headers = curl_slist_append(s->headers, "Expect:");
	for (unsigned attempt = 1;; attempt++) {
		enum verdict v;
		unsigned delay = 0;

		wait_turn(h, url);
		rc = stream_start(s, body, len);
		if (rc)
			break;
		rc = stream_pump(s);
		resp->attempts = attempt;
		fill_response(s->c, resp);
		if (!rc && (s->result == CURLE_OK || !s->done)) {
			v = http_answer(s->c, &h->opts, resp->status, attempt,
					url, &delay);
			rc = v == DONE ? 0 : MS_ENET;
		} else {
			v = curl_failure(s->result, url, s->errbuf, &rc);
			delay = backoff(&h->opts, attempt);
		}
		if (v == DONE || v == FAIL ||
		    attempt > (unsigned)h->opts.retries)
			break;
		stream_close(s);
		g_usleep((gulong)delay * 1000);
	}
	if (rc) {
		ms_http_stream_free(s);
		s = NULL;
	}
	*out = s;
	return rc;
}

int ms_http_stream_read(struct ms_http_stream *s, void *buf, size_t size,
			size_t *n)
{
	int rc;

	*n = 0;
	rc = stream_pump(s);
	if (!rc && s->buf->len == s->off && s->done &&
	    s->result != CURLE_OK) {
		rc = MS_ENET;
	}
	if (rc) {
		curl_failure(s->result, s->url, s->errbuf, &rc);
		return rc;
	}
	*n = MIN(size, s->buf->len - s->off);
	memcpy(buf, s->buf->data + s->off, *n);
	s->off += *n;
	if (s->off == s->buf->len) {
		g_byte_array_set_size(s->buf, 0);
		s->off = 0;
	}
	return 0;
}

/* The checker: many URLs over curl multi. */

struct host_state {
	gint64 next;   /* monotonic us before which no request starts */
	bool busy;
};

struct check_xfer {
	struct ms_http_check *item;
	CURL *c;
	char errbuf[CURL_ERROR_SIZE];
	struct host_state *host;
	gint64 not_before;
	bool got_body;
};

static size_t check_on_body(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct check_xfer *x = data;

	(void)ptr;
	(void)size;
	(void)nmemb;
	/* The headers are all we want: stop at the first body byte. */
	x->got_body = true;
	return 0;
}

static void check_record(struct check_xfer *x, CURLcode cc,
			 const struct ms_fetch_opts *o, bool *retry,
			 unsigned *delay_ms)
{
	struct ms_http_check *it = x->item;
	char *s = NULL;
	curl_off_t ft = -1;
	enum verdict v;
	int code = 0;

	*retry = false;
	it->attempts++;
	curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &it->status);
	curl_easy_getinfo(x->c, CURLINFO_EFFECTIVE_URL, &s);
	g_free(it->final_url);
	it->final_url = g_strdup(s);
	curl_easy_getinfo(x->c, CURLINFO_FILETIME_T, &ft);
	it->last_modified = ft;
	g_clear_pointer(&it->message, g_free);
	it->error = 0;
	if (cc == CURLE_OK || (cc == CURLE_WRITE_ERROR && x->got_body)) {
		v = http_answer(x->c, o, it->status, it->attempts, it->url,
				delay_ms);
		if (v == DONE)
			return;
		/* A server error is an answer: keep its status. */
		code = 0;
	} else {
		it->status = 0;
		v = curl_failure(cc, it->url, x->errbuf, &code);
		*delay_ms = backoff(o, it->attempts);
	}
	it->error = code;
	it->message = g_strdup(ms_error_last());
	*retry = v == RETRY && it->attempts <= (unsigned)o->retries;
}

int ms_http_check_many(const struct ms_fetch_opts *opts,
		       struct ms_http_check *items, size_t n,
		       unsigned parallel,
		       void (*progress)(void *data, size_t done, size_t n),
		       void *data)
{
	struct ms_fetch_opts o = *opts;
	GHashTable *hosts;
	struct check_xfer *xs;
	GPtrArray *waiting; /* struct check_xfer *, in order */
	char *ua;
	CURLM *m;
	size_t done = 0;
	unsigned running = 0;
	int rc;

	rc = ensure_global_init();
	if (rc)
		return rc;
	if (o.rate <= 0)
		o.rate = 2.0;
	if (!parallel)
		parallel = 8;
	m = curl_multi_init();
	if (!m)
		return ms_error_set(MS_ERROR, "cannot create a libcurl handle");
	ua = o.user_agent ? g_strdup(o.user_agent) : default_user_agent();
	hosts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				      g_free);
	xs = g_new0(struct check_xfer, n);
	waiting = g_ptr_array_new();
	for (size_t i = 0; i < n; i++) {
		char *host = url_host(items[i].url);
		struct host_state *hs = g_hash_table_lookup(hosts, host);

		if (!hs) {
			hs = g_new0(struct host_state, 1);
			g_hash_table_insert(hosts, host, hs);
		} else {
			g_free(host);
		}
		xs[i].item = &items[i];
		xs[i].host = hs;
		items[i].last_modified = -1;
		g_ptr_array_add(waiting, &xs[i]);
	}

	while (done < n) {
		gint64 now = g_get_monotonic_time();
		gint64 wake = now + 1000000;
		CURLMsg *msg;
		int left, still;

		/* Start what the per-host limits allow, in order. */
		for (guint i = 0; i < waiting->len && running < parallel;) {
			struct check_xfer *x = waiting->pdata[i];
			gint64 when = MAX(x->host->next, x->not_before);

			if (x->host->busy || when > now) {
				if (!x->host->busy && when < wake)
					wake = when;
				i++;
				continue;
			}
			g_ptr_array_remove_index(waiting, i);
			x->c = curl_easy_init();
			if (!x->c) {
				rc = ms_error_set(MS_ERROR, "cannot create a "
						  "libcurl handle");
				goto out;
			}
			x->errbuf[0] = '\0';
			x->got_body = false;
			common_setopts(x->c, &o, ua, x->errbuf);
			curl_easy_setopt(x->c, CURLOPT_URL, x->item->url);
			curl_easy_setopt(x->c, CURLOPT_WRITEFUNCTION,
					 check_on_body);
			curl_easy_setopt(x->c, CURLOPT_WRITEDATA, x);
			curl_easy_setopt(x->c, CURLOPT_PRIVATE, x);
			curl_multi_add_handle(m, x->c);
			x->host->busy = true;
			x->host->next = now + interval_us(&o);
			running++;
		}
		if (running) {
			int ms = (int)MAX(0, MIN(1000, (wake - now) / 1000));

			curl_multi_perform(m, &still);
			curl_multi_poll(m, NULL, 0, ms ? ms : 1, NULL);
			curl_multi_perform(m, &still);
		} else if (wake > now) {
			g_usleep((gulong)(wake - now));
		}
		while ((msg = curl_multi_info_read(m, &left))) {
			struct check_xfer *x = NULL;
			bool retry;
			unsigned delay = 0;

			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
					  (char **)&x);
			check_record(x, msg->data.result, &o, &retry, &delay);
			curl_multi_remove_handle(m, x->c);
			curl_easy_cleanup(x->c);
			x->c = NULL;
			x->host->busy = false;
			running--;
			if (retry) {
				x->not_before = g_get_monotonic_time() +
					(gint64)delay * 1000;
				g_ptr_array_add(waiting, x);
				continue;
			}
			done++;
			if (progress)
				progress(data, done, n);
		}
	}
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		if (xs[i].c) {
			curl_multi_remove_handle(m, xs[i].c);
			curl_easy_cleanup(xs[i].c);
		}
	curl_multi_cleanup(m);
	g_ptr_array_free(waiting, TRUE);
	g_free(xs);
	g_hash_table_destroy(hosts);
	g_free(ua);
	return rc;
}
