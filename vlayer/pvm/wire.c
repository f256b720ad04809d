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
 */
#include <stdint.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

#define VLPVM_WID 0x564c          /* marks a wrapper message (minfo wait id) */
#define VLPVM_MAGIC 0x564c4159

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
	if (ubuf > 0)
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
	for (i = 0; i < hdr[3]; i++) {
		int v[3];
		int64_t arr;
		vlpvm_real_pvm_upkint(v, 3, 1);
		arr = vlpvm_upk64();
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

int vlpvm_unwrap_msg(const struct pvmminfo *mi)
{
	int b = vlpvm_real_pvm_upkmesg();

	if (b > 0) {
		struct pvmminfo im;
		vlpvm_real_pvm_getminfo(b, &im);
		im.tag = mi->tag;
		im.src = mi->src;
		im.ctx = mi->ctx;
		im.wid = 0;
		vlpvm_real_pvm_setminfo(b, &im);
	} else {
		b = vlpvm_real_pvm_mkbuf(PvmDataDefault); /* empty user message */
	}
	return b;
}
