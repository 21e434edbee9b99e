#include "controller/mqsim/mapping.h"

#include <fstream>
#include <sstream>

#include "controller/config.h"
#include "controller/mqsim/rules.h"
#include "controller/mqsim/xml.h"

namespace ssdtlm::mqsim {
namespace {

using nlohmann::json;

std::string at(const std::string& source, int line) {
  return source + ":" + std::to_string(line);
}

// The parameter elements of a section; <Flash_Parameter_Set> inside <Device_Parameter_Set> is
// read as part of it. Elements that are not parameters (they have children) are refused.
void collect(const XmlNode& section, const std::string& source, std::vector<Param>& out) {
  for (const auto& child : section.children) {
    if (child->name == "Flash_Parameter_Set" && section.name == "Device_Parameter_Set") {
      collect(*child, source, out);
      continue;
    }
    if (!child->children.empty())
      throw ConfigError(at(source, child->line) + ": <" + child->name + "> in <" + section.name +
                        ">: expected a parameter (<Name>value</Name>), found nested elements");
    out.push_back(Param{child->name, child->text, child->line});
  }
}

}  // namespace

Mapping map_config_text(const std::string& xml, const std::string& source) {
  std::unique_ptr<XmlNode> root;
  try {
    root = parse_xml(xml, source);
  } catch (const XmlError& e) {
    throw ConfigError(std::string(e.what()) + " (MQSim configuration, XML)");
  }
  if (root->name != "Execution_Parameter_Set")
    throw ConfigError(at(source, root->line) + ": root element <" + root->name +
                      ">: an MQSim configuration is an <Execution_Parameter_Set>");
  std::vector<Param> params;
  bool device = false;
  for (const auto& section : root->children) {
    if (section->name != "Host_Parameter_Set" && section->name != "Device_Parameter_Set")
      throw ConfigError(at(source, section->line) + ": <" + section->name +
                        "> in <Execution_Parameter_Set>: expected <Host_Parameter_Set> or "
                        "<Device_Parameter_Set>");
    device = device || section->name == "Device_Parameter_Set";
    collect(*section, source, params);
  }
  if (!device) throw ConfigError(at(source, root->line) + ": no <Device_Parameter_Set>");
  Mapping m;
  m.source = source;
  map_params(params, source, m);
  return m;
}

Mapping read_config(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ConfigError(path + ": cannot open the MQSim configuration");
  std::ostringstream text;
  text << f.rdbuf();
  if (!f.good() && !f.eof()) throw ConfigError(path + ": cannot read the MQSim configuration");
  return map_config_text(text.str(), path);
}

json apply(SsdConfig& cfg, const Mapping& m) {
  json mapped = json::object();
  for (const Set& s : m.sets) {
    std::string from;
    for (const auto& n : s.from) from += (from.empty() ? "" : ", ") + n;
    cfg.set(s.key, s.value, at(m.source, s.line) + " (MQSim " + from + ")");
    mapped[s.key] = {{"value", s.value}, {"from", s.from}};
  }
  auto notes = [](const std::vector<Note>& v) {
    json a = json::array();
    for (const Note& n : v)
      a.push_back({{"parameter", n.name}, {"value", n.value}, {"reason", n.reason}});
    return a;
  };
  return {{"file", m.source},
          {"mapped", mapped},
          {"equivalent", notes(m.equivalent)},
          {"unmapped", notes(m.unmapped)}};
}

std::string unmapped_report(const Mapping& m) {
  if (m.unmapped.empty()) return "";
  std::ostringstream os;
  os << "ssdtlm: --mqsim-config " << m.source << ": " << m.unmapped.size()
     << " MQSim parameter(s) not mapped (kept in the result JSON, mqsim_config.unmapped):\n";
  for (const Note& n : m.unmapped)
    os << "  " << n.name << " = " << n.value << ": " << n.reason << "\n";
  return os.str();
}

}  // namespace ssdtlm::mqsim
