"""Seed 002 (Nimble) Fig. 7: wall-clock time to find a trajectory, gradient-based (single-shooting
L-BFGS and multiple shooting on a model's gradients) vs stochastic search (the cross-entropy
method), on the cartpole (CP), the double-pendulum cartpole (DCP) and the catapult (CTPLT).

Top row: nimble's best loss so far against wall-clock time, one panel per problem, the threshold
dashed. Bottom row: time to the threshold per problem and method, like the paper's bars, one
panel per model (the head-to-head: the engines' gradients are differences of their steps); a
hatched bar did not reach the threshold and shows the time it ran (its budget).
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib

LABELS = {"lbfgs": "single shooting (L-BFGS)", "multiple_shooting": "multiple shooting (LM)",
          "cem": "stochastic search (CEM)"}
SHORT = {"cartpole": "CP", "double_cartpole": "DCP", "catapult": "CTPLT"}


def time_bars(ax, df, problems, methods, title):
    width = 0.8 / max(len(methods), 1)
    x = np.arange(len(problems))
    for j, method in enumerate(methods):
        times, reached = [], []
        for problem in problems:
            cell = df[(df["problem"] == problem) & (df["method"] == method)]
            if cell.empty:
                times.append(np.nan)
                reached.append(False)
                continue
            last = cell.iloc[-1]
            ok = str(last["reached"]).lower() == "true"
            reached.append(ok)
            times.append(last["time_to_threshold_s"] if ok else last["elapsed_s"])
        bars = ax.bar(x + (j - (len(methods) - 1) / 2) * width, times, width, label=LABELS.get(method, method))
        for bar, ok, t in zip(bars, reached, times):
            if np.isnan(t):
                continue
            if not ok:
                bar.set_hatch("//")
                bar.set_alpha(0.5)
            ax.annotate(f"{t:.2g} s" + ("" if ok else "\nnot reached"), (bar.get_x() + bar.get_width() / 2, t),
                        ha="center", va="bottom", fontsize=6)
    ax.set_xticks(x, [SHORT.get(p, p) for p in problems])
    ax.set_yscale("log")
    ax.set_ylabel("time to threshold (s)")
    ax.set_title(title, fontsize=9)


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    models = list(dict.fromkeys(data["model"]))
    problems = list(dict.fromkeys(data["problem"]))
    methods = list(dict.fromkeys(data["method"]))
    df = data[data["model"] == "nimble"]
    cols = max(len(problems), len(models))
    fig = plt.figure(figsize=(4 * cols, 7.5), constrained_layout=True)
    grid = fig.add_gridspec(2, cols)
    for i, problem in enumerate(problems):
        ax = fig.add_subplot(grid[0, i])
        p = df[df["problem"] == problem]
        if p.empty:
            continue
        for method in methods:
            g = p[(p["method"] == method) & p["loss"].notna()]
            ax.plot(g["elapsed_s"], g["loss"], marker=".", ms=3, label=LABELS.get(method, method))
        ax.axhline(p["threshold"].iloc[0], color="black", ls="--", lw=0.8, label="threshold")
        ax.set_yscale("log")
        ax.set_xlabel("wall-clock time (s)")
        ax.set_ylabel("best loss so far")
        ax.set_title(f"nimble, {SHORT.get(problem, problem)}: {problem}, T = {p['steps'].iloc[0]}", fontsize=9)
        ax.legend(fontsize=7)
    for i, model in enumerate(models):
        m = data[data["model"] == model]
        gradient = m.loc[m["gradient"] != "none", "gradient"]
        source = gradient.iloc[0].replace("_", " ") if not gradient.empty else "no"
        ax = fig.add_subplot(grid[1, i])
        time_bars(ax, m, problems, methods, f"{model} ({source} gradients)\ntime to threshold; hatched = not reached")
        if i == 0:
            ax.legend(fontsize=7, loc="upper left")
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
