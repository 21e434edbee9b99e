// Read-disturb reliability model of TLC NAND (read-disturb paper, Section 3.2, Table 1) and the
// LDPC soft-decision retry model (Table 3). Plain C++, no SystemC. docs/read-disturb.md.
//
// RBER of a block: P = phi0(PE) + phi1(PE) * R, R = reads since the block's last erase, in
// thousands. Table 1 gives phi0/phi1 (unit 1e-3) in eight columns "<1K" ... "<8K". We read column
// k (k = 1..8) as the value at PE = k * 1000 (the paper fits the regression "when the erase
// number scales from 1K to 8K"; its own example, PE 1,001 and 5,000 reads -> 0.00121 measured,
// matches the first column: 0.557 + 0.129 * 5 = 1.202e-3), interpolate linearly between columns
// and clamp outside [1K, 8K].
//
// LDPC: a read whose RBER is at most `rber_hard` decodes at level 0 (hard decision, no retry).
// Above it, soft-decision level L (1..7) corrects up to rber_hard + L * (rber_max - rber_hard) / 7:
// the level of a read is the smallest sufficient L. A read above rber_max is uncorrectable (it has
// spent all 7 retries). Latency = tR + L * t_retry (0.085 ms + 0.024 ms per level), charged by
// nand::TimingModel (nand/timing.h).
// Defaults: rber_max = P(PE 1K, 26.3K reads) = 3.9497e-3, the paper's "maximum read limit 26.3K
// ... the outcome of our model"; rber_hard = 1.0e-3 [assumed]: a block of the first column reads
// without retries up to 3.4K reads.
#pragma once

#include <array>
#include <cstdint>

#include "nand/geometry.h"
#include "nand/timing.h"

namespace ssdtlm::nand {

struct RberTable {
  // Table 1, unit 1e-3, column k-1 = value at PE = k * 1000.
  static constexpr std::array<double, 8> kPhi0{0.557, 0.811, 1.073, 1.193,
                                               1.163, 1.116, 1.328, 2.219};
  static constexpr std::array<double, 8> kPhi1{0.129, 0.175, 0.252, 0.339,
                                               0.415, 0.459, 0.451, 0.370};
  static double phi0(double pe);  // absolute (not 1e-3)
  static double phi1(double pe);
  // P = phi0(pe) + phi1(pe) * reads / 1000.
  static double rber(double pe, double reads) { return phi0(pe) + phi1(pe) * reads / 1000.0; }
};

struct LdpcModel {
  static constexpr int kMaxLevel = TimingModel::kMaxRetryLevel;
  double rber_hard = 1.0e-3;
  double rber_max = RberTable::rber(1000, 26300);

  // 0..7, or kMaxLevel + 1 when uncorrectable.
  int level(double rber) const;
  bool uncorrectable(double rber) const { return level(rber) > kMaxLevel; }
  // Largest read count a block at `pe` can take before its reads become uncorrectable.
  double read_limit(double pe) const;
};

}  // namespace ssdtlm::nand
