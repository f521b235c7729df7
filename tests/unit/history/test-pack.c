/*
 * test-pack.c - the pack reader (pack.h) against git's own reading.
 *
 * Builds repositories with git (fast-import: nested directories, files
 * edited a line at a time, a tag), repacks them with long delta chains
 * (`git repack -adf --depth=50`: OFS_DELTA; with
 * repack.useDeltaBaseOffset=false: REF_DELTA), and reads EVERY object
 * through the reader, comparing type and bytes with `git cat-file
 * --batch-all-objects --batch`.  Then damage: crafted deltas, a pack
 * with bytes flipped all through it, a pack cut short, broken indexes.
 */
#include "pack.h"
#include "error.h"
#include "../test.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct truth {
	int type;
	GBytes *data;
};

static int type_of(const char *s)
{
	return !strcmp(s, "commit") ? MS_PACK_COMMIT :
	       !strcmp(s, "tree") ? MS_PACK_TREE :
	       !strcmp(s, "blob") ? MS_PACK_BLOB :
	       !strcmp(s, "tag") ? MS_PACK_TAG : 0;
}

static bool unhex(const char *hex, unsigned char *raw)
{
	for (int i = 0; i < 20; i++) {
		int hi = g_ascii_xdigit_value(hex[2 * i]);
		int lo = g_ascii_xdigit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		raw[i] = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

static void truth_free(gpointer p)
{
	struct truth *t = p;

	g_bytes_unref(t->data);
	g_free(t);
}

static guint raw_hash(gconstpointer p)
{
	guint h;

	memcpy(&h, p, sizeof(h));
	return h;
}

static gboolean raw_eq(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, 20) == 0;
}

/* Every object of `git` as git reads it: raw id -> struct truth. */
static GHashTable *git_objects(const char *git)
{
	GHashTable *all = g_hash_table_new_full(raw_hash, raw_eq, g_free,
						truth_free);
	char *cmd = g_strdup_printf("git --git-dir='%s' cat-file "
				    "--batch-all-objects --batch", git);
	FILE *fp = popen(cmd, "r");
	char line[256];

	g_free(cmd);
	while (fp && fgets(line, sizeof(line), fp)) {
		char hex[41], type[16];
		size_t len;
		struct truth *t;
		unsigned char *raw = g_malloc(20);
		char *buf;

		if (sscanf(line, "%40s %15s %zu", hex, type, &len) != 3 ||
		    !unhex(hex, raw)) {
			g_free(raw);
			break;
		}
		buf = g_malloc(len + 1);
		if (fread(buf, 1, len + 1, fp) != len + 1) {
			g_free(buf);
			g_free(raw);
			break;
		}
		t = g_new(struct truth, 1);
		t->type = type_of(type);
		t->data = g_bytes_new_take(buf, len);
		g_hash_table_insert(all, raw, t);
	}
	if (fp)
		pclose(fp);
	return all;
}

static int run(const char *fmt, const char *a, const char *b)
{
	char *cmd = g_strdup_printf(fmt, a, b);
	int rc = system(cmd);

	g_free(cmd);
	return rc;
}

/*
 * A history that makes deltas of every kind of object: 240 commits,
 * each editing a line of a 300-line file and one file of 15 in three
 * levels of directories, every 40th an annotated tag.
 */
static int make_repo(const char *git)
{
	GString *s = g_string_new(NULL);
	char *cmd;
	FILE *fp;
	int rc;

	if (run("git init -q --bare '%s' %s", git, "") != 0)
		return -1;
	for (int i = 0; i < 240; i++) {
		GString *big = g_string_new(NULL);

		for (int l = 0; l < 300; l++)
			g_string_append_printf(big, "line %d of the big file%s\n",
					       l, l == (i * 7) % 300 ?
					       " (edited)" : "");
		g_string_append_printf(s,
			"commit refs/heads/main\nmark :%d\n"
			"author A U Thor <a@example.org> %d +0000\n"
			"committer A U Thor <a@example.org> %d +0000\n"
			"data <<EOF\nchange %d\nEOF\n"
			"M 100644 inline big.txt\ndata %zu\n%s\n"
			"M 100644 inline d%d/s%d/f%d.c\ndata <<EOF\n"
			"int f(void) { return %d; }\n/* %s */\nEOF\n\n",
			i + 1, 1600000000 + i, 1600000000 + i, i, big->len,
			big->str, i % 5, i % 3, i % 15, i,
			"a comment long enough to be worth a delta, "
			"a comment long enough to be worth a delta");
		if (i % 40 == 39)
			g_string_append_printf(s, "tag v%d\nfrom :%d\n"
				"tagger T <t@example.org> %d +0000\n"
				"data <<EOF\nrelease %d\nEOF\n\n",
				i, i + 1, 1600000000 + i, i);
		g_string_free(big, TRUE);
	}
	cmd = g_strdup_printf("git --git-dir='%s' fast-import --quiet", git);
	fp = popen(cmd, "w");
	g_free(cmd);
	if (!fp) {
		g_string_free(s, TRUE);
		return -1;
	}
	fwrite(s->str, 1, s->len, fp);
	g_string_free(s, TRUE);
	rc = pclose(fp);
	return rc == 0 ? 0 : -1;
}

struct read_all {
	struct ms_packs *ps;
	GHashTable *truth;
	bool once;              /* ms_pack_read_once() rather than _read() */
	size_t read, wrong, failed, missing;
};

/* Read every object of a->truth through a reader of a->ps. */
static gpointer read_all(gpointer data)
{
	struct read_all *a = data;
	struct ms_pack_reader *r = ms_pack_reader_new(a->ps);
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, a->truth);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct truth *t = v;
		struct ms_pack_obj *o = NULL;
		size_t len;
		const void *want = g_bytes_get_data(t->data, &len);
		int rc = a->once ? ms_pack_read_once(r, k, &o) :
			ms_pack_read(r, k, &o);

		if (rc == MS_ENOTFOUND)
			a->missing++;
		else if (rc < 0)
			a->failed++;
		else if (o->type != t->type || o->len != len ||
			 memcmp(o->data, want, len) != 0 || o->data[len])
			a->wrong++;
		else
			a->read++;
		ms_pack_obj_unref(o);
	}
	ms_pack_reader_free(r);
	return NULL;
}

static void check_all(const char *git, GHashTable *truth, size_t budget,
		      int threads, const char *what, struct ms_pack_stats *st)
{
	char *objdir = g_build_filename(git, "objects", NULL);
	struct ms_packs *ps = NULL;
	struct read_all a[4] = { { 0 } };
	GThread *th[4];
	size_t n = g_hash_table_size(truth);
	char *name;

	ok(ms_packs_open(objdir, budget, &ps) == 0, "packs open", what);
	g_free(objdir);
	if (!ps)
		return;
	for (int i = 0; i < threads; i++) {
		a[i].ps = ps;
		a[i].truth = truth;
		th[i] = g_thread_new("read", read_all, &a[i]);
	}
	for (int i = 0; i < threads; i++) {
		g_thread_join(th[i]);
		name = g_strdup_printf("%s, thread %d: all %zu objects read "
				       "as git reads them", what, i, n);
		ok(a[i].read == n && !a[i].wrong && !a[i].failed &&
		   !a[i].missing, name);
		if (a[i].read != n)
			printf("#   read %zu wrong %zu failed %zu missing %zu "
			       "(%s)\n", a[i].read, a[i].wrong, a[i].failed,
			       a[i].missing, ms_error_last());
		g_free(name);
	}
	ms_packs_stats(ps, st);
	printf("# %s: %llu reads, %llu whole from the cache, %llu OFS and "
	       "%llu REF deltas applied, %llu inflated, %llu evicted\n",
	       what, (unsigned long long)st->reads,
	       (unsigned long long)st->hits,
	       (unsigned long long)st->ofs_deltas,
	       (unsigned long long)st->ref_deltas,
	       (unsigned long long)st->inflated,
	       (unsigned long long)st->evicted);
	ms_packs_free(ps);
}

/*
 * ms_pack_read_once() leaves the object itself out of the cache, and
 * readers that let go of the mapped pages every few reads
 * (ms_packs_drop_every()) still read every object right, four threads
 * at once, two of them with _read_once().
 */
static void test_once_and_drop(const char *git, GHashTable *truth)
{
	char *objdir = g_build_filename(git, "objects", NULL);
	struct ms_packs *ps = NULL;
	struct ms_pack_reader *r;
	struct ms_pack_obj *o = NULL;
	struct ms_pack_stats st;
	struct read_all a[4] = { { 0 } };
	GThread *th[4];
	GHashTableIter it;
	gpointer id = NULL;
	bool all = true;

	g_hash_table_iter_init(&it, truth);
	g_hash_table_iter_next(&it, &id, NULL);
	ok(ms_packs_open(objdir, 0, &ps) == 0, "packs open (read once)");
	if (!ps)
		goto done;
	r = ms_pack_reader_new(ps);
	ok(ms_pack_read_once(r, id, &o) == 0 && o, "read once");
	ms_pack_obj_unref(o);
	ok(ms_pack_read(r, id, &o) == 0 && o, "then read");
	ms_pack_obj_unref(o);
	ms_pack_reader_free(r);
	ms_packs_stats(ps, &st);
	ok(st.reads == 2 && st.hits == 0,
	   "an object read once is not kept in the cache");
	r = ms_pack_reader_new(ps);
	ok(ms_pack_read(r, id, &o) == 0 && o, "read again");
	ms_pack_obj_unref(o);
	ms_pack_reader_free(r);
	ms_packs_stats(ps, &st);
	ok(st.reads == 3 && st.hits == 1,
	   "an object read with ms_pack_read() is kept");
	ms_packs_free(ps);

	/* the default budget: a cache in shards */
	ok(ms_packs_open(objdir, 0, &ps) == 0, "packs open (drop)");
	if (!ps)
		goto done;
	ms_packs_drop_every(ps, 7);
	for (int i = 0; i < 4; i++) {
		a[i].ps = ps;
		a[i].truth = truth;
		a[i].once = i % 2;
		th[i] = g_thread_new("read", read_all, &a[i]);
	}
	for (int i = 0; i < 4; i++) {
		g_thread_join(th[i]);
		all = all && a[i].read == g_hash_table_size(truth) &&
			!a[i].wrong && !a[i].failed && !a[i].missing;
	}
	ok(all, "4 threads read every object right, the pages dropped "
	   "every 7 reads");
	ms_packs_stats(ps, &st);
	ok(st.reads == 4 * g_hash_table_size(truth) && st.hits > 0 &&
	   st.cache_bytes > 0 && st.cache_bytes <= st.budget,
	   "the readers' counts add up; the shards keep the budget");
	ms_packs_free(ps);
done:
	g_free(objdir);
}

static void test_deltas(void)
{
	static const unsigned char base[] = "0123456789abcdef";
	struct ms_pack_obj *o = NULL;
	/* src 16, dst 7: copy 4 bytes from offset 2, insert "xyz" */
	static const unsigned char good[] = { 16, 7, 0x91, 2, 4, 3,
					      'x', 'y', 'z' };
	static const struct {
		const char *what;
		unsigned char d[12];
		size_t len;
	} bad[] = {
		{ "copy past the base", { 16, 4, 0x91, 14, 4 }, 5 },
		{ "offset past the base", { 16, 1, 0x91, 17, 1 }, 5 },
		{ "copy past the result", { 16, 2, 0x91, 0, 4 }, 5 },
		{ "insert past the delta", { 16, 5, 5, 'a', 'b' }, 5 },
		{ "insert past the result", { 16, 1, 3, 'a', 'b', 'c' }, 6 },
		{ "reserved instruction 0", { 16, 1, 0, 'a' }, 4 },
		{ "result shorter than stated", { 16, 9, 2, 'a', 'b' }, 5 },
		{ "wrong base size", { 15, 1, 1, 'a' }, 4 },
		{ "truncated copy arguments", { 16, 4, 0x93, 1 }, 4 },
		{ "truncated header", { 0x90 }, 1 },
		{ "endless size varint", { 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 12 },
		{ "copy of 64 KiB from a small base", { 16, 0x80, 0x80, 4,
			0x80 }, 5 },
	};

	ok(ms_pack_delta_apply(base, 16, good, sizeof(good),
			       MS_PACK_BLOB, 1024, &o) == 0 &&
	   o->len == 7 && !memcmp(o->data, "2345xyz", 8),
	   "a delta copies and inserts");
	ms_pack_obj_unref(o);
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		o = (void *)1;
		ok(ms_pack_delta_apply(base, 16, bad[i].d, bad[i].len,
				       MS_PACK_BLOB, 1 << 20, &o) ==
		   MS_EPARSE && !o, bad[i].what);
	}
	o = (void *)1;
	ok(ms_pack_delta_apply(base, 16, good, sizeof(good), MS_PACK_BLOB,
			       6, &o) == MS_EPARSE && !o,
	   "a result over the bound is refused");
}

static char *only_pack(const char *git, const char *ext)
{
	char *dir = g_build_filename(git, "objects", "pack", NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	char *found = NULL;

	while (d && (name = g_dir_read_name(d)))
		if (g_str_has_suffix(name, ext) && !found)
			found = g_build_filename(dir, name, NULL);
	if (d)
		g_dir_close(d);
	g_free(dir);
	return found;
}

/* Flip bytes all through a copy of the pack; each read must give the
 * right object or an error, and some must give errors. */
static void test_damage(const char *git, GHashTable *truth)
{
	char *pack = only_pack(git, ".pack");
	char *objdir = g_build_filename(git, "objects", NULL);
	char *contents = NULL;
	gsize len = 0;
	size_t errors = 0, wrong = 0, rounds = 0;

	if (!ok(pack && g_file_get_contents(pack, &contents, &len, NULL),
		"the pack can be read")) {
		g_free(objdir);
		return;
	}
	for (size_t pos = 12; pos < len - 20; pos += len / 97 + 1) {
		struct read_all a = { 0 };
		char saved = contents[pos];

		contents[pos] ^= 0x5a;
		g_chmod(pack, 0644);
		if (!g_file_set_contents(pack, contents, (gssize)len, NULL))
			break;
		contents[pos] = saved;
		if (ms_packs_open(objdir, 4096, &a.ps) < 0)
			continue;
		a.truth = truth;
		read_all(&a);
		ms_packs_free(a.ps);
		errors += a.failed;
		wrong += a.wrong;
		rounds++;
	}
	ok(rounds > 90, "the pack damaged at 97 places was read each time");
	ok(errors > rounds / 2, "damage gives errors");
	printf("# %zu rounds: %zu errors, %zu objects read differently "
	       "(a flipped type or size bit that still inflates)\n",
	       rounds, errors, wrong);
	/* cut short: the objects past the cut are errors, the rest read */
	{
		struct read_all a = { 0 };

		g_file_set_contents(pack, contents, (gssize)(len / 2), NULL);
		ok(ms_packs_open(objdir, 0, &a.ps) == 0,
		   "a pack cut short opens");
		a.truth = truth;
		if (a.ps)
			read_all(&a);
		ms_packs_free(a.ps);
		ok(a.read > 0 && a.read < g_hash_table_size(truth) &&
		   a.failed + a.missing > 0 && !a.wrong,
		   "a pack cut short reads what it holds, errors for the rest");
	}
	g_file_set_contents(pack, contents, (gssize)len, NULL);
	g_free(contents);
	g_free(pack);
	g_free(objdir);
}

/* An index that lies: bad magic, fan-out going down, a large offset
 * past its table.  The pack is then left out, not misread. */
static void test_bad_idx(const char *git)
{
	char *idx = only_pack(git, ".idx");
	char *objdir = g_build_filename(git, "objects", NULL);
	char *contents = NULL;
	gsize len = 0;
	struct ms_packs *ps = NULL;

	if (!ok(idx && g_file_get_contents(idx, &contents, &len, NULL),
		"the index can be read"))
		return;
	g_chmod(idx, 0644);
	contents[1] ^= 1;
	g_file_set_contents(idx, contents, (gssize)len, NULL);
	ok(ms_packs_open(objdir, 0, &ps) == MS_ENOTFOUND && !ps,
	   "an index with bad magic is left out");
	contents[1] ^= 1;
	contents[8 + 4 * 100 + 3] ^= 0x7f;   /* fan-out[100], low byte */
	contents[8 + 4 * 100 + 2] ^= 0x7f;
	g_file_set_contents(idx, contents, (gssize)len, NULL);
	ok(ms_packs_open(objdir, 0, &ps) == MS_ENOTFOUND && !ps,
	   "an index whose fan-out goes down is left out");
	g_file_set_contents(idx, contents, (gssize)len - 7, NULL);
	ok(ms_packs_open(objdir, 0, &ps) == MS_ENOTFOUND && !ps,
	   "an index cut short is left out");
	g_free(contents);
	g_free(idx);
	g_free(objdir);
}

int main(void)
{
	char *dir = g_dir_make_tmp("ms-pack-XXXXXX", NULL);
	char *git = g_build_filename(dir, "ofs.git", NULL);
	char *ref = g_build_filename(dir, "ref.git", NULL);
	char *bad = g_build_filename(dir, "bad.git", NULL);
	GHashTable *truth;
	struct ms_pack_stats st;
	struct ms_packs *ps = NULL;
	struct ms_pack_reader *r;
	struct ms_pack_obj *o = NULL;
	unsigned char none[20] = { 0 };
	uint64_t ofs;

	test_deltas();
	if (!ok(dir && make_repo(git) == 0, "test repository built"))
		return test_done();
	ok(run("git --git-dir='%s' repack -q -adf --depth=50 --window=50 %s",
	       git, "") == 0, "repacked with long chains");
	truth = git_objects(git);
	ok(g_hash_table_size(truth) > 1000, "git lists the objects");

	check_all(git, truth, 0, 1, "OFS_DELTA, default cache", &st);
	ofs = st.ofs_deltas;
	ok(st.ofs_deltas > g_hash_table_size(truth) / 4 && !st.ref_deltas,
	   "OFS_DELTA chains were followed");
	check_all(git, truth, 8192, 1, "OFS_DELTA, 8 KiB cache", &st);
	ok(st.evicted > 0 && st.cache_bytes <= 8192,
	   "a small cache evicts and keeps its budget");
	ok(st.ofs_deltas > ofs + ofs / 2,
	   "with little cache, chains are followed to their base");
	check_all(git, truth, 64 << 10, 4, "4 threads sharing a cache", &st);
	test_once_and_drop(git, truth);

	ok(run("cp -r '%s' '%s'", git, ref) == 0 &&
	   run("git --git-dir='%s' -c repack.useDeltaBaseOffset=false "
	       "repack -q -adf --depth=50 --window=50 %s", ref, "") == 0,
	   "repacked with REF_DELTA");
	check_all(ref, truth, 0, 2, "REF_DELTA", &st);
	ok(st.ref_deltas > g_hash_table_size(truth) / 4 && !st.ofs_deltas,
	   "REF_DELTA chains were followed");

	/* a second pack beside the first, and a loose object */
	ok(run("echo 'a loose blob' | git --git-dir='%s' hash-object -w "
	       "--stdin >/dev/null %s", git, "") == 0, "a loose object");
	ok(run("cd '%s' && git --git-dir=. -c fastimport.unpackLimit=0 fast-import --quiet <<'EOF'\n"
	       "commit refs/heads/other\nmark :1\n"
	       "committer B <b@example.org> 1700000000 +0000\n"
	       "data 2\nhi\nM 100644 inline n.txt\ndata 3\nnew\n\nEOF\n%s",
	       git, "") == 0, "a second pack");
	g_hash_table_destroy(truth);
	truth = git_objects(git);
	{
		char *objdir = g_build_filename(git, "objects", NULL);
		struct read_all a = { 0 };

		ms_packs_open(objdir, 0, &a.ps);
		ms_packs_stats(a.ps, &st);
		ok(st.nr_packs == 2, "two packs opened");
		a.truth = truth;
		read_all(&a);
		ok(a.missing == 1 && a.read == g_hash_table_size(truth) - 1 &&
		   !a.wrong && !a.failed,
		   "objects of both packs read; the loose one not found");
		r = ms_pack_reader_new(a.ps);
		ok(ms_pack_read(r, none, &o) == MS_ENOTFOUND && !o,
		   "an id in no pack is not found");
		ms_pack_reader_free(r);
		ms_packs_free(a.ps);
		g_free(objdir);
	}

	ok(run("git init -q --bare '%s' %s", bad, "") == 0 &&
	   run("cp '%s'/objects/pack/* '%s'/objects/pack/", ref, bad) == 0,
	   "a copy to damage");
	test_damage(bad, truth);
	test_bad_idx(bad);
	ok(ms_packs_open(dir, 0, &ps) == MS_ENOTFOUND && !ps,
	   "no pack directory: not found");

	g_hash_table_destroy(truth);
	run("rm -rf '%s' %s", dir, "");
	g_free(git);
	g_free(ref);
	g_free(bad);
	g_free(dir);
	return test_done();
}
