//! Issue 10, class 7: a key written twice in one mapping is refused at the second key, with its
//! key path and line, in every CSR file (YAML block and flow style, JSON). Each case copies the
//! real csrs/ and repeats one key by a text edit, so the expected line comes from the edit.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xdie_csr::{Error, ErrorKind};

const FAST: Duration = Duration::from_secs(2);

struct Copy {
    dir: PathBuf,
}

impl Copy {
    fn new(tag: &str) -> Copy {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        let dir =
            std::env::temp_dir().join(format!("xdie-dupkey-{}-{n}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["", "blocks"] {
            std::fs::create_dir_all(dir.join(sub)).expect("temp dir");
            for e in std::fs::read_dir(src.join(sub)).expect("csrs readable") {
                let p = e.expect("entry").path();
                if p.is_file() {
                    std::fs::copy(&p, dir.join(sub).join(p.file_name().expect("name")))
                        .expect("copy");
                }
            }
        }
        Copy { dir }
    }

    /// Replace the first `from` at or after `anchor` by `to`; returns the 1-based line of the edit.
    fn edit(&self, file: &str, anchor: &str, from: &str, to: &str) -> usize {
        let path = self.dir.join(file);
        let t = std::fs::read_to_string(&path).expect("read");
        let a = t
            .find(anchor)
            .unwrap_or_else(|| panic!("`{anchor}` not in {file}"));
        let at = a + t[a..]
            .find(from)
            .unwrap_or_else(|| panic!("`{from}` not after `{anchor}` in {file}"));
        std::fs::write(&path, format!("{}{to}{}", &t[..at], &t[at + from.len()..])).expect("write");
        t[..at].matches('\n').count() + 1
    }

    fn reject(&self) -> Error {
        let t = Instant::now();
        let r = std::panic::catch_unwind(|| xdie_csr::load(&self.dir)).expect("no panic");
        assert!(t.elapsed() < FAST, "rejection took {:?}", t.elapsed());
        r.expect_err("the edited csrs/ loaded")
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// (file, anchor, text, text with the key repeated, key path, lines from the edit to the repeat)
const CASES: &[(&str, &str, &str, &str, &str, usize)] = &[
    // Top level, block style.
    (
        "profiles.yaml",
        "default:",
        "default: CAYMAN",
        "default: CAYMAN\ndefault: SUNDA",
        "default",
        1,
    ),
    (
        "soc_address.yaml",
        "name:",
        "name: soc_addr",
        "name: soc_addr\nname: soc_addr",
        "name",
        1,
    ),
    // Inside a list item, block style.
    (
        "address_map.yaml",
        "name: SBUF\n",
        "base: 0x0",
        "base: 0x0\n    base: 0x0",
        "apertures[0].base",
        1,
    ),
    // Inside a list item, flow style: same line.
    (
        "address_map.yaml",
        "SBUF_PARTITIONS",
        "value: 128,",
        "value: 128, value: 64,",
        "parameters[0].value",
        0,
    ),
    // JSON: a struct field, and a key of a free-form object.
    (
        "blocks/evt_sem.json",
        "\"Kind\"",
        "\"Kind\": \"evt_sem\",",
        "\"Kind\": \"evt_sem\",\n\"Kind\": \"iatu\",",
        "Kind",
        1,
    ),
    (
        "blocks/evt_sem.json",
        "\"Parameters\"",
        "\"HwIncPorts\": 2,",
        "\"HwIncPorts\": 2, \"HwIncPorts\": 3,",
        "Parameters.HwIncPorts",
        0,
    ),
];

#[test]
fn a_repeated_key_is_blamed_at_its_second_occurrence() {
    for (i, &(file, anchor, from, to, key, down)) in CASES.iter().enumerate() {
        let c = Copy::new(&format!("case{i}"));
        let line = c.edit(file, anchor, from, to);
        let e = c.reject();
        let shown = e.to_string();
        assert_eq!(e.kind, ErrorKind::Syntax, "{shown}");
        assert!(e.at.file.ends_with(file), "file of: {shown}");
        assert_eq!(e.at.key, key, "key of: {shown}");
        assert_eq!(e.at.line, Some(line + down), "line of: {shown}");
        assert!(e.message.contains("duplicate key"), "{shown}");
        assert!(
            e.message.contains(&format!("first on line {line}")),
            "{shown}"
        );
    }
}

#[test]
fn equal_keys_in_different_mappings_are_fine() {
    // Every list item of the shipped files repeats `name`; they load.
    xdie_csr::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs")).expect("csrs load");
}
