//! Records which RTL the models are built from: one line per file Verilator reads (the filelist
//! and every file it names), `<path relative to the repository> <FNV-1a hash of the text>`, in
//! OUT_DIR/rtl_fingerprint.txt. The library embeds it (`xdie_tb::rtl_fingerprint`), so
//! `xdie sim --csrs DIR` can tell whether DIR generates the RTL the models were compiled from.

#[path = "../src/fnv.rs"]
mod fnv;

use std::fs;
use std::path::{Path, PathBuf};

/// The file's name in OUT_DIR.
pub const FINGERPRINT: &str = "rtl_fingerprint.txt";

/// Write the fingerprint of `files` (relative to `repo`) to `out`.
pub fn write_fingerprint(repo: &Path, files: &[PathBuf], out: &Path) {
    let mut text = String::new();
    for f in files {
        let full = repo.join(f);
        let bytes =
            fs::read(&full).unwrap_or_else(|e| panic!("cannot read {}: {e}", full.display()));
        let rel = f.strip_prefix(repo).unwrap_or(f);
        text.push_str(&format!(
            "{} {:016x}\n",
            rel.display(),
            fnv::fnv1a64(&bytes)
        ));
    }
    let path = out.join(FINGERPRINT);
    if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}
