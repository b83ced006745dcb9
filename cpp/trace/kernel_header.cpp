#include "trace/kernel_header.h"

#include "base/error.h"
#include "base/tokenizer.h"
#include "base/utf8.h"

namespace accelsim::trace {

namespace {

struct HeaderParser {
  const std::string& path;
  int64_t line;

  [[noreturn]] void fail(std::string_view key, const std::string& detail) const {
    throw TraceError(path, line, std::string(key), detail);
  }
  uint64_t u64(std::string_view key, std::string_view v) const {
    uint64_t out;
    if (!parse_u64(trim(v), out)) fail(key, "expected a decimal number, got '" + printable(v) + "'");
    return out;
  }
  uint32_t u32(std::string_view key, std::string_view v) const {
    uint64_t out = u64(key, v);
    if (out > UINT32_MAX) fail(key, "value too large: " + printable(v));
    return uint32_t(out);
  }
  uint64_t hex(std::string_view key, std::string_view v) const {
    uint64_t out;
    if (!parse_hex(trim(v), out)) fail(key, "expected a hex address, got '" + printable(v) + "'");
    return out;
  }
  // "(x,y,z)" with positive components.
  Dim3 dim3(std::string_view key, std::string_view v) const {
    std::string_view s = trim(v);
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') fail(key, "expected (x,y,z), got '" + printable(v) + "'");
    s = s.substr(1, s.size() - 2);
    uint32_t c[3];
    for (int i = 0; i < 3; ++i) {
      size_t comma = s.find(',');
      if ((i < 2) == (comma == std::string_view::npos)) fail(key, "expected (x,y,z), got '" + printable(v) + "'");
      c[i] = u32(key, s.substr(0, comma));
      if (c[i] == 0) fail(key, "dimensions must be positive, got '" + printable(v) + "'");
      s = i < 2 ? s.substr(comma + 1) : std::string_view();
    }
    return Dim3{c[0], c[1], c[2]};
  }
  // "1.2" -> 1: only the integer part selects the layout.
  int version(std::string_view key, std::string_view v) const {
    std::string_view s = trim(v);
    std::string_view whole = s.substr(0, s.find('.'));
    uint32_t n;
    if (!parse_u32(whole, n) || n > 1000) fail(key, "expected a version number, got '" + printable(v) + "'");
    return int(n);
  }
};

void apply(KernelInfo& k, HeaderLines& where, const HeaderParser& p, std::string_view key,
           std::string_view value) {
  if (key == "kernel name") {
    k.name = std::string(trim(value));
    // Decided here, once: every reader of the name (trace-info, a run's result
    // table) gets text, never bytes that fail to decode after a whole run.
    if (size_t bad = utf8_error_at(k.name); bad != std::string_view::npos)
      p.fail(key, "not UTF-8 text: byte " + std::to_string(bad + 1) + " is 0x" +
                      printable(k.name.substr(bad, 1)).substr(2) + " in '" + printable(k.name, 60) +
                      "' (the tracer writes mangled C++ names; is the file damaged?)");
  } else if (key == "kernel id") {
    k.id = p.u32(key, value);
  } else if (key == "grid dim") {
    k.grid = p.dim3(key, value);
    where.grid = p.line;
  } else if (key == "block dim") {
    k.block = p.dim3(key, value);
    where.block = p.line;
  } else if (key == "shmem") {
    k.shmem_bytes = p.u32(key, value);
  } else if (key == "nregs") {
    k.nregs = p.u32(key, value);
  } else if (key == "binary version") {
    k.binary_version = p.u32(key, value);
    where.binary_version = p.line;
  } else if (key == "cuda stream id") {
    k.stream = p.u64(key, value);
  } else if (key == "shmem base_addr") {
    k.shmem_base = p.hex(key, value);
  } else if (key == "local mem base_addr") {
    k.local_base = p.hex(key, value);
  } else if (key == "accelsim tracer version") {
    k.tracer_version = p.version(key, value);
    where.tracer_version = p.line;
  } else if (key == "enable lineinfo") {
    k.lineinfo = p.u32(key, value) != 0;
  }
  // other keys (nvbit version, ...) are informational
}

void check_required(const KernelInfo& k, const HeaderLines& where, const std::string& path) {
  auto missing = [&](const char* key, const char* why) {
    throw TraceError(path, where.format, key, std::string("header has no '-") + key + " = ...' line" + why);
  };
  if (!where.tracer_version)
    missing("accelsim tracer version",
            " (the layout cannot be told: add '-accelsim tracer version = 1' for the old "
            "tb/warp-prefixed lines or 3..5 for the current layout)");
  if (!where.grid) missing("grid dim", "");
  if (!where.block) missing("block dim", "");
  if (!where.binary_version) missing("binary version", " (it selects the ISA table)");
  if (k.block.count() > 1024)
    throw TraceError(path, where.block, "block dim",
                     "a thread block has at most 1024 threads, got " + std::to_string(k.block.count()));
}

}  // namespace

KernelInfo read_kernel_header(LineSource& src, HeaderLines& where) {
  KernelInfo k;
  k.path = src.path();
  std::string_view line;
  while (src.next(line)) {
    std::string_view s = trim(line);
    if (s.empty()) continue;
    if (s.front() == '#') {
      if (s.starts_with("#BEGIN_TB") || s.starts_with("#END_TB"))
        throw TraceError(k.path, src.line_number(), "#traces format",
                         "header has no '#traces format = ...' line before the first thread block");
      where.format = src.line_number();
      check_required(k, where, k.path);
      return k;
    }
    if (s.front() != '-') continue;  // the reference ignores other header lines too
    size_t eq = s.find('=');
    if (eq == std::string_view::npos) continue;
    HeaderParser p{k.path, src.line_number()};
    apply(k, where, p, trim(s.substr(1, eq - 1)), s.substr(eq + 1));
  }
  throw TraceError(k.path, src.line_number() + 1, "#traces format",
                   src.line_number() == 0 ? "file is empty" : "file ends inside the header (no '#traces format' line)");
}

}  // namespace accelsim::trace
