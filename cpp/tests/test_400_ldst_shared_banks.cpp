// 45x: shared memory bank conflicts (32 banks x 4 B).
#include "ldst/shared_banks.h"
#include "tests/harness.h"
#include "tests/ldst_test_util.h"

using accelsim::ldst::shared_bank_cycles;
using accelsim::testing::Lanes;
using accelsim::testing::strided;

namespace {

constexpr uint32_t kAll = 0xFFFFFFFFu;

}  // namespace

TEST_CASE("451-shared-stride-1-word-one-cycle") {
  CHECK_EQ(shared_bank_cycles(kAll, 4, strided(0, 4).a, 32), uint32_t{1});
}

TEST_CASE("452-shared-stride-2-words-two-cycles") {
  CHECK_EQ(shared_bank_cycles(kAll, 4, strided(0, 8).a, 32), uint32_t{2});
}

TEST_CASE("453-shared-stride-32-words-thirty-two-cycles") {
  CHECK_EQ(shared_bank_cycles(kAll, 4, strided(0, 128).a, 32), uint32_t{32});
}

TEST_CASE("454-shared-eight-way-conflict") {
  // Stride 8 words: lanes 0,4,8,... share bank 0 with distinct words.
  CHECK_EQ(shared_bank_cycles(kAll, 4, strided(0, 32).a, 32), uint32_t{8});
}

TEST_CASE("455-shared-broadcast-one-cycle") {
  CHECK_EQ(shared_bank_cycles(kAll, 4, strided(0x40, 0).a, 32), uint32_t{1});
  // Lanes in pairs on the same word: still conflict-free.
  Lanes l;
  for (int i = 0; i < 32; ++i) l.a[i] = (i / 2) * 4;
  CHECK_EQ(shared_bank_cycles(kAll, 4, l.a, 32), uint32_t{1});
}

TEST_CASE("456-shared-wide-accesses-split-into-phases") {
  // 8 B contiguous: two half-warp phases, each conflict-free.
  CHECK_EQ(shared_bank_cycles(kAll, 8, strided(0, 8).a, 32), uint32_t{2});
  // 16 B contiguous: four quarter-warp phases.
  CHECK_EQ(shared_bank_cycles(kAll, 16, strided(0, 16).a, 32), uint32_t{4});
  // 8 B with stride 16 B: each half-warp touches 32 words over 16 banks -> 2-way.
  CHECK_EQ(shared_bank_cycles(kAll, 8, strided(0, 16).a, 32), uint32_t{4});
  // Only the first half-warp active: one phase.
  CHECK_EQ(shared_bank_cycles(0x0000FFFFu, 8, strided(0, 8).a, 32), uint32_t{1});
  // Sub-word accesses behave like 4 B: four 1 B lanes share a word.
  CHECK_EQ(shared_bank_cycles(kAll, 1, strided(0, 1).a, 32), uint32_t{1});
}

TEST_CASE("457-shared-empty-mask-and-bank-count") {
  CHECK_EQ(shared_bank_cycles(0u, 4, strided(0, 4).a, 32), uint32_t{0});
  // 16 banks: stride-1 words wrap once -> 2 cycles.
  CHECK_EQ(shared_bank_cycles(kAll, 4, strided(0, 4).a, 16), uint32_t{2});
}
