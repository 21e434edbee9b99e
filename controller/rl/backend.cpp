#include "controller/rl/backend.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ssdtlm::rl {

void Backend::save_table(std::ostream& os) {
  const auto& c = config().core;
  std::vector<int32_t> row(c.actions);
  os << "ssdtlm-qtable 1\nstates " << c.states << " actions " << c.actions << " q_width "
     << c.q_width << " q_frac " << c.q_frac << " shadow " << (c.shadow ? 1 : 0) << "\n";
  for (int t = 0; t < (c.shadow ? 2 : 1); ++t)
    for (uint32_t s = 0; s < c.states; ++s) {
      read_row(s, t == 1, row.data());
      for (uint32_t a = 0; a < c.actions; ++a) os << (a ? " " : "") << row[a];
      os << "\n";
    }
}

void Backend::load_table(std::istream& is) {
  QCore img(config().core);
  img.load(is);
  const auto& c = config().core;
  std::vector<int32_t> row(c.actions);
  for (uint32_t s = 0; s < c.states; ++s) {
    img.read_row(s, false, row.data());
    write_row(s, row.data());
  }
  if (c.shadow) {
    // write_row sets both tables (the RTL write port does): a distinct shadow cannot be loaded.
    bool differs = false;
    std::vector<int32_t> r2(c.actions);
    for (uint32_t s = 0; s < c.states && !differs; ++s) {
      img.read_row(s, false, row.data());
      img.read_row(s, true, r2.data());
      differs = row != r2;
    }
    if (differs)
      throw std::runtime_error(
          "rl: loading a table whose shadow differs from its active table is not supported");
  }
}

UnitRsp Backend::unit_op(const UnitOp& op) {
  if (!enc_) {
    enc_ = make_encoder(config());
    if (!enc_) throw std::logic_error("rl: unit " + config().name + " has no state encoder");
  }
  return enc_->run(op, *this);
}

CppBackend::CppBackend(const UnitConfig& cfg) : cfg_(cfg), core_(cfg.core), rwd_(cfg.reward) {}

Decision CppBackend::decide(uint32_t state, uint32_t mask) {
  Decision d = core_.decide(state, mask);
  account(d.cycles);
  return d;
}
uint32_t CppBackend::update(const UpdateOp& op) {
  return account(core_.update(op));
}
uint32_t CppBackend::end_episode() {
  return account(core_.end_episode());
}
RewardResult CppBackend::reward(uint64_t sample) {
  if (!cfg_.has_reward) throw std::logic_error("rl: unit " + cfg_.name + " has no reward unit");
  RewardResult r = rwd_.observe(sample);
  account(r.cycles);
  return r;
}
uint32_t CppBackend::write_row(uint32_t state, const int32_t* row) {
  return account(core_.write_row(state, row));
}
uint32_t CppBackend::read_row(uint32_t state, bool shadow, int32_t* row) {
  return account(core_.read_row(state, shadow, row));
}
uint32_t CppBackend::seed(uint32_t s) {
  return account(core_.seed(s));
}

namespace {

// The fixed-action control: the decision a unit without learning would take, at no cost.
class FixedBackend final : public Backend {
 public:
  explicit FixedBackend(const UnitConfig& cfg) : cfg_(cfg) {
    if (cfg.fixed_action < 0 || uint32_t(cfg.fixed_action) >= cfg.core.actions)
      throw std::invalid_argument("rl: unit " + cfg.name + ": fixed action " +
                                  std::to_string(cfg.fixed_action) + " is not one of its " +
                                  std::to_string(cfg.core.actions) + " actions");
  }
  const char* kind() const override { return "fixed"; }
  bool learns() const override { return false; }
  const UnitConfig& config() const override { return cfg_; }
  Decision decide(uint32_t /*state*/, uint32_t mask) override {
    const uint32_t a = uint32_t(cfg_.fixed_action);
    Decision d;
    if ((mask >> a) & 1u) {
      d.action = a;
    } else if (cfg_.fixed_rule) {
      d.action = cfg_.fixed_rule(a, mask);
    } else {
      while (d.action + 1 < cfg_.core.actions && !((mask >> d.action) & 1u)) ++d.action;
    }
    account(0);
    return d;
  }
  uint32_t update(const UpdateOp& /*op*/) override { return 0; }
  uint32_t end_episode() override { return 0; }
  RewardResult reward(uint64_t /*sample*/) override {
    RewardResult r;
    r.ready = false;  // no reward unit: nothing is ever learnt from it
    return r;
  }
  uint32_t write_row(uint32_t /*state*/, const int32_t* /*row*/) override { return 0; }
  uint32_t read_row(uint32_t /*state*/, bool /*shadow*/, int32_t* row) override {
    std::fill(row, row + cfg_.core.actions, 0);
    return 0;
  }
  uint32_t seed(uint32_t /*s*/) override { return 0; }

 private:
  UnitConfig cfg_;
};

}  // namespace

std::unique_ptr<Backend> make_fixed_backend(const UnitConfig& cfg) {
  return std::make_unique<FixedBackend>(cfg);
}

std::unique_ptr<Backend> make_cpp_backend(const UnitConfig& cfg) {
  if (cfg.fixed_action >= 0) return make_fixed_backend(cfg);
  return std::make_unique<CppBackend>(cfg);
}
BackendFactory cpp_backend_factory() {
  return [](const UnitConfig& c) { return make_cpp_backend(c); };
}

}  // namespace ssdtlm::rl
