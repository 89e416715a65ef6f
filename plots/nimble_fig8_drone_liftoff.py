"""Seed 002 (Nimble) Fig. 8: a drone resting on the ground, lifted to a target height by
gradient descent on its 500 forces.

Left: the loss (target - q_500)^2 per iteration with the standard gradient (exactly zero while
every step's contact clamps: the loss never moves) and with complementarity-aware gradients
(flat while the drone is still held by the ground, then it escapes). Right: the drone's height
after the rollout, and how many of its steps touch the floor. Every model that ran is drawn (the
other models' standard gradients beside nimble's).
"""
import matplotlib.pyplot as plt

import plotlib

LABELS = {"standard": "standard gradient", "complementarity_aware": "complementarity-aware"}


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    df = df[df["loss"].notna()]
    fig, (ax, ah) = plt.subplots(1, 2, figsize=(10, 3.8), constrained_layout=True)
    ac = ah.twinx()
    for (model, gradient), g in df.groupby(["model", "gradient"], sort=False):
        label = f"{model}, {LABELS.get(gradient, gradient)}"
        ratio = g["loss"].iloc[-1] / g["loss"].iloc[0]
        ax.plot(g["iteration"], g["loss"], marker=".", label=f"{label} (final / initial {ratio:.2g})")
        ah.plot(g["iteration"], g["height"], marker=".", label=label)
        ac.plot(g["iteration"], g["contact_steps"], ls=":", lw=1.2)
    ax.set_yscale("log")
    ax.set_xlabel("gradient descent iteration")
    ax.set_ylabel("loss (m$^2$)")
    ax.set_title("drone_liftoff (Nimble Fig. 8): loss", fontsize=9)
    ax.legend(fontsize=8)
    target = df["target_height"].iloc[0]
    ah.axhline(target, color="black", ls="--", lw=0.8, label=f"target {target:g} m")
    ah.set_xlabel("gradient descent iteration")
    ah.set_ylabel("height q$_T$ after the rollout (m)")
    ac.set_ylabel("steps touching the floor (dotted)")
    ac.set_ylim(0, df["steps"].max() * 1.05)
    ah.set_title("final height (solid) and contact steps (dotted)", fontsize=9)
    ah.legend(fontsize=8)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
