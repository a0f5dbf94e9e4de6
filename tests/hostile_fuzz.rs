//! Property test of issue 10: the real CSR files mutated at random (numbers swapped for edge
//! values, lines dropped or doubled, names made hostile, bytes flipped, brackets nested) never
//! make the loader or the generator panic; a rejection names a file of the CSR set; an accepted
//! set generates, its C headers compile and its SV lints clean (every accepted set whose outputs
//! differ from the shipped ones); and `xdie gen` exits 0 or 2, leaving `--out` byte-identical
//! on 2.
//!
//! Deterministic: XDIE_FUZZ_SEED picks the sequence (default 1), XDIE_FUZZ_CASES its length
//! (default 300). A failure prints the seed, the case, the mutation and the command that
//! reproduces it.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const FAST: Duration = Duration::from_secs(2);

/// xorshift64*: small, seedable, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const EDGE_NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "31",
    "32",
    "33",
    "63",
    "64",
    "65",
    "255",
    "256",
    "4294967295",
    "4294967296",
    "0xFFFFFFFF",
    "0x100000000",
    "0x7FFFFFFFFFFFFFFF",
    "0xFFFFFFFFFFFFFFFF",
    "18446744073709551616",
    "-1",
    "0x+10",
    "1e9",
    "\"\"",
    "~",
    "0x800000000000",
];

const HOSTILE_NAMES: &[&str] = &[
    "\"a\\nb\"",
    "\"x */ y\"",
    "\"../../etc/x\"",
    "\"two words\"",
    "module",
    "int",
    "\"caf\u{e9}\"",
    "\"X = 1; Y\"",
    "\"\"",
    "~",
    "local",
    "SBUF",
    "sbuf",
];

/// The CSR files of a copy, relative to it.
fn files(csrs: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["", "blocks"] {
        for e in std::fs::read_dir(csrs.join(sub)).expect("read") {
            let p = e.expect("entry").path();
            if p.is_file() {
                out.push(p.strip_prefix(csrs).expect("inside").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Byte ranges of number-like and word-like tokens of `text`.
fn tokens(text: &str, numeric: bool) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let ok = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        while i < b.len() && ok(b[i]) {
            i += 1;
        }
        if i > start {
            let first = b[start];
            if first.is_ascii_digit() == numeric {
                out.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// One random mutation of `text`; returns the new text and what was done.
fn mutate(rng: &mut Rng, text: &str) -> (Vec<u8>, String) {
    let lines: Vec<&str> = text.lines().collect();
    match rng.below(6) {
        0 | 1 => {
            let t = tokens(text, true);
            if t.is_empty() {
                return (text.as_bytes().to_vec(), "nothing".into());
            }
            let (s, e) = t[rng.below(t.len())];
            let v = EDGE_NUMBERS[rng.below(EDGE_NUMBERS.len())];
            let out = format!("{}{v}{}", &text[..s], &text[e..]);
            (
                out.into_bytes(),
                format!("number `{}` -> `{v}`", &text[s..e]),
            )
        }
        2 => {
            let t = tokens(text, false);
            let (s, e) = t[rng.below(t.len())];
            let v = HOSTILE_NAMES[rng.below(HOSTILE_NAMES.len())];
            let quoted = s > 0 && text.as_bytes()[s - 1] == b'"';
            let v = if quoted { v.trim_matches('"') } else { v };
            let out = format!("{}{v}{}", &text[..s], &text[e..]);
            (out.into_bytes(), format!("word `{}` -> `{v}`", &text[s..e]))
        }
        3 => {
            let n = rng.below(lines.len());
            let mut l = lines.clone();
            let what = if rng.below(2) == 0 {
                l.remove(n);
                format!("line {} dropped", n + 1)
            } else {
                l.insert(n, lines[n]);
                format!("line {} doubled", n + 1)
            };
            ((l.join("\n") + "\n").into_bytes(), what)
        }
        4 => {
            let mut b = text.as_bytes().to_vec();
            let n = rng.below(b.len());
            let v = (rng.next() & 0xff) as u8;
            b[n] = v;
            (b, format!("byte {n} -> {v:#x}"))
        }
        _ => {
            let n = rng.below(text.len());
            let n = (0..=n)
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            let depth = 1 + rng.below(300);
            let out = format!(
                "{}{}{}{}",
                &text[..n],
                "[".repeat(depth),
                "]".repeat(depth),
                &text[n..]
            );
            (out.into_bytes(), format!("{depth} brackets at byte {n}"))
        }
    }
}

fn lint_and_compile(out: &Path) -> Result<(), String> {
    for h in ["include/xdie_regs.h", "include/xdie_soc_addr.h"] {
        let o = Command::new("cc")
            .args(["-fsyntax-only", "-Wall", "-Werror", "-std=c11", "-x", "c"])
            .arg("-DXDIE_SYSTEM_VIEW=XDIE_VIEW_NEIGHBOR")
            .arg(out.join(h))
            .output()
            .map_err(|e| e.to_string())?;
        if !o.status.success() {
            return Err(format!("{h}: {}", String::from_utf8_lossy(&o.stderr)));
        }
    }
    let list = std::fs::read_to_string(out.join("rtl/xdie.f")).map_err(|e| e.to_string())?;
    // The sizing wrapper tops (rtl/gen/xdie_die_<profile>.sv) instantiate the hand-written die,
    // which this lint does not read; tests/rtl_quality.rs lints them together with it. The
    // generated blocks do instantiate one hand-written leaf, the round-robin arbiter (the
    // sequencer slots take turns through it): it is read from the repository.
    let generated: Vec<&str> = list
        .lines()
        .filter(|l| l.starts_with("rtl/gen/") && !l.starts_with("rtl/gen/xdie_die_"))
        .collect();
    let o = Command::new("verilator")
        .current_dir(out)
        .args(["--lint-only", "-Wall", "-Wno-MULTITOP"])
        .arg(repo().join("rtl/lint.vlt"))
        .args(&generated)
        .arg(repo().join("rtl/core/xdie_rr_arbiter.sv"))
        .output()
        .map_err(|e| e.to_string())?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    if !o.status.success() || text.contains("%Warning") || text.contains("%Error") {
        return Err(text);
    }
    Ok(())
}

fn tools() -> bool {
    ["cc", "verilator"]
        .iter()
        .all(|t| Command::new(t).arg("--version").output().is_ok())
}

/// A number from the environment, or `default`; a value that is not a number stops the run
/// rather than silently running another sequence.
fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Err(_) => default,
        Ok(s) => xdie_csr::limits::parse_number(&s)
            .unwrap_or_else(|| panic!("{name}=`{s}` is not a number")),
    }
}

#[test]
fn random_mutations_of_the_real_csrs() {
    let seed = env_number("XDIE_FUZZ_SEED", 1);
    let cases = env_number("XDIE_FUZZ_CASES", 300) as usize;
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (s, csrs) = csrs_copy("fuzz");
    let names = files(&csrs);
    let originals: Vec<Vec<u8>> = names
        .iter()
        .map(|f| std::fs::read(csrs.join(f)).expect("read"))
        .collect();
    let out = s.join("out");
    gen_into(&csrs, &out);
    let baseline = snapshot(&out);
    let (mut accepted, mut linted) = (0, 0);
    let lint = tools();

    for case in 0..cases {
        let fi = rng.below(names.len());
        let text = String::from_utf8_lossy(&originals[fi]).into_owned();
        let (bytes, what) = mutate(&mut rng, &text);
        std::fs::write(csrs.join(&names[fi]), &bytes).expect("write");
        let tag = format!(
            "seed {seed} case {case}: {}: {what}\nreproduce: XDIE_FUZZ_SEED={seed} \
             XDIE_FUZZ_CASES={} cargo test --release --test \
             hostile_fuzz",
            names[fi].display(),
            case + 1
        );

        let t = Instant::now();
        let result = std::panic::catch_unwind(|| {
            xdie_csr::load(&csrs).map(|c| xdie_gen::emit::render_all(&c))
        });
        assert!(t.elapsed() < FAST, "{tag}: took {:?}", t.elapsed());
        match result {
            Err(_) => panic!("{tag}: panicked"),
            Ok(Err(e)) => assert!(
                e.at.file.starts_with(&csrs) && e.at.file.file_name().is_some(),
                "{tag}: error names no file of the set: {e}"
            ),
            // Names valid one by one that meet once joined: refused naming a file of the set.
            Ok(Ok(Err(xdie_gen::emit::RenderError::Input(e)))) => assert!(
                e.at.file.starts_with(&csrs) && e.at.line.is_some(),
                "{tag}: error names no line of a file of the set: {e}"
            ),
            Ok(Ok(Err(e))) => panic!("{tag}: loaded but did not render: {e}"),
            Ok(Ok(Ok(files))) => {
                accepted += 1;
                // Every accepted set whose outputs differ from the shipped ones (those are
                // linted by the RTL quality tests) goes through the compiler and the linter.
                let changed = files.iter().any(|f| {
                    baseline.get(&f.path).map(|b| b.as_slice()) != Some(f.contents.as_bytes())
                });
                if lint && changed {
                    linted += 1;
                    let dir = s.join(format!("lint{case}"));
                    xdie_gen::output::write_all(&dir, &files).expect("write accepted outputs");
                    if let Err(e) = lint_and_compile(&dir) {
                        panic!("{tag}: accepted, but the outputs are not clean:\n{e}");
                    }
                    let _ = std::fs::remove_dir_all(&dir);
                }
            }
        }
        // Through the command line now and then: exit 0 or 2, and `--out` untouched on 2.
        if case % 25 == 0 {
            let before = snapshot(&out);
            let o = run(xdie()
                .args(["gen", "--csrs"])
                .arg(&csrs)
                .arg("--out")
                .arg(&out));
            match o.status.code() {
                Some(0) => gen_into(&repo().join("csrs"), &out),
                Some(2) => {
                    assert!(
                        stderr(&o).contains(&csrs.display().to_string()),
                        "{tag}: {}",
                        stderr(&o)
                    );
                    assert!(
                        snapshot(&out) == before,
                        "{tag}: --out changed on a rejection"
                    );
                }
                other => panic!("{tag}: exit {other:?}: {}", stderr(&o)),
            }
        }
        std::fs::write(csrs.join(&names[fi]), &originals[fi]).expect("restore");
    }
    eprintln!(
        "{cases} mutations (seed {seed}): {accepted} accepted, {linted} of them changed the \
         outputs and were linted and compiled{}",
        if lint {
            ""
        } else {
            "; cc or verilator missing, none linted"
        }
    );
}
