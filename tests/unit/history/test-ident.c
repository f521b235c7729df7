/*
 * test-ident.c - identities: the four .mailmap forms, gitdm aliases,
 * case-insensitive addresses and plus-folding.
 */
#include "test.h"
#include "ident.h"
#include "person.h"

#include <string.h>

#include <glib.h>
#include <string.h>

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

/* `fn` (a name key function) of `name` is `want` (NULL: none). */
static void key_by(char *(*fn)(const char *), const char *name,
		   const char *want, const char *what)
{
	char *k = fn(name);

	if (want)
		is_str(k ? k : "(null)", want, what);
	else
		ok(!k, what);
	g_free(k);
}

#define key(name, want, what) key_by(ms_name_key, name, want, what)
#define rkey(name, want, what) \
	key_by(ms_name_key_reordered, name, want, what)

/* Joins: equal names unless the evidence says two, listed addresses win,
 * MAINTAINERS history, mailmap lines among aliases, big name joins. */
struct split_seen {
	unsigned other;
	const char *why;
	int n;
};

static void on_split(unsigned other, const char *why, void *data)
{
	struct split_seen *sp = data;

	sp->other = other;
	sp->why = why;
	sp->n++;
}

static void joins(void)
{
	struct ms_ident *id = ms_ident_new(true);
	struct ms_diags diags = MS_DIAGS_INIT;
	const char *ev;
	unsigned a, b, c, w1, w2, s0;
	size_t nr;

	key("Zolt\xc3\xa1n N\xc3\xa9meth", "zoltan nemeth",
	    "accents stripped, casefolded");
	key("  \"Ann   Example\"  ", "ann example", "quotes, blanks");
	key("Linus", NULL, "one word is not enough");
	key("Md. Haris Iqbal", "md haris iqbal",
	    "a full stop is a space: 'Md. Haris' is 'Md Haris'");
	key("Ye.Li", "ye li", "... and 'Ye.Li' is two words");
	key("Daniel P. Berrang\xc3\xa9", "daniel p berrange",
	    "an initial with its stop");
	key("...", NULL, "stops alone are no name");
	key("Pearson, Robert B", "pearson robert b",
	    "'Surname, Given': the key as written");
	rkey("Pearson, Robert B", "robert b pearson",
	     "... and its second key, 'Given Surname'");
	rkey("\"Saleem,  Shiraz\"", "shiraz saleem", "... quoted too");
	rkey("John Smith, Jr.", NULL, "a suffix is no given name");
	rkey("Ann Example, PhD", NULL, "... nor a degree");
	rkey("A, B, C", NULL, "two commas: no second key");
	rkey(", Geoffrey Onyeama", NULL, "nothing before it");
	rkey("Ann Example,", NULL, "nothing after it");
	rkey("Ann Example", NULL, "no comma");
	key("ann@example.org x", NULL, "an address is not a name");
	key("Bad \xff\xfe Name", "bad \xef\xbf\xbd\xef\xbf\xbd name",
	    "non-UTF-8 bytes replaced, not trusted");
	key("Ann Example via linux-foo", "ann example via linux-foo",
	    "a DMARC name is its own until undone");

	ms_ident_set_evidence(id, "MAINTAINERS:3", false);
	a = ms_ident_resolve(id, "Zolt\xc3\xa1n N\xc3\xa9meth",
			     "zoltan@listed.example");
	ms_ident_set_listed(id, a);
	ms_ident_set_evidence(id, "c0ffee", true);
	b = ms_ident_resolve(id, "Zoltan Nemeth", "zn@corp.example");
	ok(a != b, "two addresses, two ids before the join");
	ok(!ms_ident_used(id, a) && ms_ident_used(id, b),
	   "listed only vs used in a commit");
	/* two Weis, one reviewing the other */
	w1 = ms_ident_resolve(id, "Wei Zhang", "wei@a.example");
	w2 = ms_ident_resolve(id, "Wei Zhang", "wzhang@b.example");
	ms_ident_note_distinct_why(id, w1, w2, "c0ffee");
	/* six addresses of one name */
	s0 = ms_ident_resolve(id, "Sam Many", "sam@0.example");
	for (int i = 1; i < 6; i++) {
		char addr[32];

		g_snprintf(addr, sizeof(addr), "sam@%d.example", i);
		ms_ident_resolve(id, "Sam Many", addr);
	}
	/* a list address carrying senders' names (DMARC) joins nobody */
	for (int i = 0; i < 3; i++) {
		static const char *const who[] = { "Peter Listed",
						   "Zoltan Nemeth", "Sam Many" };

		ms_ident_resolve(id, who[i], "list@lists.example.org");
	}
	is_int(ms_ident_join_names(id, &diags), 6, "six name joins");
	ok(ms_ident_root(id, ms_ident_resolve(id, NULL,
					      "list@lists.example.org")) !=
	   ms_ident_root(id, a), "a list address seen with three names "
	   "joins nobody");
	is_int(ms_ident_resolve(id, NULL, "zn@corp.example"), a,
	       "the accent-free name joins the listed address");
	is_str(ms_ident_email(id, a), "zoltan@listed.example",
	       "the listed address is canonical");
	ms_ident_members(id, a, &nr);
	is_int(nr, 2, "two members");
	is_int(ms_ident_join_source(id, b, &ev), MS_IDENT_NAME, "by name");
	is_str(ev, "name 'zoltan nemeth'", "with the name as evidence");
	ok(ms_ident_root(id, w1) != ms_ident_root(id, w2),
	   "two people of one name who review each other stay two");
	{
		struct split_seen sp = { MS_IDENT_NONE, NULL, 0 };
		const char *list, *why;
		unsigned l = ms_ident_resolve(id, NULL,
					      "list@lists.example.org");

		ms_ident_foreach_split(id, w1, on_split, &sp);
		is_int(sp.n, 1, "one namesake kept apart");
		is_int(sp.other, ms_ident_root(id, w2), "the other Wei");
		is_str(sp.why ? sp.why : "(null)", "c0ffee",
		       "with the evidence current when noted");
		ok(ms_ident_shared(id, l) && !ms_ident_shared(id, a),
		   "the list address is shared, Zolt\u00e1n's is not");
		ok(ms_ident_resolve(id, "Zoltan Nemeth",
				    "list@lists.example.org") ==
		   ms_ident_root(id, l), "an address merely seen with three "
		   "names credits no one by name");
		ms_ident_set_shared(id, l);
		ms_ident_set_evidence(id, "<dmarc-1@x>", true);
		is_int(ms_ident_resolve(id, "Zoltan Nemeth",
					"list@lists.example.org"), a,
		       "a list's address (set shared) with Zolt\u00e1n's name "
		       "is his");
		ok(ms_ident_resolve(id, "Wei Zhang",
				    "list@lists.example.org") ==
		   ms_ident_root(id, l), "with a name two people have: the "
		   "list's, nobody's");
		ok(ms_ident_resolve(id, "Nobody Known",
				    "list@lists.example.org") ==
		   ms_ident_root(id, l), "with a name no one has: the list's");
		ms_ident_set_evidence(id, NULL, false);
		is_int(ms_ident_dmarc(id, a, &list, &why), 1,
		       "one message credited by name");
		is_str(list ? list : "(null)", "list@lists.example.org",
		       "through the list's address");
		is_str(why ? why : "(null)", "<dmarc-1@x>", "with its id");
		is_int(ms_ident_dmarc(id, w1, &list, &why), 0,
		       "none to a Wei");
	}
	is_int(diags.nr, 1, "one warning");
	ok(diags.nr && strstr(diags.items[0].message, "'sam many' joins 6"),
	   "for the name joining six addresses");
	ok(ms_ident_big_name(id, s0), "flagged");
	ms_diags_release(&diags);

	c = ms_ident_resolve(id, "Hana Moved", "hmoved@old.example");
	b = ms_ident_resolve(id, "H. Moved", "hmoved@new.example");
	ok(ms_ident_root(id, c) != ms_ident_root(id, b), "H. is not Hana");
	ok(ms_ident_join(id, c, b, MS_IDENT_MAINTAINERS, "abc123"),
	   "a MAINTAINERS change joins");
	ok(!ms_ident_join(id, b, c, MS_IDENT_MAINTAINERS, "abc123"),
	   "only once");
	is_int(ms_ident_resolve(id, NULL, "hmoved@new.example"),
	       ms_ident_resolve(id, NULL, "hmoved@old.example"), "one person");
	ms_ident_free(id);

	id = ms_ident_new(true);
	{
		const char *al = "Proper <p@new.example> <p@old.example>\n"
				 "a@x.example b@x.example\n"
				 "Broken <\n";

		ms_ident_add_aliases(id, "aliases", al, strlen(al), &diags);
	}
	is_int(diags.nr, 1, "a broken mailmap line among aliases");
	ok(diags.nr && diags.items[0].line == 3, "on line 3");
	ms_diags_release(&diags);
	is_int(ms_ident_resolve(id, NULL, "p@old.example"),
	       ms_ident_resolve(id, NULL, "p@new.example"),
	       "a .mailmap line works as an alias");
	is_int(ms_ident_resolve(id, NULL, "a@x.example"),
	       ms_ident_resolve(id, NULL, "b@x.example"), "gitdm line too");
	{
		unsigned p = ms_ident_resolve(id, NULL, "p@old.example");
		enum ms_ident_source src;

		ok(ms_ident_nr_addresses(id, p) == 2, "two addresses seen");
		is_str(ms_ident_address(id, p, 0, &src, &ev), "p@old.example",
		       "the old address first");
		is_int(src, MS_IDENT_MAILMAP, "by mailmap");
	}
	ms_ident_free(id);

	/* "Surname, Given" meets the name in either order (U-Boot: "Lad,
	 * Prabhakar" is "Prabhakar Lad" and "Lad Prabhakar"), and an address
	 * written both ways is not taken for a shared one */
	id = ms_ident_new(true);
	a = ms_ident_resolve(id, "Lad, Prabhakar", "plad@ti.example");
	b = ms_ident_resolve(id, "Prabhakar Lad", "plad@gmail.example");
	c = ms_ident_resolve(id, "Lad Prabhakar", "plad@renesas.example");
	w1 = ms_ident_resolve(id, "Chia-Wei, Wang", "cw@aspeed.example");
	ms_ident_resolve(id, "Chia-Wei Wang", "cw@aspeed.example");
	w2 = ms_ident_resolve(id, "Chia-Wei Wang", "cw@home.example");
	s0 = ms_ident_resolve(id, "Smith, Jr.", "js@one.example");
	ms_ident_resolve(id, "Jr. Smith", "js@two.example");
	is_int(ms_ident_join_names(id, &diags), 3, "three name joins");
	is_int(ms_ident_root(id, a), ms_ident_root(id, b),
	       "'Lad, Prabhakar' is 'Prabhakar Lad'");
	is_int(ms_ident_root(id, a), ms_ident_root(id, c),
	       "... and 'Lad Prabhakar'");
	is_int(ms_ident_root(id, w1), ms_ident_root(id, w2),
	       "'Chia-Wei, Wang' is still 'Chia-Wei Wang'");
	ok(!ms_ident_shared(id, w1), "two spellings: not a shared address");
	ok(ms_ident_root(id, s0) != ms_ident_root(id,
	   ms_ident_resolve(id, NULL, "js@two.example")),
	   "a suffix after the comma: no second key");
	ms_diags_release(&diags);
	ms_ident_free(id);

	/* rdma-core: one address written with two typos of its name is
	 * not a list's (three names): it still joins by name */
	id = ms_ident_new(true);
	a = ms_ident_resolve(id, "Jason Gunthorpe", "jgg@ziepe.example");
	ms_ident_resolve(id, "Jason Gunthrope", "jgg@ziepe.example");
	ms_ident_resolve(id, "Jason Gubthorpe", "jgg@ziepe.example");
	b = ms_ident_resolve(id, "Jason Gunthorpe", "jgg@nvidia.example");
	c = ms_ident_resolve(id, "Ann Example", "list@lists.example.org");
	ms_ident_resolve(id, "Anne Example", "list@lists.example.org");
	ms_ident_resolve(id, "Bob Other", "list@lists.example.org");
	ms_ident_resolve(id, "Cy Third", "list@lists.example.org");
	ok(!ms_ident_shared(id, a), "three spellings of one name: one name");
	ok(ms_ident_shared(id, c), "three names besides a typo: shared");
	/* linux-erofs: Gao Xiang's address, also "Xiang Gao" and
	 * "Gaoxiang (xiang, OS Lab)": one name, never a list's */
	w1 = ms_ident_resolve(id, "Gao Xiang", "gx@alibaba.example");
	ms_ident_resolve(id, "Xiang Gao", "gx@alibaba.example");
	ms_ident_resolve(id, "Gaoxiang (xiang, OS Lab)", "gx@alibaba.example");
	ok(!ms_ident_shared(id, w1), "a name's words in another order, and "
	   "with a comment: one name, not a shared address");
	ms_ident_join_names(id, &diags);
	is_int(ms_ident_root(id, a), ms_ident_root(id, b),
	       "... and joins his other address by name");
	ms_diags_release(&diags);
	ms_ident_free(id);
}

/* The name shown is the one used most, plain before decorated, an
 * address never; the .mailmap's always. */
static void names_used(void)
{
	static const char mm[] = "Mapped Name <mm@example.org>\n";
	struct ms_ident *id = ms_ident_new(true);
	struct ms_diags d = MS_DIAGS_INIT;
	unsigned a, b, m;

	ms_ident_add_mailmap(id, ".mailmap", mm, sizeof(mm) - 1, &d);
	ms_diags_release(&d);
	a = ms_ident_resolve(id, "zl@example.org", "zl@example.org");
	is_str(ms_ident_name(id, a), "zl@example.org",
	       "nothing counted: the first name seen");
	ms_ident_note_name(id, a, "zl@example.org");
	ms_ident_note_name(id, a, "zl@example.org");
	ms_ident_note_name(id, a, "Li, Zhi");
	is_str(ms_ident_name(id, a), "Li, Zhi", "an address never wins");
	ms_ident_note_name(id, a, "Zhi Li (Example)");
	ms_ident_note_name(id, a, "Zhi Li (Example)");
	is_str(ms_ident_name(id, a), "Zhi Li (Example)",
	       "among decorated names, the one used most");
	ms_ident_note_name(id, a, "Li Zhi");
	is_str(ms_ident_name(id, a), "Li Zhi", "a plain name beats them");
	b = ms_ident_resolve(id, "Li Zhi", "zhi@other.example");
	ms_ident_note_name(id, b, "Zhi Li");
	ms_ident_note_name(id, b, "Zhi Li");
	ms_ident_join(id, a, b, MS_IDENT_NAME, "test");
	is_str(ms_ident_name(id, ms_ident_root(id, a)), "Zhi Li",
	       "a group's name: the most used over its addresses");
	m = ms_ident_resolve(id, "Other", "mm@example.org");
	ms_ident_note_name(id, m, "Other");
	is_str(ms_ident_name(id, m), "Mapped Name", "the .mailmap's wins");
	ms_ident_join(id, m, a, MS_IDENT_NAME, "test");
	if (ms_ident_root(id, m) == m)
		is_str(ms_ident_name(id, m), "Mapped Name",
		       "... the group's, when its own address is mapped");
	else
		is_str(ms_ident_name(id, ms_ident_root(id, m)), "Zhi Li",
		       "... a member's mapped name does not name the group");
	ms_ident_free(id);
}

/* An unused address: listed, never seen in use, and only when something
 * was read to tell. */
static void addr_unused(void)
{
	struct ms_ident_addr a = { .email = "x@example.org", .listed = true };

	ok(ms_ident_addr_unused(&a, true), "a listed address nothing used");
	ok(!ms_ident_addr_unused(&a, false),
	   "... not when no history or list was read");
	a.used = true;
	ok(!ms_ident_addr_unused(&a, true), "a listed address in use");
	a.used = false;
	a.listed = false;
	ok(!ms_ident_addr_unused(&a, true), "an address not listed");
}

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

	/* replaying the pairs seen, in order, rebuilds the same people */
	ms_ident_set_evidence(id, "c0ffee", true);
	ms_ident_resolve(id, "Used Once", "used@example.org");
	ms_ident_set_evidence(id, NULL, false);
	{
		struct ms_ident *re = ms_ident_new(true);
		bool same = true;

		ms_ident_add_mailmap(re, ".mailmap", mailmap,
				     sizeof(mailmap) - 1, &diags);
		ms_ident_add_aliases(re, "aliases", aliases,
				     sizeof(aliases) - 1, &diags);
		ms_diags_release(&diags);
		ok(ms_ident_nr_seen(id) > ms_ident_count(id),
		   "more pairs seen than people (some joined)");
		for (size_t i = 0; i < ms_ident_nr_seen(id); i++) {
			const char *name, *email, *ev;
			size_t nl;
			bool usage;
			char *n;

			ms_ident_seen(id, i, &name, &nl, &email, &ev, &usage);
			n = g_strndup(name, nl);
			ms_ident_set_evidence(re, ev, usage);
			ms_ident_resolve(re, n, email);
			g_free(n);
		}
		ms_ident_set_evidence(re, NULL, false);
		is_int(ms_ident_nr_seen(re), ms_ident_nr_seen(id),
		       "the replay sees the same pairs");
		is_int(ms_ident_count(re), ms_ident_count(id),
		       "... and makes as many people");
		for (unsigned p = 0; p < ms_ident_count(id); p++)
			if (strcmp(ms_ident_name(re, p), ms_ident_name(id, p)) ||
			    strcmp(ms_ident_email(re, p),
				   ms_ident_email(id, p)))
				same = false;
		ok(same, "... with the same ids, names and addresses");
		same = true;
		for (unsigned p = 0; p < ms_ident_count(id); p++) {
			if (ms_ident_used(re, p) != ms_ident_used(id, p) ||
			    ms_ident_nr_addresses(re, p) !=
			    ms_ident_nr_addresses(id, p)) {
				same = false;
				continue;
			}
			for (size_t i = 0; i < ms_ident_nr_addresses(id, p);
			     i++) {
				enum ms_ident_source s1, s2;
				const char *e1, *e2;

				if (strcmp(ms_ident_address(re, p, i, &s1, &e1),
					   ms_ident_address(id, p, i, &s2,
							    &e2)) ||
				    s1 != s2 || strcmp(e1, e2))
					same = false;
			}
		}
		ok(same, "... used the same, with the same first evidence");
		{
			unsigned u = ms_ident_lookup(re, NULL,
						     "used@example.org");
			const char *ev = "";
			enum ms_ident_source src;

			if (u != MS_IDENT_NONE)
				ms_ident_address(re, u, 0, &src, &ev);
			is_str(ev, "c0ffee", "... the commit it was seen in");
		}
		is_int(ms_ident_resolve(re, "Two", "two-old@example.org"),
		       ms_ident_resolve(id, "Two", "two-old@example.org"),
		       "... so a joined address resolves to the same id");
		ms_ident_free(re);
	}
	ms_ident_free(id);

	id = ms_ident_new(false);
	a = ms_ident_resolve(id, "Plus", "plus+netdev@example.org");
	b = ms_ident_resolve(id, "Plus", "plus@example.org");
	ok(a != b, "--no-plus-fold keeps them apart");
	is_int(ms_ident_count(id), 2, "two people");
	ms_ident_free(id);
	/* names of any bytes (fuzz-ident: g_utf8_casefold() read past the
	 * end of invalid UTF-8): folded as U+FFFD, no crash, still joined */
	id = ms_ident_new(true);
	{
		static const char mm[] =
			"Proper <proper@example.org> Old \x89\xff Name "
			"<old@example.org>\n\xe2\x82 <y@example.org>\n";
		struct ms_diags d = MS_DIAGS_INIT;

		ms_ident_add_mailmap(id, ".mailmap", mm, sizeof(mm) - 1, &d);
		ms_diags_release(&d);
	}
	a = ms_ident_resolve(id, "Old \x89\xff Name", "old@example.org");
	b = ms_ident_resolve(id, "Proper", "proper@example.org");
	is_int(a, b, "invalid UTF-8 name in a .mailmap still maps");
	a = ms_ident_resolve(id, "\xc3", NULL);
	b = ms_ident_resolve(id, "\xc3", "");
	is_int(a, b, "a name of one stray byte is a name");
	ms_ident_free(id);
	ms_ident_free(NULL);
	joins();
	names_used();
	addr_unused();
	return test_done();
}
