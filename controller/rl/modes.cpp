#include "controller/rl/modes.h"

#include <istream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "controller/rl/qcore.h"
#include "controller/rl/unit_config.h"

namespace ssdtlm::rl {

Mode parse_mode(const std::string& s) {
  if (s == "online") return Mode::Online;
  if (s == "greedy") return Mode::Greedy;
  if (s == "frozen") return Mode::Frozen;
  throw std::invalid_argument("rl mode '" + s + "': one of online, greedy, frozen");
}

const char* mode_name(Mode m) {
  return m == Mode::Online ? "online" : m == Mode::Greedy ? "greedy" : "frozen";
}

void TableSet::read(std::istream& is, const std::string& file) {
  std::string line;
  size_t n = 0;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(file + ":" + std::to_string(n) + ": " + why);
  };
  ++n;
  if (!std::getline(is, line) || line != "ssdtlm-rl-tables 1")
    fail("not a q-table file of ssdtlm run --rl-save (first line 'ssdtlm-rl-tables 1')");
  std::string unit, text;
  bool in = false;
  while (std::getline(is, line)) {
    ++n;
    if (!in) {
      if (line.empty()) continue;
      if (line.rfind("unit ", 0) != 0) fail("expected 'unit NAME', got '" + line + "'");
      unit = line.substr(5);
      if (tables_.count(unit)) fail("unit " + unit + " appears twice");
      text.clear();
      in = true;
    } else if (line == "end") {
      tables_[unit] = text;
      in = false;
    } else {
      text += line + "\n";
    }
  }
  if (in) fail("unit " + unit + ": no 'end' line");
}

void TableSet::write(std::ostream& os) const {
  os << "ssdtlm-rl-tables 1\n";
  for (const auto& [unit, text] : tables_) os << "unit " << unit << "\n" << text << "end\n";
}

void TableSet::check_size(const std::string& file, const std::string& unit, uint32_t states,
                          uint32_t actions) const {
  std::istringstream is(table(unit));
  std::string magic, w;
  uint32_t s = 0, a = 0;
  std::getline(is, magic);
  if (magic != "ssdtlm-qtable 1" || !(is >> w >> s >> w >> a))
    throw std::runtime_error(file + ": unit " + unit + ": not an ssdtlm-qtable 1 table");
  if (s != states || a != actions)
    throw std::runtime_error(file + ": unit " + unit + ": a table of " + std::to_string(s) +
                             " states x " + std::to_string(a) + " actions; the unit has " +
                             std::to_string(states) + " x " + std::to_string(actions));
}

namespace {

// Backend::save_table's format, with the latest learnt table in both tables of a unit with a
// shadow table (updates go to the shadow; it becomes the active one at the episode's end).
std::string trained_table(Backend& be) {
  const QCoreConfig& c = be.config().core;
  std::ostringstream os;
  os << "ssdtlm-qtable 1\nstates " << c.states << " actions " << c.actions << " q_width "
     << c.q_width << " q_frac " << c.q_frac << " shadow " << (c.shadow ? 1 : 0) << "\n";
  std::vector<int32_t> row(c.actions);
  for (int t = 0; t < (c.shadow ? 2 : 1); ++t)
    for (uint32_t s = 0; s < c.states; ++s) {
      be.read_row(s, c.shadow, row.data());
      for (uint32_t a = 0; a < c.actions; ++a) os << (a ? " " : "") << row[a];
      os << "\n";
    }
  return os.str();
}

}  // namespace

TableSet ModeRegistry::save() const {
  TableSet t;
  for (const auto& [unit, be] : live) t.set(unit, trained_table(*be));
  return t;
}

namespace {

// A unit under a design point: forwards every operation to the backend it owns, except that a
// frozen unit's update, end_episode and reward reach no backend (the RTL is not clocked for
// them). Registers itself as the live unit of its name while it exists.
class ModeBackend final : public Backend {
 public:
  ModeBackend(std::unique_ptr<Backend> inner, bool frozen, std::shared_ptr<ModeRegistry> reg)
      : inner_(std::move(inner)), frozen_(frozen), reg_(std::move(reg)) {
    reg_->live[inner_->config().name] = this;
  }
  ~ModeBackend() override {
    auto it = reg_->live.find(inner_->config().name);
    if (it != reg_->live.end() && it->second == this) reg_->live.erase(it);
  }
  const char* kind() const override { return inner_->kind(); }
  const UnitConfig& config() const override { return inner_->config(); }
  bool learns() const override { return !frozen_ && inner_->learns(); }
  bool frozen() const override { return frozen_; }
  Decision decide(uint32_t state, uint32_t mask) override {
    Decision d = inner_->decide(state, mask);
    account(d.cycles);
    return d;
  }
  uint32_t update(const UpdateOp& op) override { return frozen_ ? 0 : account(inner_->update(op)); }
  uint32_t end_episode() override { return frozen_ ? 0 : account(inner_->end_episode()); }
  RewardResult reward(uint64_t sample) override {
    if (frozen_) {
      RewardResult r;
      r.ready = false;  // 0 cycles, not ready: nothing is learnt from it
      return r;
    }
    RewardResult r = inner_->reward(sample);
    account(r.cycles);
    return r;
  }
  uint32_t write_row(uint32_t state, const int32_t* row) override {
    return account(inner_->write_row(state, row));
  }
  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) override {
    return account(inner_->read_row(state, shadow, row));
  }
  uint32_t seed(uint32_t s) override { return account(inner_->seed(s)); }
  // A backend that simulates the whole unit applies the point itself (its RTL variant); else the
  // encoder golden model runs on this wrapper's operations, which apply it.
  UnitRsp unit_op(const UnitOp& op) override {
    return inner_->runs_units() ? account(inner_->unit_op(op)) : Backend::unit_op(op);
  }
  bool runs_units() const override { return inner_->runs_units(); }

 private:
  std::unique_ptr<Backend> inner_;
  bool frozen_;
  std::shared_ptr<ModeRegistry> reg_;
};

}  // namespace

BackendFactory mode_factory(BackendFactory base, const ModeSetup& setup,
                            std::shared_ptr<ModeRegistry>& registry) {
  if (!registry) registry = std::make_shared<ModeRegistry>();
  if (!base) base = cpp_backend_factory();
  return [base, setup, reg = registry](const UnitConfig& cfg) -> std::unique_ptr<Backend> {
    UnitConfig u = cfg;
    if (setup.mode != Mode::Online) {
      u = with_controls(u, 0.0, u.fixed_action);
      u.core.random_ties = false;  // the points without an LFSR: the lower index wins ties
    }
    if (setup.mode == Mode::Frozen) {  // nothing learns: no shadow table, no episodes
      u.core.shadow = false;
      u.core.episode_len = 0;
      u.core.scan_decide = true;  // the frozen core scans the row's q values (no order bits)
    }
    u.mode = setup.mode;  // the RTL backend builds the variant of this design point
    std::unique_ptr<Backend> be = base(u);
    if (setup.tables && setup.tables->has(u.name)) {
      std::istringstream is(setup.tables->table(u.name));
      try {
        be->load_table(is);  // set-up: its cycles stay in the inner backend's count
      } catch (const std::exception& e) {
        throw std::runtime_error(setup.tables_file + ": unit " + u.name + ": " + e.what());
      }
    }
    return std::make_unique<ModeBackend>(std::move(be), setup.mode == Mode::Frozen, reg);
  };
}

}  // namespace ssdtlm::rl
