/*
 * The byte codec (bytes.h): varints at every width and their known LEB128
 * bytes, zigzag signed values at the extremes, fixed little-endian bytes,
 * strings, hex ids; and a reader that stays failed after the first byte
 * out of place (cut short anywhere, a varint over 64 bits, a NUL in a
 * string, a length past the end).
 */
#include "test.h"
#include "bytes.h"

#include <glib.h>
#include <string.h>

static void encode(GByteArray *b)
{
	ms_put_var(b, 0);
	ms_put_var(b, 127);
	ms_put_var(b, 128);
	ms_put_var(b, UINT64_MAX);
	ms_put_svar(b, -1);
	ms_put_svar(b, INT64_MIN);
	ms_put_svar(b, INT64_MAX);
	ms_put_le(b, 0x0102030405060708ull, 8);
	ms_put_le(b, 0xa1b2c3d4, 4);
	ms_put_str(b, "héllo");
	ms_put_str(b, NULL);
}

/* Decode what encode() wrote; true when every value came back. */
static bool decode(struct ms_rd *r)
{
	char *s1, *s2;
	bool same = ms_get_var(r) == 0 && ms_get_var(r) == 127 &&
		ms_get_var(r) == 128 && ms_get_var(r) == UINT64_MAX &&
		ms_get_svar(r) == -1 && ms_get_svar(r) == INT64_MIN &&
		ms_get_svar(r) == INT64_MAX &&
		ms_get_le(r, 8) == 0x0102030405060708ull &&
		ms_get_le(r, 4) == 0xa1b2c3d4;

	s1 = ms_get_str(r);
	s2 = ms_get_str(r);
	same = same && s1 && !strcmp(s1, "héllo") && s2 && !*s2;
	g_free(s1);
	g_free(s2);
	return same && r->ok;
}

int main(void)
{
	GByteArray *b = g_byte_array_new();
	static const guint8 var300[] = { 0xac, 0x02 };
	static const guint8 le[] = { 8, 7, 6, 5, 4, 3, 2, 1 };
	size_t bad = 0;

	ms_put_var(b, 300);
	ok(b->len == 2 && !memcmp(b->data, var300, 2), "300 is ac 02");
	g_byte_array_set_size(b, 0);
	encode(b);
	{
		struct ms_rd r = MS_RD_INIT(b->data, b->len);

		ok(decode(&r) && ms_rd_done(&r), "every value back, whole");
	}
	{
		/* the fixed bytes sit after 1+1+2+10 varint bytes and
		 * 1+10+10 zigzag ones */
		ok(!memcmp(b->data + 35, le, 8), "little-endian bytes");
	}
	for (guint n = 0; n < b->len; n++) {
		struct ms_rd r = MS_RD_INIT(b->data, n);

		bad += decode(&r) || r.ok;
	}
	is_int(bad, 0, "cut short anywhere: the reader fails and stays so");
	{
		static const guint8 over[] = { 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0xff, 0xff,
					       0x01 };
		static const guint8 nul[] = { 3, 'a', 0, 'b', 1 };
		static const guint8 past[] = { 9, 'a' };
		struct ms_rd r = MS_RD_INIT(over, sizeof(over));
		struct ms_rd z = MS_RD_INIT(nul, sizeof(nul));
		struct ms_rd p = MS_RD_INIT(past, sizeof(past));
		char *s;

		ms_get_var(&r);
		ok(!r.ok, "a varint over 64 bits fails");
		s = ms_get_str(&z);
		ok(!s && !z.ok && ms_get_var(&z) == 0, "a NUL in a string "
		   "fails, and the reader stays failed");
		ok(!ms_get_str(&p) && !p.ok, "a length past the end fails");
	}
	{
		guint8 raw[20], back[20];
		char hex[41];

		for (int i = 0; i < 20; i++)
			raw[i] = (guint8)(i * 13 + 7);
		ms_hex(raw, 20, hex);
		is_str(hex, "0714212e3b4855626f7c8996a3b0bdcad7e4f1fe",
		       "hex of 20 bytes");
		ok(ms_unhex(hex, 20, back) && !memcmp(raw, back, 20),
		   "and back");
		ok(ms_unhex("0A", 1, back) && back[0] == 10,
		   "upper case reads");
		ok(!ms_unhex("0g", 1, back), "no hex digit");
	}
	g_byte_array_free(b, TRUE);
	return test_done();
}
