"""Seed 002 (Nimble) Fig. 7: wall-clock time to find a trajectory, gradient-based (single-shooting
L-BFGS on nimble's gradients) vs stochastic search (the cross-entropy method), on the cartpole
(CP), the double-pendulum cartpole (DCP) and the catapult (CTPLT).

Top row: the best loss so far against wall-clock time, one panel per problem, the threshold
dashed. Bottom: time to the threshold per problem and method, like the paper's bars; a hatched
bar did not reach it and shows the time it ran (its budget).
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib

LABELS = {"lbfgs": "L-BFGS (nimble gradient)", "cem": "stochastic search (CEM)"}
SHORT = {"cartpole": "CP", "double_cartpole": "DCP", "catapult": "CTPLT"}


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    df = df[df["model"] == "nimble"]
    problems = list(dict.fromkeys(df["problem"]))
    methods = list(dict.fromkeys(df["method"]))
    fig = plt.figure(figsize=(4 * len(problems), 7), constrained_layout=True)
    grid = fig.add_gridspec(2, len(problems))
    for i, problem in enumerate(problems):
        ax = fig.add_subplot(grid[0, i])
        p = df[df["problem"] == problem]
        for method in methods:
            g = p[(p["method"] == method) & p["loss"].notna()]
            ax.plot(g["elapsed_s"], g["loss"], marker=".", ms=3, label=LABELS.get(method, method))
        ax.axhline(p["threshold"].iloc[0], color="black", ls="--", lw=0.8, label="threshold")
        ax.set_yscale("log")
        ax.set_xlabel("wall-clock time (s)")
        ax.set_ylabel("best loss so far")
        ax.set_title(f"{SHORT.get(problem, problem)}: {problem}, T = {p['steps'].iloc[0]}", fontsize=9)
        ax.legend(fontsize=7)
    ax = fig.add_subplot(grid[1, :])
    width = 0.8 / max(len(methods), 1)
    x = np.arange(len(problems))
    for j, method in enumerate(methods):
        times, reached = [], []
        for problem in problems:
            last = df[(df["problem"] == problem) & (df["method"] == method)].iloc[-1]
            ok = str(last["reached"]).lower() == "true"
            reached.append(ok)
            times.append(last["time_to_threshold_s"] if ok else last["elapsed_s"])
        bars = ax.bar(x + (j - (len(methods) - 1) / 2) * width, times, width, label=LABELS.get(method, method))
        for bar, ok, t in zip(bars, reached, times):
            if not ok:
                bar.set_hatch("//")
                bar.set_alpha(0.5)
            ax.annotate(f"{t:.2g} s" + ("" if ok else "\nnot reached"), (bar.get_x() + bar.get_width() / 2, t),
                        ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, [SHORT.get(p, p) for p in problems])
    ax.set_yscale("log")
    ax.set_ylabel("time to threshold (s)")
    ax.set_title("trajopt_compare (Nimble Fig. 7): time to threshold; hatched = not reached (time it ran)", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
