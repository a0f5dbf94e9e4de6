//! Hostile scenarios (issue 10, class 1 and the scenario checks beside it): huge sizes are
//! refused before any source data is allocated, with the key of the leg field to blame, fast;
//! package lists are bounded and distinct; nesting is capped. Limits come from the model's own
//! constants and the CSR views, never from literals.

mod common;

use common::*;
use std::path::Path;
use std::time::{Duration, Instant};
use xdie_model::scenario::{MAX_LEGS, MAX_PACKAGES};
use xdie_model::{Scenario, ScenarioError};

const FAST: Duration = Duration::from_secs(2);

fn worked_example() -> String {
    std::fs::read_to_string(repo().join("scenarios/worked-example.yaml")).expect("read")
}

/// Parse and run `text` on the model; it must fail within `FAST` without a panic.
fn refused(text: &str) -> Box<ScenarioError> {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs load");
    let t = Instant::now();
    let r = std::panic::catch_unwind(|| {
        Scenario::parse(Path::new("hostile.yaml"), text)
            .and_then(|s| s.run_model(&csrs, 1).map(|_| ()))
    })
    .expect("no panic");
    assert!(t.elapsed() < FAST, "took {:?}", t.elapsed());
    r.expect_err("the hostile scenario ran")
}

fn with(field: &str, value: &str) -> String {
    let text = worked_example();
    let at = text
        .find(&format!("    {field}:"))
        .expect("field in the worked example");
    let end = at + text[at..].find('\n').expect("line end");
    format!("{}    {field}: {value}{}", &text[..at], &text[end..])
}

#[test]
fn huge_sizes_are_refused_before_allocating() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs load");
    let p = &csrs.views.params;
    for (field, value, key) in [
        (
            "partitions",
            format!("{}", p.sbuf_partitions + 1),
            "legs[0].partitions",
        ),
        (
            "partitions",
            "0xFFFFFFFFFFFF".to_string(),
            "legs[0].partitions",
        ),
        (
            "free_dim_bytes",
            "0xFFFFFFFFFFFFFFFF".to_string(),
            "legs[0].free_dim_bytes",
        ),
        (
            "free_dim_bytes",
            format!("{}", p.sbuf_backing_bytes + 1),
            "legs[0].free_dim_bytes",
        ),
        (
            "src_addr",
            "0xFFFFFFFFFFFFFFF0".to_string(),
            "legs[0].src_addr",
        ),
        (
            "dst_addr",
            "0xFFFFFFFFFFFFFFF0".to_string(),
            "legs[0].dst_addr",
        ),
    ] {
        let e = refused(&with(field, &value));
        assert_eq!(e.at.key, key, "{field} = {value}: {e}");
        assert!(e.at.line.is_some(), "{e}");
    }
}

#[test]
fn package_lists_are_bounded_and_distinct() {
    let text = worked_example();
    let dup = text.replace("packages: [0x12]", "packages: [0x12, 0x13, 0x12]");
    let e = refused(&dup);
    assert_eq!(e.at.key, "packages[2]", "{e}");

    let many: Vec<String> = (0..=MAX_PACKAGES).map(|i| i.to_string()).collect();
    let e = refused(&text.replace(
        "packages: [0x12]",
        &format!("packages: [{}]", many.join(", ")),
    ));
    assert_eq!(e.at.key, "packages", "{e}");

    let leg = &text[text.find("  - name:").expect("a leg")..];
    let legs: String = (0..=MAX_LEGS)
        .map(|i| leg.replacen("seed-leg", &format!("leg{i}"), 1))
        .collect();
    let head = &text[..text.find("  - name:").expect("a leg")];
    let e = refused(&format!("{head}{legs}"));
    assert_eq!(e.at.key, "legs", "{e}");
}

#[test]
fn deep_nesting_is_refused_fast() {
    let text = format!(
        "{}\nextra: {}{}\n",
        worked_example(),
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = refused(&text);
    assert!(e.message.contains("nest deeper"), "{e}");
}
