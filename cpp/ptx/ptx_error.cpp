#include "ptx/ptx_error.h"

namespace accelsim::ptx {

// "file:line:column: detail (at 'token')", the form compilers use.
std::string PtxError::format(const std::string& path, int64_t line, int64_t col, const std::string& token,
                             const std::string& detail) {
  std::string s = path.empty() ? std::string("<ptx>") : path;
  if (line > 0) s.append(":").append(std::to_string(line));
  if (line > 0 && col > 0) s.append(":").append(std::to_string(col));
  s.append(": ").append(detail);
  if (!token.empty()) s.append(" (at '").append(token).append("')");
  return s;
}

}  // namespace accelsim::ptx
