//! The firmware-like scenario driver: plays every core's gen/start steps of a scenario on the
//! package top through the dies' host ports, then hands the end state to the scoreboard.
//!
//! Placeholder until the package top is simulated: reports that the RTL is not available.

use std::path::{Path, PathBuf};
use xdie_model::scenario::{ModelRun, Scenario};
use xdie_model::state::SemValue;

/// Phase and fraction done, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub phase: &'a str,
    pub done: u64,
    pub total: u64,
}

#[derive(Debug, Clone)]
pub struct RtlOutcome {
    /// Clock cycles of the whole run (reset, setup, loading, transfer, read-back).
    pub total_cycles: u64,
    /// Cycles from the first launch doorbell to the last completion the driver observed.
    pub transfer_cycles: u64,
    /// Every nonzero semaphore read back from the RTL.
    pub sems: Vec<SemValue>,
    /// Scoreboard mismatches, first first.
    pub mismatches: Vec<String>,
    /// How landed writes were observed.
    pub monitor: &'static str,
    pub trace: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub enum RtlError {
    /// The RTL cannot run this scenario (no package top, or more packages than it holds).
    NotAvailable(String),
    /// The driver failed (bus error, timeout); the message says where.
    Driver(String),
}

impl std::fmt::Display for RtlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RtlError::NotAvailable(m) => write!(f, "not available: {m}"),
            RtlError::Driver(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for RtlError {}

pub fn run(
    _sc: &Scenario,
    _model: &ModelRun,
    _seed: u64,
    _trace: Option<&Path>,
    _progress: &mut dyn FnMut(Progress),
) -> Result<RtlOutcome, RtlError> {
    Err(RtlError::NotAvailable(
        "the package top (xdie_pkg_top) is not among the simulated models".into(),
    ))
}
