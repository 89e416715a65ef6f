"""Seed 004 (long-range contact) Fig. 7: push. A rod driven by receding-horizon control must go
around a 0.3 m cube and push it to the target circle on the rod's side.

Left: the cube's distance to the target against simulated time, one line per model (the dotted
line is the tolerance). Right: top-down paths of the cube (solid) and the rod's centre (dashed)
per model, the cube's start and the target circle drawn.
"""
import matplotlib.pyplot as plt

import plotlib


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    models = list(dict.fromkeys(data["model"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), constrained_layout=True)
    for model in models:
        m = data[data["model"] == model].sort_values("step")
        line, = left.plot(m["time_s"], m["box_distance_m"], marker=".", ms=3, label=model)
        right.plot(m["box_x_m"], m["box_y_m"], color=line.get_color(), label=f"{model}: cube")
        right.plot(m["rod_x_m"], m["rod_y_m"], color=line.get_color(), ls="--", label=f"{model}: rod")
        right.plot(m["rod_x_m"].iloc[-1], m["rod_y_m"].iloc[-1], marker="s", color=line.get_color())
    first = data.iloc[0]
    tolerance = first["target_tolerance_m"]
    left.axhline(tolerance, color="black", ls=":", lw=0.8, label="tolerance")
    left.set_xlabel("simulated time (s)")
    left.set_ylabel("cube to target (m)")
    left.legend(fontsize=7)
    target = (first["target_x_m"], first["target_y_m"])  # relative to the cube's start, the origin
    right.add_patch(plt.Rectangle((-0.15, -0.15), 0.3, 0.3, fill=False, color="0.5", lw=0.8))
    rod = data[data["step"] == 0].iloc[0]  # the rod's footprint (0.1 x 0.8 m) near its start
    right.add_patch(plt.Rectangle((rod["rod_x_m"] - 0.05, rod["rod_y_m"] - 0.4), 0.1, 0.8, fill=False, color="0.5",
                                  ls="--", lw=0.8))
    right.add_patch(plt.Circle(target, tolerance, fill=False, color="red"))
    right.set_aspect("equal")
    right.autoscale_view()
    right.set_xlabel("x (m)")
    right.set_ylabel("y (m)")
    right.set_title("cube and rod at the start (grey), target (red circle); squares: the rod at the end", fontsize=8)
    right.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
