#ifndef LAUNCHPROF_XML_SHIM_H
#define LAUNCHPROF_XML_SHIM_H

/// A safe SAX parse through libxml2 for launchprof's theme and data files: no network, no entity
/// substitution, no DTD loading, libxml2's amplification limits on (never XML_PARSE_HUGE), a DOCTYPE
/// or entity declaration refused inside the parser, and a nesting limit.

typedef struct {
    /// An element starts: `attributes` holds, per attribute, its name (NUL-terminated), then the
    /// start and the end of its value (not terminated): `count` triples. Nothing is copied.
    void (*start)(void *context, const char *name, const char *const *attributes, int count, int line, int column);
    void (*end)(void *context);
    void (*text)(void *context, const char *characters, int length);
} lp_xml_callbacks;

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

/// Parses `length` bytes; returns 0 when the document is well-formed and nothing was refused,
/// else fills `error` and returns -1.
int lp_xml_parse(const char *bytes, int length, int max_depth, const lp_xml_callbacks *callbacks,
                 void *context, lp_xml_error *error);

#endif
