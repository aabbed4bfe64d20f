/* cast.cl: out0 = in1 converted with NumPy's value semantics (doc/engine.md, "Casting").
 * A map family (lib/engine/engine_internal.h, section 2).  Copies of one dtype run it on the bit types
 * u8/u16/u32/u64/x128, so copies are bit-exact and share five programs. */
#define USMARR_MAP_BODY STORE(0, CONVERT(1, 0, LOAD(1)))
#if USMARR_VECTOR_OK(D0) && USMARR_VECTOR_OK(D1)
#define USMARR_MAP_VBODY VSTORE(0, VCONVERT(1, 0, VLOAD(1)))
#endif
