// 60x-61x: one test per DRAM timing rule, on a channel whose timing values
// are all distinct (see dram_test_util.h).
#include "dram/dram_channel.h"
#include "tests/dram_test_util.h"
#include "tests/harness.h"

using namespace accelsim::dram;
using namespace accelsim::dram::testutil;

namespace {
// Opens row 1 in the given banks with one read each and lets them finish.
void open_rows(DramChannel& ch, std::initializer_list<uint32_t> banks, std::vector<DramCompletion>& done) {
  uint32_t tag = 1000;
  for (uint32_t b : banks) CHECK(ch.push(rd(tag++, b, 1)));
  run(ch, 0, 40, done);
  done.clear();
}

// The channel under test with its completions and command log. Rows in
// `open` (if any: otherwise the channel starts untouched at cycle 0) are
// opened first and the log attached after, so it holds only the commands the
// test itself causes. Tests unpack it (`auto& [ch, log, done] = b;`) so
// their bodies name the parts directly.
struct Bench {
  DramChannel ch;
  std::vector<CommandRecord> log;
  std::vector<DramCompletion> done;

  explicit Bench(const DramChannelConfig& cfg, std::initializer_list<uint32_t> open = {}) : ch(cfg, "dram0") {
    if (open.size() > 0) open_rows(ch, open, done);
    ch.set_command_log(&log);
  }
  Bench(const Bench&) = delete;  // ch points at log
  Bench& operator=(const Bench&) = delete;
};
}  // namespace

TEST_CASE("601-read-closed-row-latency") {
  Bench b(small_config());
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(7, 0, 3)));
  run(ch, 0, 30, done);
  CHECK_EQ(done.size(), size_t{1});
  CHECK_EQ(done[0].tag, 7u);
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 0), int64_t{0});
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 0), int64_t{5});  // tRCD
  CHECK_EQ(done[0].cycle, int64_t{5 + 6 + 1});                 // tRCD + tCL + burst
  CHECK_EQ(ch.counter(DramCounter::row_misses), uint64_t{1});
  CHECK_EQ(ch.counter(DramCounter::activates), uint64_t{1});
}

TEST_CASE("602-row-hit-latency") {
  Bench b(small_config(), {0});
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(8, 0, 1)));
  run(ch, 40, 60, done);
  CHECK_EQ(done.size(), size_t{1});
  CHECK_EQ(done[0].cycle, int64_t{40 + 6 + 1});  // tCL + burst
  CHECK_EQ(ch.counter(DramCounter::row_hits), uint64_t{1});
  CHECK_EQ(ch.counter(DramCounter::activates), uint64_t{1});
}

TEST_CASE("603-activates-to-different-banks-tRRD-apart") {
  Bench b(small_config());
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 1, 1)));
  CHECK(ch.push(rd(3, 2, 1)));
  run(ch, 0, 40, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 1) - cmd_cycle(log, DramCommand::activate, 0), int64_t{3});
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 2) - cmd_cycle(log, DramCommand::activate, 1), int64_t{3});
}

TEST_CASE("604-activate-to-activate-same-bank-tRC") {
  Bench b(small_config());
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 0, 2)));
  run(ch, 0, 60, done);
  // PRE at tRAS = 12 is ready for ACT at 16, but tRC = 18 holds it.
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 0, 1), int64_t{18});
  CHECK_EQ(done.size(), size_t{2});
}

TEST_CASE("605-precharge-not-before-tRAS") {
  Bench b(small_config());
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 0, 2)));
  run(ch, 0, 60, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 0), int64_t{5});        // read done early...
  CHECK_EQ(cmd_cycle(log, DramCommand::precharge, 0), int64_t{12});  // ...but PRE waits tRAS
}

TEST_CASE("606-precharge-to-activate-tRP") {
  DramChannelConfig cfg = small_config();
  cfg.timing[TimingParam::tRC] = 10;  // make tRP the binding rule
  Bench b(cfg);
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 0, 2)));
  run(ch, 0, 60, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 0, 1) - cmd_cycle(log, DramCommand::precharge, 0),
           int64_t{4});
  CHECK_EQ(done.size(), size_t{2});
  CHECK_EQ(done[1].cycle, int64_t{12 + 4 + 5 + 6 + 1});  // PRE + tRP + tRCD + tCL + burst
}

TEST_CASE("607-column-spacing-tCCDL-same-group-tCCD-across") {
  Bench b(small_config(), {0, 4, 1});  // banks 0 and 4: group 0; bank 1: group 1
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 4, 1)));
  run(ch, 40, 60, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 4) - cmd_cycle(log, DramCommand::read, 0), int64_t{4});
  log.clear();
  CHECK(ch.push(rd(3, 0, 1)));
  CHECK(ch.push(rd(4, 1, 1)));
  run(ch, 60, 80, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 1) - cmd_cycle(log, DramCommand::read, 0), int64_t{2});
  CHECK_EQ(ch.counter(DramCounter::row_hits), uint64_t{4});
}

TEST_CASE("608-write-to-read-turnaround-tCDLR") {
  Bench b(small_config("fcfs"), {0, 1});
  auto& [ch, log, done] = b;
  CHECK(ch.push(wr(1, 0, 1)));
  CHECK(ch.push(rd(2, 1, 1)));
  run(ch, 40, 70, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::write, 0), int64_t{40});
  // Write data ends at 40 + tWL + burst = 43; the read waits tCDLR more.
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 1), int64_t{43 + 3});
  CHECK_EQ(done.size(), size_t{1});  // the write completes silently
}

TEST_CASE("609-write-recovery-before-precharge-tWR") {
  Bench b(small_config("fcfs"), {0});
  auto& [ch, log, done] = b;
  CHECK(ch.push(wr(1, 0, 1)));
  CHECK(ch.push(rd(2, 0, 2)));
  run(ch, 40, 80, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::precharge, 0), int64_t{43 + 5});  // data end + tWR
}

TEST_CASE("610-read-to-precharge-tRTPL") {
  Bench b(small_config("fcfs"), {0});
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 0, 2)));
  run(ch, 40, 80, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::precharge, 0), int64_t{40 + 2});
}

TEST_CASE("611-refresh-blocks-channel-for-tRFC") {
  DramChannelConfig cfg = small_config();
  cfg.timing[TimingParam::tREFI] = 100;
  cfg.timing[TimingParam::tRFC] = 30;
  Bench b(cfg);
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  run(ch, 0, 101, done);
  CHECK(ch.push(rd(2, 0, 1)));  // would be a row hit, but refresh closes the row
  run(ch, 101, 250, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::precharge, 0), int64_t{100});
  const int64_t ref = cmd_cycle(log, DramCommand::refresh, -1);
  CHECK_EQ(ref, int64_t{100 + 4});  // after tRP
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 0, 1), ref + 30);
  CHECK_EQ(done.size(), size_t{2});
  CHECK_EQ(done[1].cycle, ref + 30 + 5 + 6 + 1);
  CHECK_EQ(ch.counter(DramCounter::refreshes), uint64_t{2});  // second one at 200
}

TEST_CASE("612-data-bus-occupancy-burst-length") {
  DramChannelConfig cfg = small_config();
  cfg.burst_length = 8;  // 8 beats DDR: 4 command cycles, 128 B per burst
  Bench b(cfg, {0, 1});
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(rd(2, 1, 1)));  // other group: tCCD = 2 < bus time 4
  run(ch, 40, 70, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 1) - cmd_cycle(log, DramCommand::read, 0), int64_t{4});
  CHECK_EQ(done[0].cycle, int64_t{40 + 6 + 4});
  CHECK_EQ(ch.counter(DramCounter::busy_cycles), uint64_t{4 * 4});
}

TEST_CASE("613-read-to-write-turnaround-tRTW") {
  Bench b(small_config("fcfs"), {0, 1});
  auto& [ch, log, done] = b;
  CHECK(ch.push(rd(1, 0, 1)));
  CHECK(ch.push(wr(2, 1, 1)));
  run(ch, 40, 70, done);
  // tRTW = tCL + burst + 2 turnaround - tWL = 6 + 1 + 2 - 2.
  CHECK_EQ(cmd_cycle(log, DramCommand::write, 1) - cmd_cycle(log, DramCommand::read, 0), int64_t{7});
}

TEST_CASE("614-read-to-precharge-tRTPL-spans-the-bank-group") {
  for (uint32_t other : {0u, 1u}) {  // bank 0 shares group 0 with bank 4; bank 1 does not
    Bench b(small_config(), {4, other});
    auto& [ch, log, done] = b;
    CHECK(ch.push(rd(1, 4, 1)));
    CHECK(ch.push(rd(2, other, 2)));  // needs a PRE of `other`
    run(ch, 40, 80, done);
    CHECK_EQ(cmd_cycle(log, DramCommand::read, 4), int64_t{40});
    CHECK_EQ(cmd_cycle(log, DramCommand::precharge, static_cast<int>(other)), int64_t{other == 0 ? 42 : 41});
  }
}

TEST_CASE("615-write-after-activate-tRCDWR") {
  Bench b(small_config());
  auto& [ch, log, done] = b;
  CHECK(ch.push(wr(2, 1, 1)));
  run(ch, 0, 40, done);
  // A write may go tRCDWR = tRCD - (tWL + 1) = 2 after its ACT (a read: tRCD = 5).
  CHECK_EQ(cmd_cycle(log, DramCommand::activate, 1), int64_t{0});
  CHECK_EQ(cmd_cycle(log, DramCommand::write, 1), int64_t{2});
  CHECK(done.empty());  // not acked: completes silently
  CHECK_EQ(ch.counter(DramCounter::writes), uint64_t{1});
}

TEST_CASE("616-large-request-one-column-command-per-burst") {
  Bench b(small_config(), {0});
  auto& [ch, log, done] = b;
  DramRequest r = rd(1, 0, 1);
  r.size_bytes = 128;  // four 32 B bursts, same bank: tCCDL apart
  CHECK(ch.push(r));
  run(ch, 40, 80, done);
  CHECK_EQ(cmd_cycle(log, DramCommand::read, 0, 3), int64_t{40 + 3 * 4});
  CHECK_EQ(done.size(), size_t{1});
  CHECK_EQ(done[0].cycle, int64_t{52 + 6 + 1});
  CHECK_EQ(ch.counter(DramCounter::reads), uint64_t{2});  // one from open_rows
  CHECK_EQ(ch.counter(DramCounter::busy_cycles), uint64_t{5});
}

TEST_CASE("645-per-bank-refresh-lets-the-other-banks-serve") {
  // Row hits stream from bank 1 while refresh falls due. All-bank refresh
  // stops them for tRFC; per-bank refresh takes bank 0 (due at tREFI / 8)
  // and bank 1 keeps its pace (tCCDL apart), its own turn coming later.
  for (bool per_bank : {false, true}) {
    DramChannelConfig cfg = small_config();
    cfg.timing[TimingParam::tREFI] = 800;
    cfg.timing[TimingParam::tRFC] = 60;
    cfg.timing[TimingParam::tRFCpb] = 30;
    cfg.refresh_per_bank = per_bank;
    Bench b(cfg);
    auto& [ch, log, done] = b;
    uint32_t tag = 0;
    const int64_t end = per_bank ? 190 : 900;
    for (int64_t c = 0; c < end; ++c) {
      while (ch.can_accept(false)) CHECK(ch.push(rd(tag++, 1, 1)));
      ch.tick(c);
      DramCompletion d;
      while (ch.pop_completed(c, d)) done.push_back(d);
    }
    int64_t gap = 0, last = -1;
    for (const CommandRecord& r : log)
      if (r.command == DramCommand::read && r.bank == 1) {
        if (last >= 0) gap = std::max(gap, r.cycle - last);
        last = r.cycle;
      }
    if (per_bank) {
      const int64_t ref = cmd_cycle(log, DramCommand::refresh, 0);
      CHECK(ref >= 100 && ref <= 100 + 4);  // bank 0 was closed: REF at once (tRP met)
      CHECK_EQ(cmd_cycle(log, DramCommand::refresh, 1), int64_t{-1});
      CHECK_EQ(gap, int64_t{4});
    } else {
      CHECK(gap >= 60);
    }
  }
}
