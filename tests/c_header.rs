//! The generated C headers against the Rust model: `tests/c/fold_check.c` includes both headers
//! in one translation unit, is compiled warning-free as strict C99 with the system C compiler
//! once per system address view, folds a set of inputs and decodes the results field by field;
//! every line must match what the model computes (`SocAddress::apply_fold`, `BitField::get`).
//! The other view's macros must not compile, nor a translation unit that names no view.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use xdie_csr::Csrs;

/// The worked example of the seed (§8): peer SBUF offset, peer die and routing id.
const SEED_DST_LOCAL: u64 = 0x10_0000;
const SEED_PEER_DIE: u64 = 1;
const SEED_CHIP_ID: u64 = 0x12;
/// The seed's published neighbor-fold result for those inputs (the acceptance criterion).
const SEED_NEIGHBOR_RESULT: u64 = 0x58_8000_0010_0000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn csrs() -> Csrs {
    xdie_csr::load(&root().join("csrs")).expect("csrs/ loads")
}

/// The system views: (selector macro, the fold of that view, the SoC-address view it reads).
fn views(csrs: &Csrs) -> Vec<(&'static str, &xdie_csr::Fold, String)> {
    let v = &csrs.views.soc;
    vec![
        ("XDIE_VIEW_CHIP_ID", &v.fold_chip_id, v.local.name.clone()),
        (
            "XDIE_VIEW_NEIGHBOR",
            &v.fold_neighbor,
            v.neighbor.name.clone(),
        ),
    ]
}

/// Render the headers from the model into a fresh directory and compile the checker there.
fn build_checker(csrs: &Csrs, name: &str, view: &str) -> PathBuf {
    let (exe, out) = compile(csrs, name, view, &root().join("tests/c/fold_check.c"));
    assert!(
        out.status.success(),
        "C compile failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Compile `src` against freshly rendered headers with XDIE_SYSTEM_VIEW = `view` (none if
/// empty).
fn compile(csrs: &Csrs, name: &str, view: &str, src: &Path) -> (PathBuf, std::process::Output) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("c_header_{name}"));
    let inc = dir.join("include");
    std::fs::create_dir_all(&inc).expect("temp dir");
    for f in xdie_gen::emit::render_all(csrs).expect("render") {
        if f.path.starts_with("include") {
            let p = dir.join(&f.path);
            std::fs::write(&p, &f.contents).expect("write header");
        }
    }
    let exe = dir.join("fold_check");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let mut cmd = Command::new(&cc);
    if !view.is_empty() {
        cmd.arg(format!("-DXDIE_SYSTEM_VIEW={view}"));
    }
    let out = cmd
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
        ])
        .arg("-I")
        .arg(&inc)
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    (exe, out)
}

fn run_checker(exe: &Path, inputs: &[[u64; 3]]) -> String {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run fold_check");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for [d, p, c] in inputs {
            writeln!(stdin, "{d:x} {p:x} {c:x}").expect("write input");
        }
    }
    let out = child.wait_with_output().expect("fold_check output");
    assert!(out.status.success(), "fold_check failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// What fold_check prints for one view, computed from the model alone.
fn expected(csrs: &Csrs, fold: &xdie_csr::Fold, view: &str, inputs: &[[u64; 3]]) -> String {
    let soc = &csrs.soc;
    let mut s = String::new();
    for input in inputs {
        let by_name = |arg: &str| match arg {
            "dst_local" => input[0],
            "peer_die" => input[1],
            "chip_id" => input[2],
            other => panic!("fold argument `{other}` is not one fold_check reads"),
        };
        let fold_name = &fold.name;
        let args: Vec<u64> = fold.args.iter().map(|a| by_name(a)).collect();
        let a = soc.apply_fold(fold, &args);
        s.push_str(&format!("{fold_name} {a:#x}\n"));
        for v in soc.views.iter().filter(|v| v.name == view) {
            for f in &v.fields {
                let x = f.get(a as u128);
                s.push_str(&format!(
                    "{fold_name} {}.{} {x:#x}\n",
                    v.name,
                    f.name.to_uppercase()
                ));
            }
        }
    }
    s
}

/// splitmix64: a fixed, dependency-free sequence so failures reproduce.
fn random_inputs(seed: u64, n: usize) -> Vec<[u64; 3]> {
    let mut x = seed;
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    // Full 64-bit values on purpose: both sides must truncate to the field the same way.
    (0..n)
        .map(|_| [next(), next() & 0xf, next() & 0xff])
        .collect()
}

#[test]
fn c_folds_match_model_on_seed_example_and_random_inputs() {
    let csrs = csrs();
    let mut inputs = vec![[SEED_DST_LOCAL, SEED_PEER_DIE, SEED_CHIP_ID]];
    inputs.extend(random_inputs(0x5eed_0f01d, 256));
    for (sel, fold, view) in views(&csrs) {
        let exe = build_checker(&csrs, &format!("model_{view}"), sel);
        let got = run_checker(&exe, &inputs);
        let want = expected(&csrs, fold, &view, &inputs);
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{sel}: line {i} differs (C vs model)");
        }
        assert_eq!(got.lines().count(), want.lines().count(), "{sel}");
    }
}

#[test]
fn c_neighbor_fold_gives_the_seed_result() {
    let csrs = csrs();
    let exe = build_checker(&csrs, "seed", "XDIE_VIEW_NEIGHBOR");
    let got = run_checker(&exe, &[[SEED_DST_LOCAL, SEED_PEER_DIE, SEED_CHIP_ID]]);
    let first = got.lines().next().expect("output");
    assert_eq!(first, format!("fold_neighbor {SEED_NEIGHBOR_RESULT:#x}"));
}

/// A translation unit built for one view cannot use the other view's fold or field macros, and
/// one that names no view does not compile at all.
#[test]
fn c_other_view_is_not_usable() {
    let csrs = csrs();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_header_misuse");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let vs = views(&csrs);
    for (i, (sel, _, _)) in vs.iter().enumerate() {
        let (_, other_fold, other_view) = &vs[1 - i];
        let field = &csrs
            .soc
            .views
            .iter()
            .find(|v| &v.name == other_view)
            .expect("view")
            .fields[1];
        let uses = [
            format!(
                "uint64_t f(void) {{ return xdie_{}({}); }}\n",
                other_fold.name,
                vec!["1"; other_fold.args.len()].join(", ")
            ),
            format!(
                "uint64_t f(void) {{ return XDIE_{}_SET_{}(0, 1); }}\n",
                other_view.to_uppercase(),
                field.name.to_uppercase()
            ),
        ];
        for (j, body) in uses.iter().enumerate() {
            let src = dir.join(format!("misuse_{i}_{j}.c"));
            let text = format!(
                "#include \"xdie_soc_addr.h\"\n{body}int main(void) {{ return (int)f(); }}\n"
            );
            std::fs::write(&src, text).expect("write");
            let (_, out) = compile(&csrs, "misuse", sel, &src);
            assert!(!out.status.success(), "{sel}: {body} compiled");
        }
    }
    let src = dir.join("no_view.c");
    std::fs::write(
        &src,
        "#include \"xdie_soc_addr.h\"\nint main(void) { return 0; }\n",
    )
    .expect("write");
    let (_, out) = compile(&csrs, "misuse", "", &src);
    assert!(
        !out.status.success(),
        "a translation unit without a view compiled"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("XDIE_SYSTEM_VIEW"),
        "the error names XDIE_SYSTEM_VIEW"
    );
}
