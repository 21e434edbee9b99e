#include "nand/timing.h"

#include <cmath>
#include <stdexcept>

namespace ssdtlm::nand {

namespace {

Tick us_to_ps(double us) {
  return static_cast<Tick>(std::llround(us * 1e6));
}

}  // namespace

TimingModel TimingModel::from_keys(const TimingKeys& k, CellType cell) {
  const int bits = bits_per_cell(cell);
  TimingModel m;
  ArrayTiming& a = m.native_;
  a.program_mode = k.program_mode == "per_page" ? ProgramMode::PerPage : ProgramMode::OneShot;
  if (k.read_us.size() != static_cast<size_t>(bits))
    throw std::invalid_argument("key 'nand.read_us': needs " + std::to_string(bits) +
                                " values (one per page type of " + to_string(cell) + ")");
  const size_t want_prog = a.program_mode == ProgramMode::OneShot ? 1 : bits;
  if (k.program_us.size() != want_prog)
    throw std::invalid_argument("key 'nand.program_us': needs " + std::to_string(want_prog) +
                                " value(s) for program_mode " + k.program_mode);
  for (int t = 0; t < bits; ++t) a.read[t] = us_to_ps(k.read_us[t]);
  for (size_t t = 0; t < want_prog; ++t) a.program[t] = us_to_ps(k.program_us[t]);
  a.erase = us_to_ps(k.erase_us);
  m.slc_.program_mode = ProgramMode::OneShot;
  m.slc_.read[0] = us_to_ps(k.slc_read_us);
  m.slc_.program[0] = us_to_ps(k.slc_program_us);
  m.slc_.erase = us_to_ps(k.slc_erase_us);
  m.t_retry_ = us_to_ps(k.retry_us);
  return m;
}

}  // namespace ssdtlm::nand
