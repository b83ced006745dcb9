// What ptxas folds across PTX instructions, which a lowering row (one PTX
// instruction at a time) cannot see: extra key words for the rows of
// configs/ptx/lowering.txt, computed once per linked program.
#pragma once
#include <string>
#include <vector>

#include "ptx/module.h"

namespace accelsim::ptx {

// Per instruction, the pseudo-modifiers its lowering key gets beyond its own
// spelling (empty for most):
//   madwide  a 64-bit add of a value made by one `mul.wide` by an immediate
//            (index * element size): ptxas emits one IMAD.WIDE for the pair.
//   lea      a shift left by an immediate whose every reader is an integer
//            add: ptxas folds it into the adds (LEA / IMAD, LEA.HI.X).
std::vector<std::vector<std::string>> lowering_context(const std::vector<Inst>& insts);

// A kernel's branch to a block that only returns becomes an exit with the
// branch's guard, as ptxas makes it ("@P0 EXIT"): the lanes taking it leave
// there and do not also execute the final return.
void branches_to_exit(std::vector<Inst>& insts);

}  // namespace accelsim::ptx
