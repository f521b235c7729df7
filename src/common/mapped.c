/*
 * mapped.c - see mapped.h.
 */
#include "mapped.h"

#include <errno.h>
#include <glib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* release pages behind the reader in steps of this many bytes */
#define DONE_STEP (8u << 20)

struct ms_mapped {
	gint refs;
	char *base;
	size_t size;
	size_t released;       /* bytes from base already handed back */
	size_t page;
};

struct ms_mapped *ms_mapped_new(int fd)
{
	struct ms_mapped *m;
	struct stat st;
	void *p;

	if (fstat(fd, &st) < 0)
		return NULL;
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uintmax_t)st.st_size > SIZE_MAX) {
		errno = EINVAL;
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	m = g_new0(struct ms_mapped, 1);
	m->refs = 1;
	m->base = p;
	m->size = (size_t)st.st_size;
	m->page = (size_t)sysconf(_SC_PAGESIZE);
	return m;
}

const char *ms_mapped_data(const struct ms_mapped *m)
{
	return m->base;
}

size_t ms_mapped_size(const struct ms_mapped *m)
{
	return m->size;
}

struct ms_mapped *ms_mapped_ref(struct ms_mapped *m)
{
	g_atomic_int_inc(&m->refs);
	return m;
}

void ms_mapped_unref(struct ms_mapped *m)
{
	if (!m || !g_atomic_int_dec_and_test(&m->refs))
		return;
	munmap(m->base, m->size);
	g_free(m);
}

void ms_mapped_done(struct ms_mapped *m, const char *upto)
{
	size_t off, end;

	if (upto < m->base || upto > m->base + m->size)
		return;
	off = (size_t)(upto - m->base);
	if (off - m->released < DONE_STEP && off < m->size)
		return;
	end = off - off % m->page;
	if (end > m->released &&
	    madvise(m->base + m->released, end - m->released,
		    MADV_DONTNEED) == 0)
		m->released = end;
}
