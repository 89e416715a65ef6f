#include "experiments/common/sweeps/snapshot_rollout.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "models/point_contact/contact_kernels.h"
#include "experiments/common/meters/metrics.h"

namespace arena {

namespace {

// Points of a 2D shape's boundary in its own frame.
std::vector<Vec2> Outline(const Shape& shape) {
  std::vector<Vec2> pts;
  auto arc = [&](const Vec2& c, double r, double a0, double a1) {
    const int n = std::max(2, static_cast<int>(std::ceil((a1 - a0) / (std::numbers::pi / 16))));
    for (int i = 0; i <= n; ++i) {
      const double a = a0 + (a1 - a0) * i / n;
      pts.push_back(c + r * Vec2(std::cos(a), std::sin(a)));
    }
  };
  if (const auto* p = std::get_if<Polygon2>(&shape)) {
    const auto& V = p->vertices;
    const int n = static_cast<int>(V.rows());
    for (int i = 0; i < n; ++i) {
      const Vec2 v = V.row(i).transpose();
      if (p->radius <= 0.0) {
        pts.push_back(v);
        continue;
      }
      // Rounded corner between the outward normals of the edges before and after v (CCW).
      const Vec2 prev = V.row((i + n - 1) % n).transpose(), next = V.row((i + 1) % n).transpose();
      const Vec2 e0 = v - prev, e1 = next - v;
      double a0 = std::atan2(-e0.x(), e0.y()), a1 = std::atan2(-e1.x(), e1.y());
      if (a1 < a0) a1 += 2 * std::numbers::pi;
      arc(v, p->radius, a0, a1);
    }
  } else if (const auto* d = std::get_if<Disk2>(&shape)) {
    arc(Vec2::Zero(), d->radius, 0.0, 2 * std::numbers::pi);
  } else if (const auto* c = std::get_if<Capsule2>(&shape)) {
    arc(Vec2(c->half_length, 0), c->radius, -std::numbers::pi / 2, std::numbers::pi / 2);
    arc(Vec2(-c->half_length, 0), c->radius, std::numbers::pi / 2, 3 * std::numbers::pi / 2);
  }
  return pts;
}

}  // namespace

std::string PlanarOutlines(const Scene& scene, const VecX& q) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  std::ostringstream out;
  out.precision(6);
  bool first = true;
  for (const Collider& c : scene.colliders) {
    const SE3 X = contact::ColliderPose(data, c);
    const Vec2 t = X.translation().head<2>();
    const Mat2 R = X.rotation().topLeftCorner<2, 2>();
    if (!first) out << '|';
    first = false;
    if (std::holds_alternative<HalfPlane2>(c.shape)) {
      const Vec2 n = R.col(1);
      out << "halfplane " << t.x() << ' ' << t.y() << ' ' << n.x() << ' ' << n.y();
      continue;
    }
    const std::vector<Vec2> pts = Outline(c.shape);
    for (size_t i = 0; i < pts.size(); ++i) {
      const Vec2 w = R * pts[i] + t;
      out << (i ? ";" : "") << w.x() << ' ' << w.y();
    }
  }
  return out.str();
}

std::vector<Column> SnapshotColumns() {
  return {
      {"frame", "snapshot index"},
      {"step", "steps taken"},
      {"time_s", "simulated time"},
      {"contacts_reported", "contacts the model reported active in its last step"},
      {"contacts_geometric", "collider pairs closer than 1 mm (our geometry)"},
      {"penetration_m", "current largest penetration (our geometry)"},
      {"max_penetration_m", "largest penetration so far"},
      {"failed_steps", "steps so far whose solver did not converge"},
      {"failure", "why the rollout failed, so far: a non-finite state (which stops it), an impossible outcome (a body "
                  "through another, energy gained, escaped), no step, or, on the last row, a body that never came down", false, ColumnType::kText},
      {"mean_iterations", "mean solver iterations per step so far"},
      {"outlines", "world outlines of the colliders (for the figure)", false, ColumnType::kText},
  };
}

std::vector<Row> SnapshotRollout(const Scene& scene, Simulator& sim, State state, int steps, int every,
                                 const OutcomeLimits& limits) {
  MultibodyData data(scene.model);
  OutcomeMonitor outcome(scene, state, limits);
  std::vector<Row> rows;
  int failed = 0, contacts = 0;
  double max_penetration = 0.0, sum_iterations = 0.0;
  std::string failure;
  auto snapshot = [&](int k) {
    const std::vector<double> d = PairSignedDistances(scene, data, state.q);
    int geometric = 0;
    double penetration = 0.0;
    for (double x : d) {
      if (x < kContactDistance) ++geometric;
      penetration = std::max(penetration, -x);
    }
    max_penetration = std::max(max_penetration, penetration);
    Row r;
    r["frame"] = static_cast<std::int64_t>(rows.size());
    r["step"] = std::int64_t{k};
    r["time_s"] = k * sim.timestep();
    r["contacts_reported"] = std::int64_t{contacts};
    r["contacts_geometric"] = std::int64_t{geometric};
    r["penetration_m"] = penetration;
    r["max_penetration_m"] = max_penetration;
    r["failed_steps"] = std::int64_t{failed};
    r["failure"] = failure;
    r["mean_iterations"] = k > 0 ? sum_iterations / k : 0.0;
    r["outlines"] = PlanarOutlines(scene, state.q);
    rows.push_back(std::move(r));
  };
  snapshot(0);
  int k = 0;
  bool stopped = false;
  while (k < steps && !stopped) {
    const StepReport report = sim.Step(state, Control{});
    ++k;
    sum_iterations += report.iterations;
    contacts = report.contacts;
    if (report.status == StepStatus::kNotConverged) ++failed;
    if (report.ends_run()) {
      if (failure.empty()) failure = std::string(ToString(report.status)) + " at step " + std::to_string(k) + ": " + report.message;
      stopped = true;
    }
    if (!stopped) {
      // Track penetration at every step, not only at snapshots.
      for (double x : PairSignedDistances(scene, data, state.q)) max_penetration = std::max(max_penetration, -x);
      // An impossible outcome fails the rollout; it goes on, as after a step that did not
      // converge, so the figure shows what the model did.
      if (std::string why = outcome.Observe(state); failure.empty() && !why.empty()) {
        failure = "at step " + std::to_string(k) + ": " + why;
      }
    }
    if (k % every == 0 || k == steps || stopped) snapshot(k);
  }
  if (failure.empty()) {
    failure = steps < 1 ? "no step ran: steps = " + std::to_string(steps) : outcome.Finish();
    rows.back()["failure"] = failure;
  }
  return rows;
}

}  // namespace arena
