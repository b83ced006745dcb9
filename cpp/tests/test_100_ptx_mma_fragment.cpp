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
    // the other wmma shapes (register counts as nvcc 13 declares them), f64, the m8n8 shapes, int4
    {kM32n8k16, kF16, kF32, 8, 8, 8},   {kM8n32k16, kF16, kF16, 8, 8, 4},   {kM32n8k16, kBF16, kF32, 8, 2, 8},
    {kM8n32k16, kBF16, kF32, 2, 8, 8},  {kM32n8k16, kS8, kS32, 4, 1, 8},    {kM8n32k16, kU8, kS32, 1, 4, 8},
    {kM8n8k4, kF64, kF64, 1, 1, 2},     {kM8n8k16, kS8, kS32, 1, 1, 2},     {kM8n8k32, kS4, kS32, 1, 1, 2},
    {kM16n8k32, kU4, kS32, 2, 1, 4},    {kM16n8k64, kS4, kS32, 4, 2, 4},
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
        for (int i = 0; i < frag_elements(f.shape, which, t); ++i) {
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

TEST_CASE("143-m8n8k4-f16-fragments-are-the-isa-s-quad-pair-layouts") {
  // each quad pair (lanes 4q..4q+3 and 16+4q..16+4q+3) covers its own 8x8x4 product once, in the
  // PTX ISA's register counts (A and B two f16x2 registers, C/D four f16x2 or eight f32)
  CHECK_EQ(frag_regs(kM8n8k4, 0, kF16), 2);
  CHECK_EQ(frag_regs(kM8n8k4, 2, kF16), 4);
  CHECK_EQ(frag_regs(kM8n8k4, 2, kF32), 8);
  for (int which = 0; which < 3; ++which)
    for (int layout = 0; layout < 2; ++layout)
      for (Ty t : {kF16, kF32}) {
        if (which < 2 && t == kF32) continue;
        std::set<std::pair<uint32_t, uint32_t>> seen;
        for (uint32_t lane = 0; lane < 32; ++lane)
          for (int i = 0; i < frag_elements(kM8n8k4, which, t); ++i) {
            const Coord c = frag_coord(kM8n8k4, which, t, lane, i, layout == 1);
            const uint32_t q = (lane >> 2) & 3;  // quad pair q's block of the stacked matrices
            CHECK(which == 1 ? c.col / 8 == q && c.row < 4 : c.row / 8 == q && c.col < (which == 0 ? 4u : 8u));
            CHECK(seen.insert({c.row, c.col}).second);
          }
        CHECK_EQ(seen.size(), size_t(which == 2 ? 256 : 128));
      }
  // lane 18: quad pair 0's high group, threadID_in_group 2
  const Coord a_row = frag_coord(kM8n8k4, 0, kF16, 18, 3);  // row-major A: row t + 4, column i
  CHECK(a_row.row == 6 && a_row.col == 3);
  const Coord a_col = frag_coord(kM8n8k4, 0, kF16, 18, 1, true);  // column-major A: row i + 4, column t
  CHECK(a_col.row == 5 && a_col.col == 2);
  const Coord b_row = frag_coord(kM8n8k4, 1, kF16, 18, 1);  // row-major B: row t, column i + 4
  CHECK(b_row.row == 2 && b_row.col == 5);
  const Coord c_f32 = frag_coord(kM8n8k4, 2, kF32, 18, 6);  // f32 C: row (t&1)+(i&2)+4, col (t&2)+(i&1)+(i&4)
  CHECK(c_f32.row == 6 && c_f32.col == 6);
  const Coord c_q3 = frag_coord(kM8n8k4, 2, kF16, 13, 5);  // lane 13: quad pair 3, low group, t 1
  CHECK(c_q3.row == 25 && c_q3.col == 5);
  // the m8n8 shapes' rows are groupID alone; s4 packs eight to a register
  const Coord a_s4 = frag_coord(kM8n8k32, 0, kS4, 6, 7);  // row g, column 8t + 7
  CHECK(a_s4.row == 1 && a_s4.col == 23);
  const Coord b_s4 = frag_coord(kM16n8k64, 1, kU4, 6, 9);  // row 8t + 1 + 32, column g
  CHECK(b_s4.row == 49 && b_s4.col == 1);
  const Coord c_f64 = frag_coord(kM8n8k4, 2, kF64, 6, 1);  // row g, column 2t + 1
  CHECK(c_f64.row == 1 && c_f64.col == 5);
}
