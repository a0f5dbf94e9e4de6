//! Reads `csrs/`, checks every rule, and builds the model. Nothing is written here; a bad input
//! stops the run before any emitter runs.
//!
//! Layout of the CSR directory (each file may be JSON or YAML; the extension decides):
//!   soc_address.*   the routed address, its views and folds
//!   address_map.*   the die-local map, its parameters, and the blocks it instantiates
//!   blocks/NAME.*   one register block per file, named by the map's `block:` keys
//!   descriptors.*   ring descriptor formats and ring rules
//!   ext_inst.*      ExtendedInst words
//!   profiles.*      accelerator generations
//!   sizing.*        die sizing profiles (what a build wires up and backs)
//!
//! Each file kind has its own module; `load` reads them in dependency order (the map needs the
//! SoC address and the blocks) and checks what spans files last.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::locate::LineIndex;
use crate::model::Csrs;
use crate::raw;
use std::path::{Path, PathBuf};

mod block;
mod checks;
mod constraints;
mod cross_refs;
mod descriptors;
mod evt_sem;
mod ext_inst;
mod layouts;
mod map;
mod profiles;
mod read;
mod register;
mod roles;
mod sdma_bcast;
mod sem_seq;
mod sizing;
mod soc;
mod udma;

pub use constraints::RULES;
pub use sizing::MAX_DEPTH as MAX_SIZING_DEPTH;
// For the schema reference: the tables the loader checks with.
pub(crate) use block::KindName;
pub(crate) use cross_refs::DESCRIPTOR_FIELDS;
pub(crate) use roles::required_roles;

/// One input file, kept with its line index so that checks made after parsing can say where.
struct Source {
    path: PathBuf,
    index: LineIndex,
}

impl Source {
    fn err(&self, kind: ErrorKind, key: impl Into<String>, message: impl Into<String>) -> Error {
        let key = key.into();
        Error {
            kind,
            at: Location {
                file: self.path.clone(),
                line: self.index.line_of(&key),
                key,
            },
            message: message.into(),
        }
    }
}

/// Load and validate the CSR directory.
pub fn load(dir: &Path) -> Result<Csrs> {
    // A file (or a FIFO, a device) given for the directory is named as such, not reported as a
    // directory without soc_address.*. The files in it are checked as they are read.
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(Error {
            kind: ErrorKind::Io,
            at: Location {
                file: dir.to_path_buf(),
                key: String::new(),
                line: None,
            },
            message: "is not a directory (the CSR descriptions are a directory of files)".into(),
        });
    }
    let mut sources = Vec::new();
    let (soc_src, soc_raw): (_, raw::SocFile) = read::read(dir, "soc_address", &mut sources)?;
    let soc_layout = soc::build_soc(&soc_src, soc_raw)?;
    let soc = soc_layout.address.clone();

    let (map_src, map_raw): (_, raw::MapFile) = read::read(dir, "address_map", &mut sources)?;
    let (blocks, block_index) = block::read_blocks(dir, &map_src, &map_raw, &mut sources)?;
    let map = map::build_map(&map_src, map_raw, &soc, &blocks, &block_index)?;

    let (desc_src, desc_raw): (_, raw::DescFile) = read::read(dir, "descriptors", &mut sources)?;
    let (descriptors, ring) = descriptors::build_descriptors(&desc_src, desc_raw)?;
    let (word_src, word_raw): (_, raw::ExtFile) = read::read(dir, "ext_inst", &mut sources)?;
    let words = ext_inst::build_words(&word_src, word_raw)?;
    let (prof_src, prof_raw): (_, raw::ProfileFile) = read::read(dir, "profiles", &mut sources)?;
    let (profiles, default_profile) = profiles::build_profiles(&prof_src, prof_raw)?;

    let (size_src, size_raw): (_, raw::SizingFile) = read::read(dir, "sizing", &mut sources)?;

    let views = cross_refs::resolve_views(cross_refs::Loaded {
        map: &map,
        blocks: &blocks,
        descriptors: &descriptors,
        ring: &ring,
        words: &words,
        soc: soc_layout,
        map_src: &map_src,
        desc_src: &desc_src,
        word_src: &word_src,
    })?;
    let mut csrs = Csrs {
        soc,
        map,
        blocks,
        descriptors,
        ring,
        words,
        profiles,
        default_profile,
        sizings: Vec::new(),
        default_sizing: 0,
        sources,
        views,
    };
    udma::check_ring_ids(&csrs)?;
    constraints::check_constraints(&csrs, &map_src, &desc_src, &prof_src)?;
    // Last: a profile is checked against the die map, whose own rules come first.
    let (sizings, default_sizing) = sizing::build_sizings(&size_src, size_raw, &csrs.views)?;
    csrs.sizings = sizings;
    csrs.default_sizing = default_sizing;
    Ok(csrs)
}
