// Seed 003's single-jaw gripper (SDRS, Ye et al., Sec. VII, Figs. 14-18), reduced: the paper's
// jaw is one link divided into 156 convex blocks (about 1538 vertices) grasping an X-shaped
// object that rests on the ground; the optimiser opens a hole in the jaw through which an arm of
// the X passes, so that the gripper can lift it without relying on its low friction.
//
// Ours: the jaw is a wall of 3 x 3 convex box hulls (8 vertices each: 72 design vertices) in the
// world's x-z plane, on a translating root (slides along x, y and z) whose three DOFs are driven
// by stiff PD and velocity-target actuators (the gripper follows a fixed script; the shape is
// what is optimised). The X is one free body (6 DOF) of two crossed box hulls in one horizontal
// plane, lying on a table (ours: the paper's X rests on the ground; its arm overhanging the
// table's edge leaves room for the wall's bottom row under it), its +y arm pointing at the middle
// block of the wall, between the rows and columns around it with clearance on every side. With the middle block in place the wall pushes the X when it approaches; without it the
// arm enters the wall, and the block under it carries the X up when the gripper lifts (a hook,
// not friction). At the start the wall is higher and farther than the design's reach
// (kGripperDesignReach): no design within it makes the start intersect the X or the ground.
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

struct GripperOptions {
  double friction = 0.2;          // [GUESS] the paper stresses low friction; its value is stripped
  double kp = 1e4;                // ours: N/m, stiff enough to follow the script within mm under load
  double kd = 300.0;              // ours: N s/m, 0.8 of critical for the 3.8 kg jaw
  double jaw_density = 700.0;     // ours: kg/m^3 (the jaw: 3.8 kg)
  double object_density = 300.0;  // ours: kg/m^3 (the X: 0.8 kg)
};

/// Throws InvalidArgument on non-positive gains, densities or a negative friction.
std::shared_ptr<const Scene> GripperScene(const GripperOptions& options = {});

/// The jaw's geometry in its body frame (the gripper's origin: the centre of the wall's front
/// face at the middle row's height; the wall extends towards +y, away from the X).
inline constexpr int kGripperRows = 3, kGripperColumns = 3;
inline constexpr double kGripperThickness = 0.1;  // m along y
/// How far a designed vertex may move from its start (m): 2 cm in every direction, and back
/// through the wall (+y) by its thickness, so that a block can collapse onto the wall's back face
/// (a hole). Ours: the paper's blocks can vanish; ours can only shrink or move, and a box that let
/// them grow 10 cm towards the X or the ground would let the jaw dodge the push by meeting the
/// table or the ground first (it did, in a trial), not grasp.
inline constexpr double kGripperDesignReach = 0.02;
inline constexpr double kGripperDesignReachBack = 0.1;
/// How far the X's arm would enter the wall at the grasp (m): 2 cm short of its back face.
inline constexpr double kGripperArmDepth = 0.08;

/// The script's waypoints: the gripper's origin (world) at the start, at the grasp (lowered and
/// advanced towards -y) and after the lift.
struct GripperWaypoints {
  Vec3 start, lowered, grasp, lifted;
};
GripperWaypoints GripperScript();

/// Names: the jaw body, its blocks (block<row><column>, row 0 at the bottom, the middle block
/// block11) and the X.
inline constexpr const char* kGripperBody = "jaw";
inline constexpr const char* kGripperBlockPrefix = "block";
inline constexpr const char* kGripperMiddleBlock = "block11";
inline constexpr const char* kGripperObject = "x_object";
inline constexpr int kGripperRootX = 0, kGripperRootY = 1, kGripperRootZ = 2;  // the jaw's slides in q

}  // namespace arena
