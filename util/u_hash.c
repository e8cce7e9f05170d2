/*
 * u_hash.c - the project's one hash function: XXH3 from Debian's libxxhash.
 *
 * Hash tables (u_map, u_intern) and the recorder's state fingerprints all hash
 * through here.  The README's bound on fingerprint collisions (n^2 / 2^97) assumes
 * a well-mixed 128-bit hash; XXH3-128 is one whose quality is tested and maintained
 * upstream (SMHasher), which our own multiply-xorshift lanes were not.  Measured
 * against them (bench: 16-180 byte keys, the sizes of pan's state vectors): as fast
 * from 50 bytes on, 2-3 ns slower below (README "Dependencies").
 */
#include "util.h"

/* The XXH3 code compiled in here, not called in libxxhash.so: the hash tables hash an
 * 8-byte key per probe, and the call through the PLT into the library's dispatch
 * was 4% of pan -C's time on BEEM's bakery.4 (same function, same values). */
#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t u_hash_bytes(const void *key, size_t n)
{
    return XXH3_64bits(key, n);
}

uint64_t u_hash64(uint64_t k)
{
    return XXH3_64bits(&k, sizeof k);
}

void u_fingerprint(const void *key, size_t n, uint64_t out[2])
{
    XXH128_hash_t h = XXH3_128bits(key, n);
    out[0] = h.low64;
    out[1] = h.high64;
}
