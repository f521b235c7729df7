/*
 * mail-archive.c - reading mbox files (mboxrd and mboxo, gzip or not, one
 * message at a time) and choosing the reader for an archive path.  This
 * file is the zlib adapter: gzopen() reads plain files transparently.
 */
#include "mail.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define CHUNK (1u << 20)

const char *ms_mail_format_name(enum ms_mail_format f)
{
	switch (f) {
	case MS_MAIL_FMT_MBOXRD: return "mboxrd";
	case MS_MAIL_FMT_MBOXO: return "mboxo";
	case MS_MAIL_FMT_INBOX_V1: return "public-inbox-v1";
	case MS_MAIL_FMT_INBOX_V2: return "public-inbox-v2";
	}
	return "unknown";
}

void ms_mail_read_result_init(struct ms_mail_read_result *r)
{
	memset(r, 0, sizeof(*r));
	r->heads = g_ptr_array_new_with_free_func(g_free);
}

void ms_mail_read_result_release(struct ms_mail_read_result *r)
{
	if (r->heads)
		g_ptr_array_unref(r->heads);
	memset(r, 0, sizeof(*r));
}

struct reader {
	gzFile gz;
	const char *path;
	char *buf;
	size_t cap, start, end;
	bool eof, error;
};

/* Make sure more bytes are buffered; false at end of input. */
static bool fill(struct reader *r)
{
	int n;

	if (r->eof)
		return false;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < CHUNK / 2) {
		r->cap *= 2;
		r->buf = g_realloc(r->buf, r->cap);
	}
	n = gzread(r->gz, r->buf + r->end, (unsigned)(r->cap - r->end));
	if (n < 0) {
		r->error = true;
		r->eof = true;
		return false;
	}
	if (n == 0) {
		int err;
		gzerror(r->gz, &err);
		if (err != Z_OK)
			r->error = true; /* a truncated .gz */
		r->eof = true;
		return false;
	}
	r->end += (size_t)n;
	return true;
}

/*
 * The next line, without its newline; *has_nl says whether one ended it.
 * Returns false at the end of input.
 */
static bool next_line(struct reader *r, const char **line, size_t *len,
		      bool *has_nl)
{
	size_t scanned = 0;

	for (;;) {
		char *s = r->buf + r->start;
		size_t avail = r->end - r->start;
		char *nl = avail > scanned ? memchr(s + scanned, '\n',
						    avail - scanned)
					   : NULL;
		if (nl) {
			*line = s;
			*len = (size_t)(nl - s);
			*has_nl = true;
			r->start += *len + 1;
			return true;
		}
		scanned = avail;
		if (!fill(r)) {
			if (r->end == r->start)
				return false;
			*line = r->buf + r->start;
			*len = r->end - r->start;
			*has_nl = false;
			r->start = r->end;
			return true;
		}
	}
}

static bool blank(const char *s, size_t n)
{
	return n == 0 || (n == 1 && s[0] == '\r');
}

int ms_mbox_read(const char *path, ms_mail_raw_fn fn, void *data,
		 struct ms_mail_read_result *result)
{
	struct reader r = { 0 };
	GString *msg = g_string_sized_new(64 * 1024);
	struct ms_mail_source src = { 0 };
	const char *line;
	size_t len;
	bool has_nl = true, in_msg = false, prev_blank = true, last_nl = true;
	unsigned long lineno = 0;
	int rc = 0;

	r.gz = gzopen(path, "rb");
	if (!r.gz) {
		g_string_free(msg, TRUE);
		return ms_error_set_errno(errno == ENOENT ? MS_ENOTFOUND
							  : MS_ERROR,
					  errno, "cannot open '%s'", path);
	}
	gzbuffer(r.gz, 256 * 1024);
	r.path = path;
	r.cap = 2 * CHUNK;
	r.buf = g_malloc(r.cap);
	fill(&r);
	src.path = path;
	src.epoch = -1;
	src.format = MS_MAIL_FMT_MBOXO;
	if (r.end > 5 && !memcmp(r.buf, "From ", 5)) {
		const char *eol = memchr(r.buf, '\n', r.end);
		size_t n = eol ? (size_t)(eol - r.buf) : r.end;
		if (g_strstr_len(r.buf, (gssize)n, "mboxrd") ||
		    g_strstr_len(r.buf, (gssize)r.end, "\n>>From "))
			src.format = MS_MAIL_FMT_MBOXRD;
	} else if (r.end > 0) {
		rc = ms_error_set(MS_EPARSE, "'%s' is not an mbox file: "
				  "it does not start with a From line", path);
		goto done;
	}
	result->format = src.format;

	while (next_line(&r, &line, &len, &has_nl)) {
		lineno++;
		last_nl = has_nl;
		if (prev_blank && len >= 5 && !memcmp(line, "From ", 5)) {
			if (in_msg) {
				size_t n = msg->len;
				if (n >= 2 && msg->str[n - 1] == '\n' &&
				    msg->str[n - 2] == '\n')
					n--;
				result->messages++;
				result->bytes += n;
				rc = fn(msg->str, n, &src, data);
				if (rc)
					goto done;
			}
			g_string_truncate(msg, 0);
			in_msg = true;
			src.line = lineno;
			prev_blank = false;
			continue;
		}
		prev_blank = blank(line, len);
		if (line[0] == '>' && len > 5) {
			size_t k = 0;
			while (k < len && line[k] == '>')
				k++;
			if (len - k >= 5 && !memcmp(line + k, "From ", 5) &&
			    (src.format == MS_MAIL_FMT_MBOXRD || k == 1))
				line++, len--;
		}
		g_string_append_len(msg, line, (gssize)len);
		if (has_nl)
			g_string_append_c(msg, '\n');
	}
	if (r.error && !r.eof) {
		rc = ms_error_set(MS_ERROR, "cannot read '%s'", path);
		goto done;
	}
	if (in_msg) {
		size_t n = msg->len;
		/* mboxrd ends every message with a blank line */
		if (!last_nl || r.error ||
		    (src.format == MS_MAIL_FMT_MBOXRD && !prev_blank))
			src.problems |= 1u << MS_MAIL_P_TRUNCATED;
		else if (n >= 2 && msg->str[n - 1] == '\n' &&
			 msg->str[n - 2] == '\n')
			n--;
		result->messages++;
		result->bytes += n;
		rc = fn(msg->str, n, &src, data);
	}
done:
	gzclose(r.gz);
	g_free(r.buf);
	g_string_free(msg, TRUE);
	return rc;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_inbox(const char *path)
{
	char *v2 = g_build_filename(path, "git", "0.git", NULL);
	char *objects = g_build_filename(path, "objects", NULL);
	char *head = g_build_filename(path, "HEAD", NULL);
	bool yes = is_dir(v2) || (is_dir(objects) &&
				  g_file_test(head, G_FILE_TEST_EXISTS));
	g_free(v2);
	g_free(objects);
	g_free(head);
	return yes;
}

static int read_dir(const char *path, const struct ms_mail_after *after,
		    size_t n_after, ms_mail_raw_fn fn, void *data,
		    struct ms_mail_read_result *result, struct ms_diags *diags,
		    int depth)
{
	GError *err = NULL;
	GDir *dir = g_dir_open(path, 0, &err);
	GPtrArray *names;
	const char *name;
	int rc = 0;

	if (!dir) {
		rc = ms_error_set(MS_ERROR, "cannot open '%s': %s", path,
				  err->message);
		g_error_free(err);
		return rc;
	}
	names = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(dir)))
		if (name[0] != '.')
			g_ptr_array_add(names, g_build_filename(path, name,
								NULL));
	g_dir_close(dir);
	g_ptr_array_sort(names, compare_names);
	for (guint i = 0; i < names->len && !rc; i++) {
		const char *p = names->pdata[i];
		if (is_dir(p)) {
			if (depth < 16)
				rc = read_dir(p, after, n_after, fn, data,
					      result, diags, depth + 1);
			continue;
		}
		rc = ms_mbox_read(p, fn, data, result);
		if (rc == MS_EPARSE) {
			ms_diags_add(diags, p, 0, "%s; skipped",
				     ms_error_last());
			rc = 0;
		}
	}
	g_ptr_array_unref(names);
	return rc;
}

int ms_mail_read(const char *path, const struct ms_mail_after *after,
		 size_t n_after, ms_mail_raw_fn fn, void *data,
		 struct ms_mail_read_result *result, struct ms_diags *diags)
{
	if (!is_dir(path))
		return ms_mbox_read(path, fn, data, result);
	if (is_inbox(path))
		return ms_inbox_read(path, after, n_after, fn, data, result);
	return read_dir(path, after, n_after, fn, data, result, diags, 0);
}
