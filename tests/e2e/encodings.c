/* encodings.c - what a PVM message carries, for every encoding x route x pack
 * type, with pvm_send, pvm_psend/pvm_precv and pvm_mcast; run by
 * tests/e2e/test_pvm_encodings.sh, once natively and once under the layer.
 * Prints data lines ("case", "big", "mcast", "psend": must be the same in
 * both runs) and time lines ("dt ...", virtual ns under the layer, checked
 * against the model).
 *
 *   encodings                 the parent: spawns itself twice ("child")
 *   encodings forge MODE PROG the parent of a forger: spawns PROG (the native
 *                             build) as "forger MODE", which sends it a
 *                             damaged layer message, and receives that
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NITEM 3
#define NBIG_I 50000
#define NBIG_D 20000
#define NBIG_B 1001

enum { T_GO = 1, T_DATA, T_MCREPLY, T_PSGO, T_PS, T_BIG, T_END, T_FORGED, T_MC = 100 };
enum { E_DEFAULT, E_RAW, E_INPLACE, NENC };

static const int encs[NENC] = { PvmDataDefault, PvmDataRaw, PvmDataInPlace };
static const char *const enc_name[NENC] = { "default", "raw", "inplace" };
static const char *const route_name[2] = { "default", "direct" };

static const struct {
	const char *name;
	int pvmtype;
} types[] = {
	{ "byte", PVM_BYTE }, { "short", PVM_SHORT }, { "int", PVM_INT }, { "long", PVM_LONG },
	{ "float", PVM_FLOAT }, { "double", PVM_DOUBLE }, { "cplx", PVM_CPLX },
	{ "dcplx", PVM_DCPLX }, { "str", PVM_STR }, { "uint", PVM_UINT },
	{ "ushort", PVM_USHORT }, { "ulong", PVM_ULONG },
};
#define NTYPE ((int)(sizeof types / sizeof types[0]))
enum { Y_BYTE, Y_SHORT, Y_INT, Y_LONG, Y_FLOAT, Y_DOUBLE, Y_CPLX, Y_DCPLX, Y_STR, Y_UINT, Y_USHORT,
       Y_ULONG };

struct vals {
	char b[NITEM];
	short s[NITEM];
	int i[NITEM];
	long l[NITEM];
	float f[NITEM];
	double d[NITEM];
	float c[2 * NITEM];
	double z[2 * NITEM];
	char str[16];
	unsigned int ui[NITEM];
	unsigned short us[NITEM];
	unsigned long ul[NITEM];
};

static long long now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* the values, k = 0 when packed, 10 after packing (before the send), 100
 * after the send: a message packed in place carries those of the send */
static void fill(struct vals *v, int k)
{
	int n;

	memset(v, 0, sizeof *v);
	for (n = 0; n < NITEM; n++) {
		v->b[n] = (char)('A' + n + k / 10);
		v->s[n] = (short)(-1234 + n + k);
		v->i[n] = -100000 + n + k;
		v->l[n] = -123456789L + n + k;
		v->f[n] = 1.5f + (float)(n + k);
		v->d[n] = -2.25 + 1e6 * n + k;
		v->c[2 * n] = 0.5f + (float)(n + k);
		v->c[2 * n + 1] = -0.25f - (float)(n + k);
		v->z[2 * n] = 1e-3 * n + k;
		v->z[2 * n + 1] = -1e9 - n - k;
		v->ui[n] = 4000000000u + (unsigned)(n + k);
		v->us[n] = (unsigned short)(60000 + n + k);
		v->ul[n] = 3000000000ul + (unsigned long)(n + k);
	}
	snprintf(v->str, sizeof v->str, "str%d", k);
}

static void *item_ptr(int t, struct vals *v)
{
	void *const p[NTYPE] = { v->b, v->s, v->i,   v->l,  v->f,  v->d,
				 v->c, v->z, v->str, v->ui, v->us, v->ul };
	return p[t];
}

static int pack(int t, struct vals *v)
{
	switch (t) {
	case Y_BYTE: return pvm_pkbyte(v->b, NITEM, 1);
	case Y_SHORT: return pvm_pkshort(v->s, NITEM, 1);
	case Y_INT: return pvm_pkint(v->i, NITEM, 1);
	case Y_LONG: return pvm_pklong(v->l, NITEM, 1);
	case Y_FLOAT: return pvm_pkfloat(v->f, NITEM, 1);
	case Y_DOUBLE: return pvm_pkdouble(v->d, NITEM, 1);
	case Y_CPLX: return pvm_pkcplx(v->c, NITEM, 1);
	case Y_DCPLX: return pvm_pkdcplx(v->z, NITEM, 1);
	case Y_STR: return pvm_pkstr(v->str);
	case Y_UINT: return pvm_pkuint(v->ui, NITEM, 1);
	case Y_USHORT: return pvm_pkushort(v->us, NITEM, 1);
	default: return pvm_pkulong(v->ul, NITEM, 1);
	}
}

static int unpack(int t, struct vals *v)
{
	switch (t) {
	case Y_BYTE: return pvm_upkbyte(v->b, NITEM, 1);
	case Y_SHORT: return pvm_upkshort(v->s, NITEM, 1);
	case Y_INT: return pvm_upkint(v->i, NITEM, 1);
	case Y_LONG: return pvm_upklong(v->l, NITEM, 1);
	case Y_FLOAT: return pvm_upkfloat(v->f, NITEM, 1);
	case Y_DOUBLE: return pvm_upkdouble(v->d, NITEM, 1);
	case Y_CPLX: return pvm_upkcplx(v->c, NITEM, 1);
	case Y_DCPLX: return pvm_upkdcplx(v->z, NITEM, 1);
	case Y_STR: return pvm_upkstr(v->str);
	case Y_UINT: return pvm_upkuint(v->ui, NITEM, 1);
	case Y_USHORT: return pvm_upkushort(v->us, NITEM, 1);
	default: return pvm_upkulong(v->ul, NITEM, 1);
	}
}

/* the values of type t as text */
static void show(int t, const struct vals *v, char *out, size_t size)
{
	size_t at = 0;
	int n;

	out[0] = 0;
	if (t == Y_STR) {
		snprintf(out, size, "%s", v->str);
		return;
	}
	for (n = 0; n < NITEM && at < size; n++) {
		switch (t) {
		case Y_BYTE: at += snprintf(out + at, size - at, "%c,", v->b[n]); break;
		case Y_SHORT: at += snprintf(out + at, size - at, "%d,", v->s[n]); break;
		case Y_INT: at += snprintf(out + at, size - at, "%d,", v->i[n]); break;
		case Y_LONG: at += snprintf(out + at, size - at, "%ld,", v->l[n]); break;
		case Y_FLOAT: at += snprintf(out + at, size - at, "%.9g,", v->f[n]); break;
		case Y_DOUBLE: at += snprintf(out + at, size - at, "%.17g,", v->d[n]); break;
		case Y_CPLX:
			at += snprintf(out + at, size - at, "%.9g%+.9gi,", v->c[2 * n],
				       v->c[2 * n + 1]);
			break;
		case Y_DCPLX:
			at += snprintf(out + at, size - at, "%.17g%+.17gi,", v->z[2 * n],
				       v->z[2 * n + 1]);
			break;
		case Y_UINT: at += snprintf(out + at, size - at, "%u,", v->ui[n]); break;
		case Y_USHORT: at += snprintf(out + at, size - at, "%u,", v->us[n]); break;
		default: at += snprintf(out + at, size - at, "%lu,", v->ul[n]); break;
		}
	}
}

/* do the values of type t in a and b agree? */
static int same(int t, const struct vals *a, const struct vals *b)
{
	char x[256], y[256];
	show(t, a, x, sizeof x);
	show(t, b, y, sizeof y);
	return !strcmp(x, y);
}

/* what a received buffer's encoding is: "xdr", "native" (this machine's raw
 * data format) or its number */
static const char *enc_of(int buf)
{
	static char s[32];
	struct pvmminfo mi, ri;
	int r = pvm_mkbuf(PvmDataRaw);

	pvm_getminfo(buf, &mi);
	pvm_getminfo(r, &ri);
	pvm_freebuf(r);
	if (mi.enc == 0x10000000)
		return "xdr";
	if (mi.enc == ri.enc)
		return "native";
	snprintf(s, sizeof s, "0x%x", (unsigned)mi.enc);
	return s;
}

static void send3(int to, int tag, int a, int b, int c)
{
	int v[3] = { a, b, c };
	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 3, 1);
	pvm_send(to, tag);
}

struct big {
	int i[NBIG_I];
	double d[NBIG_D];
	char b[NBIG_B];
};

static void big_fill(struct big *g, int k)
{
	int n;
	for (n = 0; n < NBIG_I; n++)
		g->i[n] = n * 7 + k;
	for (n = 0; n < NBIG_D; n++)
		g->d[n] = n * 0.5 + k;
	for (n = 0; n < NBIG_B; n++)
		g->b[n] = (char)(n + k);
}

/* ---- the children ---- */

static void child(void)
{
	static struct big g;
	int up = pvm_parent(), b, len, tag, src, v[3];
	struct vals x, y;
	char text[256];

	for (;;) {
		b = pvm_recv(up, -1);
		pvm_bufinfo(b, &len, &tag, &src);
		if (tag == T_END)
			break;
		if (tag >= T_MC) { /* a multicast: unpack it, report */
			int e = (tag - T_MC) / 16, t = (tag - T_MC) % 16, r[3];
			double tm = (double)now();
			memset(&x, 0, sizeof x);
			r[0] = len;
			r[1] = unpack(t, &x);
			fill(&y, e == E_INPLACE ? 10 : 0);
			r[2] = r[1] >= 0 && same(t, &x, &y);
			show(t, &x, text, sizeof text);
			pvm_initsend(PvmDataDefault);
			pvm_pkint(r, 3, 1);
			pvm_pkdouble(&tm, 1, 1);
			pvm_pkstr(text);
			pvm_pkstr((char *)enc_of(b));
			pvm_send(up, T_MCREPLY);
			continue;
		}
		pvm_upkint(v, 3, 1); /* route, encoding, type */
		if (v[0])
			pvm_setopt(PvmRoute, PvmRouteDirect);
		if (tag == T_GO) {
			pvm_initsend(encs[v[1]]);
			fill(&x, 0);
			pack(v[2], &x);
			if (v[1] == E_INPLACE)
				fill(&x, 10);
			pvm_send(up, T_DATA);
			fill(&x, 100);
		} else if (tag == T_BIG) {
			pvm_initsend(encs[v[1]]);
			big_fill(&g, 0);
			pvm_pkint(g.i, NBIG_I, 1);
			pvm_pkdouble(g.d, NBIG_D, 1);
			pvm_pkbyte(g.b, NBIG_B, 1);
			if (v[1] == E_INPLACE)
				big_fill(&g, 10);
			pvm_send(up, T_BIG);
			big_fill(&g, 100);
		} else if (tag == T_PSGO) {
			fill(&x, 0);
			pvm_psend(up, T_PS, item_ptr(v[2], &x), NITEM, types[v[2]].pvmtype);
			fill(&x, 100);
		}
	}
	pvm_exit();
}

/* ---- the parent ---- */

static void one_case(int kid, int r, int e, int t)
{
	struct vals x, y;
	char text[256];
	int b, len, tag, src, cc;
	long long t0 = now(), t1;

	send3(kid, T_GO, r, e, t);
	b = pvm_recv(kid, T_DATA);
	t1 = now();
	pvm_bufinfo(b, &len, &tag, &src);
	memset(&x, 0, sizeof x);
	cc = unpack(t, &x);
	fill(&y, e == E_INPLACE ? 10 : 0);
	show(t, &x, text, sizeof text);
	printf("case %s %s %s len %d enc %s cc %d ok %d val %s\n", route_name[r], enc_name[e],
	       types[t].name, len, enc_of(b), cc, cc >= 0 && same(t, &x, &y), text);
	printf("dt case %s %s %s %d %lld\n", route_name[r], enc_name[e], types[t].name, len,
	       t1 - t0);
}

static void big_case(int kid, int r, int e)
{
	static struct big g, w;
	int b, len, tag, src, cc, ok;
	long long t0 = now(), t1;

	send3(kid, T_BIG, r, e, 0);
	b = pvm_recv(kid, T_BIG);
	t1 = now();
	pvm_bufinfo(b, &len, &tag, &src);
	memset(&g, 0, sizeof g);
	cc = pvm_upkint(g.i, NBIG_I, 1);
	if (cc >= 0)
		cc = pvm_upkdouble(g.d, NBIG_D, 1);
	if (cc >= 0)
		cc = pvm_upkbyte(g.b, NBIG_B, 1);
	big_fill(&w, e == E_INPLACE ? 10 : 0);
	ok = cc >= 0 && !memcmp(&g, &w, sizeof g);
	printf("big %s %s len %d enc %s cc %d ok %d\n", route_name[r], enc_name[e], len, enc_of(b),
	       cc, ok);
	printf("dt big %s %s %d %lld\n", route_name[r], enc_name[e], len, t1 - t0);
}

static void mcast_case(const int *kid, int r, int e, int t)
{
	struct vals x;
	long long t0 = now(), t1;
	int k, res[3];
	double tm[2];
	char text[256], enc[32];

	pvm_initsend(encs[e]);
	fill(&x, 0);
	pack(t, &x);
	if (e == E_INPLACE)
		fill(&x, 10);
	pvm_mcast((int *)kid, 2, T_MC + e * 16 + t);
	t1 = now();
	fill(&x, 100);
	for (k = 0; k < 2; k++) {
		pvm_recv(kid[k], T_MCREPLY);
		pvm_upkint(res, 3, 1);
		pvm_upkdouble(&tm[k], 1, 1);
		pvm_upkstr(text);
		pvm_upkstr(enc);
		printf("mcast %s %s %s child %d len %d enc %s cc %d ok %d val %s\n", route_name[r],
		       enc_name[e], types[t].name, k, res[0], enc, res[1], res[2], text);
	}
	printf("dt mcast %s %s %s %d %lld %lld %lld\n", route_name[r], enc_name[e], types[t].name,
	       res[0], t1 - t0, (long long)tm[0] - t0, (long long)tm[1] - t0);
}

static void psend_case(int kid, int r, int t)
{
	struct vals x, y;
	char text[256];
	int rt = 0, rtag = 0, rlen = 0, cc, rb;
	long long t0 = now(), t1;

	memset(&x, 0, sizeof x);
	if (types[t].pvmtype == PVM_STR) { /* refused by libpvm: nothing travels */
		fill(&y, 0);
		cc = pvm_psend(kid, T_PS, y.str, NITEM, PVM_STR);
		printf("psend %s str send_cc %d recv_cc %d\n", route_name[r], cc,
		       pvm_precv(kid, T_PS, x.str, NITEM, PVM_STR, &rt, &rtag, &rlen));
		return;
	}
	send3(kid, T_PSGO, r, 0, t);
	rb = pvm_getrbuf();
	cc = pvm_precv(kid, T_PS, item_ptr(t, &x), NITEM, types[t].pvmtype, &rt, &rtag, &rlen);
	t1 = now();
	fill(&y, 0);
	show(t, &x, text, sizeof text);
	printf("psend %s %s cc %d rlen %d rtag %d from_child %d keeps_rbuf %d ok %d val %s\n",
	       route_name[r], types[t].name, cc, rlen, rtag, rt == kid, pvm_getrbuf() == rb,
	       cc >= 0 && same(t, &x, &y), text);
	printf("dt psend %s %s %d %lld\n", route_name[r], types[t].name, rlen, t1 - t0);
}

static int parent(const char *prog)
{
	char *args[] = { "child", NULL };
	int kid[2], r, e, t;

	if (pvm_spawn((char *)prog, args, PvmTaskDefault, "", 2, kid) != 2) {
		fprintf(stderr, "encodings: cannot spawn %s\n", prog);
		pvm_exit();
		return 1;
	}
	for (r = 0; r < 2; r++) {
		if (r)
			pvm_setopt(PvmRoute, PvmRouteDirect);
		for (e = 0; e < NENC; e++)
			for (t = 0; t < NTYPE; t++)
				one_case(kid[0], r, e, t);
		for (e = 0; e < NENC; e++)
			big_case(kid[0], r, e);
		for (e = 0; e < NENC; e++)
			for (t = 0; t < NTYPE; t++)
				mcast_case(kid, r, e, t);
		for (t = 0; t < NTYPE; t++)
			psend_case(kid[0], r, t);
	}
	send3(kid[0], T_END, 0, 0, 0);
	send3(kid[1], T_END, 0, 0, 0);
	pvm_exit();
	return 0;
}

/* ---- damaged layer messages ---- */

/* A wrapper as vlayer/pvm/wire.c builds it (wait id VLPVM_WID, header ints
 * VLPVM_MAGIC, flags, host, n, per destination tid, sequence, announced,
 * arrival high and low), damaged as mode says: "inplace" holds an in-place
 * buffer packed with pvm_pkmesg (what the layer sent before it copied such
 * buffers), "trunc" a packed message cut short, "header" fewer
 * destinations than it announces. */
static int forger(const char *mode)
{
	int to = pvm_parent(), in[3] = { 1, 2, 3 }, ib, w, hdr[4] = { 0x564c4159, 0, 0, 1 };
	int dst[5] = { to, 1, 0, 0, 0 };
	struct pvmminfo mi;

	ib = pvm_mkbuf(PvmDataInPlace);
	pvm_setsbuf(ib);
	pvm_pkint(in, 3, 1);
	w = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(w);
	if (!strcmp(mode, "header"))
		hdr[3] = 5;
	pvm_pkint(hdr, 4, 1);
	pvm_pkint(dst, 5, 1);
	if (!strcmp(mode, "inplace")) {
		pvm_pkmesg(ib);
	} else if (!strcmp(mode, "trunc")) {
		int cut[8] = { 100, 0, T_FORGED, 0, 0x10000000, 0, 0, 0 };
		pvm_pkint(cut, 8, 1);
	}
	pvm_getminfo(w, &mi);
	mi.wid = 0x564c;
	pvm_setminfo(w, &mi);
	pvm_send(to, T_FORGED);
	pvm_exit();
	return 0;
}

static int forged_parent(const char *mode, const char *prog)
{
	char *args[] = { "forger", (char *)mode, NULL };
	int kid, v[3] = { 0, 0, 0 }, cc;

	if (pvm_spawn((char *)prog, args, PvmTaskDefault, "", 1, &kid) != 1) {
		fprintf(stderr, "encodings: cannot spawn %s\n", prog);
		pvm_exit();
		return 1;
	}
	pvm_recv(kid, T_FORGED);
	cc = pvm_upkint(v, 3, 1);
	printf("forged %s cc %d val %d,%d,%d\n", mode, cc, v[0], v[1], v[2]);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "child")) {
		child();
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "forger"))
		return forger(argv[2]);
	if (argc > 3 && !strcmp(argv[1], "forge"))
		return forged_parent(argv[2], argv[3]);
	return parent(argv[0]);
}
