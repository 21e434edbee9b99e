#include "controller/mqsim/rules.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "controller/config.h"
#include "controller/suggest.h"

namespace ssdtlm::mqsim {
namespace {

using nlohmann::json;

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// The parameters of one file, their typed values and their classification.
class Ctx {
 public:
  Ctx(const std::vector<Param>& params, const std::string& source, Mapping& m)
      : src_(source), m_(m) {
    for (const Param& p : params) {
      auto [it, fresh] = by_name_.emplace(p.name, p);
      if (!fresh)
        throw ConfigError(source + ":" + std::to_string(p.line) + ": parameter " + p.name +
                          " given twice (first on line " + std::to_string(it->second.line) + ")");
      order_.push_back(p.name);
    }
  }

  bool has(const std::string& n) const { return by_name_.count(n) > 0; }
  // A value refused by a rule (n must be in the file).
  [[noreturn]] void fail(const std::string& n, const std::string& what) const {
    bad(*find(n), what);
  }

  uint64_t uint(const std::string& n, uint64_t def) const {
    const Param* p = find(n);
    if (!p) return def;
    const std::string& v = p->value;
    if (v.empty() || v.size() > 19 ||
        !std::all_of(v.begin(), v.end(), [](char ch) { return std::isdigit(ch) != 0; }))
      bad(*p, "expected an unsigned integer");
    return std::stoull(v);
  }

  double real(const std::string& n, double def) const {
    const Param* p = find(n);
    if (!p) return def;
    const char* b = p->value.c_str();
    char* e = nullptr;
    const double d = std::strtod(b, &e);
    if (p->value.empty() || *e != '\0' || !std::isfinite(d) || std::isspace(*b))
      bad(*p, "expected a number");
    return d;
  }

  bool flag(const std::string& n, bool def) const {
    const Param* p = find(n);
    if (!p) return def;
    const std::string v = upper(p->value);
    if (v != "TRUE" && v != "FALSE") bad(*p, "expected true or false");
    return v == "TRUE";
  }

  std::string choice(const std::string& n, const std::vector<std::string>& allowed,
                     const std::string& def) const {
    const Param* p = find(n);
    if (!p) return def;
    if (std::find(allowed.begin(), allowed.end(), p->value) != allowed.end()) return p->value;
    std::string alts;
    for (const auto& a : allowed) alts += (alts.empty() ? "" : "|") + a;
    bad(*p, "expected one of " + alts);
  }

  // Sets `key` when any of `from` is in the file; `from` names what it is computed from.
  void set(const std::string& key, json value, const std::vector<std::string>& from) {
    Set s{key, std::move(value), {}, 0};
    for (const std::string& n : from)
      if (const Param* p = find(n)) {
        if (s.from.empty()) s.line = p->line;
        s.from.push_back(n);
        done_.insert(n);
      }
    if (!s.from.empty()) m_.sets.push_back(std::move(s));
  }
  void same(const std::string& n, const std::string& reason) { note(m_.equivalent, n, reason); }
  void unmapped(const std::string& n, const std::string& reason) { note(m_.unmapped, n, reason); }

  // Parameters no rule took are not read by MQSim: an error naming each (file, line and the
  // closest MQSim name), as a misspelt configuration key is.
  void finish() {
    std::string err;
    for (const std::string& n : order_)
      if (!done_.count(n))
        err += (err.empty() ? "" : "\n") + src_ + ":" + std::to_string(find(n)->line) + ": " + n +
               ": not a parameter MQSim reads" + did_you_mean(n, known_parameters());
    if (!err.empty()) throw ConfigError(err);
  }

 private:
  std::string src_;
  Mapping& m_;
  std::map<std::string, Param> by_name_;
  std::vector<std::string> order_;
  std::set<std::string> done_;

  const Param* find(const std::string& n) const {
    auto it = by_name_.find(n);
    return it == by_name_.end() ? nullptr : &it->second;
  }
  [[noreturn]] void bad(const Param& p, const std::string& what) const {
    throw ConfigError(src_ + ":" + std::to_string(p.line) + ": " + p.name + ": " + what +
                      ", got '" + p.value + "'");
  }
  void note(std::vector<Note>& to, const std::string& n, const std::string& reason) {
    const Param* p = find(n);
    if (!p) return;
    // A parameter partly mapped by set() may also carry a note (e.g. PRIORITY_OUT_OF_ORDER).
    done_.insert(n);
    to.push_back(Note{n, p->value, reason});
  }
};

void host_rules(Ctx& c) {
  c.set("host.pcie_mb_s",
        c.real("PCIe_Lane_Bandwidth", 0.4) * 1000.0 * double(c.uint("PCIe_Lane_Count", 4)),
        {"PCIe_Lane_Bandwidth", "PCIe_Lane_Count"});
  if (c.choice("HostInterface_Type", {"NVME", "SATA"}, "NVME") == "SATA") {
    c.unmapped("HostInterface_Type", "ssdtlm models an NVMe host interface");
    c.unmapped("SATA_Processing_Delay", "the SATA host interface is not modelled");
  } else {
    c.same("HostInterface_Type", "ssdtlm's host interface is NVMe (host.*)");
    c.same("SATA_Processing_Delay", "no effect with HostInterface_Type NVME");
  }
  const char* log_keys[] = {"Enable_ResponseTime_Logging", "ResponseTime_Logging_Period_Length"};
  const bool logging = c.flag("Enable_ResponseTime_Logging", false);
  c.uint("ResponseTime_Logging_Period_Length", 0);  // (checked even when it has no effect)
  for (const char* k : log_keys) {
    if (logging)
      c.unmapped(k,
                 "MQSim's response-time log; ssdtlm: run --csv (a sample every "
                 "sim.sample_interval_ms)");
    else
      c.same(k, "no effect with Enable_ResponseTime_Logging false");
  }
}

void cache_rules(Ctx& c) {
  if (c.choice("Caching_Mechanism", {"SIMPLE", "ADVANCED"}, "ADVANCED") == "ADVANCED")
    c.same("Caching_Mechanism", "ssdtlm's DRAM data cache (cache.*): write-back, with read hits");
  else
    c.unmapped("Caching_Mechanism",
               "MQSim's simple write buffer is not modelled (ssdtlm's data cache is write-back "
               "with read hits)");
  if (c.choice("Data_Cache_Sharing_Mode", {"SHARED", "EQUAL_PARTITIONING"}, "SHARED") == "SHARED")
    c.same("Data_Cache_Sharing_Mode", "one data cache shared by all queues");
  else
    c.unmapped("Data_Cache_Sharing_Mode", "per-flow cache partitions are not modelled");
  c.set("cache.size_mib", double(c.uint("Data_Cache_Capacity", 512u << 20)) / (1024.0 * 1024.0),
        {"Data_Cache_Capacity"});
  // MQSim's DRAM access (Data_Cache_Manager_Base::estimate_dram_access_time): tRCD + tCL, then
  // size / burst / 2 transfer times of 1/rate each, i.e. 2 x rate x burst bytes per us.
  c.set("dram.bandwidth_mb_s",
        2.0 * double(c.uint("Data_Cache_DRAM_Data_Rate", 800)) *
            double(c.uint("Data_Cache_DRAM_Data_Busrt_Size", 4)),
        {"Data_Cache_DRAM_Data_Rate", "Data_Cache_DRAM_Data_Busrt_Size"});
  c.set("dram.latency_ns",
        double(c.uint("Data_Cache_DRAM_tRCD", 13) + c.uint("Data_Cache_DRAM_tCL", 13)),
        {"Data_Cache_DRAM_tRCD", "Data_Cache_DRAM_tCL"});
  c.uint("Data_Cache_DRAM_tRP", 0);
  c.uint("Data_Cache_DRAM_Row_Size", 0);
  for (const char* k : {"Data_Cache_DRAM_tRP", "Data_Cache_DRAM_Row_Size"})
    c.unmapped(k, "ssdtlm's DRAM is one latency and one bandwidth (no rows)");
}

void mapping_rules(Ctx& c) {
  if (c.choice("Address_Mapping", {"PAGE_LEVEL", "HYBRID"}, "PAGE_LEVEL") == "PAGE_LEVEL")
    c.same("Address_Mapping", "ssdtlm's FTL maps pages");
  else
    c.unmapped("Address_Mapping", "hybrid (block/page) address mapping is not modelled");
  c.uint("CMT_Capacity", 0);
  c.choice("CMT_Sharing_Mode", {"SHARED", "EQUAL_PARTITIONING"}, "SHARED");
  if (c.flag("Ideal_Mapping_Table", false)) {
    c.same("Ideal_Mapping_Table", "ssdtlm keeps the whole mapping table in DRAM");
    for (const char* k : {"CMT_Capacity", "CMT_Sharing_Mode"})
      c.same(k, "no effect with Ideal_Mapping_Table true");
  } else {
    c.unmapped("Ideal_Mapping_Table",
               "MQSim caches part of the mapping table (CMT) and reads the rest from flash; "
               "ssdtlm keeps the whole table in DRAM");
    for (const char* k : {"CMT_Capacity", "CMT_Sharing_Mode"})
      c.unmapped(k, "the cached mapping table is not modelled");
  }
  std::vector<std::string> schemes;
  std::string letters = "CDPW";
  do schemes.push_back(letters);
  while (std::next_permutation(letters.begin(), letters.end()));
  c.choice("Plane_Allocation_Scheme", schemes, "CWDP");
  c.unmapped("Plane_Allocation_Scheme",
             "no ssdtlm key for the page-mapped controller's plane allocation (slc.allocation "
             "static is CWDP on hybrid presets)");
}

void device_rules(Ctx& c) {
  c.set("sim.seed", c.uint("Seed", 123), {"Seed"});
  if (c.flag("Enabled_Preconditioning", true))
    c.unmapped("Enabled_Preconditioning",
               "MQSim preconditions from the workload's statistics; ssdtlm: run --precondition, "
               "--warmup");
  else
    c.same("Enabled_Preconditioning", "ssdtlm starts from an empty drive unless --precondition");
  c.choice("Memory_Type", {"FLASH"}, "FLASH");
  c.same("Memory_Type", "NAND flash");
  c.set("host.queue_depth", c.uint("IO_Queue_Depth", 1024), {"IO_Queue_Depth"});
  c.uint("Queue_Fetch_Size", 0);
  c.unmapped("Queue_Fetch_Size", "no ssdtlm key for the commands fetched from a queue at once");
  cache_rules(c);
  mapping_rules(c);
}

void gc_rules(Ctx& c) {
  const std::string sched =
      c.choice("Transaction_Scheduling_Policy", {"OUT_OF_ORDER", "PRIORITY_OUT_OF_ORDER", "FLIN"},
               "OUT_OF_ORDER");
  if (sched != "FLIN") c.set("controller.read_priority", true, {"Transaction_Scheduling_Policy"});
  if (sched == "PRIORITY_OUT_OF_ORDER")
    c.unmapped("Transaction_Scheduling_Policy",
               "reads before writes is mapped (controller.read_priority); the NVMe queue "
               "priority classes are not modelled");
  if (sched == "FLIN")
    c.unmapped("Transaction_Scheduling_Policy", "FLIN's fairness scheduling is not modelled");
  c.set("ftl.overprovisioning", c.real("Overprovisioning_Ratio", 0.07), {"Overprovisioning_Ratio"});
  c.set("ftl.gc_threshold", c.real("GC_Exec_Threshold", 0.05), {"GC_Exec_Threshold"});
  const std::string victim =
      c.choice("GC_Block_Selection_Policy",
               {"GREEDY", "RGA", "RANDOM", "RANDOM_P", "RANDOM_PP", "FIFO"}, "RGA");
  if (victim == "GREEDY")
    c.set("gc.policy", "greedy", {"GC_Block_Selection_Policy"});
  else
    c.unmapped("GC_Block_Selection_Policy",
               "victim selection " + victim +
                   " is not modelled (gc.policy greedy takes the block with the fewest valid "
                   "pages)");
  c.set("ftl.gc_copyback", c.flag("Use_Copyback_for_GC", false), {"Use_Copyback_for_GC"});
  c.real("GC_Hard_Threshold", 0);
  if (c.flag("Preemptible_GC_Enabled", true)) {
    c.unmapped("Preemptible_GC_Enabled", "preemptible GC is not modelled (docs/gc.md)");
    c.unmapped("GC_Hard_Threshold", "threshold of preemptible GC, not modelled");
  } else {
    c.same("Preemptible_GC_Enabled", "GC jobs run to completion");
    c.same("GC_Hard_Threshold", "no effect with Preemptible_GC_Enabled false");
  }
  if (c.flag("Dynamic_Wearleveling_Enabled", true))
    c.unmapped("Dynamic_Wearleveling_Enabled",
               "wear-aware allocation of free blocks is not "
               "modelled");
  else
    c.same("Dynamic_Wearleveling_Enabled", "ssdtlm allocates free blocks without regard to wear");
  // MQSim moves data when max - min erase count >= T; ssdtlm when it exceeds ftl.wl_threshold.
  const uint64_t t = c.uint("Static_Wearleveling_Threshold", 100);
  if (!c.flag("Static_Wearleveling_Enabled", true)) {
    c.set("ftl.wl_threshold", 0, {"Static_Wearleveling_Enabled"});
    c.same("Static_Wearleveling_Threshold", "no effect with Static_Wearleveling_Enabled false");
  } else if (t >= 2) {
    c.set("ftl.wl_threshold", t - 1,
          {"Static_Wearleveling_Enabled", "Static_Wearleveling_Threshold"});
  } else {
    for (const char* k : {"Static_Wearleveling_Enabled", "Static_Wearleveling_Threshold"})
      c.unmapped(k, "a threshold below 2 has no ssdtlm equivalent (ftl.wl_threshold 0 is off)");
  }
}

void suspension_rules(Ctx& c) {
  const char* times[] = {
      "Suspend_Erase_Time", "Suspend_Program_Time", "Prefered_suspend_erase_time_for_read",
      "Preferred_suspend_erase_time_for_write", "Preferred_suspend_write_time_for_read"};
  for (const char* k : times) c.uint(k, 0);
  const bool none = c.choice("CMD_Suspension_Support",
                             {"NONE", "ERASE", "PROGRAM", "PROGRAM_ERASE"}, "ERASE") == "NONE";
  if (none)
    c.same("CMD_Suspension_Support", "ssdtlm does not suspend programs or erases");
  else
    c.unmapped("CMD_Suspension_Support", "program/erase suspension is not modelled");
  for (const char* k : times) {
    if (none)
      c.same(k, "no effect with CMD_Suspension_Support NONE");
    else
      c.unmapped(k, "program/erase suspension is not modelled");
  }
  // The stock ssdconfig.xml spells it so; MQSim reads "Prefered_..." and ignores this one.
  c.uint("Preferred_suspend_erase_time_for_read", 0);
  c.unmapped("Preferred_suspend_erase_time_for_read",
             "MQSim ignores this spelling (it reads Prefered_suspend_erase_time_for_read); "
             "program/erase suspension is not modelled");
}

// Page-type parameter suffixes per technology, LSB first (MQSim's order of page types).
std::vector<std::string> used_types(const std::string& tech) {
  if (tech == "SLC") return {"LSB"};
  if (tech == "MLC") return {"LSB", "MSB"};
  return {"LSB", "CSB", "MSB"};
}

void timing_rules(Ctx& c) {
  const std::string tech = c.choice("Flash_Technology", {"SLC", "MLC", "TLC"}, "MLC");
  const std::vector<std::string> used = used_types(tech);
  c.set("nand.cell", tech, {"Flash_Technology"});
  for (const char* op : {"Read", "Program"}) {
    const std::string prefix = std::string("Page_") + op + "_Latency_";
    json us = json::array();
    std::vector<std::string> from{"Flash_Technology"};
    for (const std::string& t : used) {
      us.push_back(double(c.uint(prefix + t, op[0] == 'R' ? 75000 : 750000)) / 1000.0);
      from.push_back(prefix + t);
    }
    // MQSim programs one page at a time, each with its page type's latency.
    if (op[0] == 'P') c.set("nand.program_mode", "per_page", from);
    c.set(op[0] == 'R' ? "nand.read_us" : "nand.program_us", us, from);
    for (const char* t : {"LSB", "CSB", "MSB"})
      if (std::find(used.begin(), used.end(), t) == used.end()) {
        c.uint(prefix + t, 0);
        c.same(prefix + t, "no effect with Flash_Technology " + tech);
      }
  }
  c.set("nand.erase_us", double(c.uint("Block_Erase_Latency", 3800000)) / 1000.0,
        {"Block_Erase_Latency"});
  c.set("nand.erase_limit", c.uint("Block_PE_Cycles_Limit", 10000), {"Block_PE_Cycles_Limit"});
}

void flash_rules(Ctx& c) {
  c.set("nand.channels", c.uint("Flash_Channel_Count", 8), {"Flash_Channel_Count"});
  c.set("nand.chips_per_channel", c.uint("Chip_No_Per_Channel", 4), {"Chip_No_Per_Channel"});
  c.set("nand.dies_per_chip", c.uint("Die_No_Per_Chip", 2), {"Die_No_Per_Chip"});
  c.set("nand.planes_per_die", c.uint("Plane_No_Per_Die", 2), {"Plane_No_Per_Die"});
  c.set("nand.blocks_per_plane", c.uint("Block_No_Per_Plane", 2048), {"Block_No_Per_Plane"});
  c.set("nand.pages_per_block", c.uint("Page_No_Per_Block", 256), {"Page_No_Per_Block"});
  c.set("nand.page_size", c.uint("Page_Capacity", 8192), {"Page_Capacity"});
  c.uint("Page_Metadat_Capacity", 0);
  c.unmapped("Page_Metadat_Capacity", "no spare (out-of-band) area is modelled");
  // NVDDR2 in MQSim (SSD_Device.cpp): t_RC = (integer ns of 1000 / rate) x 2 per two bus units
  // of Flash_Channel_Width bytes, so the bus moves width x 1000 / floor(1000 / rate) bytes per us.
  const uint64_t rate = c.uint("Channel_Transfer_Rate", 300);
  const uint64_t width = c.uint("Flash_Channel_Width", 1);
  if (c.has("Channel_Transfer_Rate") && (rate == 0 || rate > 1000))
    c.fail("Channel_Transfer_Rate",
           "expected 1 to 1000 MT/s (above 1000, MQSim's NVDDR2 cycle time rounds to 0 ns)");
  if (rate > 0 && rate <= 1000)
    c.set("channel.rate_mt_s", double(width) * 1000.0 / double(1000 / rate),
          {"Channel_Transfer_Rate", "Flash_Channel_Width"});
  c.choice("Flash_Comm_Protocol", {"NVDDR2"}, "NVDDR2");
  c.same("Flash_Comm_Protocol", "ONFI NV-DDR2 bus timing (channel.*)");
  timing_rules(c);
}

}  // namespace

const std::vector<std::string>& known_parameters() {
  static const std::vector<std::string> k = {
      // Host_Parameter_Set
      "PCIe_Lane_Bandwidth", "PCIe_Lane_Count", "SATA_Processing_Delay",
      "Enable_ResponseTime_Logging", "ResponseTime_Logging_Period_Length",
      // Device_Parameter_Set
      "Seed", "Enabled_Preconditioning", "Memory_Type", "HostInterface_Type", "IO_Queue_Depth",
      "Queue_Fetch_Size", "Caching_Mechanism", "Data_Cache_Sharing_Mode", "Data_Cache_Capacity",
      "Data_Cache_DRAM_Row_Size", "Data_Cache_DRAM_Data_Rate", "Data_Cache_DRAM_Data_Busrt_Size",
      "Data_Cache_DRAM_tRCD", "Data_Cache_DRAM_tCL", "Data_Cache_DRAM_tRP", "Address_Mapping",
      "Ideal_Mapping_Table", "CMT_Capacity", "CMT_Sharing_Mode", "Plane_Allocation_Scheme",
      "Transaction_Scheduling_Policy", "Overprovisioning_Ratio", "GC_Exec_Threshold",
      "GC_Block_Selection_Policy", "Use_Copyback_for_GC", "Preemptible_GC_Enabled",
      "GC_Hard_Threshold", "Dynamic_Wearleveling_Enabled", "Static_Wearleveling_Enabled",
      "Static_Wearleveling_Threshold", "Prefered_suspend_erase_time_for_read",
      "Preferred_suspend_erase_time_for_read", "Preferred_suspend_erase_time_for_write",
      "Preferred_suspend_write_time_for_read", "Flash_Channel_Count", "Flash_Channel_Width",
      "Channel_Transfer_Rate", "Chip_No_Per_Channel", "Flash_Comm_Protocol",
      // Flash_Parameter_Set
      "Flash_Technology", "CMD_Suspension_Support", "Page_Read_Latency_LSB",
      "Page_Read_Latency_CSB", "Page_Read_Latency_MSB", "Page_Program_Latency_LSB",
      "Page_Program_Latency_CSB", "Page_Program_Latency_MSB", "Block_Erase_Latency",
      "Block_PE_Cycles_Limit", "Suspend_Erase_Time", "Suspend_Program_Time", "Die_No_Per_Chip",
      "Plane_No_Per_Die", "Block_No_Per_Plane", "Page_No_Per_Block", "Page_Capacity",
      "Page_Metadat_Capacity"};
  return k;
}

void map_params(const std::vector<Param>& params, const std::string& source, Mapping& m) {
  Ctx c(params, source, m);
  host_rules(c);
  device_rules(c);
  gc_rules(c);
  suspension_rules(c);
  flash_rules(c);
  c.finish();
}

}  // namespace ssdtlm::mqsim
