// The compressed byte sources (internal to the reader). Each takes ownership
// of the already opened FILE (positioned at the start).
#pragma once
#include <cstdio>
#include <memory>
#include <string>

#include "base/byte_source.h"

namespace accelsim {

std::unique_ptr<ByteSource> open_gzip_source(std::FILE* f, const std::string& path);
std::unique_ptr<ByteSource> open_xz_source(std::FILE* f);

}  // namespace accelsim
