/* raytrace.c - the ray-tracing pipeline of the PC-cluster paper (Baer and
 * Decato, "Software Performance Modeling in PC Clusters", NPS 2000: the
 * battlefield visualisation test case, run there under LAM/MPI;
 * ../../shared/reference/004-pc-cluster-software-model.txt): a terrain data
 * server, P - 2 ray tracers and a display, over FRAMES frames.
 *
 * usage: mpirun -np P raytrace [-f FRAMES] [-u UPDATE] [-s SIZE] [-g TERRAIN] [-b BLOCK] [-o
 * FILE.pgm] -f FRAMES   frames to render (default 10) -u UPDATE   the terrain server sends a new
 * terrain tile every UPDATE frames (default 5: "a full update cycle once every five frames") -s
 * SIZE     screen of SIZE x SIZE one-byte colour indices (default 256) -g TERRAIN  terrain tile of
 * TERRAIN x TERRAIN one-byte heights (default 512: 256 KiB, the paper's 0.25 MB) -b BLOCK terrain
 * message size in bytes (default 1024, the paper's MSGZ) -o FILE     the display writes the last
 * frame as a PGM image P >= 3.  Rank 0 is the display, rank 1 the terrain server, ranks 2 .. P-1
 * the T = P - 2 ray tracers.  The server computes terrain tile v (value noise over the world,
 * scrolled by TERRAIN/2 per tile) and sends it to every tracer in BLOCK-byte messages, block by
 * block; it goes on with tile v + 1 at once.  A tracer receives tile f/UPDATE before frame f (f mod
 * UPDATE = 0), then casts one ray per screen column x = t, t + T, ... (a height-field march from
 * the eye, which moves forward over the tile), and sends each column (SIZE bytes) to the display as
 * soon as it is done.  The display receives the columns of frame f in order x = 0 .. SIZE-1 (from
 * tracer x mod T), while the tracers work on the following frames (the pipeline).
 *
 * Rank 0 prints one line, e.g.
 *   raytrace: p=4 tracers=2 frames=10 size=256 time=0.012345678 s fps=810.0
 * checksum=0123456789abcdef check=ok time = MPI_Wtime from after a barrier to the last column of
 * the last frame at the display (virtual under vlayer); checksum = FNV-1a of the frames' FNV-1a
 * checksums, the same for every P; check = every frame's checksum equals that of a sequential
 * render of the frame (not timed).  Exit status 1 when one differs, 2 for a usage error.
 *
 * Model (004, section 1.1 and figure 5; calculation J = 0 the server, J = 1 ..
 * the tracers, J = N the display; default values in brackets):
 *   server   DVOL[0,N] = TERRAIN^2 bytes per tracer per update (256 KiB),
 *            MSGZ[0,N] = BLOCK (1024), #MSG = ceil(TERRAIN^2/BLOCK) per tracer
 *            per update (256), i.e. T ceil(TERRAIN^2/BLOCK) / UPDATE per frame
 *   tracer   DVOL[j,N] = SIZE^2 / T bytes per frame (65536 / T),
 *            MSGZ[j,N] = SIZE (256, one column), #MSG = SIZE / T per frame
 *   display  DVOL[N,*] = SIZE^2 bytes per frame (65536), MSGZ = SIZE (256),
 *            #MSG = SIZE per frame (256)
 * messages = ceil(FRAMES/UPDATE) T ceil(TERRAIN^2/BLOCK) + FRAMES SIZE
 * bytes    = ceil(FRAMES/UPDATE) T TERRAIN^2 + FRAMES SIZE^2
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_TERRAIN 1
#define TAG_COLUMN  2

struct opts {
	int frames, update, size, terrain, block;
	const char *out;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -np P raytrace [-f FRAMES] [-u UPDATE] [-s SIZE] [-g TERRAIN] "
	           "[-b BLOCK] [-o FILE.pgm]\n"
	           "The ray-tracing pipeline of the PC-cluster paper on P >= 3 ranks: rank 1\n"
	           "sends a TERRAIN^2-byte terrain tile (default 512) every UPDATE frames (5) in\n"
	           "BLOCK-byte messages (1024) to the ray tracers (ranks 2 ..), which render\n"
	           "the columns of SIZE x SIZE frames (256) and send them to the display (rank\n"
	           "0); FRAMES frames (10).  Rank 0 prints the time (MPI_Wtime), the frame rate,\n"
	           "a checksum and whether every frame equals a sequential render; -o writes the\n"
	           "last frame as a PGM image.\n");
}

/* 0 ok, 1 --help, 2 bad usage */
static int parse(int argc, char **argv, int rank, struct opts *o)
{
	static const char keys[] = "fusgb";
	static const long lim[] = {100000, 100000, 4096, 8192, 1 << 24};
	int i, k;
	char *end;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			if (!rank)
				usage(stdout);
			return 1;
		}
		if (argv[i][0] != '-' || !argv[i][1] || argv[i][2] || i + 1 >= argc)
			goto bad;
		if (argv[i][1] == 'o') {
			o->out = argv[++i];
			continue;
		}
		for (k = 0; keys[k] && keys[k] != argv[i][1]; k++)
			;
		if (!keys[k])
			goto bad;
		{
			long v = strtol(argv[++i], &end, 10);
			int *f[] = {&o->frames, &o->update, &o->size, &o->terrain, &o->block};
			if (*end || v < (k == 2 ? 8 : k == 3 ? 16 : 1) || v > lim[k])
				goto bad;
			*f[k] = (int)v;
		}
	}
	return 0;
bad:
	if (!rank)
		fprintf(stderr, "raytrace: bad argument '%s' (see --help)\n", argv[i]);
	return 2;
}

/* ---- the terrain: value noise, integer arithmetic only ---- */
static unsigned lattice(long ix, long iy)
{
	uint32_t h = (uint32_t)(ix * 73856093L) ^ (uint32_t)(iy * 19349663L);
	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h & 255;
}

static unsigned noise(long wx, long wy, long s)
{
	long ix = wx / s, iy = wy / s, fx = wx % s, fy = wy % s;
	unsigned long top =
	    lattice(ix, iy) * (unsigned long)(s - fx) + lattice(ix + 1, iy) * (unsigned long)fx;
	unsigned long bot = lattice(ix, iy + 1) * (unsigned long)(s - fx) +
	                    lattice(ix + 1, iy + 1) * (unsigned long)fx;
	return (unsigned)((top * (unsigned long)(s - fy) + bot * (unsigned long)fy) /
	                  (unsigned long)(s * s));
}

/* tile v: heights of the world square [v g/2, v g/2 + g) x [0, g) */
static void make_terrain(unsigned char *t, int g, int v)
{
	int x, y;
	for (y = 0; y < g; y++)
		for (x = 0; x < g; x++) {
			long wx = x + (long)v * (g / 2);
			unsigned h = 128 * noise(wx, y, 64) + 64 * noise(wx, y, 32) +
			             32 * noise(wx, y, 16) + 16 * noise(wx, y, 8);
			t[(size_t)y * g + x] = (unsigned char)(h / 256);
		}
}

/* ---- rendering ---- */
struct view {
	double ex, ey, eh;
	int g, size;
};

/* the eye in frame f: it moves forward by g/2 per tile, over UPDATE frames */
static struct view view_of(const unsigned char *t, int f, const struct opts *o)
{
	struct view v;
	int l = f % o->update;
	v.g = o->terrain;
	v.size = o->size;
	v.ex = o->terrain / 4 + (double)l * (o->terrain / 2) / o->update;
	v.ey = o->terrain / 2;
	v.eh = t[(size_t)(int)v.ey * v.g + (int)v.ex] + 100.0;
	if (v.eh < 220.0)
		v.eh = 220.0;
	return v;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* column x of the frame seen from v: col[0 .. size) top to bottom */
static void render_column(unsigned char *col, const unsigned char *t, const struct view *v, int x)
{
	const double fov = 1.0471975511965976; /* 60 degrees */
	double a = ((double)x / (v->size - 1) - 0.5) * fov, ca = cos(a), sa = sin(a), d;
	double horizon = v->size * 0.2, scale = v->size * 0.5;
	int ybuf = v->size, y, hprev = -1;

	for (d = 1.0; d < v->g / 2 && ybuf > 0; d += 0.5) {
		int px = clampi((int)(v->ex + d * ca), 0, v->g - 1);
		int py = clampi((int)(v->ey + d * sa), 0, v->g - 1);
		int h = t[(size_t)py * v->g + px];
		int proj = (int)(horizon + (v->eh - h) * scale / d);
		if (hprev < 0)
			hprev = h;
		if (proj < ybuf) { /* visible: shade by height, slope and distance */
			int c = clampi(20 + h * 2 / 3 + (h - hprev) * 6 - (int)(d / 6), 1, 199);
			for (y = proj < 0 ? 0 : proj; y < ybuf; y++)
				col[y] = (unsigned char)c;
			ybuf = proj < 0 ? 0 : proj;
		}
		hprev = h;
	}
	for (y = 0; y < ybuf; y++)
		col[y] = (unsigned char)(200 + y * 40 / v->size); /* sky */
}

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h)
{
	size_t i;
	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}
#define FNV0 14695981039346656037ULL

/* ---- the three kinds of task ---- */
static int nupdates(const struct opts *o)
{
	return (o->frames + o->update - 1) / o->update;
}

static void server(const struct opts *o, int tracers)
{
	size_t tb = (size_t)o->terrain * o->terrain, off;
	unsigned char *t = malloc(tb);
	int v, k;
	for (v = 0; v < nupdates(o); v++) {
		make_terrain(t, o->terrain, v);
		for (off = 0; off < tb; off += (size_t)o->block) {
			int len = (int)(tb - off < (size_t)o->block ? tb - off : (size_t)o->block);
			for (k = 0; k < tracers; k++)
				MPI_Send(t + off, len, MPI_BYTE, 2 + k, TAG_TERRAIN,
				         MPI_COMM_WORLD);
		}
	}
	free(t);
}

static void tracer(const struct opts *o, int me, int tracers)
{
	size_t tb = (size_t)o->terrain * o->terrain, off;
	unsigned char *t = malloc(tb), *col = malloc((size_t)o->size);
	struct view v;
	int f, x;
	for (f = 0; f < o->frames; f++) {
		if (f % o->update == 0)
			for (off = 0; off < tb; off += (size_t)o->block) {
				int len = (int)(tb - off < (size_t)o->block ? tb - off
				                                            : (size_t)o->block);
				MPI_Recv(t + off, len, MPI_BYTE, 1, TAG_TERRAIN, MPI_COMM_WORLD,
				         MPI_STATUS_IGNORE);
			}
		v = view_of(t, f, o);
		for (x = me; x < o->size; x += tracers) {
			render_column(col, t, &v, x);
			MPI_Send(col, o->size, MPI_BYTE, 0, TAG_COLUMN, MPI_COMM_WORLD);
		}
	}
	free(t);
	free(col);
}

/* the display: frame checksums into cks[f]; the last frame stays in frame */
static void display(const struct opts *o, int tracers, uint64_t *cks, unsigned char *frame)
{
	int f, x;
	for (f = 0; f < o->frames; f++) {
		for (x = 0; x < o->size; x++)
			MPI_Recv(frame + (size_t)x * o->size, o->size, MPI_BYTE, 2 + x % tracers,
			         TAG_COLUMN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		cks[f] = fnv(frame, (size_t)o->size * o->size, FNV0);
	}
}

/* sequential render of every frame; the number of frames whose checksum differs */
static int verify(const struct opts *o, const uint64_t *cks)
{
	size_t tb = (size_t)o->terrain * o->terrain;
	unsigned char *t = malloc(tb), *fr = malloc((size_t)o->size * o->size);
	struct view v;
	int f, x, bad = 0;
	for (f = 0; f < o->frames; f++) {
		if (f % o->update == 0)
			make_terrain(t, o->terrain, f / o->update);
		v = view_of(t, f, o);
		for (x = 0; x < o->size; x++)
			render_column(fr + (size_t)x * o->size, t, &v, x);
		if (fnv(fr, (size_t)o->size * o->size, FNV0) != cks[f]) {
			fprintf(stderr, "raytrace: frame %d differs from the sequential render\n",
			        f);
			bad++;
		}
	}
	free(t);
	free(fr);
	return bad;
}

static void write_pgm(const char *path, const unsigned char *frame, int size)
{
	FILE *f = fopen(path, "wb");
	int x, y;
	if (!f) {
		perror(path);
		return;
	}
	fprintf(f, "P5\n%d %d\n255\n", size, size);
	for (y = 0; y < size; y++)
		for (x = 0; x < size; x++)
			fputc(frame[(size_t)x * size + y], f);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct opts o = {10, 5, 256, 512, 1024, NULL};
	int rank, np, rc, bad = 0, f;
	uint64_t *cks = NULL, all = FNV0;
	unsigned char *frame = NULL;
	double t0, t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rc = parse(argc, argv, rank, &o);
	if (!rc && np < 3) {
		if (!rank)
			fprintf(stderr, "raytrace: needs at least 3 ranks (display, terrain "
			                "server, a ray tracer)\n");
		rc = 2;
	}
	if (rc) {
		MPI_Finalize();
		return rc == 1 ? 0 : 2;
	}
	if (!rank) {
		cks = malloc(sizeof(uint64_t) * (size_t)o.frames);
		frame = malloc((size_t)o.size * o.size);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (rank == 0)
		display(&o, np - 2, cks, frame);
	else if (rank == 1)
		server(&o, np - 2);
	else
		tracer(&o, rank - 2, np - 2);
	t = MPI_Wtime() - t0;
	if (!rank) {
		bad = verify(&o, cks);
		for (f = 0; f < o.frames; f++)
			all = fnv((const unsigned char *)&cks[f], sizeof cks[f], all);
		printf("raytrace: p=%d tracers=%d frames=%d size=%d time=%.9f s fps=%.1f "
		       "checksum=%016llx check=%s\n",
		       np, np - 2, o.frames, o.size, t, t > 0 ? o.frames / t : 0.0,
		       (unsigned long long)all, bad ? "FAILED" : "ok");
		if (o.out)
			write_pgm(o.out, frame, o.size);
	}
	free(cks);
	free(frame);
	MPI_Finalize();
	return bad ? 1 : 0;
}
