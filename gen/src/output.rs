//! Writing generated files atomically, and comparing them with what is on disk (drift check).

use crate::emit::OutFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How one generated file differs from the file on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift {
    Missing(PathBuf),
    Differs { path: PathBuf, first_line: usize },
}

impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drift::Missing(p) => write!(f, "missing:  {}", p.display()),
            Drift::Differs { path, first_line } => {
                write!(
                    f,
                    "differs:  {} (first difference at line {first_line})",
                    path.display()
                )
            }
        }
    }
}

/// Compare every generated file with the one under `root`.
pub fn check(root: &Path, files: &[OutFile]) -> Vec<Drift> {
    let mut drift = Vec::new();
    for f in files {
        match std::fs::read_to_string(root.join(&f.path)) {
            Err(_) => drift.push(Drift::Missing(f.path.clone())),
            Ok(disk) if disk != f.contents => {
                let first_line = disk
                    .lines()
                    .zip(f.contents.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| disk.lines().count().min(f.contents.lines().count()))
                    + 1;
                drift.push(Drift::Differs {
                    path: f.path.clone(),
                    first_line,
                });
            }
            Ok(_) => {}
        }
    }
    drift
}

/// Write every file under `root`. Each file is written to a temporary sibling and renamed over
/// the old one, and nothing is renamed until every temporary file is complete: a failure leaves
/// the previous outputs as they were. Files whose contents are unchanged are not touched, so
/// their timestamps (and downstream rebuilds) stay put. Returns the number of files changed.
pub fn write_all(root: &Path, files: &[OutFile]) -> std::io::Result<usize> {
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = (|| {
        for f in files {
            let dest = root.join(&f.path);
            if std::fs::read_to_string(&dest).is_ok_and(|d| d == f.contents) {
                continue;
            }
            if let Some(dir) = dest.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let tmp = temp_name(&dest);
            let mut out = std::fs::File::create(&tmp)?;
            staged.push((tmp.clone(), dest));
            out.write_all(f.contents.as_bytes())?;
            out.sync_all()?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        for (tmp, _) in &staged {
            let _ = std::fs::remove_file(tmp);
        }
        return Err(e);
    }
    for (tmp, dest) in &staged {
        std::fs::rename(tmp, dest)?;
    }
    Ok(staged.len())
}

fn temp_name(dest: &Path) -> PathBuf {
    let mut name = dest.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".xdie-tmp-{}", std::process::id()));
    dest.with_file_name(name)
}
