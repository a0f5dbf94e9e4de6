//! The model's view of the CSRs: the typed views `xdie_csr::load` resolved (`Csrs::views`),
//! plus the few conversions only the model needs (engine and queue ids as `u32`). Every offset,
//! count, width and field position comes from there; nothing is looked up here.

use std::ops::Deref;
use xdie_csr::{Csrs, Views};

pub use xdie_csr::{SemOp, Side, Target};

#[derive(Debug, Clone)]
pub struct Layout(Views);

impl Layout {
    pub fn new(csrs: &Csrs) -> Layout {
        Layout(csrs.views.clone())
    }

    /// SDMA engines per die, as the model numbers them.
    pub fn engine_count(&self) -> u32 {
        self.0.engines() as u32
    }

    /// Queues of every engine on both sides, as the model numbers them.
    pub fn queue_count(&self) -> u32 {
        self.0.queues() as u32
    }
}

impl Deref for Layout {
    type Target = Views;
    fn deref(&self) -> &Views {
        &self.0
    }
}
