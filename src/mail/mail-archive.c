/*
 * mail-archive.c - reading mbox files (mboxrd and mboxo, gzip or not, one
 * message at a time) and choosing the reader for an archive path.  This
 * file is the ISA-L adapter: gzip is inflated with igzip, which is several
 * times faster than zlib and keeps decompression from dominating
 * `mail stats` (it streams, so memory stays at one buffer).
 */
#include "mail.h"
#include "utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)
/* how far the first look for mboxrd goes (says_mboxrd()) */
#define SNIFF MS_MBOX_SNIFF

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
	g_clear_pointer(&r->heads, g_ptr_array_unref);
	memset(r, 0, sizeof(*r));
}

struct reader {
	int fd;
	const char *path;
	struct inflate_state *inf;  /* NULL for a plain file */
	uint8_t *in;
	size_t in_cap;
	size_t in_len, in_pos;      /* a plain stream: its first bytes */
	bool in_eof;
	struct ms_mapped *map;      /* a plain file, read in place */
	char *buf;
	size_t cap, start, end;
	bool eof, error;
	bool quoted;                /* a ">From " may be in the message */
	bool rd;                    /* mboxrd, from here on */
};

static ssize_t read_fd(int fd, void *dst, size_t n)
{
	ssize_t k;

	do
		k = read(fd, dst, n);
	while (k < 0 && errno == EINTR);
	return k;
}

/* Up to `n` bytes of the (inflated) file; 0 at its end, -1 on error. */
static ssize_t read_some(struct reader *r, char *dst, size_t n)
{
	struct inflate_state *st = r->inf;

	if (!st && r->in_pos < r->in_len) {
		/* the bytes read to tell gzip: a pipe cannot seek back */
		size_t k = MIN(n, r->in_len - r->in_pos);

		memcpy(dst, r->in + r->in_pos, k);
		r->in_pos += k;
		return (ssize_t)k;
	}
	if (!st)
		return read_fd(r->fd, dst, n);
	for (;;) {
		uint32_t room = (uint32_t)MIN(n, (size_t)UINT32_MAX);
		int ret;

		if (st->avail_in == 0 && !r->in_eof) {
			ssize_t k = read_fd(r->fd, r->in, r->in_cap);
			if (k < 0)
				return -1;
			r->in_eof = k == 0;
			st->next_in = r->in;
			st->avail_in = (uint32_t)k;
		}
		if (st->block_state == ISAL_BLOCK_FINISH) {
			/* another gzip member may follow (concatenated) */
			if (st->avail_in == 0 && r->in_eof)
				return 0;
			if (st->avail_in < 2 || st->next_in[0] != 0x1f ||
			    st->next_in[1] != 0x8b)
				return 0; /* trailing padding */
			uint8_t *next = st->next_in;
			uint32_t avail = st->avail_in;
			isal_inflate_reset(st);
			st->crc_flag = ISAL_GZIP;
			st->next_in = next;
			st->avail_in = avail;
		}
		st->next_out = (uint8_t *)dst;
		st->avail_out = room;
		ret = isal_inflate(st);
		if (ret < 0)
			return -1;
		if (st->avail_out < room)
			return (ssize_t)(room - st->avail_out);
		if (st->block_state != ISAL_BLOCK_FINISH && st->avail_in == 0 &&
		    r->in_eof)
			return -1; /* the archive ends inside a gzip stream */
	}
}

/* Make sure more bytes are buffered; false at end of input. */
static bool fill(struct reader *r)
{
	ssize_t n;

	if (r->eof)
		return false;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < CHUNK) {
		r->cap *= 2;
		r->buf = g_realloc(r->buf, r->cap);
	}
	n = read_some(r, r->buf + r->end, r->cap - r->end);
	if (n <= 0) {
		r->error = n < 0; /* a truncated .gz, or a read error */
		r->eof = true;
		return false;
	}
	r->end += (size_t)n;
	return true;
}

/*
 * The next "From " in [p, e): memchr for the rare 'F' is several times
 * faster than memmem on mail text.
 */
static const char *find_from(const char *p, const char *e)
{
	while (p < e && (p = memchr(p, 'F', (size_t)(e - p)))) {
		if (e - p >= 5 && !memcmp(p, "From ", 5))
			return p;
		p++;
	}
	return NULL;
}

/* Is `k` (a "From " at a line start) preceded by a blank line? */
static bool after_blank(const char *buf, size_t start, size_t k)
{
	if (k == start)
		return true;
	if (k - start >= 2 && buf[k - 1] == '\n' && buf[k - 2] == '\n')
		return true;
	return k - start >= 3 && buf[k - 1] == '\n' && buf[k - 2] == '\r' &&
	       buf[k - 3] == '\n';
}

/*
 * Hand one message (the bytes after its From_ line) to the callback,
 * undoing the From-quoting: mboxrd removes one '>' from any ">*From "
 * line, mboxo only from ">From ".  Without such lines the bytes go
 * through uncopied.
 */
static int emit(const char *s, size_t n, bool quoted, GString *tmp,
		struct ms_mail_source *src, ms_mail_raw_fn fn, void *data,
		struct ms_mail_read_result *result)
{
	const char *p = s, *e = s + n, *done = s;
	struct ms_mapped *map = src->map;
	bool copied = false;
	int rc;

	while (quoted && p < e && (p = find_from(p, e))) {
		const char *r = p;
		while (r > s && r[-1] == '>')
			r--;
		if (r < p && (r == s || r[-1] == '\n') &&
		    (src->format == MS_MAIL_FMT_MBOXRD || p - r == 1)) {
			if (!copied)
				g_string_truncate(tmp, 0);
			copied = true;
			g_string_append_len(tmp, done, r - done);
			done = r + 1;
		}
		p += 5;
	}
	if (copied) {
		g_string_append_len(tmp, done, e - done);
		s = tmp->str;
		n = tmp->len;
		src->map = NULL; /* the bytes are in tmp, not the mapping */
	}
	result->messages++;
	result->bytes += n;
	rc = fn(s, n, src, data);
	src->map = map;
	return rc;
}

/*
 * The head of the oversized message whose From_ line is at r->buf[msg]:
 * its first MS_MAIL_OVERSIZED_HEAD bytes, flagged MS_MAIL_P_OVERSIZED.
 */
static int emit_head(struct reader *r, size_t msg, GString *tmp,
		     struct ms_mail_source *src, unsigned long lineno,
		     ms_mail_raw_fn fn, void *data,
		     struct ms_mail_read_result *result)
{
	const char *nl = memchr(r->buf + msg, '\n', r->end - msg);
	size_t body = nl ? (size_t)(nl - r->buf) + 1 : r->end;
	size_t keep = MIN(r->end - body, MS_MAIL_OVERSIZED_HEAD);

	src->line = lineno;
	src->problems = 1u << MS_MAIL_P_OVERSIZED;
	return emit(r->buf + body, keep, true, tmp, src, fn, data, result);
}

/*
 * A gzip stream that is corrupt or ends early is an error, not a short
 * list: an interrupted download must not read as a quiet month.
 */
static int gz_error(const char *path, unsigned long messages)
{
	return ms_error_set(MS_ERROR, "'%s' is truncated or corrupt (read "
			    "error or bad gzip data after %lu messages)", path,
			    messages);
}

/*
 * Open `path` for `r`: a gzip stream (by its magic bytes) is inflated as
 * it is read.  On error the file is closed again (r->fd -1).
 */
static int reader_open(struct reader *r, const char *path)
{
	ssize_t k;

	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return ms_error_set_errno(errno == ENOENT ? MS_ENOTFOUND
							  : MS_ERROR,
					  errno, "cannot open '%s'", path);
	r->in_cap = 256 * 1024;
	r->in = g_malloc(r->in_cap);
	k = read_fd(r->fd, r->in, r->in_cap);
	while (k == 1) {        /* a pipe may give one byte at first */
		ssize_t more = read_fd(r->fd, r->in + 1, r->in_cap - 1);

		if (more <= 0) {
			k = more < 0 ? -1 : k;
			break;
		}
		k += more;
	}
	if (k >= 2 && r->in[0] == 0x1f && r->in[1] == 0x8b) {
		r->inf = g_new0(struct inflate_state, 1);
		isal_inflate_init(r->inf);
		r->inf->crc_flag = ISAL_GZIP;
		r->inf->next_in = r->in;
		r->inf->avail_in = (uint32_t)k;
	} else if (k > 0 && (r->map = ms_mapped_new(r->fd))) {
		/* a plain file: scanned where it lies, nothing copied */
	} else if (k > 0) {
		r->in_len = (size_t)k; /* read first, then the rest */
	}
	if (k < 0) {
		int rc = ms_error_set_errno(MS_ERROR, errno,
					    "cannot read '%s'", path);

		close(r->fd);
		r->fd = -1;
		return rc;
	}
	r->in_eof = k == 0;
	r->path = path;
	if (r->map) {
		r->buf = (char *)ms_mapped_data(r->map);
		r->cap = r->end = ms_mapped_size(r->map);
		r->eof = true;
	} else {
		r->cap = 4 * CHUNK;
		r->buf = g_malloc(r->cap);
	}
	while (r->end < SNIFF && fill(r))
		;
	return 0;
}

/*
 * mboxrd when its first line says so or a ">>From " line (which mboxo
 * never writes: it quotes only "From ") is in the first SNIFF bytes; a
 * later one turns it on from there (next_message()).  The messages before
 * that hold no such line, so they read the same either way, bar a
 * ">>>From ", which then stays as it is.  A plain file and its .gz read
 * alike, and the reading stays one pass: a look at the whole mapped file
 * first took 39 ms of the 72 MB rdma list, before the first message could
 * go to the parsers.
 */
static bool says_mboxrd(const struct reader *r)
{
	const char *eol = memchr(r->buf, '\n', r->end);
	size_t n = eol ? (size_t)(eol - r->buf) : r->end;

	return g_strstr_len(r->buf, (gssize)n, "mboxrd") ||
	       memmem(r->buf, MIN(r->end, SNIFF), "\n>>From ", 8);
}

/*
 * The last message, r->buf[msg .. r->end): truncated when it does not
 * end in a newline (or, in mboxrd, a blank line).
 */
static int emit_last(struct reader *r, size_t msg, GString *tmp,
		     struct ms_mail_source *src, unsigned long lineno,
		     ms_mail_raw_fn fn, void *data,
		     struct ms_mail_read_result *result)
{
	const char *nl = memchr(r->buf + msg, '\n', r->end - msg);
	size_t body = nl ? (size_t)(nl - r->buf) + 1 : r->end;
	size_t end = r->end;
	bool blank_end = end - body >= 1 && r->buf[end - 1] == '\n' &&
			 (end - body < 2 || r->buf[end - 2] == '\n');

	src->line = lineno;
	src->problems = 0;
	if (!nl || r->buf[end - 1] != '\n' ||
	    (src->format == MS_MAIL_FMT_MBOXRD && !blank_end))
		src->problems |= 1u << MS_MAIL_P_TRUNCATED;
	else if (blank_end && end - body >= 2)
		end--;
	return emit(r->buf + body, end - body, r->quoted, tmp, src, fn, data,
		    result);
}

/*
 * The next message's From_ line (after a blank line) at or after
 * r->buf[*search], the current one being at r->buf[msg]; SIZE_MAX if
 * none is buffered, *search then where to go on.
 */
static size_t next_message(struct reader *r, size_t msg, size_t *search)
{
	while (*search < r->end) {
		const char *hit;
		size_t k;

		if (r->map)
			ms_mapped_will_read(r->map, r->buf + *search);
		hit = find_from(r->buf + *search, r->buf + r->end);
		if (!hit)
			break;
		k = (size_t)(hit - r->buf);
		*search = k + 1;
		if (k == 0 || r->buf[k - 1] != '\n') {
			/* emit() undoes the quoting only if needed */
			r->quoted |= k > 0 && r->buf[k - 1] == '>';
			r->rd |= k >= 3 && r->buf[k - 1] == '>' &&
				 r->buf[k - 2] == '>' && r->buf[k - 3] == '\n';
		} else if (after_blank(r->buf, msg, k))
			return k;
	}
	return SIZE_MAX;
}

/*
 * Skip to the start of line `line` (1: the first) of the file: r->buf[*at]
 * then.  The lines are counted a window at a time, so a gzip stream is
 * inflated and dropped as it goes; false when the file is shorter.
 */
static bool skip_lines(struct reader *r, unsigned long line, size_t *at)
{
	unsigned long n = line - 1;
	size_t p = 0;

	while (n > 0) {
		size_t len = MIN(r->end - p, (size_t)CHUNK);
		unsigned long k = ms_count_lines(r->buf + p, len);

		if (!len) {
			r->start = r->end;      /* nothing of it is kept */
			if (!fill(r))
				return false;
			p = 0;
		} else if (k < n) {
			n -= k;
			p += len;
		} else {
			for (; n > 0; n--)      /* all in this window */
				p = (size_t)((const char *)memchr(r->buf + p,
					'\n', r->end - p) - r->buf) + 1;
		}
	}
	r->start = p;           /* and its From_ line buffered */
	while (r->end - r->start < 5 && fill(r))
		;
	*at = r->start;
	return true;
}

/* Where a resumed read starts (*msg): a From_ line, or false.  A plain
 * file's line is found at the offset where the caller counted it. */
static bool resume_at(struct reader *r, const struct ms_mail_after *at,
		      size_t *msg)
{
	if (r->map && at->offset && at->offset + 5 <= r->end &&
	    r->buf[at->offset - 1] == '\n' &&
	    !memcmp(r->buf + at->offset, "From ", 5)) {
		r->start = *msg = at->offset;
		return true;
	}
	return skip_lines(r, at->line, msg) && r->end - *msg >= 5 &&
	       !memcmp(r->buf + *msg, "From ", 5);
}

int ms_mbox_read(const char *path, const struct ms_mail_after *at,
		 ms_mail_raw_fn fn, void *data,
		 struct ms_mail_read_result *result)
{
	struct reader r = { 0 };
	GString *tmp = g_string_new(NULL);
	struct ms_mail_source src = { 0 };
	const size_t max_message = ms_mail_max_message_size();
	size_t msg = 0, search = 0;
	unsigned long lineno = 1;
	bool skipping = false;  /* inside an oversized message */
	int rc = 0;

	rc = reader_open(&r, path);
	if (rc < 0) {
		g_string_free(tmp, TRUE);
		g_free(r.in);
		g_free(r.inf);
		return rc;
	}
	src.path = path;
	src.epoch = -1;
	src.format = MS_MAIL_FMT_MBOXO;
	src.map = r.map;
	if (r.error) {
		rc = gz_error(path, 0);
		goto done;
	}
	if (r.end == 0 && !at)
		goto done; /* an empty file is an empty mbox */
	if (at && !resume_at(&r, at, &msg)) {
		rc = r.error ? gz_error(path, 0) : ms_error_set(MS_ESTALE,
			"'%s' has no message at line %lu", path, at->line);
		goto done;
	}
	if (!at && (r.end < 5 || memcmp(r.buf, "From ", 5))) {
		rc = ms_error_set(MS_EPARSE, "'%s' is not an mbox file: "
				  "it does not start with a From line", path);
		goto done;
	}
	if (at)
		lineno = at->line;
	r.rd = at ? at->rd : says_mboxrd(&r);
	result->format = r.rd ? MS_MAIL_FMT_MBOXRD : MS_MAIL_FMT_MBOXO;

	/* r.buf[msg] is always the "From " line of the current message */
	search = msg + 1;
	for (;;) {
		size_t k = next_message(&r, msg, &search);
		bool hit = k != SIZE_MAX;

		src.format = r.rd ? MS_MAIL_FMT_MBOXRD : MS_MAIL_FMT_MBOXO;
		result->format = src.format;

		if (!hit) {
			bool more;

			if (!skipping && r.end - msg > max_message) {
				/* hand on its head, drop the rest as it
				 * comes: the buffer stays near the bound */
				rc = emit_head(&r, msg, tmp, &src, lineno, fn,
					       data, result);
				if (rc)
					goto done;
				skipping = true;
			}
			if (skipping && r.end - msg > 16) {
				size_t to = r.end - 8;

				lineno += ms_count_lines(r.buf + msg, to - msg);
				msg = to;
				if (search < msg + 2)
					search = msg + 2;
			}
			/* keep the current message: fill() compacts */
			r.start = msg;
			search = r.end > 6 ? r.end - 6 : 0;
			if (search < msg + 1)
				search = msg + 1;
			more = fill(&r);
			search -= msg - r.start;
			msg = r.start;
			if (more)
				continue;
			break;
		}
		if (skipping) {         /* the end of an oversized one */
			lineno += ms_count_lines(r.buf + msg, k - msg);
			skipping = false;
			r.quoted = false;
			msg = k;
			search = k + 1;
			continue;
		}
		if (k - msg > max_message) {
			rc = emit_head(&r, msg, tmp, &src, lineno, fn, data,
				       result);
			if (rc)
				goto done;
			lineno += ms_count_lines(r.buf + msg, k - msg);
			r.quoted = false;
			msg = k;
			search = k + 1;
			continue;
		}
		/* the message runs from after its From_ line to k - 1 */
		{
			const char *nl = memchr(r.buf + msg, '\n', k - msg);
			size_t body = (size_t)(nl - r.buf) + 1;
			size_t end = k - 1; /* drop the blank separator line */
			if (end > body && r.buf[end - 1] == '\r')
				end--;
			src.line = lineno;
			src.problems = 0;
			lineno += ms_count_lines(r.buf + msg, k - msg);
			rc = emit(r.buf + body, end - body, r.quoted, tmp, &src,
				  fn, data, result);
			if (rc)
				goto done;
			r.quoted = false;
			msg = k;
			search = k + 1;
		}
	}
	if (r.error) {
		rc = gz_error(path, result->messages);
		goto done;
	}
	/* the last message: r.buf[msg .. r.end) */
	if (skipping)
		goto done;
	if (r.end - msg > max_message) {
		rc = emit_head(&r, msg, tmp, &src, lineno, fn, data, result);
		goto done;
	}
	rc = emit_last(&r, msg, tmp, &src, lineno, fn, data, result);
done:
	if (!rc && r.map && ms_mapped_cut(r.map))
		rc = ms_mbox_cut_error(path);
	close(r.fd);
	g_free(r.inf);
	g_free(r.in);
	if (r.map)
		ms_mapped_unref(r.map);
	else
		g_free(r.buf);
	g_string_free(tmp, TRUE);
	return rc;
}

int ms_mbox_cut_error(const char *path)
{
	return ms_error_set(MS_ERROR, "'%s' was cut short while it was read "
			    "(another program truncated or rewrote it); "
			    "nothing read from it is used", path);
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

static int dir_entries(const char *path, GPtrArray **out)
{
	GError *err = NULL;
	GDir *dir = g_dir_open(path, 0, &err);
	GPtrArray *names;
	const char *name;
	int rc;

	*out = NULL;
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
	*out = names;
	return 0;
}

/*
 * The walk of a directory of mbox files.  Each directory and file is
 * visited once (device and inode remembered, so links cannot loop or
 * count a file twice), only regular files are read (a FIFO or a device
 * would hang the run), links are followed only to what lies inside the
 * root, and an entry that cannot be used is a warning, not the end.
 */
struct walk {
	ms_mail_file_fn file;
	void *data;
	struct ms_diags *diags;
	char *root;             /* canonical path of the root */
	GHashTable *seen;       /* "dev:ino" of directories and files */
	unsigned long files;    /* files read */
	bool stopped;           /* `file` failed: the walk ends */
};

static bool is_repository(const char *path)
{
	char *objects = g_build_filename(path, "objects", NULL);
	char *head = g_build_filename(path, "HEAD", NULL);
	bool yes = is_dir(objects) && g_file_test(head, G_FILE_TEST_EXISTS);

	g_free(objects);
	g_free(head);
	return yes;
}

static bool inside(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return true;
	return !strncmp(real, root, n) && (real[n] == '/' || !real[n]);
}

/* Remember `st`; false when it was seen already. */
static bool first_visit(struct walk *w, const struct stat *st)
{
	char *key = g_strdup_printf("%ju:%ju", (uintmax_t)st->st_dev,
				    (uintmax_t)st->st_ino);

	if (g_hash_table_contains(w->seen, key)) {
		g_free(key);
		return false;
	}
	g_hash_table_add(w->seen, key);
	return true;
}

static int dir_walk(struct walk *w, const char *path, int depth)
{
	GPtrArray *names;
	int rc = dir_entries(path, &names);

	if (rc < 0)
		return rc;
	for (guint i = 0; i < names->len && !rc; i++) {
		const char *p = names->pdata[i];
		struct stat lst, st;

		if (lstat(p, &lst) < 0) {
			ms_diags_add(w->diags, p, 0, "cannot read: %s; "
				     "skipped", g_strerror(errno));
			continue;
		}
		st = lst;
		if (S_ISLNK(lst.st_mode)) {
			char *real = realpath(p, NULL);
			bool in = real && inside(w->root, real);

			if (real && !in)
				ms_diags_add(w->diags, p, 0, "a link to '%s', "
					     "outside '%s'; skipped", real,
					     w->root);
			else if (!real)
				ms_diags_add(w->diags, p, 0, "a link that "
					     "leads nowhere (%s); skipped",
					     g_strerror(errno));
			free(real);
			if (!in || stat(p, &st) < 0)
				continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (!first_visit(w, &st))
				continue;       /* a loop, or seen already */
			if (is_repository(p) || ms_mail_is_inbox(p)) {
				ms_diags_add(w->diags, p, 0, "a git repository "
					     "or inbox inside a directory of "
					     "mbox files (name it as an archive "
					     "of its own); skipped");
				continue;
			}
			if (depth >= 16) {
				ms_diags_add(w->diags, p, 0, "more than 16 "
					     "directory levels; skipped");
				continue;
			}
			rc = dir_walk(w, p, depth + 1);
			if (rc < 0 && !w->stopped) {
				ms_diags_add(w->diags, p, 0, "%s; skipped",
					     ms_error_last());
				rc = 0;
			}
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			ms_diags_add(w->diags, p, 0, "not a regular file; "
				     "skipped");
			continue;
		}
		if (!first_visit(w, &st))
			continue;               /* the same file by a link */
		rc = w->file(p, w->data);
		if (rc == MS_EPARSE) {
			ms_diags_add(w->diags, p, 0, "%s; skipped",
				     ms_error_last());
			rc = 0;
		} else if (rc == 0) {
			w->files++;
		} else {
			w->stopped = true;      /* passed up unchanged */
		}
	}
	g_ptr_array_unref(names);
	return rc;
}

int ms_mail_dir_walk(const char *path, ms_mail_file_fn file, void *data,
		     struct ms_diags *diags)
{
	struct walk w = { file, data, diags, NULL, NULL, 0, false };
	struct stat st;
	int rc;

	w.root = realpath(path, NULL);
	if (!w.root || stat(w.root, &st) < 0)
		return ms_error_set_errno(errno == ENOENT ? MS_ENOTFOUND :
					  MS_ERROR, errno, "cannot open '%s'",
					  path);
	w.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       NULL);
	first_visit(&w, &st);
	rc = dir_walk(&w, path, 0);
	if (rc == 0 && w.files == 0)
		rc = ms_error_set(MS_ENOTFOUND, "'%s' holds no mail archive: "
				  "expected mbox files (.mbox, .gz), a "
				  "public-inbox v2 inbox (git/0.git) or v1 "
				  "(a bare git repository)", path);
	g_hash_table_unref(w.seen);
	free(w.root);
	return rc;
}

bool ms_mail_is_inbox(const char *path)
{
	char *v2 = g_build_filename(path, "git", "0.git", NULL);
	bool yes = is_dir(v2) || is_repository(path);   /* v2, or v1 */

	g_free(v2);
	return yes;
}

struct read_dir {
	ms_mail_raw_fn fn;
	void *data;
	struct ms_mail_read_result *result;
};

static int read_dir_file(const char *path, void *data)
{
	struct read_dir *rd = data;

	return ms_mbox_read(path, NULL, rd->fn, rd->data, rd->result);
}

int ms_mail_read(const char *path, const struct ms_mail_after *after,
		 size_t n_after, ms_mail_raw_fn fn, void *data,
		 struct ms_mail_read_result *result, struct ms_diags *diags)
{
	if (!is_dir(path))
		return ms_mbox_read(path, n_after && after->line ? after :
				    NULL, fn, data, result);
	if (ms_mail_is_inbox(path))
		return ms_inbox_read(path, after, n_after, fn, data, result);
	return ms_mail_dir_walk(path, read_dir_file,
				&(struct read_dir){ fn, data, result }, diags);
}
