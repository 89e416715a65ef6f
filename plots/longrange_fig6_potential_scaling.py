"""Seed 004 (long-range contact) Fig. 6 / App. A.6.5: cost of the contact potential vs tessellation.

Left: seconds of one evaluation of the contact potential + gradient + Hessian (median of the
repeats) against the balls' triangle count, log-log, one line per method (bsh: longrange with its
bounding-sphere hierarchy; brute: longrange over every triangle pair; ipc), each labelled with its
least-squares log-log slope. Right: seconds of one Simulator::Step (a frame, cue ball rolling) for
the sizes whose step was timed. Solid lines: the authors' layout (the largest ground gap of the
run, no pair within ipc's dhat); dashed: the balls' meshes nearer the ground than dhat (ipc in
contact). Everything was measured in one run on one thread; the brute/BSH ratio at the largest
common size of the authors' layout is in the title.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib

ORDER = ["bsh", "brute", "ipc"]



def gaps(df):
    """The ground gaps of the run, the authors' layout (the largest) first."""
    if "ground_gap_m" not in df.columns:
        return [None]
    return sorted(set(df["ground_gap_m"]), reverse=True)


def at_gap(df, gap):
    return df if gap is None else df[df["ground_gap_m"] == gap]


def panel(ax, df, column, ylabel):
    methods = [m for m in ORDER if m in set(df["method"])] + sorted(set(df["method"]) - set(ORDER))
    all_gaps = gaps(df)
    for i, gap in enumerate(all_gaps):
        d = at_gap(df, gap)
        for j, m in enumerate(methods):
            t = d[(d["method"] == m) & d[column].notna()].sort_values("triangles")
            if t.empty:
                continue
            x, y = t["triangles"].to_numpy(float), t[column].to_numpy(float)
            k = plotlib.loglog_slope(x, y)  # nan with fewer than two sizes: no slope to show
            name = m if len(all_gaps) == 1 else f"{m}, gap {gap:g} m"
            ax.plot(x, y, "o-" if i == 0 else "s--", color=f"C{j}",
                    label=f"{name} (slope {k:.2f})" if np.isfinite(k) else name)
    plotlib.log_axes(ax, "triangles (16 balls)", ylabel)


def title(df):
    df = at_gap(df, gaps(df)[0])
    bsh = df[df["method"] == "bsh"].set_index("triangles")["eval_s"]
    brute = df[df["method"] == "brute"].set_index("triangles")["eval_s"]
    common = sorted(set(bsh.index) & set(brute.index))
    if not common:
        return "potential_scaling (seed 004 Fig. 6)"
    n = common[-1]
    return f"potential_scaling (seed 004 Fig. 6): brute / BSH = {brute[n] / bsh[n]:.1f} at {int(n)} triangles"


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    panel(axes[0], df, "eval_s", "potential + gradient + Hessian [s]")
    panel(axes[1], df, "step_s", "one step (frame) [s]")
    fig.suptitle(title(df), fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
