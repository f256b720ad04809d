# gen-raw.awk - writes the synthetic raw files of tests/golden/calib from known
# parameters (POSIX awk; the committed files are what the tests read, this
# script says where their numbers come from).
#
#   awk -v model=exact -f gen-raw.awk > exact/input.csv
#   awk -v model=noisy -f gen-raw.awk > noisy/input.csv   (2 % noise, seeded)
#   awk -v model=share -f gen-raw.awk > share/input.csv
#   awk -v model=share-half -f gen-raw.awk > share-half/input.csv
#   awk -v model=share-fifo -f gen-raw.awk > share-fifo/input.csv
#
# exact: link intra (PVM-like, oneway rows, every experiment):
#   send  S(n) = 0:1000ns, 4096:1256ns, 65536:16616ns, 4194304:532712ns
#   trans T(n) = 0:2000ns, 32768:18384ns, 4194304:1058768ns
#   recv  R = 500 ns at every size;  oneway = S + T + R;  rtt = 2 oneway
#   gap   1200 ns up to 1 KiB, then + 0.25 ns/B
#   contention k = 2: factor 1.5, k = 3: factor 2 (send phase k f S(n))
#   BSP   pattern r (0..4 = exchange, pingpong, onetoall, alltoone, alltoall),
#         p = 2, 4: T = (20000 + 5000 r + 1000 p) + (0.5 + 0.1 r + 0.01 p) h
#         barrier: 3000 ns (p = 2), 6000 ns (p = 4)
# link inter (MPI-like, rtt rows only, a rendezvous jump in the send time):
#   send  S(n) = 2000 + n/16 ns up to 48 KiB, 20000 + n/16 ns from 64 KiB
#   trans T(n) = 25000 + 8 n ns;  recv R = 800 ns;  rtt = 2 (S + T + R)
# noisy: the intra part of exact, each value times (1 + 0.02 z), z normal.
# share: link inter of a switch (full duplex, links of 100 MB/s = 10 ns/B, a
#   backplane of 250 MB/s = 4 ns/B, latency 25 us) measured with 4 tasks:
#   send S(n) = 2000 + n/16 ns, recv R = 800 ns, oneway = S + 25000 + 10 n + R;
#   share_* (sizes 0 and 4^0 .. 4^11): the closed forms of fit_share.h,
#   L + m max(c 10, g 4) ns (c, g: the flows on the busiest link and on the
#   backplane), plus what the experiment adds: S(0) + R, a start or reply
#   message (27800 ns) and 1000 ns per task beyond 2.
# share-half: share_* rows only, of a star with half-duplex links of 1 GB/s
#   (1 ns/B) and latency 5 us: 5000 + m c ns.
# share-fifo: share_* rows only, share_first included, of a star with
#   full-duplex links of 1 GB/s, latency 5 us and fifo sharing: 5000 + m c ns
#   (fifo: share_first's c is 1, the all-to-all's its rounds).

# the flows of a share_* experiment X with P tasks on the busiest link (HALF:
# of a half-duplex one) and through the backplane (fit_share.h's table)
function share_c(x, p, half) {
	if (model == "share-fifo" && x == "share_first") return 1
	if (model == "share-fifo" && x == "share_alltoall") return fifo_rounds(p)
	if (x == "share_exchange") return half ? 2 : 1
	if (x == "share_alltoall") return half ? 2 * (p - 1) : p - 1
	return p - 1
}
function share_g(x, p) {
	if (x == "share_exchange") return 2
	if (x == "share_alltoall") return p * (p - 1)
	return p - 1
}
# fifo, full duplex: the all-to-all of P hosts in rounds; in each, every flow
# not yet through, in the order (sender, receiver), goes if its sender's way
# out and its receiver's way in are free
function fifo_rounds(p,    a, b, r, n, went, bo, bi) {
	n = 0
	for (r = 0; n < p * (p - 1); r++) {
		split("", bo)
		split("", bi)
		for (a = 0; a < p; a++)
			for (b = 0; b < p; b++)
				if (a != b && !((a, b) in went) && !(a in bo) && !(b in bi)) {
					went[a, b] = bo[a] = bi[b] = 1
					n++
				}
	}
	return r
}
function share_rows(    i, n, x, p, c, g, t, half, nx) {
	half = model == "share-half"
	nx = split("share_exchange share_fanout share_fanin share_alltoall share_first", sx, " ")
	if (model != "share-fifo")
		nx = 4
	if (!half && model != "share-fifo")
		for (i = 0; i < ns; i++) {
			n = size[i]
			out("send", "inter", 2, n, 0, s_inter_lin(n))
			out("recv", "inter", 2, n, 0, 800)
			out("oneway", "inter", 2, n, 0, s_inter_lin(n) + 25000 + 10 * n + 800)
		}
	for (x = 1; x <= nx; x++)
		for (p = x >= 4 ? 3 : 2; p <= (x == 1 ? 2 : 4); p++)
			for (i = -1; i <= 11; i++) {
				n = i < 0 ? 0 : 4 ^ i
				c = share_c(sx[x], p, half)
				g = share_g(sx[x], p)
				if (half || model == "share-fifo")
					t = 5000 + n * c
				else
					t = 25000 + s_inter_lin(0) + 800 + 27800 + 1000 * (p - 2) + \
					    n * (c * 10 > g * 4 ? c * 10 : g * 4)
				out(sx[x], "inter", p, n, 0, t)
			}
}
function s_inter_lin(n) { return 2000 + n / 16 }

function s_intra(n) {
	if (n <= 4096) return 1000 + n / 16
	if (n <= 65536) return 1256 + (n - 4096) / 4
	return 16616 + (n - 65536) / 8
}
function t_intra(n) {
	if (n <= 32768) return 2000 + n / 2
	return 18384 + (n - 32768) / 4
}
function s_inter(n) { return n <= 49152 ? 2000 + n / 16 : 20000 + n / 16 }
function t_inter(n) { return 25000 + 8 * n }
function noise(v,    u, w) {
	if (model != "noisy") return v
	u = rand(); w = rand()
	if (u < 1e-12) u = 1e-12
	return v * (1 + 0.02 * sqrt(-2 * log(u)) * cos(2 * 3.141592653589793 * w))
}
function num(v) {
	if (v == int(v)) return sprintf("%d", v)
	return sprintf("%.4f", v)
}
function out(x, link, procs, bytes, h, v,    m) {
	m = noise(v)
	mn = model == "noisy" ? m * 0.97 : m
	print x "," link "," procs "," bytes "," h ",20," num(mn) "," num(m) "," num(m) "," \
		num(model == "noisy" ? m * 1.1 : m) "," (model == "noisy" ? num(m * 0.02) : 0)
}
BEGIN {
	srand(20240611)
	print "# vlcalib raw v1"
	print "# library: synthetic"
	print "# hosts: a,b"
	print "# date: 2024-06-11T00:00:00Z"
	print "# command: awk -v model=" model " -f tests/golden/calib/gen-raw.awk"
	print "experiment,link,procs,bytes,h,reps,min_ns,median_ns,mean_ns,max_ns,stddev_ns"
	ns = 0
	size[ns++] = 0
	for (p = 0; p <= 22; p++) {
		size[ns++] = 2 ^ p
		if (p >= 1 && p < 22) size[ns++] = 3 * 2 ^ (p - 1)
	}
	# sort (insertion)
	for (i = 1; i < ns; i++)
		for (j = i; j > 0 && size[j - 1] > size[j]; j--) {
			tmp = size[j]; size[j] = size[j - 1]; size[j - 1] = tmp
		}
	if (model ~ /^share/) {
		share_rows()
		exit
	}
	for (i = 0; i < ns; i++) {
		n = size[i]
		out("send", "intra", 2, n, 0, s_intra(n))
		out("recv", "intra", 2, n, 0, 500)
		out("oneway", "intra", 2, n, 0, s_intra(n) + t_intra(n) + 500)
		out("rtt", "intra", 2, n, 0, 2 * (s_intra(n) + t_intra(n) + 500))
		out("gap", "intra", 2, n, 0, n <= 1024 ? 1200 : 1200 + (n - 1024) / 4)
		out("contention", "intra", 3, n, 0, 2 * 1.5 * s_intra(n))
		out("contention", "intra", 4, n, 0, 3 * 2 * s_intra(n))
	}
	for (i = 0; i < 4; i++)
		out("pack", "intra", 1, size[i * 10], 0, 300 + size[i * 10] / 4)
	if (model == "exact") {
		split("bsp_exchange bsp_pingpong bsp_onetoall bsp_alltoone bsp_alltoall", pat, " ")
		for (r = 0; r < 5; r++)
			for (p = 2; p <= 4; p += 2)
				for (h = 1024; h <= 1048576; h *= 4) {
					# h = m_PP = 2 m_E = (p-1) m_OA = (p-1) m_AO = 2 (p-1) m_AA
					div = r == 1 ? 1 : r == 0 ? 2 : r == 4 ? 2 * (p - 1) : p - 1
					out(pat[r + 1], "intra", p, int(h / div), h,
					    20000 + 5000 * r + 1000 * p + (0.5 + 0.1 * r + 0.01 * p) * h)
				}
		out("bsp_barrier", "intra", 2, 0, 0, 3000)
		out("bsp_barrier", "intra", 4, 0, 0, 6000)
		for (i = 0; i < ns; i++) {
			n = size[i]
			out("send", "inter", 2, n, 0, s_inter(n))
			out("recv", "inter", 2, n, 0, 800)
			out("rtt", "inter", 2, n, 0, 2 * (s_inter(n) + t_inter(n) + 800))
		}
	}
}
