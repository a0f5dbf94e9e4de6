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
    for args in [
        vec!["scenarios/cross-package.yaml"],
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
