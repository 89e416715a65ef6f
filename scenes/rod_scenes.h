// The rod-and-cubes scenes of seed 004 (Ye et al., long-range contact) Sec. 6: a rod driven by
// velocity targets pushes 0.3 m cubes on the ground. Push (Fig. 7): one cube, the rod's full
// pose driven (6 DOF). Gather and Sort (Fig. 8): ten cubes, the rod's translations (Sort) or its
// translations and yaw (Gather) driven; 66 DOF with the cubes.
//
// Layout (the authors' push debug scene, ground top at z = 0): cubes of density 1 kg/m^3
// (0.027 kg) 1 cm above the ground; the rod 0.1 x 0.8 x 0.1 m, long along y, its centre 0.17 m
// above the cubes' centres (its lower face 3 cm below their tops). The rod moves on a chain of
// 1-DOF joints (slides x, y, z, then hinges about z, y, x, as many as the task drives; 1 g links
// between), each with a velocity-target actuator (kd `rod_kd`, targets within +-1 m/s or rad/s):
// zero controls hold it still. Friction 0.5 everywhere (the authors' code does not say).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/math/types.h"
#include "core/scene/scene.h"

namespace arena {

struct RodAndCubesOptions {
  std::string name = "rod_and_cubes";
  std::vector<Vec2> cubes;       // the cubes' centres in the plane (m); named cube0, cube1, ...
  Vec2 rod = Vec2(0.7, 0.1);     // the rod's centre in the plane (m)
  int rod_dofs = 6;              // 3: slides x, y, z; 4: and yaw; 6: and pitch, roll
  double rod_kd = 10.0;          // N s/m, N m s/rad (the authors' chain demos use kd = 10)
};
/// Throws InvalidArgument for no cubes, rod_dofs not 3, 4 or 6, or rod_kd not > 0.
std::shared_ptr<const Scene> RodAndCubesScene(const RodAndCubesOptions& options);

/// Fig. 7: one cube at the origin (body "cube0"), the rod 0.7 m in +x and 0.1 m in +y of it
/// (the authors' debug scene), 6 DOF driven.
std::shared_ptr<const Scene> PushScene();

/// Fig. 8: ten cubes scattered in the 4 m x 4 m square centred on the origin (a fixed draw, no
/// two closer than 0.6 m), the rod 3 m in -x of the centre. Gather drives the rod's translations
/// and yaw, Sort its translations only.
std::shared_ptr<const Scene> GatherScene();
std::shared_ptr<const Scene> SortScene();
/// The ten cubes' centres of GatherScene and SortScene.
std::vector<Vec2> ScatteredCubes();

}  // namespace arena
