//! Issue 10, classes 7 and 8 for scenarios: a repeated key is blamed at its second occurrence;
//! legs that would count into one semaphore of a die together are refused at the later leg's
//! field, while chained legs may reuse what the chain consumed; a package listed twice (in any
//! spelling) is refused. Cases are made by editing the shipped scenarios; the semaphore numbers
//! come from the scenario's own legs, never from literals.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xdie_model::scenario::{Scenario, ScenarioErrorKind};
use xdie_model::ScenarioError;

const FAST: Duration = Duration::from_secs(2);

fn shipped(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    std::fs::read_to_string(p).expect("read")
}

fn outcome(text: &str) -> Result<(Scenario, xdie_model::scenario::ModelRun), Box<ScenarioError>> {
    let csrs = csrs();
    let t = Instant::now();
    let r = std::panic::catch_unwind(|| {
        let sc = Scenario::parse(Path::new("hostile.yaml"), text)?;
        let run = sc.run_model(&csrs, 1)?;
        Ok((sc, run))
    })
    .expect("no panic");
    assert!(t.elapsed() < FAST, "took {:?}", t.elapsed());
    r
}

fn refused(text: &str) -> Box<ScenarioError> {
    match outcome(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Replace the line of leg `leg`'s `field` (the leg-th `    field:` line) by `field: value`;
/// returns the text and the 1-based line.
fn set(text: &str, leg: usize, field: &str, value: &str) -> (String, usize) {
    let needle = format!("    {field}:");
    let n = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(&needle))
        .nth(leg)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no leg {leg} `{field}`"));
    let out: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == n {
                format!("    {field}: {value}")
            } else {
                l.to_string()
            }
        })
        .collect();
    (out.join("\n") + "\n", n + 1)
}

/// The value of leg `leg`'s semaphore `field` in `text`.
fn sem(text: &str, leg: usize, field: &str) -> u64 {
    let sc = Scenario::parse(Path::new("x.yaml"), text).expect("parse");
    let l = &sc.legs[leg];
    match field {
        "local_sem" => l.local_sem,
        "remote_sem" => l.remote_sem,
        "go_sem" => l.go_sem,
        _ => panic!("{field}"),
    }
}

fn shared_at(e: &ScenarioError, key: &str, line: usize) {
    assert_eq!(e.kind, ScenarioErrorKind::SharedSemaphore, "{e}");
    assert_eq!(e.at.key, key, "{e}");
    assert_eq!(e.at.line, Some(line), "{e}");
    assert!(e.to_string().starts_with("hostile.yaml:"), "{e}");
}

/// chain.yaml: leg a (die 0 -> die 1), leg b after a (die 1 -> die 0).
fn chain() -> String {
    shipped("chain.yaml")
}

fn unchained() -> String {
    let c = chain();
    assert!(c.contains("    after: a\n"), "chain.yaml chains b after a");
    c.replace("    after: a\n", "")
}

#[test]
fn concurrent_legs_sharing_a_semaphore_of_a_die_are_refused() {
    // (b's field, a's field on the same die): b's TX die is a's RX die and the other way round.
    for (bf, af) in [
        ("local_sem", "remote_sem"),
        ("go_sem", "remote_sem"),
        ("remote_sem", "local_sem"),
        ("remote_sem", "go_sem"),
    ] {
        let base = unchained();
        let v = sem(&base, 0, af);
        let (text, line) = set(&base, 1, bf, &v.to_string());
        let e = refused(&text);
        shared_at(&e, &format!("legs[1].{bf}"), line);
        assert!(e.message.contains(&format!("legs[0].{af}")), "{e}");
        assert!(e.message.contains("same time"), "{e}");
    }
    // Two copies of the worked example's leg: every semaphore shared.
    let w = shipped("worked-example.yaml");
    let leg = &w[w.find("  - name:").expect("a leg")..];
    let text = format!("{w}{}", leg.replace("name: seed-leg", "name: again"));
    let e = refused(&text);
    let want = 1 + text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("local_sem:"))
        .nth(1)
        .map(|(i, _)| i)
        .expect("second local_sem");
    shared_at(&e, "legs[1].local_sem", want);
}

#[test]
fn equal_numbers_on_different_dies_are_different_semaphores() {
    // a's local_sem is on die 0, b's on die 1.
    let base = unchained();
    let v = sem(&base, 0, "local_sem");
    let (text, _) = set(&base, 1, "local_sem", &v.to_string());
    outcome(&text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_chained_leg_may_reuse_only_what_the_chain_consumed() {
    // a's remote_sem was consumed by b's wait, a's go_sem by a's own TX: b may count them.
    for (bf, af) in [("local_sem", "remote_sem"), ("remote_sem", "go_sem")] {
        let base = chain();
        let v = sem(&base, 0, af);
        let (text, _) = set(&base, 1, bf, &v.to_string());
        let (sc, run) = outcome(&text).unwrap_or_else(|e| panic!("b.{bf} = a.{af}: {e}"));
        let b = &sc.legs[1];
        let r = &run.legs[1];
        let (die, tpb) = match bf {
            "local_sem" => (r.tx_die, r.tx_tpb),
            _ => (r.rx_die, r.rx_tpb),
        };
        assert_eq!(
            run.sys.sem(die, tpb, v),
            b.n_engines() as i64,
            "b.{bf} = a.{af} ends at b's target"
        );
    }
    // a's local_sem stays at its target; b's go_sem is raised before a is done.
    for (bf, af) in [("remote_sem", "local_sem"), ("go_sem", "remote_sem")] {
        let base = chain();
        let v = sem(&base, 0, af);
        let (text, line) = set(&base, 1, bf, &v.to_string());
        let e = refused(&text);
        shared_at(&e, &format!("legs[1].{bf}"), line);
    }
}

#[test]
fn a_legs_own_semaphores_differ() {
    let base = shipped("same-die.yaml");
    for (f, other) in [("remote_sem", "local_sem"), ("go_sem", "remote_sem")] {
        let v = sem(&base, 0, other);
        let (text, line) = set(&base, 0, f, &v.to_string());
        let e = refused(&text);
        shared_at(&e, &format!("legs[0].{f}"), line);
        assert!(e.message.contains("as both"), "{e}");
    }
}

#[test]
fn a_package_listed_twice_is_refused_in_any_spelling() {
    let w = shipped("worked-example.yaml");
    let sc = Scenario::parse(Path::new("x.yaml"), &w).expect("parse");
    let p = sc.packages[0];
    let line = 1 + w
        .lines()
        .position(|l| l.starts_with("packages:"))
        .expect("packages");
    for list in [format!("[{p:#x}, {p:#x}]"), format!("[{p:#x}, {p}]")] {
        let text = w.replacen(
            &w[w.find("packages:").expect("packages")..]
                .lines()
                .next()
                .expect("line")
                .to_string(),
            &format!("packages: {list}"),
            1,
        );
        let e = refused(&text);
        assert_eq!(e.kind, ScenarioErrorKind::Reference, "{e}");
        assert_eq!(e.at.key, "packages[1]", "{e}");
        assert_eq!(e.at.line, Some(line), "{e}");
        assert!(e.message.contains("twice"), "{e}");
    }
}

#[test]
fn a_repeated_key_is_blamed_at_its_second_occurrence() {
    let w = shipped("worked-example.yaml");
    let line_of =
        |t: &str, needle: &str| 1 + t.lines().position(|l| l.contains(needle)).expect(needle);
    // A leg field, block style.
    let go = line_of(&w, "    go_sem:");
    let text = w.replace("    go_sem: 3\n", "    go_sem: 3\n    go_sem: 4\n");
    assert_ne!(text, w, "worked example has go_sem: 3");
    // Top level.
    let pk = line_of(&w, "packages:");
    let top = format!("{w}packages: [0x1]\n");
    // Flow style, same line.
    let tx = line_of(&w, "    tx:");
    let flow = w.replacen("core: 5}", "core: 5, core: 6}", 1);
    assert_ne!(flow, w, "worked example's tx is core 5");
    for (t, key, line, first) in [
        (text, "legs[0].go_sem", go + 1, go),
        (top.clone(), "packages", top.lines().count(), pk),
        (flow, "legs[0].tx.core", tx, tx),
    ] {
        let e = refused(&t);
        assert_eq!(e.kind, ScenarioErrorKind::Syntax, "{e}");
        assert_eq!(e.at.key, key, "{e}");
        assert_eq!(e.at.line, Some(line), "{e}");
        assert!(
            e.message.contains("duplicate key")
                && e.message.contains(&format!("first on line {first}")),
            "{e}"
        );
    }
}

/// chain.yaml with a third leg `c`, a copy of b on its own queue, semaphores and destination,
/// following `after`.
fn third_leg(after: &str) -> String {
    let base = chain();
    let sc = Scenario::parse(Path::new("x.yaml"), &base).expect("parse");
    let b = &sc.legs[1];
    let top = sc
        .legs
        .iter()
        .flat_map(|l| [l.local_sem, l.remote_sem, l.go_sem])
        .max()
        .expect("legs");
    let start = base.find("  - name: b").expect("leg b");
    let mut leg = base[start..].replace("  - name: b", "  - name: c");
    for (i, f) in ["local_sem", "remote_sem", "go_sem"].iter().enumerate() {
        let (t, _) = set(&leg, 0, f, &(top + 1 + i as u64).to_string());
        leg = t;
    }
    leg = set(&leg, 0, "queue", &(b.queue + 1).to_string()).0;
    leg = set(&leg, 0, "after", after).0;
    if after == "b" {
        // A follower's TX is on the RX die of the leg it follows: c runs the other way.
        let line = |f: &str| {
            leg.lines()
                .find(|l| l.starts_with(&format!("    {f}:")))
                .expect("tx and rx")
                .split_once(':')
                .expect("key")
                .1
                .trim()
                .to_string()
        };
        let (tx, rx) = (line("tx"), line("rx"));
        leg = set(&set(&leg, 0, "tx", &rx).0, 0, "rx", &tx).0;
    }
    let dst = b.dst_addr + 2 * b.free_dim_bytes;
    leg = set(&leg, 0, "dst_addr", &format!("{dst:#x}")).0;
    format!("{base}{leg}")
}

#[test]
fn one_leg_has_at_most_one_follower() {
    // c and b both follow a: each would wait for a's remote_sem and take its count.
    let text = third_leg("a");
    let line = 1 + text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("    after:"))
        .nth(1)
        .map(|(i, _)| i)
        .expect("c's after");
    let e = refused(&text);
    shared_at(&e, "legs[2].after", line);
    assert!(e.message.contains("legs[1].after"), "{e}");
    let sc = Scenario::parse(Path::new("x.yaml"), &chain()).expect("parse");
    assert!(
        e.message
            .contains(&format!("semaphore {} of", sc.legs[0].remote_sem)),
        "{e}"
    );
    // The same leg chained after b instead runs: the check refuses only the contradiction.
    let (sc, run) = outcome(&third_leg("b")).unwrap_or_else(|e| panic!("c after b: {e}"));
    let c = &sc.legs[2];
    assert_eq!(
        run.sys
            .sem(run.legs[2].rx_die, run.legs[2].rx_tpb, c.remote_sem),
        c.n_engines() as i64,
        "c's remote_sem ends at its target"
    );
}

#[test]
fn leg_names_are_labels() {
    let base = chain();
    for bad in [
        "\"a\\nPASS (seed 1)\"",
        "\"a.b\"",
        "\"\"",
        "\"a\\u001b[2J\"",
    ] {
        let at = base.find("  - name: ").expect("a leg");
        let end = at + base[at..].find('\n').expect("line end");
        let text = format!("{}  - name: {bad}{}", &base[..at], &base[end..]);
        let line = base[..at].matches('\n').count() + 1;
        let e = refused(&text);
        assert_eq!(e.kind, ScenarioErrorKind::Syntax, "{bad}: {e}");
        assert_eq!(e.at.key, "legs[0].name", "{bad}: {e}");
        assert_eq!(e.at.line, Some(line), "{bad}: {e}");
        assert!(!e.to_string().contains('\n'), "{bad}: {e}");
    }
}
