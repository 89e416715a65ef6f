// The centred potential and the C2 blend of Ye et al., "Efficient Differentiable Contact Model
// with Long-Range Influence" (arXiv 2509.20917), Sec. 5.1-5.2:
//   P_c(r) = 12 (1 + r^{-1/2})^2,  r = |x_I - x_J|                  (Eq. 5 and Eq. 7)
//   phi(r) = Phi((r - d1) / (d2 - d1)),  Phi(s) = clamp(6 s^5 - 15 s^4 + 10 s^3, 0, 1)  (Eq. 4)
// P_c is the exact minimum of the triangle-pair Lagrangian L_ij (Sec. 4) when every vertex of
// each triangle sits at its centre: the optimal plane is the bisector, n = alpha (x_I - x_J) with
// |n| = 1 / (1 + sqrt(r)) (proof of Corollary 5.2). Both are functions of one distance r; the
// helpers lift such a radial function to the two centres (x_I, x_J).
#pragma once

#include "core/math/types.h"

namespace arena::longrange {

/// A scalar function of one variable with its first two derivatives.
struct Scalar2 {
  double value = 0.0;
  double first = 0.0;   // d value / d argument
  double second = 0.0;  // d^2 value / d argument^2
};

/// P_c(r) = 12 (1 + r^{-1/2})^2 and its r-derivatives (Eq. 5, 7). r <= 0 gives +inf (the
/// centred terms are only evaluated between disjoint spheres, where r > 0).
Scalar2 CenteredPotential(double r);

/// Phi(s) = clamp(6 s^5 - 15 s^4 + 10 s^3, 0, 1) and its s-derivatives (Eq. 4): C2, with
/// Phi' = Phi'' = 0 at s = 0 and s = 1; constant outside [0, 1].
Scalar2 QuinticStep(double s);

/// phi(r) = Phi((r - d1) / (d2 - d1)) and its r-derivatives (Eq. 4); needs d1 < d2.
Scalar2 BlendWeight(double r, double d1, double d2);

/// 3x3 Hessian block of h(|x_I - x_J|) with respect to x_I, at unit direction u = (x_I - x_J)/r:
///   K = h'' u u^T + (h' / r) (I - u u^T).
/// The 6x6 Hessian with respect to (x_I, x_J) is [[K, -K], [-K, K]]; the gradient is
/// (h' u, -h' u).
Mat3 RadialHessianBlock(const Scalar2& h, const Vec3& u, double r);

/// Value, gradient and Hessian of a radial function h(|x_I - x_J|) in the 6 coordinates
/// (x_I, x_J).
struct RadialDerivatives {
  double value = 0.0;
  Vec6 gradient = Vec6::Zero();
  Mat6 hessian = Mat6::Zero();
};
RadialDerivatives LiftRadial(const Scalar2& h, const Vec3& x_I, const Vec3& x_J);

/// P_c between two centres (Eq. 7) with its gradient and Hessian in (x_I, x_J). The force on
/// x_I, -dP_c/dx_I = 12 (x_I - x_J) r^{-5/2} (1 + r^{-1/2}), pushes I away from J (the proof of
/// Lemma A.3, times |I|).
RadialDerivatives CenteredPairPotential(const Vec3& x_I, const Vec3& x_J);

}  // namespace arena::longrange
