#ifndef LAUNCHPROF_CLOCK_CHAIN_H
#define LAUNCHPROF_CLOCK_CHAIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The core's clock probe (LaunchCore's `ClockProbe`): `iterations` × 8 additions, each depending on
/// the one before, so it takes 8 × `iterations` core clock cycles on any x86-64 or arm64 core (an
/// addition's latency is one cycle there): its time tells the core's clock at that moment. Written
/// in assembly so that no compiler folds the chain into a formula. Returns the chain's result (so the
/// work cannot be skipped): 1 + 8 × (0 + 1 + … + (iterations − 1)).
uint64_t lp_clock_chain(uint64_t iterations);

#ifdef __cplusplus
}
#endif

#endif
