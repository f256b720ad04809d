/* wire.c - the PVM front end's wire format: how the layer's timing header is
 * packed around a user message and taken off again.  A message from a
 * virtualised task travels as a wrapper message (encoding PvmDataDefault,
 * minfo wid = VLPVM_WID) holding the header - ints VLPVM_MAGIC, flags, the
 * sender's virtual host, n, then per destination its tid, its sequence number,
 * whether it was announced on the board (virtual order) and its virtual
 * arrival time (two ints, high word first) - and the user's
 * message packed whole with pvm_pkmesg.  The receiver unpacks it with
 * pvm_upkmesg, gives the inner buffer the outer tag/source/context, and hands
 * the program exactly the buffer it sent.  Messages without the marker
 * (pvmd, the group server, untraced tasks) are delivered as they are.
 *
 * A buffer packed with PvmDataInPlace holds no data, only pointers into the
 * program's memory.  libpvm's pvm_send reads them when it sends and transmits
 * the message as raw data in the sender's format (lpvm.c: encoding
 * 0x20000000 goes out as the sender's data signature), but pvm_pkmesg copies
 * the in-place encoding word as it is - the receiver's pvm_upkmesg then makes
 * a buffer libpvm cannot decode ("Can't decode message") - and writes a length
 * of 0, since libpvm never totals a buffer that is not in pack mode, so that
 * pvm_upkmesg does not even take the data.  The sender therefore first copies
 * such a buffer into a PvmDataRaw one (vlpvm_inplace_copy), at the time of the
 * send, as pvm_send would read it.
 */
#include <stdint.h>
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

#define VLPVM_WID 0x564c          /* marks a wrapper message (minfo wait id) */
#define VLPVM_MAGIC 0x564c4159
/* libpvm's encoding word of a PvmDataInPlace buffer (pmsg.c, pmsg_setenc) */
#define VLPVM_ENC_INPLACE 0x20000000
/* pvm_pkmesg's header of a packed message: len, ctx, tag, wid, enc, crc, src,
 * dst (pmsg.c, pmsg_pack); then per fragment its length and its bytes */
#define VLPVM_PKMESG_HDR 8

void vlpvm_pk64(int64_t v)
{
	int w[2] = { (int)(uint32_t)((uint64_t)v >> 32), (int)(uint32_t)v };
	vlpvm_real_pvm_pkint(w, 2, 1);
}

int64_t vlpvm_upk64(void)
{
	int w[2] = { 0, 0 };
	vlpvm_real_pvm_upkint(w, 2, 1);
	return (int64_t)(((uint64_t)(uint32_t)w[0] << 32) | (uint32_t)w[1]);
}

/* The data of the packed message in the active receive buffer (raw, as
 * pvm_pkmesg wrote it): its fragments' bytes one after the other into data
 * (room for len bytes).  Returns their total, or PvmBadMsg. */
static int read_fragments(char *data, int len)
{
	int hdr[VLPVM_PKMESG_HDR], at = (int)sizeof hdr, got = 0, frl;

	if (vlpvm_real_pvm_upkint(hdr, VLPVM_PKMESG_HDR, 1) < 0)
		return PvmBadMsg;
	while (at < len) {
		if (vlpvm_real_pvm_upkint(&frl, 1, 1) < 0 || frl < 0 ||
		    frl > len - at - (int)sizeof frl)
			return PvmBadMsg;
		if (frl > 0 && vlpvm_real_pvm_upkbyte(data + got, frl, 1) < 0)
			return PvmBadMsg;
		got += frl;
		at += (int)sizeof frl + frl;
	}
	return got;
}

int vlpvm_inplace_copy(int ubuf)
{
	struct pvmminfo mi;
	int t, r, sb, rb, len = 0, got;
	char *data;

	if (ubuf <= 0 || vlpvm_real_pvm_getminfo(ubuf, &mi) < 0 || mi.enc != VLPVM_ENC_INPLACE)
		return ubuf;
	/* pvm_pkmesg into a raw buffer reads every fragment from the program's
	 * memory, now; the fragments are then taken out of it and packed again
	 * as the bytes of a raw message */
	t = vlpvm_real_pvm_mkbuf(PvmDataRaw);
	if (t < 0)
		return t;
	sb = vlpvm_real_pvm_setsbuf(t);
	got = vlpvm_real_pvm_pkmesg(ubuf);
	vlpvm_real_pvm_bufinfo(t, &len, NULL, NULL);
	rb = vlpvm_real_pvm_setrbuf(t);
	data = malloc(len > 0 ? (size_t)len : 1);
	if (got >= 0)
		got = data ? read_fragments(data, len) : PvmNoMem;
	r = vlpvm_real_pvm_mkbuf(PvmDataRaw);
	if (r > 0) {
		vlpvm_real_pvm_setsbuf(r);
		if (got > 0)
			got = vlpvm_real_pvm_pkbyte(data, got, 1);
		if (got < 0) {
			vlpvm_real_pvm_freebuf(r);
			r = got;
		}
	}
	free(data);
	vlpvm_real_pvm_setrbuf(rb);
	vlpvm_real_pvm_freebuf(t);
	vlpvm_real_pvm_setsbuf(sb);
	return r;
}

int vlpvm_wrap(int ubuf, const struct vlpvm_dest *d, int n, int flags)
{
	int w = vlpvm_real_pvm_mkbuf(PvmDataDefault), hdr[4], i;
	struct pvmminfo mi;

	vlpvm_real_pvm_setsbuf(w);
	hdr[0] = VLPVM_MAGIC;
	hdr[1] = flags;
	hdr[2] = vli_t.host;
	hdr[3] = n;
	vlpvm_real_pvm_pkint(hdr, 4, 1);
	for (i = 0; i < n; i++) {
		int v[3] = { d[i].tid, (int)d[i].seq, d[i].announced };
		vlpvm_real_pvm_pkint(v, 3, 1);
		vlpvm_pk64(d[i].arrival);
	}
	vlpvm_real_pvm_pkmesg(ubuf);
	vlpvm_real_pvm_getminfo(w, &mi);
	mi.wid = VLPVM_WID;
	vlpvm_real_pvm_setminfo(w, &mi);
	return w;
}

int vlpvm_unwrap_hdr(const struct pvmminfo *mi, struct vlpvm_hdr *h)
{
	int hdr[4] = { 0, 0, 0, 0 }, i;

	if (mi->wid != VLPVM_WID || vlpvm_real_pvm_upkint(hdr, 4, 1) < 0 || hdr[0] != VLPVM_MAGIC)
		return 0;
	h->mine = 0;
	h->announced = 0;
	h->seq = 0;
	h->arrival = INT64_MIN;
	if (hdr[3] < 0)
		return -1;
	for (i = 0; i < hdr[3]; i++) {
		int v[3], w[2];
		int64_t arr;
		if (vlpvm_real_pvm_upkint(v, 3, 1) < 0 || vlpvm_real_pvm_upkint(w, 2, 1) < 0)
			return -1;
		arr = (int64_t)(((uint64_t)(uint32_t)w[0] << 32) | (uint32_t)w[1]);
		if (v[0] == vli_t.id) {
			h->seq = (uint32_t)v[1];
			h->announced = v[2];
			h->arrival = arr;
			h->mine = 1;
		}
	}
	h->internal = hdr[1] & VLPVM_HDR_INTERNAL;
	h->src_host = hdr[2];
	return 1;
}

int vlpvm_unwrap_msg(const struct pvmminfo *mi, const char **why)
{
	int b = vlpvm_real_pvm_upkmesg();
	struct pvmminfo im;

	*why = NULL;
	if (b <= 0) {
		*why = "the user's message in it is incomplete (pvm_upkmesg failed)";
		return b < 0 ? b : PvmBadMsg;
	}
	vlpvm_real_pvm_getminfo(b, &im);
	if (im.enc == VLPVM_ENC_INPLACE) {
		/* a sender that packed an in-place buffer unconverted */
		vlpvm_real_pvm_freebuf(b);
		*why = "the user's message in it was packed with PvmDataInPlace and sent "
		       "without its data";
		return PvmBadMsg;
	}
	im.tag = mi->tag;
	im.src = mi->src;
	im.ctx = mi->ctx;
	/* (im.wid: the sender's wait id, kept as libpvm delivers it) */
	vlpvm_real_pvm_setminfo(b, &im);
	return b;
}
