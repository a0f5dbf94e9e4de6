//! The testbench's randomness is the model crate's (one generator for stimulus and soak runs).
pub use xdie_model::rng::Rng;
