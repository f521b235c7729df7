/*
 * mapped.c - see mapped.h.
 */
#include "mapped.h"

#include <errno.h>
#include <signal.h>
#include <glib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* release pages behind the reader in steps of this many bytes */
#define DONE_STEP (8u << 20)
/* and map them ahead of it in steps of this many */
#define AHEAD_STEP (4u << 20)

struct ms_mapped {
	gint refs;
	char *base;
	size_t size;
	size_t released;       /* bytes from base already handed back */
	size_t populated;      /* bytes from base mapped ahead */
	size_t page;
	int slot;              /* in `slots` */
};

/*
 * The live mappings, for the SIGBUS handler, which may take no lock: a
 * slot is claimed (under `slots_lock`) by setting its size and then its
 * base, and given up by clearing the base before the mapping goes.
 */
#define SLOTS 64
static struct {
	char *base;            /* NULL: free */
	size_t size;
	volatile sig_atomic_t cut;
} slots[SLOTS];
static GMutex slots_lock;
static struct sigaction old_sigbus;
static size_t page_size;
static gint catching;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	char *a = si->si_addr;

	for (int i = 0; i < SLOTS; i++) {
		char *b = __atomic_load_n(&slots[i].base, __ATOMIC_ACQUIRE);
		size_t size = slots[i].size;
		char *from;

		if (!b || a < b || a >= b + size)
			continue;
		/* zeros from the faulting page to the mapping's end */
		from = b + (size_t)(a - b) / page_size * page_size;
		if (mmap(from, (size_t)(b + size - from), PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED)
			break;
		slots[i].cut = 1;
		return;
	}
	/* not ours: the previous disposition, which the fault, taken again
	 * on return, meets (the default ends the process) */
	if (old_sigbus.sa_flags & SA_SIGINFO && old_sigbus.sa_sigaction) {
		old_sigbus.sa_sigaction(sig, si, ctx);
		return;
	}
	sigaction(SIGBUS, &old_sigbus, NULL);
}

bool ms_mapped_catch_cuts(void)
{
	struct sigaction sa = { 0 };

	if (g_atomic_int_get(&catching))
		return true;
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old_sigbus) < 0)
		return false;
	g_atomic_int_set(&catching, 1);
	return true;
}

/* A free slot for [base, base+size), or -1. */
static int claim_slot(char *base, size_t size)
{
	int got = -1;

	g_mutex_lock(&slots_lock);
	for (int i = 0; i < SLOTS && got < 0; i++) {
		if (slots[i].base)
			continue;
		slots[i].size = size;
		slots[i].cut = 0;
		__atomic_store_n(&slots[i].base, base, __ATOMIC_RELEASE);
		got = i;
	}
	g_mutex_unlock(&slots_lock);
	return got;
}

struct ms_mapped *ms_mapped_new(int fd)
{
	struct ms_mapped *m;
	struct stat st;
	void *p;

	if (fstat(fd, &st) < 0)
		return NULL;
	if (!g_atomic_int_get(&catching)) {
		errno = ENOTSUP;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uintmax_t)st.st_size > SIZE_MAX) {
		errno = EINVAL;
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	m = g_new0(struct ms_mapped, 1);
	m->slot = claim_slot(p, (size_t)st.st_size);
	if (m->slot < 0) {
		munmap(p, (size_t)st.st_size);
		g_free(m);
		errno = EMFILE;
		return NULL;
	}
	(void)madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	m->refs = 1;
	m->base = p;
	m->size = (size_t)st.st_size;
	m->page = (size_t)sysconf(_SC_PAGESIZE);
	return m;
}

bool ms_mapped_cut(const struct ms_mapped *m)
{
	return slots[m->slot].cut != 0;
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
	g_mutex_lock(&slots_lock);
	__atomic_store_n(&slots[m->slot].base, NULL, __ATOMIC_RELEASE);
	g_mutex_unlock(&slots_lock);
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

void ms_mapped_will_read(struct ms_mapped *m, const char *at)
{
#ifdef MADV_POPULATE_READ
	size_t off, from, to;

	if (at < m->base || at > m->base + m->size)
		return;
	off = (size_t)(at - m->base);
	if (off + AHEAD_STEP / 2 < m->populated || m->populated >= m->size)
		return;
	from = MAX(m->populated, off - off % m->page);
	to = MIN(m->size, from + AHEAD_STEP);
	/* on any error (an old kernel, a file cut short) stop trying */
	m->populated = madvise(m->base + from, to - from,
			       MADV_POPULATE_READ) == 0 ? to : m->size;
#else
	(void)m;
	(void)at;
#endif
}
