/* lookup.cl: isin's table (lib/ops/set.c) for integer and bool elements whose test
 * elements span a short range.  A map family (lib/engine/engine_internal.h, section 2):
 * out0 (bool) = in1 - S0 < S1 and table in2[in1 - S0], with in2 a bool table of S1 flags
 * (strides 0: read at an offset) and S0 the smallest test element, both as ulong: the
 * difference wraps for an element below S0 to at least S1, signed or not; -DLOOKUP_INVERT=1
 * negates the result. */
#if LOOKUP_INVERT
#define USMARR_LOOKUP_HIT(d) !((d) < SCALAR(1) && USMARR_LOADP(D2, p2, x2 + (d)))
#else
#define USMARR_LOOKUP_HIT(d) ((d) < SCALAR(1) && USMARR_LOADP(D2, p2, x2 + (d)))
#endif
#define USMARR_MAP_BODY STORE(0, USMARR_LOOKUP_HIT((ulong)LOAD(1) - SCALAR(0)))
