// libFuzzer target: one trace format (FUZZ_FORMAT), or "auto" with transformations.
#include "tests/fuzz/fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ssdtlm::fuzz::run_one(FUZZ_FORMAT, data, size);
}
