#include "models/longrange/longrange_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "models/longrange/centered_potential.h"
#include "models/incremental_potential/plane_friction.h"

namespace arena {

LongRangeContact::LongRangeContact(const std::vector<ColliderMesh>& meshes, double mu,
                                   const longrange::LongRangeOptions& options, double dt, double friction_eps)
    : mu_(mu), options_(options), dt_(dt), friction_eps_(friction_eps) {
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
      pairs_.push_back(std::move(p));
    }
  }
}

double LongRangeContact::Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool) {
  for (size_t m = 0; m < bsh_.size(); ++m) {
    longrange::PoseRigid(*bsh_[m], x.pose[m].rotation(), x.pose[m].translation(), &poses_[m]);
  }
  longrange::LongRangeOptions options = options_;
  options.derivatives = sink == nullptr ? DerivativeOrder::kValue
                        : hessian       ? DerivativeOrder::kHessian
                                        : DerivativeOrder::kGradient;
  stats_ = {};
  double total = 0.0, friction = 0.0;
  for (Pair& p : pairs_) {
    // One evaluation of a fine scene takes seconds: past the case's wall-clock budget
    // (core/common/deadline.h) give up as infeasible, and the step reports the deadline.
    if (DeadlinePassed()) return std::numeric_limits<double>::infinity();
    options.derivatives_a = !mesh_static_[p.a];
    options.derivatives_b = !mesh_static_[p.b];
    const auto status = longrange::ComputeLongRangePotential(*bsh_[p.a], poses_[p.a], *bsh_[p.b], poses_[p.b], options, &p.data);
    if (status == longrange::LongRangeStatus::kIntersecting) return std::numeric_limits<double>::infinity();
    total += mu_ * p.data.value;
    stats_.exact_pairs += p.data.stats.exact_pairs;
    stats_.centered_terms += p.data.stats.centered_terms;
    stats_.unconverged_pairs += p.data.stats.unconverged_pairs;
    if (sink != nullptr) AddPotential(p, sink, hessian);
    for (int f = p.friction_begin; f < p.friction_end; ++f) AddFriction(x, f, p.data.points, sink, hessian, &friction);
    if (sink != nullptr && hessian) AddBlocks(p, sink);
  }
  return total + friction;
}

void LongRangeContact::AddPotential(const Pair& p, ContactDerivativeSink* sink, bool hessian) {
  const longrange::BoundingSphereHierarchy& A = *bsh_[p.a];
  const longrange::BoundingSphereHierarchy& B = *bsh_[p.b];
  for (int v = 0; v < A.num_vertices(); ++v) {
    sink->AddGradient({p.a, A.vertices().row(v).transpose()}, mu_ * p.data.gradient_a.row(v).transpose());
  }
  for (int v = 0; v < B.num_vertices(); ++v) {
    sink->AddGradient({p.b, B.vertices().row(v).transpose()}, mu_ * p.data.gradient_b.row(v).transpose());
  }
  if (!hessian) return;
  blocks_.Reset(p.data.points.size());
  for (const longrange::HessianBlock& h : p.data.hessian) blocks_.Add(h.row, h.col, mu_ * h.block);
}

void LongRangeContact::AddBlocks(const Pair& p, ContactDerivativeSink* sink) const {
  const longrange::BoundingSphereHierarchy& A = *bsh_[p.a];
  const longrange::BoundingSphereHierarchy& B = *bsh_[p.b];
  const longrange::PairPoints& pts = p.data.points;
  auto point = [&](int i) -> MeshPoint {
    if (i < pts.NodeA(0)) return {p.a, A.vertices().row(i).transpose()};
    if (i < pts.VertexB(0)) return {p.a, A.node(i - pts.NodeA(0)).center};
    if (i < pts.NodeB(0)) return {p.b, B.vertices().row(i - pts.VertexB(0)).transpose()};
    return {p.b, B.node(i - pts.NodeB(0)).center};
  };
  for (const longrange::HessianBlock& h : blocks_.blocks()) sink->AddHessian(point(h.row), point(h.col), h.block);
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
  for (Pair& p : pairs_) {
    p.friction_begin = p.friction_end = static_cast<int>(friction_.size());
    const double lambda = std::min(mesh_friction_[p.a], mesh_friction_[p.b]);
    if (!(lambda > 0.0)) continue;
    // The leaf pairs within d2 = (1 + eps)(R_i + R_j): with layered radii, a node pair farther
    // apart than its own d2 holds none (the pruning of Algorithm 1).
    ForEachNearLeafPair(p.a, p.b, 1.0 + options_.eps, 0.0,
                        [&](int ta, int tb) { LagPair(start, p, ta, tb, lambda); });
    p.friction_end = static_cast<int>(friction_.size());
  }
}

void LongRangeContact::ForEachNearLeafPair(int a, int b, double scale, double reach,
                                           const std::function<void(int, int)>& leaf) const {
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

std::pair<longrange::Triangle, longrange::Triangle> LongRangeContact::Triangles(const ContactConfiguration& x, int a, int ta,
                                                                                int b, int tb) const {
  std::pair<longrange::Triangle, longrange::Triangle> t;
  for (int k = 0; k < 3; ++k) {
    t.first[k] = x.world[a].row(bsh_[a]->triangles()(ta, k)).transpose();
    t.second[k] = x.world[b].row(bsh_[b]->triangles()(tb, k)).transpose();
  }
  return t;
}

void LongRangeContact::LagPair(const ContactConfiguration& start, Pair& p, int ta, int tb, double lambda) {
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
  longrange::TrianglePairResult& pair = lag_result_;
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
  friction_.push_back(f);
  friction_velocity_.push_back(Vec3::Constant(std::numeric_limits<double>::quiet_NaN()));
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

void LongRangeContact::AddFriction(const ContactConfiguration& x, int pair, const longrange::PairPoints& points,
                                   ContactDerivativeSink* sink, bool hessian, double* value) {
    PlaneFrictionResult<6>& r = friction_result_;
  EvaluateFriction(x, pair, sink == nullptr ? FrictionOutputs::kValue : hessian ? FrictionOutputs::kHessian : FrictionOutputs::kGradient, &r);
  *value += r.value;
  if (sink == nullptr) return;
  const FrictionPair& f = friction_[pair];
  std::array<int, 6> id;  // the vertices' numbers among the body pair's points; -1: static
  for (int k = 0; k < 6; ++k) {
    const auto [m, v] = f.vertices[k];
    id[k] = mesh_static_[m] ? -1 : k < 3 ? points.VertexA(v) : points.VertexB(v);
    if (id[k] >= 0) sink->AddGradient({m, (*x.meshes)[m].vertices.row(v).transpose()}, r.gradient.segment<3>(3 * k));
  }
  if (!hessian) return;
  for (int k = 0; k < 6; ++k) {
    for (int l = 0; l < 6; ++l) {
      if (id[k] >= 0 && id[l] >= 0) blocks_.Add(id[k], id[l], r.hessian.block<3, 3>(3 * k, 3 * l));
    }
  }
}

void LongRangeContact::StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) {
  for (const Pair& p : pairs_) {
    if (p.friction_begin == p.friction_end) continue;
    // Blocks between the pair's vertices (end point, start point), summed per vertex pair as in
    // Evaluate; a static mesh's are dropped by the sink, so they are not formed.
    blocks_.Reset(p.data.points.size());
    for (int pair = p.friction_begin; pair < p.friction_end; ++pair) AddStartBlocks(x, pair, p.data.points);
    const longrange::BoundingSphereHierarchy& A = *bsh_[p.a];
    const longrange::BoundingSphereHierarchy& B = *bsh_[p.b];
    const longrange::PairPoints& pts = p.data.points;
    auto point = [&](int i) -> MeshPoint {
      if (i < pts.VertexB(0)) return {p.a, A.vertices().row(i).transpose()};
      return {p.b, B.vertices().row(i - pts.VertexB(0)).transpose()};
    };
    for (const longrange::HessianBlock& h : blocks_.blocks()) sink->AddMixed(point(h.row), point(h.col), h.block);
  }
}

void LongRangeContact::AddStartBlocks(const ContactConfiguration& x, int pair, const longrange::PairPoints& points) {
  const FrictionPair& f = friction_[pair];
  PlaneFrictionResult<6>& r = friction_result_;
  EvaluateFriction(x, pair, FrictionOutputs::kAll, &r);
  // d(grad_x+ D)/dx_start: -Hessian (D depends on x+ - x_start) plus the lagged data's terms.
  longrange::Mat18 mixed = -r.hessian;
  mixed.noalias() += r.dgradient_dweight.lazyProduct(f.dweight_dx);
  mixed.noalias() += r.dgradient_dnormal.lazyProduct(f.dnormal_dx);
  std::array<int, 6> id;  // the vertices' numbers among the body pair's points; -1: static
  for (int k = 0; k < 6; ++k) {
    const auto [m, v] = f.vertices[k];
    id[k] = mesh_static_[m] ? -1 : k < 3 ? points.VertexA(v) : points.VertexB(v);
  }
  for (int k = 0; k < 6; ++k) {
    for (int l = 0; l < 6; ++l) {
      if (id[k] >= 0 && id[l] >= 0) blocks_.Add(id[k], id[l], mixed.block<3, 3>(3 * k, 3 * l));
    }
  }
}

}  // namespace arena
