//! xdie-gen: renders SystemVerilog, C headers and docs from the typed CSR model of `xdie-csr`
//! (askama templates under `gen/templates/`), and writes them atomically.

pub mod emit;
pub mod output;
