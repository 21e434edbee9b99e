// A backend that runs another one (the Verilated RTL, rtl_backend.h) on a worker thread, so that
// the co-simulation's clock edges overlap with the SSD model (issue 16: the RTL backend's replay
// wall). Results stay the inner backend's:
//  * decide and read_row wait until the worker has run every operation before them, then run on
//    the inner backend: the action and the row are the RTL's;
//  * update, end_episode, write_row and seed return at once with their cycles from the C++
//    model's cycle formulas (QCore: they depend on the operation alone), and reward with the
//    C++ golden model's result (PercentileReward, stepped here in the same order); the worker
//    runs each on the inner backend and compares its result (cycles, reward, bin, ready flag)
//    with the one returned. A mismatch, or an exception of the inner backend, is rethrown by the
//    next call on the calling thread, and stops the process (std::abort, after a message on
//    stderr) if no call follows before destruction.
// The inner backend is used by one thread at a time: the worker, or the caller while the queue
// is empty. The worker spins briefly when the queue is empty, then sleeps until the next push.
#pragma once

#include <memory>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

// `inner` runs the operations; `model` configures the C++ model that predicts the results the
// caller gets at once (normally inner's own configuration).
std::unique_ptr<Backend> make_async_backend(std::unique_ptr<Backend> inner,
                                            const UnitConfig& model);

}  // namespace ssdtlm::rl
