/* mhf.c - message handlers (pvm_addmhf, pvm_delmhf) and the mailbox listing
 * (pvm_getmboxinfo) in the PVM front end.
 *
 * Every virtualised message travels inside the layer's wrapper (wire.c).
 * libpvm hands a message that a handler matches straight to the handler, in
 * whatever PVM call is running when it arrives, so a handler registered with
 * libpvm would see the wrapper (pvm-examples' mhf_server printed the layer's
 * magic number instead of its string) and the layer would never count the
 * message as received (under virtual order the next receive then waited for
 * it for ever).  So the layer registers one trampoline for each of the
 * program's handlers, keeps the program's handlers in a table matched as
 * libpvm matches them (the latest that accepts source, tag and context), and
 * hands the program the message unwrapped: counted as received, as the
 * active receive buffer, the wrapper freed.  The handler runs at the
 * receiver's clock (a handled message is not timed and not in the
 * receiver's trace: the sender's trace shows its send).  libpvm's own
 * handlers (system contexts, installed while a task enrols) pass straight
 * through and never start the layer.
 */
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

typedef int (*mhf_fn)(int);

static struct mhf {
	int src, tag, ctx, id;
	mhf_fn f;
} *tab;
static int ntab, cap;
static int (*real_addmhf)(int, int, int, mhf_fn);
static int (*real_delmhf)(int);

/* libpvm's system contexts (pvmproto.h: SYSCTX_TC = 0x7ffff, then TM, SG,
 * DG and reserved ones counting down) lie at the top of the 20-bit context
 * space; pvm_newcontext hands out contexts from the bottom */
#define SYS_CTX_LOW 0x7fff0

static void resolve(void)
{
	if (!real_addmhf) {
		real_addmhf = (int (*)(int, int, int, mhf_fn))vlpvm_sym("pvm_addmhf");
		real_delmhf = (int (*)(int))vlpvm_sym("pvm_delmhf");
	}
}

/* libpvm calls this with message mid as the active receive buffer (and
 * restores the program's buffers afterwards, freeing the receive buffer of
 * the moment). */
static int trampoline(int mid)
{
	struct pvmminfo mi;
	struct vlpvm_hdr h;
	const char *why;
	int i, w, inner = mid, r;

	vlpvm_real_pvm_getminfo(mid, &mi);
	for (i = ntab - 1; i >= 0; i--)
		if ((tab[i].tag == -1 || tab[i].tag == mi.tag) &&
		    (tab[i].ctx == -1 || tab[i].ctx == mi.ctx) &&
		    (tab[i].src == -1 || tab[i].src == mi.src))
			break;
	if (i < 0)
		return 0;
	w = vlpvm_unwrap_hdr(&mi, &h);
	if (w < 0)
		vli_error(2, "t%x cannot decode the message from t%x (tag %d, context %d) for its "
			  "message handler: its vlayer header is damaged",
			  (unsigned)vli_t.id, (unsigned)mi.src, mi.tag, mi.ctx);
	if (w > 0) {
		if (h.mine && h.announced)
			vli_order_received_in(vlpvm_class_of(mi.ctx, vlpvm_base_ctx));
		inner = vlpvm_unwrap_msg(&mi, &why);
		if (inner <= 0)
			vli_error(2, "t%x cannot decode the message from t%x (tag %d, context %d) "
				  "for its message handler: %s", (unsigned)vli_t.id,
				  (unsigned)mi.src, mi.tag, mi.ctx, why);
		vlpvm_real_pvm_setrbuf(inner);
		vlpvm_real_pvm_freebuf(mid);
	}
	vli_depth++; /* the handler's PVM calls go straight to libpvm */
	r = tab[i].f(inner);
	vli_depth--;
	return r;
}

int pvm_addmhf(int src, int tag, int ctx, mhf_fn f)
{
	struct mhf *t;
	int id;

	resolve();
	if (vli_depth || ctx >= SYS_CTX_LOW)
		return real_addmhf(src, tag, ctx, f);
	if (ntab == cap) {
		int c = cap ? 2 * cap : 16;
		if (!(t = realloc(tab, (size_t)c * sizeof *t)))
			return PvmNoMem;
		tab = t;
		cap = c;
	}
	id = real_addmhf(src, tag, ctx, trampoline);
	if (id < 0)
		return id;
	tab[ntab].src = src;
	tab[ntab].tag = tag;
	tab[ntab].ctx = ctx;
	tab[ntab].id = id;
	tab[ntab].f = f;
	ntab++;
	return id;
}

int pvm_delmhf(int mhid)
{
	int i, cc;

	resolve();
	cc = real_delmhf(mhid);
	if (cc < 0)
		return cc;
	for (i = 0; i < ntab; i++)
		if (tab[i].id == mhid) {
			memmove(tab + i, tab + i + 1, (size_t)(ntab - i - 1) * sizeof *tab);
			ntab--;
			break;
		}
	return cc;
}

/* The mailbox as the program sees it: without the layer's own entries
 * (vlayer.TID: each task's virtual host, tasks.c). */
int vlpvm_getmboxinfo(char *pattern, int *nclasses, struct pvmmboxinfo **classes)
{
	int cc = vlpvm_real_pvm_getmboxinfo(pattern, nclasses, classes), i, n = 0;

	if (cc < 0 || !nclasses || !classes || !*classes)
		return cc;
	for (i = 0; i < *nclasses; i++)
		if (strncmp((*classes)[i].mi_name, "vlayer.", 7) != 0)
			(*classes)[n++] = (*classes)[i];
	*nclasses = n;
	return cc;
}
