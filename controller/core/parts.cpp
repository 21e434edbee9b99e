#include "controller/core/parts.h"

#include "controller/fsp/report.h"
#include "controller/rr/read_disturb.h"

namespace ssdtlm {

DriveParts::DriveParts() = default;
DriveParts::DriveParts(DriveParts&&) noexcept = default;
DriveParts::~DriveParts() = default;

void WriteBuffer::write_fsp_rewards_csv(const std::string& path) const {
  fsp::write_rewards_csv(path, {});  // no FSP grouper: no episodes
}

}  // namespace ssdtlm
