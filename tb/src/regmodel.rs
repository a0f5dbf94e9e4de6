//! Reference register model derived from the CSR model in `csrs/`.
//!
//! Every register of a block (top-level and every bundle instance) is listed with its offset,
//! reset, access kinds and read mask as the loader computed them; nothing is typed here. Plain
//! registers are predicted generically (RW stores with byte strobes, RO holds its reset, W1C
//! clears, INC/W1P/WO read 0). Registers whose value hardware changes in response to other
//! registers are claimed by a small per-kind module ([`evt_sem`], [`sem_seq`], [`udma`]).

mod evt_sem;
mod sem_seq;
mod udma;

use crate::duts::DutKind;
use crate::rng::Rng;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use xdie_csr::{Access, Block, BlockKind, BundleRole, Csrs, RegRole, Views};

/// The CSR model the testbench reads: the repository's csrs/, or what `use_csrs` installed.
static CSRS: OnceLock<Csrs> = OnceLock::new();

/// Make the testbench read `c` instead of the repository's csrs/: a command that simulates
/// other CSRs (whose RTL it checked is the one compiled in) calls this before it simulates.
/// Fails when the testbench has already read its CSRs.
pub fn use_csrs(c: Csrs) -> Result<(), String> {
    CSRS.set(c)
        .map_err(|_| "the testbench has already read its CSRs".to_string())
}

/// The CSR model the RTL models were built from (this repository's csrs/, or the variant's when
/// the build ran with `XDIE_DESIGN_ROOT`), or the one `use_csrs` installed; loaded once.
pub fn csrs() -> &'static Csrs {
    CSRS.get_or_init(|| {
        let dir = PathBuf::from(env!("XDIE_CSRS_DIR"));
        xdie_csr::load(&dir).unwrap_or_else(|e| panic!("csrs/ does not load: {e}"))
    })
}

/// The typed views of the CSR model of this repository (die parameters, apertures, block
/// layouts, descriptor fields, SoC fields and folds).
pub fn views() -> &'static Views {
    &csrs().views
}

/// The register block a DUT implements (`xdie_<block>`), if it is one.
pub fn block_of(kind: DutKind) -> Option<&'static Block> {
    csrs()
        .blocks
        .iter()
        .find(|b| format!("xdie_{}", b.name) == kind.name())
}

/// What a read should return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Value(u32),
    /// The block answers SLVERR.
    SlvErr,
    /// Depends on hardware behaviour the model does not cover.
    Unknown,
}

/// One 32-bit register instance of a block.
#[derive(Debug, Clone)]
pub struct Reg {
    pub name: String,
    pub offset: u64,
    pub reset: u32,
    pub read_mask: u32,
    /// Bits with read/write storage.
    pub rw_mask: u32,
    pub w1c_mask: u32,
    pub bundle_role: Option<BundleRole>,
    pub role: Option<RegRole>,
    /// Bundle instance number.
    pub index: Option<u64>,
    /// Access kinds present in the register.
    pub access: Vec<Access>,
}

/// Generic register storage, visible to the per-kind modules.
pub struct Regs {
    regs: Vec<Reg>,
    by_offset: BTreeMap<u64, usize>,
    values: Vec<u32>,
}

impl Regs {
    /// Index of register `role` of instance `index` of bundle `bundle_role`.
    pub fn find(&self, bundle_role: BundleRole, index: u64, role: RegRole) -> Option<usize> {
        self.regs.iter().position(|r| {
            r.bundle_role == Some(bundle_role) && r.index == Some(index) && r.role == Some(role)
        })
    }
    pub fn value(&self, i: usize) -> u32 {
        self.values[i]
    }
    pub fn restore_reset(&mut self, i: usize) {
        self.values[i] = self.regs[i].reset;
    }
}

/// Block-specific behaviour for registers the generic rules cannot predict.
pub(crate) trait Special: Send {
    fn claims(&self, reg: &Reg) -> bool;
    /// May the random sequences write this claimed register (with full strobes)?
    fn writable(&self, reg: &Reg) -> bool;
    fn write(&mut self, reg: &Reg, data: u32, regs: &mut Regs);
    fn read(&self, reg: &Reg, regs: &Regs) -> Expect;
    fn reset(&mut self);
    /// A hardware-side event the test drove on a DUT port.
    fn hw_event(&mut self, _event: HwEvent, _regs: &mut Regs) {}
}

/// Hardware-port events that change register state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HwEvent {
    /// The engine consumed one descriptor of `queue` (a head increment).
    HeadInc { queue: u64 },
}

pub struct RegModel {
    pub block: &'static Block,
    g: Regs,
    claimed: Vec<bool>,
    special: Option<Box<dyn Special>>,
}

impl RegModel {
    pub fn for_dut(kind: DutKind) -> Option<RegModel> {
        block_of(kind).map(RegModel::new)
    }

    pub fn new(block: &'static Block) -> RegModel {
        let mut regs = Vec::new();
        for r in &block.registers {
            regs.push(Reg::from_model(r, r.name.clone(), r.offset, None, None));
        }
        for b in &block.bundles {
            for i in 0..b.count {
                for r in &b.registers {
                    let mut reg = Reg::from_model(
                        r,
                        format!("{}[{i}].{}", b.name, r.name),
                        b.reg_offset(i, r),
                        b.role,
                        Some(i),
                    );
                    if let Some(reset) = instance_reset(block, r, i) {
                        reg.reset = reset;
                    }
                    regs.push(reg);
                }
            }
        }
        regs.sort_by_key(|r| r.offset);
        let by_offset = regs
            .iter()
            .enumerate()
            .map(|(i, r)| (r.offset, i))
            .collect();
        let special: Option<Box<dyn Special>> = match &block.kind {
            BlockKind::EvtSem(l) => Some(Box::new(evt_sem::EvtSem::new(l))),
            BlockKind::UdmaQueueGroup(l) => Some(Box::new(udma::Udma::new(l, csrs()))),
            BlockKind::SemSeq(l) => Some(Box::new(sem_seq::SemSeq::new(l))),
            _ => None,
        };
        let claimed = regs
            .iter()
            .map(|r| special.as_ref().is_some_and(|s| s.claims(r)))
            .collect();
        let values = regs.iter().map(|r| r.reset).collect();
        RegModel {
            block,
            g: Regs {
                regs,
                by_offset,
                values,
            },
            claimed,
            special,
        }
    }

    pub fn regs(&self) -> &[Reg] {
        &self.g.regs
    }

    pub fn reg_at(&self, offset: u64) -> Option<&Reg> {
        self.g.by_offset.get(&offset).map(|&i| &self.g.regs[i])
    }

    /// Back to the reset state.
    pub fn reset(&mut self) {
        for (v, r) in self.g.values.iter_mut().zip(&self.g.regs) {
            *v = r.reset;
        }
        if let Some(s) = self.special.as_mut() {
            s.reset();
        }
    }

    /// The value a freshly reset block must return at `offset`: the CSR reset, except where a
    /// per-kind module derives the value from other state (e.g. a queue's FULL flag).
    pub fn reset_value(&self, offset: u64) -> Expect {
        let Some(&i) = self.g.by_offset.get(&offset) else {
            return Expect::SlvErr;
        };
        let r = &self.g.regs[i];
        if self.claimed[i] {
            if let Some(s) = &self.special {
                let mut fresh = Regs {
                    regs: vec![],
                    by_offset: BTreeMap::new(),
                    values: vec![],
                };
                fresh.regs.clone_from(&self.g.regs);
                fresh.values = self.g.regs.iter().map(|r| r.reset).collect();
                if let Expect::Value(v) = s.read(r, &fresh) {
                    return Expect::Value(v);
                }
            }
        }
        Expect::Value(r.reset & r.read_mask)
    }

    /// Tells the model about an event the test drove on a hardware port.
    pub fn hw_event(&mut self, event: HwEvent) {
        if let Some(s) = self.special.as_mut() {
            s.hw_event(event, &mut self.g);
        }
    }

    /// Whether random sequences may write this register (and with which strobes).
    pub fn writable(&self, offset: u64) -> Option<bool> {
        let &i = self.g.by_offset.get(&offset)?;
        if self.claimed[i] {
            let ok = self
                .special
                .as_ref()
                .is_some_and(|s| s.writable(&self.g.regs[i]));
            return ok.then_some(false);
        }
        Some(true)
    }

    /// Applies a write; `strb` is honoured on generic registers only.
    pub fn write(&mut self, offset: u64, data: u32, strb: u8) -> Expect {
        let Some(&i) = self.g.by_offset.get(&offset) else {
            return Expect::SlvErr;
        };
        if !offset.is_multiple_of(4) {
            return Expect::SlvErr;
        }
        if self.claimed[i] {
            if let Some(s) = self.special.as_mut() {
                let reg = self.g.regs[i].clone();
                s.write(&reg, data, &mut self.g);
            }
            return Expect::Value(0);
        }
        let r = &self.g.regs[i];
        let lanes = strobe_mask(strb);
        let rw = r.rw_mask & lanes;
        let w1c = r.w1c_mask & lanes & data;
        self.g.values[i] = ((self.g.values[i] & !rw) | (data & rw)) & !w1c;
        Expect::Value(0)
    }

    /// The predicted read of `offset`.
    pub fn read(&self, offset: u64) -> Expect {
        if !offset.is_multiple_of(4) {
            return Expect::SlvErr;
        }
        let Some(&i) = self.g.by_offset.get(&offset) else {
            return Expect::SlvErr;
        };
        if self.claimed[i] {
            return self
                .special
                .as_ref()
                .map_or(Expect::Unknown, |s| s.read(&self.g.regs[i], &self.g));
        }
        Expect::Value(self.g.values[i] & self.g.regs[i].read_mask)
    }

    /// Word-aligned offsets inside the block's address space that hold no register.
    pub fn unmapped_offsets(&self, rng: &mut Rng, n: usize) -> Vec<u64> {
        let span = 1u64 << self.block.addr_bits();
        let free = span / 4 - self.g.regs.len() as u64;
        let mut out = Vec::new();
        if free == 0 {
            return out;
        }
        // Always include the first and last free words, then random ones.
        let first = (0..span)
            .step_by(4)
            .find(|o| !self.g.by_offset.contains_key(o));
        let last = (0..span / 4)
            .rev()
            .map(|w| w * 4)
            .find(|o| !self.g.by_offset.contains_key(o));
        out.extend(first);
        out.extend(last);
        let mut guard = 0;
        while out.len() < n && guard < 100 * n {
            guard += 1;
            let o = rng.below(span / 4) * 4;
            if !self.g.by_offset.contains_key(&o) && !out.contains(&o) {
                out.push(o);
            }
        }
        out
    }
}

impl Reg {
    fn from_model(
        r: &xdie_csr::Register,
        name: String,
        offset: u64,
        bundle_role: Option<BundleRole>,
        index: Option<u64>,
    ) -> Reg {
        let mask_of = |a: Access| {
            r.fields
                .iter()
                .filter(|f| f.access == a)
                .fold(0u32, |m, f| m | f.reg_mask())
        };
        let mut access: Vec<Access> = Vec::new();
        for f in &r.fields {
            if !access.contains(&f.access) {
                access.push(f.access);
            }
        }
        Reg {
            name,
            offset,
            reset: r.reset(),
            read_mask: r.read_mask(),
            rw_mask: mask_of(Access::Rw),
            w1c_mask: mask_of(Access::W1c),
            bundle_role,
            role: r.role,
            index,
            access,
        }
    }
}

/// Bits covered by the byte strobes.
pub fn strobe_mask(strb: u8) -> u32 {
    (0..4)
        .filter(|b| strb & (1 << b) != 0)
        .fold(0u32, |m, b| m | (0xFF << (8 * b)))
}

/// The reset of register `r` of bundle instance `i` where it is not the register's own: the
/// inbound block's default windows (resolved by the loader from the die map).
fn instance_reset(block: &Block, r: &xdie_csr::Register, i: u64) -> Option<u32> {
    let l = block.inbound()?;
    let v = views();
    let (w, read, write) = *v.inbound_reset().get(i as usize)?;
    let word = |lo: &xdie_csr::Register, hi: &xdie_csr::Register, value: u64| {
        let (fl, fh) = (&lo.fields[0], &hi.fields[0]);
        if r.offset == lo.offset {
            Some(((value as u32) << fl.lsb) & fl.reg_mask())
        } else if r.offset == hi.offset {
            Some((((value >> fl.width) as u32) << fh.lsb) & fh.reg_mask())
        } else {
            None
        }
    };
    if r.offset == l.ctrl.offset {
        return Some(l.ctrl_value(read || write, read, write));
    }
    word(&l.base_lo, &l.base_hi, w.base).or_else(|| word(&l.mask_lo, &l.mask_hi, w.mask))
}
