#include "testbench/operating_point.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ssdtlm::tb {
namespace {

using nlohmann::json;

std::string pct(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * f);
  return buf;
}

// "a, b, c" of the first `limit` names, then "and N more".
std::string name_list(const std::vector<std::string>& names, size_t limit = 8) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < limit; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > limit) s += " and " + std::to_string(names.size() - limit) + " more";
  return s;
}

// Busy fractions of a set of resources of one kind (dies, channels): mean, max, each, and the
// names of those above the limit.
struct Busy {
  std::vector<double> each;
  double sum = 0, max = 0;
  size_t busiest = 0;
  void add(double f) {
    if (each.empty() || f > max) busiest = each.size();
    each.push_back(f);
    sum += f;
    max = std::max(max, f);
  }
  double mean() const { return each.empty() ? 0.0 : sum / each.size(); }
  json to_json(const char* each_key) const {
    return {{"mean", mean()}, {"max", max}, {each_key, each}};
  }
};

// Collects the saturated resources: their ids (saturated_resources) and one reason each kind.
struct Verdict {
  json ids = json::array();
  json reasons = json::array();
  void add(const std::string& id) { ids.push_back(id); }
  void reason(const std::string& r) { reasons.push_back(r); }
};

std::string die_name(size_t i, size_t per_channel) {
  return "die " + std::to_string(i) + " (channel " + std::to_string(i / per_channel) + ", die " +
         std::to_string(i % per_channel) + ")";
}

void judge_flash(const Busy& dies, const Busy& chans, size_t dies_per_channel, Verdict& v) {
  std::vector<std::string> names;
  for (size_t i = 0; i < chans.each.size(); ++i)
    if (chans.each[i] > kBusyLimit) {
      v.add("channel " + std::to_string(i));
      names.push_back("channel " + std::to_string(i) + " " + pct(chans.each[i]));
    }
  if (!names.empty()) v.reason("channel utilisation above 90%: " + name_list(names));
  size_t n = 0;
  for (size_t i = 0; i < dies.each.size(); ++i)
    if (dies.each[i] > kBusyLimit) {
      v.add("die " + std::to_string(i));
      ++n;
    }
  if (n == 1)
    v.reason("die utilisation above 90%: " + die_name(dies.busiest, dies_per_channel) + " " +
             pct(dies.max));
  if (n > 1)
    v.reason("die utilisation above 90%: " + std::to_string(n) + " of " +
             std::to_string(dies.each.size()) + " dies, the busiest " +
             die_name(dies.busiest, dies_per_channel) + " " + pct(dies.max));
}

// The host queue: commands waiting for a submission-queue entry against commands inside the
// device, both as time integrals over the span (by Little's law, their ratio is the total wait
// for an entry over the total time in the device).
json host_queue(const models::HostInterface& h, Tick end, Tick span, Verdict& v) {
  const double inside = h.occupancy_area(end), waiting = h.backlog_area(end);
  const double ratio = inside > 0 ? waiting / inside : 0.0;
  if (ratio > kHostQueueLimit) {
    v.add("host_queue");
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "host queue: commands wait %.2fx their time in the device for a "
                  "submission-queue entry (above 1x; %llu entries)",
                  ratio, (unsigned long long)h.capacity());
    v.reason(buf);
  }
  return {{"capacity", h.capacity()},
          {"mean_outstanding", span ? inside / span : 0.0},
          {"max_outstanding", h.max_outstanding()},
          {"mean_waiting_for_entry", span ? waiting / span : 0.0},
          {"max_waiting_for_entry", h.max_backlog()},
          {"wait_over_service", ratio}};
}

// Flash operations: wait at the die (submit -> dispatch) against service (dispatch ->
// completion), all of them and the host path's only.
json flash_queue(const models::Ssd& ssd, Verdict& v) {
  uint64_t ops = 0, host_ops = 0;
  double wait = 0, service = 0, host_wait = 0, host_service = 0;
  for (const auto& ch : ssd.channels) {
    ops += ch->ops_done();
    wait += double(ch->wait_sum());
    service += double(ch->service_sum());
    host_ops += ch->host_ops();
    host_wait += double(ch->host_wait_sum());
    host_service += double(ch->host_service_sum());
  }
  const double host_ratio = host_service > 0 ? host_wait / host_service : 0.0;
  if (host_ratio > kFlashWaitLimit) {
    v.add("flash_queue");
    v.reason("host flash operations wait above 10x service time (" +
             std::to_string(static_cast<int>(host_ratio)) + "x)");
  }
  return {{"ops", ops},
          {"mean_wait_us", ops ? wait / ops / 1e6 : 0.0},
          {"mean_service_us", ops ? service / ops / 1e6 : 0.0},
          {"wait_over_service", service > 0 ? wait / service : 0.0},
          {"host_ops", host_ops},
          {"host_mean_wait_us", host_ops ? host_wait / host_ops / 1e6 : 0.0},
          {"host_mean_service_us", host_ops ? host_service / host_ops / 1e6 : 0.0},
          {"host_wait_over_service", host_ratio}};
}

// PCIe (the busier direction), the controller's firmware and the DRAM.
void judge_shared(const SsdConfig& cfg, double pcie, bool d2h, double ctrl, double dram,
                  Verdict& v) {
  char buf[240];
  if (pcie > kBusyLimit) {
    v.add("pcie");
    std::snprintf(buf, sizeof buf, "PCIe utilisation above 90%%: %s %s (host.pcie_mb_s %g)",
                  d2h ? "device-to-host" : "host-to-device", pct(pcie).c_str(), cfg.host_pcie_mb_s);
    v.reason(buf);
  }
  if (ctrl > kBusyLimit) {
    v.add("controller");
    std::snprintf(buf, sizeof buf,
                  "controller utilisation above 90%%: firmware time %s of the span (one core; "
                  "controller.cmd_cycles %u, page_cycles %u at %g MHz)",
                  pct(ctrl).c_str(), cfg.ctrl_cmd_cycles, cfg.ctrl_page_cycles, cfg.ctrl_clock_mhz);
    v.reason(buf);
  }
  if (dram > kBusyLimit) {
    v.add("dram");
    std::snprintf(buf, sizeof buf, "DRAM utilisation above 90%%: %s (dram.bandwidth_mb_s %g)",
                  pct(dram).c_str(), cfg.dram_bandwidth_mb_s);
    v.reason(buf);
  }
}

}  // namespace

json operating_point(const SsdConfig& cfg, models::Ssd& ssd, Tick end, Tick span) {
  const auto frac = [span](double busy) { return span ? busy / double(span) : 0.0; };
  Busy dies, chans;
  for (const auto& ch : ssd.channels) {
    for (uint32_t d = 0; d < ch->die_busy().size(); ++d)
      dies.add(frac(double(ch->die_busy_until(d, end))));
    chans.add(frac(double(ch->bus_busy_until(end))));
  }
  const size_t per_channel = ssd.channels.empty() ? 1 : ssd.channels[0]->die_busy().size();
  const auto& h = ssd.host;
  const double h2d = frac(double(h.pcie_h2d_busy())), d2h = frac(double(h.pcie_d2h_busy()));
  const double ctrl = frac(double(ssd.ctrl.core().counters().firmware_ps));
  const double dram = frac(double(ssd.dram.busy()));
  Verdict v;
  json hq = host_queue(h, end, span, v);
  judge_shared(cfg, std::max(h2d, d2h), d2h > h2d, ctrl, dram, v);
  judge_flash(dies, chans, per_channel, v);
  json fq = flash_queue(ssd, v);
  return {{"host_queue", hq},
          {"pcie_utilisation", std::max(h2d, d2h)},
          {"controller_utilisation", ctrl},
          {"dram_utilisation", dram},
          {"channel_utilisation", chans.to_json("per_channel")},
          {"busiest_channel", chans.busiest},
          {"die_utilisation", dies.to_json("per_die")},
          {"busiest_die", dies.busiest},
          {"flash_queue", fq},
          {"saturated", !v.ids.empty()},
          {"saturated_resources", v.ids},
          {"saturation_reasons", v.reasons}};
}

std::string operating_point_text(const json& op) {
  char buf[512];
  const json& hq = op["host_queue"];
  const json& ch = op["channel_utilisation"];
  const json& die = op["die_utilisation"];
  std::snprintf(
      buf, sizeof buf,
      "operating point: host queue wait %.2fx service, PCIe %.1f%%, controller %.1f%%, "
      "DRAM %.1f%%  %s\n"
      "  flash: channels %.1f%% (busiest: channel %d), dies %.1f%% (busiest: die %d), "
      "wait %.2fx service\n",
      hq.value("wait_over_service", 0.0), 100 * op.value("pcie_utilisation", 0.0),
      100 * op.value("controller_utilisation", 0.0), 100 * op.value("dram_utilisation", 0.0),
      op.value("saturated", false) ? "SATURATED" : "unsaturated", 100 * ch.value("max", 0.0),
      op.value("busiest_channel", 0), 100 * die.value("max", 0.0), op.value("busiest_die", 0),
      op["flash_queue"].value("wait_over_service", 0.0));
  std::string s = buf;
  for (const auto& r : op["saturation_reasons"]) s += "  saturated: " + r.get<std::string>() + "\n";
  return s;
}

}  // namespace ssdtlm::tb
