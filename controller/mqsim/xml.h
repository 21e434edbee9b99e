// A small XML reader for MQSim's configuration files: elements, text, attributes (skipped),
// comments, the <?xml ...?> declaration, CDATA and the five predefined entities. No DTDs,
// namespaces or character references beyond &#N; / &#xN; (ASCII). Every node keeps its line.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdtlm::mqsim {

class XmlError : public std::runtime_error {
 public:
  XmlError(const std::string& source, int line, const std::string& msg)
      : std::runtime_error(source + ":" + std::to_string(line) + ": " + msg), line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

struct XmlNode {
  std::string name;
  std::string text;  // character data directly inside the element, whitespace-trimmed
  int line = 0;      // line of the start tag
  std::vector<std::unique_ptr<XmlNode>> children;
};

// Parses a whole document; returns its root element. Throws XmlError naming `source` and the
// line on malformed input (unclosed or mismatched tags, text outside the root, bad entities).
std::unique_ptr<XmlNode> parse_xml(const std::string& text, const std::string& source);

}  // namespace ssdtlm::mqsim
