"""solver_compare (issue 18): the physical criteria of contact against the time per step.

One row of panels per problem, one column per criterion: the problem's closed-form outcome
error, the Signorini gap (the mean distance the normal force acted across), friction outside
the Coulomb cone and off the maximum-dissipation force (fractions of the normal load), and the
energy a passive run made. One point per run (model x solver setting x timestep; a circle at the
largest timestep, smaller markers at smaller ones; hollow: the run failed), coloured by model;
the line joins each model's Pareto front (no other setting of the model is both faster and
better). Values below 1e-9 (in the criterion's unit; round-off and exact zeros) are drawn on the
dotted line at 1e-9.
Models that do not report contact points have no Signorini, Coulomb or dissipation points.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib

CRITERIA = [("outcome_error_m", "outcome error [m]"), ("signorini_gap_m", "Signorini: mean gap of the load [m]"),
            ("coulomb_rel", "Coulomb: |f_t| - mu f_n [/ load]"),
            ("dissipation_rel", "max. dissipation defect [/ load]"), ("energy_gain_j", "energy made [J]")]
FLOOR = 1e-9  # values below it (round-off, exact zeros) are drawn on it
MARKERS = ["o", "s", "^", "v", "D", "P"]


def pareto(points):
    """The points (time, value) no other point beats in both, sorted by time."""
    front, best = [], np.inf
    for t, v in sorted(points):
        if v < best:
            front.append((t, v))
            best = v
    return front


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    df = df[df["step_time_s"].notna()]
    engines = plotlib.engines(args.csv)
    problems = list(dict.fromkeys(df["problem"]))
    models = list(dict.fromkeys(df["model"]))
    colours = {m: plt.cm.tab10(i % 10) for i, m in enumerate(models)}
    timesteps = sorted(df["timestep_s"].unique(), reverse=True)
    size = {dt: 30 * 0.55 ** i for i, dt in enumerate(timesteps)}
    fig, axes = plt.subplots(len(problems), len(CRITERIA), figsize=(4.2 * len(CRITERIA), 3.0 * len(problems)),
                             squeeze=False, constrained_layout=True)
    for row, problem in enumerate(problems):
        p = df[df["problem"] == problem]
        for col, (column, label) in enumerate(CRITERIA):
            ax = axes[row][col]
            floor = FLOOR
            for m in models:
                pm = p[(p["model"] == m) & p[column].notna()]
                if pm.empty:
                    continue
                y = np.maximum(pm[column].to_numpy(), floor)
                t = pm["step_time_s"].to_numpy() * 1e6
                failed = pm["failed"].astype(str).str.lower().eq("true").to_numpy()
                for k, dt in enumerate(timesteps):
                    sel = pm["timestep_s"].to_numpy() == dt
                    for hollow in (False, True):
                        s = sel & (failed == hollow)
                        if s.any():
                            ax.scatter(t[s], y[s], s=size[dt], marker=MARKERS[k % len(MARKERS)],
                                       facecolors="none" if hollow else colours[m], edgecolors=colours[m],
                                       linewidths=0.8)
                front = pareto([(ti, yi) for ti, yi, f in zip(t, y, failed) if not f])
                if len(front) > 1:
                    ax.plot(*zip(*front), color=colours[m], lw=0.8, alpha=0.8)
            ax.axhline(floor, color="grey", ls=":", lw=0.6)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.grid(True, which="major", alpha=0.3)
            if row == len(problems) - 1:
                ax.set_xlabel("time per step [us]")
            if col == 0:
                ax.set_ylabel(f"{problem}\n{label}", fontsize=8)
            else:
                ax.set_ylabel(label, fontsize=8)
    handles = [plt.Line2D([], [], color=colours[m], marker="o", ls="-", label=plotlib.model_label(m, engines))
               for m in models]
    handles += [plt.Line2D([], [], color="grey", marker=MARKERS[k % len(MARKERS)], ls="", label=f"dt = {dt:g} s")
                for k, dt in enumerate(timesteps)]
    handles.append(plt.Line2D([], [], color="grey", marker="o", markerfacecolor="none", ls="", label="run failed"))
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(len(handles), 8), fontsize=8)
    fig.suptitle("solver_compare: physical criteria of contact against time per step (one point per model, "
                 "solver setting and timestep; lines: Pareto fronts)", fontsize=10, y=1.04)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
