/* ramp.cl: arange's and linspace's values (lib/engine/sequence.c).  A map family (lib/engine/
 * engine_internal.h, section 2) over a (rows, ROW) space: out0 = S0 + (in1 + in2) * S1 in
 * double, in1 the row's first index and in2 the index within the row (integers in float64,
 * read through strides (1, 0) and (0, 1)), floored with -DRAMP_FLOOR=1, then converted to the result's
 * dtype as a C cast converts (integers truncate, floats round to nearest).  No contraction
 * into fma: each value is rounded twice, as the host's start + i * step is. */
#pragma OPENCL FP_CONTRACT OFF
#if RAMP_FLOOR
#define USMARR_RAMP_ROUND(v) floor(v)
#else
#define USMARR_RAMP_ROUND(v) (v)
#endif
#define USMARR_MAP_BODY STORE(0, (CTYPE(0))USMARR_RAMP_ROUND(SCALAR(0) + (LOAD(1) + LOAD(2)) * SCALAR(1)))
/* 16 values a step where the result has a 16-vector form (rows of 16-vectors, lib/engine/
 * map.c): the same operations on each lane, so the same values */
#if USMARR_VECTOR_OK(D0)
#define USMARR_MAP_VBODY                                                                                    \
    VSTORE(0, VCONVERT(1, 0,                                                                                \
                       USMARR_RAMP_ROUND((USMARR_VCOMPUTE(D1))(SCALAR(0)) +                                 \
                                         (VLOAD(1) + VLOAD(2)) * (USMARR_VCOMPUTE(D1))(SCALAR(1)))))
#endif
