//! (not yet written)

use super::OutFile;
use crate::model::Csrs;

pub fn render(_csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    Ok(Vec::new())
}
