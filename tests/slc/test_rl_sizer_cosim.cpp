// The SLC-RL agent on the C++ golden model vs the Verilated RTL (slc variant, 1296 x 9, no
// reward unit): the same EpochStats stream gives identical decisions, cycle counts and final
// q-tables. Built only with the RTL backend (ssdtlm_rl_cosim, SSDTLM_HAVE_RTL).
#include <gtest/gtest.h>

#include <sstream>

#include "controller/rl/rtl_backend.h"
#include "controller/slc/rl_sizer.h"
#include "tests/slc/epoch_gen.h"

using namespace ssdtlm;
using namespace ssdtlm::slc;

namespace {

// Non-zero Q values of a saved table (after its two header lines).
int nonzero_entries(const std::string& table) {
  std::istringstream is(table);
  std::string line;
  std::getline(is, line);
  std::getline(is, line);
  int n = 0;
  long v;
  while (is >> v) n += v != 0;
  return n;
}

void equivalence(const SsdConfig& cfg, int epochs, uint64_t stim_seed, uint32_t max_slc) {
  RlSizer cpp(cfg), rtl(cfg);
  cpp.set_backend_factory(rl::cpp_backend_factory());
  rtl.set_backend_factory(rl::rtl_backend_factory());
  ASSERT_STREQ(rtl.backend().kind(), "rtl");
  ASSERT_STREQ(cpp.backend().kind(), "cpp");
  SizerContext ctx;
  ctx.total_blocks = 4 * max_slc;
  ctx.max_slc_blocks = max_slc;
  ctx.native_pages_per_block = 1024;
  ctx.slc_pages_per_block = 256;
  ctx.reserve_blocks = 8;
  ctx.logical_pages = 1u << 20;
  const SlcTargets a0 = cpp.initial(ctx), b0 = rtl.initial(ctx);
  ASSERT_EQ(a0.slc_blocks, b0.slc_blocks);
  ASSERT_EQ(a0.theta_bytes, b0.theta_bytes);
  test::EpochGen gen(stim_seed);
  for (int i = 0; i < epochs; ++i) {
    const EpochStats s = gen.next();
    const SlcTargets a = cpp.on_epoch(s), b = rtl.on_epoch(s);
    ASSERT_EQ(cpp.last_state(), rtl.last_state()) << "epoch " << i;
    ASSERT_EQ(cpp.last_action(), rtl.last_action()) << "epoch " << i;
    ASSERT_EQ(a.slc_blocks, b.slc_blocks) << "epoch " << i;
    ASSERT_EQ(a.theta_bytes, b.theta_bytes) << "epoch " << i;
    ASSERT_EQ(cpp.take_cycles(), rtl.take_cycles()) << "epoch " << i;
  }
  const nlohmann::json ja = cpp.stats(), jb = rtl.stats();
  EXPECT_EQ(ja["decisions"], jb["decisions"]);
  EXPECT_EQ(ja["explorations"], jb["explorations"]);
  EXPECT_GT(ja["explorations"].get<int>(), 0);
  EXPECT_EQ(ja["actions_chosen"], jb["actions_chosen"]);
  EXPECT_EQ(ja["history"], jb["history"]);
  std::ostringstream ta, tb;
  cpp.save_table(ta);
  rtl.save_table(tb);
  EXPECT_EQ(ta.str(), tb.str());
  EXPECT_GT(nonzero_entries(ta.str()), 100);  // the stream reached many states
}

}  // namespace

TEST(SlcRlCosim, CppAndRtlDecideAlike) {
  SsdConfig cfg;  // alpha 0.3, gamma 0.8, epsilon 0.07 (the RTL's constants)
  cfg.seed = 2024;
  equivalence(cfg, 5000, 1, 200);
}

TEST(SlcRlCosim, CppAndRtlDecideAlikeMoreExploration) {
  SsdConfig cfg;
  cfg.seed = 7;
  cfg.slc_rl_epsilon = 0.3;
  cfg.slc_theta_kib = 8;
  equivalence(cfg, 3000, 2, 37);
}

TEST(SlcRlCosim, PretrainedTableOnRtl) {
  // A table trained on the C++ model and loaded into the RTL drives the same decisions.
  SsdConfig cfg;
  std::string table;
  {
    RlSizer a(cfg);
    SizerContext ctx;
    ctx.max_slc_blocks = 64;
    a.initial(ctx);
    test::EpochGen gen(5);
    for (int i = 0; i < 3000; ++i) a.on_epoch(gen.next());
    std::ostringstream os;
    a.save_table(os);
    table = os.str();
  }
  RlSizer cpp(cfg), rtl(cfg);
  std::istringstream i1(table), i2(table);
  cpp.load_table(i1);
  rtl.load_table(i2);
  rtl.set_backend_factory(rl::rtl_backend_factory());
  SizerContext ctx;
  ctx.max_slc_blocks = 64;
  cpp.initial(ctx);
  rtl.initial(ctx);
  test::EpochGen gen(6);
  for (int i = 0; i < 2000; ++i) {
    const EpochStats s = gen.next();
    const SlcTargets a = cpp.on_epoch(s), b = rtl.on_epoch(s);
    ASSERT_EQ(a.slc_blocks, b.slc_blocks) << "epoch " << i;
    ASSERT_EQ(a.theta_bytes, b.theta_bytes) << "epoch " << i;
  }
  std::ostringstream ta, tb;
  cpp.save_table(ta);
  rtl.save_table(tb);
  EXPECT_EQ(ta.str(), tb.str());
  EXPECT_STREQ(rtl.backend().kind(), "rtl");
}
