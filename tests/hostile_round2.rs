//! Hostile input, second round (issue 40): topologies, collectives, output paths, reports. One
//! group of tests per class of the issue, several variants each; every refusal is exit status 2,
//! at once, without a panic, naming the file, the line and the key where there is one, and
//! leaves every input (and every earlier output) byte-identical.
//!
//! The classes: (1) special files where an output goes; (2) text of topologies and scenarios
//! that reaches written output; (3) names that differ only by case or `-`/`_`; (4) collective
//! errors at the key at fault, with checked arithmetic; (5) control characters in reports and
//! the SVG; (6) outputs that resolve to inputs, atomic writes; (7) bench and soak arguments;
//! (8) scale limits before allocation; (9) every error of a file, each once, with file, line and
//! key.
#![cfg(unix)]

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

/// A refusal comes at once: a guard against hangs and long runs (each takes milliseconds).
const FAST: Duration = Duration::from_secs(10);

/// `xdie ARGS` in the repository, under the time guard; (status, stdout, stderr).
fn xd(args: &[&str]) -> (ExitStatus, String, String) {
    run_guarded(args, FAST)
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// `xdie ARGS` exits 2 without a panic and stderr holds every one of `says`; returns stderr.
fn refused(args: &[&str], says: &[&str]) -> String {
    let (status, out, err) = xd(args);
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(
        status.code(),
        Some(2),
        "{args:?}: status; stdout {out}; stderr {err}"
    );
    for s in says {
        assert!(
            err.contains(s),
            "{args:?}: stderr should hold `{s}`:\n{err}"
        );
    }
    err
}

/// Every file below `dirs` with its bytes (to show inputs are untouched).
fn files(dirs: &[&Path]) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for d in dirs {
        out.extend(snapshot(d).into_iter().map(|(k, v)| (d.join(k), v)));
    }
    out
}

/// A scratch tree with `scenarios/` and `topologies/` copies of the repository's.
fn tree(name: &str) -> (Scratch, PathBuf, PathBuf) {
    let s = Scratch::new(name);
    let sc = s.join("scenarios");
    let tp = s.join("topologies");
    copy_dir(&repo().join("scenarios"), &sc);
    copy_dir(&repo().join("topologies"), &tp);
    (s, sc, tp)
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(st.success());
}

/// 1-based line of the first line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    1 + text
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the text"))
}

/// Write `text` as `dir/name` and return the path and the `FILE:LINE: key `KEY`` an error
/// about `key` at the line holding `needle` starts with.
fn case(dir: &Path, name: &str, text: &str, needle: &str, key: &str) -> (PathBuf, String) {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write case");
    let at = format!("{}:{}: key `{key}`", p.display(), line_of(text, needle));
    (p, at)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).expect("read")
}

// ---- 1. Special files where an output goes ------------------------------------------------

#[test]
fn class1_special_files_as_outputs_are_refused_at_once() {
    let s = Scratch::new("r2-special");
    let fifo = s.join("t.svg");
    mkfifo(&fifo);
    let dir = s.join("dir.svg");
    std::fs::create_dir(&dir).expect("mkdir");
    let sc = "scenarios/chain.yaml";
    for (flag, path, says) in [
        ("--timeline", fifo.clone(), "is a FIFO"),
        ("--timeline", dir.clone(), "is a directory"),
        (
            "--timeline",
            PathBuf::from("/dev/null"),
            "is a character device",
        ),
        ("--trace", fifo.clone(), "is a FIFO"),
        ("--trace", dir.clone(), "is a directory"),
        (
            "--timeline",
            s.join("no/such/folder/t.svg"),
            "does not exist",
        ),
    ] {
        if !path.parent().is_some_and(|p| p.exists()) && says != "does not exist" {
            continue;
        }
        refused(
            &["sim", sc, "--model-only", flag, arg(&path)],
            &[flag, arg(&path), says],
        );
    }
    // The FIFO was never opened (a writer would have blocked) and nothing was made.
    assert!(!s.join("no").exists());
}

#[test]
fn class1_special_files_as_a_scenarios_topology_are_refused() {
    let (_s, sc, tp) = tree("r2-special-topo");
    let text = read(&sc.join("cross-package.yaml")).replace("topology: ring4", "topology: weird");
    let scen = sc.join("weird.yaml");
    std::fs::write(&scen, text).expect("write");
    let t = tp.join("weird.yaml");
    for (make, says) in [
        (0, "is a directory"),
        (1, "is a FIFO"),
        (2, "is a character device"),
    ] {
        let _ = std::fs::remove_file(&t);
        let _ = std::fs::remove_dir(&t);
        match make {
            0 => std::fs::create_dir(&t).expect("mkdir"),
            1 => mkfifo(&t),
            _ => std::os::unix::fs::symlink("/dev/zero", &t).expect("symlink"),
        }
        refused(&["sim", arg(&scen), "--model-only"], &["weird.yaml", says]);
    }
}

// ---- 2. Text of topologies and scenarios in written output ---------------------------------

#[test]
fn class2_names_are_checked_against_the_identifier_rule() {
    let (_s, sc, tp) = tree("r2-names");
    let ring = read(&tp.join("ring4.yaml"));
    let first = ring
        .lines()
        .find_map(|l| l.split("name: ").nth(1))
        .and_then(|r| r.split([',', '}']).next())
        .expect("a package name")
        .trim()
        .to_string();
    for (i, bad) in [
        "\"p0 */ module x; /*\"",
        "\"p0\\nmodule\"",
        "\"p0\\u001b[2J\"",
        "\"../p0\"",
        "\"\"",
        "\"p0<script>\"",
    ]
    .iter()
    .enumerate()
    {
        let text = ring.replacen(&format!("name: {first}"), &format!("name: {bad}"), 1);
        let (p, at) = case(
            &tp,
            &format!("n{i}.yaml"),
            &text,
            &format!("name: {bad}"),
            "packages[0].name",
        );
        let err = refused(&["route", arg(&p)], &[&at, "bad package name"]);
        assert!(!err.contains('\u{1b}'), "a raw ESC on stderr: {err:?}");
    }
    // A scenario's topology name is a file name of topologies/, nothing else.
    let cross = read(&sc.join("cross-package.yaml"));
    for (i, bad) in [
        "\"../topologies/ring4\"",
        "\"ring4\\n\"",
        "\"/etc/passwd\"",
        "\"a*/b\"",
    ]
    .iter()
    .enumerate()
    {
        let text = cross.replace("topology: ring4", &format!("topology: {bad}"));
        let (p, at) = case(&sc, &format!("t{i}.yaml"), &text, "topology:", "topology");
        refused(
            &["sim", arg(&p), "--model-only"],
            &[&at, "bad topology name"],
        );
    }
}

#[test]
fn class2_a_topology_description_reaches_reports_escaped() {
    let (_s, _sc, tp) = tree("r2-desc");
    let ring = read(&tp.join("ring4.yaml"));
    let from = "description: \"ring of 4 packages, chip-id view\"";
    for (i, (desc, raw)) in [
        ("a */ b\\n// c", "a */ b\n// c"),
        ("\\e]0;pwned\\a", "\u{1b}]0;pwned\u{7}"),
        ("x\\u202Ey", "x\u{202e}y"),
    ]
    .iter()
    .enumerate()
    {
        let p = tp.join(format!("d{i}.yaml"));
        std::fs::write(&p, ring.replace(from, &format!("description: \"{desc}\""))).expect("write");
        let (st, out, err) = xd(&["route", arg(&p)]);
        assert_eq!(st.code(), Some(0), "{err}");
        let first = out.lines().next().expect("a report");
        assert!(
            !first.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "raw control text in {first:?}"
        );
        // The JSON report keeps the text exactly, escaped by JSON's own rules.
        let (st, out, _) = xd(&["route", arg(&p), "--json"]);
        assert_eq!(st.code(), Some(0));
        let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
        assert_eq!(v["description"], *raw);
    }
}

// ---- 3. Names that differ only by case or `-`/`_` -----------------------------------------

#[test]
fn class3_package_names_alike_are_refused_naming_both() {
    let (_s, _sc, tp) = tree("r2-alike");
    let base =
        "description: alike\nview: chip_id\npackages:\n  - {name: NAME0, cayman_id: 0x10}\n  \
                - {name: NAME1, cayman_id: 0x11}\nlinks:\n  - {a: NAME0.0.0, b: NAME0.1.0}\n  \
                - {a: NAME1.0.0, b: NAME1.1.0}\n  - {a: NAME0.1.1, b: NAME1.0.1}\n";
    for (i, (a, b)) in [
        ("pkg-a", "pkg_a"),
        ("Pkg", "pkg"),
        ("A-B_c", "a_b-C"),
        ("x1", "X1"),
    ]
    .iter()
    .enumerate()
    {
        let text = base.replace("NAME0", a).replace("NAME1", b);
        let (p, at) = case(
            &tp,
            &format!("alike{i}.yaml"),
            &text,
            &format!("name: {b}"),
            "packages[1].name",
        );
        refused(
            &["route", arg(&p)],
            &[&at, &format!("`{a}`"), "packages[0]"],
        );
    }
}

#[test]
fn class3_topology_files_alike_are_refused_naming_both() {
    let (_s, sc, tp) = tree("r2-files-alike");
    let ring = read(&tp.join("ring4.yaml"));
    let cross = read(&sc.join("cross-package.yaml"));
    for (i, (a, b)) in [("ring-x", "ring_x"), ("Ring4b", "ring4b"), ("Ab-c", "aB_C")]
        .iter()
        .enumerate()
    {
        std::fs::write(tp.join(format!("{a}.yaml")), &ring).expect("write");
        std::fs::write(tp.join(format!("{b}.yaml")), &ring).expect("write");
        for name in [a, b] {
            let text = cross.replace("topology: ring4", &format!("topology: {name}"));
            let (p, at) = case(
                &sc,
                &format!("alike{i}-{name}.yaml"),
                &text,
                "topology:",
                "topology",
            );
            refused(
                &["sim", arg(&p), "--model-only"],
                &[&at, &format!("{a}.yaml"), &format!("{b}.yaml"), "ambiguous"],
            );
        }
    }
    // A name that only differs from an existing file that way suggests it.
    let text = cross.replace("topology: ring4", "topology: RING4");
    let (p, at) = case(&sc, "upper.yaml", &text, "topology:", "topology");
    refused(
        &["sim", arg(&p), "--model-only"],
        &[&at, "did you mean `ring4`"],
    );
}

// ---- 4. Collective errors at the key at fault ---------------------------------------------

/// The ring-8 all-gather with `from` replaced by `to`.
fn collective_case(dir: &Path, name: &str, from: &str, to: &str) -> (PathBuf, String) {
    let text = read(&repo().join("scenarios/allgather-ring8.yaml"));
    assert!(text.contains(from), "`{from}` in the all-gather");
    let text = text.replacen(from, to, 1);
    let p = dir.join(name);
    std::fs::write(&p, &text).expect("write");
    (p, text)
}

#[test]
fn class4_collective_errors_name_the_key_and_line_at_fault() {
    let (_s, sc, _) = tree("r2-coll");
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let p = &csrs.views.params;
    let engines = p.sdma_engines;
    let cases: Vec<(&str, String, String, &str, &str)> = vec![
        // (from, to, key, needle of its line)
        (
            "engines: 4",
            "engines: 4\n  first_engine: 0xFFFFFFFFFFFFFFFE".into(),
            "collective.first_engine".into(),
            "first_engine:",
            "wrap",
        ),
        (
            "engines: 4",
            "engines: 4\n  first_engine: 0xFFFFFFFFFFFFFFFF".into(),
            "collective.first_engine".into(),
            "first_engine:",
            "wrap2",
        ),
        (
            "engines: 4",
            format!("engines: 4\n  first_engine: {}", engines - 2),
            "collective.first_engine".into(),
            "first_engine:",
            "fe",
        ),
        (
            "engines: 4",
            "engines: 0".into(),
            "collective.engines".into(),
            "engines:",
            "e0",
        ),
        (
            "engines: 4",
            "engines: 65".into(),
            "collective.engines".into(),
            "engines:",
            "e65",
        ),
        (
            "engines: 4",
            format!("engines: {}", engines * 2),
            "collective.engines".into(),
            "engines:",
            "edie",
        ),
        (
            "partitions: 16",
            "partitions: 0".into(),
            "collective.partitions".into(),
            "partitions:",
            "p0",
        ),
        (
            "partitions: 16",
            format!("partitions: {}", p.sbuf_partitions * 2),
            "collective.partitions".into(),
            "partitions:",
            "pbig",
        ),
        (
            "bytes_per_rank: 0x10000",
            "bytes_per_rank: 0x10004".into(),
            "collective.bytes_per_rank".into(),
            "bytes_per_rank:",
            "nodiv",
        ),
        (
            "bytes_per_rank: 0x10000",
            "bytes_per_rank: 0".into(),
            "collective.bytes_per_rank".into(),
            "bytes_per_rank:",
            "zero",
        ),
        (
            "bytes_per_rank: 0x10000",
            "bytes_per_rank: 0x8000000000000000".into(),
            "collective.bytes_per_rank".into(),
            "bytes_per_rank:",
            "wrapbytes",
        ),
        (
            "bytes_per_rank: 0x10000",
            "bytes_per_rank: 0x2000000000000000".into(),
            "collective.bytes_per_rank".into(),
            "bytes_per_rank:",
            "wrapbytes2",
        ),
        (
            "{chip: 0x13, core: 2}",
            "{chip: 0x13, core: 0}".into(),
            "collective.ranks[7]".into(),
            "{chip: 0x13, core: 0}\n",
            "dup",
        ),
        (
            "{chip: 0x13, core: 2}",
            "{chip: 0x55, core: 2}".into(),
            "collective.ranks[7].chip".into(),
            "chip: 0x55",
            "nochip",
        ),
        (
            "{chip: 0x13, core: 2}",
            "{chip: 0x13, core: 9}".into(),
            "collective.ranks[7].core".into(),
            "core: 9",
            "nocore",
        ),
        (
            "engines: 4",
            "engines: 4\n  root: 3".into(),
            "collective.root".into(),
            "root:",
            "root",
        ),
        (
            "engines: 4",
            "engines: 4\n  offset: 0xFFFFFFFFFFFFFF00".into(),
            "collective.offset".into(),
            "offset:",
            "offhuge",
        ),
        (
            "engines: 4",
            format!("engines: 4\n  offset: {:#x}", p.sbuf_backing_bytes - 0x100),
            "collective.offset".into(),
            "offset:",
            "offend",
        ),
        (
            "engines: 4",
            "engines: 4\n  sem_base: 0xFFFFFFFFFFFFFFF0".into(),
            "collective.sem_base".into(),
            "sem_base:",
            "sembig",
        ),
    ];
    for (from, to, key, needle, name) in cases {
        let (path, text) = collective_case(&sc, &format!("{name}.yaml"), from, &to);
        let line = if name == "dup" {
            // The second of the two equal ranks.
            text.lines()
                .enumerate()
                .filter(|(_, l)| l.contains("{chip: 0x13, core: 0}"))
                .nth(1)
                .expect("dup")
                .0
                + 1
        } else {
            line_of(&text, needle.trim_end())
        };
        let at = format!("{}:{line}: key `{key}`", path.display());
        let err = refused(&["sim", arg(&path), "--model-only"], &[&at]);
        assert_eq!(
            err.matches("key `").count(),
            1,
            "{name}: one error, one key: {err}"
        );
    }
}

#[test]
fn class4_huge_numbers_never_wrap_in_the_library() {
    let text = read(&repo().join("scenarios/allgather-ring8.yaml"));
    for (from, to) in [
        (
            "bytes_per_rank: 0x10000",
            "bytes_per_rank: 0xFFFFFFFFFFFFFF00",
        ),
        ("partitions: 16", "partitions: 0xFFFFFFFFFFFFFFFF"),
        (
            "engines: 4",
            "engines: 4\n  first_engine: 0xFFFFFFFFFFFFFFFC",
        ),
        ("engines: 4", "engines: 4\n  sem_base: 0xFFFFFFFFFFFFFFFF"),
        ("engines: 4", "engines: 4\n  offset: 0xFFFFFFFFFFFFFFFF"),
        ("engines: 4", "engines: 4\n  root: 0xFFFFFFFFFFFFFFFF"),
    ] {
        let t = text.replacen(from, to, 1);
        let r = std::panic::catch_unwind(|| {
            xdie_model::Scenario::parse(Path::new("s.yaml"), &t).map(|_| ())
        });
        let r = r.unwrap_or_else(|_| panic!("{to}: panicked"));
        let e = r.expect_err(to);
        assert!(e.at.key.starts_with("collective."), "{to}: {e}");
    }
}

// ---- 5. Control characters in reports and the SVG -----------------------------------------

/// Whether `svg` is well-formed enough for an XML parser: no character XML 1.0 forbids, every
/// `&` starts an entity, and tags balance.
fn well_formed(svg: &str) -> Result<(), String> {
    if let Some(c) = svg.chars().find(|&c| {
        (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || matches!(c, '\u{fffe}' | '\u{ffff}')
    }) {
        return Err(format!("character {c:?} is not allowed in XML"));
    }
    for (i, _) in svg.match_indices('&') {
        let rest = &svg[i..];
        if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"]
            .iter()
            .any(|e| rest.starts_with(e))
        {
            return Err(format!("a bare `&` at byte {i}"));
        }
    }
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let end = rest[i..].find('>').ok_or("an unclosed tag")? + i;
        let tag = &rest[i + 1..end];
        if tag.contains('<') {
            return Err(format!("`<` inside tag {tag:?}"));
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        if tag.starts_with('/') {
            if stack.pop().as_deref() != Some(name.as_str()) {
                return Err(format!("unbalanced </{name}>"));
            }
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            stack.push(name);
        }
        rest = &rest[end + 1..];
    }
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed {stack:?}"))
    }
}

#[test]
fn class5_control_characters_are_escaped_in_reports_and_svg() {
    let (s, sc, _) = tree("r2-ctrl");
    let chain = read(&sc.join("chain.yaml"));
    let from = "description: \"two legs chained by wait_ge_and_dec: die 0 -> die 1 -> die 0\"";
    assert!(chain.contains(from));
    for (i, desc) in [
        "\\e[2J\\e[31mred",
        "bell\\a and nul \\0 and del \\x7F",
        "c1 \\x9B31m and \\u202E reversed",
        "</text><script>alert(1)</script> & \\\" '",
        "a */ b\\n c\\r\\n\\t d",
        "\\uFFFE\\uFFFF",
    ]
    .iter()
    .enumerate()
    {
        let p = sc.join(format!("ctrl{i}.yaml"));
        std::fs::write(&p, chain.replace(from, &format!("description: \"{desc}\"")))
            .expect("write");
        let svg = s.join(format!("t{i}.svg"));
        let (st, out, err) = xd(&["sim", arg(&p), "--model-only", "--timeline", arg(&svg)]);
        assert_eq!(st.code(), Some(0), "{desc}: {err}");
        for line in out.lines() {
            assert!(
                !line
                    .chars()
                    .any(|c| c.is_control() || matches!(c, '\u{202e}')),
                "{desc}: raw control text in the report: {line:?}"
            );
        }
        let text = read(&svg);
        well_formed(&text).unwrap_or_else(|e| panic!("{desc}: SVG not well-formed: {e}\n{text}"));
        // JSON keeps text as JSON escapes it.
        let (st, out, _) = xd(&["sim", arg(&p), "--model-only", "--json"]);
        assert_eq!(st.code(), Some(0));
        serde_json::from_str::<serde_json::Value>(&out).expect("valid JSON");
    }
}

#[test]
fn class5_control_characters_in_errors_are_escaped() {
    let (_s, sc, tp) = tree("r2-ctrl-err");
    let chain = read(&sc.join("chain.yaml"));
    for (i, text) in [
        chain.replace("description:", "\"evil\\e[2Jkey\": 1\ndescription:"),
        chain.replace("    after: a\n", "    after: \"\\e]0;title\\a\"\n"),
        chain.replacen("name: a", "name: \"a\\e[31m\"", 1),
    ]
    .iter()
    .enumerate()
    {
        let p = sc.join(format!("err{i}.yaml"));
        std::fs::write(&p, text).expect("write");
        let err = refused(&["sim", arg(&p), "--model-only"], &[arg(&p)]);
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "raw control characters: {err:?}"
        );
    }
    let ring = read(&tp.join("ring4.yaml"));
    let p = tp.join("err.yaml");
    std::fs::write(&p, ring.replace("view:", "\"\\x9b2J\": 1\nview:")).expect("write");
    let err = refused(&["route", arg(&p)], &[arg(&p)]);
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
}

// ---- 6. Outputs that resolve to inputs; atomic writes -------------------------------------

#[test]
fn class6_an_output_that_is_an_input_is_refused_and_inputs_stay() {
    let (s, sc, tp) = tree("r2-outin");
    let (_c, csrs) = csrs_copy("r2-outin-csrs");
    let scen = sc.join("cross-package.yaml");
    let topo = tp.join("ring4.yaml");
    let csr_file = csrs.join("soc_address.yaml");
    let link = |name: &str, to: &Path| {
        let l = s.join(name);
        std::os::unix::fs::symlink(to, &l).expect("symlink");
        l
    };
    let hard = s.join("hard.svg");
    std::fs::hard_link(&topo, &hard).expect("hard link");
    let relative = sc.join("../scenarios/./cross-package.yaml");
    let before = files(&[&sc, &tp, &csrs]);
    let c = arg(&csrs);
    for (flag, out) in [
        ("--timeline", scen.clone()),
        ("--timeline", relative),
        ("--timeline", link("to-scenario.svg", &scen)),
        ("--timeline", link("to-topology.svg", &topo)),
        ("--timeline", link("to-csr.svg", &csr_file)),
        ("--timeline", csr_file.clone()),
        ("--timeline", hard.clone()),
        ("--trace", scen.clone()),
        ("--trace", link("trace-to-topology.fst", &topo)),
    ] {
        refused(
            &[
                "sim",
                arg(&scen),
                "--model-only",
                "--csrs",
                c,
                flag,
                arg(&out),
            ],
            &[flag, "an input of this run"],
        );
    }
    // Two outputs on one file.
    let both = s.join("both.svg");
    refused(
        &[
            "sim",
            arg(&scen),
            "--model-only",
            "--csrs",
            c,
            "--timeline",
            arg(&both),
            "--trace",
            arg(&both),
        ],
        &["two outputs"],
    );
    assert!(files(&[&sc, &tp, &csrs]) == before, "an input changed");
    assert!(!both.exists());
}

#[test]
fn class6_timeline_writes_are_atomic_and_gen_spares_inputs() {
    let s = Scratch::new("r2-atomic");
    let svg = s.join("t.svg");
    std::fs::write(&svg, "old").expect("write");
    let (st, _, err) = xd(&[
        "sim",
        "scenarios/chain.yaml",
        "--model-only",
        "--timeline",
        arg(&svg),
    ]);
    assert_eq!(st.code(), Some(0), "{err}");
    assert!(read(&svg).starts_with("<svg"));
    let left: Vec<_> = std::fs::read_dir(&s.path)
        .expect("read")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("xdie-tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    // A refused run leaves an earlier output whole.
    let kept = std::fs::read(&svg).expect("read");
    refused(
        &[
            "sim",
            "scenarios/no-such.yaml",
            "--model-only",
            "--timeline",
            arg(&svg),
        ],
        &["no-such.yaml"],
    );
    assert_eq!(std::fs::read(&svg).expect("read"), kept);
    // gen: a generated file that links to a CSR input is refused, the input untouched.
    let (_c, csrs) = csrs_copy("r2-gen-in");
    let out = s.join("out");
    gen_into(&csrs, &out);
    let before = files(&[&csrs]);
    let target = out.join("include/xdie_regs.h");
    let victim = std::fs::read_dir(out.join("include"))
        .expect("include/")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "h"))
        .unwrap_or(target);
    std::fs::remove_file(&victim).expect("rm");
    std::os::unix::fs::symlink(csrs.join("soc_address.yaml"), &victim).expect("symlink");
    let edited = csrs.join("soc_address.yaml");
    std::fs::write(
        &edited,
        read(&edited).replacen("description: ", "description: edited ", 1),
    )
    .expect("edit");
    let before_edit = files(&[&csrs]);
    refused(
        &["gen", "--csrs", arg(&csrs), "--out", arg(&out)],
        &["an input of this run"],
    );
    assert!(files(&[&csrs]) == before_edit && before.len() == before_edit.len());
}

// ---- 7. Bench and soak arguments ----------------------------------------------------------

#[cfg(feature = "sim")]
#[test]
fn class7_bench_and_soak_arguments_are_checked_against_their_limits() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let p = &csrs.views.params;
    let half = p.sbuf_partitions / 2 * p.sbuf_backing_bytes;
    let beat = p.data_bytes;
    let over = format!("{:#x}", half + beat);
    let odd = format!("{}", beat + 1);
    let huge = "0xFFFFFFFFFFFFFFFF".to_string();
    for (args, says) in [
        (
            vec!["bench", "copy", "--bytes", &over],
            vec!["--bytes", "half the SBUF"],
        ),
        (
            vec!["bench", "copy", "--bytes", &odd],
            vec!["--bytes", "multiple"],
        ),
        (vec!["bench", "copy", "--bytes", &huge], vec!["--bytes"]),
        (vec!["bench", "copy", "--bytes", "0"], vec!["--bytes"]),
        (vec!["bench", "copy", "--engines", "0"], vec!["--engines"]),
        (
            vec!["bench", "copy", "--engines", "1000"],
            vec!["--engines"],
        ),
        (
            vec!["bench", "copy", "--repeats", "1000000"],
            vec!["--repeats"],
        ),
        (vec!["bench", "regs", "--writes", &huge], vec!["--writes"]),
        (
            vec![
                "bench",
                "scenario",
                "scenarios/chain.yaml",
                "--repeats",
                "100000",
            ],
            vec!["--repeats"],
        ),
        (
            vec![
                "bench",
                "scenario",
                "scenarios/chain.yaml",
                "--threads",
                "100000",
            ],
            vec!["--threads"],
        ),
        (vec!["soak", "--legs", "0"], vec!["--legs"]),
        (vec!["soak", "--legs", &huge], vec!["--legs"]),
        (vec!["soak", "--per-run", &huge], vec!["--per-run"]),
        (vec!["soak", "--per-run", "0"], vec!["--per-run"]),
        (vec!["soak", "--faults", "0.9"], vec!["--faults"]),
        (vec!["soak", "--faults", "NaN"], vec!["--faults"]),
    ] {
        refused(&args, &says);
    }
}

// ---- 8. Scale: limits before allocation ---------------------------------------------------

/// A collective over the first `n` cores (0..4 of each package) of mesh64.
fn mesh_collective(kind: &str, n: usize, engines: u64, bytes: &str) -> String {
    let mesh = read(&repo().join("topologies/mesh64.yaml"));
    let chips: Vec<String> = mesh
        .lines()
        .filter_map(|l| l.split("cayman_id: ").nth(1))
        .map(|r| r.trim_end_matches(['}', ' ']).to_string())
        .collect();
    let ranks: String = chips
        .iter()
        .flat_map(|c| (0..4).map(move |k| format!("    - {{chip: {c}, core: {k}}}\n")))
        .take(n)
        .collect();
    format!(
        "description: scale\ntopology: mesh64\ncollective:\n  kind: {kind}\n  bytes_per_rank: \
         {bytes}\n  dtype: int32\n  partitions: 16\n  engines: {engines}\n  ranks:\n{ranks}"
    )
}

#[test]
fn class8_huge_collectives_are_refused_before_allocating() {
    let (_s, sc, _) = tree("r2-scale");
    for (kind, n, engines, bytes, key) in [
        ("all_gather", 256, 16, "0x400", "collective.engines"),
        ("all_reduce", 256, 16, "0x400000", "collective.engines"),
        ("reduce_scatter", 256, 8, "0x400000", "collective.engines"),
        ("broadcast", 256, 16, "0x400000", "collective.engines"),
        ("all_to_all", 256, 1, "0x100000", "collective.ranks"),
        ("all_gather", 257, 1, "0x400", "collective.ranks"),
    ] {
        let text = mesh_collective(kind, n, engines, bytes);
        let (p, at) = case(
            &sc,
            &format!("{kind}-{n}.yaml"),
            &text,
            key.rsplit('.').next().unwrap(),
            key,
        );
        let t = Instant::now();
        refused(&["sim", arg(&p), "--model-only"], &[&at]);
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{kind}: {:?}",
            t.elapsed()
        );
    }
    // The limits are documented in one place.
    let doc = read(&repo().join("docs/limits.md"));
    for name in [
        "MAX_COMPILED_LEGS",
        "MAX_RANKS",
        "MAX_SCENARIO_BYTES",
        "MAX_PACKAGES",
        "MAX_FILE_BYTES",
    ] {
        assert!(doc.contains(name), "docs/limits.md lacks {name}");
    }
}

#[test]
fn class8_leg_counts_are_known_before_compiling() {
    let text = mesh_collective("all_reduce", 256, 16, "0x400000");
    let t = Instant::now();
    let e = xdie_model::Scenario::parse(Path::new("s.yaml"), &text).expect_err("too many legs");
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    assert!(e.message.contains("2088960 legs"), "{e}");
}

// ---- 9. Every error of a file, once, with file, line and key ------------------------------

#[test]
fn class9_every_error_of_a_file_is_reported_once_with_its_key_and_line() {
    let (_s, sc, tp) = tree("r2-many");
    let ag = read(&repo().join("scenarios/allgather-ring8.yaml"));
    let text = ag
        .replace("description:", "descripton:")
        .replace("bytes_per_rank:", "byte_per_rank:")
        .replace("dtype: int32", "dtyp: int32")
        .replace("engines: 4", "engines: four");
    let p = sc.join("many.yaml");
    std::fs::write(&p, &text).expect("write");
    let f = p.display().to_string();
    let err = refused(
        &["sim", arg(&p), "--model-only"],
        &[
            &format!("{f}:{}: key `descripton`", line_of(&text, "descripton:")),
            &format!(
                "{f}:{}: key `collective.byte_per_rank`",
                line_of(&text, "byte_per_rank:")
            ),
            &format!("{f}:{}: key `collective.dtyp`", line_of(&text, "dtyp:")),
            &format!(
                "{f}:{}: key `collective.engines`",
                line_of(&text, "engines: four")
            ),
            "did you mean `description`?",
            "did you mean `bytes_per_rank`?",
            "did you mean `dtype`?",
        ],
    );
    assert_eq!(err.lines().count(), 4, "four errors, one line each:\n{err}");
    assert!(
        !err.contains("missing field"),
        "a typo's missing field is not a second error:\n{err}"
    );
    // A topology with several errors.
    let ring = read(&tp.join("ring4.yaml"));
    let text = ring
        .replacen("\nview:", "\nveiw:", 1)
        .replacen("cayman_id:", "cayman:", 1);
    let p = tp.join("many.yaml");
    std::fs::write(&p, &text).expect("write");
    let f = p.display().to_string();
    refused(
        &["route", arg(&p)],
        &[
            &format!("{f}:{}: key `veiw`", line_of(&text, "veiw:")),
            "did you mean `view`?",
            &format!(
                "{f}:{}: key `packages[0].cayman`",
                line_of(&text, "cayman:")
            ),
            "did you mean `cayman_id`?",
        ],
    );
}

#[test]
fn class9_keys_are_printed_once_and_nested_errors_are_located() {
    let (_s, sc, tp) = tree("r2-once");
    let ag = read(&repo().join("scenarios/allgather-ring8.yaml"));
    for (name, from, to, key, needle) in [
        (
            "variant",
            "kind: all_gather",
            "kind: allgather",
            "collective.kind",
            "kind:",
        ),
        (
            "type",
            "{chip: 0x12, core: 2}",
            "{chip: 0x12, core: [2]}",
            "collective.ranks[5].core",
            "core: [2]",
        ),
        (
            "deep",
            "{chip: 0x12, core: 2}",
            "{chip: 0x12, core: 2, cores: 3}",
            "collective.ranks[5].cores",
            "cores: 3",
        ),
        (
            "dtype",
            "dtype: int32",
            "dtype: int23",
            "collective.dtype",
            "dtype:",
        ),
    ] {
        let text = ag.replacen(from, to, 1);
        let (p, at) = case(&sc, &format!("{name}.yaml"), &text, needle, key);
        let err = refused(&["sim", arg(&p), "--model-only"], &[&at]);
        assert_eq!(
            err.matches(key).count(),
            1,
            "{name}: the key printed once: {err}"
        );
    }
    // A syntax error deep in the file names the key it is in.
    let text = ag.replacen("{chip: 0x12, core: 2}", "{chip: 0x12, core: 2", 1);
    let p = sc.join("syntax.yaml");
    std::fs::write(&p, &text).expect("write");
    let err = refused(&["sim", arg(&p), "--model-only"], &[arg(&p)]);
    assert!(err.contains("key `collective.ranks"), "{err}");
    // A topology's width error names the line and key.
    let ring = read(&tp.join("ring4.yaml"));
    let (p, at) = case(
        &tp,
        "width.yaml",
        &ring.replacen("view: chip_id", "view: chip_id\nlink: {width: 3}", 1),
        "link: {width: 3}",
        "link.width",
    );
    refused(&["route", arg(&p)], &[&at, "width 3"]);
}

#[test]
fn class5_control_characters_in_csr_descriptions_keep_the_html_well_formed() {
    let (s, csrs) = csrs_copy("r2-html");
    let file = csrs.join("soc_address.yaml");
    let from = "description: Die-local byte address.";
    assert!(read(&file).contains(from));
    std::fs::write(
        &file,
        read(&file).replace(
            from,
            "description: \"Die-local\\e[2J \\0 </p><b> & \\x7F byte address.\"",
        ),
    )
    .expect("write");
    let out = s.join("out");
    gen_into(&csrs, &out);
    for rel in [
        "docs/register-map.html",
        "docs/register-map.md",
        "docs/architecture.svg",
    ] {
        let text = read(&out.join(rel));
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')),
            "{rel}: a raw control character"
        );
    }
    well_formed(&read(&out.join("docs/architecture.svg"))).expect("architecture.svg well-formed");
}
