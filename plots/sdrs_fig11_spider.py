"""Seed 003 (SDRS) Fig. 11: spider. Left: the loss (the body's squared distance to a target down
the slope) against Adam iterations, control only and control + the feet's co-design. Middle: how
far each iterate walked down the slope. Right: leg 0's three foot hulls in its lower leg's frame
(x along the leg, z), as they start and at co-design's best iterate.
"""
import matplotlib.pyplot as plt

import plotlib

COLORS = {"control": "tab:blue", "codesign": "tab:orange"}


def outline(points):
    """The convex outline of 2D points, closed (Andrew's monotone chain)."""
    pts = sorted(map(tuple, points))

    def half(seq):
        chain = []
        for p in seq:
            while len(chain) >= 2 and ((chain[-1][0] - chain[-2][0]) * (p[1] - chain[-2][1])
                                       - (chain[-1][1] - chain[-2][1]) * (p[0] - chain[-2][0])) <= 0:
                chain.pop()
            chain.append(p)
        return chain

    lower, upper = half(pts), half(reversed(pts))
    loop = lower[:-1] + upper[:-1]
    return [p[0] for p in loop + loop[:1]], [p[1] for p in loop + loop[:1]]

def draw(data, out, title, walk_label):
    """The three panels from a walker experiment's CSV (spider, biped) into `out`."""
    iterations = data[data["record"] == "iteration"]
    feet = data[(data["record"] == "design") & data["collider"].astype(str).str.startswith("foot0_")]
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(12, 4.0), constrained_layout=True)
    for (model, variant), g in iterations.groupby(["model", "variant"], sort=False):
        g = g.sort_values("iteration")
        left.plot(g["iteration"], g["loss"], marker=".", color=COLORS.get(variant), label=f"{model} {variant}")
        middle.plot(g["iteration"], g["distance_m"], marker=".", color=COLORS.get(variant), label=f"{model} {variant}")
    left.set_yscale("log")
    left.set_xlabel("Adam iteration")
    left.set_ylabel("loss (m$^2$)")
    left.set_title(f"{title}: loss vs iteration", fontsize=9)
    left.legend(fontsize=7)
    middle.set_xlabel("Adam iteration")
    middle.set_ylabel(walk_label)
    middle.set_title("distance walked in the horizon", fontsize=9)
    for stage, style in (("initial", ":"), ("optimised", "-")):
        s = feet[feet["stage"] == stage]
        for hull, h in s.groupby("collider"):
            if len(h) < 3:
                continue
            xs, zs = outline(h[["x_m", "z_m"]].to_numpy())
            right.plot(xs, zs, ls=style, color="0.5" if stage == "initial" else "tab:orange",
                       label=f"{stage}" if hull == "foot0_0" else None)
    right.set_aspect("equal")
    right.set_xlabel("x in the foot's frame (m)")
    right.set_ylabel("z (m)")
    right.set_title("the first foot's hulls (x-z projection)", fontsize=9)
    if len(feet):
        right.legend(fontsize=7)
    plotlib.save(fig, out)


if __name__ == "__main__":
    args = plotlib.parse_args(__doc__)
    draw(plotlib.read_csv(args.csv), args.out, "spider", "walk down the slope (m)")
