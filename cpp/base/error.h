// Error types the core throws on bad input; the bindings turn each into the
// matching Python exception. The core never exits or aborts on user input.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace accelsim {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A problem in an input file: where it is (path, 1-based line, 0 if unknown)
// and which field of the format was wrong.
class TraceError : public Error {
 public:
  TraceError(std::string path, int64_t line, std::string field, std::string detail);
  const std::string& path() const { return path_; }
  int64_t line() const { return line_; }
  const std::string& field() const { return field_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string path_;
  int64_t line_;
  std::string field_;
  std::string detail_;
};

// A configuration value the core cannot use (the Python layer validates first;
// this guards direct C++ users).
class ConfigError : public Error {
 public:
  ConfigError(std::string key, std::string detail);
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// No progress while work is outstanding; the message names what is stuck.
class DeadlockError : public Error {
 public:
  using Error::Error;
};

}  // namespace accelsim
