// Raw bytes of a trace file, decompressed on the fly: plain text, gzip (zlib)
// or xz (liblzma). The compression is recognised by the file's magic bytes; a
// .gz / .xz name whose content does not match is an error.
#pragma once
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

namespace accelsim {

// Thrown by a byte source on unreadable or corrupt data; LineSource adds the
// line number and turns it into a TraceError.
struct ByteSourceError : std::runtime_error {
  ByteSourceError(std::string field, const std::string& detail)
      : std::runtime_error(detail), field(std::move(field)) {}
  std::string field;  // "file", "gzip" or "xz"
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `cap` bytes into `dst`; 0 only at the (checked) end of the data.
  virtual size_t read(char* dst, size_t cap) = 0;
  virtual void rewind() = 0;
};

// Opens `path`; throws ByteSourceError if it cannot be opened or the needed
// decompressor was not built in.
std::unique_ptr<ByteSource> open_byte_source(const std::string& path);

}  // namespace accelsim
