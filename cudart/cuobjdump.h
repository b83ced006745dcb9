// The fallback when the runtime cannot decode a fat binary itself (a
// compressed entry and no libzstd / liblz4 on the machine): `cuobjdump -ptx`
// of the file holding it (the nvidia-cuda-cuobjdump wheel's, found by the
// launcher) prints every PTX entry of the file; the texts that define all of
// a fat binary's registered kernels are its own.
#pragma once
#include <string>
#include <vector>

#include "ptx/fatbin.h"

namespace accelsim::cudart {

// Every PTX text cuobjdump prints for `file`, with its arch; throws Error
// when cuobjdump cannot be run or prints none.
std::vector<ptx::PtxText> cuobjdump_ptx(const std::string& tool, const std::string& file);

}  // namespace accelsim::cudart
