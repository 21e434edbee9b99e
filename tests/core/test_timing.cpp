// Timing of the SystemC/TLM models against analytic sums, to the nanosecond.
// SystemC elaborates once per process: every TEST here is run in its own process by
// gtest_discover_tests (ctest). Running this binary without a filter runs only the first test.
//
// Numbers below are derived by hand from the default configuration (= preset qlc-fsp):
//   bus: 7 cmd/addr cycles x 10 ns = 70 ns; 800 MB/s -> an 8 KiB page = 10,240 ns
//   tR LSB/CLSB/CMSB/MSB = 90/120/150/180 us; FSP tPROG = 1,300 us; tBERS = 10,000 us
//   host: 1,000 ns per command, PCIe 3,938 MB/s; firmware 500 + 50/page cycles at 500 MHz
//   DRAM: 12,800 MB/s, 50 ns latency
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/flash_channel.h"
#include "models/ssd.h"
#include "models/timed_queue.h"
#include "tests/core/channel_driver.h"
#include "tests/core/vector_source.h"

using namespace ssdtlm;
using namespace ssdtlm::models;
using ssdtlm::test::make_op;

namespace {

constexpr Tick kNs = 1000;  // ps per ns

SsdConfig default_config() {
  SsdConfig c;  // defaults are the qlc-fsp values
  c.finalize();
  return c;
}

struct ChannelBench : ssdtlm::test::ChannelBench {
  ChannelBench() : ssdtlm::test::ChannelBench(default_config()) {}
};

}  // namespace

TEST(Timing, IsolatedReadOfEachPageType) {
  ChannelBench b;
  // One read per page type, each on its own (die 0 then die 1 alternately, far apart in time).
  std::vector<FlashOp> ops;
  for (uint32_t t = 0; t < 4; ++t) ops.push_back(make_op(b.cfg, FlashKind::Read, 0, 0, t, 1));
  for (size_t i = 0; i < ops.size(); ++i) b.drv.plan.push_back({Tick(i) * 1000000 * kNs, &ops[i]});
  b.run();
  const Tick expect_ns[4] = {70 + 90000 + 10240, 70 + 120000 + 10240, 70 + 150000 + 10240,
                             70 + 180000 + 10240};
  for (size_t i = 0; i < ops.size(); ++i)
    EXPECT_EQ(b.drv.done[&ops[i]] - Tick(i) * 1000000 * kNs, expect_ns[i] * kNs)
        << "page type " << i;
}

TEST(Timing, IsolatedFullSequenceProgramAndErase) {
  ChannelBench b;
  FlashOp prog = make_op(b.cfg, FlashKind::Program, 0, 0, 0, 4);
  FlashOp erase = make_op(b.cfg, FlashKind::Erase, 1, 0, 0, 1);
  b.drv.plan.push_back({0, &prog});
  b.drv.plan.push_back({5000000 * kNs, &erase});
  b.run();
  // Program: cmd 70 ns + 4 pages x 10,240 ns in + 1,300 us one-shot program.
  EXPECT_EQ(b.drv.done[&prog], (70 + 4 * 10240 + 1300000) * kNs);
  // Erase: cmd 70 ns + 10 ms.
  EXPECT_EQ(b.drv.done[&erase] - 5000000 * kNs, (70 + 10000000) * kNs);
}

TEST(Timing, TwoReadsOnDiesSharingAChannelSerialiseOnlyTheirBusTransfers) {
  ChannelBench b;
  FlashOp a = make_op(b.cfg, FlashKind::Read, 0, 0, 0, 1);  // die 0, LSB
  FlashOp c = make_op(b.cfg, FlashKind::Read, 1, 0, 0, 1);  // die 1, LSB
  b.drv.plan.push_back({0, &a});
  b.drv.plan.push_back({0, &c});
  b.run();
  // A: cmd [0,70] + tR [70, 90070] + out [90070, 100310].
  EXPECT_EQ(b.drv.done[&a], Tick(70 + 90000 + 10240) * kNs);
  // B: cmd waits for A's cmd [70,140], tR [140, 90140] overlaps A's; out waits for A's transfer:
  // [100310, 110550]. Only the bus phases serialise.
  EXPECT_EQ(b.drv.done[&c], Tick(70 + 90000 + 10240 + 10240) * kNs);
}

TEST(Timing, TheBusIsGrantedInRequestOrderEvenToADiesNextOperation) {
  ChannelBench b;
  FlashOp a = make_op(b.cfg, FlashKind::Read, 0, 0, 0, 1);   // die 0, LSB
  FlashOp a2 = make_op(b.cfg, FlashKind::Read, 0, 0, 4, 1);  // die 0 again, LSB: waits for a
  FlashOp c = make_op(b.cfg, FlashKind::Read, 1, 0, 0, 1);   // die 1, LSB
  b.drv.plan.push_back({0, &a});
  b.drv.plan.push_back({1000 * kNs, &a2});
  b.drv.plan.push_back({95000 * kNs, &c});  // during a's data-out [90070, 100310]
  b.run();
  EXPECT_EQ(b.drv.done[&a], Tick(100310) * kNs);
  // c asked for the bus at 95,000, before a2 (dispatched at a's completion, 100,310): c's cmd
  // [100310, 100380], tR to 190380, out [190380, 200620]; a2's cmd [100380, 100450], tR to
  // 190450, out after c's: [200620, 210860].
  EXPECT_EQ(b.drv.done[&c], Tick(100310 + 70 + 90000 + 10240) * kNs);
  EXPECT_EQ(b.drv.done[&a2], Tick(100310 + 70 + 90000 + 10240 + 10240) * kNs);
}

TEST(Timing, ReadsOnTheSameDieSerialiseCompletely) {
  ChannelBench b;
  FlashOp a = make_op(b.cfg, FlashKind::Read, 0, 0, 0, 1);
  FlashOp c = make_op(b.cfg, FlashKind::Read, 0, 0, 3, 1);  // same die and plane, MSB
  b.drv.plan.push_back({0, &a});
  b.drv.plan.push_back({0, &c});
  b.run();
  EXPECT_EQ(b.drv.done[&a], Tick(100310) * kNs);
  EXPECT_EQ(b.drv.done[&c], Tick(100310 + 70 + 180000 + 10240) * kNs);
}

// Busy times cut at an end (FlashChannel::mark_tail) when the measurement starts after the mark
// (reset_measurement): the die operations running then count from the start, and a bus phase
// reserved to start later (the bus busy with another die's transfer) counts whole and is cut at
// the end like any phase reserved after the mark.
TEST(Timing, BusyTimesCutAtAnEndCountFromTheMeasurementStart) {
  ChannelBench b;
  FlashOp prog = make_op(b.cfg, FlashKind::Program, 0, 0, 0, 4);  // die 0
  FlashOp rd = make_op(b.cfg, FlashKind::Read, 1, 0, 0, 1);       // die 1, LSB
  b.drv.plan.push_back({0, &prog});
  b.drv.plan.push_back({1000 * kNs, &rd});
  const Tick floor = 0;
  sc_core::sc_start(500, sc_core::SC_NS);
  b.ch.mark_tail(&floor);
  // Program: cmd + data in [0, 41,030] ns, array to 1,341,030 ns. Read: dispatched at 1,000 ns,
  // its cmd waits for the bus: [41,030, 41,100], tR to 131,100, data out [131,100, 141,340].
  sc_core::sc_start(19500, sc_core::SC_NS);  // t = 20 us: the read's cmd is reserved for later
  b.ch.reset_measurement();
  sc_core::sc_start();
  EXPECT_EQ(b.drv.done[&prog], Tick(1341030) * kNs);
  EXPECT_EQ(b.drv.done[&rd], Tick(141340) * kNs);
  EXPECT_EQ(b.ch.die_busy()[0], Tick(1341030 - 20000) * kNs);
  EXPECT_EQ(b.ch.die_busy()[1], Tick(141340 - 20000) * kNs);
  EXPECT_EQ(b.ch.bus_busy(), Tick(70 + 10240) * kNs);  // the read's cmd and data out
  EXPECT_EQ(b.ch.die_busy_until(0, 1000000 * kNs), Tick(1000000 - 20000) * kNs);
  EXPECT_EQ(b.ch.die_busy_until(1, 100000 * kNs), Tick(100000 - 20000) * kNs);
  EXPECT_EQ(b.ch.bus_busy_until(41050 * kNs), Tick(20) * kNs);
  EXPECT_EQ(b.ch.bus_busy_until(135000 * kNs), Tick(70 + 135000 - 131100) * kNs);
}

TEST(Timing, MultiPlaneProgramIsOneArrayOperation) {
  ChannelBench b;
  FlashOp p0 = make_op(b.cfg, FlashKind::Program, 0, 0, 0, 4);
  FlashOp p1 = make_op(b.cfg, FlashKind::Program, 0, 1, 0, 4);
  b.drv.plan.push_back({0, &p0});
  b.drv.plan.push_back({0, &p1});
  b.run();
  // p0 dispatches alone at t=0 (p1 not queued yet): cmd + 4 pages + tPROG. p1 follows.
  const Tick single = 70 + 4 * 10240 + 1300000;
  EXPECT_EQ(b.drv.done[&p0], single * kNs);
  EXPECT_EQ(b.drv.done[&p1], 2 * single * kNs);
}

TEST(Timing, ReadsOvertakeQueuedProgramsAtADie) {
  ChannelBench b;
  FlashOp p0 = make_op(b.cfg, FlashKind::Program, 0, 0, 0, 4);
  FlashOp p1 = make_op(b.cfg, FlashKind::Program, 0, 0, 4, 4);
  FlashOp r = make_op(b.cfg, FlashKind::Read, 0, 0, 0, 1);
  b.drv.plan.push_back({0, &p0});
  b.drv.plan.push_back({1000 * kNs, &p1});  // queued behind p0
  b.drv.plan.push_back({2000 * kNs, &r});   // queued later, but reads go first
  b.run();
  const Tick prog = 70 + 4 * 10240 + 1300000;
  EXPECT_EQ(b.drv.done[&r], (prog + 100310) * kNs);
  EXPECT_EQ(b.drv.done[&p1], (prog + 100310 + prog) * kNs);
}

namespace {
struct SsdBench {
  SsdConfig cfg;
  test::VectorSource src;
  std::unique_ptr<Ssd> ssd;
  void build(bool integrity = false, uint32_t qd = 0) {
    HostOptions h;
    h.closed_loop_qd = qd;
    ssd = std::make_unique<Ssd>("ssd", cfg, src, h, integrity);
  }
};
}  // namespace

TEST(Timing, HostWriteIntoTheCache) {
  SsdBench b;
  b.cfg.finalize();
  b.src.add(0, 0, 8192, false);
  b.build();
  sc_core::sc_start();
  // PCIe: 1,000 ns command overhead + 8192 B / 3938 B/us = 2080.2 ns -> 2,080,244 ps;
  // firmware (500 + 50) cycles x 2 ns = 1,100 ns; DRAM 8192 / 12800 B/us = 640 ns + 50 ns.
  const Tick expect = 1000 * kNs + 2080244 + 1100 * kNs + 640 * kNs + 50 * kNs;
  EXPECT_EQ(b.ssd->host.write_latency().max(), expect);
  EXPECT_EQ(b.ssd->host.write_latency().count(), 1u);
}

TEST(Timing, HostReadOfAFlashPage) {
  SsdBench b;
  b.cfg.finalize();
  b.src.add(0, 0, 8192, true);
  b.build();
  b.ssd->ctrl.core().prefill(0);  // lands on plane 0, block 0, page 0: an LSB page
  sc_core::sc_start();
  // 1,000 ns command + 1,100 ns firmware + flash read LSB 100,310 ns + DRAM 690 ns +
  // PCIe 8192 B back = 2,080,244 ps.
  const Tick expect = 1000 * kNs + 1100 * kNs + 100310 * kNs + 690 * kNs + 2080244;
  EXPECT_EQ(b.ssd->host.read_latency().max(), expect);
  EXPECT_EQ(b.ssd->ctrl.core().counters().host_reads_by_type[0], 1u);
}

TEST(Timing, ACommandWaitingForAQueueEntryEntersWhenTheCompletionFreesIt) {
  SsdBench b;
  b.cfg.host_queues = 1;
  b.cfg.host_queue_depth = 1;  // one entry: the second read waits for the first's completion
  b.cfg.finalize();
  b.src.add(0, 0, 8192, true);
  b.src.add(1000, 0, 8192, true);  // the same LSB page, 1 us later
  b.build();
  b.ssd->ctrl.core().prefill(0);
  sc_core::sc_start();
  // Each read alone: 1,000 + 1,100 + 100,310 + 690 ns + 2,080,244 ps (HostReadOfAFlashPage).
  // The first completes at that time and frees the entry; the open-loop host takes a completion
  // when the device answers and frees the entry at the completion time (no event of its own), so
  // the second read is submitted exactly then and waits from its arrival at 1 us.
  const Tick one = 1000 * kNs + 1100 * kNs + 100310 * kNs + 690 * kNs + 2080244;
  EXPECT_EQ(b.ssd->host.read_latency().min(), one);
  EXPECT_EQ(b.ssd->host.read_latency().max(), 2 * one - 1000 * kNs);
  EXPECT_EQ(b.ssd->host.last_completion(), 2 * one);
  EXPECT_EQ(b.ssd->host.max_backlog(), 1u);
}

TEST(Timing, AnArrivalThatFindsAFreeEntryNeedsNoActivationOfItsOwn) {
  SsdBench b;
  b.cfg.finalize();
  b.src.add(0, 0, 8192, true);
  b.src.add(50000, 0, 8192, true);  // the same LSB page at 50 us, while the die reads it for A
  b.build();
  b.ssd->ctrl.core().prefill(0);
  sc_core::sc_start();
  // A: HostReadOfAFlashPage, done at 105,180,244 ps (flash 2,100..102,410 ns).
  // B: delivered at 51,000 ns, firmware to 52,100 ns, the die busy with A until 102,410 ns: cmd
  // [102,410, 102,480], tR to 192,480, out to 202,720 ns, DRAM 690 ns -> 203,410 ns, PCIe
  // 2,080,244 ps: done at 205,490,244 ps, 155,490,244 ps after its arrival.
  const Tick one = 1000 * kNs + 1100 * kNs + 100310 * kNs + 690 * kNs + 2080244;
  EXPECT_EQ(b.ssd->host.read_latency().min(), one);
  EXPECT_EQ(b.ssd->host.read_latency().max(), Tick(205490244) - 50000 * kNs);
  // The host's activations: A's arrival (it starts the measurement), nothing else. B's arrival
  // was decided there (the host's last activation before it), the deliveries were sent with
  // their link transfers (the delivery time annotated), and the completions were taken when the
  // device answered.
  EXPECT_EQ(b.ssd->host.activations(), 1u);
  EXPECT_EQ(b.ssd->host.max_backlog(), 0u);  // neither waited for a queue entry
}

namespace {
// AnArrivalThatFindsAFreeEntryNeedsNoActivationOfItsOwn's two reads, optionally with a
// read-disturb model: its refresh policy counts arrivals, so the controller must take each command
// at its delivery time. The host then sends each command at its delivery (a host event), unless
// told to send ahead anyway (force_ahead), when the controller takes it with a timer of its own.
// The latencies are the same to the picosecond in every case.
void two_reads(bool rd, bool force_ahead, uint64_t host_activations, uint64_t ctrl_events) {
  SsdBench b;
  b.cfg.rd_enabled = rd;
  b.cfg.finalize();
  b.src.add(0, 0, 8192, true);
  b.src.add(50000, 0, 8192, true);
  b.build();
  b.ssd->ctrl.core().prefill(0);
  EXPECT_EQ(b.ssd->ctrl.core().arrival_stateless(), !rd);
  EXPECT_EQ(b.ssd->host.send_ahead(), !rd);
  if (force_ahead) b.ssd->host.set_send_ahead(true);
  sc_core::sc_start();
  const Tick one = 1000 * kNs + 1100 * kNs + 100310 * kNs + 690 * kNs + 2080244;
  EXPECT_EQ(b.ssd->host.read_latency().min(), one);
  EXPECT_EQ(b.ssd->host.read_latency().max(), Tick(205490244) - 50000 * kNs);
  EXPECT_EQ(b.ssd->host.activations(), host_activations);
  EXPECT_EQ(b.ssd->ctrl.events(), ctrl_events);
  EXPECT_EQ(b.ssd->host.max_backlog(), 0u);  // each entered at its arrival, waiting for nothing
}
}  // namespace

TEST(Timing, ACommandSentAheadStartsAfterItsFirmwareTime) {
  // host: A's arrival; controller: the two firmware timers
  two_reads(false, false, 1, 2);
}

TEST(Timing, ACommandIsSentAtItsDeliveryWhenThePolicyWatchesArrivals) {
  // host: A's arrival, the two deliveries; controller: the two firmware timers
  two_reads(true, false, 3, 2);
}

TEST(Timing, ACommandSentAheadWaitsForItsDeliveryWhenThePolicyWatchesArrivals) {
  // host: A's arrival; controller: an arrival timer and a firmware timer per command
  two_reads(true, true, 1, 4);
}

TEST(Timing, SaturatedWriteThroughputMatchesTheDieBound) {
  SsdBench b;
  b.cfg.cache_mib = 2;
  b.cfg.finalize();
  // 40,000 sequential 8 KiB writes (312.5 MiB, 156x the cache), closed loop QD 256.
  const uint64_t n = 40000;
  for (uint64_t i = 0; i < n; ++i) b.src.add(0, i * 8192, 8192, false);
  b.build(false, 256);
  sc_core::sc_start();
  const double sim_s = b.ssd->host.last_completion() / 1e12;
  const double mb_s = n * 8192 / sim_s / 1e6;
  // Die bound: a die programs both planes (2 x 4 x 8 KiB = 65,536 B) per multi-plane FSP
  // operation holding it for 2 x 70 ns + 65,536 B / 800 B/us (81,920 ns) + 1,300,000 ns =
  // 1,382,060 ns; 16 dies -> 16 x 65,536 / 1,382,060 ns = 758.7 MB/s.
  // Channel bound: 8 x 800 MB/s = 6,400 MB/s. The bound is the minimum: 758.7 MB/s.
  const double bound = 16.0 * 65536 / 1382060e-9 / 1e6;
  EXPECT_NEAR(mb_s, bound, 0.05 * bound) << "measured " << mb_s << " MB/s";
  // What reached flash by the end of the simulation (the write-back goes on after the last host
  // completion) can never beat the bound over that time; the host-visible figure may, by the
  // 2 MiB the cache absorbs.
  const double end_s = sc_core::sc_time_stamp().value() / 1e12;
  const double flash_mb_s =
      b.ssd->ctrl.core().counters().host_pages_programmed * 8192.0 / end_s / 1e6;
  EXPECT_LE(flash_mb_s, bound * 1.0001);
  EXPECT_GE(flash_mb_s, bound * 0.95);
}

TEST(Timing, SaturatedWriteThroughputMatchesTheChannelBound) {
  SsdBench b;
  b.cfg.cache_mib = 2;
  b.cfg.channel_rate_mt_s = 25;  // a slow bus makes the channels the bottleneck
  b.cfg.finalize();
  const uint64_t n = 20000;
  for (uint64_t i = 0; i < n; ++i) b.src.add(0, i * 8192, 8192, false);
  b.build(false, 256);
  sc_core::sc_start();
  // Channel bound: 25 MB/s x 8 channels = 200 MB/s of data in (command cycles add 2 x 70 ns per
  // 2,621,440 ns transfer of a two-plane unit: 200 MB/s x 2,621,440 / 2,621,580 = 199.99 MB/s).
  // Die bound: 16 x 65,536 B / (140 + 2,621,440 + 1,300,000 ns) = 267.4 MB/s. Minimum: channels.
  const double bound = 8 * 65536.0 / ((140 + 2621440) * 1e-9) / 1e6;
  const double end_s = sc_core::sc_time_stamp().value() / 1e12;  // the write-back's end
  const double flash_mb_s =
      b.ssd->ctrl.core().counters().host_pages_programmed * 8192.0 / end_s / 1e6;
  EXPECT_LE(flash_mb_s, bound * 1.0001);
  EXPECT_GE(flash_mb_s, bound * 0.95) << "measured " << flash_mb_s << " MB/s, bound " << bound;
}

namespace {
// A module that drains a TimedQueue<int, true> and logs (time, item).
struct QueueProbe : sc_core::sc_module {
  sc_core::sc_event ev, early;
  TimedQueue<int, true> q{ev, early};
  std::vector<std::pair<Tick, int>> log;
  std::vector<std::pair<Tick, int>> plan;  // scheduled at the start, in this order
  explicit QueueProbe(sc_core::sc_module_name n, bool run) : sc_module(n) {
    q.use_run(run);
    SC_HAS_PROCESS(QueueProbe);
    SC_METHOD(process);
    sensitive << ev << early;
    dont_initialize();
  }
  void start_of_simulation() override {
    for (const auto& p : plan) q.schedule(p.first, p.second);
  }
  void process() {
    q.run([this](int i) {
      log.emplace_back(now_ps(), i);
      if (i == 3) q.schedule(now_ps(), 7);            // due now: handled in this activation
      if (i == 5) q.schedule(now_ps() + 5 * kNs, 8);  // into the emptied run
    });
  }
};

// Items come out by (time, insertion order) whether they sit in the FIFO run or the heap.
void queue_order(bool run) {
  QueueProbe p("probe", run);
  // items 1..6: times 30, 10, 30, 20, 40, 10 ns (2, 4 and 6 go to the heap when the run is on)
  const Tick t[] = {30, 10, 30, 20, 40, 10};
  for (int i = 0; i < 6; ++i) p.plan.emplace_back(t[i] * kNs, i + 1);
  sc_core::sc_start();
  const std::vector<std::pair<Tick, int>> want = {{10 * kNs, 2}, {10 * kNs, 6}, {20 * kNs, 4},
                                                  {30 * kNs, 1}, {30 * kNs, 3}, {30 * kNs, 7},
                                                  {40 * kNs, 5}, {45 * kNs, 8}};
  EXPECT_EQ(p.log, want);
  EXPECT_EQ(p.q.runs(), 5u);  // one activation per distinct time
  EXPECT_TRUE(p.q.empty());
}
}  // namespace

TEST(Timing, TimedQueueOrdersItemsByTimeThenInsertion) {
  queue_order(false);
}

TEST(Timing, TimedQueueWithARunOrdersItemsByTimeThenInsertion) {
  queue_order(true);
}

TEST(Timing, TimedQueueWithARunKeepsItsOrderWhenItCompactsTheRun) {
  // 600 items in time order all go to the run; draining them one time step at a time passes the
  // compaction (the consumed part erased once 256 or more are consumed and they are at least
  // half the run) while the run is not empty.
  QueueProbe p("probe", true);
  for (int i = 0; i < 600; ++i) p.plan.emplace_back(Tick(i + 1) * kNs, 100 + i);
  sc_core::sc_start();
  ASSERT_EQ(p.log.size(), 600u);
  for (int i = 0; i < 600; ++i) {
    EXPECT_EQ(p.log[i].first, Tick(i + 1) * kNs);
    EXPECT_EQ(p.log[i].second, 100 + i);
  }
  EXPECT_EQ(p.q.runs(), 600u);
  EXPECT_TRUE(p.q.empty());
}
