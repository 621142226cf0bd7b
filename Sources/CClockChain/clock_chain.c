// The core's clock probe (see include/CClockChain.h).
#include "CClockChain.h"

uint64_t lp_clock_chain(uint64_t iterations) {
    uint64_t x = 1;
    for (uint64_t i = 0; i < iterations; i++) {
#if defined(__x86_64__)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x) : "r"(i));
#elif defined(__aarch64__)
        __asm__ volatile("add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
                         "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1"
                         : "+r"(x) : "r"(i));
#else
        for (int k = 0; k < 8; k++) { x += i; __asm__ volatile("" : "+r"(x)); }
#endif
    }
    return x;
}
