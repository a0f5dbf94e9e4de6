//! Files the CLI writes besides its reports (`xdie sim --timeline`, `--trace`; `xdie gen`'s
//! outputs): checked before the run, so that a bad one costs no simulation, and written
//! atomically.
//!
//! An output is refused (exit 2, naming the flag and the path) when it
//! - is a directory, a FIFO or a device (never opened: opening a FIFO waits for a reader);
//! - lies in a folder that does not exist;
//! - resolves to one of the run's inputs (the scenario, its topology, a file of `--csrs`), by
//!   its own path, through a symbolic link or as a hard link of one: writing it would destroy
//!   the input;
//! - is the same file as another output of the run.
//!
//! A written output goes to a temporary file in its own folder first, which is then renamed over
//! it (`xdie_gen::output::apply`, the generator's all-or-nothing writer): a run that fails or is
//! killed midway leaves the previous file whole.

use std::path::{Path, PathBuf};

/// An input file of the run: its path as given and its identity on disk.
pub struct Input {
    path: PathBuf,
    id: Option<FileId>,
    canonical: Option<PathBuf>,
}

/// A file's identity: device and inode (the same file by any path or link).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| FileId(m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Path) -> Option<FileId> {
    None
}

/// Most input files collected from a folder (a `--csrs` of the shipped set holds a few dozen).
const MAX_INPUT_FILES: usize = 10_000;

/// The inputs of a run: the files given, and every file below the folders given.
pub fn inputs(files: &[&Path], dirs: &[&Path]) -> Vec<Input> {
    let mut out: Vec<Input> = files.iter().map(|p| input(p)).collect();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            if out.len() >= MAX_INPUT_FILES {
                return out;
            }
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(_) => out.push(input(&p)),
                Err(_) => {}
            }
        }
    }
    out
}

fn input(p: &Path) -> Input {
    Input {
        path: p.to_path_buf(),
        id: file_id(p),
        canonical: std::fs::canonicalize(p).ok(),
    }
}

/// The path `p` would be written at, links resolved (the file itself need not exist).
fn resolved(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = std::fs::canonicalize(p) {
        return Some(c);
    }
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(p.file_name()?))
}

/// Check output `path` of option `flag` against the rules of the module; `others` are the
/// run's other outputs (option and path). The error is the whole message after `error: `.
pub fn check(
    flag: &str,
    path: &Path,
    inputs: &[Input],
    others: &[(&str, &Path)],
) -> Result<(), String> {
    let shown = crate::printable::path(path);
    let bad = |why: String| Err(format!("{flag} {shown}: {why}"));
    if path.as_os_str().is_empty() || path.file_name().is_none() {
        return bad("names no file".into());
    }
    // Followed through a link: what would be written is what counts.
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return bad("is a directory, not a file".into()),
        Ok(m) if !m.is_file() => {
            return bad(format!(
                "{}not a regular file (an output is written to a file, not to a FIFO or device; \
                 not opened)",
                special_kind(&m.file_type())
            ))
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if !parent.is_dir() {
                return bad(format!(
                    "its folder {} does not exist (or is not a folder)",
                    crate::printable::path(parent)
                ));
            }
        }
        Err(e) => return bad(format!("cannot be written: {e}")),
    }
    if let Some(i) = input_at(path, inputs) {
        return bad(format!(
            "is {}, an input of this run (refused: writing it would overwrite the input)",
            crate::printable::path(i)
        ));
    }
    let id = file_id(path);
    let at = resolved(path);
    for (other, p) in others {
        let same = (id.is_some() && id == file_id(p)) || (at.is_some() && at == resolved(p));
        if same {
            return bad(format!(
                "is also the file of {other} (two outputs of one run cannot share a file)"
            ));
        }
    }
    Ok(())
}

/// The input `path` resolves to (by its path, a symbolic link or a hard link), if any.
pub fn input_at<'a>(path: &Path, inputs: &'a [Input]) -> Option<&'a Path> {
    let id = file_id(path);
    let at = resolved(path);
    inputs
        .iter()
        .find(|i| (id.is_some() && id == i.id) || (at.is_some() && at == i.canonical))
        .map(|i| i.path.as_path())
}

fn special_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "is a FIFO, ";
        }
        if t.is_char_device() {
            return "is a character device, ";
        }
        if t.is_block_device() {
            return "is a block device, ";
        }
        if t.is_socket() {
            return "is a socket, ";
        }
    }
    let _ = t;
    "is "
}

/// Write `contents` to `path` atomically: a temporary file in the same folder, renamed over it.
pub fn write(flag: &str, path: &Path, contents: String) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Some(name) = path.file_name() else {
        return Err(format!(
            "{flag} {}: names no file",
            crate::printable::path(path)
        ));
    };
    let file = xdie_gen::emit::OutFile::new(PathBuf::from(name), contents);
    xdie_gen::output::apply(dir, &[file], &[])
        .map(|_| ())
        .map_err(|e| {
            format!(
                "{flag} {}: {}",
                crate::printable::path(path),
                crate::printable::text(&e.cause)
            )
        })
}

/// The trace file of die `i` of a composed system traced to `path`: `<stem>.die<i>.<ext>` (the
/// testbench's naming, `xdie_tb::system::die_trace`).
pub fn die_trace(path: &Path, i: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "trace".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(|| "fst".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.die{i}.{ext}"))
}
