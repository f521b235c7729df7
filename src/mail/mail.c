/*
 * mail.c - one raw message into a struct ms_mail (see mail.h): the checks
 * GMime does not make (NUL bytes, long lines, header size), the Date and
 * Subject parsers, the real sender, the body's quoted and new text, its
 * trailers and diff, and the kind.
 */
#include "mail.h"
#include "mime.h"
#include "mail-notice.h"
#include "person.h"
#include "utf8.h"

#include <string.h>

static const char *const problem_names[MS_MAIL_P__COUNT] = {
	[MS_MAIL_P_TRUNCATED] = "truncated",
	[MS_MAIL_P_NUL_BYTES] = "nul_bytes",
	[MS_MAIL_P_LONG_LINE] = "long_line",
	[MS_MAIL_P_BAD_BASE64] = "bad_base64",
	[MS_MAIL_P_UNKNOWN_CHARSET] = "unknown_charset",
	[MS_MAIL_P_NO_HEADERS] = "no_headers",
	[MS_MAIL_P_HUGE_HEADER] = "huge_header",
	[MS_MAIL_P_BAD_DATE] = "bad_date",
	[MS_MAIL_P_NO_MESSAGE_ID] = "no_message_id",
	[MS_MAIL_P_MIME_ERROR] = "mime_error",
	[MS_MAIL_P_OVERSIZED] = "oversized",
	[MS_MAIL_P_MISDATED] = "misdated",
};

const char *ms_mail_problem_name(enum ms_mail_problem p)
{
	return p < MS_MAIL_P__COUNT ? problem_names[p] : "unknown";
}

const char *ms_mail_kind_name(enum ms_mail_kind kind)
{
	switch (kind) {
	case MS_MAIL_PATCH: return "patch";
	case MS_MAIL_COVER: return "cover_letter";
	case MS_MAIL_REPLY: return "reply";
	case MS_MAIL_REVIEW: return "review";
	case MS_MAIL_NACK: return "nack";
	case MS_MAIL_PULL: return "pull_request";
	case MS_MAIL_BOT: return "bot";
	case MS_MAIL_OTHER: break;
	}
	return "other";
}

/* ---- Date ---- */

static const char *skip_cfws(const char *s)
{
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (*s != '(')
			return s;
		int depth = 0;
		do {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '(')
				depth++;
			else if (*s == ')')
				depth--;
			s++;
		} while (*s && depth > 0);
	}
}

static int parse_num(const char **sp, int max_digits, int *ndigits)
{
	const char *s = *sp;
	int v = 0, n = 0;

	while (g_ascii_isdigit(*s) && n < max_digits + 1) {
		v = v * 10 + (*s - '0');
		s++, n++;
	}
	*ndigits = n;
	*sp = s;
	return v;
}

static const struct {
	const char *name;
	int minutes;
} zones[] = {
	{ "UT", 0 }, { "UTC", 0 }, { "GMT", 0 }, { "Z", 0 },
	{ "EST", -300 }, { "EDT", -240 }, { "CST", -360 }, { "CDT", -300 },
	{ "MST", -420 }, { "MDT", -360 }, { "PST", -480 }, { "PDT", -420 },
};

bool ms_mail_parse_date(const char *s, int64_t *t, int *tz)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	int day, mon = 0, year, hour, min, sec = 0, zone = 0, nd;
	const char *p;
	GDate date;

	if (!s)
		return false;
	s = skip_cfws(s);
	if (g_ascii_isalpha(*s)) { /* day of week */
		while (g_ascii_isalpha(*s))
			s++;
		s = skip_cfws(s);
		if (*s == ',')
			s = skip_cfws(s + 1);
	}
	day = parse_num(&s, 2, &nd);
	if (nd < 1 || nd > 2)
		return false;
	s = skip_cfws(s);
	if (*s == '-')
		s++;
	for (int i = 0; i < 12; i++)
		if (!g_ascii_strncasecmp(s, months + 3 * i, 3))
			mon = i + 1;
	if (!mon)
		return false;
	while (g_ascii_isalpha(*s))
		s++;
	s = skip_cfws(s);
	if (*s == '-')
		s++;
	year = parse_num(&s, 4, &nd);
	if (nd == 2)
		year += year < 50 ? 2000 : 1900;
	else if (nd == 3)
		year += 1900;
	else if (nd != 4)
		return false;
	s = skip_cfws(s);
	hour = parse_num(&s, 2, &nd);
	if (nd < 1 || nd > 2 || *s != ':')
		return false;
	s++;
	min = parse_num(&s, 2, &nd);
	if (nd != 2)
		return false;
	if (*s == ':') {
		s++;
		sec = parse_num(&s, 2, &nd);
		if (nd != 2)
			return false;
	}
	s = skip_cfws(s);
	if (*s == '+' || *s == '-') {
		int sign = *s == '-' ? -1 : 1, v;
		p = s + 1;
		v = parse_num(&p, 4, &nd);
		if (nd != 4 || v % 100 >= 60 || v / 100 > 23)
			return false;
		zone = sign * (v / 100 * 60 + v % 100);
	} else if (g_ascii_isalpha(*s)) {
		size_t n = 0;
		while (g_ascii_isalpha(s[n]))
			n++;
		for (size_t i = 0; i < G_N_ELEMENTS(zones); i++)
			if (strlen(zones[i].name) == n &&
			    !g_ascii_strncasecmp(s, zones[i].name, n))
				zone = zones[i].minutes;
		/* other (military) zones mean "unknown": RFC 5322 -0000 */
	}
	/* RFC 5322: a year is 1900 or later; before 1970 is a valid date
	 * (time_t is 64-bit), implausible for a list but not malformed */
	if (year < 1900 || year > 2199 ||
	    !g_date_valid_dmy((GDateDay)day, (GDateMonth)mon,
			      (GDateYear)year) ||
	    hour > 23 || min > 59 || sec > 60)
		return false;
	g_date_clear(&date, 1);
	g_date_set_dmy(&date, (GDateDay)day, (GDateMonth)mon, (GDateYear)year);
	/* day 1 of GDate's count is 1 January of year 1; 1970 starts on
	 * day 719,163 */
	*t = ((int64_t)g_date_get_julian(&date) - 719163) * 86400 +
	     hour * 3600 + min * 60 + sec - (int64_t)zone * 60;
	*tz = zone;
	return true;
}

/* ---- Subject ---- */

static bool word_is(const char *w, const char *x)
{
	return !g_ascii_strcasecmp(w, x);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!g_ascii_isdigit(*s))
			return false;
	return true;
}

/* One bracketed prefix: "PATCH net-next v3 02/17". */
static void parse_prefix(const char *p, size_t n, struct ms_mail_subject *out,
			 GString *trees)
{
	char *copy = g_strndup(p, n);
	char **words = g_strsplit_set(copy, " \t,", -1);
	bool tagged = false, numbered = false;
	GString *tree = g_string_new(NULL);

	for (char **w = words; *w; w++) {
		char *x = *w;
		char *slash = strchr(x, '/');
		if (!*x)
			continue;
		if (word_is(x, "PATCH") || word_is(x, "PATCHES")) {
			out->patch = tagged = true;
		} else if (!g_ascii_strncasecmp(x, "PATCHv", 6) &&
			   all_digits(x + 6)) {
			out->patch = tagged = true;
			out->version = (unsigned)atoi(x + 6);
		} else if (word_is(x, "RFC")) {
			out->rfc = out->patch = tagged = true;
		} else if (word_is(x, "RESEND") || word_is(x, "REPOST")) {
			out->resend = tagged = true;
		} else if (word_is(x, "PULL") || word_is(x, "GIT")) {
			out->pull = tagged = true; /* "[GIT] Networking" too */
		} else if ((x[0] == 'v' || x[0] == 'V') && all_digits(x + 1)) {
			out->version = (unsigned)atoi(x + 1);
			numbered = true;
		} else if (slash && slash != x) {
			*slash = 0;
			if (all_digits(x) && all_digits(slash + 1)) {
				out->number = (unsigned)atoi(x);
				out->total = (unsigned)atoi(slash + 1);
				numbered = true;
			} else {
				*slash = '/';
				g_string_append_printf(tree, "%s%s",
						       tree->len ? " " : "", x);
			}
		} else {
			g_string_append_printf(tree, "%s%s",
					       tree->len ? " " : "", x);
		}
	}
	/* "[net-next V2 04/13]": numbered or versioned means a patch */
	if (numbered && !tagged)
		out->patch = tagged = true;
	if (tagged && tree->len)
		g_string_append_printf(trees, "%s%s", trees->len ? " " : "",
				       tree->str);
	g_string_free(tree, TRUE);
	g_strfreev(words);
	g_free(copy);
}

/* A colon, ASCII or full-width (U+FF1A, as CJK mailers write it): its
 * length in bytes, or 0. */
static size_t colon_len(const char *s)
{
	if (s[0] == ':')
		return 1;
	if (!strncmp(s, "\xef\xbc\x9a", 3))
		return 3;
	return 0;
}

static size_t reply_marker(const char *s)
{
	/* Re:, German AW:, Dutch Antw:, Nordic SV:/VS:, Polish Odp:,
	 * Chinese 回复: and 答复: (Outlook, Foxmail), 回覆: (Taiwan) */
	static const char *const marks[] = {
		"re", "aw", "antw", "sv", "vs", "odp",
		"\xe5\x9b\x9e\xe5\xa4\x8d", "\xe7\xad\x94\xe5\xa4\x8d",
		"\xe5\x9b\x9e\xe8\xa6\x86",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(marks); i++) {
		size_t n = strlen(marks[i]), c;
		if (g_ascii_strncasecmp(s, marks[i], n))
			continue;
		c = colon_len(s + n);
		if (c)
			return n + c;
		if (s[n] == '[') { /* Re[2]: */
			const char *e = strchr(s + n, ']');
			if (e && e[1] == ':')
				return (size_t)(e - s) + 2;
		}
	}
	return 0;
}

/*
 * Skip the reply markers and bracketed prefixes that open `s`; with `out`
 * set, record them there (and in `prefixes`, `trees`) as they go.
 */
static const char *subject_prefixes(const char *s, struct ms_mail_subject *out,
				    GString *prefixes, GString *trees)
{
	size_t n;

	for (;;) {
		while (g_ascii_isspace(*s))
			s++;
		if ((n = reply_marker(s))) {
			if (out)
				out->reply_depth++;
			s += n;
		} else if (!g_ascii_strncasecmp(s, "fwd:", 4)) {
			if (out)
				out->forward = true;
			s += 4;
		} else if (!g_ascii_strncasecmp(s, "fw:", 3)) {
			if (out)
				out->forward = true;
			s += 3;
		} else if (*s == '[' && strchr(s, ']')) {
			const char *e = strchr(s, ']');

			if (out) {
				parse_prefix(s + 1, (size_t)(e - s - 1), out,
					     trees);
				g_string_append_printf(prefixes, "%s%.*s",
						       prefixes->len ?
						       " | " : "",
						       (int)(e - s - 1), s + 1);
			}
			s = e + 1;
		} else {
			return s;
		}
	}
}

/* The rest of the subject with runs of white space as one space. */
static size_t subject_collapse(const char *s, char *out)
{
	size_t len = 0;

	for (bool space = false; *s; s++) {
		if (g_ascii_isspace(*s)) {
			space = true;
			continue;
		}
		if (space && len)
			out[len++] = ' ';
		space = false;
		out[len++] = *s;
	}
	out[len] = '\0';
	return len;
}

void ms_mail_parse_subject(const char *subject, struct ms_mail_subject *out)
{
	const char *s = subject ? subject : "";
	GString *prefixes = g_string_new(NULL);
	GString *trees = g_string_new(NULL);

	memset(out, 0, sizeof(*out));
	s = subject_prefixes(s, out, prefixes, trees);
	/* netdev's "pull-request: mlx5-next 2023-01-24" (git request-pull
	 * output with a diff): a pull request, not a patch to review */
	if (!g_ascii_strncasecmp(s, "pull-request:", 13) ||
	    !g_ascii_strncasecmp(s, "pull request:", 13))
		out->pull = true;
	out->normalized = g_malloc(strlen(s) + 1);
	subject_collapse(s, out->normalized);
	if (!out->version)
		out->version = 1;
	out->prefixes = g_string_free(prefixes, !prefixes->len);
	out->tree = g_string_free(trees, !trees->len);
}

size_t ms_mail_subject_normalize(const char *subject, char *out)
{
	return subject_collapse(subject_prefixes(subject ? subject : "", NULL,
						 NULL, NULL), out);
}

char *ms_mail_subject_key(const char *normalized)
{
	char *k = ms_casefold(normalized ? normalized : "", -1);
	size_t n = strlen(k);

	while (n && (k[n - 1] == '.' || k[n - 1] == ' '))
		k[--n] = 0;
	return k;
}

void ms_mail_subject_release(struct ms_mail_subject *s)
{
	g_free(s->prefixes);
	g_free(s->normalized);
	g_free(s->tree);
	memset(s, 0, sizeof(*s));
}

/* ---- body ---- */

void ms_mail_trailer_free(gpointer p)
{
	struct ms_mail_trailer *t = p;
	g_free(t->token);
	g_free(t->value);
	g_free(t->name);
	g_free(t->email);
	g_free(t);
}

static bool line_starts(const char *s, size_t n, const char *p)
{
	size_t pl = strlen(p);
	return n >= pl && memcmp(s, p, pl) == 0;
}

/*
 * Record a path.  `strip` drops the first path component, as `patch -p1`
 * and `git apply` do with "--- old/x" / "+++ new/x" lines; "diff --git"
 * names have only their "a/" or "b/" removed.
 */
static void add_file(struct ms_mail *m, const char *p, size_t n, bool strip)
{
	char *path;

	/* strip a timestamp after a tab, "a/" "b/" prefixes */
	for (size_t i = 0; i < n; i++)
		if (p[i] == '\t') {
			n = i;
			break;
		}
	while (n && g_ascii_isspace(p[n - 1]))
		n--;
	if (n == 9 && !memcmp(p, "/dev/null", 9))
		return;
	if (strip) {
		const char *slash = memchr(p, '/', n);
		if (slash && slash + 1 < p + n) {
			n -= (size_t)(slash + 1 - p);
			p = slash + 1;
		}
	} else if (n >= 2 && (p[0] == 'a' || p[0] == 'b') && p[1] == '/') {
		p += 2, n -= 2;
	}
	if (!n)
		return;
	for (guint i = 0; i < m->files->len; i++)
		if (strlen(m->files->pdata[i]) == n &&
		    !memcmp(m->files->pdata[i], p, n))
			return;
	path = g_strndup(p, n);
	g_ptr_array_add(m->files, path);
}

/* "diff --git a/X b/Y": take Y (the name after the change). */
static void diff_git_line(struct ms_mail *m, const char *s, size_t n)
{
	const char *b = NULL;

	for (size_t i = 11; i + 3 <= n; i++)
		if (s[i] == ' ' && s[i + 1] == 'b' && s[i + 2] == '/')
			b = s + i + 1;
	if (b)
		add_file(m, b, n - (size_t)(b - s), false);
}

/* The path before the change of "diff --git a/X b/Y": X (a new
 * string), or NULL. */
static char *diff_git_before(const char *s, size_t n)
{
	const char *b = NULL;

	for (size_t i = 11; i + 3 <= n; i++)
		if (s[i] == ' ' && s[i + 1] == 'b' && s[i + 2] == '/')
			b = s + i;
	if (!b || b < s + 13 || memcmp(s + 11, "a/", 2))
		return NULL;
	return g_strndup(s + 13, (size_t)(b - s - 13));
}

/* "index A..B[ mode]" after a "diff --git" line `git` (`git_n` bytes):
 * keep A, the blob the patch applies to, and the file it is
 * (mail.h, ->preimages). */
static void index_line(struct ms_mail *m, const char *s, size_t n,
		       const char *git, size_t git_n)
{
	static const char empty[] = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
	size_t a = 0, b = 0;
	char *id;

	s += 6, n -= 6;
	while (a < n && a < 64 && g_ascii_isxdigit(s[a]))
		a++;
	while (a + 2 + b < n && g_ascii_isxdigit(s[a + 2 + b]))
		b++;
	if (a < 7 || b < 7 || a + 2 > n || memcmp(s + a, "..", 2) ||
	    (a + 2 + b < n && s[a + 2 + b] != ' ') ||
	    strspn(s, "0") >= a || !g_ascii_strncasecmp(s, empty, a))
		return;
	id = g_ascii_strdown(s, (gssize)a);
	if (git) {
		char *path = diff_git_before(git, git_n);

		if (path) {
			char *both = g_strconcat(id, " ", path, NULL);

			g_free(id);
			g_free(path);
			id = both;
		}
	}
	for (guint i = 0; i < m->preimages->len; i++)
		if (!strcmp(m->preimages->pdata[i], id)) {
			g_free(id);
			return;
		}
	g_ptr_array_add(m->preimages, id);
}

/* Scan a diff, inline or attached: files, pre-image blobs, added and
 * removed lines. */
static bool scan_diff_line(struct ms_mail *m, const char *s, size_t n,
			   int *before, int *after, const char **minus,
			   size_t *minus_n, const char **git, size_t *git_n)
{
	if (*before > 0 || *after > 0) {
		if (n && s[0] == '+') {
			m->lines_added++;
			(*after)--;
			return true;
		} else if (n && s[0] == '-') {
			m->lines_removed++;
			(*before)--;
			return true;
		} else if (!n || s[0] == ' ') {
			(*before)--;
			(*after)--;
			return true;
		} else if (s[0] == '\\') {
			return true;
		}
		*before = *after = 0;
	}
	if (line_starts(s, n, "diff --git ")) {
		diff_git_line(m, s, n);
		m->has_diff = true;
		*minus = NULL;
		*git = s;
		*git_n = n;
		return true;
	}
	if (line_starts(s, n, "index ") && !*minus && m->has_diff)
		index_line(m, s, n, *git, *git_n);   /* and read on */
	if (line_starts(s, n, "--- ")) {
		*minus = s + 4;
		*minus_n = n - 4;
		return false;
	}
	if (line_starts(s, n, "+++ ") && *minus) {
		size_t before_files = m->files->len;
		add_file(m, s + 4, n - 4, true);
		if (m->files->len == before_files)
			add_file(m, *minus, *minus_n, true);
		*minus = NULL;
		m->has_diff = true;
		return true;
	}
	if (line_starts(s, n, "@@ -") && m->has_diff) {
		*after = 1;    /* a malformed header's */
		ms_patch_hunk_counts(s, n, before, after);
		return true;
	}
	return false;
}

static void add_trailer(struct ms_mail *m, const struct ms_trailer_line *tl)
{
	struct ms_mail_trailer *t = g_new0(struct ms_mail_trailer, 1);

	t->kind = tl->kind;
	t->token = g_strndup(tl->token, tl->token_len);
	t->value = g_strndup(tl->value, tl->value_len);
	if (tl->is_person)
		ms_person_parse(tl->value, (long)tl->value_len, &t->name,
				&t->email);
	if (tl->kind == MS_TRAILER_CHANGE_ID && !m->change_id)
		m->change_id = g_strdup(t->value);
	g_ptr_array_add(m->trailers, t);
}

static void scan_body(struct ms_mail *m, const char *text, size_t len)
{
	struct ms_mail_scan sc = { 0 };
	struct ms_trailer_line tl;
	bool trailer;
	int before = 0, after = 0;
	const char *minus = NULL, *git = NULL;
	size_t minus_n = 0, git_n = 0, pos = 0;

	sc.pull = m->subject.pull && !m->subject.reply_depth;
	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + (nl ? 1 : 0);
		if (n && s[n - 1] == '\r')
			n--;
		if (scan_diff_line(m, s, n, &before, &after, &minus,
				   &minus_n, &git, &git_n))
			continue;
		if (sc.pull && (!n || s[0] != '>'))
			ms_mail_notice_quoted(&sc, s, n);  /* its shortlog */
		if (n && s[0] == '>') {
			m->quoted_lines++;
			if (!sc.pull)
				ms_mail_notice_quoted(&sc, s, n);
			sc.open = false;
			continue;
		}
		size_t k = 0;
		while (k < n && g_ascii_isspace(s[k]))
			k++;
		while (n > k && g_ascii_isspace(s[n - 1]))
			n--;
		if (k == n) {
			sc.open = false;
			continue;
		}
		m->new_lines++;
		trailer = ms_trailer_parse_line(s + k, n - k, &tl) &&
			  tl.kind != MS_TRAILER_OTHER;
		if (!sc.pull)
			ms_mail_notice_line(m, s + k, n - k, trailer, &sc);
		/* indented too: "you can add:\n\n    Reviewed-by: ..." (b4
		 * takes ^\s*Token: value) */
		if (trailer && tl.kind != MS_TRAILER_MESSAGE_ID)
			add_trailer(m, &tl);
	}
	ms_mail_notice_end(m, &sc);
}

static void scan_attachment(struct ms_mail *m, const GString *a)
{
	int before = 0, after = 0;
	const char *minus = NULL, *git = NULL;
	size_t minus_n = 0, git_n = 0, pos = 0;
	bool had = m->has_diff;

	m->has_diff = false;
	while (pos < a->len) {
		const char *s = a->str + pos;
		const char *nl = memchr(s, '\n', a->len - pos);
		size_t n = nl ? (size_t)(nl - s) : a->len - pos;
		pos += n + (nl ? 1 : 0);
		if (n && s[n - 1] == '\r')
			n--;
		scan_diff_line(m, s, n, &before, &after, &minus, &minus_n,
			       &git, &git_n);
	}
	if (m->has_diff)
		m->diff_in_attachment = true;
	m->has_diff |= had;
}

/* ---- sender and kind ---- */

static bool strip_suffix(char **name, const char *suffix)
{
	size_t n, sn = strlen(suffix);

	if (!*name)
		return false;
	n = strlen(*name);
	if (n <= sn || g_ascii_strcasecmp(*name + n - sn, suffix))
		return false;
	(*name)[n - sn] = 0;
	g_strchomp(*name);
	return true;
}

/* "Name via listname": DMARC munging by a list; returns true if so. */
static bool strip_via(char **name)
{
	char *via;

	if (!*name)
		return false;
	via = g_strrstr(*name, " via ");
	if (!via || via == *name || strchr(via + 5, ' '))
		return false;
	*via = 0;
	g_strchomp(*name);
	return true;
}

static bool is_bot(const struct ms_mail *m)
{
	static const char *const prefixes[] = {
		"lkp@intel.com", "syzbot", "patchwork-bot", "bot@kernelci",
		"pr-tracker-bot", "bugbot@",
		"noreply@", "no-reply@", "kernelci",
		"postmaster@", "mailer-daemon@",   /* bounces */
	};
	static const char *const names[] = {
		"kernel test robot", "syzbot", "patchwork-bot",
		"kernelci.org bot", "mail delivery system",
	};
	const char *e = m->from_email ? m->from_email : "";
	const char *at = strchr(e, '@');

	/* "bot" or "robot" a word of the local part: sashiko-bot@kernel.org
	 * (AI reviews on linux-leds, 2026), patchwork-bot+netdevbpf@ */
	for (const char *w = e; at && w < at; w++) {
		size_t n = strcspn(w, "-_.+@");

		if ((n == 3 && !g_ascii_strncasecmp(w, "bot", 3)) ||
		    (n == 5 && !g_ascii_strncasecmp(w, "robot", 5)))
			return true;
		w += n;          /* the separator, skipped by w++, or '@' */
	}
	for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++)
		if (!g_ascii_strncasecmp(e, prefixes[i], strlen(prefixes[i])))
			return true;
	if (g_str_has_suffix(e, "@syzkaller.appspotmail.com"))
		return true;
	for (size_t i = 0; m->from_name && i < G_N_ELEMENTS(names); i++)
		if (!g_ascii_strncasecmp(m->from_name, names[i],
					 strlen(names[i])))
			return true;
	return false;
}

/* Is `w` (n bytes) a kernel release as stable trees name them: "5.15",
 * "6.1.12", "6.1.y", "5.10-stable"? */
static bool stable_release(const char *w, size_t n)
{
	size_t i = 0, dots = 0;

	if (n > 7 && !g_ascii_strncasecmp(w + n - 7, "-stable", 7))
		n -= 7;
	for (;;) {
		size_t d = i;

		while (i < n && g_ascii_isdigit(w[i]))
			i++;
		if (i == d) {
			/* "6.1.y": a y as the last component */
			if (!(dots >= 1 && i + 1 == n &&
			      (w[i] == 'y' || w[i] == 'Y')))
				return false;
			i++;
		}
		if (i == n)
			return dots >= 1;
		if (w[i] != '.' || ++dots > 2)
			return false;
		i++;
	}
}

bool ms_mail_subject_stable(const struct ms_mail_subject *s)
{
	const char *p = s->prefixes;

	while (p && *p) {
		size_t n;

		/* "[PATCH 5.4/5.10 1/1]": releases joined by '/' too */
		while (*p == ' ' || *p == '|' || *p == ',' || *p == '\t' ||
		       *p == '/')
			p++;
		n = strcspn(p, " |,\t/");
		if (!n)
			break;
		if ((n == 7 && !g_ascii_strncasecmp(p, "AUTOSEL", 7)) ||
		    (n == 6 && !g_ascii_strncasecmp(p, "stable", 6)) ||
		    stable_release(p, n))
			return true;
		p += n;
	}
	return false;
}

bool ms_mail_subject_stable_notice(const struct ms_mail_subject *s)
{
	const char *n = s->normalized;

	if (!n || s->reply_depth || s->forward)
		return false;
	/* "Patch "X" has been added to the 6.1-stable tree" (also "patch
	 * "X" added to ..."), "FAILED: patch "X" failed to apply to
	 * 5.15-stable tree" */
	if (!g_ascii_strncasecmp(n, "patch \"", 7))
		return strstr(n, "-stable tree") != NULL ||
		       strstr(n, "-stable-rc tree") != NULL;
	if (!g_ascii_strncasecmp(n, "failed: patch \"", 15))
		return strstr(n, "failed to apply") != NULL;
	return false;
}

/*
 * Sibling projects whose patches share the kernel's lists (docs/review.md
 * lists them; --foreign-subject adds a regex).  bpftool and perf live in
 * the kernel tree: they are not here.
 */
static const char *const sibling_projects[] = {
	"erofs-utils", "iproute2", "rdma-core", "ethtool", "xfsprogs",
	"e2fsprogs", "btrfs-progs", "f2fs-tools", "nfs-utils", "liburing",
	"libbpf", "xfstests", "fstests", "blktests", "kmod", "util-linux",
	"mdadm", "ndctl", "nvme-cli", "libnvme", "libtraceevent",
	"libtracefs", "trace-cmd", "pahole", "dwarves", "man-pages",
	"linux-firmware", "wireless-regdb", "iw", "libnl", "iptables",
	"nftables", "libnftnl", "libmnl", "ipset", "bluez", "iwd", "ell",
	"mptcpd", "cifs-utils", "ksmbd-tools", "exfatprogs", "mtd-utils",
	"squashfs-tools", "sparse", "smatch", "rt-tests", "libcgroup",
	"iproute", "ibsim", "perftest", "kernel-firmware", "cachefilesd",
	"u-boot",
};

/* A branch or release after a project's name: "next", "main", "master",
 * "stable", or a version ("v50", "2.5", "6.1.y"); not another word
 * ("sparse-ltp" is LTP's own checker, not sparse). */
static bool branch_suffix(const char *w, size_t n)
{
	static const char *const words[] = { "next", "main", "master",
					     "stable", "rc" };

	for (size_t i = 0; i < G_N_ELEMENTS(words); i++)
		if (n == strlen(words[i]) &&
		    !g_ascii_strncasecmp(w, words[i], n))
			return true;
	if (n && (*w == 'v' || *w == 'V')) {
		w++;
		n--;
	}
	if (!n || !g_ascii_isdigit(*w))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!g_ascii_isdigit(w[i]) && w[i] != '.' && w[i] != 'y')
			return false;
	return true;
}

/* Does word `w` (n bytes) name sibling project `p`: "rdma-core", or with
 * a branch suffix, "iproute2-next", "rdma-core-v50"? */
static bool names_sibling(const char *w, size_t n, const char *p)
{
	size_t pl = strlen(p);

	return n >= pl && !g_ascii_strncasecmp(w, p, pl) &&
	       (n == pl || (w[pl] == '-' &&
			    branch_suffix(w + pl + 1, n - pl - 1)));
}

const char *ms_mail_foreign_project(const struct ms_mail_subject *s,
				    const char *subject_raw,
				    const GRegex *extra)
{
	const char *t = s->tree, *n = s->normalized, *b = s->prefixes;
	size_t first = b ? strcspn(b, " |,") : 0;

	/* its first bracket's word, as a list tags subjects: "[U-Boot]
	 * [PATCH v2 1/3]" */
	for (size_t i = 0; i < G_N_ELEMENTS(sibling_projects); i++)
		if (names_sibling(b, first, sibling_projects[i]))
			return sibling_projects[i];
	/* a word of a patch's bracket prefix: "[PATCH rdma-core v2]" */
	while (t && *t) {
		size_t len = strcspn(t, " ");

		for (size_t i = 0; i < G_N_ELEMENTS(sibling_projects); i++)
			if (names_sibling(t, len, sibling_projects[i]))
				return sibling_projects[i];
		t += len;
		while (*t == ' ')
			t++;
	}
	/* one of the first two "name:" of the subject: "erofs-utils: lib:
	 * ...", "AOSP: erofs-utils: ..." */
	for (int k = 0; n && k < 2; k++) {
		size_t len = strcspn(n, ": ");

		if (n[len] != ':')
			break;
		for (size_t i = 0; i < G_N_ELEMENTS(sibling_projects); i++)
			if (names_sibling(n, len, sibling_projects[i]))
				return sibling_projects[i];
		n += len + 1;
		while (*n == ' ')
			n++;
	}
	if (extra && subject_raw && g_regex_match(extra, subject_raw, 0, NULL))
		return "--foreign-subject";
	return NULL;
}

/* `text` up to its first NUL, as strstr() reads it, holds `what`? */
static bool text_has(const char *text, size_t len, const char *what)
{
	return memmem(text, strnlen(text, len), what, strlen(what)) != NULL;
}

static enum ms_mail_kind classify(struct ms_mail *m, const char *text,
				  size_t len)
{
	const struct ms_mail_subject *s = &m->subject;
	bool review = false, nack = false, reply;

	if (ms_mail_subject_stable_notice(s)) {
		/* a stable-tree notice quotes the commit, trailers and all:
		 * none of them was given by its sender, and its diff is no
		 * new patch; an answer to a posting acknowledges it */
		g_ptr_array_set_size(m->trailers, 0);
		return m->in_reply_to ? MS_MAIL_REPLY : MS_MAIL_OTHER;
	}

	for (guint i = 0; i < m->trailers->len; i++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[i];
		if (t->kind == MS_TRAILER_NACKED_BY)
			nack = true;
		else if (t->kind == MS_TRAILER_REVIEWED_BY ||
			 t->kind == MS_TRAILER_ACKED_BY ||
			 t->kind == MS_TRAILER_TESTED_BY)
			review = true;
	}
	if (is_bot(m)) {
		m->notice = text &&
			    (text_has(text, len, "series was applied to") ||
			     text_has(text, len, "patch was applied to")) ?
			    MS_MAIL_NOTICE_APPLIED : MS_MAIL_NOTICE_NONE;
		return MS_MAIL_BOT;
	}
	reply = s->reply_depth > 0 ||
		(m->in_reply_to && !s->patch && !s->pull && !s->forward);
	if (!reply && !s->pull)
		m->notice = MS_MAIL_NOTICE_NONE; /* a posting's own words */
	if (reply) {
		if (nack)
			ms_mail_notice_add(m, MS_MAIL_NOTICE_REJECTED);
		if (nack)
			return MS_MAIL_NACK;
		return review ? MS_MAIL_REVIEW : MS_MAIL_REPLY;
	}
	if (s->pull)
		return MS_MAIL_PULL;
	if (s->patch && s->number == 0 && s->total > 0)
		return MS_MAIL_COVER;
	if (m->has_diff)
		return MS_MAIL_PATCH;
	return MS_MAIL_OTHER;
}

/* ---- the whole message ---- */

/*
 * The receipt time (MS_MAIL_MISDATED) replaces a Date that is missing,
 * unreadable or too far from it; the field's date follows its last ';'.
 */
static void receipt_time(struct ms_mail *m, const char *received,
			 uint32_t *problems)
{
	const char *semi = received ? strrchr(received, ';') : NULL;
	int64_t t;
	int tz;

	if (!semi || !ms_mail_parse_date(semi + 1, &t, &tz))
		return;
	if (m->date_valid && llabs(m->date - t) <= MS_MAIL_MISDATED)
		return;
	if (m->date_valid)
		*problems |= 1u << MS_MAIL_P_MISDATED;
	m->date = t;
	m->date_tz = tz;
	m->date_valid = true;
}

enum {
	H_MESSAGE_ID, H_IN_REPLY_TO, H_REFERENCES, H_DATE, H_SUBJECT, H_FROM,
	H_X_ORIGINAL_FROM, H_REPLY_TO, H_TO, H_CC, H_LIST_ID, H_CONTENT_TYPE,
	H_CTE, H_RECEIVED, H__COUNT
};

#define NAME(s) { s, sizeof(s) - 1 }
static const struct {
	const char *name;
	size_t len;
} header_names[H__COUNT] = {
	NAME("message-id"), NAME("in-reply-to"), NAME("references"),
	NAME("date"), NAME("subject"), NAME("from"), NAME("x-original-from"),
	NAME("reply-to"), NAME("to"), NAME("cc"), NAME("list-id"),
	NAME("content-type"), NAME("content-transfer-encoding"),
	NAME("received"),
};
#undef NAME

/* The header values mail.c needs, unfolded, plus the body. */
struct headers {
	char *v[H__COUNT];
	const char *body;
	size_t body_len;
};

static int header_index(const char *name, size_t n)
{
	/* a message has dozens of fields, most unwanted: lengths first */
	for (int i = 0; i < H__COUNT; i++)
		if (header_names[i].len == n &&
		    !g_ascii_strncasecmp(name, header_names[i].name, n))
			return i;
	return -1;
}

/*
 * Split the header block: each field starts at a line with a colon and
 * goes on over lines that start with white space; the first empty line
 * (or a line that is neither) ends the block.  The first occurrence of
 * each wanted field is kept.
 */
static void split_headers(const char *raw, size_t len, struct headers *h)
{
	size_t pos = 0;

	while (pos < len) {
		const char *line = raw + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		size_t colon = 0, end;
		int which;

		if (n == 0 || (n == 1 && line[0] == '\r')) {
			pos += n + 1;
			break;
		}
		while (colon < n && line[colon] != ':' && line[colon] > ' ')
			colon++;
		if (colon == 0 || colon == n || line[colon] != ':')
			break; /* not a header: the body starts here */
		end = pos + n + (nl ? 1 : 0);
		while (end < len && (raw[end] == ' ' || raw[end] == '\t')) {
			const char *c = memchr(raw + end, '\n', len - end);
			end = c ? (size_t)(c - raw) + 1 : len;
		}
		which = header_index(line, colon);
		if (which >= 0 && !h->v[which])
			h->v[which] = ms_mime_unfold(line + colon + 1,
						     end - pos - colon - 1);
		pos = end;
	}
	if (pos > len)
		pos = len;
	h->body = raw + pos;
	h->body_len = len - pos;
}

/*
 * Every <id> of a References or In-Reply-To value, in order.  Anything
 * between the ids (commas, comments, stray words that some mailers add)
 * is skipped, which GMime's stricter parser does not do.
 */
static void parse_ids(const char *v, GPtrArray *ids)
{
	/* b4 ty q-encodes a long one: "=?utf-8?q?=3C1680...=2Estgi?=" */
	char *d = v && strstr(v, "=?") ? ms_mime_decode_text(v) : NULL;
	const char *p = d ? d : v;

	while (p && (p = strchr(p, '<'))) {
		const char *e = p + 1;
		while (*e && *e != '>' && *e != '<' && !g_ascii_isspace(*e))
			e++;
		if (*e == '>' && e > p + 1)
			g_ptr_array_add(ids, g_strndup(p + 1,
						       (size_t)(e - p - 1)));
		p = *e == '>' ? e + 1 : e;
	}
	g_free(d);
}

static bool needs_mime(const char *v)
{
	return strstr(v, "=?") != NULL;
}

/* Names and subjects are one line, always: an RFC 2047 encoded newline
 * (or any control character) would forge lines of every output that
 * quotes them (.mailmap suggestions, review's text).  Made spaces. */
static char *one_line(char *s)
{
	for (unsigned char *p = (unsigned char *)s; p && *p; p++)
		if (*p < ' ' || *p == 0x7f)
			*p = ' ';
	return s;
}

static char *decode_text(char *v)
{
	if (!v || !*v)
		return NULL;
	if (needs_mime(v))
		return one_line(ms_mime_decode_text(v));
	return one_line(g_strdup(v));
}

static void parse_mailbox(const char *v, char **name, char **email)
{
	*name = *email = NULL;
	if (!v || !*v)
		return;
	if (needs_mime(v) || strpbrk(v, "\\(,;"))
		ms_mime_parse_mailbox(v, name, email);
	else
		ms_person_parse(v, -1, name, email);
	one_line(*name);
	one_line(*email);
}

static char *strip_angles(const char *s)
{
	const char *lt, *gt;

	if (!s || !*s)
		return NULL;
	lt = strchr(s, '<');
	gt = lt ? strchr(lt + 1, '>') : NULL;
	if (lt && gt && gt > lt + 1)
		return g_strndup(lt + 1, (size_t)(gt - lt - 1));
	return g_strdup(s);
}

static bool media_is(const char *ct, const char *type)
{
	size_t n = strlen(type);
	return !g_ascii_strncasecmp(ct, type, n) &&
	       (ct[n] == 0 || ct[n] == ';' || g_ascii_isspace(ct[n]));
}

/* A single text part, not multipart. */
static bool plain_type(const struct headers *h)
{
	const char *ct = h->v[H_CONTENT_TYPE];

	return !ct || !*ct || media_is(ct, "text/plain") ||
	       media_is(ct, "text/x-patch") || media_is(ct, "text/x-diff");
}

/* No transfer encoding. */
static bool plain_cte(const char *cte)
{
	return !cte || !*cte || !g_ascii_strcasecmp(cte, "7bit") ||
	       !g_ascii_strcasecmp(cte, "8bit") ||
	       !g_ascii_strcasecmp(cte, "binary");
}

/* A single text part without transfer encoding: no MIME parser needed. */
static bool plain_body(const struct headers *h)
{
	return plain_type(h) && plain_cte(h->v[H_CTE]);
}

/*
 * A single text part whose Content-Type this file reads as GMime does:
 * no comments, quoting escapes or RFC 2231 parameters.
 */
static bool simple_single_part(const struct headers *h)
{
	const char *ct = h->v[H_CONTENT_TYPE];

	return plain_type(h) && h->v[H_CTE] &&
	       (!ct || !strpbrk(ct, "()\\*"));
}

/*
 * Can the body be read where it lies, as decode_body() would copy it?
 * A plain body in UTF-8 (or undeclared) that is valid UTF-8: most list
 * mail.  Not when the caller keeps the body.
 */
static bool body_in_place(const struct headers *h, unsigned flags)
{
	const char *ct = h->v[H_CONTENT_TYPE];
	char *charset;
	bool ok;

	if ((flags & MS_MAIL_PARSE_KEEP_BODY) || !plain_body(h))
		return false;
	charset = ct ? ms_mime_param(ct, "charset") : NULL;
	ok = ms_mime_charset_is_utf8(charset) &&
	     ms_utf8_valid(h->body, h->body_len);
	g_free(charset);
	return ok;
}

static void decode_body(struct headers *h, GString *text,
			GPtrArray *attachments, uint32_t *problems)
{
	const char *ct = h->v[H_CONTENT_TYPE];
	const char *cte = h->v[H_CTE];

	if (plain_body(h)) {
		/* the common case needs no MIME parser at all */
		char *charset = ct ? ms_mime_param(ct, "charset") : NULL;
		ms_mime_append_text(text, h->body, h->body_len, charset,
				    problems);
		g_free(charset);
		return;
	}
	if (simple_single_part(h)) {
		/* quoted-printable or base64: GMime's decoder, not its
		 * parser */
		char *charset = ct ? ms_mime_param(ct, "charset") : NULL;
		bool done = ms_mime_decode_single(cte, charset, h->body,
						  h->body_len, text, problems);

		g_free(charset);
		if (done)
			return;
	}
	/* multipart of the common shape: split here, not by GMime */
	if (plain_cte(cte) &&
	    ms_mime_decode_multipart(ct, h->body, h->body_len, text,
				     attachments, problems))
		return;
	ms_mime_decode_body(ct, cte, h->body, h->body_len, text, attachments,
			    problems);
}

static void real_sender(struct ms_mail *m, struct headers *h)
{
	char *name = g_strdup(m->from_name);
	bool relay = strip_suffix(&name, "via B4 Relay");
	bool via = !relay && strip_via(&name);
	char *oname = NULL, *oemail = NULL, *rname = NULL, *remail = NULL;

	parse_mailbox(h->v[H_X_ORIGINAL_FROM], &oname, &oemail);
	if (!oemail && (relay || via))
		parse_mailbox(h->v[H_REPLY_TO], &rname, &remail);
	/* a Reply-To the message is also addressed to under another
	 * person's name is that person's, not the sender's (LTP: "Andrea
	 * Cervesato via ltp" replying to Michal Koutny, "Reply-To: Andrea
	 * Cervesato <mkoutny@suse.com>", "To: Michal Koutny
	 * <mkoutny@suse.com>"); the sender's own address copied to
	 * themselves, as git send-email does, carries their name */
	if (remail && (ms_mime_names_otherwise(h->v[H_TO], remail, name) ||
		       ms_mime_names_otherwise(h->v[H_CC], remail, name)))
		g_clear_pointer(&remail, g_free);
	if (oemail) {
		m->sender_email = g_strdup(oemail);
		m->sender_name = g_strdup(oname ? oname : name);
		m->sender_rewritten = true;
	} else if (remail) {
		m->sender_email = g_strdup(remail);
		m->sender_name = g_strdup(rname ? rname : name);
		m->sender_rewritten = true;
	} else {
		m->sender_email = g_strdup(m->from_email);
		m->sender_name = g_strdup(name);
		m->sender_rewritten = relay || via;
	}
	g_free(oname);
	g_free(oemail);
	g_free(rname);
	g_free(remail);
	g_free(name);
}

/* Does the first line look like a header ("Name:")? */
static bool has_headers(const char *raw, size_t len)
{
	size_t i = 0;

	while (i < len && raw[i] > ' ' && raw[i] < 127 && raw[i] != ':')
		i++;
	return i > 0 && i < len && raw[i] == ':';
}

/*
 * Long lines and NUL bytes.  A message shorter than MS_MAIL_LONG_LINE
 * cannot hold a long line, which spares most messages the line scan.
 */
static void prescan(const char *raw, size_t len, uint32_t *problems)
{
	size_t pos = 0;

	while (len > MS_MAIL_LONG_LINE && pos < len) {
		const char *nl = memchr(raw + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - raw - pos) : len - pos;
		if (n > MS_MAIL_LONG_LINE) {
			*problems |= 1u << MS_MAIL_P_LONG_LINE;
			break;
		}
		pos += n + 1;
	}
	if (memchr(raw, 0, len))
		*problems |= 1u << MS_MAIL_P_NUL_BYTES;
}

static void free_gstring(gpointer p)
{
	g_string_free(p, TRUE);
}

/*
 * The decoded text of a message whose text is not kept: one buffer per
 * thread, reused.  A fresh buffer of the message's size for each message
 * cost a malloc and, for the big ones, fresh pages to fault in.
 */
static GPrivate scratch_text = G_PRIVATE_INIT(free_gstring);

static GString *text_buffer(unsigned flags, size_t len)
{
	GString *t;

	if (flags & MS_MAIL_PARSE_KEEP_BODY)
		return g_string_sized_new(len);
	t = g_private_get(&scratch_text);
	if (!t) {
		t = g_string_sized_new(len);
		g_private_set(&scratch_text, t);
	}
	g_string_truncate(t, 0);
	return t;
}

struct ms_mail *ms_mail_parse(const char *raw, size_t len, uint32_t problems,
			      unsigned flags)
{
	struct ms_mail *m = g_new0(struct ms_mail, 1);
	struct headers h = { 0 };
	GString *text;
	const char *body;
	size_t body_len;
	bool in_place;
	GPtrArray *attachments = g_ptr_array_new_with_free_func(free_gstring);
	char *copy = NULL;
	char hex[41];

	m->size = len;
	m->references = g_ptr_array_new_with_free_func(g_free);
	m->trailers = g_ptr_array_new_with_free_func(ms_mail_trailer_free);
	m->files = g_ptr_array_new_with_free_func(g_free);
	m->preimages = g_ptr_array_new_with_free_func(g_free);
	prescan(raw, len, &problems);
	if (problems & (1u << MS_MAIL_P_NUL_BYTES)) {
		copy = g_malloc(len + 1);
		for (size_t i = 0; i < len; i++)
			copy[i] = raw[i] ? raw[i] : ' ';
		raw = copy;
	}
	if (has_headers(raw, len)) {
		split_headers(raw, len, &h);
		if ((size_t)(h.body - raw) > MS_MAIL_HUGE_HEADER)
			problems |= 1u << MS_MAIL_P_HUGE_HEADER;
	} else {
		problems |= 1u << MS_MAIL_P_NO_HEADERS;
		h.body = raw;
		h.body_len = len;
	}
	/* the body as UTF-8 text: read in place, or decoded into text */
	in_place = body_in_place(&h, flags);
	text = text_buffer(flags, in_place ? 0 : len);
	if (!in_place)
		decode_body(&h, text, attachments, &problems);
	body = in_place ? h.body : text->str;
	body_len = in_place ? h.body_len : text->len;

	m->message_id = ms_mime_parse_message_id(h.v[H_MESSAGE_ID]);
	if (!m->message_id)
		problems |= 1u << MS_MAIL_P_NO_MESSAGE_ID;
	if (h.v[H_IN_REPLY_TO]) {
		GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
		parse_ids(h.v[H_IN_REPLY_TO], ids);
		if (ids->len)
			m->in_reply_to = g_strdup(ids->pdata[0]);
		g_ptr_array_unref(ids);
	}
	parse_ids(h.v[H_REFERENCES], m->references);
	m->date_raw = h.v[H_DATE] && *h.v[H_DATE] ? g_strdup(h.v[H_DATE])
						  : NULL;
	m->date_valid = ms_mail_parse_date(m->date_raw, &m->date,
					   &m->date_tz);
	if (!m->date_valid)
		problems |= 1u << MS_MAIL_P_BAD_DATE;
	receipt_time(m, h.v[H_RECEIVED], &problems);
	parse_mailbox(h.v[H_FROM], &m->from_name, &m->from_email);
	real_sender(m, &h);
	if (!(flags & MS_MAIL_PARSE_INDEX_ONLY)) {
		m->to = decode_text(h.v[H_TO]);
		m->cc = decode_text(h.v[H_CC]);
	}
	m->list_id = strip_angles(h.v[H_LIST_ID]);
	m->subject_raw = decode_text(h.v[H_SUBJECT]);
	ms_mail_parse_subject(m->subject_raw, &m->subject);

	scan_body(m, body, body_len);
	if (m->has_diff && !(flags & MS_MAIL_PARSE_INDEX_ONLY) &&
	    ms_patch_id(body, body_len, hex))
		m->patch_id = g_strdup(hex);
	for (guint i = 0; i < attachments->len; i++) {
		GString *a = attachments->pdata[i];
		bool had = m->diff_in_attachment;

		m->diff_in_attachment = false;
		scan_attachment(m, a);
		if (m->diff_in_attachment &&
		    (flags & MS_MAIL_PARSE_KEEP_BODY)) {
			char *all = g_strconcat(m->attached_diff ?
						m->attached_diff : "",
						a->str, "\n", NULL);

			g_free(m->attached_diff);
			m->attached_diff = all;
		}
		m->diff_in_attachment |= had;
		if (!m->patch_id && m->diff_in_attachment &&
		    !(flags & MS_MAIL_PARSE_INDEX_ONLY) &&
		    ms_patch_id(a->str, a->len, hex))
			m->patch_id = g_strdup(hex);
	}
	m->kind = classify(m, body, body_len);
	m->problems = problems;
	if (flags & MS_MAIL_PARSE_KEEP_BODY)
		m->body = g_string_free(text, FALSE);
	g_ptr_array_unref(attachments);
	for (int i = 0; i < H__COUNT; i++)
		g_free(h.v[i]);
	g_free(copy);
	return m;
}

void ms_mail_free(struct ms_mail *m)
{
	if (!m)
		return;
	g_free(m->message_id);
	g_free(m->in_reply_to);
	g_ptr_array_unref(m->references);
	g_free(m->date_raw);
	g_free(m->from_name);
	g_free(m->from_email);
	g_free(m->sender_name);
	g_free(m->sender_email);
	g_free(m->to);
	g_free(m->cc);
	g_free(m->list_id);
	g_free(m->subject_raw);
	ms_mail_subject_release(&m->subject);
	g_free(m->body);
	g_free(m->attached_diff);
	g_ptr_array_unref(m->trailers);
	g_free(m->change_id);
	g_ptr_array_unref(m->files);
	g_clear_pointer(&m->preimages, g_ptr_array_unref);
	g_free(m->patch_id);
	g_free(m);
}

static void normalized_addresses(const char *value, GPtrArray *out)
{
	GPtrArray *raw = g_ptr_array_new_with_free_func(g_free);

	ms_mime_parse_addresses(value, raw);
	for (guint i = 0; i < raw->len; i++)
		g_ptr_array_add(out, ms_email_normalize(raw->pdata[i], 0));
	g_ptr_array_unref(raw);
}

void ms_mail_recipients(const struct ms_mail *m, GPtrArray *to,
			GPtrArray *cc)
{
	normalized_addresses(m->to, to);
	normalized_addresses(m->cc, cc);
}

char *ms_mail_list_address(const struct ms_mail *m)
{
	const char *id = m->list_id, *lt = id ? strrchr(id, '<') : NULL;
	char *a, *dot;

	if (lt)
		id = lt + 1;
	if (!id || !*id)
		return NULL;
	a = g_ascii_strdown(id, (gssize)strcspn(id, "> \t"));
	dot = strchr(a, '.');
	if (!dot || dot == a || !dot[1]) {
		g_free(a);
		return NULL;
	}
	*dot = '@';
	return a;
}

bool ms_mail_via_list(const struct ms_mail *m)
{
	return m->sender_rewritten && m->sender_email && m->from_email &&
	       !g_ascii_strcasecmp(m->sender_email, m->from_email);
}
