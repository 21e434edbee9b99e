// The host's submission contexts (HostOptions::contexts): each context (a fio thread) issues
// into its own NVMe queue pair (context k: queue k mod host.queues, host.queue_depth entries) when
// the workload says it may, so one context's requests never wait behind another's for a queue
// entry. The host is the timing shell: it asks the workload at the times it names (kWake) and
// after each completion of the context; the workload decides (traces/workload.h).
#include <algorithm>

#include "models/host_interface.h"

namespace ssdtlm::models {

using Poll = traces::ContextWorkload::Poll;

void HostInterface::ctx_start() {
  const uint32_t n = wl_->contexts();
  const uint32_t queues = std::max<uint32_t>(cfg_.host_queues, 1);
  q_out_.assign(queues, 0);
  q_wait_.assign(queues, {});
  ctx_armed_.assign(n, ~Tick(0));
  // The drive's counters start at once, or when the workload's ramp ends.
  const Tick from = wl_->measure_from_ps();
  if (from > 0)
    q_.schedule(from, Ev{kMeasure, nullptr});
  else
    start_measuring();
  for (uint32_t k = 0; k < n; ++k) ctx_poll(k);
}

// Asks context k (and then those it released) for requests until it has none for now.
void HostInterface::ctx_poll(uint32_t k) {
  const Tick now = now_ps();
  const uint32_t queues = static_cast<uint32_t>(q_out_.size());
  uint32_t ctx = k;
  for (;;) {
    traces::TraceRecord r;
    uint64_t at = 0;
    for (;;) {
      const Poll p = wl_->next(ctx, now, r, at);
      if (p == Poll::Issue) {
        HostCmd* c = new_cmd(r, now);
        c->ctx = ctx;
        account_occupancy();
        const uint32_t q = wl_->queue(ctx, queues);
        q_wait_[q].push_back(c);
        ++ctx_waiting_;
        ctx_submit(q);
        continue;
      }
      if (p == Poll::Wait && at < ctx_armed_[ctx]) {
        ctx_armed_[ctx] = at;
        q_.schedule(at, Ev{kWake, nullptr, ctx});
      }
      break;
    }
    if (!wl_->woken(ctx)) break;
  }
  if (wl_->finished()) trace_done();
}

// The commands of queue q that find an entry go to the drive, in their order.
void HostInterface::ctx_submit(uint32_t q) {
  const uint32_t depth = std::max<uint32_t>(cfg_.host_queue_depth, 1);
  while (q_out_[q] < depth && !q_wait_[q].empty()) {
    HostCmd* c = q_wait_[q].front();
    account_occupancy();
    q_wait_[q].pop_front();
    --ctx_waiting_;
    ++q_out_[q];
    ++outstanding_;
    max_outstanding_ = std::max(max_outstanding_, outstanding_);
    send(c, now_ps());
  }
  max_backlog_ = std::max(max_backlog_, ctx_waiting_);
}

void HostInterface::ctx_complete(HostCmd* c) {
  const Tick now = now_ps();
  account_occupancy();
  --outstanding_;
  const uint32_t k = c->ctx;
  const uint32_t q = wl_->queue(k, static_cast<uint32_t>(q_out_.size()));
  --q_out_[q];
  traces::TraceRecord r;
  r.offset = c->offset;
  r.size = c->size;
  r.is_read = c->is_read;
  c->warmup = !wl_->completed(k, r, c->arrival, c->sent, now);
  record(c, now);  // (frees c)
  if (on_completion) on_completion(now);
  ctx_submit(q);
  ctx_poll(k);
}

}  // namespace ssdtlm::models
