/* The process-wide table of storage presets (GT4Py's `defaults`).  Registration
 * prepends an immutable entry to a lock-free list, so a later entry of the same name
 * shadows an earlier one, lookups never block, and every string a lookup handed out
 * stays valid for the life of the process (shadowed entries are kept, still reachable). */
#include "storage_internal.h"

#include <stdlib.h>
#include <string.h>

#define PRESET_NAME_MAX 31

struct preset_entry {
    struct preset_entry *next;
    char name[PRESET_NAME_MAX + 1];
    char layout[4];
    int64_t alignment;
    char device[8];  /* "" = unset */
    char managed[8]; /* "" = unset */
};

/* The built-in presets.  "C"/"F" derive the layout from the index position; the backends fix
 * it by axis meaning.  Alignments in bytes: gtx86 a 64-byte cache line (GT4Py's 8
 * float64 items), gtcuda 256 bytes (its 32 float64 items). */
static struct preset_entry builtin[] = {
    {&builtin[1], "C", "C", 1, "", ""},
    {&builtin[2], "F", "F", 1, "", ""},
    {&builtin[3], "gtx86", "IJK", 64, "", ""},
    {NULL, "gtcuda", "KJI", 256, "gpu", ""},
};

static _Atomic(struct preset_entry *) head = &builtin[0];

static const struct preset_entry *lookup(const char *name)
{
    for (const struct preset_entry *e = atomic_load_explicit(&head, memory_order_acquire); e; e = e->next)
        if (!strcmp(e->name, name))
            return e;
    return NULL;
}

static void to_public(const struct preset_entry *e, usmarr_storage_preset_t *out)
{
    out->name = e->name;
    out->layout = e->layout;
    out->alignment = e->alignment;
    out->device = e->device[0] ? e->device : NULL;
    out->managed = e->managed[0] ? e->managed : NULL;
}

int usmarr__storage_preset_get(const char *name, usmarr_storage_preset_t *preset, const char *what)
{
    const struct preset_entry *e = lookup(name);
    if (e) {
        to_public(e, preset);
        return 0;
    }
    /* The detail lists the known names, each once (a shadowed entry repeats its name). */
    char known[256] = "";
    size_t n = 0;
    for (const struct preset_entry *p = atomic_load_explicit(&head, memory_order_acquire); p; p = p->next) {
        if (lookup(p->name) != p || n + strlen(p->name) + 8 >= sizeof known)
            continue;
        n += (size_t)snprintf(known + n, sizeof known - n, "%s\"%s\"", n ? ", " : "", p->name);
    }
    return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s=\"%.64s\" is not a known preset (known: %s)", what, name,
                        known);
}

int usmarr_storage_preset_find(const char *name, usmarr_storage_preset_t *preset)
{
    usmarr__clear_error();
    if (!name || !preset)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "%s is NULL", !name ? "name" : "preset");
    return usmarr__storage_preset_get(name, preset, "name");
}

int usmarr_storage_preset_register(const usmarr_storage_preset_t *preset)
{
    usmarr__clear_error();
    if (!preset)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "preset is NULL");
    if (!preset->name || !preset->name[0] || strlen(preset->name) > PRESET_NAME_MAX)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "preset->name %s (it must have 1 to %d bytes)",
                            !preset->name ? "is NULL" : !preset->name[0] ? "is empty" : "is too long",
                            PRESET_NAME_MAX);
    if (!preset->layout)
        return usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "preset->layout is NULL (\"C\", \"F\" or a permutation "
                                                          "of \"IJK\")");
    int rc = 0;
    if (strcmp(preset->layout, "C") && strcmp(preset->layout, "F"))
        rc = usmarr__storage_check_layout(preset->layout, "preset->layout");
    if (!rc && preset->alignment < 1)
        rc = usmarr__fail(USMARR_ERROR_INVALID_ARGUMENT, "preset->alignment=%lld is below 1 byte",
                          (long long)preset->alignment);
    int device = 0, managed = 0;
    if (!rc)
        rc = usmarr__storage_parse_device(preset->device, "preset->device", &device);
    if (!rc)
        rc = usmarr__storage_parse_managed(preset->managed, "preset->managed", &managed);
    if (rc)
        return rc;
    struct preset_entry *e = calloc(1, sizeof *e);
    if (!e)
        return usmarr__fail(USMARR_ERROR_OUT_OF_HOST_MEMORY, "preset table entry");
    strcpy(e->name, preset->name);
    strcpy(e->layout, preset->layout);
    e->alignment = preset->alignment;
    if (preset->device)
        strcpy(e->device, preset->device);
    if (preset->managed)
        strcpy(e->managed, preset->managed);
    struct preset_entry *old = atomic_load_explicit(&head, memory_order_relaxed);
    do
        e->next = old;
    while (!atomic_compare_exchange_weak_explicit(&head, &old, e, memory_order_release, memory_order_relaxed));
    return 0;
}
