/* net_fixture.h - a VMConfig of n hosts joined by a [topology], for the unit
 * tests of the flow model (test_coll_links.c, test_flowtab.c): S = R = 0,
 * latency LAT, 100 MB/s = NSB ns per byte. */
#ifndef VL_NET_FIXTURE_H
#define VL_NET_FIXTURE_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "vlayer/core/engine.h"

#define LAT 10000          /* ns */
#define NSB 10             /* ns per byte: 100 MB/s */

/* n hosts h0.., S = R = 0, inter: LAT + 10 ns/byte, intra free, eager limit
 * eager, topology kind (duplex half if half). */
static inline void cfg_net(vlcfg_config *c, int n, int kind, int half, int64_t eager)
{
	int i;

	vlcfg_default(c);
	free(c->hosts);
	c->hosts = calloc((size_t)n, sizeof *c->hosts);
	ck_assert_ptr_nonnull(c->hosts);
	c->nhosts = n;
	for (i = 0; i < n; i++) {
		vlcfg_host *h = &c->hosts[i];

		snprintf(h->name, sizeof h->name, "h%d", i);
		h->procs = 1;
		h->send_delay = h->recv_delay = h->trans_delay = h->trans_per_kib_ps = VLCFG_UNSET;
	}
	c->inter.trans_delay = LAT;
	c->inter.trans_per_kib_ps = INT64_C(1000) * 1024 * NSB;
	c->mpi.eager_limit = eager;
	c->topo.kind = kind;
	c->topo.half_duplex = half;
}

#endif
