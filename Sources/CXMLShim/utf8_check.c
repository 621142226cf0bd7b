#include "xml_shim.h"
#include <stdint.h>
#include <string.h>

int lp_xml_is_utf8_without_nul(const unsigned char *s, long length) {
    if (!s || length <= 0) return 1;
    size_t n = (size_t)length, i = 0;
    while (i < n) {
        // Eight ASCII bytes at a time while none has bit 7 set and none is NUL.
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if ((w & 0x8080808080808080ull) || ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned char c = s[i];
        if (c == 0) return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        // RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
        size_t count;
        unsigned char low = 0x80, high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            count = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            count = 3;
            if (c == 0xE0) low = 0xA0;
            if (c == 0xED) high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            count = 4;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;
        } else {
            return 0;
        }
        if (n - i < count) return 0;
        if (s[i + 1] < low || s[i + 1] > high) return 0;
        for (size_t k = 2; k < count; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
        }
        i += count;
    }
    return 1;
}
