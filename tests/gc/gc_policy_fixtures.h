// Shared by the GC policy tests: a preset by name, a scripted GcEngine, a driver of decisions
// and a counting engine.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/gc/policy.h"

namespace ssdtlm {
namespace {

constexpr Tick kUs = 1'000'000;

SsdConfig preset(const char* name) {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/" + name + ".json");
  c.finalize();
  return c;
}

class ScriptEngine : public GcEngine {
 public:
  struct Sched {
    uint32_t plane, copies;
    uint8_t prio;
    uint32_t max_valid;
    Tick delay;
  };
  explicit ScriptEngine(uint32_t planes) : free(planes, 50), active(planes, false) {}
  uint32_t planes() const override { return static_cast<uint32_t>(free.size()); }
  uint32_t free_blocks(uint32_t p) const override { return free[p]; }
  uint32_t threshold_blocks() const override { return 0; }
  bool gc_active(uint32_t p) const override { return active[p]; }
  bool gc_start(uint32_t, uint32_t, uint8_t) override { return false; }
  void gc_step(uint32_t, uint32_t) override {}
  bool gc_victim_empty(uint32_t) const override { return empty; }
  void gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                   Tick delay) override {
    log.push_back({plane, copies, prio, max_valid, delay});
  }
  uint32_t pages_per_block() const override { return 768; }

  std::vector<uint32_t> free;
  std::vector<bool> active;
  bool empty = false;
  std::vector<Sched> log;
};

struct Driver {
  Tick t = 0;
  uint64_t id = 0;
  // A request arriving `gap` after the previous one, served after 100 us.
  void serve(GcPolicy& p, bool read, Tick gap) {
    HostCmd c;
    c.id = ++id;
    t += gap;
    c.arrival = t;
    c.is_read = read;
    p.on_request_arrival(c);
    p.on_request_served(c, 100 * kUs);
  }
};

// An engine that counts greedy's starts.
class CountingEngine : public GcEngine {
 public:
  CountingEngine(uint32_t planes, uint32_t threshold) : free(planes, 0), threshold(threshold) {}
  uint32_t planes() const override { return static_cast<uint32_t>(free.size()); }
  uint32_t free_blocks(uint32_t p) const override { return free[p]; }
  uint32_t threshold_blocks() const override { return threshold; }
  bool gc_active(uint32_t) const override { return active; }
  bool gc_start(uint32_t, uint32_t, uint8_t) override {
    ++starts;
    active = true;
    return true;
  }
  void gc_step(uint32_t, uint32_t) override {}
  bool host_blocked() const override { return blocked; }
  std::vector<uint32_t> free;
  uint32_t threshold;
  bool active = false, blocked = false;
  int starts = 0;
};

}  // namespace
}  // namespace ssdtlm
