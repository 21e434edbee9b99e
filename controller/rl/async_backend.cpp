#include "controller/rl/async_backend.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SSDTLM_CPU_RELAX() _mm_pause()
#else
#define SSDTLM_CPU_RELAX() std::this_thread::yield()
#endif

namespace ssdtlm::rl {

namespace {

enum class OpKind : uint8_t { kUpdate, kEndEpisode, kReward, kWriteRow, kSeed, kStop };

constexpr uint32_t kMaxActions = 16;  // QCoreConfig::validate

struct Op {
  OpKind kind = OpKind::kStop;
  UpdateOp update;
  uint64_t sample = 0;                     // reward
  RewardResult expect;                     // reward (cycles: every kind)
  uint32_t state = 0;                      // write_row
  std::array<int32_t, kMaxActions> row{};  // write_row
  uint32_t seed = 0;
};

class AsyncBackend final : public Backend {
 public:
  AsyncBackend(std::unique_ptr<Backend> inner, const UnitConfig& model)
      : inner_(std::move(inner)),
        cfg_(model),
        core_(model.core),
        rwd_(model.reward),
        ring_(kCapacity),
        worker_([this] { work(); }) {}

  ~AsyncBackend() override {
    Op stop;
    stop.kind = OpKind::kStop;
    push(stop);
    worker_.join();
    if (failed_.load(std::memory_order_acquire) && !reported_) {
      std::fprintf(stderr, "ssdtlm: %s\n", error_.c_str());
      std::abort();
    }
  }

  const char* kind() const override { return inner_->kind(); }
  const UnitConfig& config() const override { return inner_->config(); }

  Decision decide(uint32_t state, uint32_t mask) override {
    std::lock_guard<std::mutex> lk(drain(), std::adopt_lock);
    Decision d = inner_->decide(state, mask);
    account(d.cycles);
    return d;
  }

  uint32_t update(const UpdateOp& op) override {
    check();
    const QCoreConfig& c = cfg_.core;
    if (op.state >= c.states || op.next_state >= c.states || op.action >= c.actions ||
        (!op.next_max && op.next_action >= c.actions))
      throw std::out_of_range("rl: update index out of range");
    Op o;
    o.kind = OpKind::kUpdate;
    o.update = op;
    o.expect.cycles = op.reward_ready ? core_.update_cycles() : QCore::kSkippedUpdateCycles;
    push(o);
    return account(o.expect.cycles);
  }

  uint32_t end_episode() override {
    check();
    Op o;
    o.kind = OpKind::kEndEpisode;
    o.expect.cycles = cfg_.core.shadow ? core_.copy_cycles() + 1 : 1;
    push(o);
    return account(o.expect.cycles);
  }

  RewardResult reward(uint64_t sample) override {
    check();
    if (!cfg_.has_reward) throw std::logic_error("rl: unit " + cfg_.name + " has no reward unit");
    Op o;
    o.kind = OpKind::kReward;
    o.sample = sample;
    o.expect = rwd_.observe(sample);
    push(o);
    account(o.expect.cycles);
    return o.expect;
  }

  uint32_t write_row(uint32_t state, const int32_t* row) override {
    check();
    if (state >= cfg_.core.states) throw std::out_of_range("rl: state out of range");
    Op o;
    o.kind = OpKind::kWriteRow;
    o.state = state;
    std::copy(row, row + cfg_.core.actions, o.row.begin());
    o.expect.cycles = core_.write_row_cycles();
    push(o);
    return account(o.expect.cycles);
  }

  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) override {
    std::lock_guard<std::mutex> lk(drain(), std::adopt_lock);
    return account(inner_->read_row(state, shadow, row));
  }

  uint32_t seed(uint32_t s) override {
    check();
    Op o;
    o.kind = OpKind::kSeed;
    o.seed = s;
    o.expect.cycles = QCore::kSeedCycles;
    push(o);
    return account(o.expect.cycles);
  }

 private:
  static constexpr size_t kCapacity = 1024;  // operations in flight (a power of two)

  // Rethrows the worker's first failure on the calling thread.
  void check() {
    if (failed_.load(std::memory_order_acquire)) {
      reported_ = true;
      throw std::runtime_error(error_);
    }
  }
  // Takes the inner backend (waiting for the operation the worker is running, if any), runs the
  // queued operations the worker has not started on this thread, and returns the lock the caller
  // holds while it uses the inner backend.
  std::mutex& drain() {
    check();
    model_mu_.lock();
    const uint64_t h = head_.load(std::memory_order_relaxed);
    for (uint64_t t = tail_.load(std::memory_order_relaxed); t != h; ++t) {
      run(ring_[t % kCapacity]);
      tail_.store(t + 1, std::memory_order_release);
    }
    if (failed_.load(std::memory_order_acquire)) {
      model_mu_.unlock();
      check();
    }
    return model_mu_;
  }
  void push(const Op& o) {
    const uint64_t h = head_.load(std::memory_order_relaxed);
    for (uint32_t spin = 0; h - tail_.load(std::memory_order_acquire) >= kCapacity; ++spin) {
      if (spin < 4096)
        SSDTLM_CPU_RELAX();
      else
        std::this_thread::yield();
    }
    ring_[h % kCapacity] = o;
    head_.store(h + 1, std::memory_order_seq_cst);
    if (sleeping_.load(std::memory_order_seq_cst)) {
      std::lock_guard<std::mutex> lk(mu_);
      cv_.notify_one();
    }
  }

  void fail(const std::string& what) {
    if (failed_.load(std::memory_order_relaxed)) return;
    error_ = "rl rtl (" + cfg_.name + "): " + what;
    failed_.store(true, std::memory_order_release);
  }

  // Runs one operation on the inner backend and compares its result with the one returned.
  void run(const Op& o) {
    if (failed_.load(std::memory_order_relaxed)) return;  // the first failure is kept
    const uint64_t n = ++ran_;
    try {
      switch (o.kind) {
        case OpKind::kUpdate:
          expect_cycles("update", n, inner_->update(o.update), o.expect.cycles);
          break;
        case OpKind::kEndEpisode:
          expect_cycles("end_episode", n, inner_->end_episode(), o.expect.cycles);
          break;
        case OpKind::kWriteRow:
          expect_cycles("write_row", n, inner_->write_row(o.state, o.row.data()), o.expect.cycles);
          break;
        case OpKind::kSeed:
          expect_cycles("seed", n, inner_->seed(o.seed), o.expect.cycles);
          break;
        case OpKind::kReward: {
          const RewardResult r = inner_->reward(o.sample);
          if (r.reward != o.expect.reward || r.bin != o.expect.bin || r.cycles != o.expect.cycles ||
              r.ready != o.expect.ready)
            fail("reward of operation " + std::to_string(n) + " (sample " +
                 std::to_string(o.sample) + "): RTL reward " + std::to_string(r.reward) + " bin " +
                 std::to_string(r.bin) + " cycles " + std::to_string(r.cycles) + " ready " +
                 std::to_string(r.ready) + ", C++ model " + std::to_string(o.expect.reward) + " " +
                 std::to_string(o.expect.bin) + " " + std::to_string(o.expect.cycles) + " " +
                 std::to_string(o.expect.ready));
          break;
        }
        case OpKind::kStop:
          break;
      }
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
  void expect_cycles(const char* what, uint64_t n, uint32_t got, uint32_t want) {
    if (got != want)
      fail(std::string(what) + " of operation " + std::to_string(n) + ": RTL " +
           std::to_string(got) + " cycles, C++ model " + std::to_string(want));
  }

  // The worker: one queued operation at a time, under the model lock (the caller takes the lock
  // and the rest of the queue in drain()).
  void work() {
    while (true) {
      uint64_t t = tail_.load(std::memory_order_acquire);
      if (head_.load(std::memory_order_acquire) == t) wait_for(t);
      std::lock_guard<std::mutex> lk(model_mu_);
      t = tail_.load(std::memory_order_relaxed);
      if (head_.load(std::memory_order_acquire) == t) continue;  // the caller ran it
      const Op& o = ring_[t % kCapacity];
      if (o.kind == OpKind::kStop) return;
      run(o);
      tail_.store(t + 1, std::memory_order_release);
    }
  }
  // Spins for a while (operations come in bursts), then sleeps until a push (or a take-over: the
  // tail moved).
  void wait_for(uint64_t t) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
    for (uint32_t spin = 0; head_.load(std::memory_order_acquire) == t; ++spin) {
      SSDTLM_CPU_RELAX();
      if ((spin & 255) == 255 && std::chrono::steady_clock::now() > until) break;
    }
    if (head_.load(std::memory_order_acquire) != t) return;
    std::unique_lock<std::mutex> lk(mu_);
    sleeping_.store(true, std::memory_order_seq_cst);
    cv_.wait(lk, [&] {
      return head_.load(std::memory_order_seq_cst) != tail_.load(std::memory_order_seq_cst);
    });
    sleeping_.store(false, std::memory_order_relaxed);
  }

  std::unique_ptr<Backend> inner_;
  UnitConfig cfg_;
  QCore core_;  // cycle formulas only
  PercentileReward rwd_;
  std::vector<Op> ring_;
  std::atomic<uint64_t> head_{0}, tail_{0};
  std::atomic<bool> sleeping_{false}, failed_{false};
  std::mutex mu_;        // the worker's sleep
  std::mutex model_mu_;  // the inner backend's user: the worker or the caller (drain)
  std::condition_variable cv_;
  std::string error_;  // written by the worker before failed_ is set
  uint64_t ran_ = 0;   // worker: operations run
  bool reported_ = false;
  std::thread worker_;  // last: starts after the members it uses
};

}  // namespace

std::unique_ptr<Backend> make_async_backend(std::unique_ptr<Backend> inner,
                                            const UnitConfig& model) {
  return std::make_unique<AsyncBackend>(std::move(inner), model);
}

}  // namespace ssdtlm::rl
