"""Seed 004 (long-range contact) Fig. 8: sort. The cubes' mean distance to their targets over
simulated time per model, and top-down paths of the cubes and the rod per model
(plots/rod_tasks.py).
"""
import rod_tasks

if __name__ == "__main__":
    rod_tasks.draw("sort", __doc__)
