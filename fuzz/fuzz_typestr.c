/* Fuzz target: usmarr_dtype_from_typestr() on arbitrary text.
 *
 * Checks: success or USMARR_ERROR_BAD_DTYPE with a detail, the output untouched on
 * failure; an accepted typestr has the dtype's kind character and item size (read here
 * independently) and a byte order that is native or, for 1-byte types, irrelevant; and
 * the dtype's own typestr parses back to the same dtype. */
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    usmarr_dtype_t dtype = USMARR_DTYPE_COUNT;
    int rc = usmarr_dtype_from_typestr(text, &dtype);
    if (rc) {
        FUZZ_CHECK(rc == USMARR_ERROR_BAD_DTYPE, "\"%s\" failed with %s", text, usmarr_error_name(rc));
        FUZZ_CHECK_DETAIL(rc);
        FUZZ_CHECK(dtype == USMARR_DTYPE_COUNT, "a failed parse wrote dtype=%d", (int)dtype);
        free(text);
        return 0;
    }
    FUZZ_CHECK(dtype >= 0 && dtype < USMARR_DTYPE_COUNT, "dtype=%d", (int)dtype);
    const char *p = text;
    char order = *p && strchr("<>|=", *p) ? *p++ : 0;
    char kind = *p++;
    size_t itemsize = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        itemsize = itemsize * 10 + (size_t)(*p - '0');
    const char *canonical = usmarr_dtype_typestr(dtype);
    FUZZ_CHECK(canonical && strlen(canonical) >= 3, "dtype %d has no typestr", (int)dtype);
    FUZZ_CHECK(*p == '\0' && digits > 0, "\"%s\" accepted with trailing text or no size", text);
    FUZZ_CHECK(kind == canonical[1], "\"%s\" gave %s (kind '%c')", text, usmarr_dtype_name(dtype), canonical[1]);
    FUZZ_CHECK(itemsize == usmarr_dtype_size(dtype), "\"%s\" gave %s of %zu bytes", text, usmarr_dtype_name(dtype),
               usmarr_dtype_size(dtype));
    FUZZ_CHECK(itemsize == 1 || order == 0 || order == '<' || order == '=', "\"%s\": byte order '%c' accepted", text,
               order);
    usmarr_dtype_t back = USMARR_DTYPE_COUNT;
    FUZZ_CHECK(usmarr_dtype_from_typestr(canonical, &back) == 0 && back == dtype, "\"%s\" does not parse back to %s",
               canonical, usmarr_dtype_name(dtype));
    free(text);
    return 0;
}
