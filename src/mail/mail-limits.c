/*
 * mail-limits.c - the readers' bounds on memory (mail.h): the largest
 * message taken whole and the most the message index may hold.  Both
 * readers (mail-archive.c, git-inbox.c) and the index (mail-index.c) read
 * them, so they sit below all three.  And ms_crc64(), which the store
 * checks its rows with: here, the quick program's store links without
 * the readers (and their libgit2).
 */
#include "mail.h"

#include <isa-l/crc64.h>

#include <stdint.h>
#include <unistd.h>

static size_t max_message = MS_MAIL_MAX_MESSAGE;

void ms_mail_set_max_message_size(size_t bytes)
{
	max_message = bytes ? bytes : MS_MAIL_MAX_MESSAGE;
}

size_t ms_mail_max_message_size(void)
{
	return max_message;
}

static size_t max_index;

/* Half the physical memory, at least 256 MiB (and that when unknown). */
static size_t default_max_index(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t half;

	if (pages <= 0 || page <= 0)
		return (size_t)256 << 20;
	half = (uint64_t)pages * (uint64_t)page / 2;
	half = MAX(half, (uint64_t)256 << 20);
	return half > SIZE_MAX ? SIZE_MAX : (size_t)half;
}

void ms_mail_set_max_index_size(size_t bytes)
{
	max_index = bytes ? bytes : default_max_index();
}

size_t ms_mail_max_index_size(void)
{
	/* sysconf() asks the kernel: once, not per message */
	if (!max_index)
		max_index = default_max_index();
	return max_index;
}

uint64_t ms_crc64(uint64_t crc, const void *data, size_t len)
{
	return crc64_ecma_refl(crc, data, len);
}
