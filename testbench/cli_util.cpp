#include "testbench/cli_util.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "controller/suggest.h"

namespace ssdtlm::tb {

namespace {

// "unknown option --precondtion (did you mean --precondition?)"
std::string unknown_option(const CLI::App& app, const std::string& arg) {
  std::string name = arg.substr(0, arg.find('='));
  std::string s = "unknown option " + name;
  const std::string near = closest_option(app, name);
  if (!near.empty()) s += " (did you mean " + near + "?)";
  return s;
}

// The words after "prefix" in msg, split at blanks.
std::vector<std::string> words_after(const std::string& msg, const std::string& prefix) {
  std::vector<std::string> w;
  std::string rest = msg.substr(msg.find(prefix) + prefix.size());
  size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && rest[i] == ' ') ++i;
    size_t b = i;
    while (i < rest.size() && rest[i] != ' ') ++i;
    if (i > b) w.push_back(rest.substr(b, i - b));
  }
  return w;
}

bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

}  // namespace

std::string closest_option(const CLI::App& app, const std::string& name) {
  std::string bare = name;
  while (!bare.empty() && bare[0] == '-') bare.erase(0, 1);
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& l : o->get_lnames()) names.push_back(l);
  const std::string near = closest_name(bare, names);
  return near.empty() ? near : "--" + near;
}

std::string usage_message(const CLI::App& app, const std::string& m) {
  // CLI11: "The following argument(s) was/were not expected: A B" (unknown options and their
  // values, or stray positional arguments).
  if (m.find("not expected: ") != std::string::npos) {
    std::string s;
    bool after_unknown = false;
    std::vector<std::string> words = words_after(m, "not expected: ");
    std::reverse(words.begin(), words.end());  // (CLI11 lists them last first)
    for (const std::string& w : words) {
      if (starts_with(w, "-") &&
          !(w.size() > 1 && (std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.'))) {
        s += (s.empty() ? "" : "; ") + unknown_option(app, w);
        after_unknown = true;
      } else if (!after_unknown) {
        s += (s.empty() ? "" : "; ") + std::string("unexpected argument '") + w + "'";
      }
    }
    return s.empty() ? m : s;
  }
  // "Could not convert: --max-requests = abc"
  if (starts_with(m, "Could not convert: ")) {
    const std::string rest = m.substr(19);
    const size_t eq = rest.find(" = ");
    if (eq != std::string::npos) {
      const std::string opt = rest.substr(0, eq);
      const CLI::Option* o = app.get_option_no_throw(opt);
      const std::string type = o ? o->get_type_name() : std::string();
      return opt + ": '" + rest.substr(eq + 3) + "' is not a valid value" +
             (type.empty() ? "" : " (expected " + type + ")");
    }
  }
  // "The value X is not an allowed value for --opt"
  if (starts_with(m, "The value ")) {
    const size_t f = m.find(" is not an allowed value for ");
    if (f != std::string::npos)
      return m.substr(f + 29) + ": '" + m.substr(10, f - 10) + "' is not an allowed value";
  }
  // "Expected exactly 1 argument to --out, got 0" / "... at least ..."
  if (starts_with(m, "Expected ")) {
    const size_t to = m.find(" to ");
    if (to != std::string::npos) {
      const std::string opt = m.substr(to + 4, m.find(',', to) - to - 4);
      return opt + ": " + m.substr(0, to) +
             (m.find(", got 0") != std::string::npos ? " (the value is missing)"
                                                     : m.substr(m.find(',', to)));
    }
  }
  // "--out: 1 required TEXT missing"
  const size_t colon = m.find(": ");
  if (starts_with(m, "-") && colon != std::string::npos && m.size() > 8 &&
      m.compare(m.size() - 8, 8, " missing") == 0 && m.find(" required ") != std::string::npos)
    return m.substr(0, colon) + ": the value is missing";
  return m;  // ("--opt: ..." validation errors and "FILE is required" name it already)
}

int parse_command_line(CLI::App& app, int argc, char** argv) {
  for (CLI::Option* o : app.get_options()) {
    if (!starts_with(o->get_type_name(), "UINT")) continue;
    o->check(CLI::Validator(
        [](std::string& v) -> std::string {
          return !v.empty() && v[0] == '-' ? "must not be negative, not " + v : std::string();
        },
        ""));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s\n(%s --help lists the options)\n", app.get_name().c_str(),
                 usage_message(app, e.what()).c_str(), app.get_name().c_str());
    return kExitUsage;
  }
  return -1;
}

std::string unwritable(const std::string& path) {
  namespace fs = std::filesystem;
  if (path == "-") return "";
  if (path.empty()) return "empty file name";
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return "is a directory";
  if (fs::exists(p, ec)) return access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(dir, ec)) return "directory " + dir.string() + " does not exist";
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot create a file in " + dir.string() + ": " + std::strerror(errno);
  return "";
}

int check_result_paths(const char* cmd,
                       const std::vector<std::pair<std::string, std::string>>& paths) {
  const char* stdout_opt = nullptr;
  for (const auto& [opt, path] : paths) {
    if (path.empty()) continue;
    if (path == "-") {
      if (stdout_opt) {
        std::fprintf(stderr, "%s: %s - and %s -: only one result can go to standard output\n", cmd,
                     stdout_opt, opt.c_str());
        return kExitUsage;
      }
      stdout_opt = opt.c_str();
      continue;
    }
    const std::string why = unwritable(path);
    if (!why.empty()) {
      std::fprintf(stderr,
                   "%s: cannot write %s (%s): %s; checked before any work, nothing written\n", cmd,
                   path.c_str(), opt.c_str(), why.c_str());
      return kExitBadInput;
    }
  }
  return 0;
}

}  // namespace ssdtlm::tb
