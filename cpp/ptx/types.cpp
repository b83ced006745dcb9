#include "ptx/types.h"

namespace accelsim::ptx {

namespace {
constexpr const char* kTyNames[kTyCount] = {"", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
                                            "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "f32",
                                            "f64", "pred", "tf32", "s4", "u4"};
}

Ty ty_from(std::string_view s) {
  for (int i = 1; i < kTyCount; ++i)
    if (s == kTyNames[i]) return Ty(i);
  return kTyNone;
}

const char* ty_name(Ty t) { return t < kTyCount ? kTyNames[t] : "?"; }

Space space_from(std::string_view s) {
  if (s == "global") return kSpGlobal;
  if (s == "shared" || s == "shared::cta") return kSpShared;  // ::cta: the executing CTA's (PTX ISA 7.8)
  if (s == "local") return kSpLocal;
  if (s == "const") return kSpConst;
  if (s == "param") return kSpParam;
  if (s == "tex") return kSpTex;
  return kSpNone;
}

}  // namespace accelsim::ptx
