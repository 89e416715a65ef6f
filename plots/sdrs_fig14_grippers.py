"""Seed 003 (SDRS) Figs. 14-18, reduced: the single-jaw gripper. Top left: the loss (stage 2, the
X pushed while the jaw approaches, plus stage 4, the X's motion relative to the jaw while it
lifts) against Adam iterations, with its two terms. Top right: whether each iterate's jaw held
the X (its rise at least half the lift) and the X's rise. Bottom: the jaw's 3 x 3 blocks as they
start and at the best iterate, seen from the X (x-z: a hole is where the middle block's outline
is gone) and from the side (y-z: the middle block pushed back), with the X's arm's section and
the heights of the X and of the jaw over the start's and the best iterate's rollouts (each on a
fresh simulator).
"""
import matplotlib.pyplot as plt

import plotlib
from sdrs_fig11_spider import outline

STAGES = {"initial": ("0.5", ":"), "optimised": ("tab:orange", "-")}


def blocks(ax, design, stage, u, v):
    """The blocks' outlines of one stage, projected on the (u, v) columns."""
    color, style = STAGES[stage]
    s = design[design["stage"] == stage]
    for i, (block, b) in enumerate(s.groupby("collider")):
        us, vs = outline(b[[u, v]].to_numpy())
        ax.plot(us, vs, ls=style, color=color, lw=1.5 if block == "block11" else 0.8,
                label=stage if i == 0 else None)


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    iterations = data[data["record"] == "iteration"].sort_values("iteration")
    design = data[data["record"] == "design"]
    paths = data[data["record"] == "path"]
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5), constrained_layout=True)
    loss, held, path = axes[0]
    front, side, empty = axes[1]
    empty.axis("off")
    loss.plot(iterations["iteration"], iterations["loss"], marker=".", label="loss")
    loss.plot(iterations["iteration"], iterations["push_m2"], ls="--", label="stage 2: push")
    loss.plot(iterations["iteration"], iterations["lift_m2"], ls=":", label="stage 4: relative motion")
    loss.set_yscale("log")
    loss.set_xlabel("Adam iteration")
    loss.set_ylabel("loss (m$^2$)")
    loss.set_title("grippers: loss vs iteration (sdrs)", fontsize=9)
    loss.legend(fontsize=7)
    held.step(iterations["iteration"], iterations["held"], where="mid", color="tab:green", label="held (0/1)")
    held.plot(iterations["iteration"], iterations["rise_m"] / 0.15, marker=".", color="tab:purple",
              label="X's rise / jaw's lift")
    held.plot(iterations["iteration"], iterations["hole_depth_m"] / 0.08, ls="--", color="0.4",
              label="hole depth / arm's depth in the wall")
    held.axhline(0.5, color="0.8", lw=0.8)
    held.set_xlabel("Adam iteration")
    held.set_title("success vs iteration", fontsize=9)
    held.legend(fontsize=7)
    for stage, g in paths.groupby("stage"):
        color, style = STAGES.get(stage, ("k", "-"))
        g = g.sort_values("frame")
        path.plot(g["frame"], g["object_z_m"], ls=style, color=color, label=f"X, {stage} design")
        path.plot(g["frame"], g["jaw_z_m"], ls=style, color=color, alpha=0.4, label=f"jaw, {stage} design")
    path.set_xlabel("step")
    path.set_ylabel("height (m)")
    path.set_title("heights over the rollout (jaw: its hole's centre)", fontsize=9)
    path.legend(fontsize=7)
    for stage in ("initial", "optimised"):
        blocks(front, design, stage, "x_m", "z_m")
        blocks(side, design, stage, "y_m", "z_m")
    # The arm's section (0.06 x 0.06 m) where the script's grasp puts it in the jaw's frame (its tip
    # 0.08 m behind the front face; the table's edge 0.04 m in front of it).
    front.add_patch(plt.Rectangle((-0.03, -0.03), 0.06, 0.06, color="tab:blue", alpha=0.3, label="X's arm"))
    side.add_patch(plt.Rectangle((-0.12, -0.03), 0.2, 0.06, color="tab:blue", alpha=0.3, label="X's arm at the grasp"))
    side.add_patch(plt.Rectangle((-0.12, -0.13), 0.08, 0.1, color="0.85", label="table"))
    front.set_title("jaw seen from the X (x-z, jaw frame)", fontsize=9)
    side.set_title("jaw from the side (y-z; the X is towards -y)", fontsize=9)
    for ax, xl in ((front, "x (m)"), (side, "y (m)")):
        ax.set_aspect("equal")
        ax.set_xlabel(xl)
        ax.set_ylabel("z (m)")
        ax.legend(fontsize=7)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
