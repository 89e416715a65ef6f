"""Seed 004 (long-range contact) Fig. 5: billiards, the cue ball's launch optimised with Adam on
each model's gradient and on the gradient bundle.

Top row: the loss of each iterate over the initial loss against the iteration, one panel per
initialisation (the trivial one first), one line per model and method, log scale; the legend
marks the runs whose gradient was exactly zero at every iterate. Bottom row: top-down paths
of every ball over the best launch from the trivial initialisation, one panel per model and
method: the cue ball red, the two target balls blue with their targets as rings.
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib


def label(model, method):
    return model if method == "gradient" else f"{model} (bundle)"


def loss_panel(ax, df, key):
    for (model, method), g in df.groupby(["model", "method"], sort=False):
        g = g[np.isfinite(g["loss"])]
        if g.empty or not g["loss"].iloc[0] > 0:
            continue
        zero = g["zero_gradient"].astype(str).str.lower().eq("true").all()
        name = label(model, method) + (" (gradient always 0)" if zero else "")
        ax.plot(g["iteration"], g["loss"] / g["loss"].iloc[0], marker=".", ms=3, label=name,
                ls="--" if method == "bundle" else "-")
    ax.set_yscale("log")
    ax.set_xlabel("Adam iteration")
    ax.set_ylabel("loss / initial loss")
    ax.set_title(f"initialisation: {key}", fontsize=9)
    ax.legend(fontsize=7)


def path_panel(ax, paths, targets, title):
    target_balls = set(targets["ball"])
    for ball, g in paths.groupby("ball", sort=False):
        g = g.sort_values("frame")
        color = "red" if ball == "cue" else "tab:blue" if ball in target_balls else "0.6"
        ax.plot(g["x_m"], g["y_m"], color=color, lw=1)
        ax.add_patch(plt.Circle((g["x_m"].iloc[-1], g["y_m"].iloc[-1]), 0.5, fill=False, color=color, lw=0.6))
    for _, t in targets.iterrows():
        ax.plot(t["x_m"], t["y_m"], marker="x", color="tab:blue")
        ax.add_patch(plt.Circle((t["x_m"], t["y_m"]), t["target_tolerance_m"], fill=False, color="tab:blue", ls=":"))
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    data["key"] = np.where(data["initialisation"] == "trivial", "trivial",
                           "sampled " + data["sample"].astype("Int64").astype(str))
    iterations = data[data["record"] == "iteration"]
    trivial = data[data["initialisation"] == "trivial"]
    paths = trivial[trivial["record"] == "path"]
    keys = list(dict.fromkeys(iterations["key"]))
    runs = list(dict.fromkeys(zip(paths["model"], paths["method"])))
    cols = max(len(keys), len(runs), 1)
    fig = plt.figure(figsize=(3.6 * cols, 7.2), constrained_layout=True)
    grid = fig.add_gridspec(2, cols)
    for i, key in enumerate(keys):
        loss_panel(fig.add_subplot(grid[0, i]), iterations[iterations["key"] == key], key)
    for i, (model, method) in enumerate(runs):
        run = trivial[(trivial["model"] == model) & (trivial["method"] == method)]
        path_panel(fig.add_subplot(grid[1, i]), run[run["record"] == "path"], run[run["record"] == "target"],
                   f"{label(model, method)}: best launch, trivial init.")
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
