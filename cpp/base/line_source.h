// Lines of a (possibly compressed) text file, handed out as views into one
// reused buffer: no allocation per line. Tracks 1-based line numbers.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_source.h"
#include "base/default_init_allocator.h"

namespace accelsim {

class LineSource {
 public:
  // Throws TraceError (line 0) if the file cannot be opened.
  explicit LineSource(std::string path);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // Next line without its end-of-line characters; false at end of file.
  // The view stays valid until the next call. Throws TraceError on corrupt
  // compressed data or an absurdly long line.
  bool next(std::string_view& line);
  // Number of the line last returned (0 before the first).
  int64_t line_number() const { return line_; }
  // Bytes of (decompressed) text handed out so far, line ends included.
  uint64_t offset() const { return filled_ - (end_ - begin_); }
  // True if the last line returned had no end-of-line (file cut short?).
  bool last_line_unterminated() const { return unterminated_; }
  void rewind();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unique_ptr<ByteSource> src_;
  std::vector<char, DefaultInitAllocator<char>> buf_;  // not zero-filled: see the allocator
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false, unterminated_ = false;
  int64_t line_ = 0;
  uint64_t filled_ = 0;  // bytes read from src_ since the start
  bool fill();
};

}  // namespace accelsim
