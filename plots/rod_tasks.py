"""The figure of seed 004's rod-and-cubes tasks (push Fig. 7, gather and sort Fig. 8), shared by
their plot scripts: left, the cubes' mean distance to their targets against simulated time per
model and method (the dotted line is the tolerance; "(bundle)": the gradient bundle around the
model); then one top-down panel per run with every cube's
path (start as a grey square, end as a coloured one), the rod's centre path (dashed) and the
target discs.
"""
import matplotlib.pyplot as plt

import plotlib

# The targets of experiments/rod_tasks/rod_task.cc, per task: (x, y) of each disc and which cubes go there.
TARGETS = {
    "push": lambda cube_index: (2.0, 0.0),
    "gather": lambda cube_index: (0.0, 0.0),
    "sort": lambda cube_index: (-1.5, 0.0) if cube_index % 2 == 0 else (1.5, 0.0),
}


def draw(task, description):
    args = plotlib.parse_args(description)
    data = plotlib.read_csv(args.csv)
    data["run"] = data["model"].where(data["method"] != "bundle", data["model"] + " (bundle)")
    steps = data[data["record"] == "step"]
    cubes = data[data["record"] == "cube"]
    models = list(dict.fromkeys(steps["run"]))
    tolerance = steps["target_tolerance_m"].iloc[0]
    fig, axes = plt.subplots(1, 1 + len(models), figsize=(4.2 * (1 + len(models)), 4.2), constrained_layout=True,
                             squeeze=False)
    left = axes[0][0]
    for model in models:
        s = steps[steps["run"] == model].sort_values("step")
        left.plot(s["time_s"], s["mean_distance_m"], marker=".", ms=3, label=model)
    left.axhline(tolerance, color="black", ls=":", lw=0.8, label="tolerance")
    left.set_xlabel("simulated time (s)")
    left.set_ylabel("mean cube-target distance (m)")
    left.set_title(task, fontsize=9)
    left.legend(fontsize=7)
    for ax, model in zip(axes[0][1:], models):
        c = cubes[cubes["run"] == model]
        for name, g in c.groupby("cube", sort=False):
            g = g.sort_values("step")
            index = int(name.replace("cube", ""))
            color = "tab:blue" if task != "sort" or index % 2 == 0 else "tab:orange"
            ax.plot(g["x_m"], g["y_m"], color=color, lw=1)
            ax.add_patch(plt.Rectangle((g["x_m"].iloc[0] - 0.15, g["y_m"].iloc[0] - 0.15), 0.3, 0.3, fill=False,
                                       color="0.6", lw=0.6))
            ax.add_patch(plt.Rectangle((g["x_m"].iloc[-1] - 0.15, g["y_m"].iloc[-1] - 0.15), 0.3, 0.3, fill=False,
                                       color=color, lw=0.8))
            ax.add_patch(plt.Circle(TARGETS[task](index), tolerance, fill=False, color=color, ls=":"))
        s = steps[steps["run"] == model].sort_values("step")
        ax.plot(s["rod_x_m"], s["rod_y_m"], color="black", ls="--", lw=1, label="rod centre")
        ax.plot(s["rod_x_m"].iloc[0], s["rod_y_m"].iloc[0], marker="o", color="black", ms=3)
        ax.set_aspect("equal")
        ax.autoscale_view()
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.set_title(f"{model}: cubes (grey: start), rod, targets (dotted)", fontsize=8)
    plotlib.save(fig, args.out)
