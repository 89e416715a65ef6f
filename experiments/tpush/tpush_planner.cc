#include "experiments/tpush/tpush_planner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "core/common/error.h"
#include "experiments/tpush/tpush_rollout.h"
#include "models/registry.h"
#include "solvers/cross_entropy.h"
#include "scenes/tpush_scenes.h"

namespace arena {

namespace tpush_planner {

constexpr int kPushes = 2;
constexpr int kFaces = 8;
constexpr int kPerPush = 3;               // point along the face, direction, depth (each in [0, 1])
constexpr double kAlphaMax = 0.5;         // rad: the push's angle to the inward normal
constexpr double kDepthMin = 0.01, kDepthMax = 0.12;  // m, finger travel beyond first touch
constexpr double kSafeRadius = 0.2;       // m, the circle the finger goes round on (the T reaches 0.14)
constexpr double kStandoff = 0.03;        // m, the approach starts this far from the face
constexpr double kClearance = 0.005;      // m, the route's least gap to the T
constexpr double kTravelSpeed = 0.3, kPushSpeed = 0.08, kRetreatSpeed = 0.15;  // m/s
constexpr double kDwell = 0.3;            // s at the retreat point before the next push
constexpr double kInfeasible = 1e4, kTooFewContacts = 100.0;
const Vec2 kFingerStart(0.0, -0.3);

struct Face {
  Vec2 a, b, n;  // ends and outward normal, T frame
};

// The T's eight outer faces: bar top, bar ends, the bar's underside either side of the stem,
// stem sides, stem foot.
std::array<Face, kFaces> Faces() {
  const Vec2 B = TPushBarCentre().head<2>(), S = TPushStemCentre().head<2>();
  const double bx = 0.5 * kTPushBarLength, by = 0.5 * kTPushBarWidth;
  const double sx = 0.5 * kTPushStemWidth, sy = 0.5 * kTPushStemLength;
  return {{
      {B + Vec2(-bx, by), B + Vec2(bx, by), Vec2(0, 1)},
      {B + Vec2(bx, -by), B + Vec2(bx, by), Vec2(1, 0)},
      {B + Vec2(-bx, -by), B + Vec2(-bx, by), Vec2(-1, 0)},
      {B + Vec2(sx, -by), B + Vec2(bx, -by), Vec2(0, -1)},
      {B + Vec2(-bx, -by), B + Vec2(-sx, -by), Vec2(0, -1)},
      {S + Vec2(sx, -sy), S + Vec2(sx, sy), Vec2(1, 0)},
      {S + Vec2(-sx, -sy), S + Vec2(-sx, sy), Vec2(-1, 0)},
      {S + Vec2(-sx, -sy), S + Vec2(sx, -sy), Vec2(0, -1)},
  }};
}

struct Push {
  int face = 0;
  double along = 0.5, angle = 0.5, depth = 0.5;  // each in [0, 1]
};

Vec2 Rotate(double angle, const Vec2& x) { return Eigen::Rotation2Dd(angle) * x; }
Vec2 OnCircle(const Vec2& centre, double angle) { return centre + kSafeRadius * Vec2(std::cos(angle), std::sin(angle)); }

// Whether the segment keeps the finger clear of the T at `pose`.
bool Clear(const Vec3& pose, const Vec2& from, const Vec2& to) {
  const int n = 1 + static_cast<int>((to - from).norm() / 0.005);
  for (int k = 0; k <= n; ++k) {
    if (TPushDistance(pose, from + (to - from) * k / n) - kTPushFingerRadius < kClearance) return false;
  }
  return true;
}

// From `from` round the T to `to` on the safe circle (either way round; the shorter clear one).
bool Route(const Vec3& pose, const Vec2& from, const Vec2& to, std::vector<Vec2>* out) {
  const Vec2 c = pose.head<2>();
  const double a0 = std::atan2(from.y() - c.y(), from.x() - c.x());
  double sweep = std::remainder(std::atan2(to.y() - c.y(), to.x() - c.x()) - a0, 2.0 * M_PI);
  for (int attempt = 0; attempt < 2; ++attempt, sweep -= std::copysign(2.0 * M_PI, sweep)) {
    const int n = 1 + static_cast<int>(std::abs(sweep) / (M_PI / 9.0));  // a waypoint every <= 20 degrees
    std::vector<Vec2> route{from};
    for (int k = 0; k <= n; ++k) route.push_back(OnCircle(c, a0 + sweep * k / n));
    route.push_back(to);
    bool clear = true;
    for (std::size_t k = 1; k < route.size() && clear; ++k) clear = Clear(pose, route[k - 1], route[k]);
    if (clear) {
      out->assign(route.begin() + 1, route.end());
      return true;
    }
  }
  return false;
}

void Append(std::vector<FingerWaypoint>* path, const Vec2& to, double speed) {
  const FingerWaypoint& last = path->back();
  path->push_back({last.t + std::max((to - last.target).norm() / speed, 0.05), to});
}

// The finger's path for one push on the T at `pose`, appended to `path`; false when no route to
// the approach point stays clear of the T.
bool AppendPush(const Vec3& pose, const Push& p, std::vector<FingerWaypoint>* path) {
  const Face& f = Faces()[static_cast<std::size_t>(p.face)];
  const Vec2 touch = pose.head<2>() + Rotate(pose.z(), f.a + p.along * (f.b - f.a));
  const Vec2 d = Rotate(pose.z() + (2.0 * p.angle - 1.0) * kAlphaMax, -f.n);
  const double depth = kDepthMin + p.depth * (kDepthMax - kDepthMin);
  const Vec2 approach = touch - (kTPushFingerRadius + kStandoff) * d;
  std::vector<Vec2> route;
  if (!Route(pose, path->back().target, approach, &route)) return false;
  for (const Vec2& x : route) Append(path, x, kTravelSpeed);
  Append(path, touch + (depth - kTPushFingerRadius) * d, kPushSpeed);
  Append(path, approach, kRetreatSpeed);
  path->push_back({path->back().t + kDwell, approach});
  return true;
}

double Wrap(double angle) { return std::remainder(angle, 2.0 * M_PI); }

// The planner's search space for the cross-entropy method (solvers/cross_entropy.h): per push,
// the face as a number in [0, 8) (its floor picks the face) and the point along it, the angle
// and the depth in [0, 1]. The loss replays the plan on mujoco.
class PlanObjective final : public Objective {
 public:
  PlanObjective(const Vec3& goal, const PushPlannerOptions& options)
      : goal_(goal), sim_(MakeSimulator("mujoco", TPushScene(), {{"timestep", std::to_string(options.timestep)}})) {}

  int dimension() const override { return kPushes * (1 + kPerPush); }
  VecX lower() const override { return VecX::Zero(dimension()); }
  VecX upper() const override {
    VecX u = VecX::Ones(dimension());
    for (int j = 0; j < kPushes; ++j) u[j * (1 + kPerPush)] = kFaces;
    return u;
  }
  double Evaluate(const VecX& x, VecX* gradient) override {
    (void)gradient;
    ++evaluations_;
    return Plan(x).cost;
  }
  std::int64_t evaluations() const override { return evaluations_; }
  std::int64_t gradient_evaluations() const override { return 0; }

  // The plan x stands for, replayed: its path, where the T ends and its cost.
  PlannedPushes Plan(const VecX& x) {
    PlannedPushes out;
    out.sequence.goal = goal_;
    std::vector<FingerWaypoint>& path = out.sequence.path;
    path.push_back({0.0, kFingerStart});
    for (int j = 0; j < kPushes; ++j) {
      const VecX xj = x.segment(j * (1 + kPerPush), 1 + kPerPush);
      const Push push{std::min(kFaces - 1, static_cast<int>(xj[0])), xj[1], xj[2], xj[3]};
      // The T where this push starts: replayed on mujoco up to the end of the path so far.
      const Vec3 pose = j == 0 ? Vec3::Zero() : RollOutPushes(*sim_, out.sequence, {0.0, 0.0, path.back().t}).final_pose;
      if (!pose.allFinite() || !AppendPush(pose, push, &path)) {
        out.cost = kInfeasible;
        return out;
      }
    }
    const TPushRollout r = RollOutPushes(*sim_, out.sequence);
    if (r.diverged) {
      out.cost = kInfeasible;
      return out;
    }
    out.reached = r.final_pose;
    out.contacts_made = r.contacts_made;
    out.contacts_broken = r.contacts_broken;
    out.cost = (r.final_pose.head<2>() - goal_.head<2>()).norm() / 0.01 +
               std::abs(Wrap(r.final_pose.z() - goal_.z())) / (5.0 * M_PI / 180.0);
    if (r.contacts_made < kPushes || r.contacts_broken < kPushes) out.cost += kTooFewContacts;
    return out;
  }

 private:
  Vec3 goal_;
  std::unique_ptr<Simulator> sim_;
  std::int64_t evaluations_ = 0;
};

std::string Describe(const PlannedPushes& p) {
  std::ostringstream s;
  s.precision(3);
  s << "cost " << p.cost << ", reached (" << p.reached.x() << ", " << p.reached.y() << ") m, "
    << p.reached.z() * 180.0 / M_PI << " deg; contact made " << p.contacts_made << ", broken " << p.contacts_broken;
  return s.str();
}

}  // namespace tpush_planner

std::vector<Vec3> DefaultPushGoals() {
  const double deg = M_PI / 180.0;
  return {Vec3(0.10, 0.05, 30 * deg), Vec3(-0.08, 0.10, -45 * deg), Vec3(0.05, 0.15, 60 * deg),
          Vec3(0.12, -0.05, -30 * deg), Vec3(-0.10, -0.08, 45 * deg)};
}

std::vector<PlannedPushes> PlanPushSequences(const std::vector<Vec3>& goals, const PushPlannerOptions& options,
                                             const std::function<void(const std::string&)>& progress) {
  using namespace tpush_planner;
  CemOptions cem;
  cem.population = options.population;
  cem.elites = std::min(options.elites, options.population);
  cem.initial_std = 0.5;
  OptimizerBudget budget;
  budget.max_iterations = options.iterations;
  std::vector<PlannedPushes> out;
  for (std::size_t g = 0; g < goals.size(); ++g) {
    PlanObjective objective(goals[g], options);
    // Start from the middle of every range (the face a number in [0, 8): 3.5 is the fourth).
    VecX x0 = VecX::Constant(objective.dimension(), 0.5);
    for (int j = 0; j < kPushes; ++j) x0[j * (1 + kPerPush)] = 0.5 * kFaces - 0.5;
    const OptimizerTrace trace = MinimizeCrossEntropy(objective, x0, cem, budget, options.seed + g);
    PlannedPushes best = objective.Plan(trace.best_x);
    best.sequence.index = static_cast<int>(g) + 1;
    if (progress) {
      progress("goal " + std::to_string(g + 1) + ": " + std::to_string(trace.iterations.size() - 1) + " iterations, " +
               std::to_string(objective.evaluations()) + " replays; best " + Describe(best));
    }
    out.push_back(std::move(best));
  }
  return out;
}

namespace tpush_planner {

// values[key] as an integer in [lo, hi]; InvalidArgument naming the option otherwise.
std::int64_t IntegerIn(const std::map<std::string, std::string>& values, const std::string& key, std::int64_t lo,
                       std::int64_t hi) {
  const std::string& text = values.at(key);
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < lo || v > hi) {
    throw InvalidArgument("plan-pushes: --" + key + " " + text + ": not an integer in [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "]");
  }
  return v;
}

int PlanPushes(const std::map<std::string, std::string>& values, const std::function<void(const std::string&)>& log) {
  PushPlannerOptions options;
  options.population = static_cast<int>(IntegerIn(values, "population", 2, 10000));
  options.iterations = static_cast<int>(IntegerIn(values, "iterations", 1, 1000));
  options.seed = static_cast<std::uint64_t>(IntegerIn(values, "seed", 0, std::numeric_limits<std::int64_t>::max()));
  const std::string& out_file = values.at("out");
  const std::vector<PlannedPushes> planned = PlanPushSequences(DefaultPushGoals(), options, log);
  std::vector<PushSequence> sequences;
  for (const PlannedPushes& p : planned) sequences.push_back(p.sequence);
  std::ofstream out(out_file);
  out << FormatPushSequences(sequences);
  if (!out) throw Error("cannot write " + out_file);
  std::printf("wrote %zu sequences to %s\n", sequences.size(), out_file.c_str());
  return 0;
}

}  // namespace tpush_planner

ExperimentCommand PlanPushesCommand() {
  const PushPlannerOptions defaults;
  ExperimentCommand c;
  c.name = "plan-pushes";
  c.description = "Plan the tpush experiment's five finger sequences on mujoco (cross-entropy method) and write them as CSV";
  c.options = {{"out", "experiments/tpush/tpush_pushes.csv", "CSV to write (the experiment replays the committed copy)", true},
               {"population", std::to_string(defaults.population), "Samples per iteration, in [2, 10000]"},
               {"iterations", std::to_string(defaults.iterations), "Iterations per goal, in [1, 1000]"},
               {"seed", std::to_string(defaults.seed), "Random seed"}};
  c.run = tpush_planner::PlanPushes;
  return c;
}

}  // namespace arena
