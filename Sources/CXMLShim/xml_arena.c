#include "xml_arena.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// The arena of the last document freed, kept for the next parse, or NULL. Parsing a file after
/// another (the theme, then a data file) then writes into memory already in use rather than into
/// fresh pages: at a few hundred KB, glibc would otherwise give the freed arena back to the system
/// (its trim threshold) and the next parse would fault every page in again, which costs more than
/// building the document. One arena at most, of at most `spare_limit` bytes.
static _Atomic(lp_xml_arena *) spare = NULL;
static const int64_t spare_limit = 4 << 20;

int lp_xml_reserve(void **items, int32_t *capacity, int64_t needed, size_t size) {
    if (needed <= *capacity) return 0;
    if (needed > INT32_MAX) return -1;
    int64_t grown = *capacity > 0 ? *capacity : 16;
    while (grown < needed) grown *= 2;
    if (grown > INT32_MAX) grown = INT32_MAX;
    void *moved = realloc(*items, (size_t)grown * size);
    if (!moved) return -1;
    *items = moved;
    *capacity = (int32_t)grown;
    return 0;
}

static void release(lp_xml_arena *arena) {
    if (!arena) return;
    free(arena->document.elements);
    free(arena->document.attributes);
    free(arena->document.names);
    free(arena->document.bytes);
    free(arena);
}

lp_xml_arena *lp_xml_arena_acquire(void) {
    lp_xml_arena *arena = atomic_exchange(&spare, NULL);
    if (!arena) arena = calloc(1, sizeof *arena);
    if (!arena) return NULL;
    lp_xml_document *d = &arena->document;
    d->element_count = 0;
    d->attribute_count = 0;
    d->name_count = 0;
    d->byte_count = 0;
    d->open_element = -1;
    return arena;
}

void lp_xml_document_free(lp_xml_document *document) {
    if (!document) return;
    lp_xml_arena *arena = (lp_xml_arena *)document;
    int64_t size = (int64_t)arena->element_capacity * (int64_t)sizeof(lp_xml_element) +
                   (int64_t)arena->attribute_capacity * (int64_t)sizeof(lp_xml_attribute) +
                   (int64_t)arena->name_capacity * (int64_t)sizeof(lp_xml_range) + arena->byte_capacity;
    if (size > spare_limit) {
        release(arena);
        return;
    }
    release(atomic_exchange(&spare, arena));
}
