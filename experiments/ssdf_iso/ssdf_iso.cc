#include "experiments/ssdf_iso/ssdf_iso.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/scm/smooth_collision.h"

namespace arena {

namespace ssdf_iso {

using Cloud = scm::WorldCloud<double>;

// Patches tiling the edges of the box [-hx, hx] x [-hy, hy] (z = 0), each at most `spacing` long.
Cloud BoxOutline(double hx, double hy, double spacing) {
  Cloud c;
  const auto edge = [&](const Vec3& from, const Vec3& to, const Vec3& normal) {
    const int n = std::max(1, static_cast<int>(std::ceil((to - from).norm() / spacing - 1e-9)));
    for (int k = 0; k < n; ++k) {
      c.p.push_back(from + (k + 0.5) / n * (to - from));
      c.n.push_back(normal);
      c.v.push_back(Vec3::Zero());
    }
  };
  edge({hx, -hy, 0}, {hx, hy, 0}, Vec3::UnitX());
  edge({-hx, hy, 0}, {-hx, -hy, 0}, -Vec3::UnitX());
  edge({hx, hy, 0}, {-hx, hy, 0}, Vec3::UnitY());
  edge({-hx, -hy, 0}, {hx, -hy, 0}, -Vec3::UnitY());
  return c;
}

// The radius of the SSDF's zero crossing along direction u: bracketed by doubling, then bisected
// to 1e-12 of the radius; NaN when the SSDF stays negative out to 1e3 (no contour that way).
double ContourRadius(const Cloud& cloud, const Vec3& u, double eps1, scm::SoftmaxTerms<double>* scratch) {
  const auto f = [&](double r) { return scm::Ssdf(cloud, Vec3(r * u), eps1, scratch); };
  double lo = 0.0, hi = 1e-2;
  while (f(hi) <= 0.0) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e3) return std::numeric_limits<double>::quiet_NaN();
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

// Distance from p to the outline of the box (inside or outside).
double BoxOutlineDistance(double hx, double hy, double x, double y) {
  const double dx = std::abs(x) - hx, dy = std::abs(y) - hy;
  if (dx <= 0.0 && dy <= 0.0) return std::min(-dx, -dy);
  return std::hypot(std::max(dx, 0.0), std::max(dy, 0.0));
}

double SegmentDistance(double px, double py, double ax, double ay, double bx, double by) {
  const double ux = bx - ax, uy = by - ay, l2 = ux * ux + uy * uy;
  const double t = l2 > 0.0 ? std::clamp(((px - ax) * ux + (py - ay) * uy) / l2, 0.0, 1.0) : 0.0;
  return std::hypot(px - ax - t * ux, py - ay - t * uy);
}

// Two-sided Hausdorff distance between the closed polygon (xs, ys) and the box outline, the box
// side sampled at 4000 points.
double HausdorffToBox(const std::vector<double>& xs, const std::vector<double>& ys, double hx, double hy) {
  double d = 0.0;
  for (std::size_t k = 0; k < xs.size(); ++k) d = std::max(d, BoxOutlineDistance(hx, hy, xs[k], ys[k]));
  const int n = 4000;
  const double perimeter = 4.0 * (hx + hy);
  for (int k = 0; k < n; ++k) {
    double s = perimeter * k / n, bx = 0.0, by = 0.0;
    if (s < 2 * hx) { bx = -hx + s; by = -hy; }
    else if ((s -= 2 * hx) < 2 * hy) { bx = hx; by = -hy + s; }
    else if ((s -= 2 * hy) < 2 * hx) { bx = hx - s; by = hy; }
    else { s -= 2 * hx; bx = -hx; by = hy - s; }
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < xs.size(); ++j) {
      const std::size_t i = (j + 1) % xs.size();
      nearest = std::min(nearest, SegmentDistance(bx, by, xs[j], ys[j], xs[i], ys[i]));
    }
    d = std::max(d, nearest);
  }
  return d;
}

struct Ellipse {
  double a = 0.0, b = 0.0;
};

// Least squares of x^2 A + y^2 B = 1 over the contour: a = 1 / sqrt(A), b = 1 / sqrt(B).
Ellipse FitEllipse(const std::vector<double>& xs, const std::vector<double>& ys) {
  Eigen::Matrix2d N = Eigen::Matrix2d::Zero();
  Eigen::Vector2d r = Eigen::Vector2d::Zero();
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const Eigen::Vector2d row(xs[k] * xs[k], ys[k] * ys[k]);
    N += row * row.transpose();
    r += row;
  }
  const Eigen::Vector2d c = N.ldlt().solve(r);
  return {1.0 / std::sqrt(c[0]), 1.0 / std::sqrt(c[1])};
}

// The largest difference between the contour's radius and the ellipse's along the same ray.
double RadialDistance(const std::vector<double>& xs, const std::vector<double>& ys, const Ellipse& e) {
  double d = 0.0;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const double r = std::hypot(xs[k], ys[k]);
    const double c = xs[k] / r, s = ys[k] / r;
    d = std::max(d, std::abs(r - 1.0 / std::sqrt(c * c / (e.a * e.a) + s * s / (e.b * e.b))));
  }
  return d;
}

// The config's keys and a case's parameters (its columns are listed in columns(), in the CSV's order).
struct SsdfIsoSettings {
  std::vector<double> half_extents_m;
  std::int64_t angles = 0;
  std::vector<double> temperatures_m2;
  double eps1_m2 = 0.0;
  double half_x_m = 0.0, half_y_m = 0.0;
  double patch_size_m = 0.0;
  std::int64_t angle_count = 0;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("half_extents_m", half_extents_m, "the box's half extents (x, y)", "m", Closed(1e-3, 100.0), kConfig);
    v("patch_size_m", patch_size_m, "largest patch length along an edge (m)", "m", Closed(1e-4, 100.0));
    v("angles", angles, "rays from the box's centre", "", Closed(8, 100'000), kConfig);
    v("temperatures_m2", temperatures_m2, "the SSDF temperatures eps1 (the axis)", "m^2", Closed(1e-12, 1e6), kConfig);
    v("eps1_m2", eps1_m2, "SSDF temperature eps1", "m^2", std::nullopt, kCase);
    v("half_x_m", half_x_m, "the box's half extent along x (m)", "m", std::nullopt, kCase);
    v("half_y_m", half_y_m, "the box's half extent along y (m)", "m", std::nullopt, kCase);
    v("angle_count", angle_count, "rays from the box's centre along which the contour is found", "", std::nullopt,
      kCase);
  }
};

}  // namespace ssdf_iso

std::vector<Column> SsdfIsoExperiment::columns() const {
  return {
      {"record", "contour (one point of the zero iso-contour) or summary (one per temperature)", false, ColumnType::kText},
      {"eps1_m2", "SSDF temperature eps1 (m^2): the softmax over squared distances to the patch centres"},
      {"half_x_m", "the box's half extent along x (m)"},
      {"half_y_m", "the box's half extent along y (m)"},
      {"patch_size_m", "largest patch length along an edge (m)"},
      {"patches", "patches of the outline"},
      {"angle_count", "rays from the box's centre along which the contour is found"},
      {"angle_rad", "the ray's angle (contour rows)"},
      {"x_m", "the contour point (contour rows)"},
      {"y_m", "the contour point (contour rows)"},
      {"box_hausdorff_m", "two-sided Hausdorff distance between the contour and the box outline (summary)"},
      {"ellipse_a_m", "semi-axis along x of the ellipse fitted to the contour (summary)"},
      {"ellipse_b_m", "semi-axis along y (summary)"},
      {"ellipse_distance_m", "largest radial distance between the contour and that ellipse (summary)"},
      {"missing_rays", "rays along which the SSDF never turned positive (no contour)"},
  };
}

Sweep SsdfIsoExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<ssdf_iso::SsdfIsoSettings>(config);
  const std::vector<double>& half = settings.half_extents_m;
  if (half.size() != 2) throw InvalidArgument(config.file() + ": half_extents_m: give two numbers (x, y)");
  Sweep sweep;
  for (const std::string& model : models) {
    if (model != "scm") {
      sweep.notes.push_back(model + ": skipped (ssdf_iso draws scm's SSDF only)");
      continue;
    }
    for (double eps : settings.temperatures_m2) {
      Case c;
      c.index = static_cast<int>(sweep.cases.size());
      c.model = model;
      c.id = model + "/eps1=" + FormatValue(eps);
      ssdf_iso::SsdfIsoSettings one = settings;
      one.eps1_m2 = eps;
      one.half_x_m = half[0];
      one.half_y_m = half[1];
      one.angle_count = settings.angles;
      c.params = CaseParams(one);
      c.seed = DeriveSeed(name(), c.id);
      sweep.cases.push_back(std::move(c));
    }
  }
  return sweep;
}

std::vector<Row> SsdfIsoExperiment::Run(const Case& c) const {
  using namespace ssdf_iso;
  const auto settings = DecodeSettings<SsdfIsoSettings>(c);
  const double hx = settings.half_x_m, hy = settings.half_y_m, eps = settings.eps1_m2;
  const Cloud cloud = BoxOutline(hx, hy, settings.patch_size_m);
  const int n = static_cast<int>(settings.angle_count);
  std::vector<Row> rows;
  std::vector<double> xs, ys;
  scm::SoftmaxTerms<double> scratch;
  std::int64_t missing = 0;
  for (int k = 0; k < n; ++k) {
    const double theta = 2.0 * M_PI * k / n;
    const double r = ContourRadius(cloud, Vec3(std::cos(theta), std::sin(theta), 0.0), eps, &scratch);
    if (!std::isfinite(r)) {
      ++missing;
      continue;
    }
    xs.push_back(r * std::cos(theta));
    ys.push_back(r * std::sin(theta));
    rows.push_back({{"record", std::string("contour")}, {"angle_rad", theta}, {"x_m", xs.back()}, {"y_m", ys.back()}});
  }
  Row summary{{"record", std::string("summary")}, {"patches", static_cast<std::int64_t>(cloud.size())},
              {"missing_rays", missing}};
  if (missing == 0) {
    const Ellipse e = FitEllipse(xs, ys);
    summary["box_hausdorff_m"] = HausdorffToBox(xs, ys, hx, hy);
    summary["ellipse_a_m"] = e.a;
    summary["ellipse_b_m"] = e.b;
    summary["ellipse_distance_m"] = RadialDistance(xs, ys, e);
  }
  rows.push_back(summary);
  return rows;
}

std::vector<ClaimResult> SsdfIsoExperiment::Summarize(const ResultTable& table) const {
  const ResultTable s = table.Filter("record", "summary");
  int smallest = -1, largest = -1;
  for (int i = 0; i < s.num_rows(); ++i) {
    if (!std::isfinite(s.Number(i, "box_hausdorff_m"))) continue;
    if (smallest < 0 || s.Number(i, "eps1_m2") < s.Number(smallest, "eps1_m2")) smallest = i;
    if (largest < 0 || s.Number(i, "eps1_m2") > s.Number(largest, "eps1_m2")) largest = i;
  }
  if (smallest < 0 || smallest == largest) return {};
  ClaimResult r{"ssdf_iso.interpolation"};
  r.ours = s.Number(smallest, "box_hausdorff_m");
  r.values = {{"box_distance_largest_eps", s.Number(largest, "box_hausdorff_m")},
              {"ellipsoid_distance_largest_eps", s.Number(largest, "ellipse_distance_m")},
              {"smallest_eps1_m2", s.Number(smallest, "eps1_m2")},
              {"largest_eps1_m2", s.Number(largest, "eps1_m2")}};
  r.note = "Hausdorff distance to the box " + FormatShort(r.ours) + " m at eps1 = " + FormatShort(s.Number(smallest, "eps1_m2")) +
           " m^2; at eps1 = " + FormatShort(s.Number(largest, "eps1_m2")) + " m^2: " +
           FormatShort(s.Number(largest, "box_hausdorff_m")) + " m from the box, " +
           FormatShort(s.Number(largest, "ellipse_distance_m")) + " m (radially) from the fitted ellipse";
  return {r};
}

}  // namespace arena
