// 14x: tensor-core fragment geometry (ptx/mma_fragment.h): every fragment
// covers its matrix exactly once, register counts are the PTX ISA's, and
// elements sit where the ISA's figures put them.
#include <set>
#include <utility>

#include "ptx/mma_fragment.h"
#include "tests/harness.h"

using namespace accelsim::ptx;

namespace {

struct Form {
  MmaShape shape;
  Ty ab, acc;
  int regs_a, regs_b, regs_acc;  // the PTX ISA's fragment tables
};

constexpr Form kForms[] = {
    {kM16n8k16, kF16, kF32, 4, 2, 4},  {kM16n8k8, kF16, kF16, 2, 1, 2},   {kM16n8k16, kBF16, kF32, 4, 2, 4},
    {kM16n8k8, kTF32, kF32, 4, 2, 4},  {kM16n8k4, kTF32, kF32, 2, 1, 4},  {kM16n8k16, kS8, kS32, 2, 1, 4},
    {kM16n8k32, kU8, kS32, 4, 2, 4},   {kM16n16k16, kF16, kF32, 8, 8, 8}, {kM16n16k16, kF16, kF16, 8, 8, 4},
    {kM16n16k16, kBF16, kF32, 4, 4, 8}, {kM16n16k8, kTF32, kF32, 4, 4, 8}, {kM16n16k16, kS8, kS32, 2, 2, 8},
};

}  // namespace

TEST_CASE("141-each-fragment-covers-its-matrix-once-in-the-isa-s-register-count") {
  for (const Form& f : kForms) {
    const MmaDims d = mma_dims(f.shape);
    CHECK_EQ(frag_regs(f.shape, 0, f.ab), f.regs_a);
    CHECK_EQ(frag_regs(f.shape, 1, f.ab), f.regs_b);
    CHECK_EQ(frag_regs(f.shape, 2, f.acc), f.regs_acc);
    for (int which = 0; which < 3; ++which) {
      const Ty t = which == 2 ? f.acc : f.ab;
      const uint32_t rows = which == 1 ? d.k : d.m, cols = which == 0 ? d.k : d.n;
      std::set<std::pair<uint32_t, uint32_t>> seen;
      for (uint32_t lane = 0; lane < 32; ++lane)
        for (int i = 0; i < frag_elements(f.shape, which); ++i) {
          const Coord c = frag_coord(f.shape, which, t, lane, i);
          CHECK(c.row < rows && c.col < cols);
          CHECK(seen.insert({c.row, c.col}).second);  // no element twice
        }
      CHECK_EQ(seen.size(), size_t(rows) * cols);  // and none missing
    }
  }
}

TEST_CASE("142-fragment-elements-sit-where-the-isa-figures-put-them") {
  // lane 6: groupID 1, threadID_in_group 2
  const Coord a_tf32 = frag_coord(kM16n8k8, 0, kTF32, 6, 3);  // a3: row g + 8, column t + 4
  CHECK(a_tf32.row == 9 && a_tf32.col == 6);
  const Coord b_tf32 = frag_coord(kM16n8k8, 1, kTF32, 6, 1);  // b1: row t + 4, column g
  CHECK(b_tf32.row == 6 && b_tf32.col == 1);
  const Coord a_s8 = frag_coord(kM16n8k32, 0, kS8, 6, 13);  // a13: row g + 8, column 4t + 1 + 16
  CHECK(a_s8.row == 9 && a_s8.col == 25);
  const Coord b_s8 = frag_coord(kM16n8k32, 1, kS8, 6, 6);  // b6: row 4t + 2 + 16, column g
  CHECK(b_s8.row == 26 && b_s8.col == 1);
  const Coord a_f16 = frag_coord(kM16n8k16, 0, kF16, 6, 5);  // a5: row g, column 2t + 1 + 8
  CHECK(a_f16.row == 1 && a_f16.col == 13);
  const Coord d_wmma = frag_coord(kM16n16k16, 2, kF32, 6, 7);  // the second n8 tile's d3
  CHECK(d_wmma.row == 9 && d_wmma.col == 13);
  // wmma's f16 A repeats its 8 elements in registers 4-7
  const Coord rep = frag_coord(kM16n16k16, 0, kF16, 6, 13), orig = frag_coord(kM16n16k16, 0, kF16, 6, 5);
  CHECK(rep.row == orig.row && rep.col == orig.col);
}
