// fio job files: the reader (fio's syntax, sizes and times, notes for options without meaning
// for a simulated drive, every refusal of a file at once with its line) and the option values.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "traces/fio_job.h"

namespace ssdtlm::traces {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_fio_job(text, "j.fio");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(no error)";
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

FioJob one(const std::string& text) {
  const FioJobFile f = parse_fio_job(text, "j.fio");
  EXPECT_EQ(f.jobs.size(), 1u);
  return f.jobs.at(0);
}

TEST(FioJob, SizeSuffixesAsFioReadsThem) {
  uint64_t v = 0;
  const std::map<std::string, uint64_t> cases = {
      {"4096", 4096},     {"4k", 4096},       {"4K", 4096},       {"4kb", 4096},
      {"4KB", 4096},      {"4KiB", 4000},     {"4ki", 4000},      {"2m", 2u << 20},
      {"2MiB", 2000000},  {"1g", 1ull << 30}, {"1G", 1ull << 30}, {"1GiB", 1000000000},
      {"1t", 1ull << 40}, {"512b", 512}};
  for (const auto& [s, want] : cases) {
    ASSERT_TRUE(parse_fio_size(s, v)) << s;
    EXPECT_EQ(v, want) << s;
  }
  for (const char* s : {"", "k", "4x", "4kk", "4kib2", "-1", "99999999999999999999"})
    EXPECT_FALSE(parse_fio_size(s, v)) << s;
  ASSERT_TRUE(parse_fio_size("4k", v, 1000));  // kb_base=1000 swaps the two readings
  EXPECT_EQ(v, 4000u);
  ASSERT_TRUE(parse_fio_size("4KiB", v, 1000));
  EXPECT_EQ(v, 4096u);
  EXPECT_EQ(one("[j]\nkb_base=1000\nbs=4k\n").bs_min[0], 4000u);
}

TEST(FioJob, TimeUnits) {
  uint64_t ns = 0;
  ASSERT_TRUE(parse_fio_time("10", 1000000000ull, ns));
  EXPECT_EQ(ns, 10000000000ull);
  ASSERT_TRUE(parse_fio_time("250", 1000, ns));  // thinktime: microseconds
  EXPECT_EQ(ns, 250000u);
  ASSERT_TRUE(parse_fio_time("5ms", 1, ns));
  EXPECT_EQ(ns, 5000000u);
  ASSERT_TRUE(parse_fio_time("2m", 1, ns));
  EXPECT_EQ(ns, 120000000000ull);
  ASSERT_TRUE(parse_fio_time("7ns", 1000, ns));
  EXPECT_EQ(ns, 7u);
  EXPECT_FALSE(parse_fio_time("5 fortnights", 1, ns));
  const FioJob j = one("[j]\nruntime=2\nthinktime=250\nlatency_target=500000\nramp_time=1m\n");
  EXPECT_EQ(j.runtime_ns, 2000000000u);
  EXPECT_EQ(j.thinktime_ns, 250000u);
  EXPECT_EQ(j.latency_target_ns, 500000000u);  // microseconds by default, as fio
  EXPECT_EQ(j.ramp_ns, 60000000000ull);
}

TEST(FioJob, SectionsCommentsGlobalsAndFlags) {
  const FioJobFile f = parse_fio_job(
      "; a comment\n# another\n[global]\nbs=8k ; the rest is a comment\nname=ignored\n"
      "size=64m\ngroup_reporting\n\n"
      "[a]\nrw=randrw\nrwmixread=70\niodepth=8\nnumjobs=2\n"
      "[global]\nbs=16k\n"
      "[b]\nrw = write\nbsrange=4k-16k,8k-32k\noffset=64m\nname=bee\n",
      "j.fio");
  ASSERT_EQ(f.jobs.size(), 2u);
  EXPECT_EQ(f.jobs[0].name, "a");  // fio keeps the section's name over [global]'s name=
  EXPECT_EQ(f.jobs[0].bs_min[0], 8192u);
  EXPECT_EQ(f.jobs[0].size, 64u << 20);
  EXPECT_EQ(f.jobs[0].rwmix[0], 70u);
  EXPECT_EQ(f.jobs[0].rwmix[1], 30u);
  EXPECT_TRUE(f.jobs[0].group_reporting && f.jobs[0].random && f.jobs[0].mixed());
  EXPECT_EQ(f.jobs[1].name, "bee");
  EXPECT_EQ(f.jobs[1].bs_min[0], 4096u);  // [b]'s bsrange over the second [global]'s bs
  EXPECT_EQ(f.jobs[1].bs_max[1], 32768u);
  EXPECT_FALSE(f.jobs[1].dir[0]);
  ASSERT_EQ(f.global_given.size(), 5u);
  EXPECT_EQ(f.jobs[0].given.size(), 4u);  // a job's own options, for fio's "job options"
}

TEST(FioJob, IncludeAndEnvironment) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ssdtlm-fio-inc-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "common.fio") << "bs=64k\nsize=${SSDTLM_FIO_TEST_SIZE}\n";
  setenv("SSDTLM_FIO_TEST_SIZE", "3m", 1);
  std::ofstream(dir / "main.fio") << "[j]\ninclude common.fio\nrw=write\n";
  const FioJobFile f = read_fio_job((dir / "main.fio").string());
  EXPECT_EQ(f.jobs[0].bs_min[1], 65536u);
  EXPECT_EQ(f.jobs[0].size, 3u << 20);
  EXPECT_TRUE(has(error_of("[j]\nsize=${SSDTLM_FIO_UNSET_VAR}\n"),
                  "j.fio:2: ${SSDTLM_FIO_UNSET_VAR}: not set in the environment"));
  fs::remove_all(dir);
}

// Options with no meaning for a simulated drive are accepted, each with one note.
TEST(FioJob, HostSideOptionsAreNotedOnce) {
  const FioJobFile f = parse_fio_job(
      "[global]\nioengine=libaio\ndirect=1\nfilename=/dev/nvme0n1\nthread\nrandrepeat=0\n"
      "write_bw_log=x\n[a]\nsize=1m\n[b]\nsize=1m\ndirect=0\n",
      "j.fio");
  std::map<std::string, int> lines;
  for (const FioNote& n : f.notes) lines[n.option] = n.line;
  EXPECT_EQ(lines.count("ioengine"), 1u);
  EXPECT_EQ(lines["direct"], 3);  // one note per option: its first line
  for (const char* k : {"filename", "thread", "randrepeat", "write_bw_log"})
    EXPECT_EQ(lines.count(k), 1u) << k;
  const auto text = f.note_lines();
  EXPECT_TRUE(has(text[0], "j.fio:2: note: ioengine=libaio: the simulated host submits"));
  EXPECT_EQ(f.jobs[0].depth(), 1u);
  EXPECT_FALSE(f.jobs[0].sync_engine);
}

TEST(FioJob, SynchronousEnginesKeepOneRequestInFlight) {
  const FioJob dflt = one("[j]\niodepth=32\n");  // fio's default ioengine is psync
  EXPECT_TRUE(dflt.sync_engine);
  EXPECT_EQ(dflt.depth(), 1u);
  EXPECT_EQ(one("[j]\nioengine=io_uring\niodepth=32\n").depth(), 32u);
  const FioJobFile f = parse_fio_job("[j]\niodepth=32\n", "j.fio");
  EXPECT_TRUE(has(f.note_lines().at(0), "a synchronous engine keeps one request in flight"));
  EXPECT_TRUE(has(error_of("[j]\nioengine=net\n"), "not an engine of block I/O"));
}

// Every refusal of a file is reported at once, each with its line.
TEST(FioJob, AllRefusalsAtOnceEachWithItsLine) {
  const std::string e = error_of(
      "[j]\nsize=1m\nrw=trim\nzonemode=zbd\nfsync=4\nverify_backlog=8\nblocksze=4k\niodepth=0\n");
  EXPECT_TRUE(has(e, "j.fio: 6 problems (each is refused):")) << e;
  EXPECT_TRUE(has(e, "j.fio:3: rw=trim: the drive model has no TRIM")) << e;
  EXPECT_TRUE(has(e, "j.fio:4: option 'zonemode' is refused: zoned I/O")) << e;
  EXPECT_TRUE(has(e, "j.fio:5: option 'fsync' is refused: the drive model has no FLUSH")) << e;
  EXPECT_TRUE(has(e, "j.fio:6: option 'verify_backlog' is refused")) << e;
  EXPECT_TRUE(has(e, "j.fio:7: 'blocksze' is not an option of fio (did you mean 'blocksize'?)"))
      << e;
  EXPECT_TRUE(has(e, "j.fio:8: iodepth=0: must be in 1..65535")) << e;
  // values that ask for nothing are not refused
  EXPECT_EQ(error_of("[j]\nzonemode=none\nfsync=0\ntrim_percentage=0\nsync=0\n"), "(no error)");
}

TEST(FioJob, FileShapeErrors) {
  EXPECT_EQ(error_of(""), "j.fio: empty job file: no [global] or job section");
  EXPECT_EQ(error_of("[global]\nsize=1m\n"),
            "j.fio: no job section: only [global] (fio runs job sections)");
  EXPECT_TRUE(has(error_of("size=1m\n[j]\n"), "j.fio:1: option 'size=1m' before the first"));
  EXPECT_TRUE(has(error_of("[j\nsize=1m\n"), "j.fio:1: section header"));
  EXPECT_TRUE(has(error_of("[j]\nrw\n"), "j.fio:2: rw: needs a value"));
  EXPECT_TRUE(has(error_of("[j]\ndirect\n"), "j.fio:2: direct: needs a value"));  // as fio
  EXPECT_TRUE(has(error_of("[j]\nbs=4q\n"), "j.fio:2: bs=4q: not a size"));
  EXPECT_TRUE(has(error_of("[j]\nrwmixread=101\n"), "j.fio:2: rwmixread=101: must be in"));
  EXPECT_TRUE(has(error_of("[j]\nbsrange=8k-4k\n"), "minimum above maximum"));
  EXPECT_TRUE(has(error_of("[a]\n[b]\nwait_for=c\n"), "j.fio:3: [b]: wait_for=c: no job"));
  EXPECT_TRUE(has(error_of("[j]\nramp_time=1\nramp_size=1m\n"), "ramp_time and ramp_size"));
  EXPECT_TRUE(has(error_of("[j]\nrate=1m\nrate_iops=10\n"), "rate and rate_iops together"));
  EXPECT_TRUE(has(error_of("[j]\ndirect=1\nbs=1000\n"), "direct=1 with 1000 bytes"));
  EXPECT_TRUE(has(error_of("[a]\nnumjobs=4000\n[b]\nnumjobs=97\n"), "fio runs at most 4096"));
  EXPECT_EQ(error_of("[j]\nbs=1000\n"), "(no error)");  // buffered I/O may be unaligned
}

TEST(FioJob, ReadWriteModesAndTheirSuffixes) {
  const FioJob back = one("[j]\nrw=read:-8k\n");
  EXPECT_EQ(back.seq_add, -8192);
  EXPECT_FALSE(back.random);
  EXPECT_EQ(one("[j]\nrw=write:4k\n").seq_add, 4096);
  const FioJob r = one("[j]\nrw=randread:16\n");
  EXPECT_EQ(r.seq_nr, 16u);
  EXPECT_TRUE(r.random);
  EXPECT_TRUE(one("[j]\nreadwrite=randrw\nrwmixwrite=40\n").rwmix[0] == 60);
  EXPECT_TRUE(has(error_of("[j]\nrw=randread:-2\n"), "a random job's :N is a positive count"));
  EXPECT_TRUE(has(error_of("[j]\nrw=sideways\n"), "expected read, write"));
}

TEST(FioJob, BlockSizeSplitsAndAlignment) {
  const FioJob j =
      one("[j]\nrw=randrw\nbssplit=512/4:1024/1:4k/67:8k/10:16k/18,4k/50:64k/\nblockalign=4k\n");
  ASSERT_EQ(j.bssplit[0].size(), 5u);
  EXPECT_EQ(j.bssplit[0][0].bs, 1024u);  // sorted by percentage, as fio looks them up
  EXPECT_EQ(j.bssplit[0][4].perc, 67u);
  EXPECT_EQ(j.bs_min[0], 512u);
  EXPECT_EQ(j.bs_max[0], 16384u);
  ASSERT_EQ(j.bssplit[1].size(), 2u);
  EXPECT_EQ(j.bssplit[1][1].perc, 50u);  // the entry without a percentage takes what is left
  EXPECT_EQ(j.ba[0], 4096u);
  EXPECT_TRUE(j.norandommap);  // fio: blockalign turns the random map off
  EXPECT_TRUE(has(error_of("[j]\nbssplit=4k/80:8k/30:16k:32k\n"), "more than 100"));
  const FioJobFile range = parse_fio_job("[j]\nbs=4k-16k\n", "j.fio");  // as fio: 4k
  EXPECT_EQ(range.jobs[0].bs_max[0], 4096u);
  EXPECT_TRUE(has(range.note_lines().at(0), "fio reads the first size only (4k)"));
  const FioJob seq = one("[j]\nrw=read\nbs=8k\nblockalign=4k\n");
  EXPECT_EQ(seq.ba[0], 8192u);  // blockalign is for random offsets only
}

TEST(FioJob, RandomDistributions) {
  const FioJob z = one("[j]\nrw=randread\nrandom_distribution=zipf:1.2\n");
  EXPECT_EQ(z.dist, FioDist::Zipf);
  EXPECT_DOUBLE_EQ(z.dist_param, 1.2);
  EXPECT_DOUBLE_EQ(one("[j]\nrandom_distribution=pareto\n").dist_param, 0.2);  // fio's default
  const FioJob n = one("[j]\nrandom_distribution=normal:5:0.25\n");
  EXPECT_EQ(n.dist, FioDist::Normal);
  EXPECT_DOUBLE_EQ(n.dist_center, 0.25);
  const FioJob zn = one("[j]\nrandom_distribution=zoned:50/5:30/15:20/\n");
  ASSERT_EQ(zn.zones[0].size(), 3u);
  EXPECT_EQ(zn.zones[0][2].size, 80u);  // the last zone's size: what is left
  EXPECT_EQ(zn.zones[1][1].access_perc, 30u);
  const FioJob abs = one("[j]\nrandom_distribution=zoned_abs:60/1m:40/3m\n");
  EXPECT_EQ(abs.zones[0][1].size, 3u << 20);
  const FioJob s = one("[j]\nrandom_distribution=sequence:2,0,1\nrandom_sequence_stride=1\n");
  EXPECT_EQ(s.sequence, (std::vector<uint32_t>{2, 0, 1}));
  EXPECT_TRUE(s.sequence_stride);
  EXPECT_TRUE(has(error_of("[j]\nrandom_distribution=zipf:1\n"), "not 1"));
  EXPECT_TRUE(has(error_of("[j]\nrandom_distribution=zoned:50/5:30/15\n"), "add up to 100"));
}

TEST(FioJob, TimingLatencyTargetAndSteadyState) {
  const FioJob j =
      one("[j]\nrate_iops=100,50\nrate_process=poisson\nio_submit_mode=offload\nthinktime=10ms\n"
          "thinktime_blocks=4\nthinktime_blocks_type=complete\nstartdelay=1-3\nlatency_target=2ms\n"
          "latency_window=1s\nlatency_percentile=99.9\nsteadystate=iops_slope:0.3%\nss_dur=30\n"
          "ss_ramp=10\npercentile_list=99:50:99.99\nstonewall\nwait_for_previous=0\n");
  EXPECT_EQ(j.rate_iops[0], 100u);
  EXPECT_EQ(j.rate_iops[1], 50u);
  EXPECT_TRUE(j.poisson && j.offload && j.thinktime_complete);
  EXPECT_EQ(j.thinktime_blocks, 4u);
  EXPECT_EQ(j.startdelay_ns[0], 1000000000u);
  EXPECT_EQ(j.startdelay_ns[1], 3000000000u);
  EXPECT_DOUBLE_EQ(j.latency_percentile, 99.9);
  EXPECT_EQ(j.ss.metric, FioSteadyState::Iops);
  EXPECT_TRUE(j.ss.slope && j.ss.percent);
  EXPECT_DOUBLE_EQ(j.ss.limit, 0.3);
  EXPECT_EQ(j.ss.dur_ns, 30000000000ull);
  EXPECT_EQ(j.percentile_list, (std::vector<double>{50, 99, 99.99}));
  EXPECT_FALSE(j.stonewall);  // the alias, later, says 0
  // fio: steadystate without ss_dur does nothing; time_based without runtime is not time based
  EXPECT_EQ(one("[j]\nsteadystate=bw:5%\n").ss.metric, FioSteadyState::None);
  EXPECT_FALSE(one("[j]\ntime_based\n").time_based);
  EXPECT_TRUE(has(error_of("[j]\nsteadystate=bw:5%\nss_dur=10\nss_interval=3\n"), "multiple"));
  EXPECT_TRUE(has(error_of("[j]\nsteadystate=wobble:1\n"), "iops, bw or lat"));
}

TEST(FioJob, RegionsAsPercentagesOfTheDrive) {
  const FioJob j = one("[j]\nsize=50%\noffset=25%\n");
  EXPECT_DOUBLE_EQ(j.size_pct, 50);
  EXPECT_DOUBLE_EQ(j.offset_pct, 25);
  EXPECT_FALSE(one("[j]\nrw=read\n").size_set);  // no size: the drive from offset on
  EXPECT_TRUE(has(error_of("[j]\nsize=150%\n"), "a percentage of the drive in (0, 100]"));
  EXPECT_TRUE(has(error_of("[j]\nnrfiles=2\n"), "several files per job"));
}

}  // namespace
}  // namespace ssdtlm::traces
