#!/usr/bin/env python3
"""Writes the results of `scripts/fpga.sh --docs` (a JSON array of rows on stdin) to
docs/fpga-results.json and docs/fpga-results.md. Run by fpga.sh; not meant to be run alone.

The files hold no timings and no dates, so a rerun with the same tools and RTL writes the same
bytes. Rows keep the order fpga.sh ran them in (the modules of rtl/xdie.f, then sizing dies).

The full-size die is estimated, not synthesized (millions of LUT4, hours of synthesis): the
FPGA-profile die plus, per engine the full profile has more, one SDMA engine and its two queue
groups as measured alone. The engine count of each profile is read from the generated sizing
package. Measured alone a block keeps logic the die trims (tied-off ports, unread outputs), and
the crossbar and the memories grow with the die but are not counted: an estimate, not a bound.
"""

import argparse
import json
import re
import sys

SIZING_PKG = "rtl/gen/xdie_sizing_pkg.sv"
# Cell types of the table, in order: (JSON field, column heading)
COLUMNS = [
    ("lut4", "LUT4"),
    ("ff", "FF"),
    ("ccu2c", "CCU2C"),
    ("dp16kd", "DP16KD"),
    ("dpr16x4", "DPR16X4"),
    ("mult18", "MULT18"),
]
# The modules an engine adds to a die.
PER_ENGINE = ["xdie_sdma_engine", "xdie_udma_m2s", "xdie_udma_s2m"]
# The area and speed goals the FPGA fit was built against (docs/fpga-fit.md): per module, the
# JSON field, its bound and whether it is a ceiling ("max") or a floor ("min"). A sizing die's
# goal is its Fmax (placed and routed). Goals, not measurements: the table says whether each
# row meets them.
TARGETS = {
    "xdie_evt_sem": ("lut4", "max", 4000),
    "xdie_udma_m2s": ("lut4", "max", 5000),
    "xdie_udma_s2m": ("lut4", "max", 5000),
    "xdie_sdma_engine": ("lut4", "max", 6000),
    "xdie_remap_windows": ("lut4", "max", 4000),
    "xdie_d2d_iatu": ("lut4", "max", 3000),
    "xdie_d2d_link": ("ff", "max", 3000),
}
DIE_FMAX_TARGET_MHZ = 100.0
FIELD_NAMES = dict(COLUMNS, fmax_mhz="MHz")


def engines(prefix):
    text = open(SIZING_PKG).read()
    m = re.search(r"localparam int unsigned %s_SDMA_ENGINES = (\d+);" % prefix.upper(), text)
    return int(m.group(1)) if m else None


def over(row):
    """Cell types nextpnr found more of than the device has: [(type, used, available)]."""
    u = row.get("utilisation") or {}
    return [(k, v["used"], v["available"]) for k, v in sorted(u.items()) if v["used"] > v["available"]]


def fit_text(row):
    if row.get("utilisation") is None:
        return "-"
    o = over(row)
    if o:
        return "no: " + ", ".join(
            "%s %d/%d (+%d)" % (k, used, avail, used - avail) for k, used, avail in o
        )
    if row["fmax_mhz"] == "fail":
        return "no (nextpnr failed)"
    return "yes"


def num(n):
    return "{:,}".format(n)


def goal_of(row):
    """The row's goal as JSON ({field, bound, kind, met}; met is null when the field was not
    measured), or None when the module has none."""
    goal = TARGETS.get(row["module"])
    if goal is None and re.fullmatch(r"xdie_die_\w+", row["module"]):
        goal = ("fmax_mhz", "min", DIE_FMAX_TARGET_MHZ)
    if goal is None:
        return None
    field, kind, bound = goal
    value = row.get(field)
    met = None
    if isinstance(value, (int, float)):
        met = value <= bound if kind == "max" else value >= bound
    return {"field": field, "kind": kind, "bound": bound, "met": met}


def goal_text(goal):
    if goal is None:
        return ""
    bound = "%g" % goal["bound"] if goal["field"] == "fmax_mhz" else num(goal["bound"])
    text = "%s %s %s" % ("<=" if goal["kind"] == "max" else ">=", bound, FIELD_NAMES[goal["field"]])
    if goal["met"] is None:
        return text + ": not measured"
    return text + (": met" if goal["met"] else ": **not met**")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--yosys", required=True)
    ap.add_argument("--nextpnr", default="")
    ap.add_argument("--freq", required=True)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--router", default="router1")
    ap.add_argument("--placer", default="heap")
    ap.add_argument("--command", required=True)
    ap.add_argument("--rtl-hash", required=True)
    a = ap.parse_args()
    rows = json.load(sys.stdin)
    for r in rows:
        r.pop("seconds", None)
        r["goal"] = goal_of(r)
    pnr = any(r.get("utilisation") is not None for r in rows)
    by_name = {r["module"]: r for r in rows}

    estimates = []
    full = engines("DEFAULT")
    if all(m in by_name for m in PER_ENGINE) and full is not None:
        per_engine = sum(by_name[m]["lut4"] for m in PER_ENGINE)
        for r in rows:
            m = re.fullmatch(r"xdie_die_(\w+)", r["module"])
            e = engines(m.group(1)) if m else None
            if e is None:
                continue
            estimates.append({
                "from": r["module"],
                "engines_from": e,
                "engines_full": full,
                "lut4_per_engine": per_engine,
                "lut4_full_die_estimate": r["lut4"] + (full - e) * per_engine,
            })

    meta = {
        "command": a.command,
        "rtl_sha256": a.rtl_hash,
        "yosys": a.yosys,
        "nextpnr": a.nextpnr if pnr else None,
        "device": "LFE5UM-85F CABGA381 (out of context)" if pnr else None,
        "target_mhz": float(a.freq) if pnr else None,
        "seed": int(a.seed) if pnr else None,
        "router": a.router if pnr else None,
        "placer": a.placer if pnr else None,
    }
    with open("docs/fpga-results.json", "w") as f:
        json.dump({"meta": meta, "rows": rows, "full_die_estimate": estimates}, f, indent=2,
                  sort_keys=True)
        f.write("\n")

    out = []
    out.append("<!-- Generated by scripts/fpga.sh --docs. Do not edit: rerun the command below. -->")
    out.append("")
    out.append("# FPGA results (Lattice ECP5)")
    out.append("")
    out.append("Reproduce (from the repository root, with the tools below on PATH):")
    out.append("")
    out.append("    " + a.command)
    out.append("")
    out.append("Tools: %s%s. Synthesis: `synth_ecp5`, flattened, per module with its default "
               "parameters; a sizing die (`xdie_die_<profile>`) is the wrapper top of that profile "
               "of `csrs/sizing.*`." % (a.yosys, (", " + a.nextpnr) if pnr else ""))
    if pnr:
        out.append("Place and route: nextpnr-ecp5 on an LFE5UM-85F (CABGA381), out of context, "
                   "target %s MHz, seed %s, placer %s, router %s. Fit compares nextpnr's device utilisation with the "
                   "device; a design over capacity names the cell type, used/available and the "
                   "excess." % (a.freq, a.seed, a.placer, a.router))
    out.append("RTL: the files of rtl/xdie.f, sha256 of their concatenation `%s` (a rerun on "
               "other RTL gives other figures)." % a.rtl_hash)
    out.append("The same RTL maps to other figures with other yosys versions; compare rows of one "
               "run. Machine-readable: [fpga-results.json](fpga-results.json). Discussion: "
               "[fpga-fit.md](fpga-fit.md).")
    out.append("")
    head = ["module"] + [h for _, h in COLUMNS] + (["Fmax MHz", "fits 85F"] if pnr else [])
    head.append("goal")
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(["---"] + ["---:"] * len(COLUMNS) + (["---:", "---"] if pnr else [])
                             + ["---"]) + "|")
    for r in rows:
        cells = ["`%s`" % r["module"]] + [num(r[k]) for k, _ in COLUMNS]
        if pnr:
            f = r["fmax_mhz"]
            cells.append("-" if f is None else (f if isinstance(f, str) else "%.1f" % f))
            cells.append(fit_text(r))
        cells.append(goal_text(r["goal"]))
        out.append("| " + " | ".join(cells) + " |")
    if estimates:
        out.append("")
        out.append("## Full-size die (estimate)")
        out.append("")
        out.append("Not synthesized (millions of LUT4). Estimated as the sizing die plus, per "
                   "engine the default profile has more, one `xdie_sdma_engine` and its two queue "
                   "groups as measured above (alone, so with logic the die trims). The crossbar "
                   "(34 masters instead of 6) and the memories grow too and are not counted.")
        out.append("")
        out.append("| from | engines | LUT4 per engine | full-size die LUT4, estimate |")
        out.append("|---|---:|---:|---:|")
        for e in estimates:
            out.append("| `%s` | %d -> %d | %s | %s |" % (
                e["from"], e["engines_from"], e["engines_full"], num(e["lut4_per_engine"]),
                num(e["lut4_full_die_estimate"])))
    with open("docs/fpga-results.md", "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
