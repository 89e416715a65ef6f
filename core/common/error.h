// Errors ContactArena raises. Every message names what was wrong and where (file, key, element),
// so that a user can fix the input without reading code.
#pragma once

#include <stdexcept>
#include <string>

namespace arena {

/// Base class of every ContactArena error.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Malformed or unsupported input file: URDF, MJCF, mesh, TOML config.
class ParseError : public Error {
 public:
  /// `where` is an element path or key inside the file ("link 'pelvis' / inertial"); may be empty.
  ParseError(const std::string& file, const std::string& where, const std::string& reason)
      : Error(file + (where.empty() ? "" : ": " + where) + ": " + reason),
        file_(file), where_(where), reason_(reason) {}
  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, where_, reason_;
};

/// An invalid value: non-positive timestep or mass, unknown option key, NaN state, ...
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A model asked to simulate a scene (shape, joint, feature) it does not support.
class Unsupported : public Error {
 public:
  using Error::Error;
};

}  // namespace arena
