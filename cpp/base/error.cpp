#include "base/error.h"

namespace accelsim {

namespace {
std::string trace_message(const std::string& path, int64_t line,
                          const std::string& field, const std::string& detail) {
  std::string msg = path;
  if (line > 0) (msg += ':') += std::to_string(line);  // appends: GCC 12 mis-warns on "x" + string
  msg += ": ";
  if (!field.empty()) msg += "field '" + field + "': ";
  return msg + detail;
}
}  // namespace

TraceError::TraceError(std::string path, int64_t line, std::string field, std::string detail)
    : Error(trace_message(path, line, field, detail)),
      path_(std::move(path)), line_(line), field_(std::move(field)), detail_(std::move(detail)) {}

ConfigError::ConfigError(std::string key, std::string detail)
    : Error("config key '" + key + "': " + detail), key_(std::move(key)) {}

}  // namespace accelsim
