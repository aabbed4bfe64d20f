/* Private declarations of interoperability (lib/interop/): the array interface, its JSON
 * form, DLPack and the text forms of arrays.  Never installed. */
#ifndef USMARR_INTEROP_INTERNAL_H
#define USMARR_INTEROP_INTERNAL_H

#include "../core/core_internal.h"

/* ---- text (debug.c) -------------------------------------------------------------- */
/* Runs `write(object, f)` on a memory stream and hands its text out as one allocated
 * string (usmarr_string_free): the body of the *_string calls.  `name` names the object
 * in the error of a NULL argument, `what` the text in the out-of-memory detail. */
USMARR_INTERNAL int usmarr__text_of(int (*write)(const void *object, FILE *f), const void *object, const char *name,
                                    const char *what, char **text);
/* Writes n values as a Python tuple: "(1, 2)", "(1,)", "()". */
USMARR_INTERNAL void usmarr__put_tuple(FILE *f, int n, const int64_t *v);

#endif
