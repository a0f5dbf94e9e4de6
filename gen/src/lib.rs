//! xdie-gen: reads the CSR descriptions in `csrs/`, validates them into a typed model, and
//! renders SystemVerilog, C headers and docs from that model.

pub mod error;
pub mod load;
pub mod locate;
pub mod model;
mod raw;

pub use error::{Error, ErrorKind, Location, Result};
pub use load::load;
pub use model::*;
pub mod emit;
pub mod output;
