#include "controller/core/parts.h"

#include <fstream>

#include "controller/config.h"
#include "controller/rr/read_disturb.h"

namespace ssdtlm {

DriveParts::DriveParts() = default;
DriveParts::DriveParts(DriveParts&&) noexcept = default;
DriveParts::~DriveParts() = default;

void WriteBuffer::write_fsp_rewards_csv(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the FSP reward CSV");
  f << "episode,avg_reward\n";  // no FSP grouper: no episodes
}

}  // namespace ssdtlm
