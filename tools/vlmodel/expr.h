/* expr.h - the arithmetic expressions of `vlmodel speedup` (#op, #b, #x of
 * the speed-up model as functions of the problem and the machine). */
#ifndef VLMOD_EXPR_H
#define VLMOD_EXPR_H

#include <stddef.h>

/* An arithmetic expression over the variables n, p, w, alpha: numbers, + - * /
 * ^ (power, right-associative), unary minus, parentheses, and the functions
 * sqrt, log2, ln, log10, exp. */
typedef struct vlmod_expr vlmod_expr;

enum { VLMOD_VAR_N, VLMOD_VAR_P, VLMOD_VAR_W, VLMOD_VAR_ALPHA, VLMOD_NVARS };

/* Compile TEXT.  Returns the expression, or NULL with "what at column C" in ERR. */
vlmod_expr *vlmod_expr_parse(const char *text, char *err, size_t errlen);
double vlmod_expr_eval(const vlmod_expr *e, const double vars[VLMOD_NVARS]);
/* Whether E uses variable V. */
int vlmod_expr_uses(const vlmod_expr *e, int v);
void vlmod_expr_free(vlmod_expr *e);

#endif
