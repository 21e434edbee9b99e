// Placeholder: implemented by the owner of this command.
#include <cstdio>

#include "testbench/commands.h"

namespace ssdtlm::tb {
int hwcost_main(int, char**) {
  std::fprintf(stderr, "ssdtlm: this command is not implemented yet\n");
  return 2;
}
}  // namespace ssdtlm::tb
