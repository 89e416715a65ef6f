"""Seed 004 (long-range contact) Fig. 13 and Tables 4-5: ablations on the push task. One panel
per study (smoothness: longrange against ipc's global barrier; timestep; mu): the cube's distance
to its target over simulated time, one line per variant, its time to converge in the legend
(a run that never converged shows its horizon, marked "not reached"); the dotted line is the
tolerance.
"""
import matplotlib.pyplot as plt

import plotlib


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    steps = data[data["record"] == "step"]
    studies = list(dict.fromkeys(steps["study"]))
    fig, axes = plt.subplots(1, len(studies), figsize=(4.5 * len(studies), 4), constrained_layout=True, squeeze=False)
    for ax, study in zip(axes[0], studies):
        s = steps[steps["study"] == study]
        for variant, g in s.groupby("variant", sort=False):
            g = g.sort_values("step")
            last = g.iloc[-1]
            reached = str(last["reached"]).lower() == "true"
            label = f"{variant}: {last['time_to_converge_s']:.3g} s" + ("" if reached else " (not reached)")
            ax.plot(g["time_s"], g["mean_distance_m"], marker=".", ms=3, label=label)
        ax.axhline(s["target_tolerance_m"].iloc[0], color="black", ls=":", lw=0.8)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("cube to target (m)")
        ax.set_title(f"push, study: {study}", fontsize=9)
        ax.legend(fontsize=7)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
