#include "controller/mqsim/xml.h"

#include <cctype>

namespace ssdtlm::mqsim {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == ':';
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : s_(text), src_(source) {}

  std::unique_ptr<XmlNode> document() {
    skip_misc(true);
    if (at_end()) fail("no root element");
    if (s_[i_] != '<') fail("text before the root element");
    auto root = element();
    skip_misc(false);
    if (!at_end()) fail("content after the root element </" + root->name + ">");
    return root;
  }

 private:
  const std::string& s_;
  const std::string& src_;
  size_t i_ = 0;
  int line_ = 1;

  [[noreturn]] void fail(const std::string& msg) const { throw XmlError(src_, line_, msg); }
  bool at_end() const { return i_ >= s_.size(); }
  bool starts(const char* p) const {
    return s_.compare(i_, std::char_traits<char>::length(p), p) == 0;
  }
  void advance(size_t n) {
    for (size_t k = 0; k < n && i_ < s_.size(); ++k, ++i_)
      if (s_[i_] == '\n') ++line_;
  }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[i_]))) advance(1);
  }
  // Skips up to and including `end`; fails (at the construct's first line) if it is missing.
  void skip_past(const char* end, const char* what) {
    const int start = line_;
    const size_t j = s_.find(end, i_);
    if (j == std::string::npos) {
      line_ = start;
      fail(std::string("unterminated ") + what);
    }
    advance(j + std::char_traits<char>::length(end) - i_);
  }
  // Whitespace, comments and processing instructions (the declaration only before the root).
  void skip_misc(bool prolog) {
    for (;;) {
      skip_space();
      if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<?")) {
        if (!prolog) fail("processing instruction after the root element");
        skip_past("?>", "processing instruction");
      } else if (starts("<!DOCTYPE")) {
        fail("DOCTYPE declarations are not supported");
      } else {
        return;
      }
    }
  }
  std::string name() {
    const size_t b = i_;
    while (!at_end() && name_char(s_[i_])) advance(1);
    if (i_ == b) fail("expected a tag name");
    return s_.substr(b, i_ - b);
  }
  // Attributes are read and dropped (MQSim's files have none).
  void attributes() {
    for (;;) {
      skip_space();
      if (at_end()) fail("unterminated start tag");
      if (s_[i_] == '>' || starts("/>")) return;
      name();
      skip_space();
      if (at_end() || s_[i_] != '=') fail("expected '=' after an attribute name");
      advance(1);
      skip_space();
      if (at_end() || (s_[i_] != '"' && s_[i_] != '\'')) fail("expected a quoted attribute value");
      const char q = s_[i_];
      advance(1);
      while (!at_end() && s_[i_] != q) advance(1);
      if (at_end()) fail("unterminated attribute value");
      advance(1);
    }
  }
  void entity(std::string& out) {
    const size_t semi = s_.find(';', i_);
    if (semi == std::string::npos || semi - i_ > 10) fail("'&' that starts no entity");
    const std::string e = s_.substr(i_ + 1, semi - i_ - 1);
    if (e == "amp")
      out += '&';
    else if (e == "lt")
      out += '<';
    else if (e == "gt")
      out += '>';
    else if (e == "quot")
      out += '"';
    else if (e == "apos")
      out += '\'';
    else if (e.size() > 1 && e[0] == '#') {
      const bool hex = e[1] == 'x';
      unsigned long v = 0;
      try {
        size_t n = 0;
        v = std::stoul(e.substr(hex ? 2 : 1), &n, hex ? 16 : 10);
        if (n != e.size() - (hex ? 2 : 1)) throw std::invalid_argument(e);
      } catch (const std::exception&) {
        fail("bad character reference &" + e + ";");
      }
      if (v == 0 || v > 127) fail("character reference &" + e + "; is not ASCII");
      out += static_cast<char>(v);
    } else {
      fail("unknown entity &" + e + ";");
    }
    advance(semi + 1 - i_);
  }
  std::unique_ptr<XmlNode> element() {
    auto node = std::make_unique<XmlNode>();
    node->line = line_;
    advance(1);  // '<'
    node->name = name();
    attributes();
    if (starts("/>")) {
      advance(2);
      return node;
    }
    advance(1);  // '>'
    std::string text;
    for (;;) {
      if (at_end()) {
        line_ = node->line;
        fail("element <" + node->name + "> is not closed");
      }
      if (starts("</")) {
        advance(2);
        const std::string end = name();
        skip_space();
        if (at_end() || s_[i_] != '>') fail("expected '>' after </" + end);
        if (end != node->name)
          fail("</" + end + "> closes <" + node->name + "> of line " + std::to_string(node->line));
        advance(1);
        break;
      }
      if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<![CDATA[")) {
        advance(9);
        const size_t j = s_.find("]]>", i_);
        if (j == std::string::npos) fail("unterminated CDATA section");
        text += s_.substr(i_, j - i_);
        advance(j + 3 - i_);
      } else if (starts("<?")) {
        skip_past("?>", "processing instruction");
      } else if (s_[i_] == '<') {
        node->children.push_back(element());
      } else if (s_[i_] == '&') {
        entity(text);
      } else {
        text += s_[i_];
        advance(1);
      }
    }
    node->text = trim(text);
    return node;
  }
};

}  // namespace

std::unique_ptr<XmlNode> parse_xml(const std::string& text, const std::string& source) {
  return Parser(text, source).document();
}

}  // namespace ssdtlm::mqsim
