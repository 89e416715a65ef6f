"""Seed 003 (SDRS) Fig. 10: chain_reach. Left: the tip's best distance to the target against Adam
iterations, control only and control + shape co-design (the dotted line is the reach tolerance).
Right: each variant's best iterate at the end of its rollout in the x-z plane (the driven chain
in the variant's colour with its length, the hanging chains grey, the target a red cross).
"""
import matplotlib.pyplot as plt

import plotlib

COLORS = {"control": "tab:blue", "codesign": "tab:orange"}

if __name__ == "__main__":
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    iterations = data[data["record"] == "iteration"]
    poses = data[data["record"] == "pose"]
    targets = data[data["record"] == "target"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.5, 4.6), constrained_layout=True,
                                      gridspec_kw={"width_ratios": [1.4, 1]})
    for (model, variant), g in iterations.groupby(["model", "variant"], sort=False):
        g = g.sort_values("iteration")
        left.plot(g["iteration"], g["best_distance_m"], marker=".", color=COLORS.get(variant),
                  label=f"{model} {variant}")
    left.axhline(iterations["reach_tolerance_m"].iloc[0], color="black", ls=":", lw=0.8, label="reach tolerance")
    left.set_yscale("log")
    left.set_xlabel("Adam iteration")
    left.set_ylabel("best |tip - target| (m)")
    left.set_title("chain_reach: loss vs iteration", fontsize=9)
    left.legend(fontsize=7)
    for variant, p in poses.groupby("variant", sort=False):
        rows = iterations[iterations["variant"] == variant]
        best = rows.loc[rows["loss"].idxmin()]
        for chain, g in p.groupby("chain"):
            g = g.sort_values("joint")
            driven = chain == 0
            right.plot(g["x_m"], g["z_m"], marker="o", ms=3, lw=2 if driven else 1,
                       color=COLORS.get(variant) if driven else "0.7",
                       label=f"{variant} (left chain {best['chain_length_m']:.2f} m)" if driven else None)
    right.plot(targets["x_m"].iloc[:1], targets["z_m"].iloc[:1], marker="x", color="red", ms=9, mew=2, ls="none",
               label="target")
    right.set_aspect("equal")
    right.set_xlabel("x (m)")
    right.set_ylabel("z (m)")
    right.set_title("best iterates at the end of the rollout", fontsize=9)
    right.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    plotlib.save(fig, args.out)
