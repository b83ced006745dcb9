// xz input through liblzma's stream decoder (concatenated streams allowed).
// A stream that ends early is reported, never taken as end of file.
#include "base/byte_source_impl.h"

#ifdef ACCELSIM_HAVE_LZMA
#include <lzma.h>

#include <cstdint>
#include <vector>
#endif

namespace accelsim {

#ifdef ACCELSIM_HAVE_LZMA
namespace {

class XzSource : public ByteSource {
 public:
  explicit XzSource(std::FILE* f) : f_(f), in_(1 << 18) { start(); }
  ~XzSource() override {
    lzma_end(&strm_);
    std::fclose(f_);
  }
  size_t read(char* dst, size_t cap) override;
  void rewind() override {
    std::rewind(f_);
    lzma_end(&strm_);
    start();
  }

 private:
  std::FILE* f_;
  std::vector<uint8_t> in_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  bool input_done_ = false, finished_ = false;

  void start() {
    strm_ = LZMA_STREAM_INIT;
    input_done_ = finished_ = false;
    if (lzma_stream_decoder(&strm_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw ByteSourceError("xz", "cannot initialise the xz decoder");
  }
};

size_t XzSource::read(char* dst, size_t cap) {
  if (finished_ || cap == 0) return 0;
  strm_.next_out = reinterpret_cast<uint8_t*>(dst);
  strm_.avail_out = cap;
  while (strm_.avail_out == cap) {  // loop until some output (or the end)
    if (strm_.avail_in == 0 && !input_done_) {
      strm_.next_in = in_.data();
      strm_.avail_in = std::fread(in_.data(), 1, in_.size(), f_);
      if (strm_.avail_in == 0) input_done_ = true;
    }
    lzma_ret r = lzma_code(&strm_, input_done_ ? LZMA_FINISH : LZMA_RUN);
    if (r == LZMA_STREAM_END) {
      finished_ = true;
      break;
    }
    if (r != LZMA_OK) {
      const char* why = r == LZMA_BUF_ERROR ? "truncated xz stream"
                        : r == LZMA_DATA_ERROR ? "corrupt xz data"
                        : r == LZMA_FORMAT_ERROR ? "not xz data"
                        : r == LZMA_MEM_ERROR ? "out of memory decoding xz"
                                              : "xz decoding failed";
      throw ByteSourceError("xz", why);
    }
  }
  return cap - strm_.avail_out;
}

}  // namespace

std::unique_ptr<ByteSource> open_xz_source(std::FILE* f) { return std::make_unique<XzSource>(f); }
#else
std::unique_ptr<ByteSource> open_xz_source(std::FILE* f) {
  std::fclose(f);
  throw ByteSourceError("xz", "this build has no liblzma: cannot read .xz traces");
}
#endif

}  // namespace accelsim
