// `arena export-design`: the design rows of a co-design run (record "design":
// experiments/common/sweeps/codesign_sweep.h) as a Wavefront OBJ file a user can open or print: one
// object per designed collider, named after it, in its body's frame: its design points as the
// vertices, in their order (a point inside the hull is a vertex no face uses), and the faces of
// their convex hull (qhull). `arena run <experiment> --set design=<file>` reads it back as the
// start design (experiments/common/settings/design_file.h).
#pragma once

#include <string>

namespace arena {

struct DesignExportOptions {
  std::string csv;                 // an experiment's results CSV
  std::string case_id;             // "": the only case with design rows
  std::string stage = "optimised";  // or "initial"
  std::string out;                 // the OBJ file to write
};

/// Writes the file; returns the number of objects. Throws InvalidArgument naming the CSV and what
/// it lacks (no design rows, an unknown case or stage, several cases and none chosen), Error when
/// the file cannot be written.
int ExportDesign(const DesignExportOptions& options);

/// Whether `path` is a design file written by ExportDesign (its first line says so).
bool IsDesignFile(const std::string& path);

/// `arena inspect` of a design file: per object (a designed collider) its points, its convex
/// hull's vertices and triangles, volume and extent in its body's frame. Returns the exit status.
int InspectDesign(const std::string& path);

}  // namespace arena
