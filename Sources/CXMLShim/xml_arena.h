#ifndef LAUNCHPROF_XML_ARENA_H
#define LAUNCHPROF_XML_ARENA_H

#include "xml_shim.h"
#include <stddef.h>

/// A document's storage: the document (first, so that a document pointer is its arena's) and the
/// capacities of its arrays. Private to the shim.
typedef struct {
    lp_xml_document document;
    int32_t element_capacity;
    int32_t attribute_capacity;
    int32_t name_capacity;
    int32_t byte_capacity;
} lp_xml_arena;

/// An empty arena: the one a freed document left, when there is one (its arrays keep their
/// capacity), else a new one. NULL when memory ran out.
lp_xml_arena *lp_xml_arena_acquire(void);

/// Makes room for `needed` items of `size` bytes in `*items` (capacity `*capacity`), doubling; 0,
/// or -1 when memory ran out or `needed` passes INT32_MAX (`*items` is then unchanged).
int lp_xml_reserve(void **items, int32_t *capacity, int64_t needed, size_t size);

/// `lp_xml_reserve`, with the common case (room enough) inline.
static inline int lp_xml_ensure(void **items, int32_t *capacity, int64_t needed, size_t size) {
    return needed <= *capacity ? 0 : lp_xml_reserve(items, capacity, needed, size);
}

#endif
