//! Descriptions cannot inject anything into generated code (issue 10, class 4). Every
//! description of every CSR file is replaced by text built to break out of a comment (newlines,
//! `*/`, `/*`, tool pragmas, trigraphs, Markdown table and link syntax, raw HTML, non-ASCII,
//! Unicode line breaks); the set must still load and generate, the generated SystemVerilog must
//! lint clean (`verilator --lint-only -Wall`), the C headers must compile under
//! `cc -fsyntax-only -Wall -Werror`, and the marker may appear only inside comments / as text.
//! (Hostile names are refused by the loader: csr/tests/hostile.rs.)

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

/// Appears in every hostile description; any occurrence outside a comment is live text.
const MARK: &str = "HACKED";

fn hostile() -> String {
    format!(
        "x\nassign {MARK} = 1; */ int {MARK}; /* `define {MARK}\n// verilator lint_off WIDTH\n\
         verilator lint_off {MARK}\r| a | b | <script>{MARK}</script> [l](javascript:{MARK}) \
         [r]: http://{MARK}\n```\n<script>{MARK}</script>\n``` ??/ \\ caf\u{e9} \u{2028}{MARK}\u{0}\u{1b}[0m # {MARK}"
    )
}

fn replace_yaml(v: &mut serde_yaml::Value, with: &str) {
    match v {
        serde_yaml::Value::Mapping(m) => {
            for (k, x) in m.iter_mut() {
                if k.as_str() == Some("description") {
                    *x = serde_yaml::Value::from(with);
                } else {
                    replace_yaml(x, with);
                }
            }
        }
        serde_yaml::Value::Sequence(s) => s.iter_mut().for_each(|x| replace_yaml(x, with)),
        _ => {}
    }
}

fn replace_json(v: &mut serde_json::Value, with: &str) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "Description" {
                    *x = serde_json::Value::from(with);
                } else {
                    replace_json(x, with);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| replace_json(x, with)),
        _ => {}
    }
}

/// Every description of every file of `csrs` set to `with`.
fn poison(csrs: &Path, with: &str) {
    for sub in ["", "blocks"] {
        for e in std::fs::read_dir(csrs.join(sub)).expect("read csrs") {
            let p = e.expect("entry").path();
            let text = match std::fs::read_to_string(&p) {
                Ok(t) if p.is_file() => t,
                _ => continue,
            };
            let out = if p.extension().is_some_and(|x| x == "json") {
                let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
                replace_json(&mut v, with);
                serde_json::to_string_pretty(&v).expect("json")
            } else {
                let mut v: serde_yaml::Value = serde_yaml::from_str(&text).expect("yaml");
                replace_yaml(&mut v, with);
                serde_yaml::to_string(&v).expect("yaml")
            };
            std::fs::write(&p, out).expect("write");
        }
    }
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

#[test]
fn hostile_descriptions_stay_text() {
    let (s, csrs) = csrs_copy("hostile-desc");
    poison(&csrs, &hostile());
    let out = s.join("out");
    gen_into(&csrs, &out);

    let mut seen = 0;
    for (rel, bytes) in snapshot(&out) {
        let text = String::from_utf8(bytes).expect("utf-8 output");
        let ext = rel.extension().and_then(|e| e.to_str()).unwrap_or("");
        // Markdown code blocks show their text as is: skip them, tracking their fences.
        let mut fence: Option<usize> = None;
        for (n, line) in text.lines().enumerate() {
            if ext == "md" {
                let ticks = line.len() - line.trim_start_matches('`').len();
                match fence {
                    None if ticks >= 3 => fence = Some(ticks),
                    Some(f) if ticks >= f && line.trim_start_matches('`').trim().is_empty() => {
                        fence = None
                    }
                    _ => {}
                }
                if fence.is_some() {
                    continue;
                }
            }
            let Some(at) = line.find(MARK) else { continue };
            seen += 1;
            let here = format!("{}:{}: {line}", rel.display(), n + 1);
            match ext {
                "sv" => {
                    let before = &line[..at];
                    assert!(before.contains("//"), "live SV text: {here}");
                    let body = before[before.find("//").unwrap() + 2..].trim_start();
                    assert!(
                        !body.to_ascii_lowercase().starts_with("verilator"),
                        "armed pragma: {here}"
                    );
                }
                "h" => {
                    let (open, close) = (line.find("/*"), line.rfind("*/"));
                    assert!(
                        open.is_some_and(|o| o < at) && close.is_some_and(|c| c > at),
                        "live C text: {here}"
                    );
                    assert_eq!(line.matches("/*").count(), 1, "nested comment: {here}");
                    assert_eq!(line.matches("*/").count(), 1, "closed early: {here}");
                }
                "md" | "html" => {
                    assert!(!line.contains("<script"), "raw HTML: {here}");
                    // Markdown only: in HTML the brackets are plain text.
                    let live_link = line
                        .match_indices("](javascript")
                        .any(|(i, _)| i == 0 || line.as_bytes()[i - 1] != b'\\');
                    assert!(ext == "html" || !live_link, "link: {here}");
                }
                _ => {}
            }
        }
    }
    assert!(seen > 0, "the hostile text reached no output");

    if tool("cc") {
        for h in ["include/xdie_regs.h", "include/xdie_soc_addr.h"] {
            let o = Command::new("cc")
                .args(["-fsyntax-only", "-Wall", "-Werror", "-std=c11", "-x", "c"])
                // The SoC header asks which address view the system uses; any will do here.
                .arg("-DXDIE_SYSTEM_VIEW=XDIE_VIEW_NEIGHBOR")
                .arg(out.join(h))
                .output()
                .expect("run cc");
            assert!(
                o.status.success(),
                "{h} does not compile cleanly:\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    if tool("verilator") {
        let list = std::fs::read_to_string(out.join("rtl/xdie.f")).expect("filelist");
        // In the filelist's order (hand-written packages precede the generated wrappers that
        // use their types): generated files from the output, hand-written ones (the die the
        // sizing wrappers instantiate) from the repository, so the wrappers, which carry profile
        // descriptions, are linted too.
        let files: Vec<std::path::PathBuf> = list
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('+'))
            .map(|l| {
                if l.starts_with("rtl/gen/") {
                    std::path::PathBuf::from(l)
                } else {
                    repo().join(l)
                }
            })
            .collect();
        let o = Command::new("verilator")
            .current_dir(&out)
            .args(["--lint-only", "-Wall", "-Wno-MULTITOP"])
            .arg(repo().join("rtl/lint.vlt"))
            .args(&files)
            .output()
            .expect("run verilator");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.status.success() && !text.contains("%Warning") && !text.contains("%Error"),
            "generated SV does not lint clean:\n{text}"
        );
    }
}
