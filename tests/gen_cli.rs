//! `xdie gen` and `xdie fold` from the outside: deterministic output, the drift check CI runs,
//! a CSR edit flowing into the outputs, and folds that agree with the model.

mod common;

use common::*;
use std::path::Path;

fn model(csrs: &Path) -> xdie_csr::Csrs {
    xdie_csr::load(csrs).unwrap_or_else(|e| panic!("csrs/ does not load: {e}"))
}

#[test]
fn render_is_deterministic() {
    let csrs = model(&repo().join("csrs"));
    let a = xdie_gen::emit::render_all(&csrs).expect("render");
    let b = xdie_gen::emit::render_all(&model(&repo().join("csrs"))).expect("render");
    assert_eq!(a, b, "two renders of one model differ");
    // Paths are unique: no emitter overwrites another.
    let mut paths: Vec<_> = a.iter().map(|f| f.path.clone()).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), a.len(), "two emitters write the same file");
}

#[test]
fn two_gen_runs_write_identical_trees() {
    let s = Scratch::new("gen-twice");
    let csrs = repo().join("csrs");
    gen_into(&csrs, &s.join("a"));
    gen_into(&csrs, &s.join("b"));
    let (a, b) = (snapshot(&s.join("a")), snapshot(&s.join("b")));
    assert!(!a.is_empty());
    assert_eq!(a, b, "two `xdie gen` runs wrote different files");
    // Running again over an up-to-date tree changes nothing.
    gen_into(&csrs, &s.join("a"));
    assert_eq!(snapshot(&s.join("a")), b);
}

/// The CI drift check: the committed rtl/, include/ and docs/ are what csrs/ generates.
#[test]
fn committed_outputs_are_up_to_date() {
    let o = run(xdie()
        .current_dir(repo())
        .args(["gen", "--check", "--csrs", "csrs", "--out", "."]));
    assert!(
        o.status.success(),
        "generated files in rtl/, include/ or docs/ are stale; run `cargo run --release -- gen` \
         and commit the result.\n{}{}",
        stdout(&o),
        stderr(&o)
    );
}

/// An edit of csrs/ makes `--check` fail and name the stale file; regenerating carries the
/// new value into the outputs.
#[test]
fn check_detects_a_csr_edit_and_gen_follows_it() {
    let (s, csrs) = csrs_copy("drift");
    let out = s.join("out");
    gen_into(&csrs, &out);
    let ok = run(xdie()
        .args(["gen", "--check", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    assert!(ok.status.success(), "{}", stderr(&ok));

    // Move the remap-window aperture to the next free slot of its own size.
    let before = model(&csrs);
    let old = &before.views.apertures.xt_window;
    let new_base = old.base + old.size;
    edit(
        &csrs.join("address_map.yaml"),
        &format!("base: {:#x}", old.base),
        &format!("base: {new_base:#x}"),
    );
    // Halve the semaphore array: every semaphore window together.
    let sems = before.views.sem_count();
    let text = std::fs::read_to_string(csrs.join("blocks/evt_sem.json")).unwrap();
    let mut edited = String::new();
    for l in text.lines() {
        if l.contains("\"Role\": \"sem_") {
            edited.push_str(&l.replace(
                &format!("\"ArraySize\": {sems}"),
                &format!("\"ArraySize\": {}", sems / 2),
            ));
        } else {
            edited.push_str(l);
        }
        edited.push('\n');
    }
    std::fs::write(csrs.join("blocks/evt_sem.json"), edited).unwrap();
    let after = model(&csrs);
    assert_eq!(after.views.apertures.xt_window.base, new_base);
    assert_eq!(after.views.sem_count(), sems / 2);
    let sem_read = &after.views.evt_sem.window(xdie_csr::SemOp::Read).bundle;

    let o = run(xdie()
        .args(["gen", "--check", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("docs/register-map.md"), "stderr: {err}");
    assert!(err.contains("cargo run --release -- gen"), "stderr: {err}");

    gen_into(&csrs, &out);
    let docs = std::fs::read_to_string(out.join("docs/register-map.md")).unwrap();
    let hex = |v: u64| format!("0x{v:X}");
    assert!(
        docs.contains(&format!("| `XT_WINDOW` | {} |", hex(new_base))),
        "docs do not show the moved aperture"
    );
    let last = sem_read.offset + (sem_read.count - 1) * sem_read.stride;
    assert!(
        docs.contains(&format!("instance {} at {}", sem_read.count - 1, hex(last))),
        "docs do not show the new semaphore count"
    );
    // The C header, once generated, carries the new base too (any hex spelling).
    let include = out.join("include");
    if include.is_dir() {
        let headers: String = snapshot(&include)
            .values()
            .map(|b| {
                String::from_utf8_lossy(b)
                    .to_lowercase()
                    .replace(['_', '\''], "")
            })
            .collect();
        if headers.contains(&format!("{:x}", old.base)) {
            assert!(
                headers.contains(&format!("{new_base:x}")),
                "include/ names the old XT_WINDOW base but not the new one"
            );
        }
    }
    let ok = run(xdie()
        .args(["gen", "--check", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    assert!(ok.status.success(), "{}", stderr(&ok));
}

fn fold_cli(args: &[&str]) -> String {
    let o = run(xdie()
        .arg("fold")
        .arg("--csrs")
        .arg(repo().join("csrs"))
        .args(args));
    assert!(o.status.success(), "xdie fold {args:?}: {}", stderr(&o));
    stdout(&o)
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("").trim()
}

/// The seed's worked example: dst_local 0x100000 on die 1 through the neighbor fold.
const EX_LOCAL: u64 = 0x10_0000;
const EX_DIE: u64 = 1;
const EX_CHIP: u64 = 0x12;

#[test]
fn fold_neighbor_matches_model_and_seed() {
    let c = model(&repo().join("csrs"));
    let soc = &c.views.soc;
    let expect = soc.fold_neighbor(EX_LOCAL, EX_DIE);
    let out = fold_cli(&[
        "--local",
        &format!("{EX_LOCAL:#x}"),
        "--die",
        &EX_DIE.to_string(),
        "--neighbor",
    ]);
    assert_eq!(last_line(&out), format!("{expect:#x}"), "{out}");
    // The seed's published result, and the bits it names.
    assert_eq!(last_line(&out), "0x58800000100000");
    let n = &soc.neighbor;
    let bits = (1u64 << EX_LOCAL.trailing_zeros())
        | 1 << n.die.lsb
        | 1 << n.exit_die.lsb
        | 1 << n.neighbor_route.lsb
        | 1 << n.id_valid.lsb;
    assert_eq!(expect, bits);
}

#[test]
fn fold_chip_id_matches_model() {
    let c = model(&repo().join("csrs"));
    let soc = &c.views.soc;
    let expect = soc.fold_chip_id(EX_LOCAL, EX_DIE, EX_CHIP);
    let out = fold_cli(&[
        "--view",
        "chip-id",
        "--local",
        &format!("{EX_LOCAL:#x}"),
        "--die",
        &EX_DIE.to_string(),
        "--chip-id",
        &format!("{EX_CHIP:#x}"),
    ]);
    assert_eq!(last_line(&out), format!("{expect:#x}"), "{out}");
    let l = &soc.local;
    let get = |f: &xdie_csr::BitField| f.get(expect as u128) as u64;
    assert_eq!(
        (
            get(&l.local),
            get(&l.die),
            get(&l.cayman_id),
            get(&l.cayman_id_valid)
        ),
        (EX_LOCAL, EX_DIE, EX_CHIP, 1)
    );
}

#[test]
fn fold_decode_prints_every_field_of_both_views() {
    let c = model(&repo().join("csrs"));
    let addr = c.views.soc.fold_neighbor(EX_LOCAL, EX_DIE);
    let out = fold_cli(&["--decode", &format!("{addr:#x}")]);
    for v in &c.soc.views {
        assert!(out.contains(&format!("{} view", v.name)), "{out}");
        for f in &v.fields {
            let value = format!("= {:#x}", f.get(addr as u128));
            assert!(
                out.lines()
                    .any(|l| l.split_whitespace().next() == Some(f.name.as_str())
                        && l.trim_end().ends_with(&value)),
                "no line `{} ... {value}` in:\n{out}",
                f.name
            );
        }
    }
}

#[test]
fn fold_refuses_bad_arguments() {
    let c = model(&repo().join("csrs"));
    let die = &c.views.soc.neighbor.die;
    let o = run(xdie()
        .arg("fold")
        .arg("--csrs")
        .arg(repo().join("csrs"))
        .args(["--local", "0x0", "--die"])
        .arg((die.value_mask() + 1).to_string())
        .arg("--neighbor"));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("does not fit"), "{}", stderr(&o));
}

/// A system routes in one view: the chip-id fold is refused in the neighbor view (the default,
/// the single package's) and the neighbor fold in the chip-id view.
#[test]
fn fold_refuses_a_fold_the_view_cannot_express() {
    for args in [
        vec!["--chip-id", "0x12"],
        vec!["--view", "neighbor", "--chip-id", "0x12"],
        vec!["--view", "chip-id", "--neighbor"],
    ] {
        let o = run(xdie()
            .arg("fold")
            .arg("--csrs")
            .arg(repo().join("csrs"))
            .args(["--local", "0x100000", "--die", "1"])
            .args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains("view"), "{args:?}: {}", stderr(&o));
    }
}

/// The neighbor view's off-package form: EXIT_SENG names the C2C port, EXIT_DIE the sibling hop.
#[test]
fn fold_neighbor_exit_port_sets_the_path_fields() {
    let c = model(&repo().join("csrs"));
    let n = &c.views.soc.neighbor;
    let out = fold_cli(&[
        "--local",
        &format!("{EX_LOCAL:#x}"),
        "--die",
        "0",
        "--neighbor",
        "--exit-port",
        "2",
    ]);
    let a = u64::from_str_radix(last_line(&out).trim_start_matches("0x"), 16).expect("hex");
    let get = |f: &xdie_csr::BitField| f.get(a as u128) as u64;
    assert_eq!(
        (get(&n.exit_seng), get(&n.exit_die), get(&n.die)),
        (2, 0, 0)
    );
    assert_eq!(get(&n.neighbor_route), 1);
}

/// `--topology`: the fold comes from the system's view; in the single package (neighbor view)
/// it is the seed's worked example, and in the ring (chip-id view) it names the chip id.
#[test]
fn fold_in_a_topology_uses_its_view() {
    let c = model(&repo().join("csrs"));
    let soc = &c.views.soc;
    let pkg = repo().join("topologies/package.yaml");
    let out = fold_cli(&[
        "--topology",
        pkg.to_str().expect("utf-8"),
        "--from",
        "pkg.0",
        "--to",
        "pkg.1",
        "--local",
        &format!("{EX_LOCAL:#x}"),
    ]);
    assert_eq!(
        last_line(&out),
        format!("{:#x}", soc.fold_neighbor(EX_LOCAL, 1))
    );
    let ring = repo().join("topologies/ring4.yaml");
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let l = xdie_model::Layout::new(&csrs);
    let m = xdie_model::mesh::load(&ring, &l).expect("ring4");
    let p2 = &m.packages[2];
    let out = fold_cli(&[
        "--topology",
        ring.to_str().expect("utf-8"),
        "--from",
        &format!("{}.0", m.packages[0].name),
        "--to",
        &format!("{}.1", p2.name),
        "--local",
        &format!("{EX_LOCAL:#x}"),
    ]);
    assert_eq!(
        last_line(&out),
        format!("{:#x}", soc.fold_chip_id(EX_LOCAL, 1, p2.cayman_id))
    );
}

// Issue 35: generated outputs never outlive their source. `xdie gen` lists what it wrote in
// rtl/gen/MANIFEST and removes what an earlier run wrote that csrs/ no longer produces.

const MANIFEST: &str = xdie_gen::manifest::PATH;

/// A scratch copy of the repository's inputs (csrs/, topologies/) and of its committed output
/// tree, manifest included; the scratch root is the output root, as the repository's is.
fn tree_copy(tag: &str) -> (Scratch, std::path::PathBuf) {
    let (s, csrs) = csrs_copy(tag);
    copy_dir(&repo().join("topologies"), &s.join("topologies"));
    for d in ["rtl/gen", "include", "docs"] {
        copy_dir(&repo().join(d), &s.join(d));
    }
    for f in ["rtl/xdie.f", "xdie.core"] {
        std::fs::copy(repo().join(f), s.join(f)).expect("copy output");
    }
    (s, csrs)
}

fn gen_run(csrs: &Path, out: &Path, check: bool) -> std::process::Output {
    let mut cmd = xdie();
    cmd.arg("gen");
    if check {
        cmd.arg("--check");
    }
    run(cmd.arg("--csrs").arg(csrs).arg("--out").arg(out))
}

/// The paths a manifest lists.
fn listed(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join(MANIFEST))
        .expect("read the manifest")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// Every file `xdie gen` writes carries the header that marks it generated (the rule that lets a
/// later run remove it once it is an orphan); the manifest lists every output but itself.
#[test]
fn every_output_is_listed_and_carries_the_generated_header() {
    let s = Scratch::new("manifest-header");
    let out = s.join("out");
    gen_into(&repo().join("csrs"), &out);
    let files: Vec<String> = snapshot(&out)
        .into_keys()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p != MANIFEST)
        .collect();
    assert_eq!(
        listed(&out),
        files,
        "the manifest is not the list of outputs"
    );
    for f in files.iter().chain([&MANIFEST.to_string()]) {
        assert!(
            xdie_gen::manifest::is_generated(&out.join(f)).expect("read output"),
            "{f} does not carry `{}` in its first lines",
            xdie_gen::manifest::MARK
        );
    }
    let filelist = std::fs::read_to_string(out.join("rtl/xdie.f")).unwrap();
    assert!(
        !filelist.contains("MANIFEST"),
        "the manifest is in rtl/xdie.f"
    );
}

/// A renamed sizing profile: the committed tree's wrapper top of the old name is removed (and
/// `--check` names it until then), the new one written, and no hand-written file touched.
#[test]
fn a_renamed_sizing_profile_leaves_no_file_of_its_old_name() {
    let (s, csrs) = tree_copy("manifest-rename");
    let out = s.path.clone();
    let ok = gen_run(&csrs, &out, true);
    assert!(
        ok.status.success(),
        "the copied tree is stale: {}",
        stderr(&ok)
    );
    let old = "rtl/gen/xdie_die_ecp5_85.sv";
    let new = "rtl/gen/xdie_die_ecp5_45.sv";
    assert!(out.join(old).is_file() && listed(&out).iter().any(|p| p == old));
    let before = snapshot(&out);
    let listed_before = listed(&out);

    edit(&csrs.join("sizing.yaml"), "name: ecp5_85", "name: ecp5_45");
    let o = gen_run(&csrs, &out, true);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(
        err.lines()
            .any(|l| l.contains("orphan:") && l.contains(old)),
        "--check does not name the orphan {old}: {err}"
    );

    let o = gen_run(&csrs, &out, false);
    let err = stderr(&o);
    assert!(o.status.success(), "{}{err}", stdout(&o));
    assert!(err.contains(&format!("removed {old}")), "stderr: {err}");
    let after = snapshot(&out);
    let stale: Vec<_> = after
        .keys()
        .filter(|p| p.to_string_lossy().contains("ecp5_85"))
        .collect();
    assert!(
        stale.is_empty(),
        "files of the old profile name remain: {stale:?}"
    );
    assert!(out.join(new).is_file(), "{new} was not written");
    let now = listed(&out);
    assert!(
        now.iter().any(|p| p == new),
        "the manifest does not list {new}"
    );
    assert!(
        !now.iter().any(|p| p == old),
        "the manifest still lists {old}"
    );
    // Only outputs changed: every file neither manifest lists (hand-written docs, the
    // topologies) is as it was.
    for (p, bytes) in &before {
        let rel = p.to_string_lossy();
        if rel != MANIFEST
            && !p.starts_with("csrs")
            && !listed_before.iter().chain(&now).any(|l| *l == rel)
        {
            assert!(after.get(p) == Some(bytes), "{rel} changed or went");
        }
    }
    let ok = gen_run(&csrs, &out, true);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

/// A copy of a generated file under a name the CSRs do not produce, listed nowhere: `--check`
/// names it by its generated header, and `xdie gen` removes it.
#[test]
fn a_planted_copy_of_a_generated_file_fails_check_and_is_removed() {
    let s = Scratch::new("manifest-planted");
    let csrs = repo().join("csrs");
    let out = s.join("out");
    gen_into(&csrs, &out);
    let planted = ["rtl/gen/xdie_die_old.sv", "include/xdie_old.h"];
    std::fs::copy(out.join("rtl/gen/xdie_die_fpga.sv"), out.join(planted[0])).unwrap();
    std::fs::copy(out.join("include/xdie_regs.h"), out.join(planted[1])).unwrap();

    let o = gen_run(&csrs, &out, true);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    for p in planted {
        assert!(
            err.lines().any(|l| l.contains("orphan:") && l.contains(p)),
            "--check does not name {p}: {err}"
        );
    }
    let o = gen_run(&csrs, &out, false);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    for p in planted {
        assert!(!out.join(p).exists(), "{p} was not removed");
        assert!(err.contains(&format!("removed {p}")), "stderr: {err}");
    }
    let ok = gen_run(&csrs, &out, true);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

/// A file without the generated header is never removed: not in rtl/gen/ or include/ when no
/// manifest lists it (even if the header's words appear further down), and not when the
/// manifest lists it (written by hand since an earlier run generated that name).
#[test]
fn a_file_without_the_generated_header_is_never_removed() {
    let s = Scratch::new("manifest-hand");
    let csrs = repo().join("csrs");
    let out = s.join("out");
    gen_into(&csrs, &out);
    let generated = std::fs::read_to_string(out.join("rtl/gen/xdie_die_fpga.sv")).unwrap();
    let body: String = generated
        .lines()
        .skip_while(|l| l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let hand = [
        (
            "rtl/gen/notes.sv",
            format!(
                "// Board notes.\n//\n//\n// Not {}.\n",
                xdie_gen::manifest::MARK
            ),
        ),
        ("include/board.h", "#define BOARD 1\n".to_string()),
        (
            "rtl/gen/xdie_die_gone.sv",
            format!("// Hand-written now.\n{body}"),
        ),
    ];
    for (p, text) in &hand {
        std::fs::write(out.join(p), text).unwrap();
    }
    // The last one as if an earlier run had generated it.
    let manifest = out.join(MANIFEST);
    let mut m = std::fs::read_to_string(&manifest).unwrap();
    m.push_str(hand[2].0);
    m.push('\n');
    std::fs::write(&manifest, m).unwrap();

    let o = gen_run(&csrs, &out, true);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the listed file is an orphan: {err}"
    );
    for (p, _) in &hand[..2] {
        assert!(
            !err.contains(p),
            "--check names the hand-written {p}: {err}"
        );
    }
    let o = gen_run(&csrs, &out, false);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("kept {}", hand[2].0)),
        "stderr: {err}"
    );
    assert!(!err.contains("removed"), "stderr: {err}");
    for (p, text) in &hand {
        assert_eq!(
            std::fs::read_to_string(out.join(p)).ok().as_deref(),
            Some(text.as_str()),
            "{p} was changed or removed"
        );
    }
    let ok = gen_run(&csrs, &out, true);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

/// A manifest entry that leads outside the output root (`..`, an absolute path) refuses the run,
/// `--check` too, naming the manifest and the line; nothing is removed or written, not the file
/// outside the root (which carries the generated header) nor a genuine orphan listed before it.
#[test]
fn a_manifest_entry_outside_the_output_root_is_refused() {
    let (s, csrs) = csrs_copy("manifest-outside");
    let out = s.join("out");
    gen_into(&csrs, &out);
    // An edit so that a run that went ahead would write something.
    edit(&csrs.join("sizing.yaml"), "name: ecp5_85", "name: ecp5_45");
    let generated = std::fs::read(out.join("rtl/gen/xdie_die_fpga.sv")).unwrap();
    for p in ["x.sv", "abs.sv", "out/rtl/gen/xdie_die_old.sv"] {
        std::fs::write(s.join(p), &generated).unwrap();
    }
    let manifest = out.join(MANIFEST);
    let good = std::fs::read_to_string(&manifest).unwrap();
    let abs = s.join("abs.sv").to_string_lossy().into_owned();
    for bad in ["../x.sv", "rtl/gen/../../../x.sv", abs.as_str()] {
        let text = format!("{good}rtl/gen/xdie_die_old.sv\n{bad}\n");
        std::fs::write(&manifest, &text).unwrap();
        let line = text.lines().count();
        let before = snapshot(&s.path);
        for check in [false, true] {
            let o = gen_run(&csrs, &out, check);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{bad} (check {check}): {err}");
            let at = format!("{}:{line}:", manifest.display());
            assert!(
                err.contains(&at) && err.contains(bad),
                "{bad}: the error does not name {at} and the entry: {err}"
            );
            assert!(err.contains("nothing was written or removed"), "{err}");
            assert!(snapshot(&s.path) == before, "{bad}: the run changed files");
        }
    }
}
