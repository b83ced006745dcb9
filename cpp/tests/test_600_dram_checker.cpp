// 617-619: randomized streams (619: with per-bank refresh) checked against an independent replay of the
// command log (every timing rule re-derived from the issued commands), and
// the per-bank queue bookkeeping against brute force.
#include <map>
#include <vector>

#include "dram/bank_queue.h"
#include "dram/dram_channel.h"
#include "tests/dram_test_util.h"
#include "tests/harness.h"

using namespace accelsim::dram;
using namespace accelsim::dram::testutil;

namespace {
uint64_t next_random(uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

// Checks spacing rules between pairs of logged commands; one pass keeping
// the last command of each kind per bank / group / channel.
void check_log(const std::vector<CommandRecord>& log, const DramChannelConfig& cfg) {
  const auto& t = cfg.timing;
  const int64_t never = -1000000;
  std::vector<int64_t> act(cfg.banks, never), pre(cfg.banks, never), col(cfg.banks, never);
  std::vector<int64_t> group_col(cfg.bank_groups, never);
  std::vector<bool> is_open(cfg.banks, false);
  int64_t last_act = never, last_col = never, last_write_data = never, last_read = never;
  int64_t last_ref = never;
  std::vector<int64_t> bank_ref(cfg.banks, never);  // per-bank refresh
  int64_t last_cycle = -1;
  int row_cmds = 0, col_cmds = 0;
  for (const CommandRecord& r : log) {
    if (r.cycle != last_cycle) row_cmds = col_cmds = 0, last_cycle = r.cycle;
    const uint32_t b = r.bank, g = bank_group_of(b, cfg.bank_groups);
    const bool is_col = r.command == DramCommand::read || r.command == DramCommand::write;
    (is_col ? col_cmds : row_cmds)++;
    CHECK(cfg.dual_bus ? (row_cmds <= 1 && col_cmds <= 1) : row_cmds + col_cmds <= 1);
    if (r.command == DramCommand::activate) {
      CHECK(r.cycle - act[b] >= t[TimingParam::tRC]);
      CHECK(r.cycle - pre[b] >= t[TimingParam::tRP]);
      CHECK(r.cycle - last_act >= t[TimingParam::tRRD]);
      CHECK(r.cycle - last_ref >= t[TimingParam::tRFC]);
      CHECK(r.cycle - bank_ref[b] >= t[TimingParam::tRFCpb]);
      act[b] = last_act = r.cycle;
      is_open[b] = true;
    } else if (r.command == DramCommand::precharge) {
      CHECK(r.cycle - act[b] >= t[TimingParam::tRAS]);
      pre[b] = r.cycle;
      is_open[b] = false;
    } else if (r.command == DramCommand::refresh && cfg.refresh_per_bank) {
      CHECK(!is_open[b] && r.cycle - pre[b] >= t[TimingParam::tRP]);
      // Every bank again within one tREFI (plus the wait for its row to close).
      if (bank_ref[b] != never) CHECK(r.cycle - bank_ref[b] <= t[TimingParam::tREFI] + t[TimingParam::tRC]);
      bank_ref[b] = r.cycle;
    } else if (r.command == DramCommand::refresh) {
      for (uint32_t k = 0; k < cfg.banks; ++k) CHECK(!is_open[k] && r.cycle - pre[k] >= t[TimingParam::tRP]);
      last_ref = r.cycle;
    } else if (is_col) {
      const bool w = r.command == DramCommand::write;
      const int64_t rcd = w ? std::max<int64_t>(0, t[TimingParam::tRCD] - t[TimingParam::tWL] - 1) : t[TimingParam::tRCD];
      CHECK(r.cycle - act[b] >= rcd);
      CHECK(r.cycle - group_col[g] >= t[TimingParam::tCCDL]);
      CHECK(r.cycle - last_col >= t[TimingParam::tCCD]);
      if (!w) CHECK(r.cycle - last_write_data >= t[TimingParam::tCDLR]);
      if (w) CHECK(r.cycle + t[TimingParam::tWL] >= last_read + t[TimingParam::tCL] + cfg.burst_cycles() + 2);
      if (w) last_write_data = r.cycle + t[TimingParam::tWL] + cfg.burst_cycles();
      if (!w) last_read = r.cycle;
      group_col[g] = last_col = col[b] = r.cycle;
    }
  }
}

void random_stream(const char* scheduler, bool dual, uint32_t write_queue, uint64_t seed, bool refresh,
                   bool per_bank = false) {
  DramChannelConfig cfg = small_config(scheduler);
  if (refresh) {
    cfg.timing[TimingParam::tREFI] = 500;
    cfg.timing[TimingParam::tRFC] = 40;
    cfg.timing[TimingParam::tRFCpb] = 25;
    cfg.refresh_per_bank = per_bank;
  }
  cfg.dual_bus = dual;
  cfg.write_queue = write_queue;
  cfg.drain_high = write_queue * 3 / 4;
  cfg.drain_low = write_queue / 4;
  cfg.read_queue = 16;
  cfg.return_queue = 8;
  DramChannel ch(cfg, "dram0");
  std::vector<CommandRecord> log;
  ch.set_command_log(&log);
  std::map<uint32_t, int> outstanding_reads;
  uint32_t tag = 0;
  std::vector<DramCompletion> done;
  for (int64_t c = 0; c < 20000; ++c) {
    const uint64_t r = next_random(seed);
    if (c < 15000 && (r & 1)) {
      DramRequest q = (r >> 1) % 3 == 0 ? wr(tag, (r >> 4) % 8, (r >> 8) % 4) : rd(tag, (r >> 4) % 8, (r >> 8) % 4);
      q.size_bytes = (r >> 12) % 5 == 0 ? 64 : 32;
      if (ch.push(q)) {
        if (!q.is_write) outstanding_reads[tag] = 1;
        ++tag;
      }
    }
    ch.tick(accelsim::Cycle(c));
    DramCompletion d;
    while ((r >> 20) % 3 != 0 && ch.pop_completed(c, d)) {
      CHECK(d.cycle <= c);
      CHECK_EQ(outstanding_reads.erase(d.tag), size_t{1});  // exactly once
    }
  }
  CHECK(outstanding_reads.empty());
  CHECK(ch.idle());
  check_log(log, cfg);
  // Due at 500, 1000, ... 19500; per bank every 500 / 8 cycles (the last may still wait).
  const uint64_t due = !refresh ? 0 : per_bank ? 19999 / (500 / 8) : 19999 / 500;
  CHECK(ch.counter(DramCounter::refreshes) <= due && ch.counter(DramCounter::refreshes) + 1 >= due);
  CHECK_EQ(ch.counter(DramCounter::row_hits) + ch.counter(DramCounter::row_misses),
           ch.counter(DramCounter::reads) + ch.counter(DramCounter::writes));
}
}  // namespace

TEST_CASE("617-random-streams-obey-every-timing-rule") {
  uint64_t seed = 12345;
  for (const char* s : {"fcfs", "frfcfs"})
    for (bool dual : {false, true})
      for (uint32_t wq : {0u, 8u})
        for (bool refresh : {false, true}) random_stream(s, dual, wq, seed += 7919, refresh);
}

TEST_CASE("619-random-streams-with-per-bank-refresh-obey-every-timing-rule") {
  uint64_t seed = 4711;
  for (const char* s : {"fcfs", "frfcfs"})
    for (bool dual : {false, true})
      for (uint32_t wq : {0u, 8u}) random_stream(s, dual, wq, seed += 7919, true, true);
}

TEST_CASE("618-bank-queue-hit-counts-match-brute-force") {
  const uint32_t banks = 4;
  BankQueue q(12, banks);
  std::vector<int64_t> open(banks, kNoRow);
  std::vector<int32_t> live;
  uint64_t seed = 777;
  for (int step = 0; step < 5000; ++step) {
    const uint64_t r = next_random(seed);
    const uint32_t bank = (r >> 3) % banks;
    switch (r % 4) {
      case 0:
      case 1:
        if (!q.full()) {
          QueueEntry e;
          e.req = rd(step, bank, (r >> 6) % 3);
          e.req.is_write = (r >> 12) % 3 == 0;
          live.push_back(q.push(e, open[bank]));
        }
        break;
      case 2:
        if (!live.empty()) {
          const size_t i = (r >> 10) % live.size();
          q.remove(live[i], open[q.entry(live[i]).req.bank]);
          live.erase(live.begin() + static_cast<long>(i));
        }
        break;
      default:
        open[bank] = (r >> 6) % 4 == 3 ? kNoRow : static_cast<int64_t>((r >> 6) % 4);
        if (open[bank] == kNoRow) q.row_closed(bank); else q.row_opened(bank, open[bank]);
    }
    for (uint32_t b = 0; b < banks; ++b) {
      uint32_t hits = 0, n = 0;
      uint64_t last_age = 0;
      for (int32_t s = q.head(b); s != BankQueue::kNil; s = q.next(s), ++n) {
        hits += q.entry(s).req.row == open[b];
        CHECK(n == 0 || q.age(s) > last_age);  // oldest first
        last_age = q.age(s);
      }
      CHECK_EQ(q.hits(b), hits);
    }
    // The bank sets the schedulers walk agree with the lists.
    std::vector<uint32_t> queued, with_hits;
    q.queued_banks().for_each([&](uint32_t b) { queued.push_back(b); });
    q.banks_with_hits().for_each([&](uint32_t b) { with_hits.push_back(b); });
    std::vector<uint32_t> want_queued, want_hits;
    for (uint32_t b = 0; b < banks; ++b) {
      if (q.head(b) != BankQueue::kNil) want_queued.push_back(b);
      if (q.hits(b) > 0) want_hits.push_back(b);
    }
    CHECK(queued == want_queued);
    CHECK(with_hits == want_hits);
    size_t writes = 0;
    for (int32_t s : live) writes += q.entry(s).req.is_write;
    CHECK_EQ(q.writes(), writes);
    CHECK_EQ(q.size(), live.size());
  }
}
