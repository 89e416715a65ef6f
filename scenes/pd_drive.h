// A joint DOF driven as seed 003's robots are (the ChainQueen sine-wave controllers of the spider
// and biped): tau = kp (qbar - q) + kd (qbar' - qdot), as two actuators on the DOF, a PD-target one
// (kp, no damping) and a velocity-target one (kd), named <name>/position and <name>/velocity.
#pragma once

#include <string>

#include "core/scene/scene_builder.h"

namespace arena {

void AddPdDrive(SceneBuilder& b, int body, const std::string& name, double kp, double kd);

}  // namespace arena
