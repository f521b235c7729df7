/*
 * mail-patchid.c - `git patch-id --stable`, reimplemented so that mail can
 * be linked to commits without running git.  It follows git 2.39's
 * builtin/patch-id.c line for line: lines before the first "diff " are the
 * commit message, "index " lines and hunk line numbers are left out, all
 * whitespace is removed, each file's diff is hashed on its own (SHA-1) and
 * the per-file hashes are summed bytewise with carry (the "stable" form,
 * independent of file order).
 */
#include "mail.h"
#include "bytes.h"

#include <string.h>

static bool starts(const char *s, size_t n, const char *p)
{
	size_t pl = strlen(p);
	return n >= pl && memcmp(s, p, pl) == 0;
}

/* Whether `s` (`n` bytes) opens with an object id's 40 hex digits. */
static bool is_oid_hex(const char *s, size_t n)
{
	unsigned char raw[20];

	return n >= 40 && ms_unhex(s, sizeof(raw), raw);
}

/* One range "N[,M]" of a hunk header from p[*i], as git's
 * scan_hunk_header() reads it: its count M (1 without ",M") into *count,
 * *i past it; false when its last number has no digit. */
static bool hunk_range(const char *p, size_t n, size_t *i, int *count)
{
	size_t d = *i;
	long v = 0;

	while (*i < n && g_ascii_isdigit(p[*i]))
		(*i)++;
	*count = 1;
	if (*i < n && p[*i] == ',') {
		d = ++*i;
		while (*i < n && g_ascii_isdigit(p[*i]))
			v = v * 10 + (p[(*i)++] - '0');
		*count = (int)v;
	}
	return *i != d;
}

void ms_patch_hunk_counts(const char *p, size_t n, int *before, int *after)
{
	size_t i = 4;

	if (!hunk_range(p, n, &i, before) || i + 1 >= n || p[i] != ' ' ||
	    p[i + 1] != '+')
		return;
	i += 2;
	hunk_range(p, n, &i, after);
}

/*
 * The SHA-1 of one file's diff, fed in blocks: the whitespace-free bytes
 * of many lines gather in `buf` (one g_checksum_update() per line cost
 * more than the hashing).
 */
struct hasher {
	GChecksum *ctx;
	size_t k;
	unsigned char buf[8192];
};

static void hasher_flush(struct hasher *h)
{
	if (h->k)
		g_checksum_update(h->ctx, h->buf, h->k);
	h->k = 0;
}

static void flush_one_hunk(unsigned char result[20], struct hasher *h)
{
	guint8 hash[20];
	gsize hlen = sizeof hash;
	unsigned carry = 0;

	hasher_flush(h);
	g_checksum_get_digest(h->ctx, hash, &hlen);
	g_checksum_reset(h->ctx);
	for (int i = 0; i < 20; i++) {
		carry += result[i] + hash[i];
		result[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

static void hash_without_space(struct hasher *h, const char *s, size_t n,
			       size_t *patchlen)
{
	while (n) {
		size_t chunk = MIN(n, sizeof h->buf - h->k), k = h->k;

		/* every byte is stored, a space is then overwritten: no
		 * branch to mispredict on text that is half spaces */
		for (size_t i = 0; i < chunk; i++) {
			h->buf[k] = (unsigned char)s[i];
			k += !g_ascii_isspace(s[i]);
		}
		*patchlen += k - h->k;
		h->k = k;
		s += chunk;
		n -= chunk;
		if (h->k == sizeof h->buf)
			hasher_flush(h);
	}
}

bool ms_patch_id(const char *text, size_t len, char hex[41])
{
	unsigned char result[20] = { 0 };
	struct hasher h = { g_checksum_new(G_CHECKSUM_SHA1), 0, { 0 } };
	size_t patchlen = 0, pos = 0;
	int before = -1, after = -1;

	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		/* git's lines keep their newline; it only matters as space */
		size_t n = nl ? (size_t)(nl - line) + 1 : len - pos;
		const char *p = line;
		size_t pn = n;

		pos += n;
		if (starts(line, n, "diff-tree ")) {
			p += 10, pn -= 10;
		} else if (starts(line, n, "commit ")) {
			p += 7, pn -= 7;
		} else if (starts(line, n, "From ")) {
			p += 5, pn -= 5;
		} else if (starts(line, n, "\\ ") && n > 12) {
			continue;
		}
		if (is_oid_hex(p, pn)) {
			/* the next patch of a series starts here */
			if (patchlen)
				break;
			continue;
		}
		if (!patchlen && !starts(line, n, "diff "))
			continue;
		if (before == -1) {
			if (starts(line, n, "index "))
				continue;
			else if (starts(line, n, "--- "))
				before = after = 1;
			else if (!g_ascii_isalpha(line[0]))
				break;
		}
		if (before == 0 && after == 0) {
			if (starts(line, n, "@@ -")) {
				ms_patch_hunk_counts(line, n, &before, &after);
				continue;
			}
			if (!starts(line, n, "diff "))
				break;
			flush_one_hunk(result, &h);
			before = after = -1;
		}
		if (line[0] == '-' || line[0] == ' ')
			before--;
		if (line[0] == '+' || line[0] == ' ')
			after--;
		hash_without_space(&h, line, n, &patchlen);
	}
	if (patchlen)
		flush_one_hunk(result, &h);
	g_checksum_free(h.ctx);
	if (!patchlen)
		return false;
	ms_hex(result, sizeof(result), hex);
	return true;
}
