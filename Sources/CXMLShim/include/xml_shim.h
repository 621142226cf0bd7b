#ifndef LAUNCHPROF_XML_SHIM_H
#define LAUNCHPROF_XML_SHIM_H

#include <stdint.h>

/// A safe SAX parse through libxml2 for launchprof's theme and data files, into one flat document:
/// no network, no entity substitution, no DTD loading, libxml2's amplification limits on (never
/// XML_PARSE_HUGE), a DOCTYPE or entity declaration refused inside the parser, and a nesting limit.
///
/// The document is a handful of arrays, filled by the SAX callbacks in C without a call into Swift:
/// elements in document order (the root is element 0) linked by first-child and next-sibling
/// indexes; attributes as a range of one array per element; element and attribute names interned
/// once per parse as small ids; attribute values, trimmed text and names as byte ranges of one
/// buffer. Every offset and length fits an int32_t (the parse fails with XML_ERR_NO_MEMORY before
/// one would not).

/// One element. Indexes are -1 for "none".
typedef struct {
    /// The element's name, an index into `names` (`prefix:local` for a prefixed name).
    int32_t name;
    int32_t first_child;
    int32_t next_sibling;
    /// Its attributes: `attributes[first_attribute ..< first_attribute + attribute_count]`.
    int32_t first_attribute;
    int32_t attribute_count;
    /// The text directly inside it (all its text nodes, joined), without leading and trailing XML
    /// whitespace: `bytes[text_start ..< text_start + text_length]`.
    int32_t text_start;
    int32_t text_length;
    /// Where its start tag ends, 1-based.
    int32_t line;
    int32_t column;
} lp_xml_element;

/// One attribute: its local name (an index into `names`) and its value's bytes.
typedef struct {
    int32_t name;
    int32_t value_start;
    int32_t value_length;
} lp_xml_attribute;

/// A run of `bytes`.
typedef struct {
    int32_t start;
    int32_t length;
} lp_xml_range;

/// A parsed document (or, after an error, what was read of it).
typedef struct {
    lp_xml_element *elements;
    int32_t element_count;
    lp_xml_attribute *attributes;
    int32_t attribute_count;
    /// Each distinct name once, as a range of `bytes`.
    lp_xml_range *names;
    int32_t name_count;
    /// UTF-8 (libxml2 has checked it), not NUL-terminated.
    char *bytes;
    int32_t byte_count;
    /// After an error: the innermost element still open, or -1.
    int32_t open_element;
} lp_xml_document;

/// The first error: libxml2's code (xmlParserErrors), or one of the LP_XML_ codes below.
typedef struct {
    int code;
    int line;
    int column;
} lp_xml_error;

enum {
    LP_XML_DOCTYPE = -1,
    LP_XML_TOO_DEEP = -2,
    LP_XML_ENTITY = -3,
};

/// Parses `length` bytes into a new document (free it with `lp_xml_document_free`). `error->code`
/// is 0 when the document is well-formed and nothing was refused; otherwise `error` says what and
/// where, and the document holds what was read before. NULL only when memory ran out at the start.
lp_xml_document *lp_xml_parse_document(const char *bytes, int length, int max_depth, lp_xml_error *error);

/// Frees a document from `lp_xml_parse_document` (NULL is fine). Its arrays may be kept for the
/// next parse (one document's, of a few MiB at most).
void lp_xml_document_free(lp_xml_document *document);

/// 1 when the `length` bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing past U+10FFFF) and none is NUL, else 0. Eight ASCII bytes a step.
int lp_xml_is_utf8_without_nul(const unsigned char *bytes, long length);

#endif
