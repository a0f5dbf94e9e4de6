//! The reference firmware (fw/) as C: it compiles freestanding and warning-free for both address
//! views with every C compiler present (gcc is required; clang and a 32-bit RISC-V cross compiler
//! are used when installed), includes nothing but the generated headers and <stdint.h>/<stddef.h>,
//! and its word codec and ring placement agree with the golden model, also after a field of
//! csrs/ext_inst.yaml moves (headers regenerated from the edited copy, no hand edit).

mod common;

use common::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use xdie_csr::Csrs;
use xdie_model::{Config, GenWord, Lane, Scenario, StartWord, System, Topology};

const VIEWS: [&str; 2] = ["XDIE_VIEW_CHIP_ID", "XDIE_VIEW_NEIGHBOR"];

fn fw() -> PathBuf {
    repo().join("fw")
}

/// The generated headers of `csrs`, written under `dir/include`.
fn headers(csrs: &Csrs, dir: &Path) -> PathBuf {
    let inc = dir.join("include");
    std::fs::create_dir_all(&inc).expect("include dir");
    for f in xdie_gen::emit::render_all(csrs).expect("render") {
        if f.path.starts_with("include") {
            std::fs::write(dir.join(&f.path), &f.contents).expect("write header");
        }
    }
    inc
}

fn have(cc: &str) -> bool {
    Command::new(cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn cc(compiler: &str, args: &[&str], inc: &Path) -> std::process::Output {
    Command::new(compiler)
        .args(args)
        .arg("-I")
        .arg(fw().join("include"))
        .arg("-I")
        .arg(inc)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{compiler}`: {e}"))
}

#[test]
fn firmware_compiles_freestanding_with_every_compiler() {
    let s = Scratch::new("fw-cc");
    let inc = headers(
        &xdie_csr::load(&repo().join("csrs")).expect("csrs"),
        &s.path,
    );
    let src = fw().join("src/xdie_fw.c");
    let mut compilers = vec![("gcc", vec![])];
    if have("clang") {
        compilers.push(("clang", vec![]));
    }
    if have("riscv64-linux-gnu-gcc") {
        compilers.push((
            "riscv64-linux-gnu-gcc",
            vec!["-march=rv32imc", "-mabi=ilp32"],
        ));
    }
    for (compiler, extra) in &compilers {
        for view in VIEWS {
            let obj = s.join(format!("fw-{compiler}-{view}.o"));
            let def = format!("-DXDIE_SYSTEM_VIEW={view}");
            let mut args = vec![
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-ffreestanding",
                "-Os",
                "-c",
                &def,
            ];
            args.extend(extra.iter().copied());
            let src_s = src.to_str().expect("utf-8 path");
            let obj_s = obj.to_str().expect("utf-8 path");
            args.extend([src_s, "-o", obj_s]);
            let o = cc(compiler, &args, &inc);
            assert!(
                o.status.success(),
                "{compiler} {view}:\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn firmware_includes_only_freestanding_headers() {
    let allowed = [
        "stdint.h",
        "stddef.h",
        "xdie_regs.h",
        "xdie_soc_addr.h",
        "xdie_fw.h",
    ];
    for f in ["include/xdie_fw.h", "src/xdie_fw.c"] {
        let text = std::fs::read_to_string(fw().join(f)).expect("read fw source");
        for line in text
            .lines()
            .filter(|l| l.trim_start().starts_with("#include"))
        {
            let name = line
                .split(['<', '>', '"'])
                .nth(1)
                .unwrap_or_else(|| panic!("{f}: unreadable include `{line}`"));
            assert!(allowed.contains(&name), "{f} includes {name}");
        }
        for banned in ["malloc", "free(", "printf", "memcpy", "memset"] {
            assert!(!text.contains(banned), "{f} uses {banned}");
        }
    }
}

/// The codec harness (tests/c/fw_words.c + fw/src/xdie_fw.c) built against `csrs`' headers.
fn harness(csrs: &Csrs, s: &Scratch) -> PathBuf {
    harness_of_view(csrs, s, "XDIE_VIEW_NEIGHBOR")
}

/// tests/c/fw_words.c with the firmware built for address view `view` (an XDIE_VIEW_* name).
fn harness_of_view(csrs: &Csrs, s: &Scratch, view: &str) -> PathBuf {
    let inc = headers(csrs, &s.path);
    let exe = s.join(format!("fw_words_{view}"));
    let def = &format!("-DXDIE_SYSTEM_VIEW={view}");
    let (a, b, e) = (
        fw().join("src/xdie_fw.c"),
        repo().join("tests/c/fw_words.c"),
        exe.clone(),
    );
    let args = [
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-O1",
        def,
        a.to_str().expect("path"),
        b.to_str().expect("path"),
        "-o",
        e.to_str().expect("path"),
    ];
    let o = cc("gcc", &args, &inc);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    exe
}

fn ask(exe: &Path, input: &str) -> Vec<String> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run fw_words");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("fw_words output");
    assert!(out.status.success(), "fw_words failed");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A value that fits a field of `bytes` bytes.
    fn fits(&mut self, bytes: u32) -> u64 {
        let v = self.next();
        if bytes >= 8 {
            v
        } else {
            v & ((1u64 << (8 * bytes)) - 1)
        }
    }
}

fn random_words(csrs: &Csrs, seed: u64, n: usize) -> Vec<(GenWord, StartWord)> {
    let (g, s) = (&csrs.views.gen_word, &csrs.views.start_word);
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let gw = GenWord {
                role: r.fits(g.role.bytes),
                dma_engine_mask: r.fits(g.dma_engine_mask.bytes),
                free_dim_bytes: r.fits(g.free_dim_bytes.bytes),
                partitions: r.fits(g.partitions.bytes),
                queue: r.fits(g.queue.bytes),
                accumulate: r.fits(g.accumulate.bytes),
                local_sem: r.fits(g.local_sem.bytes),
                remote_sem: r.fits(g.remote_sem.bytes),
                remote_core_id: r.fits(g.remote_core_id.bytes),
                remote_routing_id: r.fits(g.remote_routing_id.bytes),
                src_addr: r.fits(g.src_addr.bytes),
                dst_addr: r.fits(g.dst_addr.bytes),
                peer_base: r.fits(g.peer_base.bytes),
            };
            let sw = StartWord {
                role: r.fits(s.role.bytes),
                dma_engine_mask: r.fits(s.dma_engine_mask.bytes),
                num_descriptors: r.fits(s.num_descriptors.bytes),
                queue: r.fits(s.queue.bytes),
                launch: r.fits(s.launch.bytes),
                go_sem: r.fits(s.go_sem.bytes),
                local_sem: r.fits(s.local_sem.bytes),
                remote_sem: r.fits(s.remote_sem.bytes),
                remote_core_id: r.fits(s.remote_core_id.bytes),
                remote_routing_id: r.fits(s.remote_routing_id.bytes),
                dst_addr: r.fits(s.dst_addr.bytes),
            };
            (gw, sw)
        })
        .collect()
}

/// Model encodes, C decodes (fields compared), C re-encodes, model decodes (word compared).
fn round_trip(csrs: &Csrs, exe: &Path, seed: u64) {
    let words = random_words(csrs, seed, 64);
    let mut input = String::new();
    for (g, s) in &words {
        input += &format!("gen {}\n", hex(&g.encode(csrs).expect("encode gen")));
        input += &format!("start {}\n", hex(&s.encode(csrs).expect("encode start")));
    }
    let out = ask(exe, &input);
    assert_eq!(out.len(), 4 * words.len(), "{out:?}");
    for (i, (g, s)) in words.iter().enumerate() {
        let want_g = format!(
            "gen {} {} {} {} {} {} {} {} {} {} {} {} {}",
            g.role,
            g.dma_engine_mask,
            g.free_dim_bytes,
            g.partitions,
            g.queue,
            g.accumulate,
            g.local_sem,
            g.remote_sem,
            g.remote_core_id,
            g.remote_routing_id,
            g.src_addr,
            g.dst_addr,
            g.peer_base
        );
        assert_eq!(out[4 * i], want_g, "C decode of gen word {i}");
        let back = unhex(out[4 * i + 1].strip_prefix("hex ").expect("hex line"));
        assert_eq!(
            &GenWord::decode(csrs, &back).expect("model decodes C's word"),
            g
        );
        let want_s = format!(
            "start {} {} {} {} {} {} {} {} {} {} {}",
            s.role,
            s.dma_engine_mask,
            s.num_descriptors,
            s.queue,
            s.launch,
            s.go_sem,
            s.local_sem,
            s.remote_sem,
            s.remote_core_id,
            s.remote_routing_id,
            s.dst_addr
        );
        assert_eq!(out[4 * i + 2], want_s, "C decode of start word {i}");
        let back = unhex(out[4 * i + 3].strip_prefix("hex ").expect("hex line"));
        assert_eq!(
            &StartWord::decode(csrs, &back).expect("model decodes C's word"),
            s
        );
    }
}

#[test]
fn words_round_trip_between_model_and_c() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let s = Scratch::new("fw-words");
    let exe = harness(&csrs, &s);
    round_trip(&csrs, &exe, 0x5eed);
}

#[test]
fn moving_a_word_field_in_csrs_moves_it_in_model_and_c() {
    let (s, dir) = csrs_copy("fw-words-moved");
    let base = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    // Move peer_base (gen) and dst_addr (start) to the free bytes at the end of their words.
    let f = dir.join("ext_inst.yaml");
    let (pb, da) = (
        &base.views.gen_word.peer_base,
        &base.views.start_word.dst_addr,
    );
    let (pb_to, da_to) = (base.views.gen_word.word.bytes - pb.bytes, 48);
    edit(
        &f,
        &format!("{{name: peer_base, offset: {},", pb.offset),
        &format!("{{name: peer_base, offset: {pb_to},"),
    );
    edit_after(
        &f,
        "rdma_desc_start",
        &format!("{{name: dst_addr, offset: {},", da.offset),
        &format!("{{name: dst_addr, offset: {da_to},"),
    );
    let moved = xdie_csr::load(&dir).expect("edited csrs load");
    assert_eq!(moved.views.gen_word.peer_base.offset, pb_to);
    assert_eq!(moved.views.start_word.dst_addr.offset, da_to);
    assert_ne!(pb_to, pb.offset);
    assert_ne!(da_to, da.offset);
    // The model follows: the same word encodes differently.
    let (g, st) = random_words(&moved, 7, 1).remove(0);
    assert_ne!(
        g.encode(&base).expect("old"),
        g.encode(&moved).expect("new")
    );
    assert_ne!(
        st.encode(&base).expect("old"),
        st.encode(&moved).expect("new")
    );
    // And C, compiled against headers regenerated from the edited copy, agrees with it.
    let exe = harness(&moved, &s);
    round_trip(&moved, &exe, 0xfeed);
}

#[test]
fn ring_placement_matches_the_model() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let s = Scratch::new("fw-rings");
    let exe = harness(&csrs, &s);
    for ring_len in [1u64, 7, 512] {
        let sys = System::with_config(&csrs, Topology::package(0x12), Config { ring_len })
            .expect("system");
        let l = &sys.layout;
        let mut input = format!("one {ring_len}\n");
        let mut want = vec![format!("one {:x}", sys.const_one_addr())];
        for e in [0, l.engine_count() - 1] {
            for (si, side) in [xdie_model::Side::M2s, xdie_model::Side::S2m]
                .into_iter()
                .enumerate()
            {
                for q in [0, l.queue_count() - 1] {
                    input += &format!("ring {ring_len} {e} {si} {q}\n");
                    want.push(format!("ring {:x}", sys.ring_base(e, side, q)));
                }
            }
        }
        assert_eq!(ask(&exe, &input), want, "ring_len {ring_len}");
    }
}

/// The firmware's DescriptorStream guard and parity check, on a bus that accepts everything:
/// num_descriptors must be each engine's count (the model's), not the total over engines; a
/// start on a PRID of the other parity is refused; the right start goes through, and so do two
/// gens followed by their two starts (a context writing a leg ahead).
#[test]
fn firmware_start_guards_like_the_model() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let s = Scratch::new("fw-guard");
    let exe = harness(&csrs, &s);
    let sc = Scenario::load(&repo().join("scenarios/worked-example.yaml")).expect("scenario");
    let model = sc.run_model(&csrs, 1).expect("model");
    let (l, run) = (&sc.legs[0], &model.legs[0]);
    let per_engine = run.tx_gen.num_descriptors;
    let total = per_engine * l.n_engines();
    let (core, prid) = (l.tx.id, l.tx.prid(Lane::Tx));
    let word = |w: Vec<u8>| hex(&w);
    let gen = word(
        l.gen_word(Lane::Tx, &csrs.views.acc_codes)
            .encode(&csrs)
            .expect("gen"),
    );
    let start = |n| word(l.start_word(Lane::Tx, n).encode(&csrs).expect("start"));
    let input = format!(
        "run {core} {prid} {gen}\nrun {core} {prid} {}\nrun {core} {} {}\nrun {core} {prid} {}\n\
         run {core} {prid} {gen}\nrun {core} {prid} {gen}\nrun {core} {prid} {}\n\
         run {core} {prid} {}\n",
        start(total),
        prid ^ 1,
        start(per_engine),
        start(per_engine),
        start(per_engine),
        start(per_engine)
    );
    let out = ask(&exe, &input);
    let field = |line: &str, i: usize| -> u64 {
        line.split(' ')
            .nth(i)
            .expect("field")
            .parse()
            .expect("number")
    };
    // gen: every descriptor is 16 bytes of 32-bit stores, plus the window setup (none here: TX
    // writes its own die).
    assert_eq!(field(&out[0], 1), 0, "{out:?}");
    let desc_words = csrs.views.params.desc_bytes / 4;
    assert_eq!(field(&out[0], 4), per_engine * l.n_engines() * desc_words);
    // start with the total: the count guard, naming what it got and what each ring holds.
    assert_ne!(field(&out[1], 1), 0);
    assert_eq!((field(&out[1], 2), field(&out[1], 3)), (total, per_engine));
    assert_eq!(field(&out[1], 4), 0, "a refused start stores nothing");
    // the other lane's PRID: refused (parity), nothing stored.
    assert_ne!(field(&out[2], 1), 0);
    assert_ne!(field(&out[2], 1), field(&out[1], 1));
    assert_eq!(field(&out[2], 4), 0);
    // the right start: left_pop (a DEC store) and one doorbell per engine.
    assert_eq!(field(&out[3], 1), 0, "{out:?}");
    assert_eq!(field(&out[3], 4), 1 + l.n_engines());
    // Two gens, then their starts (a context writing a leg ahead): each start posts the oldest
    // pending gen's descriptors, as the model's do.
    for line in &out[4..8] {
        assert_eq!(field(line, 1), 0, "{out:?}");
    }
}

/// The ring bookkeeping belongs to the system, not to a package: two RX contexts on different
/// packages (chips 0x11 and 0x13 of the harness's system) that feed the same TX die of chip 0x12
/// one after the other write its S2M ring at consecutive positions, and each start claims its
/// own leg's descriptors. (Per-package bookkeeping put the second leg over the first one's
/// slots.) A ring of a chip outside the system is refused.
#[test]
fn ring_bookkeeping_is_shared_by_the_packages_of_the_system() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let s = Scratch::new("fw-shared");
    let exe = harness_of_view(&csrs, &s, "XDIE_VIEW_CHIP_ID");
    let sc = Scenario::load(&repo().join("scenarios/worked-example.yaml")).expect("scenario");
    let model = sc.run_model(&csrs, 1).expect("model");
    let (l, run) = (&sc.legs[0], &model.legs[0]);
    let per_engine = run.rx_gen.num_descriptors;
    let (core, prid) = (l.rx.id, l.rx.prid(Lane::Rx));
    let gen = hex(&l
        .gen_word(Lane::Rx, &csrs.views.acc_codes)
        .encode(&csrs)
        .expect("gen"));
    let start = hex(&l
        .start_word(Lane::Rx, per_engine)
        .encode(&csrs)
        .expect("start"));
    let tx_chip = l.tx.chip;
    let tx_die = model.sys.die_of(l.tx).die;
    let engine = l.dma_engine_mask.trailing_zeros();
    let pos = |chip: u64| format!("pos {chip} {tx_die} {engine} 1 {}\n", l.queue);
    let mut input = String::new();
    for chip in [0x11u64, 0x13] {
        input += &format!("runon {chip} {core} {prid} {gen}\n");
        input += &pos(tx_chip);
        input += &format!("runon {chip} {core} {prid} {start}\n");
        input += &pos(tx_chip);
        input += &pos(chip);
    }
    input += &pos(0x14);
    let out = ask(&exe, &input);
    let ok = |line: &str| line.starts_with("rc 0 ");
    let position = |line: &str| -> (i64, u64, u64) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], "pos", "{line}");
        let n = |i: usize| f[i].parse::<u64>().expect("number");
        (f[1].parse().expect("status"), n(2), n(3))
    };
    for (i, leg) in [1u64, 2].into_iter().enumerate() {
        let b = i * 5;
        assert!(ok(&out[b]), "gen from the {leg}. package: {}", out[b]);
        assert_eq!(
            position(&out[b + 1]),
            (0, leg * per_engine, (leg - 1) * per_engine)
        );
        assert!(
            ok(&out[b + 2]),
            "start from the {leg}. package: {}",
            out[b + 2]
        );
        assert_eq!(
            position(&out[b + 3]),
            (0, leg * per_engine, leg * per_engine)
        );
        assert_eq!(
            position(&out[b + 4]),
            (0, 0, 0),
            "the RX package's own ring is untouched"
        );
    }
    assert_ne!(position(&out[10]).0, 0, "chip 0x14 is not in the system");
}

/// The accumulate codes are values of the gen word's `accumulate` field in csrs/ext_inst: after
/// renumbering them there, the model and the firmware (compiled against the regenerated header)
/// accept exactly the new codes on an RX gen and refuse the old ones.
#[test]
fn renumbering_the_accumulate_codes_moves_model_and_c() {
    let (s, dir) = csrs_copy("fw-acc-codes");
    let base = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let old = base.views.acc_codes;
    let f = dir.join("ext_inst.yaml");
    // New codes: none of them an old code of the same meaning.
    let new = [old.f32 + 5, old.write, old.i32 + 7];
    let was = [old.write, old.i32, old.f32];
    for ((name, from), to) in ["write", "int32", "fp32"].iter().zip(was).zip(new) {
        edit(
            &f,
            &format!("{{name: {name}, value: {from},"),
            &format!("{{name: {name}, value: {to},"),
        );
    }
    let csrs = xdie_csr::load(&dir).expect("edited csrs load");
    let codes = csrs.views.acc_codes;
    assert_eq!([codes.write, codes.i32, codes.f32], new);
    let exe = harness(&csrs, &s);
    let sc = Scenario::load(&repo().join("scenarios/worked-example.yaml")).expect("scenario");
    let l = &sc.legs[0];
    let (core, prid) = (l.rx.id, l.rx.prid(Lane::Rx));
    let unknown = (0..).find(|c| !new.contains(c)).expect("a free code");
    for code in new.into_iter().chain([old.i32, old.f32, unknown]) {
        let mut g = l.gen_word(Lane::Rx, &codes);
        g.accumulate = code;
        let mut sys = System::with_config(
            &csrs,
            Topology::package(l.rx.chip),
            Config { ring_len: 512 },
        )
        .expect("system");
        let model_ok = sys.gen(l.rx, &g).is_ok();
        assert_eq!(model_ok, new.contains(&code), "model, code {code}");
        let word = hex(&g.encode(&csrs).expect("gen"));
        let out = ask(&exe, &format!("run {core} {prid} {word}\n"));
        let rc = out[0].split(' ').nth(1).expect("rc");
        assert_eq!(rc == "0", model_ok, "firmware, code {code}: {out:?}");
    }
}
