// Facts about the run recorded in sidecars and reports: repository state, machine, build, time.
#pragma once

#include <chrono>
#include <string>

namespace arena {

struct GitInfo {
  std::string commit = "unknown";  // "unknown" when the folder is not a git work tree
  bool dirty = false;              // uncommitted or untracked changes
};

/// `git -C dir rev-parse HEAD` and `git status --porcelain`.
GitInfo QueryGit(const std::string& dir);

struct MachineInfo {
  std::string hostname;
  std::string cpu;          // /proc/cpuinfo "model name", or "unknown"
  int cores = 0;            // hardware threads
  std::string compiler;     // "GCC 12.2.0"
  std::string build_type;   // CMAKE_BUILD_TYPE of the harness
};

MachineInfo QueryMachine();

/// "2024-05-01T12:34:56Z".
std::string IsoTimeUtc(std::chrono::system_clock::time_point t);

/// The repository root (compile-time ARENA_SOURCE_DIR).
std::string SourceDir();

}  // namespace arena
