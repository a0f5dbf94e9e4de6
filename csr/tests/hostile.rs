//! Hostile and careless CSR input, one test per class of issue 10, several cases each. Every case
//! copies the real csrs/, changes one thing (a text edit, so the line is known), and checks that
//! the loader refuses it with the file and key to blame, quickly and without a panic. Expected
//! values come from the edit itself or from the loader's own limits, never from literals of the
//! shipped files.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xdie_csr::limits::{MAX_APERTURE_COUNT, MAX_ARRAY_SIZE, MAX_DEPTH, MAX_FILE_BYTES};
use xdie_csr::{Error, ErrorKind};

/// Longest a rejection may take (issue 10: each case under 2 s).
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
            std::env::temp_dir().join(format!("xdie-hostile-{}-{n}-{tag}", std::process::id()));
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

    fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    fn text(&self, file: &str) -> String {
        std::fs::read_to_string(self.path(file)).expect("read")
    }

    /// Replace the first `from` at or after `anchor` by `to`; returns the 1-based line of the edit.
    fn edit(&self, file: &str, anchor: &str, from: &str, to: &str) -> usize {
        let t = self.text(file);
        let a = t
            .find(anchor)
            .unwrap_or_else(|| panic!("`{anchor}` not in {file}"));
        let at = a + t[a..]
            .find(from)
            .unwrap_or_else(|| panic!("`{from}` not after `{anchor}` in {file}"));
        let out = format!("{}{to}{}", &t[..at], &t[at + from.len()..]);
        std::fs::write(self.path(file), out).expect("write");
        t[..at].matches('\n').count() + 1
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.path(file), text).expect("write");
    }

    /// Load, expecting a rejection within `FAST`.
    fn reject(&self) -> Error {
        let t = Instant::now();
        let r = std::panic::catch_unwind(|| xdie_csr::load(&self.dir));
        let took = t.elapsed();
        let r = r.expect("the loader panicked");
        assert!(took < FAST, "rejection took {took:?}");
        match r {
            Ok(_) => panic!("the edited csrs/ in {} loaded", self.dir.display()),
            Err(e) => e,
        }
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The error names `file`, a key starting with `key`, and says `says`; `line` if given.
fn blame(e: &Error, file: &str, key: &str, line: Option<usize>, says: &str) {
    let shown = e.to_string();
    assert_eq!(
        e.at.file.file_name().and_then(|n| n.to_str()),
        Some(file),
        "file of: {shown}"
    );
    assert!(e.at.key.starts_with(key), "key of: {shown} (want {key})");
    if line.is_some() {
        assert_eq!(e.at.line, line, "line of: {shown}");
    }
    assert!(e.message.contains(says), "`{shown}` should say `{says}`");
}

// ---------------------------------------------------------------- 1. resource exhaustion

#[test]
fn huge_counts_are_refused_before_allocating() {
    let c = Copy::new("arraysize");
    let line = c.edit(
        "blocks/evt_sem.json",
        "\"SEM_READ\"",
        "\"ArraySize\": 256",
        "\"ArraySize\": \"0xFFFFFFFFFFFFFFFF\"",
    );
    let e = c.reject();
    blame(
        &e,
        "evt_sem.json",
        "Bundles[1].ArraySize",
        Some(line),
        &MAX_ARRAY_SIZE.to_string(),
    );

    // Within the cap but too many for the block: blamed on ArraySize, not AddressOffset.
    let c = Copy::new("arraysize2");
    let n = MAX_ARRAY_SIZE.to_string();
    c.edit(
        "blocks/evt_sem.json",
        "\"SEM_READ\"",
        "\"ArraySize\": 256",
        &format!("\"ArraySize\": {n}"),
    );
    let e = c.reject();
    assert_eq!(e.at.key.rsplit('.').next(), Some("ArraySize"), "{e}");

    let c = Copy::new("apcount");
    let line = c.edit(
        "address_map.yaml",
        "name: SDMA_M2S",
        "count: 16",
        "count: 0xFFFFFFFFFFFF",
    );
    let e = c.reject();
    blame(
        &e,
        "address_map.yaml",
        "apertures[3].count",
        Some(line),
        &MAX_APERTURE_COUNT.to_string(),
    );
}

#[test]
fn deep_nesting_and_huge_files_are_refused_fast() {
    for (tag, deep) in [
        (
            "flow",
            format!("{}{}", "[".repeat(50_000), "]".repeat(50_000)),
        ),
        (
            "map",
            format!("{}1{}", "{a: ".repeat(30_000), "}".repeat(30_000)),
        ),
    ] {
        let c = Copy::new(tag);
        c.write("profiles.yaml", &format!("default: {deep}\nprofiles: []\n"));
        let e = c.reject();
        blame(&e, "profiles.yaml", "", Some(1), &MAX_DEPTH.to_string());
    }
    // Block style: nesting by indentation.
    let c = Copy::new("block");
    let deep: String = (0..MAX_DEPTH + 2)
        .map(|i| format!("{}- \n", " ".repeat(i)))
        .collect();
    c.write("profiles.yaml", &format!("default:\n{deep}"));
    let e = c.reject();
    blame(&e, "profiles.yaml", "", None, "nest deeper");
    // JSON nests the same way.
    let c = Copy::new("json");
    c.write(
        "blocks/evt_sem.json",
        &format!("{{\"Name\": {}{}}}", "[".repeat(50_000), "]".repeat(50_000)),
    );
    let e = c.reject();
    blame(&e, "evt_sem.json", "", Some(1), "nest deeper");
    // Size: refused after reading at most the limit.
    let c = Copy::new("big");
    let mut t = c.text("descriptors.yaml");
    t.push_str(&format!("# {}\n", "x".repeat(MAX_FILE_BYTES as usize)));
    c.write("descriptors.yaml", &t);
    let e = c.reject();
    blame(&e, "descriptors.yaml", "", None, "larger than");
}

// ---------------------------------------------------------------- 3. path traversal

#[test]
fn block_names_are_names_not_paths() {
    for bad in [
        "../evt_sem",
        "blocks/evt_sem",
        "/etc/passwd",
        "..",
        "evt sem",
    ] {
        let c = Copy::new("path");
        // A file the traversal would reach, so that only the name rule can refuse it.
        std::fs::copy(c.path("blocks/evt_sem.json"), c.path("evt_sem.json")).expect("copy");
        let line = c.edit(
            "address_map.yaml",
            "name: EVT_SEM",
            "block: evt_sem",
            &format!("block: \"{bad}\""),
        );
        let e = c.reject();
        blame(
            &e,
            "address_map.yaml",
            "apertures[2].block",
            Some(line),
            "name",
        );
        assert_eq!(e.kind, ErrorKind::BadValue, "{e}");
    }
    // A directory where a block file should be is not "missing", and is the file's fault.
    let c = Copy::new("dir");
    std::fs::remove_file(c.path("blocks/evt_sem.json")).expect("rm");
    std::fs::create_dir(c.path("blocks/evt_sem.json")).expect("mkdir");
    let e = c.reject();
    blame(&e, "evt_sem.json", "", None, "directory");
}

// ---------------------------------------------------------------- 4. injection (names)

#[test]
fn every_name_follows_the_identifier_rule() {
    let bad = [
        "A\\nB",
        "X */ int y; /*",
        "a\\\"b",
        "a\\\\b",
        "two words",
        "caf\u{e9}",
        "module",
        "int",
        "X = 1; Y",
        "9lives",
        "_x",
        "",
    ];
    // (file, anchor, the name to replace, key prefix)
    let sites = [
        (
            "blocks/evt_sem.json",
            "\"SEM_READ\", \"Role\"",
            "\"SEM_READ\"",
            "Bundles[1].Name",
        ),
        (
            "blocks/evt_sem.json",
            "\"Fields\": [{\"Name\": \"SET\"",
            "\"SET\"",
            "Bundles[0].Registers[0].Fields[0].Name",
        ),
        ("address_map.yaml", "name: HBM", "HBM", "apertures[1].name"),
        (
            "address_map.yaml",
            "name: SDMA_ENGINES",
            "SDMA_ENGINES",
            "parameters[2].name",
        ),
        (
            "descriptors.yaml",
            "name: DUMMY",
            "DUMMY",
            "descriptors[0].fields[1].name",
        ),
        (
            "ext_inst.yaml",
            "name: role",
            "role",
            "words[0].fields[1].name",
        ),
        (
            "soc_address.yaml",
            "name: fold_neighbor",
            "fold_neighbor",
            "folds[0].name",
        ),
        ("profiles.yaml", "name: SUNDA", "SUNDA", "profiles[0].name"),
    ];
    for (file, anchor, from, key) in sites {
        for b in bad {
            let c = Copy::new("ident");
            let json = file.ends_with(".json");
            let to = if json {
                format!("\"{b}\"")
            } else {
                format!("\"{b}\"")
            };
            let line = c.edit(file, anchor, from, &to);
            let e = c.reject();
            let name = Path::new(file)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap();
            // A reference to the renamed item may fail first in a later file; the rename itself
            // must be what is refused.
            blame(&e, name, key, Some(line), "name");
        }
    }
}

#[test]
fn names_differing_only_in_case_collide() {
    let c = Copy::new("case");
    let line = c.edit("address_map.yaml", "name: HBM", "HBM", "sbuf");
    let e = c.reject();
    assert_eq!(e.kind, ErrorKind::DuplicateName, "{e}");
    blame(
        &e,
        "address_map.yaml",
        "apertures[1].name",
        Some(line),
        "differing only in case",
    );

    let c = Copy::new("case2");
    c.edit(
        "blocks/evt_sem.json",
        "\"SEM_SET\", \"Role\"",
        "\"SEM_SET\"",
        "\"sem_read\"",
    );
    let e = c.reject();
    assert_eq!(e.kind, ErrorKind::DuplicateName, "{e}");

    let c = Copy::new("foldarg");
    c.edit(
        "soc_address.yaml",
        "args: [dst_local, peer_die]",
        "[dst_local, peer_die]",
        "[dst_local, DST_LOCAL]",
    );
    let e = c.reject();
    blame(
        &e,
        "soc_address.yaml",
        "folds[0].args[1]",
        None,
        "duplicate",
    );
}

// ---------------------------------------------------------------- 5. wrap-around

#[test]
fn out_of_range_numbers_are_refused_not_wrapped() {
    // Bit ranges near 2^32: hi - lo + 1 would wrap to 0.
    for bits in [
        "4294967295:0",
        "4294967295:4294967295",
        "32:0",
        "+3:0",
        "3:-0",
    ] {
        let c = Copy::new("bits");
        let line = c.edit(
            "blocks/evt_sem.json",
            "\"Name\": \"SET\"",
            "\"0:0\"",
            &format!("\"{bits}\""),
        );
        let e = c.reject();
        blame(
            &e,
            "evt_sem.json",
            "Bundles[0].Registers[0].Fields[0].Bits",
            Some(line),
            "",
        );
    }
    // Offsets near 2^64.
    let c = Copy::new("offset");
    let line = c.edit(
        "blocks/evt_sem.json",
        "\"Name\": \"SEM_READ\", \"AddressOffset\"",
        "\"0x0\"",
        "\"0xFFFFFFFFFFFFFFFC\"",
    );
    let e = c.reject();
    blame(
        &e,
        "evt_sem.json",
        "Bundles[1].Registers[0].AddressOffset",
        Some(line),
        "outside",
    );
    // Aperture ends past the die-local space, also when base + count * stride wraps u64.
    let c = Copy::new("apend");
    let line = c.edit(
        "address_map.yaml",
        "name: SDMA_M2S",
        "stride: 0x100000",
        "stride: 0x1000000000000000",
    );
    let e = c.reject();
    blame(
        &e,
        "address_map.yaml",
        "apertures[3].count",
        Some(line - 1),
        "die-local space",
    );
    let c = Copy::new("apbase");
    let line = c.edit(
        "address_map.yaml",
        "name: HBM",
        "base: 0x10000000",
        "base: 0xFFFFFFFFFF000000",
    );
    let e = c.reject();
    blame(
        &e,
        "address_map.yaml",
        "apertures[1].base",
        Some(line),
        "die-local space",
    );
    // ExtendedInst fields outside the word (u32 wrap of offset + bytes) and too-big words.
    let c = Copy::new("extoff");
    let line = c.edit(
        "ext_inst.yaml",
        "name: peer_base",
        "offset: 40",
        "offset: 4294967288",
    );
    let e = c.reject();
    blame(
        &e,
        "ext_inst.yaml",
        "words[0].fields[12].offset",
        Some(line),
        "past the",
    );
    let c = Copy::new("extbytes");
    let line = c.edit(
        "ext_inst.yaml",
        "name: rdma_desc_gen",
        "bytes: 64",
        "bytes: 4000000000",
    );
    let e = c.reject();
    blame(&e, "ext_inst.yaml", "words[0].bytes", Some(line), "bytes");
    // An opcode wider than its field.
    let c = Copy::new("opcode");
    let line = c.edit(
        "ext_inst.yaml",
        "name: rdma_desc_gen",
        "sub_opcode: 8",
        "sub_opcode: 256",
    );
    let e = c.reject();
    blame(
        &e,
        "ext_inst.yaml",
        "words[0].sub_opcode",
        Some(line),
        "does not fit",
    );
    // Descriptor bytes whose bit count wraps u32.
    let c = Copy::new("descbytes");
    let line = c.edit(
        "descriptors.yaml",
        "name: m2s",
        "bytes: 16",
        "bytes: 536870912",
    );
    let e = c.reject();
    blame(
        &e,
        "descriptors.yaml",
        "descriptors[0].bytes",
        Some(line),
        "at most",
    );
}

// ---------------------------------------------------------------- 6. cross-checks

#[test]
fn missing_cross_checks_are_made() {
    // Duplicate fold arguments.
    let c = Copy::new("dupargs");
    c.edit(
        "soc_address.yaml",
        "args: [dst_local, peer_die]",
        "[dst_local, peer_die]",
        "[dst_local, peer_die, peer_die]",
    );
    let e = c.reject();
    blame(
        &e,
        "soc_address.yaml",
        "folds[0].args[2]",
        None,
        "duplicate",
    );
    // Contradictory fold steps: two steps set the same bits (through two views).
    let c = Copy::new("contra");
    let line = c.edit(
        "soc_address.yaml",
        "{view: neighbor, field: EXIT_DIE, value: 1}",
        "field: EXIT_DIE",
        "field: LOCAL",
    );
    let e = c.reject();
    blame(
        &e,
        "soc_address.yaml",
        "folds[0].steps[2].field",
        Some(line),
        "already sets",
    );
    // An argument no step uses.
    let c = Copy::new("unused");
    c.edit(
        "soc_address.yaml",
        "args: [dst_local, peer_die]",
        "[dst_local, peer_die]",
        "[dst_local, peer_die, spare]",
    );
    let e = c.reject();
    blame(
        &e,
        "soc_address.yaml",
        "folds[0].args[2]",
        None,
        "used by no step",
    );
    // Duplicate sub-opcodes.
    let c = Copy::new("dupop");
    let line = c.edit(
        "ext_inst.yaml",
        "name: rdma_desc_start",
        "sub_opcode: 9",
        "sub_opcode: 8",
    );
    let e = c.reject();
    blame(
        &e,
        "ext_inst.yaml",
        "words[1].sub_opcode",
        Some(line),
        "share sub-opcode",
    );
    // Duplicate keys inside a JSON object the struct types do not cover (Parameters).
    let c = Copy::new("dupkey");
    c.edit(
        "blocks/evt_sem.json",
        "\"Parameters\"",
        "\"HwIncPorts\": 2,",
        "\"HwIncPorts\": 2, \"HwIncPorts\": 3,",
    );
    let e = c.reject();
    blame(&e, "evt_sem.json", "Parameters", None, "twice");
    // Duplicate keys of a struct, JSON and YAML.
    let c = Copy::new("dupkey2");
    c.edit(
        "blocks/evt_sem.json",
        "\"Kind\"",
        "\"Kind\": \"evt_sem\",",
        "\"Kind\": \"evt_sem\", \"Kind\": \"iatu\",",
    );
    let e = c.reject();
    blame(&e, "evt_sem.json", "", None, "duplicate");
    let c = Copy::new("dupkey3");
    c.edit(
        "profiles.yaml",
        "default:",
        "default: CAYMAN",
        "default: CAYMAN\ndefault: SUNDA",
    );
    let e = c.reject();
    assert_eq!(e.kind, ErrorKind::Syntax, "{e}");
    // Numbers with a sign, a double prefix or no digits.
    for num in [
        "\"0x+2000\"",
        "\"+8192\"",
        "\"0x0x2000\"",
        "\"0x\"",
        "\"0x_\"",
        "\"-1\"",
    ] {
        let c = Copy::new("num");
        let line = c.edit("blocks/evt_sem.json", "\"SizeInBytes\"", "\"0x2000\"", num);
        let e = c.reject();
        blame(
            &e,
            "evt_sem.json",
            "SizeInBytes",
            Some(line),
            "not a number",
        );
    }
    // A null name.
    let c = Copy::new("null");
    let line = c.edit("profiles.yaml", "name: SUNDA", "SUNDA", "~");
    let e = c.reject();
    blame(&e, "profiles.yaml", "profiles[0].name", Some(line), "");
    // Zero beat, DESC_BYTES against the descriptors, SBUF larger than its aperture, more
    // engines than apertures, a default profile whose D2D count differs from the map.
    for (file, anchor, from, to, key) in [
        (
            "address_map.yaml",
            "name: DATA_BYTES",
            "value: 32",
            "value: 0",
            "parameters[5].value",
        ),
        (
            "address_map.yaml",
            "name: DESC_BYTES",
            "value: 16",
            "value: 32",
            "descriptors",
        ),
        (
            "address_map.yaml",
            "name: SBUF_PARTITIONS",
            "value: 128",
            "value: 256",
            "apertures[0].size",
        ),
        (
            "address_map.yaml",
            "name: SDMA_ENGINES",
            "value: 16",
            "value: 17",
            "parameters",
        ),
    ] {
        let c = Copy::new("cross");
        c.edit(file, anchor, from, to);
        let e = c.reject();
        assert!(
            e.at.key.starts_with(key) || e.to_string().contains(key),
            "{e} (want {key})"
        );
    }
}

// ---------------------------------------------------------------- 5. widths the RTL takes

/// Key path of the value of die-map parameter `name`, from the shipped map.
fn param_key(name: &str) -> String {
    let c = xdie_csr::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs")).expect("csrs");
    let i = c
        .map
        .params
        .iter()
        .position(|p| p.name == name)
        .expect("parameter");
    format!("parameters[{i}].value")
}

#[test]
fn rtl_parameters_fit_32_bits_and_link_buffers_are_bounded() {
    use xdie_csr::limits::MAX_LINK_CREDITS;
    // Wider than the RTL's `int unsigned` parameter: refused, not cut to the low 32 bits.
    for (name, value) in [
        ("SBUF_PARTITION_STRIDE", format!("{:#x}", 1u64 << 33)),
        ("LINK_LATENCY", format!("{}", 1u64 << 32)),
        ("SBUF_PARTITIONS", format!("{:#x}", u64::from(u32::MAX) + 1)),
    ] {
        let c = Copy::new("rtl-width");
        let anchor = format!("{{name: {name}, value: ");
        let t = c.text("address_map.yaml");
        let at = t.find(&anchor).expect("parameter line") + anchor.len();
        let old: String = t[at..].chars().take_while(|ch| *ch != ',').collect();
        let line = c.edit(
            "address_map.yaml",
            &anchor,
            &format!("{anchor}{old}"),
            &format!("{anchor}{value}"),
        );
        if name == "LINK_LATENCY" {
            // Enough credits for the latency, so only the width is wrong.
            let anchor = "{name: LINK_CREDITS, value: ";
            let t = c.text("address_map.yaml");
            let at = t.find(anchor).expect("LINK_CREDITS") + anchor.len();
            let old: String = t[at..].chars().take_while(|ch| *ch != ',').collect();
            c.edit(
                "address_map.yaml",
                anchor,
                &format!("{anchor}{old}"),
                &format!("{anchor}{}", (1u64 << 33) + 2),
            );
        }
        let e = c.reject();
        blame(
            &e,
            "address_map.yaml",
            &param_key(name),
            Some(line),
            "does not fit 32 bits",
        );
    }
    // A link buffer deeper than the bound, however consistent with the latency.
    let c = Copy::new("link-credits");
    let t = c.text("address_map.yaml");
    let anchor = "{name: LINK_CREDITS, value: ";
    let at = t.find(anchor).expect("LINK_CREDITS") + anchor.len();
    let old: String = t[at..].chars().take_while(|ch| *ch != ',').collect();
    let line = c.edit(
        "address_map.yaml",
        anchor,
        &format!("{anchor}{old}"),
        &format!("{anchor}{}", MAX_LINK_CREDITS + 1),
    );
    let e = c.reject();
    blame(
        &e,
        "address_map.yaml",
        &param_key("LINK_CREDITS"),
        Some(line),
        "more than",
    );
    // More engines than engine apertures: blamed at SDMA_ENGINES's value, not the whole list.
    let c = Copy::new("engines-key");
    let xc = xdie_csr::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs")).expect("csrs");
    let n = xc.views.apertures.sdma_m2s.count;
    let anchor = "{name: SDMA_ENGINES, value: ";
    let t = c.text("address_map.yaml");
    let at = t.find(anchor).expect("SDMA_ENGINES") + anchor.len();
    let old: String = t[at..].chars().take_while(|ch| *ch != ',').collect();
    let line = c.edit(
        "address_map.yaml",
        anchor,
        &format!("{anchor}{old}"),
        &format!("{anchor}{}", n + 1),
    );
    let e = c.reject();
    blame(
        &e,
        "address_map.yaml",
        &param_key("SDMA_ENGINES"),
        Some(line),
        "SDMA_ENGINES",
    );
}

/// A reference that names nothing is shown escaped: a newline in it cannot forge a line.
#[test]
fn unresolved_names_are_shown_escaped() {
    let c = Copy::new("escaped");
    let t = c.text("profiles.yaml");
    let line = t
        .lines()
        .position(|l| l.starts_with("default:"))
        .expect("default")
        + 1;
    let fixed: String = t
        .lines()
        .map(|l| {
            if l.starts_with("default:") {
                "default: \"X\\nPASS\"".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    c.write("profiles.yaml", &fixed);
    let e = c.reject();
    blame(&e, "profiles.yaml", "default", Some(line), "X\\nPASS");
    assert!(!e.to_string().contains('\n'), "{e}");
}
