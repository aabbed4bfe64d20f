/* Iteration-space simplification: fewer, longer, output-ordered dimensions before a
 * kernel is chosen (lib/engine/engine_internal.h).  Every step preserves the set of address tuples. */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* True when dim a should come before (be outer to) dim b: larger |stride| of operand 0
 * first, ties broken by the next operands. */
static bool outer_before(const struct usmarr__iter *it, int a, int b)
{
    for (int k = 0; k < it->nops; k++) {
        int64_t sa = abs64(it->strides[k][a]), sb = abs64(it->strides[k][b]);
        if (sa != sb)
            return sa > sb;
    }
    return false;
}

static void move_dim(struct usmarr__iter *it, int to, int from)
{
    it->shape[to] = it->shape[from];
    for (int k = 0; k < it->nops; k++)
        it->strides[k][to] = it->strides[k][from];
}

void usmarr__simplify(struct usmarr__iter *it)
{
    int nd = 0;
    /* 1. Zero-size spaces visit nothing; size-1 dims contribute nothing. */
    for (int d = 0; d < it->ndim; d++) {
        if (it->shape[d] == 0) {
            it->ndim = 1;
            it->shape[0] = 0;
            for (int k = 0; k < it->nops; k++)
                it->strides[k][0] = 1;
            return;
        }
    }
    for (int d = 0; d < it->ndim; d++)
        if (it->shape[d] != 1)
            move_dim(it, nd++, d);
    it->ndim = nd;

    /* 2. Flip dims in which no operand moves forward. */
    for (int d = 0; d < nd; d++) {
        bool flip = true, any_negative = false;
        for (int k = 0; k < it->nops; k++) {
            flip &= it->strides[k][d] <= 0;
            any_negative |= it->strides[k][d] < 0;
        }
        if (flip && any_negative) {
            for (int k = 0; k < it->nops; k++) {
                it->offsets[k] += it->strides[k][d] * (it->shape[d] - 1);
                it->strides[k][d] = -it->strides[k][d];
            }
        }
    }

    /* 3. Order: stable insertion sort (ndim <= 64), outermost first. */
    for (int i = 1; i < nd; i++) {
        for (int j = i; j > 0 && outer_before(it, j, j - 1); j--) {
            int64_t t = it->shape[j];
            it->shape[j] = it->shape[j - 1];
            it->shape[j - 1] = t;
            for (int k = 0; k < it->nops; k++) {
                t = it->strides[k][j];
                it->strides[k][j] = it->strides[k][j - 1];
                it->strides[k][j - 1] = t;
            }
        }
    }

    /* 4. Merge an outer dim into its inner neighbour when every operand steps over
     *    exactly the inner dim's extent. */
    if (nd > 1) {
        int out = 0;
        for (int d = 1; d < nd; d++) {
            bool merge = true;
            for (int k = 0; k < it->nops && merge; k++) {
                int64_t step;
                merge = !usmarr__mul_overflow(it->strides[k][d], it->shape[d], &step) &&
                        it->strides[k][out] == step;
            }
            if (merge) {
                it->shape[out] *= it->shape[d];
                for (int k = 0; k < it->nops; k++)
                    it->strides[k][out] = it->strides[k][d];
            } else {
                move_dim(it, ++out, d);
            }
        }
        nd = out + 1;
    }
    it->ndim = nd;

    /* 5. Walk an outer dim in the direction the others read when operand 0 alone moves
     *    forward in it (x[::-1] into a new array): the rows are then read in address order
     *    and operand 0's written backwards, which costs its stores nothing. */
    for (int d = 0; d + 1 < nd; d++) {
        bool flip = it->nops > 1 && it->strides[0][d] > 0;
        for (int k = 1; k < it->nops && flip; k++)
            flip = it->strides[k][d] <= 0;
        bool any_negative = false;
        for (int k = 1; k < it->nops; k++)
            any_negative |= it->strides[k][d] < 0;
        if (flip && any_negative)
            for (int k = 0; k < it->nops; k++) {
                it->offsets[k] += it->strides[k][d] * (it->shape[d] - 1);
                it->strides[k][d] = -it->strides[k][d];
            }
    }
}
