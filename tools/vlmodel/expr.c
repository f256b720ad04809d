/* expr.c - the expressions of `vlmodel speedup` (expr.h): a recursive-descent
 * parser into a node array, and its evaluation. */
#include "expr.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	E_NUM,
	E_VAR,
	E_NEG,
	E_ADD,
	E_SUB,
	E_MUL,
	E_DIV,
	E_POW,
	E_SQRT,
	E_LOG2,
	E_LN,
	E_LOG10,
	E_EXP
};

typedef struct enode {
	int op;
	int a, b; /* operand nodes */
	double v; /* E_NUM: value; E_VAR: variable index */
} enode;

struct vlmod_expr {
	enode *n;
	int nn, cap, root;
};

/* Limits that keep the recursion of the parser and of e_eval off the end of
 * the stack (an argument can be 128 KiB of '(' or "1+"). */
#define E_MAXDEPTH 200   /* nested parentheses, unary signs, powers */
#define E_MAXNODES 10000 /* numbers, names and operators */

typedef struct eparse {
	const char *s, *p;
	vlmod_expr *e;
	char *err;
	size_t errlen;
	int failed;
	int depth; /* of e_unary calls */
} eparse;

static const char *const var_names[VLMOD_NVARS] = {"n", "p", "w", "alpha"};
static const struct {
	const char *name;
	int op;
} funcs[] = {{"sqrt", E_SQRT}, {"log2", E_LOG2}, {"ln", E_LN}, {"log10", E_LOG10}, {"exp", E_EXP}};

static int e_fail(eparse *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errlen, "%s at column %d", what, (int)(ps->p - ps->s) + 1);
	ps->failed = 1;
	return -1;
}

static int e_node(eparse *ps, int op, int a, int b, double v)
{
	vlmod_expr *e = ps->e;
	if (ps->failed)
		return -1;
	if (e->nn == E_MAXNODES)
		return e_fail(ps, "expression too long (at most 10000 numbers, names and "
		                  "operators)");
	if (e->nn == e->cap) {
		int cap = e->cap ? 2 * e->cap : 16;
		enode *n = realloc(e->n, (size_t)cap * sizeof *n);
		if (!n)
			return e_fail(ps, "out of memory");
		e->n = n;
		e->cap = cap;
	}
	e->n[e->nn] = (enode){op, a, b, v};
	return e->nn++;
}

static void e_blank(eparse *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int e_sum(eparse *ps);
static int e_unary(eparse *ps);

static int e_name(eparse *ps)
{
	const char *q = ps->p;
	size_t len;
	while (isalnum((unsigned char)*q) || *q == '_')
		q++;
	len = (size_t)(q - ps->p);
	for (int v = 0; v < VLMOD_NVARS; v++)
		if (strlen(var_names[v]) == len && !strncmp(ps->p, var_names[v], len)) {
			ps->p = q;
			return e_node(ps, E_VAR, -1, -1, v);
		}
	for (size_t f = 0; f < sizeof funcs / sizeof funcs[0]; f++)
		if (strlen(funcs[f].name) == len && !strncmp(ps->p, funcs[f].name, len)) {
			int a;
			ps->p = q;
			e_blank(ps);
			if (*ps->p != '(')
				return e_fail(ps, "'(' expected after a function name");
			ps->p++;
			a = e_sum(ps);
			e_blank(ps);
			if (*ps->p != ')')
				return e_fail(ps, "')' expected");
			ps->p++;
			return e_node(ps, funcs[f].op, a, -1, 0);
		}
	return e_fail(ps, "unknown name (variables: n, p, w, alpha; functions: sqrt, log2, "
	                  "ln, log10, exp)");
}

static int e_primary(eparse *ps)
{
	e_blank(ps);
	if (*ps->p == '(') {
		int a;
		ps->p++;
		a = e_sum(ps);
		e_blank(ps);
		if (*ps->p != ')')
			return e_fail(ps, "')' expected");
		ps->p++;
		return a;
	}
	if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
		char *end;
		double v = strtod(ps->p, &end);
		if (end == ps->p || !isfinite(v))
			return e_fail(ps, "bad number");
		ps->p = end;
		return e_node(ps, E_NUM, -1, -1, v);
	}
	if (isalpha((unsigned char)*ps->p))
		return e_name(ps);
	return e_fail(ps, *ps->p ? "number, name or '(' expected" : "unexpected end");
}

static int e_power(eparse *ps)
{
	int a = e_primary(ps);
	e_blank(ps);
	if (a >= 0 && *ps->p == '^') {
		ps->p++;
		return e_node(ps, E_POW, a, e_unary(ps), 0);
	}
	return a;
}

static int e_unary(eparse *ps)
{
	int a;
	if (ps->depth == E_MAXDEPTH)
		return e_fail(ps, "nested too deeply (at most 200 levels)");
	ps->depth++;
	e_blank(ps);
	if (*ps->p == '-' || *ps->p == '+') {
		int neg = *ps->p++ == '-';
		a = e_unary(ps);
		if (neg)
			a = e_node(ps, E_NEG, a, -1, 0);
	} else {
		a = e_power(ps);
	}
	ps->depth--;
	return a;
}

static int e_product(eparse *ps)
{
	int a = e_unary(ps);
	for (;;) {
		char c;
		e_blank(ps);
		c = *ps->p;
		if (a < 0 || (c != '*' && c != '/'))
			return a;
		ps->p++;
		a = e_node(ps, c == '*' ? E_MUL : E_DIV, a, e_unary(ps), 0);
	}
}

static int e_sum(eparse *ps)
{
	int a = e_product(ps);
	for (;;) {
		char c;
		e_blank(ps);
		c = *ps->p;
		if (a < 0 || (c != '+' && c != '-'))
			return a;
		ps->p++;
		a = e_node(ps, c == '+' ? E_ADD : E_SUB, a, e_product(ps), 0);
	}
}

vlmod_expr *vlmod_expr_parse(const char *text, char *err, size_t errlen)
{
	eparse ps = {text, text, calloc(1, sizeof(vlmod_expr)), err, errlen, 0, 0};
	if (!ps.e) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ps.e->root = e_sum(&ps);
	e_blank(&ps);
	if (!ps.failed && *ps.p)
		e_fail(&ps, "operator expected");
	if (ps.failed) {
		vlmod_expr_free(ps.e);
		return NULL;
	}
	return ps.e;
}

static double e_eval(const vlmod_expr *e, int i, const double *vars)
{
	const enode *n = &e->n[i];
	double a = n->a >= 0 ? e_eval(e, n->a, vars) : 0;
	double b = n->b >= 0 ? e_eval(e, n->b, vars) : 0;
	switch (n->op) {
	case E_NUM:
		return n->v;
	case E_VAR:
		return vars[(int)n->v];
	case E_NEG:
		return -a;
	case E_ADD:
		return a + b;
	case E_SUB:
		return a - b;
	case E_MUL:
		return a * b;
	case E_DIV:
		return a / b;
	case E_POW:
		return pow(a, b);
	case E_SQRT:
		return sqrt(a);
	case E_LOG2:
		return log2(a);
	case E_LN:
		return log(a);
	case E_LOG10:
		return log10(a);
	default:
		return exp(a);
	}
}

double vlmod_expr_eval(const vlmod_expr *e, const double vars[VLMOD_NVARS])
{
	return e_eval(e, e->root, vars);
}

int vlmod_expr_uses(const vlmod_expr *e, int v)
{
	for (int i = 0; i < e->nn; i++)
		if (e->n[i].op == E_VAR && (int)e->n[i].v == v)
			return 1;
	return 0;
}

void vlmod_expr_free(vlmod_expr *e)
{
	if (e)
		free(e->n);
	free(e);
}
