// Errors in PTX input (parse, validation, emulation, kernel arguments): where
// (file, 1-based line and column, 0 if unknown) and the offending token.
#pragma once
#include <cstdint>
#include <string>

#include "base/error.h"

namespace accelsim::ptx {

class PtxError : public Error {
 public:
  PtxError(std::string path, int64_t line, int64_t column, std::string token, std::string detail)
      : Error(format(path, line, column, token, detail)),
        path_(std::move(path)), line_(line), column_(column), token_(std::move(token)) {}
  const std::string& path() const { return path_; }
  int64_t line() const { return line_; }
  int64_t column() const { return column_; }
  const std::string& token() const { return token_; }

 private:
  static std::string format(const std::string& path, int64_t line, int64_t col, const std::string& token,
                            const std::string& detail);
  std::string path_;
  int64_t line_, column_;
  std::string token_;
};

}  // namespace accelsim::ptx
