"""Seed 000 (Silico) Fig. 11: solve time per step, single-level vs bilevel.

Left: histogram of the rollouts' mean step solve times per model (log-spaced bins), one panel
per tolerance set. Right: mean step solve time per model and tolerance set, with the ratio of
each model to silico written on its bar. Times were measured in one run on one thread.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    sets = [s for s in ["paper", "matched"] if s in set(df["tolerances"])]
    models = sorted(df["model"].unique())
    fig, axes = plt.subplots(1, len(sets) + 1, figsize=(5 * (len(sets) + 1), 4), squeeze=False,
                             constrained_layout=True)
    times = df["mean_solve_time_s"] * 1e6
    positive = times[times > 0]
    bins = np.logspace(np.log10(positive.min() * 0.8), np.log10(positive.max() * 1.25), 30) if len(positive) else 20
    for ax, s in zip(axes[0], sets):
        for m in models:
            t = df[(df["tolerances"] == s) & (df["model"] == m)]["mean_solve_time_s"] * 1e6
            ax.hist(t, bins=bins, alpha=0.6, label=f"{m} (mean {t.mean():.3g} us)")
        ax.set_xscale("log")
        ax.set_xlabel("mean solve time per step in a rollout [us]")
        ax.set_ylabel("rollouts")
        ax.set_title(f"tolerances: {s}", fontsize=9)
        ax.legend(fontsize=8)
    ax = axes[0][-1]
    width = 0.8 / max(len(models), 1)
    lowest = np.inf
    for i, m in enumerate(models):
        means = []
        for s in sets:
            t = df[(df["tolerances"] == s) & (df["model"] == m)]
            means.append((t["total_solve_time_s"].sum() / max(t["steps"].sum(), 1)) * 1e6)
        lowest = min(lowest, min(means))
        xs = np.arange(len(sets)) + i * width
        bars = ax.bar(xs, means, width=width, label=m)
        for s_idx, (bar, v) in enumerate(zip(bars, means)):
            ref = df[(df["tolerances"] == sets[s_idx]) & (df["model"] == "silico")]
            if len(ref):
                base = ref["total_solve_time_s"].sum() / max(ref["steps"].sum(), 1) * 1e6
                ax.text(bar.get_x() + bar.get_width() / 2, v, f"{v / base:.1f}x", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(np.arange(len(sets)) + width * (len(models) - 1) / 2, sets)
    ax.set_yscale("log")
    if np.isfinite(lowest) and lowest > 0:
        ax.set_ylim(bottom=lowest / 4)
    ax.set_ylabel("mean step solve time [us]")
    ax.set_title("mean over all steps (ratio to silico)", fontsize=9)
    ax.legend(fontsize=8)
    per_set = df[df["tolerances"] == sets[0]] if sets else df
    fig.suptitle("solve_time (Silico Fig. 11), steps per tolerance set: " + ", ".join(
        f"{m} {int(per_set[per_set['model'] == m]['steps'].sum())}" for m in models), fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
