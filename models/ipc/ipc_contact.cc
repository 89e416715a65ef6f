// IPC's barrier and lagged friction over the collider meshes (Li et al. 2020, Sec. 4-5), with
// the step bound and the exact start derivatives described in ipc_contact.h.
#include "models/ipc/ipc_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"
#include "models/ipc/distance.h"

namespace arena {

namespace {

// The step bound keeps this fraction of every pair's distance (ipc::ConservativeStepBound's eta).
constexpr double kEta = kAdvancementEta;


double SquaredDistance(bool edge_edge, const ipc::Vec12& x) {
  const Vec3 x0 = x.segment<3>(0), x1 = x.segment<3>(3), x2 = x.segment<3>(6), x3 = x.segment<3>(9);
  return edge_edge ? ipc::EdgeEdgeSquaredDistance(x0, x1, x2, x3) : ipc::PointTriangleSquaredDistance(x0, x1, x2, x3);
}

// ---- The lagged friction's gradient as a function of the start positions (Li et al. 2020,
// ---- Sec. 5), written once for double and for forward-mode AD over the 12 start coordinates:
// ---- the closest-point weights, normal and normal force of models/ipc/friction.cc, with the
// ---- closest-feature type held at the start's (the pieces of models/ipc/distance.h).

using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, 12, 1>>;
template <class T>
using V3 = Eigen::Matrix<T, 3, 1>;
template <class T>
using V4 = Eigen::Matrix<T, 4, 1>;
template <class T>
using Points4 = std::array<V3<T>, 4>;

[[maybe_unused]] double Value(double x) { return x; }
double Value(const Ad& x) { return x.value(); }

template <class T>
T PointLineSquared(const V3<T>& p, const V3<T>& e0, const V3<T>& e1) {
  return (e0 - p).cross(e1 - p).squaredNorm() / (e1 - e0).squaredNorm();
}

template <class T>
T SegmentParameter(const V3<T>& p, const V3<T>& e0, const V3<T>& e1) {
  return (p - e0).dot(e1 - e0) / (e1 - e0).squaredNorm();
}

// The contact frame of one stencil at the start: squared distance d2, weights w (first
// primitive's closest point minus the second's = sum_k w_k x_k) and the (unnormalised) normal.
template <class T>
struct ContactFrame {
  T d2 = T(0.0);
  V4<T> w = V4<T>::Zero();
  V3<T> normal = V3<T>::Zero();
};

template <class T>
ContactFrame<T> PointTriangleFrame(const Points4<T>& x, ipc::PointTriangleType type) {
  using PT = ipc::PointTriangleType;
  ContactFrame<T> f;
  const V3<T>& p = x[0];
  const V3<T> face = (x[2] - x[1]).cross(x[3] - x[1]);
  f.w[0] = T(1.0);
  switch (type) {
    case PT::kVertex0:
    case PT::kVertex1:
    case PT::kVertex2: {
      const int i = static_cast<int>(type) - static_cast<int>(PT::kVertex0);
      f.w[1 + i] = T(-1.0);
      f.d2 = (p - x[1 + i]).squaredNorm();
      break;
    }
    case PT::kEdge01:
    case PT::kEdge12:
    case PT::kEdge20: {
      const int i = static_cast<int>(type) - static_cast<int>(PT::kEdge01), j = (i + 1) % 3;
      const T s = SegmentParameter<T>(p, x[1 + i], x[1 + j]);
      f.w[1 + i] = -(1.0 - s);
      f.w[1 + j] = -s;
      f.d2 = PointLineSquared<T>(p, x[1 + i], x[1 + j]);
      break;
    }
    case PT::kFace: {
      const V3<T> a = x[2] - x[1], b = x[3] - x[1], r = p - x[1];
      const T nu = face.squaredNorm();
      const T b1 = r.cross(b).dot(face) / nu, b2 = a.cross(r).dot(face) / nu;
      f.w[1] = -(1.0 - b1 - b2);
      f.w[2] = -b1;
      f.w[3] = -b2;
      const T h = r.dot(face);
      f.d2 = h * h / nu;
      break;
    }
  }
  const V3<T> v = f.w[0] * x[0] + f.w[1] * x[1] + f.w[2] * x[2] + f.w[3] * x[3];
  f.normal = type == PT::kFace ? face : v;
  if (!(Value(f.normal.squaredNorm()) > 0.0)) f.normal = face;
  return f;
}

template <class T>
ContactFrame<T> EdgeEdgeFrame(const Points4<T>& x, ipc::EdgeEdgeType type) {
  using EE = ipc::EdgeEdgeType;
  ContactFrame<T> f;
  const V3<T> a = x[1] - x[0], b = x[3] - x[2];
  T s(0.0), t(0.0);  // closest points x0 + s a and x2 + t b
  switch (type) {
    case EE::kA0B0: f.d2 = (x[0] - x[2]).squaredNorm(); break;
    case EE::kA0B1:
      t = T(1.0);
      f.d2 = (x[0] - x[3]).squaredNorm();
      break;
    case EE::kA1B0:
      s = T(1.0);
      f.d2 = (x[1] - x[2]).squaredNorm();
      break;
    case EE::kA1B1:
      s = T(1.0);
      t = T(1.0);
      f.d2 = (x[1] - x[3]).squaredNorm();
      break;
    case EE::kA0EdgeB:
      t = SegmentParameter<T>(x[0], x[2], x[3]);
      f.d2 = PointLineSquared<T>(x[0], x[2], x[3]);
      break;
    case EE::kA1EdgeB:
      s = T(1.0);
      t = SegmentParameter<T>(x[1], x[2], x[3]);
      f.d2 = PointLineSquared<T>(x[1], x[2], x[3]);
      break;
    case EE::kB0EdgeA:
      s = SegmentParameter<T>(x[2], x[0], x[1]);
      f.d2 = PointLineSquared<T>(x[2], x[0], x[1]);
      break;
    case EE::kB1EdgeA:
      t = T(1.0);
      s = SegmentParameter<T>(x[3], x[0], x[1]);
      f.d2 = PointLineSquared<T>(x[3], x[0], x[1]);
      break;
    case EE::kEdgeEdge: {
      const V3<T> n = a.cross(b), r = x[2] - x[0];
      const T nu = n.squaredNorm();
      s = r.cross(b).dot(n) / nu;
      t = r.cross(a).dot(n) / nu;
      const T h = r.dot(n);
      f.d2 = h * h / nu;
      break;
    }
  }
  f.w << 1.0 - s, s, -(1.0 - t), -t;
  const V3<T> v = f.w[0] * x[0] + f.w[1] * x[1] + f.w[2] * x[2] + f.w[3] * x[3];
  f.normal = type == EE::kEdgeEdge ? V3<T>(a.cross(b)) : v;
  if (!(Value(f.normal.squaredNorm()) > 0.0)) f.normal = a.cross(b);
  return f;
}

// lambda = kappa e |b'(d)| 2 dist (models/ipc/friction.h), d the squared distance.
template <class T>
T NormalForce(const T& d2, const T& mollifier, double kappa, const ipc::BarrierParameters& barrier) {
  using std::log;
  using std::sqrt;
  const T dist = sqrt(d2);
  T slope(0.0);  // |b'(d)|
  if (barrier.kind == ipc::BarrierKind::kClampedLog) {
    const double dhat2 = barrier.dhat * barrier.dhat;
    const T diff = d2 - dhat2;
    slope = 2.0 * diff * log(d2 / dhat2) + diff * diff / d2;  // -b' >= 0 below dhat
  } else {
    slope = 0.5 / (d2 * dist);
  }
  return kappa * mollifier * slope * 2.0 * dist;
}

// grad_x+ D for one lagged pair, as a function of its start positions x0 (the stencil's end
// positions x1 fixed): mu lambda w_k (f1(y) / y) T rel with T = I - n n^T the tangent projector
// (= P P^T: D depends on the basis P only through it), rel = sum_l w_l (x1_l - x0_l), y = |T rel|.
template <class T>
std::array<V3<T>, 4> LaggedFrictionGradient(const Points4<T>& x0, const Points4<double>& x1, bool edge_edge, int type,
                                            double eps_x, double mu, double kappa, const ipc::BarrierParameters& barrier,
                                            double eps_u) {
  using std::sqrt;
  ContactFrame<T> f;
  T mollifier(1.0);
  if (edge_edge) {
    f = EdgeEdgeFrame<T>(x0, static_cast<ipc::EdgeEdgeType>(type));
    const T cross = (x0[1] - x0[0]).cross(x0[3] - x0[2]).squaredNorm();
    if (Value(cross) < eps_x) mollifier = (2.0 - cross / eps_x) * cross / eps_x;
  } else {
    f = PointTriangleFrame<T>(x0, static_cast<ipc::PointTriangleType>(type));
  }
  const T lambda = NormalForce<T>(f.d2, mollifier, kappa, barrier);
  const V3<T> n = f.normal / f.normal.norm();
  V3<T> rel = V3<T>::Zero();
  for (int k = 0; k < 4; ++k) rel += f.w[k] * (x1[k].template cast<T>() - x0[k]);
  const V3<T> tangent = rel - n * n.dot(rel);
  const T y2 = tangent.squaredNorm();
  // f1(y) / y: (2 eps - y) / eps^2 below eps_u, 1 / y above; at y = 0 the y term's product with
  // the tangent, |tangent|^2 / eps^2, has zero derivative, so it is dropped there.
  T ratio(2.0 / eps_u);
  if (Value(y2) > 0.0) {
    const T y = sqrt(y2);
    ratio = Value(y) < eps_u ? T((2.0 * eps_u - y) / (eps_u * eps_u)) : T(1.0 / y);
  }
  const T scale = mu * lambda * ratio;
  std::array<V3<T>, 4> g;
  for (int k = 0; k < 4; ++k) g[k] = scale * f.w[k] * tangent;
  return g;
}

}  // namespace

std::string IpcContactParameters::Validate() const {
  if (std::string why = barrier.Validate(); !why.empty()) return why;
  if (!(kappa > 0.0 && std::isfinite(kappa))) return "kappa must be finite and > 0";
  if (!(friction_eps_v > 0.0 && std::isfinite(friction_eps_v))) return "friction_eps_v must be finite and > 0";
  if (!(dt > 0.0 && std::isfinite(dt))) return "dt must be finite and > 0";
  return "";
}

IpcContact::IpcContact(const std::vector<ColliderMesh>& meshes, const IpcContactParameters& params) : params_(params) {
  if (std::string why = params_.Validate(); !why.empty()) throw InvalidArgument("ipc contact: " + why);
  for (const ColliderMesh& m : meshes) {
    topology_.push_back(ipc::MakeSurfaceTopology(m.triangles, static_cast<int>(m.vertices.rows())));
    const ipc::EdgesX2& edges = topology_.back().edges;
    VecX length2(edges.rows());
    for (Eigen::Index e = 0; e < edges.rows(); ++e) {
      length2[e] = (m.vertices.row(edges(e, 1)) - m.vertices.row(edges(e, 0))).squaredNorm();
    }
    edge_length2_.push_back(std::move(length2));
    mesh_friction_.push_back(m.friction);
  }
  // The scene's pair filter (never a body against itself, nor its parent; Scene::CanCollide).
  for (int a = 0; a < static_cast<int>(meshes.size()); ++a) {
    for (int b : meshes[a].partners) pairs_.push_back({a, b});
  }
}

void IpcContact::Stencils(const ContactConfiguration& x, const MeshPair& p, double radius,
                          std::vector<Stencil>* out) const {
  out->clear();
  // Whole meshes whose boxes are farther apart than `radius` along an axis have no pair within it
  // (the broad phase's own test, one level up: it would build every primitive's box first).
  const Eigen::RowVector3d lo_a = x.world[p.a].colwise().minCoeff(), hi_a = x.world[p.a].colwise().maxCoeff();
  const Eigen::RowVector3d lo_b = x.world[p.b].colwise().minCoeff(), hi_b = x.world[p.b].colwise().maxCoeff();
  for (int k = 0; k < 3; ++k) {
    if (lo_a[k] - hi_b[k] > radius || lo_b[k] - hi_a[k] > radius) return;
  }
  const ipc::SurfaceTopology& A = topology_[p.a];
  const ipc::SurfaceTopology& B = topology_[p.b];
  const ipc::Candidates c = ipc::FindCandidates(x.world[p.a], A, x.world[p.b], B, radius);
  out->reserve(c.size());
  auto point_triangle = [&](int pm, int tm, const TrianglesX3& triangles, const ipc::PointTriangleCandidate& k) {
    Stencil s;
    s.vertices = {std::pair{pm, k.vertex}, std::pair{tm, triangles(k.triangle, 0)}, std::pair{tm, triangles(k.triangle, 1)},
                  std::pair{tm, triangles(k.triangle, 2)}};
    out->push_back(s);
  };
  for (const auto& k : c.point_a_triangle_b) point_triangle(p.a, p.b, B.triangles, k);
  for (const auto& k : c.point_b_triangle_a) point_triangle(p.b, p.a, A.triangles, k);
  for (const auto& k : c.edge_edge) {
    Stencil s;
    s.edge_edge = true;
    s.vertices = {std::pair{p.a, A.edges(k.edge_a, 0)}, std::pair{p.a, A.edges(k.edge_a, 1)},
                  std::pair{p.b, B.edges(k.edge_b, 0)}, std::pair{p.b, B.edges(k.edge_b, 1)}};
    // 1e-3 |ea|^2 |eb|^2 of the rest lengths (ipc::EdgeEdgeMollifierThreshold; rigid: current).
    s.eps_x = 1e-3 * edge_length2_[p.a][k.edge_a] * edge_length2_[p.b][k.edge_b];
    out->push_back(s);
  }
}

ipc::Vec12 IpcContact::Positions(const ContactConfiguration& x, const Stencil& s) const {
  ipc::Vec12 out;
  for (int k = 0; k < 4; ++k) out.segment<3>(3 * k) = PointAt(x.world[s.vertices[k].first], s.vertices[k].second);
  return out;
}

ipc::FrictionParameters IpcContact::Friction(double mu) const {
  ipc::FrictionParameters f;
  f.mu = mu;
  f.eps_v = params_.friction_eps_v;
  f.dt = params_.dt;
  return f;
}

double IpcContact::Evaluate(const ContactConfiguration& x, ContactDerivativeSink* sink, bool hessian, bool project) {
  stats_.candidate_pairs = 0;
  stats_.active_pairs = 0;
  stats_.min_distance = kInf;
  const ipc::HessianMode mode = project ? ipc::HessianMode::kProjected : ipc::HessianMode::kExact;
  const double activation = std::sqrt(ipc::ActivationSquaredDistance(params_.barrier));
  const double kappa = params_.kappa;
  const bool derivatives = sink != nullptr;
  ipc::Vec12 g = ipc::Vec12::Zero();
  ipc::Mat12 H = ipc::Mat12::Zero();
  VecX gradient(12);
  MatX hess(12, 12);
  std::vector<std::pair<int, int>> vertices(4);
  auto emit = [&](const Stencil& s, double scale) {
    if (g.isZero(0.0) && (!hessian || H.isZero(0.0))) return;
    vertices.assign(s.vertices.begin(), s.vertices.end());
    gradient = scale * g;
    if (hessian) hess = scale * H;
    sink->AddStencil(x, vertices, gradient, hessian ? &hess : nullptr);
  };
  double total = 0.0;
  for (const MeshPair& p : pairs_) {
    Stencils(x, p, activation, &stencils_);
    stats_.candidate_pairs += static_cast<int>(stencils_.size());
    for (const Stencil& s : stencils_) {
      const ipc::Vec12 xs = Positions(x, s);
      const Vec3 x0 = xs.segment<3>(0), x1 = xs.segment<3>(3), x2 = xs.segment<3>(6), x3 = xs.segment<3>(9);
      stats_.min_distance = std::min(stats_.min_distance, std::sqrt(SquaredDistance(s.edge_edge, xs)));
      const double b = s.edge_edge
                           ? ipc::EdgeEdgeBarrier(x0, x1, x2, x3, s.eps_x, params_.barrier, derivatives ? &g : nullptr,
                                                  derivatives && hessian ? &H : nullptr, mode)
                           : ipc::PointTriangleBarrier(x0, x1, x2, x3, params_.barrier, derivatives ? &g : nullptr,
                                                       derivatives && hessian ? &H : nullptr, mode);
      if (!std::isfinite(b)) return kInf;  // a pair at zero distance
      stats_.active_pairs += b > 0.0;
      total += kappa * b;
      if (derivatives) emit(s, kappa);
    }
  }
  for (const FrictionPair& f : friction_) {
    const ipc::Vec12 slip = Positions(x, f.stencil) - f.x_start;
    total += ipc::FrictionPotential(f.lagged, slip, Friction(f.mu), derivatives ? &g : nullptr,
                                    derivatives && hessian ? &H : nullptr, mode);
    if (derivatives) emit(f.stencil, 1.0);
  }
  return total;
}

void IpcContact::PairContacts(const ContactConfiguration& x, std::vector<MeshPairContact>* out) {
  out->clear();
  const double activation = std::sqrt(ipc::ActivationSquaredDistance(params_.barrier));
  ipc::Vec12 g;
  for (const MeshPair& p : pairs_) {
    Stencils(x, p, activation, &stencils_);
    MeshPairContact c{p.a, p.b};
    double carried = 0.0;  // sum of the stencils' force magnitudes: the point's weights
    for (const Stencil& s : stencils_) {
      const ipc::Vec12 xs = Positions(x, s);
      const Vec3 x0 = xs.segment<3>(0), x1 = xs.segment<3>(3), x2 = xs.segment<3>(6), x3 = xs.segment<3>(9);
      const double b = s.edge_edge ? ipc::EdgeEdgeBarrier(x0, x1, x2, x3, s.eps_x, params_.barrier, &g)
                                   : ipc::PointTriangleBarrier(x0, x1, x2, x3, params_.barrier, &g);
      if (!(b > 0.0) || !std::isfinite(b)) continue;
      // The gradient on a primitive's vertices is the gradient at its closest point split by that
      // point's barycentric weights, so the |g|-weighted mean of a's vertices is its closest point.
      Vec3 force = Vec3::Zero(), point = Vec3::Zero();
      double weight = 0.0;
      for (int k = 0; k < 4; ++k) {
        if (s.vertices[k].first != p.a) continue;
        force -= params_.kappa * g.segment<3>(3 * k);
        const double w = g.segment<3>(3 * k).norm();
        point += w * xs.segment<3>(3 * k);
        weight += w;
      }
      if (!(weight > 0.0)) continue;
      c.repulsion_on_a += force;
      c.point_a += force.norm() * point / weight;
      carried += force.norm();
    }
    if (!(carried > 0.0)) continue;
    c.point_a /= carried;
    out->push_back(c);
  }
  // Friction (lagged pairs of this step) on the pairs that repel at x.
  for (const FrictionPair& f : friction_) {
    const int ma = f.stencil.vertices[0].first, mb = f.stencil.vertices[3].first;
    const ipc::Vec12 slip = Positions(x, f.stencil) - f.x_start;
    ipc::FrictionPotential(f.lagged, slip, Friction(f.mu), &g);
    for (MeshPairContact& c : *out) {
      if (!((c.mesh_a == ma && c.mesh_b == mb) || (c.mesh_a == mb && c.mesh_b == ma))) continue;
      for (int k = 0; k < 4; ++k) {
        if (f.stencil.vertices[k].first == c.mesh_a) c.friction_on_a -= g.segment<3>(3 * k);
      }
    }
  }
}

// ---------------------------------------------------------------- step bounds

double IpcContact::MaxStep(const ContactConfiguration& x, const std::vector<PointsX3>& displacement) {
  double alpha = 1.0;
  std::vector<VecX> bound(x.world.size());
  for (size_t m = 0; m < x.world.size(); ++m) bound[m] = std::numbers::pi / 2.0 * displacement[m].rowwise().norm();
  for (const MeshPair& p : pairs_) {
    // Pairs farther than r cannot come within eta of their distance (see MaxStepOnPath).
    const double r = AdvancementReach(bound, p.a, p.b);
    if (!(r > 0.0)) continue;
    const ipc::SurfaceTopology& A = topology_[p.a];
    const ipc::SurfaceTopology& B = topology_[p.b];
    const ipc::Candidates c = ipc::FindCandidates(x.world[p.a], A, x.world[p.b], B, r);
    alpha = std::min(alpha, ipc::ConservativeStepBound(c, x.world[p.a], A, x.world[p.b], B, bound[p.a], bound[p.b], r, kEta).alpha);
  }
  return alpha;
}

double IpcContact::MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) {
  tracked_stencils_.clear();
  tracked_.clear();
  for (const MeshPair& p : pairs_) {
    // Both meshes' bounds in the frame of the body that carries the other, when one does (links
    // of one chain: only their relative motion can close their distance), else in the world.
    const PairSpeeds speeds = PairSpeedBounds(x, path, p.a, p.b);
    auto largest = [&](const Stencil& s, int from, int to) {
      double m = 0.0;
      for (int k = from; k < to; ++k) {
        const auto [mesh, vertex] = s.vertices[k];
        m = std::max(m, (*(mesh == p.a ? speeds.a : speeds.b))[vertex]);
      }
      return m;
    };
    const double reach = speeds.Reach();
    if (!(reach > 0.0)) continue;
    Stencils(x, p, reach, &stencils_);
    for (const Stencil& s : stencils_) {
      // The first primitive is vertex 0 (point) or vertices 0-1 (edge); the second the rest.
      const int split = s.edge_edge ? 2 : 1;
      TrackedDistance t;
      t.speed = largest(s, 0, split) + largest(s, split, 4);
      t.d0 = t.d = std::sqrt(SquaredDistance(s.edge_edge, Positions(x, s)));
      if (!NeedsTracking(t.d0, t.speed)) continue;
      t.id = static_cast<int>(tracked_stencils_.size());
      tracked_stencils_.push_back(s);
      tracked_.push_back(t);
    }
  }
  AdvancementStats stats;
  const double alpha = AdvanceConservatively(
      &tracked_, path, &path_point_,
      [this](const ContactConfiguration& at, int id) {
        const Stencil& s = tracked_stencils_[id];
        return std::sqrt(SquaredDistance(s.edge_edge, Positions(at, s)));
      },
      &stats);
  stats_.tracked_pairs = stats.tracked;
  stats_.advance_iterations = stats.iterations;
  return alpha;
}

// ---------------------------------------------------------------- friction (Sec. 5)

void IpcContact::BeginStep(const ContactConfiguration& start) {
  friction_.clear();
  const double activation = std::sqrt(ipc::ActivationSquaredDistance(params_.barrier));
  for (const MeshPair& p : pairs_) {
    const double mu = std::min(mesh_friction_[p.a], mesh_friction_[p.b]);
    if (!(mu > 0.0)) continue;
    Stencils(start, p, activation, &stencils_);
    for (const Stencil& s : stencils_) {
      FrictionPair f;
      f.stencil = s;
      f.mu = mu;
      f.x_start = Positions(start, s);
      const Vec3 x0 = f.x_start.segment<3>(0), x1 = f.x_start.segment<3>(3), x2 = f.x_start.segment<3>(6),
                 x3 = f.x_start.segment<3>(9);
      if (s.edge_edge) {
        f.type = static_cast<int>(ipc::ClassifyEdgeEdge(x0, x1, x2, x3));
        f.lagged = ipc::EdgeEdgeFrictionStencil(x0, x1, x2, x3, s.eps_x, params_.kappa, params_.barrier);
      } else {
        f.type = static_cast<int>(ipc::ClassifyPointTriangle(x0, x1, x2, x3));
        f.lagged = ipc::PointTriangleFrictionStencil(x0, x1, x2, x3, params_.kappa, params_.barrier);
      }
      if (f.lagged.normal_force > 0.0) friction_.push_back(f);
    }
  }
}

void IpcContact::StartDerivatives(const ContactConfiguration& x, ContactStartSink* sink) {
  const double eps_u = params_.friction_eps_v * params_.dt;
  for (const FrictionPair& f : friction_) {
    Points4<Ad> x0;
    Points4<double> x1;
    for (int k = 0; k < 4; ++k) {
      x1[k] = PointAt(x.world[f.stencil.vertices[k].first], f.stencil.vertices[k].second);
      for (int i = 0; i < 3; ++i) {
        x0[k][i] = Ad(f.x_start[3 * k + i], Eigen::Matrix<double, 12, 1>::Unit(3 * k + i));
      }
    }
    const std::array<V3<Ad>, 4> g = LaggedFrictionGradient<Ad>(x0, x1, f.stencil.edge_edge, f.type, f.stencil.eps_x, f.mu,
                                                                params_.kappa, params_.barrier, eps_u);
    std::array<MeshPoint, 4> points;
    for (int k = 0; k < 4; ++k) {
      const auto [m, v] = f.stencil.vertices[k];
      points[k] = {m, (*x.meshes)[m].vertices.row(v).transpose()};
    }
    for (int k = 0; k < 4; ++k) {
      Eigen::Matrix<double, 3, 12> rows;
      for (int i = 0; i < 3; ++i) rows.row(i) = g[k][i].derivatives().transpose();
      for (int l = 0; l < 4; ++l) sink->AddMixed(points[k], points[l], rows.middleCols<3>(3 * l));
    }
  }
}

}  // namespace arena
