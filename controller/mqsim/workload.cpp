#include "controller/mqsim/workload.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "controller/config.h"
#include "controller/mqsim/xml.h"
#include "controller/suggest.h"

namespace ssdtlm::mqsim {
namespace {

using nlohmann::json;
using traces::MqsimFlow;

const std::vector<std::string> kCommon = {
    "Priority_Class", "Device_Level_Data_Caching_Mode", "Channel_IDs", "Chip_IDs", "Die_IDs",
    "Plane_IDs",      "Initial_Occupancy_Percentage"};
const std::vector<std::string> kSynthetic = {"Working_Set_Percentage",
                                             "Synthetic_Generator_Type",
                                             "Read_Percentage",
                                             "Address_Distribution",
                                             "Percentage_of_Hot_Region",
                                             "Generated_Aligned_Addresses",
                                             "Address_Alignment_Unit",
                                             "Request_Size_Distribution",
                                             "Average_Request_Size",
                                             "Variance_Request_Size",
                                             "Seed",
                                             "Average_No_of_Reqs_in_Queue",
                                             "Bandwidth",
                                             "Stop_Time",
                                             "Total_Requests_To_Generate"};
const std::vector<std::string> kTrace = {"File_Path", "Percentage_To_Be_Executed", "Relay_Count",
                                         "Time_Unit"};

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The parameters of one flow element, typed; each one taken is marked, the rest are errors.
class FlowParams {
 public:
  FlowParams(const XmlNode& flow, const std::string& source, json& notes)
      : src_(source), line_(flow.line), notes_(notes) {
    for (const auto& c : flow.children) {
      if (!c->children.empty())
        throw ConfigError(source + ":" + std::to_string(c->line) + ": <" + c->name + "> in <" +
                          flow.name + ">: expected a parameter (<Name>value</Name>)");
      if (!by_name_.emplace(c->name, c.get()).second)
        throw ConfigError(source + ":" + std::to_string(c->line) + ": parameter " + c->name +
                          " given twice");
      order_.push_back(c->name);
    }
  }
  const XmlNode* find(const std::string& n) {
    auto it = by_name_.find(n);
    if (it == by_name_.end()) return nullptr;
    taken_.push_back(n);
    return it->second;
  }
  [[noreturn]] void bad(const XmlNode& p, const std::string& what) const {
    throw ConfigError(src_ + ":" + std::to_string(p.line) + ": " + p.name + ": " + what +
                      ", got '" + p.text + "'");
  }
  uint64_t uint(const std::string& n, uint64_t def, uint64_t lo = 0, uint64_t hi = ~0ull) {
    const XmlNode* p = find(n);
    if (!p) return def;
    const std::string& v = p->text;
    if (v.empty() || v.size() > 19 || !std::all_of(v.begin(), v.end(), ::isdigit))
      bad(*p, "expected an unsigned integer");
    const uint64_t x = std::stoull(v);
    if (x < lo || x > hi) bad(*p, "expected " + std::to_string(lo) + " to " + std::to_string(hi));
    return x;
  }
  std::string choice(const std::string& n, const std::vector<std::string>& allowed,
                     const std::string& def) {
    const XmlNode* p = find(n);
    if (!p) return def;
    const std::string v = upper(p->text);  // (MQSim upper-cases these values)
    if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return v;
    std::string alts;
    for (const auto& a : allowed) alts += (alts.empty() ? "" : "|") + a;
    bad(*p, "expected one of " + alts);
  }
  std::vector<uint32_t> ids(const std::string& n) {
    const XmlNode* p = find(n);
    if (!p) return {0};
    std::vector<uint32_t> v;
    std::stringstream ss(p->text);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.empty() || !std::all_of(item.begin(), item.end(), ::isdigit) || item.size() > 9)
        bad(*p, "expected a comma-separated list of ids");
      v.push_back(static_cast<uint32_t>(std::stoul(item)));
    }
    if (v.empty()) bad(*p, "expected a comma-separated list of ids");
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }
  int line_of(const std::string& n) const {
    auto it = by_name_.find(n);
    return it == by_name_.end() ? line_ : it->second->line;
  }
  void note(const std::string& n, const std::string& reason) {
    auto it = by_name_.find(n);
    if (it == by_name_.end()) return;
    notes_.push_back(
        {{"flow_line", line_}, {"parameter", n}, {"value", it->second->text}, {"reason", reason}});
  }
  // Parameters not taken: MQSim does not read them (Intensity is noted: MQSim's own workload.xml
  // writes it).
  void finish(const std::vector<std::string>& known) {
    std::string err;
    for (const std::string& n : order_) {
      if (std::find(taken_.begin(), taken_.end(), n) != taken_.end()) continue;
      if (n == "Intensity") {
        note(n,
             "MQSim does not read Intensity (its own workload.xml writes it; it reads "
             "Bandwidth)");
        continue;
      }
      err += (err.empty() ? "" : "\n") + src_ + ":" + std::to_string(by_name_[n]->line) + ": " + n +
             ": not a parameter MQSim reads in this flow" + did_you_mean(n, known);
    }
    if (!err.empty()) throw ConfigError(err);
  }

 private:
  std::string src_;
  int line_;
  json& notes_;
  std::map<std::string, const XmlNode*> by_name_;
  std::vector<std::string> order_, taken_;
};

// Priority_Class ... Initial_Occupancy_Percentage.
void common(FlowParams& p, MqsimFlow& f) {
  const std::string prio = p.choice("Priority_Class", {"URGENT", "HIGH", "MEDIUM", "LOW"}, "HIGH");
  p.note("Priority_Class", "NVMe priority classes are not modelled: every queue is served alike");
  if (p.choice("Device_Level_Data_Caching_Mode",
               {"TURNED_OFF", "WRITE_CACHE", "READ_CACHE", "WRITE_READ_CACHE"},
               "WRITE_CACHE") != "WRITE_CACHE")
    p.note("Device_Level_Data_Caching_Mode",
           "per-flow caching modes are not modelled: ssdtlm's cache (cache.*) serves every flow");
  f.channels = p.ids("Channel_IDs");
  f.chips = p.ids("Chip_IDs");
  f.dies = p.ids("Die_IDs");
  f.planes = p.ids("Plane_IDs");
  if (p.uint("Initial_Occupancy_Percentage", 0, 0, 100) > 0)
    p.note("Initial_Occupancy_Percentage",
           "MQSim's preconditioning is not applied: --precondition F fills a fraction of the "
           "logical space (docs/presets.md \"Preconditioning\")");
  (void)prio;
}

void synthetic(FlowParams& p, MqsimFlow& f, const std::string& source) {
  uint64_t ws = p.uint("Working_Set_Percentage", 85);
  f.working_set = ws < 1 || ws > 100 ? 1.0 : double(ws) / 100.0;  // (as MQSim: else 100%)
  f.queue_depth = p.choice("Synthetic_Generator_Type", {"BANDWIDTH", "QUEUE_DEPTH"},
                           "QUEUE_DEPTH") == "QUEUE_DEPTH";
  f.read_ratio = double(p.uint("Read_Percentage", 100, 0, 100)) / 100.0;
  const std::string a = p.choice(
      "Address_Distribution", {"STREAMING", "RANDOM_HOTCOLD", "RANDOM_UNIFORM"}, "RANDOM_UNIFORM");
  f.addr = a == "STREAMING"        ? MqsimFlow::Addr::kStreaming
           : a == "RANDOM_HOTCOLD" ? MqsimFlow::Addr::kHotCold
                                   : MqsimFlow::Addr::kUniform;
  f.hot_ratio = double(p.uint("Percentage_of_Hot_Region", 0, 0, 100)) / 100.0;
  if (const XmlNode* n = p.find("Generated_Aligned_Addresses"))
    f.aligned = upper(n->text) != "FALSE";
  f.align = static_cast<uint32_t>(p.uint("Address_Alignment_Unit", 16, 1, 1u << 30));
  f.normal_size = p.choice("Request_Size_Distribution", {"FIXED", "NORMAL"}, "FIXED") == "NORMAL";
  f.avg_size = static_cast<uint32_t>(p.uint("Average_Request_Size", 8, 1, 1u << 22));
  f.size_stdev = static_cast<uint32_t>(p.uint("Variance_Request_Size", 0, 0, 1u << 22));
  if (const XmlNode* n = p.find("Seed")) {
    try {
      f.seed = std::stoll(n->text);
    } catch (const std::exception&) {
      p.bad(*n, "expected an integer");
    }
  }
  f.qd = static_cast<uint32_t>(p.uint("Average_No_of_Reqs_in_Queue", 2, 1, 65536));
  const uint64_t bw = p.uint("Bandwidth", 262144);
  f.stop_ns = p.uint("Stop_Time", 1000000000);
  f.total_requests = p.uint("Total_Requests_To_Generate", 0);
  // MQSim: the mean inter-arrival is 1e9 / ((Bandwidth / 512) / Average_Request_Size) ns, in
  // integers.
  const uint64_t per_s = bw / 512 / f.avg_size;
  if (!f.queue_depth && per_s == 0)
    throw ConfigError(source + ":" + std::to_string(p.line_of("Bandwidth")) +
                      ": Bandwidth: " + std::to_string(bw) +
                      " bytes/s is less than one request of Average_Request_Size sectors per "
                      "second (MQSim divides by zero)");
  f.mean_gap_ns = per_s ? 1000000000ull / per_s : 0;
  if (f.queue_depth) p.note("Bandwidth", "no effect with Synthetic_Generator_Type QUEUE_DEPTH");
  if (!f.queue_depth)
    p.note("Average_No_of_Reqs_in_Queue", "no effect with Synthetic_Generator_Type BANDWIDTH");
}

void trace_flow(FlowParams& p, MqsimFlow& f, const std::string& source) {
  const XmlNode* path = p.find("File_Path");
  if (!path || path->text.empty())
    throw ConfigError(source + ":" + std::to_string(f.line) + ": a trace flow needs File_Path");
  namespace fs = std::filesystem;
  f.file = path->text;
  std::error_code ec;
  const fs::path beside = fs::path(source).parent_path() / f.file;
  if (fs::path(f.file).is_relative() && !fs::exists(f.file, ec) && fs::exists(beside, ec))
    f.file = beside.string();
  f.percent =
      static_cast<uint32_t>(std::min<uint64_t>(p.uint("Percentage_To_Be_Executed", 100), 100));
  f.relay = static_cast<uint32_t>(p.uint("Relay_Count", 1, 1, 1000000));
  if (p.choice("Time_Unit", {"PICOSECOND", "NANOSECOND", "MICROSECOND"}, "NANOSECOND") !=
      "NANOSECOND")
    p.note("Time_Unit",
           "MQSim reads the trace's times as nanoseconds whatever the unit; so "
           "does ssdtlm");
}

}  // namespace

traces::MqsimScenario parse_workload(const std::string& xml, const std::string& source,
                                     size_t scenario) {
  std::unique_ptr<XmlNode> root;
  try {
    root = parse_xml(xml, source);
  } catch (const XmlError& e) {
    throw ConfigError(std::string(e.what()) + " (MQSim workload, XML)");
  }
  const std::string where = source + ":" + std::to_string(root->line);
  if (root->name != "MQSim_IO_Scenarios")
    throw ConfigError(where + ": root element <" + root->name +
                      ">: an MQSim workload file is an <MQSim_IO_Scenarios>");
  std::vector<const XmlNode*> scenarios;
  for (const auto& c : root->children) {
    if (c->name != "IO_Scenario")
      throw ConfigError(source + ":" + std::to_string(c->line) + ": <" + c->name +
                        "> in <MQSim_IO_Scenarios>: expected <IO_Scenario>");
    scenarios.push_back(c.get());
  }
  if (scenarios.empty()) throw ConfigError(where + ": no <IO_Scenario>");
  if (scenario > scenarios.size())
    throw ConfigError("--mqsim-scenario " + std::to_string(scenario) + ": " + source + " holds " +
                      std::to_string(scenarios.size()) + " scenario(s)");
  traces::MqsimScenario s;
  s.path = source;
  s.index = scenario ? scenario : 1;
  s.count = scenarios.size();
  for (const auto& c : scenarios[s.index - 1]->children) {
    const bool syn = c->name == "IO_Flow_Parameter_Set_Synthetic";
    if (!syn && c->name != "IO_Flow_Parameter_Set_Trace_Based")
      throw ConfigError(source + ":" + std::to_string(c->line) + ": <" + c->name +
                        "> in <IO_Scenario>: expected <IO_Flow_Parameter_Set_Synthetic> or "
                        "<IO_Flow_Parameter_Set_Trace_Based>");
    MqsimFlow f;
    f.trace = !syn;
    f.line = c->line;
    FlowParams p(*c, source, s.notes);
    common(p, f);
    if (syn)
      synthetic(p, f, source);
    else
      trace_flow(p, f, source);
    std::vector<std::string> known = kCommon;
    const auto& own = syn ? kSynthetic : kTrace;
    known.insert(known.end(), own.begin(), own.end());
    p.finish(known);
    s.flows.push_back(std::move(f));
  }
  if (s.flows.empty())
    throw ConfigError(source + ":" + std::to_string(scenarios[s.index - 1]->line) + ": scenario " +
                      std::to_string(s.index) + " has no I/O flow");
  return s;
}

traces::MqsimScenario read_workload(const std::string& path, size_t scenario) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ConfigError(path + ": cannot open the MQSim workload file");
  std::ostringstream text;
  text << f.rdbuf();
  return parse_workload(text.str(), path, scenario);
}

}  // namespace ssdtlm::mqsim
