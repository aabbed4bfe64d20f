/* Part of usmarr.h: include <usmarr.h>, not this file. */
#ifndef USMARR_H_INSIDE
#error "include <usmarr.h> instead of usmarr/fft.h"
#endif
#ifndef USMARR_FFT_H
#define USMARR_FFT_H

/** @name Discrete Fourier transforms
 * The array API's `fft` extension with NumPy 2's semantics (doc/fft.md).  Any length n >= 1
 * (mixed radix passes, Bluestein's algorithm for lengths with a prime factor above 31);
 * any strided, offset or negative-stride view along any axis.  Inputs are float32,
 * float64, complex64 or complex128; a real input to a complex transform is promoted
 * (float32 to complex64, float64 to complex128); integer and bool inputs are refused.
 * Results are complex64 or complex128 (real transforms' inverses: float32 or float64),
 * computed in the input's precision.
 *
 * The result convention is the library's (usmarr/ops.h): `(..., out, &result)`; @p out,
 * when given, must be writable, of the same context, of exactly the result's shape, and
 * of a dtype the result casts to under ::USMARR_CASTING_SAME_KIND.
 *
 * Lengths: @p n (one axis) and @p s (several) point at the transform lengths, NULL for
 * the input's extents; a length below the extent crops the input, above it pads it with
 * zeros (for the inverse real transforms, n is the output's length and the input is
 * cropped or padded to n/2 + 1 elements).  Axes: @p axis counts from the end when
 * negative.  For the n-dimensional transforms, @p naxes gives the number of @p axes and
 * of @p s; @p axes NULL means the last @p naxes axes; @p naxes -1 (with @p axes and
 * @p s NULL) means every axis; @p naxes 0 (complex transforms only) copies @p x as
 * complex.  The transforms run along the axes last to first.  Zero-size batches (other
 * axes of extent 0) give empty results, as NumPy's.
 *
 * Errors common to the transforms:
 * - ::USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p result without @p out, a length
 *   below 1 (given, or the default of an axis of extent 0, or of extent 1 for irfft and
 *   hfft: NumPy's "Invalid number of FFT data points"), an unknown @p norm, a repeated
 *   axis, @p naxes out of range or -1 with @p s or @p axes given, @p naxes 0 for a real
 *   transform;
 * - ::USMARR_ERROR_INDEX an axis out of range (a 0-d @p x has none);
 * - ::USMARR_ERROR_BAD_DTYPE an input of an integer, bool or float16 dtype, a complex
 *   input to a transform of real input (rfft, ihfft), a real input to one of complex
 *   input (irfft, hfft);
 * - ::USMARR_ERROR_SHAPE_MISMATCH @p out of another shape;
 * - ::USMARR_ERROR_CONTEXT_MISMATCH, ::USMARR_ERROR_READ_ONLY, ::USMARR_ERROR_CASTING as
 *   usmarr_matmul();
 * - ::USMARR_ERROR_UNSUPPORTED a float64 or complex128 input on a device without fp64;
 * - ::USMARR_ERROR_ALLOCATION a temporary, a twiddle table or the result could not be
 *   allocated.
 * @{ */

/** Normalisation of a transform pair (NumPy's `norm`). */
typedef enum {
    USMARR_FFT_NORM_BACKWARD = 0, /**< forward unscaled, inverse scaled by 1/n (NumPy's default) */
    USMARR_FFT_NORM_ORTHO = 1,    /**< both scaled by 1/sqrt(n) */
    USMARR_FFT_NORM_FORWARD = 2   /**< forward scaled by 1/n, inverse unscaled */
} usmarr_fft_norm_t;

/** @brief NumPy's `fft.fft(x, n, axis, norm)`: the one-dimensional discrete Fourier transform.
 *  @param x the input (borrowed)
 *  @param n NULL, or the transform's length (>= 1)
 *  @param axis the axis, usually -1
 *  @param norm the normalisation
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or an error listed above */
USMARR_API USMARR_NODISCARD int usmarr_fft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm,
                                           usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.ifft`: the inverse of usmarr_fft().  Arguments as usmarr_fft(). */
USMARR_API USMARR_NODISCARD int usmarr_ifft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm,
                                            usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.fftn(x, s, axes, norm)`: the transform over several axes.
 *  @param x the input (borrowed)
 *  @param naxes the number of axes (and of lengths in @p s), or -1 for every axis
 *  @param axes NULL (the last @p naxes axes), or @p naxes distinct axes
 *  @param s NULL, or @p naxes lengths (>= 1)
 *  @param norm the normalisation
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success, or an error listed above */
USMARR_API USMARR_NODISCARD int usmarr_fftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s,
                                            usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.ifftn`: the inverse of usmarr_fftn().  Arguments as usmarr_fftn(). */
USMARR_API USMARR_NODISCARD int usmarr_ifftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s,
                                             usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result);

/** @brief NumPy's `fft.rfft`: the transform of a real input, its n/2 + 1 non-negative
 *  frequencies.  @p x must be float32 or float64.  Arguments as usmarr_fft(). */
USMARR_API USMARR_NODISCARD int usmarr_rfft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm,
                                            usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.irfft`: the inverse of usmarr_rfft(), a real result of length @p n
 *  (NULL: 2 (m - 1) for an input of extent m).  @p x must be complex; the imaginary parts
 *  of the zero frequency and (for even n) of the Nyquist frequency are ignored.
 *  Arguments as usmarr_fft(). */
USMARR_API USMARR_NODISCARD int usmarr_irfft(const usmarr_array_t *x, const int64_t *n, int axis,
                                             usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.rfftn`: usmarr_rfft() along the last of the axes, then usmarr_fft()
 *  along the others.  Arguments as usmarr_fftn(). */
USMARR_API USMARR_NODISCARD int usmarr_rfftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s,
                                             usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.irfftn`: usmarr_ifft() along all but the last of the axes, then
 *  usmarr_irfft() along it (length s[-1], NULL: 2 (m - 1)).  Arguments as usmarr_fftn(). */
USMARR_API USMARR_NODISCARD int usmarr_irfftn(const usmarr_array_t *x, int naxes, const int *axes, const int64_t *s,
                                              usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.hfft`: the transform of a Hermitian-symmetric signal given by its
 *  first half (complex @p x), a real result of length @p n (NULL: 2 (m - 1)).
 *  Arguments as usmarr_irfft(). */
USMARR_API USMARR_NODISCARD int usmarr_hfft(const usmarr_array_t *x, const int64_t *n, int axis, usmarr_fft_norm_t norm,
                                            usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.ihfft`: the inverse of usmarr_hfft(), n/2 + 1 complex values of a
 *  real input.  Arguments as usmarr_rfft(). */
USMARR_API USMARR_NODISCARD int usmarr_ihfft(const usmarr_array_t *x, const int64_t *n, int axis,
                                             usmarr_fft_norm_t norm, usmarr_array_t *out, usmarr_array_t **result);

/** @brief NumPy's `fft.fftfreq(n, d)`: the frequencies [0, 1, ..., -(n/2), ..., -1] / (d n),
 *  computed in double precision as NumPy does, then rounded to @p dtype.
 *  @param context the context (borrowed)
 *  @param n the window length, >= 1
 *  @param d the sample spacing (not 0)
 *  @param dtype float32 or float64
 *  @param kind the USM kind of the result
 *  @param[out] result the (n,) result
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p context or @p result, n < 1, d == 0,
 *          a bad @p kind
 *  @retval USMARR_ERROR_BAD_DTYPE @p dtype is not float32 or float64
 *  @retval USMARR_ERROR_UNSUPPORTED float64 on a device without fp64 */
USMARR_API USMARR_NODISCARD int usmarr_fftfreq(usmarr_context_t *context, int64_t n, double d, usmarr_dtype_t dtype,
                                               usmarr_usm_kind_t kind, usmarr_array_t **result);
/** @brief NumPy's `fft.rfftfreq(n, d)`: [0, 1, ..., n/2] / (d n), shape (n/2 + 1,).
 *  Arguments and errors as usmarr_fftfreq(). */
USMARR_API USMARR_NODISCARD int usmarr_rfftfreq(usmarr_context_t *context, int64_t n, double d, usmarr_dtype_t dtype,
                                                usmarr_usm_kind_t kind, usmarr_array_t **result);
/** @brief NumPy's `fft.fftshift(x, axes)`: rolls each axis by extent/2, the zero
 *  frequency to the middle.
 *  @param x the input (borrowed), any dtype
 *  @param naxes the number of @p axes, or -1 for every axis (@p axes NULL)
 *  @param axes the axes, distinct
 *  @param out NULL, or the array to write
 *  @param[out] result the result, or @p out retained; may be NULL when @p out is given
 *  @return 0 on success
 *  @retval USMARR_ERROR_INVALID_ARGUMENT NULL @p x, NULL @p axes with @p naxes > 0, a
 *          repeated axis, NULL @p result without @p out
 *  @retval USMARR_ERROR_INDEX an axis out of range
 *  @retval USMARR_ERROR_SHAPE_MISMATCH, USMARR_ERROR_CONTEXT_MISMATCH, USMARR_ERROR_READ_ONLY,
 *          USMARR_ERROR_CASTING: @p out as usmarr_roll() */
USMARR_API USMARR_NODISCARD int usmarr_fftshift(const usmarr_array_t *x, int naxes, const int *axes,
                                                usmarr_array_t *out, usmarr_array_t **result);
/** @brief NumPy's `fft.ifftshift`: the inverse of usmarr_fftshift() (rolls by -(extent/2)).
 *  Arguments as usmarr_fftshift(). */
USMARR_API USMARR_NODISCARD int usmarr_ifftshift(const usmarr_array_t *x, int naxes, const int *axes,
                                                 usmarr_array_t *out, usmarr_array_t **result);

/** @} */

#endif
