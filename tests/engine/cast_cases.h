/* NumPy's astype results for every dtype pair over a palette of values per dtype
 * (tests/gen/gen_cast_cases.py; the undefined float -> int cases follow doc/engine.md,
 * "Casting").
 * Index order follows usmarr_dtype_t; each value occupies the first itemsize bytes. */
#ifndef USMARR_TESTS_CAST_CASES_H
#define USMARR_TESTS_CAST_CASES_H
#define CAST_PALETTE 32
extern const unsigned char cast_palette[14][CAST_PALETTE][16];
extern const unsigned char cast_expected[14][14][CAST_PALETTE][16];
#endif
