// NAND array and ONFI bus timing. All durations in picoseconds (Tick).
// The analytic helpers here are what the flash-channel model charges; tests compare the
// simulated times against sums of these terms.
#pragma once

#include <array>
#include <cstdint>

#include "nand/geometry.h"

namespace ssdtlm::nand {

struct ArrayTiming {
  std::array<Tick, 4> read{};  // tR per page type (index 0 = LSB)
  std::array<Tick, 4>
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
