/*
 * test-fetch.c - the fetcher library: URL and Message-ID helpers, the HTTP
 * layer and the URL checker against tests/cli/faultserver.py on 127.0.0.1.
 */
#include "test.h"

#include "error.h"
#include "fetch.h"
#include "http.h"
#include "urlcheck.h"

#include <glib.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static GPid server_pid;
static char base[64];

static int start_server(void)
{
	const char *root = g_getenv("MS_SOURCE_ROOT");
	char *script = g_build_filename(root ? root : ".", "tests", "cli",
					"faultserver.py", NULL);
	char *argv[] = { "python3", script, NULL };
	char line[32] = "";
	int out = -1;
	ssize_t n;
	gboolean ok;

	ok = g_spawn_async_with_pipes(NULL, argv, NULL,
				      G_SPAWN_SEARCH_PATH |
				      G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
				      &server_pid, NULL, &out, NULL, NULL);
	g_free(script);
	if (!ok)
		return -1;
	/* The first line is the port; read up to its newline. */
	for (size_t len = 0; len < sizeof(line) - 1 && !strchr(line, '\n');
	     len += (size_t)n) {
		n = read(out, line + len, sizeof(line) - 1 - len);
		if (n <= 0)
			break;
		line[len + (size_t)n] = '\0';
	}
	close(out);
	if (atoi(line) <= 0) {
		printf("# fault server said '%s'\n", line);
		return -1;
	}
	snprintf(base, sizeof(base), "http://127.0.0.1:%d", atoi(line));
	return 0;
}

static void stop_server(void)
{
	kill(server_pid, SIGKILL);
	waitpid(server_pid, NULL, 0);
	g_spawn_close_pid(server_pid);
}

static void test_helpers(void)
{
	char *s;
	int64_t age = 0;

	s = ms_fetch_inbox_name("https://lore.kernel.org/netdev/");
	is_str(s, "netdev", "inbox name from a URL with a trailing /");
	g_free(s);
	s = ms_fetch_inbox_name("https://lore.kernel.org/linux-rdma");
	is_str(s, "linux-rdma", "inbox name without a trailing /");
	g_free(s);
	s = ms_fetch_inbox_name("https://lore.kernel.org/");
	ok(s == NULL, "no inbox name in a bare host URL");
	g_free(s);
	s = ms_fetch_inbox_name("https://x.org/a/..");
	ok(s == NULL, "'..' is not an inbox name");
	g_free(s);
	s = ms_fetch_inbox_name("https://x.org/a%2fb/");
	ok(s == NULL, "'a%2fb' is not an inbox name (nor is it 'b')");
	g_free(s);
	s = ms_fetch_inbox_name("https://x.org/%2e%2e/");
	ok(s == NULL, "'%2e%2e' is not an inbox name");
	g_free(s);
	s = ms_fetch_inbox_name("https://x.org/a%1bb/");
	ok(s == NULL, "an inbox name with a control character is refused");
	g_free(s);
	s = ms_fetch_inbox_name("https://x.org/linux%2Drdma/");
	is_str(s, "linux-rdma", "an escaped inbox name is unescaped");
	g_free(s);
	{
		GArray *e = g_array_new(FALSE, FALSE, sizeof(unsigned));
		GString *m = g_string_new("{");

		/* 200,000 epochs, each listed twice, and non-canonical
		 * names: linear after the sort (it was quadratic, 7 s) */
		for (unsigned i = 0; i < 200000; i++)
			g_string_append_printf(m, "\"/x/git/%u.git\":{},"
					       "\"/x/git/%u.git\":{},", i, i);
		g_string_append(m, "\"/x/git/00.git\":{},"
				"\"/x/git/+1.git\":{}}");
		ms_fetch_manifest_epochs(m->str, m->len, e);
		ok(e->len == 200000 &&
		   g_array_index(e, unsigned, 0) == 0 &&
		   g_array_index(e, unsigned, 199999) == 199999,
		   "a manifest's 200,000 epochs, each once, in order");
		g_array_free(e, TRUE);
		g_string_free(m, TRUE);
	}

	s = ms_fetch_msgid_segment("<CANn89i+Lx=Q3kZ/abc+def=_XyZ@x.example>");
	is_str(s, "CANn89i+Lx=Q3kZ%2Fabc+def=_XyZ@x.example",
	       "Message-ID: <> gone, '/' as %2F, '+' '=' '@' kept");
	g_free(s);
	s = ms_fetch_msgid_segment(" a%b?c#d@e ");
	is_str(s, "a%25b%3Fc%23d@e", "'%', '?' and '#' encoded");
	g_free(s);

	s = ms_urlcheck_extract("git git://git.kernel.org/pub/x.git main");
	is_str(s, "git://git.kernel.org/pub/x.git", "T: URL after 'git'");
	g_free(s);
	s = ms_urlcheck_extract("https://example.org/wiki");
	is_str(s, "https://example.org/wiki", "W: the URL itself");
	g_free(s);
	s = ms_urlcheck_extract("mailto:bugs@example.org");
	is_str(s, "mailto:bugs@example.org", "B: mailto kept");
	g_free(s);

	ok(ms_urlcheck_parse_age("5y", &age) == 0 &&
	   age == (int64_t)(5 * 365.25 * 86400), "age 5y");
	ok(ms_urlcheck_parse_age("30d", &age) == 0 && age == 30 * 86400,
	   "age 30d");
	ok(ms_urlcheck_parse_age("18m", &age) == 0 &&
	   age == (int64_t)(18 * 365.25 * 86400 / 12), "age 18m");
	is_int(ms_urlcheck_parse_age("5x", &age), MS_EPARSE, "bad unit");
	is_int(ms_urlcheck_parse_age("y", &age), MS_EPARSE, "no number");
	is_int(ms_urlcheck_parse_age("-1y", &age), MS_EPARSE, "negative");
}

/* The HTTP layer: a retry and a gzip body. */
static void test_http(void)
{
	struct ms_fetch_opts o = MS_FETCH_OPTS_INIT;
	struct ms_http *h = NULL;
	struct ms_http_response r;
	char *url;
	FILE *tmp = tmpfile();
	char buf[64] = "";

	o.rate = 50;
	o.backoff_ms = 50;
	ok(ms_http_new(&o, &h) == 0, "http session");
	url = g_strdup_printf("%s/e500-1.h/inbox/m/t.mbox.gz", base);
	is_int(ms_http_request(h, url, false, fileno(tmp), "t", &r), 0,
	       "500 then 200");
	is_int(r.status, 200, "  final status 200");
	is_int(r.attempts, 2, "  after two attempts");
	ok(r.to_sink && r.gunzipped, "  gzip body unpacked to the sink");
	rewind(tmp);
	ok(fread(buf, 1, 5, tmp) == 5 && !memcmp(buf, "From ", 5),
	   "  the sink holds the mbox");
	ms_http_response_release(&r);
	g_free(url);

	url = g_strdup_printf("%s/e404/x", base);
	is_int(ms_http_request(h, url, false, -1, "t", &r), 0,
	       "a 404 is an answer");
	is_int(r.status, 404, "  with its status");
	ok(r.body && r.body->len == 9, "  and its body kept");
	ms_http_response_release(&r);
	g_free(url);
	ms_http_free(h);
	fclose(tmp);
}

/* The request times of a fault-server mode. */
static GArray *request_times(const char *mode)
{
	struct ms_fetch_opts o = MS_FETCH_OPTS_INIT;
	struct ms_http *h = NULL;
	struct ms_http_response r;
	GArray *t = g_array_new(FALSE, FALSE, sizeof(double));
	char *url = g_strdup_printf("%s/_times/%s", base, mode);

	o.rate = 100;
	if (ms_http_new(&o, &h) == 0 &&
	    ms_http_request(h, url, false, -1, "t", &r) == 0) {
		char *text = g_strndup((char *)r.body->data, r.body->len);
		char **lines = g_strsplit(text, "\n", -1);

		for (char **l = lines; *l; l++)
			if (**l) {
				double v = g_ascii_strtod(*l, NULL);

				g_array_append_val(t, v);
			}
		g_strfreev(lines);
		g_free(text);
		ms_http_response_release(&r);
	}
	ms_http_free(h);
	g_free(url);
	return t;
}

static void test_urlcheck(void)
{
	struct ms_fetch_opts o = MS_FETCH_OPTS_INIT;
	struct ms_urlcheck *c = ms_urlcheck_new();
	const struct ms_url_result *res;
	int64_t now = (int64_t)time(NULL), five_years;
	size_t page, old, dead, redir, loop, flaky, broken, busy, git,
	       refused;
	GArray *t;
	char *u;
	double min_gap = 1e9;

	ms_urlcheck_parse_age("5y", &five_years);
	o.rate = 5;
	o.backoff_ms = 100;
	o.retries = 2;
	o.connect_timeout = 5;
	o.stall_timeout = 5;
#define ADD(var, fmt) do { u = g_strdup_printf(fmt, base); \
	var = ms_urlcheck_add(c, u); g_free(u); } while (0)
	ADD(page, "%s/page/index.html");
	ADD(old, "%s/old/index.html");
	ADD(dead, "%s/e404.c/gone.html");
	ADD(redir, "%s/redirect/inbox/m/t.mbox.gz");
	ADD(loop, "%s/loop/x");
	ADD(flaky, "%s/e500-1.c/x");
	ADD(broken, "%s/e500-99.c/x");
	ADD(busy, "%s/e429-1-1.c/x");
	git = ms_urlcheck_add(c, "git://git.example.org/x.git");
	refused = ms_urlcheck_add(c, "http://127.0.0.1:1/");
	u = g_strdup_printf("%s/page/index.html", base);
	is_int(ms_urlcheck_add(c, u), page, "a URL added twice is one");
	g_free(u);
	is_int(refused, 9, "10 distinct URLs, numbered in order");

	is_int(ms_urlcheck_run(c, &o, 4, now, five_years), 0, "check runs");
	res = ms_urlcheck_result(c, page);
	is_str(ms_url_verdict_name(res->verdict), "ok", "fresh page: ok");
	is_int(res->status, 200, "  status 200");
	ok(res->last_modified > now - 3600, "  its Last-Modified");
	res = ms_urlcheck_result(c, old);
	is_str(ms_url_verdict_name(res->verdict), "stale",
	       "page from 2010: stale");
	is_int(res->last_modified, 1262304000, "  Last-Modified 2010-01-01");
	res = ms_urlcheck_result(c, dead);
	is_str(ms_url_verdict_name(res->verdict), "dead", "404: dead");
	is_int(res->status, 404, "  status 404");
	res = ms_urlcheck_result(c, redir);
	is_str(ms_url_verdict_name(res->verdict), "ok", "redirect: ok");
	u = g_strdup_printf("%s/ok/inbox/m/t.mbox.gz", base);
	is_str(res->final_url, u, "  final URL after the redirect");
	g_free(u);
	res = ms_urlcheck_result(c, loop);
	is_str(ms_url_verdict_name(res->verdict), "dead",
	       "redirect loop: dead");
	res = ms_urlcheck_result(c, flaky);
	is_str(ms_url_verdict_name(res->verdict), "ok", "one 500: retried");
	is_int(res->attempts, 2, "  two attempts");
	res = ms_urlcheck_result(c, broken);
	is_str(ms_url_verdict_name(res->verdict), "error",
	       "500 for ever: error");
	is_int(res->status, 500, "  status 500");
	is_int(res->attempts, 3, "  three attempts (--retries 2)");
	res = ms_urlcheck_result(c, busy);
	is_str(ms_url_verdict_name(res->verdict), "ok",
	       "429 with Retry-After: retried");
	res = ms_urlcheck_result(c, git);
	is_str(ms_url_verdict_name(res->verdict), "unchecked",
	       "git:// is unchecked");
	res = ms_urlcheck_result(c, refused);
	is_str(ms_url_verdict_name(res->verdict), "dead",
	       "refused connection: dead");
	ok(res->error && strstr(res->error, "cannot connect"),
	   "  with the reason");

	/* Per-host rate: no two requests to the host closer than 1/5 s. */
	t = request_times("e500-99.c");
	is_int(t->len, 3, "the server saw three requests for one URL");
	g_array_free(t, TRUE);
	{
		/* Redirects are followed within one check, so the loop
		 * and the redirect's target are not counted. */
		const char *modes[] = { "page", "old", "e404.c", "redirect",
					"e500-1.c", "e500-99.c",
					"e429-1-1.c" };
		GArray *all = g_array_new(FALSE, FALSE, sizeof(double));

		for (size_t i = 0; i < G_N_ELEMENTS(modes); i++) {
			t = request_times(modes[i]);
			g_array_append_vals(all, t->data, t->len);
			g_array_free(t, TRUE);
		}
		for (guint i = 0; i < all->len; i++)
			for (guint j = 0; j < all->len; j++) {
				double d = g_array_index(all, double, i) -
					g_array_index(all, double, j);

				if (i != j && d >= 0 && d < min_gap)
					min_gap = d;
			}
		is_int(all->len, 11, "the server saw every request");
		/*
		 * The server stamps a request when it has parsed it, which
		 * adds its own jitter to the 0.2s the client keeps; 0.12s is
		 * still far from requests sent at once.
		 */
		ok(min_gap >= 0.12, "requests to one host at most 5 a second");
		if (min_gap < 0.12)
			printf("#   smallest gap %.3fs\n", min_gap);
		g_array_free(all, TRUE);
	}
	ms_urlcheck_free(c);
}

int main(void)
{
	test_helpers();
	if (start_server() < 0) {
		printf("# SKIP cannot start tests/cli/faultserver.py\n");
		ok(0, "fault server started");
		return test_done();
	}
	test_http();
	test_urlcheck();
	stop_server();
	return test_done();
}
