// The stopping and damping rules of the separating-plane solve shared by the per-pair kernels
// (longrange's triangle pairs, sdrs's hull pairs): SDRS's damped Newton on the plane (seed 003
// Sec. V), solve (H + a I) D = -g, a halved after a step that stays feasible and lowers L,
// tripled otherwise.
#pragma once

#include <string>

namespace arena {

struct PlaneNewtonOptions {
  // Converged when every component satisfies |dL/dp_i| <= max(gradient_tolerance,
  // roundoff_factor * e_i), e_i the estimated round-off error of dL/dp_i. The first is an
  // absolute threshold (the authors' is 1e-9; ours is tighter because the planes are warm-started
  // from the previous evaluation, and a plane known to 1e-9 made the step depend on that history
  // by ~1e-10 m, which differences of the step read as jumps; near p* Newton converges
  // quadratically, so the cost is about one iteration); the second is the floor below which dL/dp
  // is noise. That floor matters near contact: s = <x, n> + d is a difference of O(|x|) terms,
  // so its relative error is eps |x| / s and dL/dp, a function of s, is known only to that
  // relative error times its sensitivity (e_i is computed from the actual terms at every iterate).
  double gradient_tolerance = 1e-12;  // units of L per unit of p
  double roundoff_factor = 4.0;       // dimensionless
  // The damping starts at a_0 = initial_damping * max(1, max_ij |H_ij|); 1 is the authors'
  // choice (a first step like gradient descent). Smaller values start closer to a pure Newton
  // step, which pays off from a good (warm) start; the iteration stays globally convergent.
  double initial_damping = 1.0;  // dimensionless
  double damping_limit = 1e10;   // stop when a > damping_limit * a_0 (dimensionless)
  int max_iterations = 500;      // Newton trials, accepted + rejected

  /// Empty if valid, else the first problem found.
  std::string ValidateNewton() const {
    if (!(gradient_tolerance >= 0.0)) return "gradient_tolerance must be >= 0";
    if (!(roundoff_factor >= 0.0)) return "roundoff_factor must be >= 0";
    if (!(initial_damping > 0.0)) return "initial_damping must be > 0";
    if (!(damping_limit > 1.0)) return "damping_limit must be > 1";
    if (max_iterations < 1) return "max_iterations must be >= 1";
    return {};
  }
};

}  // namespace arena
