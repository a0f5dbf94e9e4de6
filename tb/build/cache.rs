//! The content-addressed model cache: where compiled models live, how an entry is named, and
//! which older entries are kept.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::compile::{package_compiler, package_flags, CXX_FLAGS, DEFINES, PACKAGE_OPT};
use crate::PACKAGE_TOPS;

/// Where verilated and compiled models are kept: `<target>/<profile>/xdie-models`, shared by
/// every build of this crate under one profile. `cargo run` and `cargo test`, or two feature
/// sets, give the build script different OUT_DIRs, and a package model costs minutes to build.
/// An entry is named by its model and a hash of everything that goes into it, so a stale entry
/// is never reused; building a new entry removes the model's older ones.
pub fn model_cache(out: &Path) -> PathBuf {
    // OUT_DIR is <target>/<profile>/build/<crate>-<hash>/out.
    match out.ancestors().nth(3) {
        Some(profile) if out.ancestors().nth(2).is_some_and(|b| b.ends_with("build")) => {
            profile.join("xdie-models")
        }
        _ => out.join("models"),
    }
}

/// Hash of everything a model's archive is made from: Verilator's output (which is
/// deterministic), the compiler flags and how the model is compiled.
pub fn model_hash(name: &str, mdir: &Path) -> u64 {
    let mut h = DefaultHasher::new();
    CXX_FLAGS.hash(&mut h);
    DEFINES.hash(&mut h);
    PACKAGE_TOPS.contains(&name).hash(&mut h);
    if PACKAGE_TOPS.contains(&name) {
        PACKAGE_OPT.hash(&mut h);
        package_flags().hash(&mut h);
        package_compiler().hash(&mut h);
    }
    let mut files: Vec<PathBuf> = fs::read_dir(mdir)
        .expect("read -Mdir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp" || x == "h"))
        .collect();
    files.sort();
    for f in files {
        f.file_name().hash(&mut h);
        fs::read(&f).expect("model source").hash(&mut h);
    }
    h.finish()
}

/// Older entries of a model kept besides the one in use: switching between two versions of the
/// RTL (a branch and main, an experiment and its revert) then costs no rebuild.
const KEEP_OLDER: usize = 1;

/// Removes the model's interrupted builds and all but its `KEEP_OLDER` most recently used
/// entries besides `keep`, the one in use.
pub fn prune_cache(cache: &Path, name: &str, keep: &str) {
    let Ok(entries) = fs::read_dir(cache) else {
        return;
    };
    let mut older = Vec::new();
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&format!("{name}-")) else {
            continue;
        };
        // Another model whose name extends this one (xdie_mem vs xdie_mem_x) is not ours.
        let (hash, partial) = match rest.strip_suffix(".partial") {
            Some(h) => (h, true),
            None => (rest, false),
        };
        let ours = hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit());
        if !ours || file == keep || file == format!("{keep}.partial") {
            continue;
        }
        let used = fs::metadata(e.path().join("complete")).and_then(|m| m.modified());
        match (partial, used) {
            (false, Ok(t)) => older.push((t, e.path())),
            _ => {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
    older.sort_by_key(|(used, _)| std::cmp::Reverse(*used));
    for (_, path) in older.into_iter().skip(KEEP_OLDER) {
        let _ = fs::remove_dir_all(path);
    }
}

/// Marks a cache entry as just used.
pub fn touch(entry: &Path) {
    let _ = fs::write(entry.join("complete"), "");
}
