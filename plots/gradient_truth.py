"""gradient_truth (issue 23): each model's end-state gradient against the closed form.

One panel per scene: |J - J*|_F / |J*|_F against the timestep, log-log, one line per model and
swept setting (dashed: the relative error of the end state itself, which tells a wrong gradient
of the right motion from a gradient of the wrong motion). Failed runs leave gaps. Last panel:
the control task, |v - v*| after the descent with each model's gradient, per timestep.
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib


def run_label(model, param_name, param_value):
    if not isinstance(param_name, str) or not param_name:
        return model
    return f"{model} {param_name}={param_value}"


def scene_panel(ax, rows, scene, colors):
    for key, g in rows.groupby(["model", "param_name", "param_value"], sort=False, dropna=False):
        g = g.sort_values("timestep_s")
        color = colors[run_label(*key)]
        ax.plot(g["timestep_s"], g["gradient_error"], marker="o", ms=3, color=color)
        ax.plot(g["timestep_s"], g["final_state_error"], ls="--", lw=0.8, color=color)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("timestep (s)")
    ax.set_ylabel("gradient error (solid), end-state error (dashed)")
    ax.set_title(scene, fontsize=9)


def control_panel(ax, rows, colors):
    for key, g in rows.groupby(["model", "param_name", "param_value"], sort=False, dropna=False):
        g = g.sort_values("timestep_s")
        ax.plot(g["timestep_s"], g["distance_to_optimum_mps"], marker="s", ms=3, color=colors[run_label(*key)])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("timestep (s)")
    ax.set_ylabel("|v - v*| after the descent (m/s)")
    ax.set_title("cue_to_target", fontsize=9)


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    summaries = data[data["record"] == "summary"].copy()
    summaries["param_name"] = summaries["param_name"].fillna("")
    summaries["param_value"] = summaries["param_value"].fillna("")
    scenes = [s for s in dict.fromkeys(summaries["scene"]) if s != "cue_to_target"]
    panels = scenes + (["cue_to_target"] if (summaries["scene"] == "cue_to_target").any() else [])
    cols = min(3, max(len(panels), 1))
    rows = int(np.ceil(len(panels) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.8 * rows), constrained_layout=True, squeeze=False)
    # One colour per model and setting in every panel, whichever runs a panel has.
    runs = list(dict.fromkeys(run_label(*k) for k in zip(summaries["model"], summaries["param_name"],
                                                         summaries["param_value"])))
    palette = plt.get_cmap("tab20" if len(runs) > 10 else "tab10")
    colors = {run: palette(i % palette.N) for i, run in enumerate(runs)}
    for ax, scene in zip(axes.flat, panels):
        if scene == "cue_to_target":
            done = summaries[(summaries["scene"] == scene) & summaries["failure"].isna()]
            control_panel(ax, done, colors)
        else:
            scene_panel(ax, summaries[summaries["scene"] == scene], scene, colors)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    handles = [plt.Line2D([], [], color=colors[run], marker="o", ms=3) for run in runs]
    labels = runs
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(6, max(len(labels), 1)),
               fontsize=7)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
