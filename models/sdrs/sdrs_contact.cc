#include "models/sdrs/sdrs_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/common/error.h"
#include "models/ipc/psd_projection.h"
#include "models/sdrs/collider_hulls.h"
#include "models/sdrs/point_set_distance.h"

namespace arena {

// Helpers in arena::sdrs: names local to a file must be unique within the unity build's batch.
namespace sdrs {
namespace {

// Pairs past the broad phase before the solves are spread over threads: below this the
// scheduling costs more than it saves (one box on the ground is one pair).
constexpr int kParallelPairs = 4;

// The largest per-axis gap between two AABBs: a lower bound on the distance of what they hold.
double BoxGap(const std::array<Vec3, 2>& a, const std::array<Vec3, 2>& b) {
  return std::max({(a[0] - b[1]).maxCoeff(), (b[0] - a[1]).maxCoeff(), 0.0});
}

// A separating plane (unit normal, world) through the middle of the gap between the hulls along
// their closest points' direction; false when they are not more than d0 apart.
bool MiddlePlane(const PointsX3& a, const PointsX3& b, double d0, Vec4* plane) {
  const PointSetSeparation sep = SeparatePointSets(a, b);
  if (sep.intersecting) return false;
  const Vec3 u = (sep.point_a - sep.point_b) / sep.distance;
  const double min_a = (a * u).minCoeff(), max_b = (b * u).maxCoeff();
  if (!(min_a - max_b > d0)) return false;
  *plane << u, -0.5 * (min_a + max_b);
  return true;
}

// Vertex clearance from a unit-normal plane: its distance beyond d0 / 2 on its side.
double Clearance(const Vec4& plane, const Vec3& x, double sign, double d0) {
  return sign * (plane.head<3>().dot(x) + plane(3)) - 0.5 * d0;
}

}  // namespace
}  // namespace sdrs

SdrsContact::SdrsContact(const std::vector<ColliderMesh>& meshes, const sdrs::HullPairOptions& options, double dt,
                         double friction_eps)
    : options_(options), dt_(dt), friction_eps_(friction_eps) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument("sdrs: " + why);
  if (!(dt > 0.0) || !(friction_eps > 0.0)) throw InvalidArgument("sdrs: dt and friction_eps must be > 0");
  for (const ColliderMesh& m : meshes) {
    hull_.push_back(sdrs::HullVertices(m.vertices));
    static_.push_back(m.body == kWorldBody);
    friction_coefficient_.push_back(m.friction);
  }
  world_.resize(meshes.size());
  box_.resize(meshes.size());
  // The scene's pair filter (Scene::CollisionPairs); two static meshes never move.
  for (int a = 0; a < static_cast<int>(meshes.size()); ++a) {
    for (int b : meshes[a].partners) {
      if (static_[a] && static_[b]) continue;
      Pair p;
      p.a = std::min(a, b);
      p.b = std::max(a, b);
      pairs_.push_back(std::move(p));
    }
  }
}

void SdrsContact::PoseHulls(const ContactConfiguration& x) {
  for (size_t m = 0; m < hull_.size(); ++m) {
    PointsX3& w = world_[m];
    w.resize(static_cast<int>(hull_[m].size()), 3);
    for (int i = 0; i < w.rows(); ++i) w.row(i) = x.world[m].row(hull_[m][i]);
    box_[m] = {w.colwise().minCoeff().transpose(), w.colwise().maxCoeff().transpose()};
  }
}

MeshPoint SdrsContact::PointOf(const ContactConfiguration& x, const Pair& p, int m) const {
  const int na = static_cast<int>(hull_[p.a].size());
  const int mesh = m < na ? p.a : p.b;
  const int vertex = hull_[mesh][m < na ? m : m - na];
  return {mesh, (*x.meshes)[mesh].vertices.row(vertex).transpose(), vertex};
}

std::vector<std::array<int, 2>> SdrsContact::CandidatePairs(const ContactConfiguration& x, bool brute_force) {
  PoseHulls(x);
  std::vector<std::array<int, 2>> out;
  const double reach = options_.PruningDistance();
  for (const Pair& p : pairs_) {
    if (brute_force) {
      if (sdrs::SeparatePointSets(world_[p.a], world_[p.b]).distance < reach) out.push_back({p.a, p.b});
    } else if (sdrs::BoxGap(box_[p.a], box_[p.b]) < reach) {
      out.push_back({p.a, p.b});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void SdrsContact::SolvePairs(DerivativeOrder order, bool project, bool twist) {
  sdrs::HullPairOptions options = options_;
  options.dense_hessian = !twist;
  auto solve = [&](int i) {
    Pair& p = pairs_[candidates_[i]];
    sdrs::HullPairResult& r = p.result;
    sdrs::ComputeHullPairPotential(world_[p.a], world_[p.b], order, options, &p.plane, &r, {!static_[p.a], !static_[p.b]});
    const bool curved = order == DerivativeOrder::kHessian && std::isfinite(r.value) && !r.active.empty();
    if (twist) p.twist = curved ? sdrs::HullPairTwistHessian(r, world_[p.a], world_[p.b], options_.kappa) : sdrs::Mat12::Zero();
    // Newton needs a descent direction: each pair's Hessian clamped to PSD (IPC's per-term
    // projection, models/ipc/psd_projection.h), on the moving vertices' block, or on the two
    // bodies' twists (12 x 12 whatever the vertex count).
    if (!project || !curved) return;
    if (twist) {
      p.twist = ipc::ProjectToPsd<Eigen::Dynamic>(MatX(p.twist));
    } else {
      r.hessian = ipc::ProjectToPsd<Eigen::Dynamic>(r.hessian);
    }
  };
  const int n = static_cast<int>(candidates_.size());
  if (max_threads_ == 1 || n < sdrs::kParallelPairs) {
    for (int i = 0; i < n; ++i) solve(i);
    return;
  }
  auto run = [&] { tbb::parallel_for(0, n, solve); };
  if (max_threads_ > 1) {
    tbb::task_arena arena(max_threads_);
    arena.execute(run);
  } else {
    run();
  }
}

double SdrsContact::Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) {
  PoseHulls(x);
  stats_ = {};
  candidates_.clear();
  const double reach = options_.PruningDistance();
  for (int i = 0; i < static_cast<int>(pairs_.size()); ++i) {
    if (sdrs::BoxGap(box_[pairs_[i].a], box_[pairs_[i].b]) < reach) candidates_.push_back(i);
  }
  const DerivativeOrder order = sink == nullptr ? DerivativeOrder::kValue
                                    : hessian       ? DerivativeOrder::kHessian
                                                    : DerivativeOrder::kGradient;
  const bool twist = order == DerivativeOrder::kHessian && sink->TakesTwistHessians();
  SolvePairs(order, project, twist);
  stats_.candidate_pairs = static_cast<int>(candidates_.size());
  double total = 0.0;
  // In pair order, whatever thread solved them: the sums do not depend on the thread count.
  for (int i : candidates_) {
    const Pair& p = pairs_[i];
    const sdrs::HullPairResult& r = p.result;
    if (r.status == sdrs::HullPairStatus::kIntersecting) return std::numeric_limits<double>::infinity();
    if (r.stats.iterations > 0) stats_.newton_trials += r.stats.iterations;
    if (r.stats.warm_started) ++stats_.warm_started_pairs;
    if (r.status == sdrs::HullPairStatus::kDampingLimit || r.status == sdrs::HullPairStatus::kMaxIterations) {
      ++stats_.unconverged_pairs;
    }
    if (!(r.value > 0.0)) continue;
    ++stats_.active_pairs;
    stats_.active_vertices += static_cast<int>(r.active.size());
    total += r.value;
    if (sink == nullptr) continue;
    const int k = static_cast<int>(r.active.size());
    for (int m : r.active) sink->AddGradient(PointOf(x, p, m), r.gradient.segment<3>(3 * m));
    if (twist) {
      const std::array<int, 2> mesh = {p.a, p.b};
      for (int s1 = 0; s1 < 2; ++s1) {
        for (int s2 = 0; s2 < 2; ++s2) {
          if (!static_[mesh[s1]] && !static_[mesh[s2]]) {
            sink->AddTwistHessian(mesh[s1], mesh[s2], p.twist.block<6, 6>(6 * s1, 6 * s2));
          }
        }
      }
      continue;
    }
    if (!hessian || r.hessian.rows() != 3 * k) continue;
    for (int i1 = 0; i1 < k; ++i1) {
      const MeshPoint pi = PointOf(x, p, r.active[i1]);
      for (int j1 = 0; j1 < k; ++j1) sink->AddHessian(pi, PointOf(x, p, r.active[j1]), r.hessian.block<3, 3>(3 * i1, 3 * j1));
    }
  }
  // The lagged friction (convex in x+: its Hessian needs no projection).
  const FrictionOutputs outputs = sink == nullptr ? FrictionOutputs::kValue
                                  : hessian       ? FrictionOutputs::kHessian
                                                  : FrictionOutputs::kGradient;
  for (FrictionPair& f : friction_) {
    EvaluateFriction(x, f, outputs);
    const PlaneFrictionResult<Eigen::Dynamic>& r = friction_result_;
    total += r.value;
    if (sink == nullptr) continue;
    const int k = static_cast<int>(f.vertices.size());
    for (int i1 = 0; i1 < k; ++i1) {
      if (!f.moving[i1]) continue;
      const MeshPoint pi = MeshPointOf(x, f.vertices[i1]);
      sink->AddGradient(pi, r.gradient.segment<3>(3 * i1));
      if (!hessian) continue;
      for (int j1 = 0; j1 < k; ++j1) {
        if (f.moving[j1]) sink->AddHessian(pi, MeshPointOf(x, f.vertices[j1]), r.hessian.block<3, 3>(3 * i1, 3 * j1));
      }
    }
  }
  return total;
}

// ---------------------------------------------------------------- friction (Sec. IV-C)

void SdrsContact::BeginStep(const ContactConfiguration& start) {
  friction_.clear();
  PoseHulls(start);
  const double reach = options_.PruningDistance();
  sdrs::HullPairResult& r = scratch_;
  for (int pi = 0; pi < static_cast<int>(pairs_.size()); ++pi) {
    Pair& p = pairs_[pi];
    const double mu = std::min(friction_coefficient_[p.a], friction_coefficient_[p.b]);
    if (!(mu > 0.0) || !(sdrs::BoxGap(box_[p.a], box_[p.b]) < reach)) continue;
    // The pair's plane at the start (the previous step's end, its warm start: P is unique, so
    // only the cost changes), with both sides' derivatives: every active vertex is damped.
    sdrs::ComputeHullPairPotential(world_[p.a], world_[p.b], DerivativeOrder::kHessian, options_, &p.plane, &r);
    if (!(r.value > 0.0) || !std::isfinite(r.value) || r.active.empty()) continue;
    FrictionPair f;
    f.pair = pi;
    const int k = static_cast<int>(r.active.size());
    const int na = static_cast<int>(hull_[p.a].size());
    const Vec3 n = r.plane.head<3>();
    const double norm = n.norm();
    f.input.normal = n / norm;
    f.input.dt = dt_;
    f.input.eps = friction_eps_;
    f.dweight_dx.setZero(k, 3 * k);
    // The Hessian's rows give the weights' derivatives: w_v = mu |dP/dx_v| = mu kappa |f'(s_v)| |n|.
    for (int i = 0; i < k; ++i) {
      const int m = r.active[i];
      const int mesh = m < na ? p.a : p.b;
      const int local = m < na ? m : m - na;
      f.vertices.push_back({mesh, hull_[mesh][local]});
      f.moving.push_back(!static_[mesh]);
      f.input.x_start.push_back(world_[mesh].row(local).transpose());
      const Vec3 g = r.gradient.segment<3>(3 * m);
      const double gn = g.norm();
      f.input.weight.push_back(mu * gn);
      if (gn > 0.0) f.dweight_dx.row(i) = mu * (g / gn).transpose() * r.hessian.middleRows<3>(3 * i);
    }
    f.input.derivatives = f.moving;
    // The unit normal's derivative, from dp*/dx on the active vertices' columns.
    f.dnormal_dx.resize(3, 3 * k);
    const Mat3 project = (Mat3::Identity() - f.input.normal * f.input.normal.transpose()) / norm;
    for (int i = 0; i < k; ++i) {
      f.dnormal_dx.middleCols<3>(3 * i) = project * r.dplane_dx.block<3, 3>(0, 3 * r.active[i]);
    }
    friction_.push_back(std::move(f));
  }
}

MeshPoint SdrsContact::MeshPointOf(const ContactConfiguration& x, const std::pair<int, int>& vertex) const {
  return {vertex.first, (*x.meshes)[vertex.first].vertices.row(vertex.second).transpose(), vertex.second};
}

void SdrsContact::EvaluateFriction(const ContactConfiguration& x, FrictionPair& f, FrictionOutputs outputs) {
  PlaneFrictionInput<Eigen::Dynamic>& in = f.input;
  in.x_next.resize(f.vertices.size());
  for (size_t i = 0; i < f.vertices.size(); ++i) {
    in.x_next[i] = x.world[f.vertices[i].first].row(f.vertices[i].second).transpose();
  }
  in.outputs = outputs;
  in.start_velocity = &f.velocity;
  PlaneFriction(in, &friction_result_);
  f.velocity = friction_result_.plane_velocity;
}

void SdrsContact::StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) {
  for (FrictionPair& f : friction_) {
    EvaluateFriction(x, f, FrictionOutputs::kAll);
    const PlaneFrictionResult<Eigen::Dynamic>& r = friction_result_;
    // d(grad_x+ D)/dx_start: -Hessian (D depends on x+ - x_start) plus the lagged data's terms.
    MatX mixed = -r.hessian;
    mixed.noalias() += r.dgradient_dweight * f.dweight_dx;
    mixed.noalias() += r.dgradient_dnormal * f.dnormal_dx;
    const int k = static_cast<int>(f.vertices.size());
    for (int i = 0; i < k; ++i) {
      if (!f.moving[i]) continue;
      const MeshPoint pi = MeshPointOf(x, f.vertices[i]);
      for (int j = 0; j < k; ++j) {
        if (f.moving[j]) sink->AddMixed(pi, MeshPointOf(x, f.vertices[j]), mixed.block<3, 3>(3 * i, 3 * j));
      }
    }
  }
}

double SdrsContact::MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) {
  PoseHulls(x);
  double alpha = 1.0;
  for (const Pair& p : pairs_) {
    // Hulls farther apart than both can move need no plane.
    double reach = 0.0;
    for (int mesh : {p.a, p.b}) {
      double fastest = 0.0;
      for (int v : hull_[mesh]) fastest = std::max(fastest, displacement[mesh].row(v).norm());
      reach += fastest;
    }
    if (!(reach > 0.0) || sdrs::BoxGap(box_[p.a], box_[p.b]) > reach) continue;
    Vec4 plane;
    if (!sdrs::MiddlePlane(world_[p.a], world_[p.b], options_.d0, &plane)) return 0.0;
    // A vertex whose clearance c shrinks at rate r along the chord keeps eta c up to
    // alpha = (1 - eta) c / r; vertices on their own sides of one plane keep convex hulls apart.
    for (int side = 0; side < 2; ++side) {
      const int mesh = side == 0 ? p.a : p.b;
      const double sign = side == 0 ? 1.0 : -1.0;
      for (size_t i = 0; i < hull_[mesh].size(); ++i) {
        const double rate = sign * plane.head<3>().dot(displacement[mesh].row(hull_[mesh][i]).transpose());
        if (!(rate < 0.0)) continue;
        const double c = sdrs::Clearance(plane, world_[mesh].row(i).transpose(), sign, options_.d0);
        alpha = std::min(alpha, (1.0 - kAdvancementEta) * c / -rate);
      }
    }
  }
  return std::max(alpha, 0.0);
}

namespace sdrs {
namespace {

// A plane (unit normal n, offset d; n.x + d) given in the frame of pose T, in the world.
Vec4 PlaneToWorld(const Vec4& local, const SE3& T) {
  const Vec3 n = T.rotation() * local.head<3>();
  Vec4 out;
  out << n, local(3) - n.dot(T.translation());
  return out;
}

// A world plane in the frame of pose T.
Vec4 PlaneToLocal(const Vec4& world, const SE3& T) {
  Vec4 out;
  out << T.rotation().transpose() * world.head<3>(), world(3) + world.head<3>().dot(T.translation());
  return out;
}

}  // namespace
}  // namespace sdrs

double SdrsContact::MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) {
  PoseHulls(x);
  tracked_vertices_.clear();
  tracked_.clear();
  // Per mesh, its fastest vertex in the world: pairs farther apart than both can close need
  // nothing more (any bound of the distance's rate is sound; the relative ones below cost more).
  fastest_.clear();
  for (const VecX& v : path.SpeedBounds()) fastest_.push_back(v.size() > 0 ? v.maxCoeff() : 0.0);
  for (const Pair& p : pairs_) {
    const double world_reach = AdvancementReach(fastest_[p.a], fastest_[p.b]);
    if (!(world_reach > 0.0) || sdrs::BoxGap(box_[p.a], box_[p.b]) > world_reach) continue;
    // When one body of the pair carries the other (two links of one chain), the plane rides on the
    // carrier: its vertices keep their clearances and only the other's motion relative to it
    // counts, not the whole chain's swing. Otherwise the plane is fixed in the world.
    const PairSpeeds speeds = PairSpeedBounds(x, path, p.a, p.b);
    const double reach = speeds.Reach();
    if (!(reach > 0.0) || sdrs::BoxGap(box_[p.a], box_[p.b]) > reach) continue;
    Vec4 plane;
    if (!sdrs::MiddlePlane(world_[p.a], world_[p.b], options_.d0, &plane)) return 0.0;
    for (int side = 0; side < 2; ++side) {
      const int mesh = side == 0 ? p.a : p.b;
      if (mesh == speeds.carrier) continue;  // moves with the plane
      // The plane oriented towards this side's vertices, in the world or in the carrier's frame.
      const Vec4 facing = side == 0 ? plane : Vec4(-plane);
      const Vec4 stored = speeds.carrier < 0 ? facing : sdrs::PlaneToLocal(facing, x.pose[speeds.carrier]);
      const VecX& bound = side == 0 ? *speeds.a : *speeds.b;
      for (size_t i = 0; i < hull_[mesh].size(); ++i) {
        TrackedDistance t;
        t.speed = bound.size() > hull_[mesh][i] ? bound[hull_[mesh][i]] : 0.0;
        t.d0 = t.d = sdrs::Clearance(facing, world_[mesh].row(i).transpose(), 1.0, options_.d0);
        if (!NeedsTracking(t.d0, t.speed)) continue;
        t.id = static_cast<int>(tracked_vertices_.size());
        tracked_vertices_.push_back({stored, mesh, hull_[mesh][i], speeds.carrier});
        tracked_.push_back(t);
      }
    }
  }
  // Everything a measurement reads sits in its TrackedVertex (hundreds of thousands of them are
  // measured several times a line search on forty-link chains).
  return AdvanceConservatively(
      &tracked_, path, &path_point_,
      [this](const ContactConfiguration& at, int id) {
        const TrackedVertex& t = tracked_vertices_[id];
        const Vec4 plane = t.anchor < 0 ? t.plane : sdrs::PlaneToWorld(t.plane, at.pose[t.anchor]);
        return sdrs::Clearance(plane, at.world[t.mesh].row(t.vertex).transpose(), 1.0, options_.d0);
      },
      &advancement_);
}

void SdrsContact::PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) {
  out->clear();
  PoseHulls(x);
  const double reach = options_.PruningDistance();
  for (const Pair& p : pairs_) {
    if (!(sdrs::BoxGap(box_[p.a], box_[p.b]) < reach)) continue;
    // A cold solve into scratch: measuring must not move the pairs' warm starts.
    sdrs::ComputeHullPairPotential(world_[p.a], world_[p.b], DerivativeOrder::kGradient, options_, nullptr,
                                   &scratch_);
    if (!(scratch_.value > 0.0) || !std::isfinite(scratch_.value)) continue;
    const bool a_moves = !static_[p.a];
    const int side = a_moves ? p.a : p.b;
    const int na = static_cast<int>(hull_[p.a].size());
    MeshPairContact c{side, a_moves ? p.b : p.a};
    double carried = 0.0;
    for (int m : scratch_.active) {
      if ((m < na) != a_moves) continue;
      const Vec3 force = -scratch_.gradient.segment<3>(3 * m);
      const double w = force.norm();
      c.repulsion_on_a += force;
      c.point_a += w * world_[side].row(a_moves ? m : m - na).transpose();
      carried += w;
    }
    if (!(carried > 0.0)) continue;
    c.point_a /= carried;
    // The lagged friction's force on the same side (its plane velocities put back after).
    for (FrictionPair& f : friction_) {
      if (pairs_[f.pair].a != p.a || pairs_[f.pair].b != p.b) continue;
      const Vec3 velocity = f.velocity;
      EvaluateFriction(x, f, FrictionOutputs::kGradient);
      f.velocity = velocity;
      for (size_t i = 0; i < f.vertices.size(); ++i) {
        if (f.vertices[i].first == side) c.friction_on_a -= friction_result_.gradient.segment<3>(3 * i);
      }
    }
    out->push_back(c);
  }
}

}  // namespace arena
