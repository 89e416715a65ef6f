#include "harness/run_info.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <thread>

#ifndef ARENA_BUILD_TYPE
#define ARENA_BUILD_TYPE "unknown"
#endif

namespace arena {
namespace {

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Output of `command`, or nullopt if it failed.
std::optional<std::string> Capture(const std::string& command) {
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  std::array<char, 4096> buf;
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  if (pclose(pipe) != 0) return std::nullopt;
  return out;
}

}  // namespace

GitInfo QueryGit(const std::string& dir) {
  GitInfo info;
  const std::string git = "git -C " + ShellQuote(dir) + " ";
  auto head = Capture(git + "rev-parse HEAD 2>/dev/null");
  if (!head) return info;
  while (!head->empty() && (head->back() == '\n' || head->back() == '\r')) head->pop_back();
  if (head->empty()) return info;
  info.commit = *head;
  auto status = Capture(git + "status --porcelain 2>/dev/null");
  info.dirty = !status || !status->empty();
  return info;
}

MachineInfo QueryMachine() {
  MachineInfo m;
  std::array<char, 256> host{};
  m.hostname = gethostname(host.data(), host.size() - 1) == 0 ? host.data() : "unknown";
  m.cpu = "unknown";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        m.cpu = line.substr(line.find_first_not_of(" \t", colon + 1));
      }
      break;
    }
  }
  m.cores = static_cast<int>(std::thread::hardware_concurrency());
#if defined(__clang__)
  m.compiler = std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  m.compiler = std::string("GCC ") + __VERSION__;
#else
  m.compiler = "unknown";
#endif
  m.build_type = ARENA_BUILD_TYPE;
  return m;
}

std::string IsoTimeUtc(std::chrono::system_clock::time_point t) {
  const std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string SourceDir() { return ARENA_SOURCE_DIR; }

}  // namespace arena
