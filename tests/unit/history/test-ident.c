/*
 * test-ident.c - identities: the four .mailmap forms, gitdm aliases,
 * case-insensitive addresses and plus-folding.
 */
#include "test.h"
#include "ident.h"

#include <glib.h>

static const char mailmap[] =
	"# a comment\n"
	"Proper One <one@example.org>\n"                      /* form 1 */
	"<two@example.org> <two-old@example.org>\n"            /* form 2 */
	"Proper Three <three@example.org> <3@old.example>\n"   /* form 3 */
	"Proper Four <four@example.org> Wrong Name <shared@example.org>\n"
	"this line has no address\n"
	"\n";

static const char aliases[] =
	"# gitdm aliases\n"
	"old.five@example.net five@example.org\n"
	"   \n"
	"broken-line-without-canonical\n"
	"six@example.org six@example.com # trailing comment\n"
	"a@b c@d e@f\n";

int main(void)
{
	struct ms_ident *id = ms_ident_new(true);
	struct ms_diags diags = MS_DIAGS_INIT;
	unsigned a, b, c;

	ms_ident_add_mailmap(id, ".mailmap", mailmap, sizeof(mailmap) - 1,
			     &diags);
	is_int(diags.nr, 1, "one bad mailmap line");
	if (diags.nr) {
		is_int(diags.items[0].line, 6, "on line 6");
		is_str(diags.items[0].file, ".mailmap", "named file");
	}
	ms_diags_release(&diags);
	ms_ident_add_aliases(id, "aliases", aliases, sizeof(aliases) - 1,
			     &diags);
	is_int(diags.nr, 2, "two malformed alias lines");
	if (diags.nr == 2) {
		is_int(diags.items[0].line, 4, "first on line 4");
		is_int(diags.items[1].line, 6, "second on line 6");
	}
	ms_diags_release(&diags);

	a = ms_ident_resolve(id, "one", "one@example.org");
	is_str(ms_ident_name(id, a), "Proper One", "form 1 replaces the name");
	is_str(ms_ident_email(id, a), "one@example.org", "form 1 keeps email");

	a = ms_ident_resolve(id, "Two", "two-old@example.org");
	b = ms_ident_resolve(id, "Two", "TWO@Example.ORG");
	is_int(a, b, "form 2 joins two addresses; case-insensitive");
	is_str(ms_ident_email(id, a), "two@example.org", "canonical address");

	a = ms_ident_resolve(id, "x", "3@OLD.example");
	is_str(ms_ident_name(id, a), "Proper Three", "form 3 name");
	is_str(ms_ident_email(id, a), "three@example.org", "form 3 email");

	a = ms_ident_resolve(id, "wrong name", "shared@example.org");
	b = ms_ident_resolve(id, "Someone Else", "shared@example.org");
	is_str(ms_ident_email(id, a), "four@example.org",
	       "form 4 maps a matching name (case-insensitively)");
	is_str(ms_ident_email(id, b), "shared@example.org",
	       "form 4 leaves other names alone");
	ok(a != b, "two different people");

	a = ms_ident_resolve(id, "Five", "Old.Five@example.net");
	b = ms_ident_resolve(id, "Five", "five@example.org");
	is_int(a, b, "an alias joins two addresses");

	a = ms_ident_resolve(id, "Six", "six@example.org");
	b = ms_ident_resolve(id, "Six", "six@example.com");
	is_int(a, b, "alias with a trailing comment");

	a = ms_ident_resolve(id, "Plus", "plus+netdev@example.org");
	b = ms_ident_resolve(id, "Plus", "plus@example.org");
	is_int(a, b, "plus-address folded");

	a = ms_ident_resolve(id, "No Mail", "");
	b = ms_ident_resolve(id, "no mail", NULL);
	is_int(a, b, "no address: known by name, case-insensitively");
	is_int(ms_ident_resolve(id, "", ""), MS_IDENT_NONE, "nobody");

	is_int(ms_ident_lookup(id, NULL, "never@example.org"), MS_IDENT_NONE,
	       "lookup does not create");
	c = ms_ident_resolve(id, "Late Name", "plus@example.org");
	is_int(c, a == b ? ms_ident_lookup(id, NULL, "PLUS@example.org") : c,
	       "lookup finds an existing person");
	ms_ident_free(id);

	id = ms_ident_new(false);
	a = ms_ident_resolve(id, "Plus", "plus+netdev@example.org");
	b = ms_ident_resolve(id, "Plus", "plus@example.org");
	ok(a != b, "--no-plus-fold keeps them apart");
	is_int(ms_ident_count(id), 2, "two people");
	ms_ident_free(id);
	ms_ident_free(NULL);
	return test_done();
}
