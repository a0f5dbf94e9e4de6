//! xdie-csr: reads the CSR descriptions in `csrs/`, validates them, and builds the typed model
//! every other layer reads (emitters, golden model, testbench, CLI). Nothing outside this crate
//! sees the raw files or looks anything up by name.

pub mod error;
pub mod ident;
pub mod layouts;
pub mod limits;
pub mod load;
pub mod locate;
pub mod model;
mod raw;
pub mod roles;
pub mod schema;
pub mod views;

pub use error::{Error, ErrorKind, Location, Result};
pub use layouts::*;
pub use load::load;
pub use model::*;
pub use roles::{ApertureId, BundleRole, FieldRole, RegRole};
pub use views::*;
