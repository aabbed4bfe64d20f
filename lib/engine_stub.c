/* Placeholder until the kernel engine lands: contexts own no kernel cache yet. */
#include "internal.h"

void usmarr__kernel_cache_destroy(struct usmarr__kernel_cache *cache) { (void)cache; }
