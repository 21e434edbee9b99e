// How the RTL backends clock a Verilated model (internal to controller/rl/rtl_*.cpp): only inside
// an operation (never free-running), one rising edge per controller cycle, the request applied
// with the accepting edge's falling half; and, for a traced model, its VCD stamped with simulated
// time (rtl_backend.h RtlTrace). Library ssdtlm_rl_cosim.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "controller/rl/rtl_backend.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace ssdtlm::rl::rtl {

constexpr uint32_t kMaxEdges = 1u << 20;  // watchdog per operation

// Packs `value` into bits [lsb, lsb + width) of a narrow (integral) or wide (VlWide) port.
template <typename T>
void put_bits(T& port, unsigned lsb, unsigned width, uint64_t value) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t m = (width == 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
    port = static_cast<T>((static_cast<uint64_t>(port) & ~m) | ((value << lsb) & m));
  } else {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lsb + i;
      const uint32_t bit = static_cast<uint32_t>((value >> i) & 1u);
      port[b / 32] = (port[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
    }
  }
}

// The clock and waveform of one unit's Verilated models (they share one VerilatedContext: time,
// and one VCD). Traced: the models were Verilated with --trace and `trace` selects the unit.
template <bool Traced>
class Sim {
 public:
  explicit Sim(std::shared_ptr<RtlTrace> trace) : trace_(std::move(trace)) {
    ctx_ = std::make_unique<VerilatedContext>();
    if (Traced) ctx_->traceEverOn(true);  // before a model is built
  }
  ~Sim() { close(); }
  // Closes the VCD: after the models' final(), before they are destroyed.
  void close() {
    if constexpr (Traced) {
      if (vcd_) vcd_->close();
      vcd_.reset();
    }
  }
  VerilatedContext* context() { return ctx_.get(); }

  // Asynchronous reset (a falling edge of rst_ni); `after_reset` runs while the model is held
  // out of reset before its first edge (configuration writes: each clocks the model); then the
  // model clears its RAMs, one word per edge (not an operation).
  template <typename M, typename F>
  void reset(M& m, F&& after_reset) {
    m.clk_i = 0;
    m.rst_ni = 1;
    m.eval();
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
    after_reset();
    uint32_t n = 0;
    while (!m.idle_o) {
      edge(m);
      if (++n > kMaxEdges) throw std::runtime_error("rl rtl: reset clear did not finish");
    }
  }
  template <typename M>
  void reset(M& m) {
    reset(m, [] {});
  }
  // One rising clock edge: the clock's falling half, then its rising half. Untraced, the
  // falling half is not evaluated: the model is settled after the previous rising half (its
  // always_ff blocks are all posedge clk_i, nothing depends on the clock's level), so only
  // Verilator's edge detector has to see the clock low, which is its previous-value variable
  // (Verilator 5.006 names it __Vtrigrprev__TOP__clk_i; a Verilator that renames it fails to
  // compile here). One eval() per edge instead of two; the RTL still computes every edge.
  template <typename M>
  void edge(M& m) {
    if constexpr (Traced) {
      fall(m);
    } else {
      m.clk_i = 0;
      m.rootp->__Vtrigrprev__TOP__clk_i = 0;
    }
    rise(m);
  }
  template <typename M>
  void fall(M& m) {
    m.clk_i = 0;
    m.eval();
    if constexpr (Traced) dump(0);
  }
  template <typename M>
  void rise(M& m) {
    m.clk_i = 1;
    m.eval();
    if constexpr (Traced) dump(1);
    ctx_->timeInc(1);
  }
  // Opens the unit's VCD on models already built (Traced only).
  template <typename... Ms>
  void open_trace(const std::string& unit, Ms*... models) {
    if constexpr (Traced) {
      const std::string file = trace_->file_for(unit);
      vcd_ = std::make_unique<VerilatedVcdC>();
      (..., (models ? models->trace(vcd_.get(), 99) : void()));
      vcd_->open(file.c_str());
      if (!vcd_->isOpen()) throw std::runtime_error("rl rtl: cannot write the VCD file " + file);
      trace_->files.push_back(file);
    }
  }
  // Raise `valid` for the accepting edge, then clock until the model is idle again. The request
  // is applied with the accepting edge's falling half (one eval() settles both; the outputs
  // checked there are combinational, independent of the clock level). on_edge() runs after
  // every edge. Returns the edges.
  template <typename M, typename V, typename Rd, typename F>
  uint32_t run(M& m, V& valid, const Rd& ready, F&& on_edge) {
    begin_op();
    valid = 1;
    fall(m);
    if (!ready || !m.idle_o) throw std::runtime_error("rl rtl: unit not ready for a new operation");
    rise(m);
    valid = 0;
    uint32_t n = 1;
    on_edge();
    while (!m.idle_o) {
      edge(m);
      on_edge();
      if (++n > kMaxEdges) throw std::runtime_error("rl rtl: operation did not finish");
    }
    return n;
  }

 private:
  // Called at the start of an operation: its simulated time, and whether it is in the window.
  void begin_op() {
    if constexpr (Traced) {
      op_ps_ = trace_->now_ps ? trace_->now_ps() : 0;
      op_edge_ = 0;
      in_window_ = op_ps_ >= trace_->start_ps && op_ps_ < trace_->end_ps;
    }
  }
  // Dumps after the falling (phase 0) or rising (phase 1) clock transition of an edge.
  void dump(int phase) {
    if (!in_window_ || !vcd_) return;
    const uint64_t half = std::max<uint64_t>(1, trace_->cycle_ps / 2);
    uint64_t t = op_ps_ + op_edge_ * 2 * half + (phase ? half : 0);
    if (dumped_ && t <= last_ps_) t = last_ps_ + 1;  // several operations at one simulated time
    vcd_->dump(t);
    last_ps_ = t;
    dumped_ = true;
    if (phase) ++op_edge_;
  }

  std::shared_ptr<RtlTrace> trace_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t op_ps_ = 0, op_edge_ = 0, last_ps_ = 0;
  bool in_window_ = false, dumped_ = false;
};

}  // namespace ssdtlm::rl::rtl
