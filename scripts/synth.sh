#!/usr/bin/env bash
# Synthesize every module of rtl/xdie.f with yosys (generic gates, hierarchy flattened) and print
# one line per module: total cells, flip-flops, latches. Run from anywhere; reads the repository's
# rtl/. Exits non-zero if yosys fails or any module has a latch.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v yosys >/dev/null || {
  echo "yosys not found: install it with \`sudo apt-get install yosys\`" >&2
  exit 2
}

mapfile -t files < <(grep -v '^[[:space:]]*//' rtl/xdie.f | sed '/^[[:space:]]*$/d')
mapfile -t modules < <(sed -n 's/^[[:space:]]*module[[:space:]]\+\([A-Za-z0-9_]\+\).*/\1/p' "${files[@]}")

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

printf '%-28s %8s %8s %8s\n' module cells flops latches
status=0
for m in "${modules[@]}"; do
  if ! yosys -q -p "read_verilog -sv ${files[*]}; synth -flatten -top $m; tee -q -o $tmp stat" \
      >/dev/null 2>"$tmp.err"; then
    echo "$m: yosys failed:" >&2
    cat "$tmp.err" >&2
    status=1
    continue
  fi
  # stat lists one line per cell type under "Number of cells"; flip-flops are the $_*DFF* types.
  awk -v m="$m" '
    /Number of cells:/ { cells = $4 }
    $1 ~ /^\$_(S|ALD)?DFF/ { flops += $2 }
    $1 ~ /^\$_DLATCH/ || $1 ~ /^\$dlatch/ { latches += $2 }
    END { printf "%-28s %8d %8d %8d\n", m, cells, flops, latches; exit (latches > 0) }
  ' "$tmp" || status=1
done
rm -f "$tmp.err"
exit $status
