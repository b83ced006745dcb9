// 62x: DRAM schedulers, queues, command buses, back-pressure, event skipping.
#include <string>

#include "base/error.h"
#include "config/gpu_config.h"
#include "dram/dram_channel.h"
#include "tests/dram_test_util.h"
#include "tests/harness.h"

using namespace accelsim;
using namespace accelsim::dram;
using namespace accelsim::dram::testutil;

namespace {
// Ticks until the channel is idle; returns the cycle it became idle.
int64_t drain(DramChannel& ch, int64_t from, std::vector<DramCompletion>& done) {
  int64_t c = from;
  for (; !ch.idle() && c < from + 100000; ++c) run(ch, c, c + 1, done);
  return c;
}

// 32 reads to one bank alternating between two rows: the worst case for
// in-order service, the best case for row-hit-first.
DramChannel row_locality_stream(const char* scheduler, int64_t& cycles) {
  DramChannel ch(small_config(scheduler), "dram0");
  for (uint32_t i = 0; i < 32; ++i) CHECK(ch.push(rd(i, 0, 1 + (i % 2))));
  std::vector<DramCompletion> done;
  cycles = drain(ch, 0, done);
  CHECK_EQ(done.size(), size_t{32});
  return ch;
}
}  // namespace

TEST_CASE("620-frfcfs-beats-fcfs-on-row-locality") {
  int64_t fcfs_cycles = 0, fr_cycles = 0;
  DramChannel fcfs = row_locality_stream("fcfs", fcfs_cycles);
  DramChannel fr = row_locality_stream("frfcfs", fr_cycles);
  CHECK(fr_cycles * 3 < fcfs_cycles);
  CHECK_EQ(fcfs.counter(DramCounter::row_hits), uint64_t{0});
  CHECK_EQ(fcfs.counter(DramCounter::activates), uint64_t{32});
  CHECK_EQ(fr.counter(DramCounter::activates), uint64_t{2});
  CHECK_EQ(fr.counter(DramCounter::row_hits), uint64_t{30});
  CHECK_EQ(fr.counter(DramCounter::row_misses), uint64_t{2});
  CHECK_EQ(fr.counter(DramCounter::reads), uint64_t{32});
}

TEST_CASE("621-write-drain-high-and-low-watermarks") {
  DramChannelConfig cfg = small_config();
  cfg.write_queue = 16;
  cfg.drain_high = 8;
  cfg.drain_low = 4;
  DramChannel ch(cfg, "dram0");
  std::vector<DramCompletion> done;
  for (uint32_t i = 0; i < 40; ++i) CHECK(ch.push(rd(i, i % 8, 1 + i)));  // all row misses: slow
  for (uint32_t i = 0; i < 7; ++i) CHECK(ch.push(wr(100 + i, 0, 99)));
  run(ch, 0, 50, done);
  CHECK(ch.counter(DramCounter::reads) > 0);
  CHECK_EQ(ch.counter(DramCounter::writes), uint64_t{0});  // below the high mark: reads first
  CHECK(ch.push(wr(107, 0, 99)));
  int64_t c = 50;
  run(ch, c, c + 1, done);
  CHECK(ch.draining());
  CHECK_EQ(ch.counter(DramCounter::write_drains), uint64_t{1});
  const uint64_t reads_at_drain = ch.counter(DramCounter::reads);
  for (++c; ch.draining() && c < 1000; ++c) run(ch, c, c + 1, done);
  CHECK(!ch.draining());
  CHECK_EQ(ch.write_queue_size(), size_t{4});            // stopped at the low mark
  CHECK_EQ(ch.counter(DramCounter::writes), uint64_t{4});
  CHECK_EQ(ch.counter(DramCounter::reads), reads_at_drain);  // no reads during the drain
  run(ch, c, c + 30, done);
  CHECK(ch.read_queue_size() > 0);
  CHECK(ch.counter(DramCounter::reads) > reads_at_drain);
  CHECK_EQ(ch.counter(DramCounter::writes), uint64_t{4});  // reads pending again: writes wait
}

TEST_CASE("622-shared-queue-when-write-queue-is-zero") {
  DramChannelConfig cfg = small_config("fcfs");
  cfg.read_queue = 4;
  DramChannel ch(cfg, "dram0");
  CHECK(ch.push(wr(1, 0, 1)));
  CHECK(ch.push(rd(2, 0, 1)));
  CHECK(ch.push(wr(3, 0, 1)));
  CHECK(ch.push(rd(4, 0, 1)));
  CHECK(!ch.can_accept(true));
  CHECK(!ch.can_accept(false));
  std::vector<CommandRecord> log;
  ch.set_command_log(&log);
  std::vector<DramCompletion> done;
  drain(ch, 0, done);
  std::string order;
  for (const CommandRecord& r : log)
    if (r.command == DramCommand::read || r.command == DramCommand::write)
      order += r.command == DramCommand::read ? 'R' : 'W';
  CHECK_EQ(order, std::string("WRWR"));  // arrival order in one queue
}

namespace {
// Bank 0 has row 1 open; then a hit to bank 0 and a miss to bank 1 arrive
// together. Returns the issued commands.
std::vector<CommandRecord> hit_plus_miss(bool dual_bus) {
  DramChannelConfig cfg = small_config();
  cfg.dual_bus = dual_bus;
  DramChannel ch(cfg, "dram0");
  std::vector<DramCompletion> done;
  CHECK(ch.push(rd(1, 0, 1)));
  run(ch, 0, 40, done);
  std::vector<CommandRecord> log;
  ch.set_command_log(&log);
  CHECK(ch.push(rd(2, 0, 1)));
  CHECK(ch.push(rd(3, 1, 1)));
  run(ch, 40, 80, done);
  return log;
}
}  // namespace

TEST_CASE("623-dual-bus-row-and-column-in-one-cycle") {
  const auto dual = hit_plus_miss(true);
  CHECK_EQ(cmd_cycle(dual, DramCommand::read, 0), int64_t{40});
  CHECK_EQ(cmd_cycle(dual, DramCommand::activate, 1), int64_t{40});
  const auto single = hit_plus_miss(false);
  CHECK_EQ(cmd_cycle(single, DramCommand::read, 0), int64_t{40});
  CHECK_EQ(cmd_cycle(single, DramCommand::activate, 1), int64_t{41});
  for (size_t i = 1; i < single.size(); ++i) CHECK(single[i].cycle != single[i - 1].cycle);
}

TEST_CASE("624-queue-full-and-return-queue-back-pressure") {
  DramChannelConfig cfg = small_config();
  cfg.read_queue = 4;
  cfg.return_queue = 2;
  DramChannel ch(cfg, "dram0");
  for (uint32_t i = 0; i < 4; ++i) CHECK(ch.push(rd(i, 0, 1)));
  CHECK(!ch.push(rd(9, 0, 1)));
  CHECK_EQ(ch.counter(DramCounter::queue_full_stalls), uint64_t{1});
  for (int64_t c = 0; c < 100; ++c) ch.tick(Cycle(c));  // nobody pops
  CHECK_EQ(ch.counter(DramCounter::reads), uint64_t{2});
  CHECK_EQ(ch.read_queue_size(), size_t{2});
  std::vector<DramCompletion> done;
  run(ch, 100, 200, done);
  CHECK_EQ(done.size(), size_t{4});
  for (uint32_t i = 0; i < 4; ++i) CHECK_EQ(done[i].tag, i);  // nothing lost, in order
}

TEST_CASE("625-event-skipping-matches-per-cycle-ticking") {
  // A pseudo-random mixed stream, fed at fixed arrival cycles.
  auto feed = [](DramChannel& ch, int64_t c, uint32_t& next) {
    while (next < 200 && int64_t{next} * 3 <= c) {
      const uint32_t h = next * 2654435761u;
      DramRequest r = (h >> 7) % 4 == 0 ? wr(next, (h >> 3) % 8, (h >> 11) % 3) : rd(next, (h >> 3) % 8, (h >> 11) % 3);
      if (!ch.push(r)) break;
      ++next;
    }
  };
  DramChannelConfig cfg = small_config();
  cfg.write_queue = 8;
  cfg.drain_high = 6;
  cfg.drain_low = 2;
  cfg.timing[TimingParam::tREFI] = 300;
  cfg.timing[TimingParam::tRFC] = 20;
  DramChannel every(cfg, "a"), skip(cfg, "b");
  std::vector<DramCompletion> d1, d2;
  uint32_t n1 = 0, n2 = 0;
  for (int64_t c = 0; c < 5000; ++c) {
    feed(every, c, n1);
    run(every, c, c + 1, d1);
  }
  int64_t ticks = 0;
  for (int64_t c = 0; c < 5000;) {
    feed(skip, c, n2);
    run(skip, c, c + 1, d2);
    ++ticks;
    const int64_t arrival = n2 < 200 ? int64_t{n2} * 3 : dram::kNever;
    c = std::max(c + 1, std::min(skip.next_event_cycle(), arrival));
  }
  CHECK_EQ(d1.size(), d2.size());
  for (size_t i = 0; i < d1.size(); ++i) {
    CHECK_EQ(d1[i].tag, d2[i].tag);
    CHECK_EQ(d1[i].cycle, d2[i].cycle);
  }
  CHECK(every.counters() == skip.counters());
  CHECK(ticks < 5000);
}

TEST_CASE("626-scheduler-registry-lists-known-names") {
  CHECK_EQ(dram_scheduler_names().size(), size_t{2});
  try {
    make_dram_scheduler("fifo");
    CHECK(false);
  } catch (const ConfigError& e) {
    CHECK_EQ(e.key(), std::string("dram_scheduler"));
    CHECK(std::string(e.what()).find("fcfs, frfcfs") != std::string::npos);
  }
  DramChannelConfig cfg = small_config("bogus");
  CHECK_THROWS(DramChannel(cfg, "x"), ConfigError);
}

TEST_CASE("627-channel-config-from-gpu-config") {
  config::GpuConfig g;
  const DramChannelConfig c = DramChannelConfig::from_config(g);
  CHECK_EQ(c.timing[TimingParam::tRCD], g.dram_tRCD);
  CHECK_EQ(c.burst_cycles(), 1u);  // HBM: BL 2 at DDR
  CHECK_EQ(c.burst_bytes(), 32u);
  CHECK(c.dual_bus);
  g.dram_write_drain_low = 60;  // above the high mark
  CHECK_THROWS(DramChannelConfig::from_config(g), ConfigError);
}

TEST_CASE("628-acked-writes-complete-through-the-return-queue") {
  DramChannel ch(small_config(), "dram0");
  DramRequest w = wr(5, 0, 1);
  w.ack_write = true;
  CHECK(ch.push(w));
  std::vector<DramCompletion> done;
  run(ch, 0, 40, done);
  CHECK_EQ(done.size(), size_t{1});
  CHECK(done[0].is_write);
  // Writes may follow an ACT sooner: tRCDWR = tRCD - (tWL + 1) = 2.
  CHECK_EQ(done[0].cycle, int64_t{2 + 2 + 1});  // tRCDWR + tWL + burst
}
