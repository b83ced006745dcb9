// The unit in which sector masks cross the L1 / below-L1 boundary: 32 B
// granules of a line (MemRequest::sector_mask, MemResponse::sector_mask).
// Each cache keeps its own sector size (32 B sectored, or a whole line for a
// non-sectored cache) and converts at its boundary, so a non-sectored L1 over
// a sectored L2 (Kepler..Pascal) or a non-sectored L2 (GPGPU-Sim 'N' caches)
// need no special case in the parts between them.
#pragma once
#include <cstdint>

namespace accelsim {

inline constexpr uint32_t kGranuleBytes = 32;

// Granule bits covered by sector `s` of a cache with `sector_bytes` sectors.
inline uint8_t granules_of_sector(uint32_t s, uint32_t sector_bytes) {
  const uint32_t per = sector_bytes / kGranuleBytes;  // 1 (sectored) .. 4 (128 B line)
  return uint8_t(((1u << per) - 1u) << (s * per));
}

// A cache's sector mask expanded to granules.
inline uint8_t granules_of_sectors(uint8_t sectors, uint32_t sector_bytes) {
  if (sector_bytes == kGranuleBytes) return sectors;
  uint8_t g = 0;
  for (uint32_t s = 0; sectors >> s; ++s)
    if (sectors >> s & 1) g |= granules_of_sector(s, sector_bytes);
  return g;
}

// The cache's sectors that hold any of these granules.
inline uint8_t sectors_of_granules(uint8_t granules, uint32_t sector_bytes) {
  if (sector_bytes == kGranuleBytes) return granules;
  const uint32_t per = sector_bytes / kGranuleBytes;
  uint8_t s = 0;
  for (uint32_t g = 0; granules >> g; ++g)
    if (granules >> g & 1) s |= uint8_t(1u << (g / per));
  return s;
}

}  // namespace accelsim
