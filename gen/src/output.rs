//! Writing generated files atomically, and comparing them with what is on disk (drift check).

use crate::emit::OutFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How one generated file differs from the file on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift {
    Missing(PathBuf),
    /// A FIFO, device or directory stands where the file goes (never opened: a FIFO would block).
    NotAFile(PathBuf),
    Differs {
        path: PathBuf,
        first_line: usize,
    },
}

impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drift::Missing(p) => write!(f, "missing:  {}", p.display()),
            Drift::NotAFile(p) => write!(
                f,
                "not a file: {} (a directory, FIFO or device where a generated file goes)",
                p.display()
            ),
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
        let on_disk = root.join(&f.path);
        if std::fs::metadata(&on_disk).is_ok_and(|m| !m.is_file()) {
            drift.push(Drift::NotAFile(f.path.clone()));
            continue;
        }
        match std::fs::read_to_string(&on_disk) {
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

/// Why `write_all` stopped, and what state it left the tree in.
#[derive(Debug)]
pub struct WriteError {
    /// The output (or folder) that could not be written.
    pub path: PathBuf,
    pub cause: String,
    /// Outputs that could not be put back after a failure in the commit phase (empty when the
    /// tree is as it was before the call, which is the normal case).
    pub not_restored: Vec<PathBuf>,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}; ", self.path.display(), self.cause)?;
        if self.not_restored.is_empty() {
            write!(
                f,
                "no output was changed (the previous files are as they were)"
            )
        } else {
            write!(f, "these outputs could not be restored:")?;
            for p in &self.not_restored {
                write!(f, " {}", p.display())?;
            }
            Ok(())
        }
    }
}

impl std::error::Error for WriteError {}

fn fail(path: &Path, cause: impl std::fmt::Display) -> WriteError {
    WriteError {
        path: path.to_path_buf(),
        cause: cause.to_string(),
        not_restored: Vec::new(),
    }
}

/// One output that differs from the disk: its destination, its previous contents (None when it
/// is new) and its staged temporary file.
struct Staged<'a> {
    dest: PathBuf,
    old: Option<Vec<u8>>,
    tmp: PathBuf,
    contents: &'a str,
}

/// Write every file under `root`, all or nothing: [`apply`] with nothing to remove. Returns the
/// number of files changed.
pub fn write_all(root: &Path, files: &[OutFile]) -> Result<usize, WriteError> {
    apply(root, files, &[]).map(|a| a.changed)
}

/// What [`apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// Outputs written (new or changed).
    pub changed: usize,
    /// Files removed, relative to the root (those of `remove` that were there).
    pub removed: Vec<PathBuf>,
}

/// Whether `rel` is a plain path below an output root: not empty, and names only (no root, no
/// `.` or `..`). The one rule for output paths and the manifest's entries.
pub fn is_plain_relative(rel: &Path) -> bool {
    !rel.as_os_str().is_empty()
        && rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// A path relative to the root that stays below it ([`is_plain_relative`]).
fn below_root(rel: &Path) -> Result<(), WriteError> {
    if !is_plain_relative(rel) {
        return Err(fail(rel, "an output path must stay inside the output root"));
    }
    Ok(())
}

/// Write every file under `root` and remove the files `remove` names (relative to `root`;
/// regular files only; a missing one is skipped), all or nothing. First every destination is
/// checked (a folder where a file goes, a file where a folder goes, a path that would leave
/// `root`), then every changed output is staged as a temporary sibling (creating missing
/// folders) and every file to remove is renamed aside to one, and only then are the temporary
/// files renamed over the old ones. A failure before the renames removes the temporary files
/// and the folders made for them and puts the set-aside files back; a failure during the renames
/// also puts the renamed outputs back. Either way the tree is left byte-identical and the error
/// says so. The set-aside files are deleted last. Files whose contents are unchanged are not
/// touched, so their timestamps (and downstream rebuilds) stay put.
pub fn apply(root: &Path, files: &[OutFile], remove: &[PathBuf]) -> Result<Applied, WriteError> {
    // 1. Check: nothing is created or changed yet.
    let mut staged: Vec<Staged> = Vec::new();
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut aside: Vec<(PathBuf, PathBuf, &Path)> = Vec::new();
    for rel in remove {
        below_root(rel)?;
        if files.iter().any(|f| f.path == *rel) {
            return Err(fail(rel, "is both an output and a file to remove"));
        }
        let dest = root.join(rel);
        match std::fs::symlink_metadata(&dest) {
            Ok(m) if m.file_type().is_file() => aside.push((temp_name(&dest), dest, rel)),
            Ok(_) => return Err(fail(&dest, "is not a regular file, so not a generated one")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail(&dest, e)),
        }
    }
    for f in files {
        let rel = &f.path;
        below_root(rel)?;
        let dest = root.join(rel);
        // Folders first: a file in the way of one would otherwise show as "not a directory".
        let parent = dest.parent().unwrap_or(root);
        let missing = missing_dirs(parent)?;
        // Followed through a link: what would be read is what counts.
        let old = match std::fs::metadata(&dest) {
            Ok(m) if m.is_dir() => {
                return Err(fail(&dest, "is a directory where an output file goes"))
            }
            Ok(m) if !m.is_file() => {
                return Err(fail(
                    &dest,
                    "is a FIFO or device where an output file goes (not opened)",
                ))
            }
            Ok(_) => Some(std::fs::read(&dest).map_err(|e| fail(&dest, e))?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(fail(&dest, e)),
        };
        if old.as_deref() == Some(f.contents.as_bytes()) {
            continue;
        }
        for d in missing {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        staged.push(Staged {
            tmp: temp_name(&dest),
            dest,
            old,
            contents: &f.contents,
        });
    }
    // 2. Stage: folders, then complete temporary files.
    let mut made: Vec<&Path> = Vec::new();
    let mut written: Vec<&Path> = Vec::new();
    let mut set_aside = 0;
    let staging: Result<(), WriteError> = (|| {
        for d in &dirs {
            std::fs::create_dir(d).map_err(|e| fail(d, e))?;
            made.push(d);
        }
        for s in &staged {
            let mut out = std::fs::File::create(&s.tmp).map_err(|e| fail(&s.dest, e))?;
            written.push(&s.tmp);
            out.write_all(s.contents.as_bytes())
                .and_then(|()| out.sync_all())
                .map_err(|e| fail(&s.dest, e))?;
        }
        for (tmp, dest, _) in &aside {
            std::fs::rename(dest, tmp).map_err(|e| fail(dest, e))?;
            set_aside += 1;
        }
        Ok(())
    })();
    if let Err(mut e) = staging {
        for t in &written {
            let _ = std::fs::remove_file(t);
        }
        e.not_restored = put_back(&aside[..set_aside]);
        remove_dirs(&made);
        return Err(e);
    }
    // 3. Commit: rename; on failure put back what was renamed.
    for (i, s) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(&s.tmp, &s.dest) {
            let mut err = fail(&s.dest, e);
            for t in &staged[i..] {
                let _ = std::fs::remove_file(&t.tmp);
            }
            for done in &staged[..i] {
                let back = match &done.old {
                    Some(old) => std::fs::write(&done.tmp, old)
                        .and_then(|()| std::fs::rename(&done.tmp, &done.dest)),
                    None => std::fs::remove_file(&done.dest),
                };
                if back.is_err() {
                    let _ = std::fs::remove_file(&done.tmp);
                    err.not_restored.push(done.dest.clone());
                }
            }
            err.not_restored.extend(put_back(&aside));
            remove_dirs(&made);
            return Err(err);
        }
    }
    // 4. The removed files, set aside until now, go for good.
    for (tmp, _, _) in &aside {
        let _ = std::fs::remove_file(tmp);
    }
    Ok(Applied {
        changed: staged.len(),
        removed: aside.iter().map(|(_, _, rel)| rel.to_path_buf()).collect(),
    })
}

/// Rename set-aside files back to their places; returns those that could not be.
fn put_back(aside: &[(PathBuf, PathBuf, &Path)]) -> Vec<PathBuf> {
    aside
        .iter()
        .filter(|(tmp, dest, _)| std::fs::rename(tmp, dest).is_err())
        .map(|(_, dest, _)| dest.clone())
        .collect()
}

/// The folders from the nearest existing ancestor of `dir` down to `dir` that do not exist yet,
/// outermost first; an ancestor that exists but is not a folder is an error.
fn missing_dirs(dir: &Path) -> Result<Vec<PathBuf>, WriteError> {
    let mut missing = Vec::new();
    let mut cur = Some(dir);
    while let Some(d) = cur {
        if d.as_os_str().is_empty() {
            break;
        }
        match std::fs::metadata(d) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => return Err(fail(d, "is a file where a folder of outputs goes")),
            // Not a directory: an ancestor is a file; the walk up finds and names it.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                missing.push(d.to_path_buf())
            }
            Err(e) => return Err(fail(d, e)),
        }
        cur = d.parent();
    }
    missing.reverse();
    Ok(missing)
}

/// Remove folders this call made (innermost first; only if empty).
fn remove_dirs(made: &[&Path]) {
    for d in made.iter().rev() {
        let _ = std::fs::remove_dir(d);
    }
}

fn temp_name(dest: &Path) -> PathBuf {
    let mut name = std::ffi::OsString::from(".");
    name.push(dest.file_name().unwrap_or_default());
    name.push(format!(".xdie-tmp-{}", std::process::id()));
    dest.with_file_name(name)
}
