#include "models/bilevel/outer_problem.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"

namespace arena::bilevel {

using silico::PlanarBody;
using silico::PlanarPair;
using silico::V2;

namespace {

// Local inputs of one pair's outer rows: x_P (3), v_P (3), x_C (3), v_C (3) (end poses and v25,
// world), phi, point (2), gamma, psi, beta1, beta2.
constexpr int kLocal = 19;
constexpr int kPhi = 12, kPoint = 13, kDuals = 15;
constexpr int kOutputs = 10;  // w_P (3), w_C (3), slackness rows (4)
using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, kLocal, 1>>;

template <class T>
T Cross2(const V2<T>& a, const V2<T>& b) { return a[0] * b[1] - a[1] * b[0]; }

// The outer rows of one pair for a given inner answer (phi, point) and a normal held fixed
// (as in the authors' code: the inner solve's data enter the outer residual as values).
template <class T>
void PairRows(const PlanarPair& pair, const Vec2& normal, const T* in, T* out) {
  const T* x_p = in;
  const T* v_p = in + 3;
  const T* x_c = in + 6;
  const T* v_c = in + 9;
  const T& phi = in[kPhi];
  const V2<T> p(in[kPoint], in[kPoint + 1]);
  const T& gamma = in[kDuals];
  const T& psi = in[kDuals + 1];
  const T& beta1 = in[kDuals + 2];
  const T& beta2 = in[kDuals + 3];

  const V2<T> n = normal.cast<T>();
  const V2<T> t = V2<T>(T(normal[1]), T(-normal[0]));
  const V2<T> arm_p(p[0] - x_p[0], p[1] - x_p[1]);
  const V2<T> arm_c(p[0] - x_c[0], p[1] - x_c[1]);
  // Velocities of the material points at p (a fixed child has v_C = 0).
  const V2<T> vp(v_p[0] - v_p[2] * arm_p[1], v_p[1] + v_p[2] * arm_p[0]);
  const V2<T> vc(v_c[0] - v_c[2] * arm_c[1], v_c[1] + v_c[2] * arm_c[0]);
  const T v_t = (vp - vc).dot(t);

  // Impulses (no dt, as silico and the authors' code).
  const V2<T> f = t * (beta1 - beta2) + n * gamma;
  out[0] = f[0];
  out[1] = f[1];
  out[2] = Cross2(arm_p, f);
  out[3] = -f[0];
  out[4] = -f[1];
  out[5] = -Cross2(arm_c, f);
  // Slackness rows F = -(constraint value), so that F + s = 0 reads s = value.
  out[6] = -phi;
  out[7] = -(pair.friction * gamma - beta1 - beta2);
  out[8] = -(v_t + psi);
  out[9] = -(-v_t + psi);
}

}  // namespace

OuterProblem::OuterProblem(const Scene& scene, const InteriorPointOptions& inner_options)
    : inner_(inner_options) {
  // silico's pair building (parent = moving scaled shape, child = the other / the floor) and
  // body slots, reused as is; rethrown under this model's name.
  try {
    const silico::PlanarProblem planar(scene);
    rows_ = planar.body_rows();
    pairs_ = planar.pairs();
  } catch (const Unsupported& e) {
    throw Unsupported(std::string("bilevel (uses silico's planar pairs): ") + e.what());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(std::string("bilevel (uses silico's planar pairs): ") + e.what());
  }
  programs_.reserve(pairs_.size());
  for (const PlanarPair& pair : pairs_) programs_.emplace_back(pair);
  cone_.orthant = 4 * static_cast<int>(pairs_.size());
}

void OuterProblem::SetStep(double dt, const VecX& p2, const VecX& v15, const VecX& u) {
  dt_ = dt;
  p2_ = p2;
  v15_ = v15;
  u_ = u;
}

VecX OuterProblem::EndPoses(const VecX& y) const { return p2_ + dt_ * y.head(num_primals()); }

InnerContact OuterProblem::SolveInner(int k, const VecX& y, bool sensitivities) {
  const PlanarPair& pair = pairs_[k];
  silico::CollisionProgram& program = programs_[k];
  const Vec3 x_p = p2_.segment<3>(3 * pair.body_p) + dt_ * y.segment<3>(3 * pair.body_p);
  // A fixed child's placement is its world pose (silico's convention: x_C = 0).
  const Vec3 x_c = pair.body_c >= 0 ? Vec3(p2_.segment<3>(3 * pair.body_c) + dt_ * y.segment<3>(3 * pair.body_c))
                                    : Vec3::Zero();
  program.SetPoses(x_p, x_c);
  // Sec. IV-A P14 inner solve, cold at every outer evaluation (as in the authors' code).
  const silico::CollisionResult r = silico::SolveCollision(program, inner_, sensitivities);
  ++statistics_.solves;
  statistics_.iterations += r.report.iterations;
  if (!r.report.converged()) ++statistics_.not_converged;

  InnerContact c;
  c.phi = r.phi;
  c.point = r.point;
  c.converged = r.report.converged();
  if (pair.child_is_floor()) {
    // The authors' code hard-codes the floor normal (0, 1) for floor contacts; here
    // the half-plane's own world normal, which is (0, 1) for the standard floor.
    c.normal = Eigen::Rotation2Dd(pair.placement_c[2]) * Vec2(0.0, 1.0);
  } else {
    c.normal = r.normal;  // n_P = d alpha / d x_P (eq. 15), unnormalised
  }
  if (sensitivities) {
    c.dphi_dx = r.dphi_dx;
    c.dpoint_dx = r.dpoint_dx;
  }
  return c;
}

bool OuterProblem::InnerContacts(const VecX& y, std::vector<InnerContact>* contacts) {
  contacts->resize(pairs_.size());
  bool finite = true;
  for (size_t k = 0; k < pairs_.size(); ++k) {
    (*contacts)[k] = SolveInner(static_cast<int>(k), y, false);
    const InnerContact& c = (*contacts)[k];
    finite = finite && std::isfinite(c.phi) && c.point.allFinite() && c.normal.allFinite();
  }
  return finite;
}

bool OuterProblem::Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) {
  const int ny = num_primals(), n = ny + cone_.orthant;
  VecX& F = *residual;
  F.setZero(n);
  if (jacobian != nullptr) jacobian->setZero(n, n);
  rows_.Add(dt_, p2_, v15_, u_, y, &F, jacobian, nullptr);

  double in[kLocal], out[kOutputs];
  Ad in_ad[kLocal], out_ad[kOutputs];
  for (size_t k = 0; k < pairs_.size(); ++k) {
    const PlanarPair& pair = pairs_[k];
    const InnerContact c = SolveInner(static_cast<int>(k), y, jacobian != nullptr);
    if (!std::isfinite(c.phi) || !c.point.allFinite() || !c.normal.allFinite()) return false;

    std::fill(in, in + kLocal, 0.0);
    for (int i = 0; i < 3; ++i) {
      in[3 + i] = y[3 * pair.body_p + i];
      in[i] = p2_[3 * pair.body_p + i] + dt_ * in[3 + i];
      if (pair.body_c >= 0) {
        in[9 + i] = y[3 * pair.body_c + i];
        in[6 + i] = p2_[3 * pair.body_c + i] + dt_ * in[9 + i];
      }
    }
    in[kPhi] = c.phi;
    in[kPoint] = c.point[0];
    in[kPoint + 1] = c.point[1];
    for (int j = 0; j < 4; ++j) in[kDuals + j] = z[4 * static_cast<int>(k) + j];

    if (jacobian == nullptr) {
      PairRows(pair, c.normal, in, out);
    } else {
      for (int i = 0; i < kLocal; ++i) in_ad[i] = Ad(in[i], kLocal, i);
      PairRows(pair, c.normal, in_ad, out_ad);
      for (int r = 0; r < kOutputs; ++r) out[r] = out_ad[r].value();
    }

    for (int r = 0; r < kOutputs; ++r) {
      int row;
      if (r < 3) row = 3 * pair.body_p + r;
      else if (r < 6) row = pair.body_c >= 0 ? 3 * pair.body_c + r - 3 : -1;
      else row = ny + 4 * static_cast<int>(k) + r - 6;
      if (row < 0) continue;
      const double sign = r < 6 ? -1.0 : 1.0;  // impulses enter the body rows with a minus
      F[row] += sign * out[r];
      if (jacobian == nullptr) continue;

      // Fig. 11 chain rule: dF/dv25 = dF/dv + dt (dF/dx + dF/dphi dphi/dx + dF/dp dp/dx), the
      // inner sensitivities d(phi, p)/d(x_P, x_C) from the IFT of P14. The normal's dependence
      // on the poses is ignored: it is the fixed floor normal in Fig. 11's scene (and in every
      // floor contact); for body-body pairs this makes the Jacobian approximate.
      const auto& d = out_ad[r].derivatives();
      auto add_body = [&](int slot, int x0, int v0, int sens0) {
        for (int i = 0; i < 3; ++i) {
          const double through_pose = d[x0 + i] + d[kPhi] * c.dphi_dx(0, sens0 + i) +
                                      d[kPoint] * c.dpoint_dx(0, sens0 + i) +
                                      d[kPoint + 1] * c.dpoint_dx(1, sens0 + i);
          (*jacobian)(row, 3 * slot + i) += sign * (d[v0 + i] + dt_ * through_pose);
        }
      };
      add_body(pair.body_p, 0, 3, 0);
      if (pair.body_c >= 0) add_body(pair.body_c, 6, 9, 3);
      for (int j = 0; j < 4; ++j) (*jacobian)(row, ny + 4 * static_cast<int>(k) + j) += sign * d[kDuals + j];
    }
  }
  if (jacobian != nullptr && !jacobian->allFinite()) return false;
  return F.allFinite();
}

}  // namespace arena::bilevel
