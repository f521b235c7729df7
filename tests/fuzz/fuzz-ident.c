/*
 * fuzz-ident.c - libFuzzer target for the identity readers: one input is
 * read as a .mailmap and as a gitdm aliases file, then each of its lines
 * is resolved as a "Name <address>" through the result.
 */
#include "ident.h"
#include "maintainers.h"

#include <glib.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_ident *id = ms_ident_new(size & 1);
	char *text = g_strndup((const char *)data, MIN(size, 8192));
	char **lines;

	ms_ident_add_mailmap(id, ".mailmap", (const char *)data, size,
			     &diags);
	ms_ident_add_aliases(id, "aliases", (const char *)data, size,
			     &diags);
	lines = g_strsplit(text, "\n", 64);
	for (char **l = lines; *l; l++) {
		char *name = NULL, *email = NULL;

		maint_parse_person(*l, &name, &email);
		ms_ident_resolve(id, name, email);
		ms_ident_lookup(id, name, email);
		g_free(name);
		g_free(email);
	}
	g_strfreev(lines);
	g_free(text);
	ms_ident_free(id);
	ms_diags_release(&diags);
	return 0;
}
