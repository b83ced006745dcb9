// Shared helpers for the 5xx DRAM tests: a small channel config whose timing
// values are all different (so a test can tell which rule fired), and a loop
// that ticks a channel and collects completions and issued commands.
#pragma once
#include <vector>

#include "dram/dram_channel.h"

namespace accelsim::dram::testutil {

inline DramChannelConfig small_config(const char* scheduler = "frfcfs") {
  DramChannelConfig c;
  auto& t = c.timing;
  t[TimingParam::tCCD] = 2;
  t[TimingParam::tCCDL] = 4;
  t[TimingParam::tRRD] = 3;
  t[TimingParam::tRCD] = 5;
  t[TimingParam::tRAS] = 12;
  t[TimingParam::tRP] = 4;
  t[TimingParam::tRC] = 18;
  t[TimingParam::tCL] = 6;
  t[TimingParam::tWL] = 2;
  t[TimingParam::tCDLR] = 3;
  t[TimingParam::tWR] = 5;
  t[TimingParam::tRTPL] = 2;
  c.banks = 8;
  c.bank_groups = 4;  // banks 0 and 4 share group 0
  c.read_queue = 64;
  c.write_queue = 0;  // shared queue unless a test says otherwise
  c.return_queue = 64;
  c.bus_width = 16;
  c.burst_length = 2;
  c.data_command_ratio = 2;  // one command cycle per 32 B burst
  c.dual_bus = false;
  c.scheduler = scheduler;
  return c;
}

inline DramRequest rd(uint32_t tag, uint32_t bank, int64_t row) {
  DramRequest r;
  r.tag = tag;
  r.bank = bank;
  r.row = row;
  return r;
}

inline DramRequest wr(uint32_t tag, uint32_t bank, int64_t row) {
  DramRequest r = rd(tag, bank, row);
  r.is_write = true;
  return r;
}

// Ticks cycles [from, to) and pops completions as they become ready.
inline void run(DramChannel& ch, int64_t from, int64_t to, std::vector<DramCompletion>& done) {
  for (int64_t c = from; c < to; ++c) {
    ch.tick(Cycle(uint64_t(c)));
    DramCompletion d;
    while (ch.pop_completed(c, d)) done.push_back(d);
  }
}

// Cycle of the n-th (0-based) logged command of a kind (on a bank, or any
// bank when bank < 0); -1 if absent.
inline int64_t cmd_cycle(const std::vector<CommandRecord>& log, DramCommand cmd, int bank, int n = 0) {
  for (const CommandRecord& r : log)
    if (r.command == cmd && (bank < 0 || r.bank == static_cast<uint32_t>(bank)) && n-- == 0)
      return r.cycle;
  return -1;
}

}  // namespace accelsim::dram::testutil
