// NAND array and ONFI bus timing. All durations in picoseconds (Tick).
//
// TimingModel is the one place that says how long a die's array operation takes: by operation,
// page type, block mode (native TLC/QLC or SLC) and LDPC read-retry level. The flash channel
// (models/flash_channel.cpp), the read-refresh policies and the test fakes of the flash all ask
// it; tests compare the simulated times against sums of these terms. A NAND generation with other
// numbers is a preset (configs/*.json, keys nand.read_us, nand.program_us, nand.erase_us,
// nand.program_mode, slc.*_us, rd.retry_us); one whose times follow another rule changes
// op_time's terms here (docs/architecture.md, "Adding a NAND timing model").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "nand/geometry.h"

namespace ssdtlm::nand {

constexpr int kMaxPageTypes = 4;  // QLC; page types are indexed 0 (LSB) .. bits_per_cell - 1

struct ArrayTiming {
  std::array<Tick, kMaxPageTypes> read{};  // tR per page type (index 0 = LSB)
  std::array<Tick, kMaxPageTypes>
      program{};   // per_page mode: tPROG per page type; one_shot mode: [0] = tPROG of a word line
  Tick erase = 0;  // tBERS
  ProgramMode program_mode = ProgramMode::OneShot;

  Tick read_time(int page_type) const { return read[page_type]; }
  // Program time of a unit whose pages start at page type `first_type` and span `npages` types.
  Tick program_time(int first_type, int npages) const {
    if (program_mode == ProgramMode::OneShot) return program[0];
    Tick t = 0;
    for (int i = 0; i < npages; ++i) t += program[first_type + i];
    return t;
  }
};

enum class ArrayOp : uint8_t { Read, Program, Erase };

// The timing keys of a preset, in microseconds (controller/config.h holds them under these names).
struct TimingKeys {
  std::vector<double> read_us;     // nand.read_us: per page type
  std::vector<double> program_us;  // nand.program_us: one_shot [tPROG]; per_page per page type
  double erase_us = 0;             // nand.erase_us
  std::string program_mode;        // nand.program_mode: one_shot | per_page
  double slc_read_us = 0, slc_program_us = 0, slc_erase_us = 0;  // slc.*: blocks in SLC mode
  double retry_us = 0;  // rd.retry_us: extra read time per LDPC soft-decision level
};

class TimingModel {
 public:
  static constexpr int kMaxRetryLevel = 7;  // LDPC soft-decision levels (nand/reliability.h)

  // The model of a die of cell type `cell` with these keys; throws std::invalid_argument naming
  // the offending key when the counts do not fit the cell type or the program mode.
  static TimingModel from_keys(const TimingKeys& k, CellType cell);

  // Array time of one operation on one plane. Read: page type `page_type` at LDPC retry level
  // `retry` (an uncorrectable read, above kMaxRetryLevel, has spent every level); `own_read`, when
  // not 0, replaces the page type's tR (a block reprogrammed to MLC reads in its own time).
  // Program: a unit of `npages` page types from `page_type`. `slc`: a block in SLC mode (page type
  // 0, one page per program).
  Tick op_time(ArrayOp op, bool slc, int page_type, int npages = 1, int retry = 0,
               Tick own_read = 0) const {
    const ArrayTiming& at = slc ? slc_ : native_;
    switch (op) {
      case ArrayOp::Read:
        return (own_read ? own_read : at.read_time(slc ? 0 : page_type)) + retry_time(retry);
      case ArrayOp::Program:
        return at.program_time(slc ? 0 : page_type, npages);
      case ArrayOp::Erase:
        return at.erase;
    }
    return 0;
  }
  Tick read(bool slc, int page_type, int retry = 0) const {
    return op_time(ArrayOp::Read, slc, page_type, 1, retry);
  }
  Tick program(bool slc, int page_type, int npages) const {
    return op_time(ArrayOp::Program, slc, page_type, npages);
  }
  Tick erase(bool slc) const { return op_time(ArrayOp::Erase, slc, 0); }
  // The LDPC retries' part of a read at level `lvl`.
  Tick retry_time(int lvl) const {
    return Tick(lvl > kMaxRetryLevel ? kMaxRetryLevel : lvl) * t_retry_;
  }

  const ArrayTiming& native() const { return native_; }
  const ArrayTiming& slc() const { return slc_; }
  Tick t_retry() const { return t_retry_; }

 private:
  ArrayTiming native_;
  ArrayTiming slc_;  // blocks in SLC mode: read[0], program[0] (one page), erase
  Tick t_retry_ = 24 * kPsPerUs;
};

struct BusTiming {
  // ONFI-style channel: `bytes_per_us` data rate (MT/s on an 8-bit bus = MB/s), a command/address
  // sequence of `cmd_addr_cycles` bus cycles of `cycle` each per operation (and per plane of a
  // multi-plane operation), and the status-poll / turnaround overhead folded into those cycles.
  uint64_t bytes_per_us = 800;   // 800 MT/s x 8 bit
  uint32_t cmd_addr_cycles = 7;  // CMD + 5 ADDR + CMD
  Tick cycle = 10 * kPsPerNs;    // tWC

  Tick cmd_time() const { return Tick(cmd_addr_cycles) * cycle; }
  // Data transfer of `bytes` on the bus (rounded to the nearest ps).
  Tick xfer_time(uint64_t bytes) const {
    return (bytes * kPsPerUs + bytes_per_us / 2) / bytes_per_us;
  }
};

}  // namespace ssdtlm::nand
