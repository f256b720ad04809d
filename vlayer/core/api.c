/* api.c - the public vlayer API (include/vlayer.h). */
#include <stdio.h>
#include <string.h>
#include "vlayer.h"
#include "vlayer/core/engine.h"

static void sync_clock(void)
{
	if (vli_t.ready && !vli_depth) {
		vli_enter();
		vli_leave();
	}
}

int64_t vl_time_ns(void)
{
	sync_clock();
	return vli_t.now;
}

double vl_time(void)
{
	return (double)vl_time_ns() * 1e-9;
}

void vl_components(int64_t *comp_ns, int64_t *comm_ns, int64_t *wait_ns)
{
	sync_clock();
	if (comp_ns)
		*comp_ns = vli_t.comp;
	if (comm_ns)
		*comm_ns = vli_t.comm;
	if (wait_ns)
		*wait_ns = vli_t.wait;
}

void vl_mark(int id, const char *label)
{
	sync_clock();
	if (id < 0)
		return;
	vli_trace_text(VL_EV_MARK, id, 0, vli_t.now, vli_t.now, 0, 0, label);
}

static int add_compute(int64_t ns)
{
	int64_t t0;
	sync_clock();
	t0 = vli_t.now;
	vli_compute(ns);
	vli_trace_msg(VL_EV_COMPUTE, -1, 0, 0, 0, t0, vli_t.now, 0, 0, 0);
	vli_order_tick();
	return 0;
}

int vl_compute(double seconds)
{
	if (!(seconds >= 0) || seconds > 1e9)
		return -1;
	return add_compute((int64_t)(seconds * 1e9 + 0.5));
}

int vl_compute_flops(double flops)
{
	double rate;
	if (!(flops >= 0) || vli_t.host < 0 || vli_t.host >= vli_t.cfg.nhosts)
		return -1;
	rate = vli_t.cfg.hosts[vli_t.host].flops;
	if (rate <= 0)
		return -1;
	return vl_compute(flops / rate);
}

int vl_set_param(const char *section, const char *key, const char *value)
{
	char err[512], text[24];
	sync_clock();
	if (vli_set_param(&vli_t.cfg, section, key, value, err, sizeof err) < 0) {
		vli_warn("vl_set_param [%s] %s: %s", section ? section : "?", key ? key : "?", err);
		return -1;
	}
	vli_order_model_changed();
	snprintf(text, sizeof text, "%s=%s", key, value);
	vli_trace_text(VL_EV_PARAM, -1, 0, vli_t.now, vli_t.now, 0, 0, text);
	return 0;
}

const char *vl_host_name(void)
{
	if (vli_t.host >= 0 && vli_t.host < vli_t.cfg.nhosts)
		return vli_t.cfg.hosts[vli_t.host].name;
	return "localhost";
}
