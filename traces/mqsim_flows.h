// The I/O flows of an MQSim workload file (one <IO_Scenario> of <MQSim_IO_Scenarios>, read by
// controller/mqsim/workload.h) as one trace source: synthetic flows generated as MQSim's
// IO_Flow_Synthetic does, trace flows read as IO_Flow_Trace_Based does, each flow in its own
// logical range (MQSim's Logical_Address_Partitioning_Unit). docs/presets.md "MQSim workloads".
// Plain C++.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/trace.h"

namespace ssdtlm::traces {

struct MqsimFlow {
  bool trace = false;  // IO_Flow_Parameter_Set_Trace_Based, else _Synthetic
  int line = 0;        // the flow's element in the workload file
  // Resource partition (Channel_IDs, Chip_IDs, Die_IDs, Plane_IDs): the flow's share of the
  // logical space is the sum over its planes of 1 / (flows using the plane), as in MQSim.
  std::vector<uint32_t> channels{0}, chips{0}, dies{0}, planes{0};
  // Synthetic flows (sizes and addresses in 512-byte sectors, as MQSim's).
  double read_ratio = 1.0;    // Read_Percentage / 100
  double working_set = 0.85;  // Working_Set_Percentage / 100
  enum class Addr { kUniform, kHotCold, kStreaming } addr = Addr::kUniform;
  double hot_ratio = 0;         // Percentage_of_Hot_Region / 100
  bool aligned = true;          // Generated_Aligned_Addresses
  uint32_t align = 16;          // Address_Alignment_Unit
  bool normal_size = false;     // Request_Size_Distribution NORMAL (else FIXED)
  uint32_t avg_size = 8;        // Average_Request_Size
  uint32_t size_stdev = 0;      // Variance_Request_Size (MQSim draws Normal(avg, it))
  bool queue_depth = true;      // Synthetic_Generator_Type QUEUE_DEPTH (else BANDWIDTH)
  uint32_t qd = 2;              // Average_No_of_Reqs_in_Queue
  uint64_t mean_gap_ns = 0;     // BANDWIDTH: mean inter-arrival (from Bandwidth)
  uint64_t stop_ns = 0;         // Stop_Time (0: Total_Requests_To_Generate counts)
  uint64_t total_requests = 0;  // Total_Requests_To_Generate
  int64_t seed = 12344;         // Seed
  // Trace flows.
  std::string file;        // File_Path (MQSim's ASCII trace)
  uint32_t percent = 100;  // Percentage_To_Be_Executed (with Relay_Count 1)
  uint32_t relay = 1;      // Relay_Count: passes over the file
};

struct MqsimScenario {
  std::string path;  // the workload file
  size_t index = 1;  // 1-based, of `count`
  size_t count = 1;
  std::vector<MqsimFlow> flows;
  nlohmann::json notes = nlohmann::json::array();  // [{flow, parameter, value, reason}]
  // Closed loop (every flow QUEUE_DEPTH): the replay's queue depth (the flows' depths summed) and
  // stop time; an open loop (trace and BANDWIDTH flows): 0.
  uint32_t closed_loop_slots() const;
  uint64_t closed_loop_stop_ns() const;
};

// The scenario's requests. capacity_bytes: the drive's logical capacity, split among the flows.
// max_closed_requests: a closed loop stopped only by Stop_Time ends its stream after this many
// requests (the replay stops them entering at the stop time; a bound for the passes before the
// replay). Throws TraceError naming the file and the flow's line.
std::unique_ptr<TraceSource> make_mqsim_source(const MqsimScenario& s, uint64_t capacity_bytes,
                                               uint64_t max_closed_requests);

}  // namespace ssdtlm::traces
