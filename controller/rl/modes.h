// The design points of an RL decision unit (docs/rl.md "Design points: online, greedy, frozen")
// and the q-table file of a run (ssdtlm run --rl-mode, --rl-save, --rl-load):
//   online: epsilon-greedy with updates (the unit's own schedule);
//   greedy: updates, no exploration (epsilon 0 throughout);
//   frozen: a q-table trained elsewhere, loaded; decisions only: no update, no end of episode,
//           no reward unit use, no exploration, no shadow table.
// Greedy and frozen have no LFSR: ties go to the lowest index (QCoreConfig::random_ties false).
// Plain C++: applied by wrapping a BackendFactory, for the C++ and the RTL backend alike.
#pragma once

#include <iosfwd>
#include <map>
#include <memory>
#include <string>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

// enum class Mode: controller/rl/backend.h (a UnitConfig field).

// "online" | "greedy" | "frozen"; throws std::invalid_argument otherwise.
Mode parse_mode(const std::string& s);
const char* mode_name(Mode m);

// The q-tables of several units, one section per unit name:
//   ssdtlm-rl-tables 1
//   unit NAME
//   <Backend::save_table text>
//   end
class TableSet {
 public:
  // Throws std::runtime_error naming `file` (and the unit, for a section's error).
  void read(std::istream& is, const std::string& file);
  void write(std::ostream& os) const;
  bool has(const std::string& unit) const { return tables_.count(unit) != 0; }
  const std::string& table(const std::string& unit) const { return tables_.at(unit); }
  void set(const std::string& unit, std::string text) { tables_[unit] = std::move(text); }
  const std::map<std::string, std::string>& tables() const { return tables_; }
  // Throws std::runtime_error naming `file` and `unit` when the unit's table is not `states` x
  // `actions` (or is malformed).
  void check_size(const std::string& file, const std::string& unit, uint32_t states,
                  uint32_t actions) const;

 private:
  std::map<std::string, std::string> tables_;
};

// What a run applies to every unit its factory builds. `tables`: loaded (--rl-load) into each
// unit that has a section; `saved`: the live unit of each name, whose tables save() writes.
struct ModeSetup {
  Mode mode = Mode::Online;
  std::shared_ptr<const TableSet> tables;  // may be null
  std::string tables_file;                 // named in errors
};

class ModeRegistry;

// `base` with the mode applied: greedy and frozen set epsilon 0 (rl::with_controls) and
// random_ties false; frozen drops the shadow table (a file's active rows load); frozen
// wraps the unit so that update, end_episode and reward reach no backend (Backend::frozen()).
// A unit with a section in setup.tables gets that table before its first decision (its cycles
// are set-up, not counted). The returned registry knows the units built so far, for saving.
BackendFactory mode_factory(BackendFactory base, const ModeSetup& setup,
                            std::shared_ptr<ModeRegistry>& registry);

class ModeRegistry {
 public:
  // The q-tables of the live units (one per unit name), as a TableSet. A unit with a shadow
  // table (fsp) is saved with its latest learnt table (the shadow) as both of its tables.
  TableSet save() const;
  std::map<std::string, Backend*> live;  // maintained by the backends mode_factory builds
};

}  // namespace ssdtlm::rl
