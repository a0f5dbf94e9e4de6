//! `xdie gen` writes all or nothing (issue 10, class 2): when any output cannot be written (a
//! directory where a file goes, a file where a folder goes, `--out` itself a file), the exit
//! status is 2, the error says nothing was changed, and the output tree is byte-identical to
//! before: no output replaced, no temporary file left, no folder made.

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every entry below `root`: files with their bytes, folders as `None` (so that a new empty
/// folder or a leftover temporary file shows as a difference).
fn tree(root: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for e in std::fs::read_dir(dir).expect("read directory") {
            let p = e.expect("entry").path();
            let rel = p.strip_prefix(root).expect("below root").to_path_buf();
            if p.is_dir() {
                out.insert(rel, None);
                walk(root, &p, out);
            } else {
                out.insert(rel, Some(std::fs::read(&p).expect("read file")));
            }
        }
    }
    let mut out = BTreeMap::new();
    if root.is_dir() {
        walk(root, root, &mut out);
    }
    out
}

/// A CSR copy whose outputs differ from the shipped ones in many files (a SoC field's
/// description lands in the SV package, the C header and the docs).
fn changed_csrs(tag: &str) -> (Scratch, PathBuf) {
    let (s, csrs) = csrs_copy(tag);
    let file = csrs.join("soc_address.yaml");
    let text = std::fs::read_to_string(&file).expect("read");
    let from = "description: Die-local byte address.";
    assert!(
        text.contains(from),
        "the anchor text is in soc_address.yaml"
    );
    std::fs::write(
        &file,
        text.replace(from, "description: Die-local byte address (edited)."),
    )
    .expect("write");
    (s, csrs)
}

/// Run `xdie gen` into `out` and check it refused, said so, and left `out` as it was.
fn refused_untouched(csrs: &Path, out: &Path, says: &str) {
    let before = tree(out);
    let o = run(xdie()
        .args(["gen", "--csrs"])
        .arg(csrs)
        .arg("--out")
        .arg(out));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "exit status; stderr: {err}");
    assert!(
        err.contains(says),
        "stderr should name the problem `{says}`: {err}"
    );
    assert!(
        err.contains("no output was changed"),
        "stderr should say the tree is untouched: {err}"
    );
    let after = tree(out);
    let diff: Vec<_> = before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert!(diff.is_empty(), "the output tree changed: {diff:?}");
}

#[test]
fn a_directory_where_an_output_goes_changes_nothing() {
    let (s, csrs) = changed_csrs("outdir");
    let out = s.join("out");
    gen_into(&repo().join("csrs"), &out);
    // The last output written in order, so that every other one would already be staged.
    let victim = out.join("docs/register-map.html");
    std::fs::remove_file(&victim).expect("rm");
    std::fs::create_dir(&victim).expect("mkdir");
    refused_untouched(&csrs, &out, "is a directory");
}

#[test]
fn a_file_where_a_folder_goes_changes_nothing() {
    let (s, csrs) = changed_csrs("outfile");
    let out = s.join("out");
    gen_into(&repo().join("csrs"), &out);
    let include = out.join("include");
    std::fs::remove_dir_all(&include).expect("rm");
    std::fs::write(&include, "not a folder").expect("write");
    refused_untouched(&csrs, &out, "is a file where a folder");
}

#[test]
fn a_fresh_tree_gets_no_empty_folders_on_failure() {
    let (s, csrs) = changed_csrs("outfresh");
    let out = s.join("out");
    std::fs::create_dir(&out).expect("mkdir");
    // Folders sorted after `docs` would be made before the failure is found, were it found late.
    std::fs::write(out.join("rtl"), "in the way").expect("write");
    refused_untouched(&csrs, &out, "is a file where a folder");
}

#[test]
fn out_itself_a_file_changes_nothing() {
    let (s, csrs) = changed_csrs("outself");
    let out = s.join("out");
    std::fs::write(&out, "a file").expect("write");
    let o = run(xdie()
        .args(["gen", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no output was changed"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&out).expect("read"), b"a file");
}

#[test]
fn a_good_run_leaves_no_temporary_files() {
    let (s, csrs) = changed_csrs("outgood");
    let out = s.join("out");
    gen_into(&repo().join("csrs"), &out);
    gen_into(&csrs, &out);
    let leftovers: Vec<_> = tree(&out)
        .into_keys()
        .filter(|p| p.to_string_lossy().contains(".xdie-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A run that cannot write its outputs removes no orphan either (a generated file the CSRs no
/// longer produce stays until a run succeeds).
#[test]
fn a_refused_run_removes_no_orphan() {
    let (s, csrs) = changed_csrs("outorphan");
    let out = s.join("out");
    gen_into(&repo().join("csrs"), &out);
    std::fs::copy(
        out.join("rtl/gen/xdie_die_fpga.sv"),
        out.join("rtl/gen/xdie_die_old.sv"),
    )
    .expect("plant an orphan");
    let victim = out.join("docs/register-map.html");
    std::fs::remove_file(&victim).expect("rm");
    std::fs::create_dir(&victim).expect("mkdir");
    refused_untouched(&csrs, &out, "is a directory");
    std::fs::remove_dir(&victim).expect("rmdir");
    gen_into(&csrs, &out);
    assert!(
        !out.join("rtl/gen/xdie_die_old.sv").exists(),
        "the orphan outlived a good run"
    );
}
