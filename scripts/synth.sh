#!/usr/bin/env bash
# Synthesize every module of rtl/xdie.f with yosys (generic gates, hierarchy flattened) and print
# one line per module: total cells, flip-flops, latches. Exits non-zero if yosys fails or any
# module has a latch. The work is the ignored test `synth_report` of tests/rtl_quality.rs, so the
# filelist is read by the one reader the build and the other RTL checks use.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo test --release -p xdie --test rtl_quality -- --ignored --exact synth_report --nocapture
