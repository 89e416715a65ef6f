#include "harness/design_export.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mass_properties.h"
#include "experiments/common/settings/design_file.h"

namespace arena {

namespace design_export {

ResultTable DesignRows(const DesignExportOptions& o) {
  const ResultTable all = ResultTable::ReadCsv(o.csv);
  for (const char* column : {"case_id", "record", "stage", "collider", "vertex", "x_m", "y_m", "z_m"}) {
    if (all.ColumnIndex(column) < 0) {
      throw InvalidArgument(o.csv + ": no design rows (no column '" + column +
                            "'): export-design reads a co-design experiment's results (spider)");
    }
  }
  const ResultTable design = all.Filter("record", "design");
  if (design.num_rows() == 0) {
    throw InvalidArgument(o.csv + ": no design rows (record = design): run a co-design variant first");
  }
  const std::vector<std::string> cases = design.Distinct("case_id");
  std::string case_id = o.case_id;
  if (case_id.empty()) {
    if (cases.size() > 1) throw InvalidArgument(o.csv + ": several cases have designs, choose one with --case: " + Join(cases));
    case_id = cases.front();
  } else if (std::find(cases.begin(), cases.end(), case_id) == cases.end()) {
    throw InvalidArgument(o.csv + ": no design rows for case '" + case_id + "'; cases with designs: " + Join(cases));
  }
  const ResultTable rows = design.Filter("case_id", case_id).Filter("stage", o.stage);
  if (rows.num_rows() == 0) {
    throw InvalidArgument(o.csv + ": case '" + case_id + "' has no design rows of stage '" + o.stage +
                          "'; stages: " + Join(design.Filter("case_id", case_id).Distinct("stage")));
  }
  return rows;
}

}  // namespace design_export

constexpr const char* kDesignHeader = "# ContactArena design: ";

int ExportDesign(const DesignExportOptions& o) {
  const ResultTable rows = design_export::DesignRows(o);
  std::ofstream out(o.out);
  if (!out) throw Error("export-design: cannot write " + o.out);
  out << kDesignHeader << o.csv << ", stage " << o.stage
      << "; each object a collider's design points in its body's frame (m) and their convex hull's faces\n";
  int objects = 0, first_vertex = 1;
  for (const std::string& collider : rows.Distinct("collider")) {
    const ResultTable c = rows.Filter("collider", collider);
    std::vector<std::pair<double, Vec3>> points;  // by vertex row
    for (int i = 0; i < c.num_rows(); ++i) {
      points.push_back({c.Number(i, "vertex"), Vec3(c.Number(i, "x_m"), c.Number(i, "y_m"), c.Number(i, "z_m"))});
    }
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    PointsX3 p(static_cast<Eigen::Index>(points.size()), 3);
    for (std::size_t k = 0; k < points.size(); ++k) p.row(static_cast<Eigen::Index>(k)) = points[k].second.transpose();
    // Every design point in its row order (so the file reads back as the design: a point inside
    // the hull is a vertex no face uses), the hull's triangles through their input points.
    const ConvexHull hull = MakeConvexHull(p);
    const std::vector<int>& input = hull.data->input_indices;
    out << "o " << collider << "\n";
    for (Eigen::Index v = 0; v < p.rows(); ++v) out << fmt::format("v {} {} {}\n", p(v, 0), p(v, 1), p(v, 2));
    for (const Eigen::Vector3i& t : hull.data->triangles) {
      out << "f " << first_vertex + input[t[0]] << " " << first_vertex + input[t[1]] << " " << first_vertex + input[t[2]] << "\n";
    }
    first_vertex += static_cast<int>(p.rows());
    ++objects;
  }
  out.flush();
  if (!out) throw Error("export-design: cannot write " + o.out);
  return objects;
}

bool IsDesignFile(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  return in && std::getline(in, first) && first.rfind(kDesignHeader, 0) == 0;
}

int InspectDesign(const std::string& path) {
  const auto objects = ReadDesignFile(path);
  std::cout << "design " << path << ": " << objects.size() << " hulls, each in its body's frame\n\n";
  std::cout << fmt::format("{:<16} {:>6} {:>13} {:>9} {:>12}  {}\n", "COLLIDER", "POINTS", "HULL_VERTICES", "TRIANGLES",
                           "VOLUME_M3", "EXTENT_M (min .. max)");
  for (const auto& [name, points] : objects) {
    PointsX3 p(static_cast<Eigen::Index>(points.size()), 3);
    for (std::size_t k = 0; k < points.size(); ++k) p.row(static_cast<Eigen::Index>(k)) = points[k].transpose();
    const ConvexHull hull = MakeConvexHull(p);
    const Vec3 lo = p.colwise().minCoeff().transpose(), hi = p.colwise().maxCoeff().transpose();
    std::cout << fmt::format("{:<16} {:>6} {:>13} {:>9} {:>12.4g}  ({:.4g}, {:.4g}, {:.4g}) .. ({:.4g}, {:.4g}, {:.4g})\n", name,
                             points.size(), hull.data->vertices.rows(), hull.data->triangles.size(), Volume(Shape(hull)),
                             lo.x(), lo.y(), lo.z(), hi.x(), hi.y(), hi.z());
  }
  return 0;
}

}  // namespace arena
