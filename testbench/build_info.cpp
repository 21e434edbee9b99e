#include "testbench/build_info.h"

namespace ssdtlm::tb {
namespace {
std::vector<std::string>& args() {
  static std::vector<std::string> a;
  return a;
}
}  // namespace

void set_command_line(int argc, char** argv) {
  args().assign(argv, argv + argc);
}

const std::vector<std::string>& command_line() {
  return args();
}

nlohmann::json build_json() {
  return {{"revision", revision()}, {"command_line", command_line()}};
}

std::string version_line(const char* version) {
  return std::string("ssdtlm ") + version + " (revision " + revision() + ")";
}

}  // namespace ssdtlm::tb
