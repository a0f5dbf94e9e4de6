//! Issue 10, class 8 from the outside: `xdie sim` never reports a run of the golden model alone
//! as a bare PASS (text and JSON say the RTL did not run, and why); scenarios that share a
//! semaphore between concurrent legs or repeat a key exit 2 naming file, key and line; `xdie
//! fold` refuses malformed numbers (`0x0x+10`, signs, empty digits, overflow) with exit 2.

mod common;

use common::*;
use serde_json::Value;

fn sim(args: &[&str]) -> std::process::Output {
    run(xdie().current_dir(repo()).arg("sim").args(args))
}

#[test]
fn a_run_of_the_model_alone_says_so() {
    // Two packages with no topology: the model runs them, no RTL top holds them.
    let dir = Scratch::new("two-packages");
    let two = dir.join("two-packages.yaml");
    let text = std::fs::read_to_string(repo().join("scenarios/cross-package.yaml"))
        .expect("cross-package.yaml")
        .replace("topology: ring4", "packages: [0x11, 0x12]");
    std::fs::write(&two, text).expect("write scenario");
    let two = two.to_string_lossy().into_owned();
    for args in [
        vec![two.as_str()],
        vec!["scenarios/worked-example.yaml", "--model-only"],
    ] {
        let o = sim(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let text = stdout(&o);
        let last = text.lines().last().expect("a report");
        assert!(last.starts_with("MODEL ONLY: PASS"), "{args:?}: {text}");
        assert!(last.contains("the RTL did not run"), "{args:?}: {text}");
        assert!(
            !text.lines().any(|l| l.starts_with("PASS")),
            "{args:?}: a bare PASS in\n{text}"
        );
        assert!(text.contains("RTL: not run ("), "{args:?}: {text}");

        let o = sim(&[args.as_slice(), &["--json"]].concat());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let r: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        assert_eq!(r["rtl"], "not run", "{args:?}");
        assert_eq!(r["rtl_ran"], false, "{args:?}");
        assert!(
            r["rtl_not_run"].as_str().is_some_and(|w| !w.is_empty()),
            "{args:?}: {r}"
        );
        assert_eq!(r["model"], "PASS", "{args:?}");
    }
    let r: Value = serde_json::from_str(&stdout(&sim(&[
        "scenarios/worked-example.yaml",
        "--model-only",
        "--json",
    ])))
    .expect("JSON");
    assert!(
        r["rtl_not_run"]
            .as_str()
            .is_some_and(|w| w.contains("--model-only")),
        "{r}"
    );
}

#[test]
fn the_exit_status_and_the_model_only_flag_are_in_the_help() {
    let o = run(xdie().args(["sim", "--help"]));
    assert!(o.status.success());
    let help = stdout(&o);
    for says in [
        "Exit status",
        "MODEL ONLY",
        "\"rtl_ran\": false",
        "\"not run\"",
    ] {
        assert!(help.contains(says), "help lacks `{says}`:\n{help}");
    }
}

#[test]
fn bad_scenarios_exit_2_at_the_key_to_blame() {
    let s = Scratch::new("sim-verdicts");
    let chain = std::fs::read_to_string(repo().join("scenarios/chain.yaml")).expect("read");
    let sc = xdie_model::Scenario::parse(std::path::Path::new("chain.yaml"), &chain).expect("ok");
    let (a, b) = (&sc.legs[0], &sc.legs[1]);
    // b unchained counts a's remote_sem (on b's TX die) as its local_sem.
    let shared = chain.replace("    after: a\n", "").replace(
        &format!("    local_sem: {}\n", b.local_sem),
        &format!("    local_sem: {}\n", a.remote_sem),
    );
    // A leg field written twice.
    let dup = chain.replacen(
        &format!("    go_sem: {}\n", a.go_sem),
        &format!("    go_sem: {}\n    go_sem: {}\n", a.go_sem, a.go_sem),
        1,
    );
    for (name, text, needle, key) in [
        ("shared.yaml", shared, "local_sem", "legs[1].local_sem"),
        ("dup.yaml", dup, "go_sem", "legs[0].go_sem"),
    ] {
        let line = 1 + text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with(needle))
            .nth(1)
            .map(|(i, _)| i)
            .expect("edited line");
        let file = s.join(name);
        std::fs::write(&file, &text).expect("write");
        let o = run(xdie().current_dir(repo()).arg("sim").arg(&file));
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        let want = format!("{}:{line}: key `{key}`", file.display());
        assert!(stderr(&o).contains(&want), "{name}: {}", stderr(&o));
        assert!(
            stdout(&o).is_empty(),
            "{name}: a bad scenario prints no report"
        );
    }
}

#[test]
fn fold_refuses_malformed_numbers() {
    let with = |flag: &str, v: &str| -> Vec<String> {
        let mut a: Vec<String> = vec!["fold".into()];
        match flag {
            "--local" => a.extend(["--die", "1", "--neighbor"].map(String::from)),
            "--chip-id" => a.extend(
                ["--view", "chip-id", "--local", "0x100000", "--die", "1"].map(String::from),
            ),
            _ => {}
        }
        a.push(format!("{flag}={v}"));
        a
    };
    for flag in ["--local", "--decode", "--chip-id"] {
        for bad in [
            "0x0x+10",
            "0x+10",
            "+10",
            "-1",
            "0x",
            "",
            "0x_1",
            "0x1_",
            "0x1__0",
            "0xg",
            "0x10000000000000000",
        ] {
            let o = run(xdie().current_dir(repo()).args(with(flag, bad)));
            assert_eq!(o.status.code(), Some(2), "{flag}={bad}: {}", stdout(&o));
            let err = stderr(&o);
            assert!(
                err.contains(&format!("`{bad}` is not a hex number")),
                "{flag}={bad}: {err}"
            );
            assert!(stdout(&o).is_empty(), "{flag}={bad}");
        }
        // The same number with and without its prefix, and with `_` between digits.
        let good = match flag {
            "--chip-id" => ["0x12", "12", "0X1_2"],
            _ => ["0x100000", "100000", "0X10_0000"],
        };
        let outs: Vec<String> = good
            .iter()
            .map(|v| {
                let o = run(xdie().current_dir(repo()).args(with(flag, v)));
                assert!(o.status.success(), "{flag}={v}: {}", stderr(&o));
                stdout(&o)
            })
            .collect();
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "{flag}: {outs:?}");
    }
}

/// Every numeric option follows the number rule (decimal or 0x hex; no sign, no empty digits,
/// no overflow) and an error names the option; a value out of its field's range names the
/// option too. Topology link ends and `--from`/`--to` dies follow the same rule.
#[test]
fn numeric_options_are_strict_and_named() {
    let fold = ["fold", "--local", "0x100000", "--neighbor"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        ([&fold[..], &["--die"]].concat(), "--die"),
        (
            [&fold[..], &["--die", "1", "--exit-port"]].concat(),
            "--exit-port",
        ),
        (
            vec!["sim", "scenarios/chain.yaml", "--model-only", "--seed"],
            "--seed",
        ),
    ];
    // `--option=VALUE`, so that `-1` is read as a value.
    let with = |args: &[&str], v: &str| -> Vec<String> {
        let (last, head) = args.split_last().expect("an option");
        let mut a: Vec<String> = head.iter().map(|s| s.to_string()).collect();
        a.push(format!("{last}={v}"));
        a
    };
    for (args, option) in &cases {
        for bad in [
            "+1",
            "-1",
            "",
            "0x",
            "0x+1",
            "1e3",
            "1__0",
            "18446744073709551616",
        ] {
            let o = run(xdie().current_dir(repo()).args(with(args, bad)));
            assert_eq!(o.status.code(), Some(2), "{option} {bad:?}: {}", stdout(&o));
            let err = stderr(&o);
            assert!(
                err.contains(&format!("'{option} <")) && err.contains("is not a number"),
                "{option} {bad:?}: {err}"
            );
            assert!(stdout(&o).is_empty(), "{option} {bad:?}");
        }
        // Decimal and hex of the same value give the same result.
        let outs: Vec<String> = ["1", "0x1", "0X0_1"]
            .iter()
            .map(|v| {
                let o = run(xdie().current_dir(repo()).args(with(args, v)));
                assert!(o.status.success(), "{option} {v}: {}", stderr(&o));
                stdout(&o)
            })
            .collect();
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "{option}: {outs:?}");
    }
    // In range for the number rule, out of range for the field: the option is named.
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let dies = 1u64 << csrs.views.soc.neighbor.die.width;
    let o = run(xdie()
        .current_dir(repo())
        .args(fold)
        .args(["--die", &dies.to_string()]));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("--die {dies:#x}")),
        "{}",
        stderr(&o)
    );
    // Link ends and --from/--to of a topology.
    let s = Scratch::new("strict-topology");
    let text = std::fs::read_to_string(repo().join("topologies/ring4.yaml")).expect("ring4");
    let link = text
        .lines()
        .find(|l| l.contains("{a: ") && l.contains(".1.1"))
        .expect("a link on port 1");
    let bad = text.replacen(link, &link.replacen(".1.1", ".+1.1", 1), 1);
    let file = s.join("ring4.yaml");
    std::fs::write(&file, &bad).expect("write");
    let o = run(xdie().current_dir(repo()).arg("route").arg(&file));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let line = bad
        .lines()
        .position(|l| l.contains(".+1.1"))
        .expect("edited")
        + 1;
    assert!(
        stderr(&o).contains(&format!("{}:{line}: key `links[", file.display())),
        "{}",
        stderr(&o)
    );
    let topo = repo().join("topologies/ring4.yaml");
    let o = run(xdie()
        .current_dir(repo())
        .args([
            "fold",
            "--local",
            "0x10",
            "--from",
            "p0.+0",
            "--to",
            "p1.1",
            "--topology",
        ])
        .arg(&topo));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("`+0`"), "{}", stderr(&o));
}

/// Topology package names are labels: a dot (which `PACKAGE.DIE` parsing would split) or a
/// newline is refused at the name's key and line.
#[test]
fn topology_package_names_are_labels() {
    let s = Scratch::new("topology-labels");
    let text = std::fs::read_to_string(repo().join("topologies/ring4.yaml")).expect("ring4");
    let first = text
        .lines()
        .position(|l| l.contains("{name: "))
        .expect("a package");
    let old = text.lines().nth(first).expect("line");
    let name = old
        .split("{name: ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .expect("name")
        .to_string();
    for bad in ["\"p.0\"", "\"p\\nPASS\""] {
        let edited = text.replacen(old, &old.replacen(&name, bad, 1), 1);
        let file = s.join("t.yaml");
        std::fs::write(&file, &edited).expect("write");
        let o = run(xdie().current_dir(repo()).arg("route").arg(&file));
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stdout(&o));
        let want = format!("{}:{}: key `packages[0].name`", file.display(), first + 1);
        assert!(stderr(&o).contains(&want), "{bad}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{bad}");
    }
}
