#include "nand/reliability.h"

#include <cmath>

namespace ssdtlm::nand {
namespace {

double interp(const std::array<double, 8>& col, double pe) {
  const double k = pe / 1000.0;  // column index + 1
  if (k <= 1.0) return col[0] * 1e-3;
  if (k >= 8.0) return col[7] * 1e-3;
  const int i = static_cast<int>(std::floor(k)) - 1;  // 0..6
  const double f = k - (i + 1);
  return (col[i] + f * (col[i + 1] - col[i])) * 1e-3;
}

}  // namespace

double RberTable::phi0(double pe) {
  return interp(kPhi0, pe);
}
double RberTable::phi1(double pe) {
  return interp(kPhi1, pe);
}

int LdpcModel::level(double rber) const {
  if (rber <= rber_hard) return 0;
  if (rber > rber_max) return kMaxLevel + 1;
  const double step = (rber_max - rber_hard) / kMaxLevel;
  int l = static_cast<int>(std::ceil((rber - rber_hard) / step - 1e-12));
  if (l < 1) l = 1;
  return l > kMaxLevel ? kMaxLevel : l;
}

double LdpcModel::read_limit(double pe) const {
  const double p1 = RberTable::phi1(pe);
  return p1 > 0 ? (rber_max - RberTable::phi0(pe)) / p1 * 1000.0 : 1e18;
}

}  // namespace ssdtlm::nand
