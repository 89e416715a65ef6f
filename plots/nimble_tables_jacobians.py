"""Seed 002 (Nimble) Tables II and III: what the five Jacobians of one step cost, and how far
they are from Ridders' extrapolation.

Left: median time of the five Jacobians together per robot and model, one bar per method
(analytical, central differences, Ridders), with the bar's multiple of one step written on it;
a black tick marks one step. Right: the largest relative error of each method against Ridders.
Wrapped engines (MuJoCo, DART) are marked "(engine)"; every time was measured in one run on one
thread.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib

METHODS = ["analytical", "central", "ridders"]
HATCH = {"analytical": "", "central": "//", "ridders": ".."}


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    df = df[df["method"].notna()]
    engines = plotlib.engines(args.csv)
    groups = [(r, m) for r in sorted(df["robot"].unique()) for m in sorted(df[df["robot"] == r]["model"].unique())]
    fig, axes = plt.subplots(1, 2, figsize=(16, 5.5), constrained_layout=True)
    width = 0.8 / len(METHODS)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    labels = []
    labelled = set()
    for gi, (robot, model) in enumerate(groups):
        g = df[(df["robot"] == robot) & (df["model"] == model)]
        labels.append(f"{robot}\n{plotlib.model_label(model, engines)}\n{int(g['contacts'].iloc[0])} contacts")
        step_ms = g["step_time_s"].iloc[0] * 1e3
        axes[0].plot([gi - 0.45, gi + 0.45], [step_ms, step_ms], color="black", lw=1.5,
                     label="one step" if gi == 0 else None)
        for mi, method in enumerate(METHODS):
            row = g[g["method"] == method]
            if row.empty:
                continue
            x = gi + (mi - 1) * width
            t = row["jacobian_time_s"].iloc[0] * 1e3
            axes[0].bar(x, t, width=width, color=colors[mi], hatch=HATCH[method],
                        label=None if method in labelled else method)
            labelled.add(method)
            axes[0].text(x, t, f"{t / step_ms:.0f}x", ha="center", va="bottom", fontsize=7)
            err = row["max_rel_error_vs_ridders"].iloc[0]
            if method != "ridders" and np.isfinite(err):
                axes[1].bar(x, max(err, 1e-16), width=width, color=colors[mi], hatch=HATCH[method])
                axes[1].text(x, max(err, 1e-16), f"{err:.1e}", ha="center", va="bottom", fontsize=7)
    axes[0].legend(fontsize=8)
    for ax in axes:
        ax.set_xticks(range(len(groups)), labels, fontsize=7, rotation=60, ha="right", rotation_mode="anchor")
        ax.set_yscale("log")
    axes[0].set_ylabel("time of the five Jacobians [ms] (x = multiple of one step)")
    axes[0].set_title("cost (paper, Atlas in Nimble: analytical 8.53 ms, central 749 ms, Ridders 2229 ms)",
                      fontsize=9)
    axes[1].set_ylabel("max relative error vs Ridders")
    axes[1].axhline(1.0, color="gray", lw=0.8, ls="--")
    axes[1].set_title("accuracy against Ridders' extrapolation (dashed: 100 %)", fontsize=9)
    fig.suptitle("jacobians (Nimble Tables II, III): d(q+, v+)/d(q, v, tau) of one step", fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
