//! The one reader of `rtl/xdie.f`, the compile-order list of every SystemVerilog file (generated
//! ones under rtl/gen/, hand-written ones under rtl/core/). The testbench's build script and the
//! root crate's RTL checks both include this file (`#[path]` module): it needs only std, so the
//! build script gains no dependency, and both read the list and the files it names one way.

#![allow(dead_code)] // each includer uses a part

use std::path::{Path, PathBuf};

/// The filelist, relative to the repository (or `xdie gen --out`) root.
pub const FILELIST: &str = "rtl/xdie.f";

/// Verilator configuration every lint run passes before the filelist (its waivers, with the
/// reason for each, are in the file).
pub const LINT_CONFIG: &str = "rtl/lint.vlt";

/// The listed files, relative to `root`, in compile order. Lines are paths; `//` starts a
/// comment line. Anything else (an option such as `-f` or `+define+`) is an error: the list is
/// generated and holds paths only, so a tool that is not Verilator can read it too.
pub fn read(root: &Path) -> Result<Vec<PathBuf>, String> {
    let path = root.join(FILELIST);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut files = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with("//") {
            continue;
        }
        if l.starts_with('-') || l.starts_with('+') {
            return Err(format!(
                "{}:{}: `{l}`: the filelist holds paths only",
                path.display(),
                i + 1
            ));
        }
        files.push(PathBuf::from(l));
    }
    Ok(files)
}

/// What one SystemVerilog file declares: module and package names, in file order.
#[derive(Debug, Default, Clone)]
pub struct Declares {
    pub modules: Vec<String>,
    pub packages: Vec<String>,
}

/// Modules and packages a SystemVerilog text declares (`module NAME` / `package NAME` at the
/// start of a line).
pub fn declares(text: &str) -> Declares {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut d = Declares::default();
    for l in text.lines().map(str::trim_start) {
        if let Some(rest) = l.strip_prefix("module ") {
            d.modules.push(ident(rest));
        } else if let Some(rest) = l.strip_prefix("package ") {
            d.packages.push(ident(rest));
        }
    }
    d.modules.retain(|m| !m.is_empty());
    d.packages.retain(|p| !p.is_empty());
    d
}
