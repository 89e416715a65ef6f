// Conservative advancement along the incremental-potential solver's trial path (Mirtich's
// conservative advancement, with the path-speed bounds of models/incremental_potential/path_speed.h): the step
// bound of a contact potential that is infinite at zero distance between some primitive pairs
// (IPC's point-triangle and edge-edge pairs, longrange's triangle pairs).
//
// A pair at distance d0 whose points move at most `speed` per unit alpha stays at distance
// >= d(a) - |alpha - a| speed for all alpha, so advancing alpha by (d - eta d0) / speed keeps it
// at or above eta d0; the distances are then re-measured on the path and the advance repeated.
// The alpha returned is sound whether the loop ends at 1, at its iteration cap, when a pair
// has come down to eta of its distance (the advance stalls), or when one has come within 5 % of
// its allowance d0 - eta d0 (the advances towards it would only shrink).
//
// A pair measured at alpha_i is certified up to its own reach alpha_i + (d_i - eta d0) / speed,
// whatever happens to the others, so only the pairs whose reach is near the new alpha are
// re-measured there (those within one more advance of the same length, found through buckets of
// reach); the others keep their earlier, still sound, certificates. With hundreds of thousands of
// vertex-plane pairs tracked on folding chains and a hundred advances held short by a few close
// ones, re-measuring every pair at every advance was most of a step's cost.
#pragma once

#include <functional>
#include <vector>

#include "models/incremental_potential/contact_potential.h"

namespace arena {

/// The fraction of its start distance every pair keeps.
inline constexpr double kAdvancementEta = 0.1;

/// One primitive pair the advancement watches; `id` is the caller's.
struct TrackedDistance {
  int id = 0;
  double d0 = 0.0, d = 0.0;  // m: distance at alpha = 0 and at the pair's last measurement
  double speed = 0.0;        // m per unit alpha: a bound on how fast the distance can shrink
  // The advancement's: the alpha up to which the last measurement (at alpha_i) certifies the pair
  // to keep eta d0, alpha_i + (d - eta d0) / speed.
  double reach = 0.0;
};

struct AdvancementStats {
  int tracked = 0;        // pairs that could come within eta d0 over the whole path
  int iterations = 0;     // advances along the path
  long measurements = 0;  // pair distances measured after the start
};

/// The distance (m) beyond which no pair of meshes a and b can come within eta of its distance
/// along the path, from the meshes' vertex speed bounds (ContactPath::SpeedBounds): pairs
/// farther apart need no tracking. 0 when neither mesh moves.
double AdvancementReach(const std::vector<VecX>& speed, int a, int b);
/// The same from each mesh's fastest vertex: (fastest_a + fastest_b) / (1 - eta).
inline double AdvancementReach(double fastest_a, double fastest_b) {
  return (fastest_a + fastest_b) / (1.0 - kAdvancementEta);
}

/// The vertex speed bounds one pair of meshes may be advanced with. The distance between a point
/// of each is the same in any frame, so when one of the two bodies carries the other (links of
/// one chain) both meshes' bounds are taken in the carrier's frame: its own vertices do not move
/// there, and the other's move only by the joints between them, not with the whole chain's swing
/// (ContactPath::SpeedBoundsIn). Otherwise the world bounds of ContactPath::SpeedBounds.
struct PairSpeeds {
  const VecX* a = nullptr;  // per vertex of mesh a
  const VecX* b = nullptr;  // per vertex of mesh b
  int carrier = -1;         // the mesh (a or b) whose body is the frame; -1: the world
  /// (largest of a + largest of b) / (1 - eta): AdvancementReach for this pair.
  double Reach() const;
};
PairSpeeds PairSpeedBounds(const ContactConfiguration& x, ContactPath& path, int a, int b);

/// True when the pair can come within eta d0 somewhere on the path (d0 - speed < eta d0): only
/// those need tracking.
inline bool NeedsTracking(double d0, double speed) { return speed > 0.0 && d0 - speed < kAdvancementEta * d0; }

/// The largest alpha in [0, 1] the advancement certifies for `tracked` (consumed), measuring
/// pair `id` at a path point with `distance(point, id)`; `point` is workspace.
double AdvanceConservatively(std::vector<TrackedDistance>* tracked, ContactPath& path, ContactConfiguration* point,
                             const std::function<double(const ContactConfiguration&, int)>& distance,
                             AdvancementStats* stats);

}  // namespace arena
