//! xdie-gen: renders SystemVerilog, C headers and docs from the typed CSR model of `xdie-csr`
//! (askama templates under `gen/templates/`), writes them atomically, and keeps a manifest of
//! them so that outputs the CSRs no longer produce are removed.

pub mod emit;
pub mod manifest;
pub mod output;
