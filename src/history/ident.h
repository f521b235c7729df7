/*
 * ident.h - who is who: people behind the names and addresses of commits,
 * trailers and MAINTAINERS lines.
 *
 * An address goes through, in order: the repository's .mailmap (the four
 * forms git accepts), a gitdm-style aliases file ("alias canonical" per
 * line), then a comparable form (lowercase, and "user+tag@domain" folded
 * to "user@domain" unless plus-folding is off).  Everything that ends at
 * the same address is one person, known by a small integer id.  A person
 * without any address is known by their name, compared case-insensitively.
 *
 * Not thread-safe: resolve from one thread at a time.
 */
#ifndef MS_IDENT_H
#define MS_IDENT_H

#include "error.h"

#include <stdbool.h>
#include <stddef.h>

/* Id of nobody: no name and no address. */
#define MS_IDENT_NONE ((unsigned)-1)

struct ms_ident;

/* An empty resolver.  Free with ms_ident_free(). */
struct ms_ident *ms_ident_new(bool plus_fold);
void ms_ident_free(struct ms_ident *id);

/*
 * Add the mailmap text `buf` (`len` bytes) named `file` (for messages).
 * Lines git would ignore are reported in `diags` with their number.
 */
void ms_ident_add_mailmap(struct ms_ident *id, const char *file,
			  const char *buf, size_t len,
			  struct ms_diags *diags);

/*
 * Add a gitdm aliases file: "alias@addr canonical@addr" per line, '#'
 * starts a comment.  A malformed line is reported in `diags` with its
 * number and skipped.
 */
void ms_ident_add_aliases(struct ms_ident *id, const char *file,
			  const char *buf, size_t len,
			  struct ms_diags *diags);

/*
 * The person behind `name` and `email` (either may be NULL or ""), created
 * on first sight; MS_IDENT_NONE when both are empty.
 */
unsigned ms_ident_resolve(struct ms_ident *id, const char *name,
			  const char *email);

/*
 * The person `email` resolves to, if anyone was seen with it, else
 * MS_IDENT_NONE (does not create one).
 */
unsigned ms_ident_lookup(struct ms_ident *id, const char *name,
			 const char *email);

/* How many people there are; ids run from 0 to this minus one. */
size_t ms_ident_count(const struct ms_ident *id);

/*
 * The canonical name (the .mailmap's, else the first one seen; "" when
 * none) and address (lowercase; "" when none) of a person.  Borrowed
 * until the resolver is freed.
 */
const char *ms_ident_name(const struct ms_ident *id, unsigned person);
const char *ms_ident_email(const struct ms_ident *id, unsigned person);

#endif
