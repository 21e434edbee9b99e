// The design points of an RL unit (controller/rl/modes.h): what reaches the backend under
// online, greedy and frozen, and the q-table file of a run.
#include <gtest/gtest.h>

#include <sstream>

#include "controller/rl/modes.h"
#include "controller/rl/unit_config.h"

namespace {

using namespace ssdtlm::rl;

// The C++ backend, counting the operations that reach it.
struct Counts {
  int updates = 0, rewards = 0, episodes = 0;
  double eps_high = -1, eps_low = -1;
  int random_ties = -1, scan_decide = -1, shadow = -1;
};

class CountingBackend final : public Backend {
 public:
  CountingBackend(const UnitConfig& cfg, Counts& n) : inner_(cfg), n_(n) {
    n.eps_high = cfg.core.eps_high;
    n.eps_low = cfg.core.eps_low;
    n.random_ties = cfg.core.random_ties;
    n.scan_decide = cfg.core.scan_decide;
    n.shadow = cfg.core.shadow;
  }
  const char* kind() const override { return "cpp"; }
  const UnitConfig& config() const override { return inner_.config(); }
  Decision decide(uint32_t s, uint32_t m) override { return inner_.decide(s, m); }
  uint32_t update(const UpdateOp& op) override {
    ++n_.updates;
    return inner_.update(op);
  }
  uint32_t end_episode() override {
    ++n_.episodes;
    return inner_.end_episode();
  }
  RewardResult reward(uint64_t x) override {
    ++n_.rewards;
    return inner_.reward(x);
  }
  uint32_t write_row(uint32_t s, const int32_t* r) override { return inner_.write_row(s, r); }
  uint32_t read_row(uint32_t s, bool sh, int32_t* r) override { return inner_.read_row(s, sh, r); }
  uint32_t seed(uint32_t s) override { return inner_.seed(s); }

 private:
  CppBackend inner_;
  Counts& n_;
};

BackendFactory counting(Counts& n) {
  return [&n](const UnitConfig& c) { return std::make_unique<CountingBackend>(c, n); };
}

// A few decisions, rewards and updates, as a policy makes them.
void drive(Backend& be, int n) {
  for (int i = 0; i < n; ++i) {
    const uint32_t s = uint32_t(i * 7) % be.config().core.states;
    const Decision d = be.decide(s);
    const RewardResult r = be.reward(uint64_t(100 + (i * 37) % 500));
    if (!be.frozen())
      be.update(UpdateOp::sarsa(s, d.action, i % 3 ? 256 : -256, (s + 1) % 68, 0, r.ready));
    be.reward(50);
    be.end_episode();
  }
}

TEST(RlModes, ParseNames) {
  EXPECT_EQ(parse_mode("online"), Mode::Online);
  EXPECT_EQ(parse_mode("greedy"), Mode::Greedy);
  EXPECT_EQ(parse_mode("frozen"), Mode::Frozen);
  EXPECT_THROW(parse_mode("offline"), std::invalid_argument);
  EXPECT_STREQ(mode_name(Mode::Frozen), "frozen");
}

TEST(RlModes, OnlineForwardsEverythingAndKeepsTheSchedule) {
  Counts n;
  std::shared_ptr<ModeRegistry> reg;
  auto be = mode_factory(counting(n), ModeSetup{}, reg)(unit_config_for("gc", 1));
  drive(*be, 10);
  EXPECT_EQ(n.updates, 10);
  EXPECT_EQ(n.rewards, 20);
  EXPECT_EQ(n.episodes, 10);
  EXPECT_DOUBLE_EQ(n.eps_high, 0.8);
  EXPECT_EQ(n.random_ties, 1);
  EXPECT_FALSE(be->frozen());
  EXPECT_EQ(reg->live.count("gc"), 1u);
  be.reset();
  EXPECT_EQ(reg->live.count("gc"), 0u);  // a destroyed unit is not saved
}

TEST(RlModes, GreedyUpdatesWithEpsilonZero) {
  Counts n;
  ModeSetup s;
  s.mode = Mode::Greedy;
  std::shared_ptr<ModeRegistry> reg;
  auto be = mode_factory(counting(n), s, reg)(unit_config_for("gc", 1));
  EXPECT_EQ(n.eps_high, 0.0);
  EXPECT_EQ(n.eps_low, 0.0);
  EXPECT_EQ(n.random_ties, 0);  // no LFSR at this point: the lower index wins ties
  EXPECT_EQ(n.scan_decide, 0);
  int explored = 0;
  for (int i = 0; i < 2000; ++i) explored += be->decide(uint32_t(i) % 68, kAllActions).explored;
  EXPECT_EQ(explored, 0);
  drive(*be, 5);
  EXPECT_EQ(n.updates, 5);
}

TEST(RlModes, FrozenIssuesNoUpdateNoRewardNoEpisode) {
  Counts n;
  ModeSetup s;
  s.mode = Mode::Frozen;
  std::shared_ptr<ModeRegistry> reg;
  auto be = mode_factory(counting(n), s, reg)(unit_config_for("gc", 1));
  EXPECT_TRUE(be->frozen());
  EXPECT_FALSE(be->learns());
  EXPECT_EQ(n.eps_high, 0.0);
  EXPECT_EQ(n.random_ties, 0);
  EXPECT_EQ(n.scan_decide, 1);  // the frozen core scans rows
  drive(*be, 10);
  EXPECT_EQ(be->update(UpdateOp::sarsa(0, 0, 256, 1, 0)), 0u);
  EXPECT_FALSE(be->reward(10).ready);
  EXPECT_EQ(n.updates, 0);
  EXPECT_EQ(n.rewards, 0);
  EXPECT_EQ(n.episodes, 0);
}

// Trained online, saved, loaded into a frozen unit: the frozen unit decides from the trained
// table (its greedy choice in every state), also for a unit with a shadow table (fsp).
TEST(RlModes, SavedTablesLoadIntoAFrozenUnit) {
  for (const char* name : {"gc", "fsp"}) {
    std::shared_ptr<ModeRegistry> reg;
    auto trained = mode_factory(cpp_backend_factory(), ModeSetup{}, reg)(unit_config_for(name, 1));
    const uint32_t states = trained->config().core.states;
    for (int i = 0; i < 3000; ++i) {
      const uint32_t st = uint32_t(i * 5) % states;
      const Decision d = trained->decide(st);
      trained->update(
          UpdateOp::sarsa(st, d.action, d.action == st % 3 ? 256 : -256, (st + 1) % states, 0));
    }
    std::ostringstream os;
    reg->save().write(os);
    auto set = std::make_shared<TableSet>();
    std::istringstream is(os.str());
    set->read(is, "t.txt");
    ASSERT_TRUE(set->has(name));
    ModeSetup fz;
    fz.mode = Mode::Frozen;
    fz.tables = set;
    fz.tables_file = "t.txt";
    std::shared_ptr<ModeRegistry> reg2;
    auto frozen = mode_factory(cpp_backend_factory(), fz, reg2)(unit_config_for(name, 2));
    EXPECT_EQ(frozen->cycles(), 0u) << "loading is set-up, not counted";
    const bool sh = trained->config().core.shadow;
    std::vector<int32_t> a(trained->config().core.actions), b(a.size());
    for (uint32_t st = 0; st < states; ++st) {
      trained->read_row(st, sh, a.data());  // the latest learnt table
      frozen->read_row(st, false, b.data());
      ASSERT_EQ(a, b) << name << " state " << st;
    }
  }
}

TEST(RlModes, TableFileErrorsNameFileAndUnit) {
  TableSet t;
  std::istringstream bad("ssdtlm-qtable 1\n");
  try {
    t.read(bad, "x.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x.txt:1"), std::string::npos) << e.what();
  }
  std::istringstream ok(
      "ssdtlm-rl-tables 1\nunit gc\nssdtlm-qtable 1\nstates 68 actions 8 "
      "q_width 16 q_frac 8 shadow 0\nend\n");
  t.read(ok, "y.txt");
  EXPECT_NO_THROW(t.check_size("y.txt", "gc", 68, 8));
  try {
    t.check_size("y.txt", "gc", 80, 9);
    FAIL();
  } catch (const std::runtime_error& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("y.txt"), std::string::npos) << w;
    EXPECT_NE(w.find("unit gc"), std::string::npos) << w;
  }
  std::istringstream open("ssdtlm-rl-tables 1\nunit rr\n1 2\n");
  EXPECT_THROW(t.read(open, "z.txt"), std::runtime_error);
}

}  // namespace
