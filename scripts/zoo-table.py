#!/usr/bin/env python3
"""Prints docs/zoo.md's strength tables (Markdown) from a tournament's --json standings.

    arena tournament docs/zoo.toml --json zoo.json
    python3 scripts/zoo-table.py zoo.json

One table per event, best rating first. Python 3 standard library only.
"""
import json
import sys


def bot_name(name):
    # paths in docs/zoo.toml are relative to docs/; show them from the repository root
    if name.startswith("../"):
        return name[3:]
    if name.startswith("tutorial/"):
        return "docs/" + name
    return name


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: zoo-table.py STANDINGS.json  (from `arena tournament docs/zoo.toml --json FILE`)")
    with open(sys.argv[1], encoding="utf-8") as f:
        events = json.load(f)["events"]
    for ev in events:
        print(f"### {ev['name']} ({ev['game']} {ev['variant']}, {ev['matches']} matches)\n")
        print("| | bot | rating (95% CI) | W / D / L | points per match | fuel per decision |")
        print("|---:|---|---|---|---:|---:|")
        rows = sorted(ev["standings"], key=lambda s: -s["rating"])
        for i, s in enumerate(rows, 1):
            fuel = s.get("mean_fuel_per_decision")
            fuel = f"{fuel:,.0f}" if fuel is not None else "native"
            print(
                f"| {i} | `{bot_name(s['bot'])}` | {s['rating']:.0f} ({s['ci_low']:.0f}..{s['ci_high']:.0f}) "
                f"| {s['wins']} / {s['draws']} / {s['losses']} | {s['points'] / s['matches']:+.2f} | {fuel} |"
            )
        print()


if __name__ == "__main__":
    main()
