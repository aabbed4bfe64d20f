/* fill.cl: out0 = scalar 0.  A map family (lib/engine/engine_internal.h, section 2), run on the bit types
 * u8/u16/u32/u64/x128 with the value already converted to the array's dtype on the host. */
#define USMARR_MAP_BODY STORE(0, SCALAR(0))
#if USMARR_VECTOR_OK(D0)
#define USMARR_MAP_VBODY VSTORE(0, (USMARR_VCOMPUTE(D0))(SCALAR(0)))
#endif
