/* The README's example: y = x[::-2] + 10 on a USM device, checked on the host. */
#include <stdio.h>
#include <usmarr.h>

int main(void)
{
    usmarr_context_t *ctx = NULL;
    usmarr_array_t *x = NULL, *view = NULL, *y = NULL;
    float host[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[4];
    int64_t shape[1] = {8};
    usmarr_operand_t args[2];
    int rc = usmarr_context_create(NULL, &ctx); /* default device, or a selector: "cpu", "opencl:gpu:0" */
    if (!rc)
        rc = usmarr_array_from_host(ctx, 1, shape, USMARR_FLOAT32, host, NULL, USMARR_USM_DEVICE, &x);
    if (!rc)
        rc = usmarr_array_index_text(x, "::-2", &view); /* a view: no copy */
    if (!rc) {
        args[0] = (usmarr_operand_t){.array = view};
        args[1] = (usmarr_operand_t){.scalar = usmarr_scalar_int(10)}; /* weak: stays float32 */
        rc = usmarr_elementwise("add", args, 2, NULL, &y);
    }
    if (!rc)
        rc = usmarr_array_copy_to_host(y, out, NULL);
    if (rc)
        fprintf(stderr, "%s: %s\n", usmarr_strerror(rc), usmarr_last_error_detail());
    else
        printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]); /* 17 15 13 11 */
    usmarr_array_release(y);
    usmarr_array_release(view);
    usmarr_array_release(x);
    usmarr_context_release(ctx);
    return rc || out[0] != 17 || out[3] != 11;
}
