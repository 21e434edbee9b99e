// Checks of the configuration tests (test_units_config_stats.cpp, test_units_slc_config.cpp): the
// ConfigError message a bad key, value or combination raises, and a substring assertion that
// prints both strings.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "controller/config.h"

namespace ssdtlm::test {

inline ::testing::AssertionResult Contains(const std::string& hay, const std::string& needle) {
  if (hay.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << hay << "' does not contain '" << needle << "'";
}

// Runs f and returns the ConfigError message, or records a failure.
inline std::string config_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ConfigError, got another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected ConfigError, nothing thrown";
  return "";
}

}  // namespace ssdtlm::test
