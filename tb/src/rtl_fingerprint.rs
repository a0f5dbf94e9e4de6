//! Which RTL the simulation models of this crate were compiled from: the build script records
//! the path and hash of the filelist and of every file it names (`build/fingerprint.rs`). A
//! command that simulates CSRs other than the repository's compares the RTL those CSRs generate
//! with this record and refuses to run a model of other RTL.

#[path = "fnv.rs"]
mod fnv;

use std::path::{Path, PathBuf};

const BUILT: &str = include_str!(concat!(env!("OUT_DIR"), "/rtl_fingerprint.txt"));

/// (path relative to the repository, hash) of every file the models were built from.
fn built() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUILT.lines().filter_map(|l| l.rsplit_once(' '))
}

/// The generated RTL files among `files` (paths relative to the output root, text) that differ
/// from the files the models were built from, or that the models were not built from at all.
/// Only SystemVerilog sources and filelists count; docs and headers do not reach a model.
pub fn differing<'a>(files: impl IntoIterator<Item = (&'a Path, &'a str)>) -> Vec<PathBuf> {
    files
        .into_iter()
        .filter(|(p, _)| {
            p.starts_with("rtl") && p.extension().is_some_and(|e| e == "sv" || e == "f")
        })
        .filter(|(p, text)| {
            let hash = format!("{:016x}", fnv::fnv1a64(text.as_bytes()));
            !built().any(|(bp, bh)| Path::new(bp) == *p && bh == hash)
        })
        .map(|(p, _)| p.to_path_buf())
        .collect()
}
