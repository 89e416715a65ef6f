#include "models/longrange/longrange_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/common/deadline.h"
#include "core/common/stopwatch.h"
#include "core/common/error.h"
#include "models/longrange/centered_potential.h"
#include "models/incremental_potential/plane_friction.h"
#include "models/incremental_potential/pose_derivatives.h"

namespace arena {

LongRangeContact::LongRangeContact(const std::vector<ColliderMesh>& meshes, double mu,
                                   const longrange::LongRangeOptions& options, double dt, double friction_eps)
    : mu_(mu), options_(options), dt_(dt), friction_eps_(friction_eps), workspace_(std::make_unique<Workspace>()) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument("longrange: " + why);
  for (const ColliderMesh& m : meshes) {
    mesh_friction_.push_back(m.friction);
    mesh_static_.push_back(m.body == kWorldBody);
    bsh_.push_back(std::make_unique<longrange::BoundingSphereHierarchy>(m.vertices, m.triangles));
  }
  poses_.resize(meshes.size());
  // The scene's pair filter (never a body, or the environment, against itself, nor a body
  // against its parent; Scene::CanCollide).
  for (int a = 0; a < static_cast<int>(meshes.size()); ++a) {
    for (int b : meshes[a].partners) {
      Pair p;
      p.a = a;
      p.b = b;
      p.data.points = {bsh_[a]->num_vertices(), bsh_[a]->num_nodes(), bsh_[b]->num_vertices(), bsh_[b]->num_nodes()};
      pairs_.push_back(std::move(p));
    }
  }
}

struct LongRangeContact::Scratch {
  PlaneFrictionResult<6> friction;  // large: kept off the stack
  longrange::PointBlockSum blocks;
  longrange::TrianglePairResult lag;  // LagPair's pair solve
  LongRangePhaseSeconds seconds;      // this thread's share
};

// Per thread of the parallel Evaluate (tbb::enumerable_thread_specific hands each its own).
struct LongRangeContact::Workspace {
  tbb::enumerable_thread_specific<Scratch> scratch;
};

LongRangeContact::~LongRangeContact() = default;

LongRangePhaseSeconds LongRangeContact::phase_seconds() const {
  LongRangePhaseSeconds sum;
  sum.assembly = send_seconds_;
  for (const Scratch& s : workspace_->scratch) {
    sum.potential += s.seconds.potential;
    sum.friction += s.seconds.friction;
    sum.assembly += s.seconds.assembly;
    sum.lag += s.seconds.lag;
  }
  return sum;
}

template <class Work>
void LongRangeContact::ForEachPairInParallel(const Work& work) {
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, pairs_.size(), 1), [&](const tbb::blocked_range<size_t>& range) {
      Scratch& scratch = workspace_->scratch.local();
      for (size_t i = range.begin(); i != range.end(); ++i) work(i, scratch);
    });
  });
}

template <class Leaf>
void LongRangeContact::ForEachNearLeafPair(int a, int b, double scale, double reach, const Leaf& leaf) const {
  const longrange::BoundingSphereHierarchy& A = *bsh_[a];
  const longrange::BoundingSphereHierarchy& B = *bsh_[b];
  auto visit = [&](auto&& self, int i, int j) -> void {
    const longrange::BshNode& I = A.node(i);
    const longrange::BshNode& J = B.node(j);
    const double r = (poses_[a].centers[i] - poses_[b].centers[j]).norm();
    if (r - scale * (I.radius + J.radius) > reach) return;
    if (I.is_leaf() && J.is_leaf()) {
      leaf(I.triangle, J.triangle);
      return;
    }
    for (int ci : I.is_leaf() ? std::array<int, 2>{i, -1} : std::array<int, 2>{I.left, I.right}) {
      if (ci < 0) continue;
      for (int cj : J.is_leaf() ? std::array<int, 2>{j, -1} : std::array<int, 2>{J.left, J.right}) {
        if (cj >= 0) self(self, ci, cj);
      }
    }
  };
  visit(visit, A.root(), B.root());
}


double LongRangeContact::Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool) {
  for (size_t m = 0; m < bsh_.size(); ++m) {
    longrange::PoseRigid(*bsh_[m], x.pose[m].rotation(), x.pose[m].translation(), &poses_[m]);
  }
  EvaluateMode mode;
  mode.order = sink == nullptr ? DerivativeOrder::kValue : hessian ? DerivativeOrder::kHessian : DerivativeOrder::kGradient;
  mode.twist = hessian && sink != nullptr && sink->TakesTwistHessians();
  friction_gradient_.resize(friction_.size());
  // One evaluation of a fine scene takes seconds: past the case's wall-clock budget
  // (core/common/deadline.h, read on this thread only) give up as infeasible, and the step
  // reports the deadline.
  if (DeadlinePassed()) return std::numeric_limits<double>::infinity();
  // The body pairs in parallel (a case alone on the machine uses every core; inside a sweep
  // that fills the cores the loop runs on the case's thread), then summed in the pairs' order.
  std::vector<char> finite(pairs_.size(), 1);
  ForEachPairInParallel([&](size_t i, Scratch& w) { finite[i] = EvaluatePair(x, mode, pairs_[i], w) ? 1 : 0; });
  if (DeadlinePassed()) return std::numeric_limits<double>::infinity();
  stats_ = {};
  double total = 0.0, friction = 0.0;
  const auto t_send = std::chrono::steady_clock::now();
  for (size_t i = 0; i < pairs_.size(); ++i) {
    const Pair& p = pairs_[i];
    if (!finite[i]) return std::numeric_limits<double>::infinity();
    total += mu_ * p.data.value;
    friction += p.friction_value;
    stats_.exact_pairs += p.data.stats.exact_pairs;
    stats_.centered_terms += p.data.stats.centered_terms;
    stats_.unconverged_pairs += p.data.stats.unconverged_pairs;
    if (sink != nullptr) SendToSink(x, p, mode, sink);
  }
  send_seconds_ += SecondsSince(t_send);
  return total + friction;
}

bool LongRangeContact::EvaluatePair(const ContactConfiguration& x, const EvaluateMode& mode, Pair& p, Scratch& w) {
  longrange::LongRangeOptions options = options_;
  options.derivatives = mode.order;
  options.derivatives_a = !mesh_static_[p.a];
  options.derivatives_b = !mesh_static_[p.b];
  auto same = [](const SE3& u, const SE3& v) { return u.rotation() == v.rotation() && u.translation() == v.translation(); };
  const bool known = p.data_valid && static_cast<int>(p.data_order) >= static_cast<int>(mode.order) &&
                     same(p.data_pose_a, x.pose[p.a]) && same(p.data_pose_b, x.pose[p.b]);
  const auto t0 = std::chrono::steady_clock::now();
  if (!known) {
    longrange::ComputeLongRangePotential(*bsh_[p.a], poses_[p.a], *bsh_[p.b], poses_[p.b], options, &p.data);
    p.data_valid = true;
    p.data_order = mode.order;
    p.data_pose_a = x.pose[p.a];
    p.data_pose_b = x.pose[p.b];
  }
  const auto t1 = std::chrono::steady_clock::now();
  w.seconds.potential += Seconds(t0, t1);
  if (p.data.status == longrange::LongRangeStatus::kIntersecting) return false;
  const bool hessian = mode.order == DerivativeOrder::kHessian;
  if (hessian) {
    w.blocks.Reset(p.data.points.size());
    for (const longrange::HessianBlock& h : p.data.hessian) w.blocks.Add(h.row, h.col, mu_ * h.block);
  }
  p.friction_value = 0.0;
  for (int f = p.friction_begin; f < p.friction_end; ++f) EvaluateFrictionPair(x, f, mode, w, &p.friction_value);
  const auto t2 = std::chrono::steady_clock::now();
  w.seconds.friction += Seconds(t1, t2);
  if (!hessian) return true;
  if (mode.twist) {
    TwistBlocks(x, w.blocks, p);
  } else {
    p.blocks = w.blocks.blocks();
  }
  w.seconds.assembly += SecondsSince(t2);
  return true;
}

void LongRangeContact::EvaluateFrictionPair(const ContactConfiguration& x, int pair, const EvaluateMode& mode, Scratch& w,
                                            double* value) {
  PlaneFrictionResult<6>& r = w.friction;
  const FrictionOutputs outputs = mode.order == DerivativeOrder::kValue     ? FrictionOutputs::kValue
                                  : mode.order == DerivativeOrder::kGradient ? FrictionOutputs::kGradient
                                                                             : FrictionOutputs::kHessian;
  EvaluateFriction(x, pair, outputs, &r);
  *value += r.value;
  if (mode.order == DerivativeOrder::kValue) return;
  friction_gradient_[pair] = r.gradient;
  if (mode.order != DerivativeOrder::kHessian) return;
  const std::array<int, 6>& id = friction_[pair].ids;
  for (int k = 0; k < 6; ++k) {
    for (int l = 0; l < 6; ++l) {
      if (id[k] >= 0 && id[l] >= 0) w.blocks.Add(id[k], id[l], r.hessian.block<3, 3>(3 * k, 3 * l));
    }
  }
}

Vec3 LongRangeContact::PointWorld(const ContactConfiguration& x, const Pair& p, int i) const {
  const longrange::PairPoints& pts = p.data.points;
  if (i < pts.NodeA(0)) return x.world[p.a].row(i).transpose();
  if (i < pts.VertexB(0)) return poses_[p.a].centers[i - pts.NodeA(0)];
  if (i < pts.NodeB(0)) return x.world[p.b].row(i - pts.VertexB(0)).transpose();
  return poses_[p.b].centers[i - pts.NodeB(0)];
}

MeshPoint LongRangeContact::PointOf(const Pair& p, int i) const {
  const longrange::PairPoints& pts = p.data.points;
  const longrange::BoundingSphereHierarchy& A = *bsh_[p.a];
  const longrange::BoundingSphereHierarchy& B = *bsh_[p.b];
  if (i < pts.NodeA(0)) return {p.a, A.vertices().row(i).transpose(), i};
  if (i < pts.VertexB(0)) return {p.a, A.node(i - pts.NodeA(0)).center};
  if (i < pts.NodeB(0)) return {p.b, B.vertices().row(i - pts.VertexB(0)).transpose(), i - pts.VertexB(0)};
  return {p.b, B.node(i - pts.NodeB(0)).center};
}

// The IP core's sink keeps a twist block (k, l) only for moving bodies with k <= l
// (models/incremental_potential/step_energy.cc): only those are formed.
void LongRangeContact::TwistBlocks(const ContactConfiguration& x, const longrange::PointBlockSum& blocks, Pair& p) const {
  const int mesh[2] = {p.a, p.b};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      const int bi = (*x.meshes)[mesh[i]].body, bj = (*x.meshes)[mesh[j]].body;
      p.twist_wanted[i][j] = !mesh_static_[mesh[i]] && !mesh_static_[mesh[j]] && (i == j || bi < bj);
      p.twist[i][j].setZero();
    }
  }
  const int first_b = p.data.points.VertexB(0);
  for (const longrange::HessianBlock& h : blocks.blocks()) {
    const int i = h.row < first_b ? 0 : 1, j = h.col < first_b ? 0 : 1;
    if (p.twist_wanted[i][j]) AddPointPairTwistHessian(PointWorld(x, p, h.row), h.block, PointWorld(x, p, h.col), &p.twist[i][j]);
  }
}

void LongRangeContact::SendToSink(const ContactConfiguration& x, const Pair& p, const EvaluateMode& mode,
                                  ContactDerivativeSink* sink) const {
  const longrange::BoundingSphereHierarchy& A = *bsh_[p.a];
  const longrange::BoundingSphereHierarchy& B = *bsh_[p.b];
  for (int v = 0; v < A.num_vertices(); ++v) {
    sink->AddGradient({p.a, A.vertices().row(v).transpose(), v}, mu_ * p.data.gradient_a.row(v).transpose());
  }
  for (int v = 0; v < B.num_vertices(); ++v) {
    sink->AddGradient({p.b, B.vertices().row(v).transpose(), v}, mu_ * p.data.gradient_b.row(v).transpose());
  }
  for (int f = p.friction_begin; f < p.friction_end; ++f) {
    const std::array<int, 6>& id = friction_[f].ids;
    for (int k = 0; k < 6; ++k) {
      if (id[k] < 0) continue;
      const auto [m, v] = friction_[f].vertices[k];
      sink->AddGradient({m, (*x.meshes)[m].vertices.row(v).transpose(), v}, friction_gradient_[f].segment<3>(3 * k));
    }
  }
  if (mode.order != DerivativeOrder::kHessian) return;
  if (mode.twist) {
    const int mesh[2] = {p.a, p.b};
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        if (p.twist_wanted[i][j]) sink->AddTwistHessian(mesh[i], mesh[j], p.twist[i][j]);
      }
    }
    return;
  }
  for (const longrange::HessianBlock& h : p.blocks) sink->AddHessian(PointOf(p, h.row), PointOf(p, h.col), h.block);
}

double LongRangeContact::MaxStep(const ContactConfiguration&, const std::vector<PointsX3>&) { return 1.0; }

double LongRangeContact::MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) {
  const std::vector<VecX>& speed = path.SpeedBounds();
  for (size_t m = 0; m < bsh_.size(); ++m) {
    longrange::PoseRigid(*bsh_[m], x.pose[m].rotation(), x.pose[m].translation(), &poses_[m]);
  }
  tracked_triangles_.clear();
  tracked_.clear();
  for (const Pair& p : pairs_) {
    const double reach = AdvancementReach(speed, p.a, p.b);
    if (!(reach > 0.0)) continue;
    // The leaf spheres hold their triangles, so their gap bounds the triangles' distance below.
    ForEachNearLeafPair(p.a, p.b, 1.0, reach, [&](int ta, int tb) {
      double fastest_a = 0.0, fastest_b = 0.0;
      for (int k = 0; k < 3; ++k) {
        fastest_a = std::max(fastest_a, speed[p.a][bsh_[p.a]->triangles()(ta, k)]);
        fastest_b = std::max(fastest_b, speed[p.b][bsh_[p.b]->triangles()(tb, k)]);
      }
      const auto [A, B] = Triangles(x, p.a, ta, p.b, tb);
      TrackedDistance t;
      t.speed = fastest_a + fastest_b;
      // Far enough by a plane test alone (a huge ground triangle's leaf sphere holds every ball,
      // so the sphere test passes its far faces here): no exact distance needed.
      if (!NeedsTracking(longrange::SeparationLowerBound(A, B), t.speed)) return;
      t.d0 = t.d = longrange::SeparateTriangles(A, B).distance;
      if (!NeedsTracking(t.d0, t.speed)) return;
      t.id = static_cast<int>(tracked_triangles_.size());
      tracked_triangles_.push_back({p.a, ta, p.b, tb});
      tracked_.push_back(t);
    });
  }
  return AdvanceConservatively(
      &tracked_, path, &path_point_,
      [this](const ContactConfiguration& at, int id) {
        const auto [a, ta, b, tb] = tracked_triangles_[id];
        const auto [A, B] = Triangles(at, a, ta, b, tb);
        return longrange::SeparateTriangles(A, B).distance;
      },
      &advancement_);
}

void LongRangeContact::PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) {
  out->clear();
  for (size_t m = 0; m < bsh_.size(); ++m) {
    longrange::PoseRigid(*bsh_[m], x.pose[m].rotation(), x.pose[m].translation(), &poses_[m]);
  }
  // Measuring must not change the steps: the pairs' warm-start planes stay as the solver left
  // them (a cold solve into scratch data), and the friction's plane velocities are put back.
  longrange::LongRangeOptions options = options_;
  options.derivatives = DerivativeOrder::kGradient;
  options.warm_start = false;
  const std::vector<Vec3> plane_velocities = friction_velocity_;
  longrange::LongRangeData& data = measure_data_;
  for (Pair& p : pairs_) {
    longrange::ComputeLongRangePotential(*bsh_[p.a], poses_[p.a], *bsh_[p.b], poses_[p.b], options, &data);
    if (!std::isfinite(data.value)) continue;
    // A static mesh's gradient is not computed (mesh_static_): report the pair from the moving
    // side. P depends on the meshes' relative position only, so the forces are opposite.
    const bool a_moves = !mesh_static_[p.a];
    const int side = a_moves ? p.a : p.b;
    const PointsX3 force = -mu_ * (a_moves ? data.gradient_a : data.gradient_b);
    MeshPairContact c{side, a_moves ? p.b : p.a};
    const VecX carried = force.rowwise().norm();
    if (!(carried.sum() > 0.0)) continue;
    c.repulsion_on_a = force.colwise().sum().transpose();
    c.point_a = (x.world[side].transpose() * carried) / carried.sum();
    for (int pair = p.friction_begin; pair < p.friction_end; ++pair) {
      EvaluateFriction(x, pair, FrictionOutputs::kGradient, &friction_result_);
      for (int k = 0; k < 6; ++k) {
        if (friction_[pair].vertices[k].first == side) c.friction_on_a -= friction_result_.gradient.segment<3>(3 * k);
      }
    }
    out->push_back(c);
  }
  friction_velocity_ = plane_velocities;
}

// ---------------------------------------------------------------- friction (App. A.3)

void LongRangeContact::BeginStep(const ContactConfiguration& start) {
  friction_.clear();
  friction_velocity_.clear();
  for (size_t m = 0; m < bsh_.size(); ++m) {
    longrange::PoseRigid(*bsh_[m], start.pose[m].rotation(), start.pose[m].translation(), &poses_[m]);
  }
  // Each body pair's in parallel (each on its own warm-start planes), then joined in order.
  lagged_.resize(pairs_.size());
  ForEachPairInParallel([&](size_t i, Scratch& w) {
    const auto t0 = std::chrono::steady_clock::now();
    Pair& p = pairs_[i];
    lagged_[i].clear();
    const double lambda = std::min(mesh_friction_[p.a], mesh_friction_[p.b]);
    if (lambda > 0.0) {
      // The leaf pairs within d2 = (1 + eps)(R_i + R_j): with layered radii, a node pair farther
      // apart than its own d2 holds none (the pruning of Algorithm 1).
      ForEachNearLeafPair(p.a, p.b, 1.0 + options_.eps, 0.0,
                          [&](int ta, int tb) { LagPair(start, p, ta, tb, lambda, w.lag, &lagged_[i]); });
    }
    w.seconds.lag += SecondsSince(t0);
  });
  for (size_t i = 0; i < pairs_.size(); ++i) {
    Pair& p = pairs_[i];
    p.friction_begin = static_cast<int>(friction_.size());
    friction_.insert(friction_.end(), lagged_[i].begin(), lagged_[i].end());
    p.friction_end = static_cast<int>(friction_.size());
  }
  friction_velocity_.assign(friction_.size(), Vec3::Constant(std::numeric_limits<double>::quiet_NaN()));
}

std::pair<longrange::Triangle, longrange::Triangle> LongRangeContact::Triangles(const ContactConfiguration& x, int a, int ta,
                                                                                int b, int tb) const {
  std::pair<longrange::Triangle, longrange::Triangle> t;
  for (int k = 0; k < 3; ++k) {
    t.first[k] = x.world[a].row(bsh_[a]->triangles()(ta, k)).transpose();
    t.second[k] = x.world[b].row(bsh_[b]->triangles()(tb, k)).transpose();
  }
  return t;
}

void LongRangeContact::LagPair(const ContactConfiguration& start, Pair& p, int ta, int tb, double lambda,
                               longrange::TrianglePairResult& scratch, std::vector<FrictionPair>* out) const {
  const int a = p.a, b = p.b;
  FrictionPair f;
  f.mesh_a = a;
  f.mesh_b = b;
  longrange::Triangle A, B;
  for (int k = 0; k < 3; ++k) {
    const int va = bsh_[a]->triangles()(ta, k), vb = bsh_[b]->triangles()(tb, k);
    f.vertices[k] = {a, va};
    f.vertices[3 + k] = {b, vb};
    A[k] = start.world[a].row(va).transpose();
    B[k] = start.world[b].row(vb).transpose();
    f.x_start[k] = A[k];
    f.x_start[3 + k] = B[k];
  }
  // The potential's plane for this pair, from its last evaluation (the previous step's end,
  // which is this step's start) when it keeps them: P_ij is unique, so only the cost changes.
  longrange::TrianglePairResult& pair = scratch;
  longrange::ComputeTrianglePairPotential(A, B, DerivativeOrder::kHessian, options_.pair,
                                          options_.warm_start ? p.data.PlaneOf(ta, tb) : nullptr, &pair);
  if (!std::isfinite(pair.value)) return;
  // P_local = (1 - phi(r)) P_ij, r the centroids' distance (Eq. 12): value, gradient and Hessian
  // over the 18 start coordinates, phi lifted from the centroids (each the mean of 3 vertices).
  const Vec3 ca = (A[0] + A[1] + A[2]) / 3.0, cb = (B[0] + B[1] + B[2]) / 3.0;
  const double d1 = bsh_[a]->node(ta).radius + bsh_[b]->node(tb).radius, d2 = (1.0 + options_.eps) * d1;
  const longrange::RadialDerivatives phi = longrange::LiftRadial(longrange::BlendWeight((ca - cb).norm(), d1, d2), ca, cb);
  Eigen::Matrix<double, 6, 18> C = Eigen::Matrix<double, 6, 18>::Zero();  // centroids from vertices
  for (int k = 0; k < 3; ++k) {
    C.block<3, 3>(0, 3 * k) = Mat3::Identity() / 3.0;
    C.block<3, 3>(3, 9 + 3 * k) = Mat3::Identity() / 3.0;
  }
  const longrange::Vec18 dphi = C.transpose() * phi.gradient;
  const longrange::Mat18 d2phi = C.transpose() * phi.hessian * C;
  const longrange::Vec18 g = (1.0 - phi.value) * pair.gradient - pair.value * dphi;
  const longrange::Mat18 H = (1.0 - phi.value) * pair.hessian - dphi * pair.gradient.transpose() -
                             pair.gradient * dphi.transpose() - pair.value * d2phi;
  // Weights w_k = lambda |mu dP_local/dx_k| and their derivatives.
  f.dweight_dx.setZero();
  for (int k = 0; k < 6; ++k) {
    const Vec3 force = mu_ * g.segment<3>(3 * k);
    const double norm = force.norm();
    f.weight[k] = lambda * norm;
    if (norm > 0.0) f.dweight_dx.row(k) = lambda * mu_ * (force / norm).transpose() * H.middleRows<3>(3 * k);
  }
  // The lagged plane's unit normal and its derivative (dp*/dx from the pair solve).
  const Vec3 n = pair.plane.head<3>();
  f.normal = n / n.norm();
  f.dnormal_dx = (Mat3::Identity() - f.normal * f.normal.transpose()) / n.norm() * pair.dplane_dx.topRows<3>();
  for (int k = 0; k < 6; ++k) {
    const auto [m, v] = f.vertices[k];
    f.ids[k] = mesh_static_[m] ? -1 : k < 3 ? p.data.points.VertexA(v) : p.data.points.VertexB(v);
  }
  out->push_back(f);
}

void LongRangeContact::EvaluateFriction(const ContactConfiguration& x, int pair, FrictionOutputs outputs,
                                        PlaneFrictionResult<6>* r) {
  const FrictionPair& f = friction_[pair];
  PlaneFrictionInput<6> in;
  for (int k = 0; k < 6; ++k) in.x_next[k] = x.world[f.vertices[k].first].row(f.vertices[k].second).transpose();
  in.x_start = f.x_start;
  in.weight = f.weight;
  in.normal = f.normal;
  in.dt = dt_;
  in.eps = friction_eps_;
  in.outputs = outputs;
  in.start_velocity = &friction_velocity_[pair];
  for (int k = 0; k < 6; ++k) in.derivatives[k] = !mesh_static_[f.vertices[k].first];
  PlaneFriction(in, r);
  friction_velocity_[pair] = r->plane_velocity;
}

void LongRangeContact::StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) {
  for (const Pair& p : pairs_) {
    if (p.friction_begin == p.friction_end) continue;
    // Blocks between the pair's vertices (end point, start point), summed per vertex pair as in
    // Evaluate; a static mesh's are dropped by the sink, so they are not formed.
    blocks_.Reset(p.data.points.size());
    for (int pair = p.friction_begin; pair < p.friction_end; ++pair) AddStartBlocks(x, pair);
    for (const longrange::HessianBlock& h : blocks_.blocks()) sink->AddMixed(PointOf(p, h.row), PointOf(p, h.col), h.block);
  }
}

void LongRangeContact::AddStartBlocks(const ContactConfiguration& x, int pair) {
  const FrictionPair& f = friction_[pair];
  PlaneFrictionResult<6>& r = friction_result_;
  EvaluateFriction(x, pair, FrictionOutputs::kAll, &r);
  // d(grad_x+ D)/dx_start: -Hessian (D depends on x+ - x_start) plus the lagged data's terms.
  longrange::Mat18 mixed = -r.hessian;
  mixed.noalias() += r.dgradient_dweight.lazyProduct(f.dweight_dx);
  mixed.noalias() += r.dgradient_dnormal.lazyProduct(f.dnormal_dx);
  const std::array<int, 6>& id = friction_[pair].ids;
  for (int k = 0; k < 6; ++k) {
    for (int l = 0; l < 6; ++l) {
      if (id[k] >= 0 && id[l] >= 0) blocks_.Add(id[k], id[l], mixed.block<3, 3>(3 * k, 3 * l));
    }
  }
}

}  // namespace arena
