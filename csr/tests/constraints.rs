//! One test per rule of `load/constraints.rs`: copy the repository's csrs/, break the rule with
//! one text edit whose new value is derived from the loaded model, and check that the loader
//! names the file, the key path and the line of the edit and says which rule broke.

use std::path::{Path, PathBuf};
use xdie_csr::{ApertureId, Csrs, Error, ErrorKind};

/// A copy of the repository's csrs/, removed when dropped.
struct Copy {
    dir: PathBuf,
}

impl Copy {
    fn new(tag: &str) -> Copy {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        let dir =
            std::env::temp_dir().join(format!("xdie-constraints-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&src, &dir);
        Copy { dir }
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    fn load_err(&self) -> Error {
        match xdie_csr::load(&self.dir) {
            Ok(_) => panic!("the edited csrs/ in {} loaded", self.dir.display()),
            Err(e) => e,
        }
    }

    /// Replace the first `from` after the first `anchor` of file `rel` by `to`; the line of the
    /// edit.
    fn edit(&self, rel: &str, anchor: &str, from: &str, to: &str) -> usize {
        let path = self.file(rel);
        let text = std::fs::read_to_string(&path).expect("read");
        let a = text
            .find(anchor)
            .unwrap_or_else(|| panic!("`{anchor}` not in {rel}"));
        let at = a + text[a..]
            .find(from)
            .unwrap_or_else(|| panic!("`{from}` not after `{anchor}` in {rel}"));
        let edited = format!("{}{}{}", &text[..at], to, &text[at + from.len()..]);
        std::fs::write(&path, edited).expect("write");
        text[..at].matches('\n').count() + 1
    }

    /// Set die-map parameter `name` to `value` (its entry is one flow-style line); the line.
    fn set_param(&self, name: &str, value: u64) -> usize {
        let path = self.file("address_map.yaml");
        let text = std::fs::read_to_string(&path).expect("read");
        let anchor = format!("name: {name},");
        let (i, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(&anchor))
            .unwrap_or_else(|| panic!("no parameter line for {name}"));
        let v = line.find("value: ").expect("value key") + "value: ".len();
        let end = v + line[v..].find(',').expect("value ends with a comma");
        let new_line = format!("{}{value:#x}{}", &line[..v], &line[end..]);
        let edited = text.replacen(line, &new_line, 1);
        std::fs::write(&path, edited).expect("write");
        i + 1
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).expect("copy");
        }
    }
}

fn repo() -> Csrs {
    xdie_csr::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs"))
        .expect("the repository's csrs/ load")
}

fn param_index(c: &Csrs, name: &str) -> usize {
    c.map
        .params
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no parameter {name}"))
}

fn param(c: &Csrs, name: &str) -> u64 {
    c.map.params[param_index(c, name)].value
}

/// Everything the error must say; the CLI's one-line form must carry file:line and the key.
fn expect(e: &Error, file: &str, key: &str, line: usize, says: &str) {
    let shown = e.to_string();
    assert_eq!(e.kind, ErrorKind::BadValue, "kind of: {shown}");
    assert_eq!(
        e.at.file.file_name().and_then(|n| n.to_str()),
        Some(file),
        "file of: {shown}"
    );
    assert_eq!(e.at.key, key, "key of: {shown}");
    assert_eq!(e.at.line, Some(line), "line of: {shown}");
    assert!(e.message.contains(says), "`{shown}` should say `{says}`");
    assert!(
        shown.contains(&format!("{file}:{line}: key `{key}`")),
        "{shown}"
    );
}

fn bits(f: &xdie_csr::Field) -> String {
    format!("\"Bits\": \"{}:{}\"", f.msb(), f.lsb)
}

#[test]
fn link_credits_must_cover_the_round_trip() {
    let c = repo();
    let lat = param(&c, "LINK_LATENCY");
    let k = Copy::new("credits");
    let line = k.set_param("LINK_CREDITS", 2 * lat + 1);
    let key = format!("parameters[{}].value", param_index(&c, "LINK_CREDITS"));
    expect(&k.load_err(), "address_map.yaml", &key, line, "round trip");

    let k = Copy::new("latency0");
    let line = k.set_param("LINK_LATENCY", 0);
    let key = format!("parameters[{}].value", param_index(&c, "LINK_LATENCY"));
    expect(&k.load_err(), "address_map.yaml", &key, line, "at least 1");
}

#[test]
fn data_beat_is_a_power_of_two_of_whole_words() {
    let c = repo();
    let dw = param(&c, "DATA_BYTES");
    let k = Copy::new("beat");
    let line = k.set_param("DATA_BYTES", dw + dw / 2);
    let key = format!("parameters[{}].value", param_index(&c, "DATA_BYTES"));
    expect(
        &k.load_err(),
        "address_map.yaml",
        &key,
        line,
        "power of two",
    );
}

#[test]
fn desc_bytes_equals_every_descriptor_size() {
    let c = repo();
    let db = param(&c, "DESC_BYTES");
    let k = Copy::new("descbytes");
    k.set_param("DESC_BYTES", 2 * db);
    let first = &c.descriptors[0];
    let line = k.edit(
        "descriptors.yaml",
        &format!("name: {}", first.name),
        "bytes:",
        "bytes:",
    );
    expect(
        &k.load_err(),
        "descriptors.yaml",
        "descriptors[0].bytes",
        line,
        "DESC_BYTES",
    );
}

#[test]
fn a_descriptor_is_read_from_one_beat() {
    let c = repo();
    let db = param(&c, "DESC_BYTES");
    // A beat narrower than a descriptor (still a power of two of whole words).
    let k = Copy::new("beatdesc");
    let line = k.set_param("DATA_BYTES", db / 2);
    let key = format!("parameters[{}].value", param_index(&c, "DESC_BYTES"));
    let e = k.load_err();
    assert!(db / 2 >= 4, "the test needs DESC_BYTES >= 8");
    // The error names DESC_BYTES, whose line is its own entry.
    let text = std::fs::read_to_string(k.file("address_map.yaml")).unwrap();
    let desc_line = text
        .lines()
        .position(|l| l.contains("name: DESC_BYTES,"))
        .unwrap()
        + 1;
    assert_ne!(line, desc_line);
    expect(&e, "address_map.yaml", &key, desc_line, "one bus beat");

    // A ring base that could place a descriptor across a beat boundary.
    let k = Copy::new("align");
    let old = c.ring.base_align;
    let line = k.edit(
        "descriptors.yaml",
        "ring:",
        &format!("base_align: {old}"),
        &format!("base_align: {}", db / 2),
    );
    expect(
        &k.load_err(),
        "descriptors.yaml",
        "ring.base_align",
        line,
        "DESC_BYTES",
    );
}

#[test]
fn len_code_is_one_past_the_len_field() {
    let c = repo();
    let k = Copy::new("lencode");
    let old = c.ring.max_len_code;
    let text = std::fs::read_to_string(k.file("descriptors.yaml")).unwrap();
    let written = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("max_len_code: "))
        .expect("max_len_code line")
        .to_string();
    let line = k.edit(
        "descriptors.yaml",
        "ring:",
        &format!("max_len_code: {written}"),
        &format!("max_len_code: {:#x}", 2 * old),
    );
    expect(
        &k.load_err(),
        "descriptors.yaml",
        "ring.max_len_code",
        line,
        "LEN",
    );
}

#[test]
fn both_queue_groups_have_one_shape() {
    let c = repo();
    let s2m = &c.views.s2m.layout;
    let k = Copy::new("sides");
    let file = "blocks/udma_s2m.json";
    let n = s2m.queues();
    let line = k.edit(
        file,
        &format!("\"Name\": \"{}\"", s2m.queue.name),
        &format!("\"ArraySize\": {n}"),
        &format!("\"ArraySize\": {}", n / 2),
    );
    expect(
        &k.load_err(),
        "udma_s2m.json",
        "Bundles[0].ArraySize",
        line,
        "same queue count",
    );
}

#[test]
fn broadcast_queue_field_names_exactly_the_queues() {
    let c = repo();
    let bc = &c.views.bcast;
    let k = Copy::new("bcastq");
    let mut wider = bc.queue.clone();
    wider.width += 1;
    let line = k.edit(
        "blocks/sdma_bcast.json",
        &format!("\"Name\": \"{}\"", bc.queue.name),
        &bits(&bc.queue),
        &bits(&wider),
    );
    let e = k.load_err();
    assert!(e.at.key.ends_with(".Bits"), "{e}");
    expect(&e, "sdma_bcast.json", &e.at.key.clone(), line, "queues");
}

#[test]
fn sequencer_slot_fields_follow_evt_sem() {
    let c = repo();
    let ss = &c.views.sem_seq;
    // A SEM field that cannot name every semaphore.
    let k = Copy::new("seqsem");
    let mut narrower = ss.sem.clone();
    narrower.width -= 1;
    let line = k.edit(
        "blocks/sem_seq.json",
        &format!("\"Name\": \"{}\"", ss.sem.name),
        &bits(&ss.sem),
        &bits(&narrower),
    );
    let e = k.load_err();
    assert!(e.at.key.ends_with(".Bits"), "{e}");
    expect(&e, "sem_seq.json", &e.at.key.clone(), line, "semaphores");
    // A SUBOP field of another width than the sequencer port's subop.
    let k = Copy::new("seqsubop");
    let mut wider = ss.subop.clone();
    wider.width += 1;
    let line = k.edit(
        "blocks/sem_seq.json",
        &format!("\"Name\": \"{}\"", ss.subop.name),
        &bits(&ss.subop),
        &bits(&wider),
    );
    let e = k.load_err();
    expect(&e, "sem_seq.json", &e.at.key.clone(), line, "SeqSubopBits");
}

#[test]
fn broadcast_increment_is_as_wide_as_the_tail_increment() {
    let c = repo();
    let bc = &c.views.bcast;
    let k = Copy::new("bcastinc");
    let mut narrower = bc.inc.clone();
    narrower.width -= 1;
    // Both INC registers keep the same bits (their own rule); the error names the M2S one.
    let line = k.edit(
        "blocks/sdma_bcast.json",
        &format!("\"Name\": \"{}\"", bc.m2s_inc.name),
        &bits(&bc.inc),
        &bits(&narrower),
    );
    k.edit(
        "blocks/sdma_bcast.json",
        &format!("\"Name\": \"{}\"", bc.s2m_inc.name),
        &bits(&bc.s2m_inc_field),
        &bits(&narrower),
    );
    let e = k.load_err();
    assert!(e.at.key.ends_with(".Bits"), "{e}");
    expect(
        &e,
        "sdma_bcast.json",
        &e.at.key.clone(),
        line,
        "tail increment",
    );
}

#[test]
fn every_engine_has_a_broadcast_mask_bit() {
    let c = repo();
    let bc = &c.views.bcast;
    let engines = c.views.engines();
    let k = Copy::new("mask");
    let mut narrower = bc.mask.clone();
    narrower.width = u32::try_from(engines).unwrap() - 1;
    let anchor = format!("\"Name\": \"{}\"", bc.mask.name);
    let line = k.edit(
        "blocks/sdma_bcast.json",
        &anchor,
        &bits(&bc.mask),
        &bits(&narrower),
    );
    // The reset must still fit the narrower field (as written: "0x" and upper-case digits).
    k.edit(
        "blocks/sdma_bcast.json",
        &anchor,
        &format!("\"Reset\": \"0x{:X}\"", bc.mask.reset),
        "\"Reset\": \"0x0\"",
    );
    let e = k.load_err();
    assert!(e.at.key.ends_with(".Bits"), "{e}");
    expect(
        &e,
        "sdma_bcast.json",
        &e.at.key.clone(),
        line,
        "SDMA_ENGINES",
    );
}

#[test]
fn default_profile_has_one_controller_per_d2d_instance() {
    let c = repo();
    let d2d = c.views.apertures.get(ApertureId::D2d).count;
    let i = c.default_profile;
    let p = &c.profiles[i];
    let k = Copy::new("d2d");
    let line = k.edit(
        "profiles.yaml",
        &format!("name: {}\n", p.name),
        &format!("d2d_controllers: {}", p.d2d_controllers),
        &format!("d2d_controllers: {}", d2d + 1),
    );
    expect(
        &k.load_err(),
        "profiles.yaml",
        &format!("profiles[{i}].d2d_controllers"),
        line,
        "D2D aperture",
    );

    // A profile without a D2D IP has no controllers.
    let (j, none) = c
        .profiles
        .iter()
        .enumerate()
        .find(|(_, p)| p.d2d_ip == xdie_csr::D2dIp::None)
        .expect("a profile without D2D IP");
    let k = Copy::new("d2dnone");
    let line = k.edit(
        "profiles.yaml",
        &format!("name: {}\n", none.name),
        &format!("d2d_controllers: {}", none.d2d_controllers),
        &format!("d2d_controllers: {}", none.d2d_controllers + 1),
    );
    expect(
        &k.load_err(),
        "profiles.yaml",
        &format!("profiles[{j}].d2d_controllers"),
        line,
        "D2D IP",
    );
}

#[test]
fn sbuf_backing_fits_a_partition_in_whole_beats() {
    let c = repo();
    let stride = param(&c, "SBUF_PARTITION_STRIDE");
    let dw = param(&c, "DATA_BYTES");
    let k = Copy::new("backing");
    let line = k.set_param("SBUF_BACKING_BYTES", stride + dw);
    let key = format!(
        "parameters[{}].value",
        param_index(&c, "SBUF_BACKING_BYTES")
    );
    expect(
        &k.load_err(),
        "address_map.yaml",
        &key,
        line,
        "SBUF_PARTITION_STRIDE",
    );

    // Partitions that no longer fill the SBUF aperture.
    let parts = param(&c, "SBUF_PARTITIONS");
    let k = Copy::new("parts");
    k.set_param("SBUF_PARTITIONS", parts / 2);
    let ai = c
        .map
        .apertures
        .iter()
        .position(|a| a.name == "SBUF")
        .unwrap();
    let text = std::fs::read_to_string(k.file("address_map.yaml")).unwrap();
    let name_line = text
        .lines()
        .position(|l| l.contains("- name: SBUF"))
        .unwrap();
    let size_line = name_line
        + text
            .lines()
            .skip(name_line)
            .position(|l| l.trim_start().starts_with("size:"))
            .unwrap()
        + 1;
    expect(
        &k.load_err(),
        "address_map.yaml",
        &format!("apertures[{ai}].size"),
        size_line,
        "rounded up",
    );
}

#[test]
fn host_direct_range_reaches_the_remap_windows() {
    let c = repo();
    let xt = c.views.apertures.get(ApertureId::XtWindow);
    let k = Copy::new("direct");
    // The direct range then ends inside the XT_WINDOW aperture.
    let line = k.set_param("HOST_DIRECT_BASE", (1u64 << 32) - xt.base - 1);
    let key = format!("parameters[{}].value", param_index(&c, "HOST_DIRECT_BASE"));
    expect(&k.load_err(), "address_map.yaml", &key, line, "remap");
}

#[test]
fn the_shipped_csrs_pass_every_rule() {
    repo();
    assert!(!xdie_csr::load::RULES.is_empty());
}

/// The inbound block's default windows: no more than it has windows, every one a name of the
/// die map expressible as one base/mask window, none over the block's own registers.
#[test]
fn inbound_default_windows_are_checked() {
    let rel = "blocks/d2d_inbound.json";
    let defaults = &repo().views.inbound_defaults;
    assert!(defaults.len() > 1, "the shipped block has default windows");
    // Fewer windows than defaults.
    let c = Copy::new("inbound-count");
    let line = c.edit(
        rel,
        "\"Bundles\"",
        "\"ArraySize\": 8",
        &format!("\"ArraySize\": {}", defaults.len() - 1),
    );
    let e = c.load_err();
    assert!(e.at.file.ends_with(rel), "{e}");
    assert_eq!(e.at.key, "Parameters.DefaultWindows", "{e}");
    assert!(e.to_string().contains("default windows"), "{e}");
    assert!(e.at.line.is_some() && line > 0, "{e}");
    // A default over the inbound block itself, and a name the die map does not have.
    for (tag, name, says) in [
        (
            "inbound-self",
            ApertureId::Inbound.as_str().to_string(),
            "covers aperture",
        ),
        (
            "inbound-unknown",
            "NO_SUCH_APERTURE".to_string(),
            "no aperture",
        ),
    ] {
        let c = Copy::new(tag);
        let first = &defaults[0].name;
        c.edit(
            rel,
            "\"DefaultWindows\"",
            &format!("\"{first}\""),
            &format!("\"{name}\""),
        );
        let e = c.load_err();
        assert!(e.at.file.ends_with(rel), "{tag}: {e}");
        assert_eq!(e.at.key, "Parameters.DefaultWindows[0]", "{tag}: {e}");
        assert!(e.to_string().contains(says), "{tag}: {e}");
    }
}
