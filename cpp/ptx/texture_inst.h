// The texture and surface instructions' shapes, checked and decoded once
// per program by prepare(): the geometry, tld4's component and suld/sust's
// out-of-range mode go into the instruction (Inst::geom, Inst::tex_mode);
// a shape the emulator does not run is a PtxError naming it.
#pragma once
#include <string>

#include "ptx/module.h"

namespace accelsim::ptx {

bool is_texture_inst(Op op);
void prepare_texture_inst(Inst& in, const std::string& path);

}  // namespace accelsim::ptx
