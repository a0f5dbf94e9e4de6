//! The validated CSR model. Every emitter, the golden model and the testbench read this; none of
//! them sees the raw files. Constructed only by `load`, so its invariants (no overlaps, fields
//! inside their registers, resets that fit, unique names, required roles present) always hold.

use crate::layouts::{
    BcastLayout, EvtSemLayout, HealthLayout, IatuLayout, InboundLayout, RemapLayout, RouteLayout,
    SemSeqLayout, UdmaLayout,
};
use crate::roles::{BundleRole, FieldRole, RegRole};
use crate::views::Views;
use std::path::PathBuf;

/// A field of a fixed-width word: the SoC address, a descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitField {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
    pub description: String,
}

impl BitField {
    pub fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
    /// Mask of the field's value, right-aligned.
    pub fn value_mask(&self) -> u128 {
        if self.width >= 128 {
            u128::MAX
        } else {
            (1u128 << self.width) - 1
        }
    }
    /// Read this field out of `word`.
    pub fn get(&self, word: u128) -> u128 {
        (word >> self.lsb) & self.value_mask()
    }
    /// Clear-then-insert `value` (truncated to the field width) into `word`.
    pub fn set(&self, word: u128, value: u128) -> u128 {
        let m = self.value_mask() << self.lsb;
        (word & !m) | ((value & self.value_mask()) << self.lsb)
    }
}

/// The routed SoC address and its views.
#[derive(Debug, Clone)]
pub struct SocAddress {
    pub name: String,
    pub width: u32,
    pub views: Vec<View>,
    pub folds: Vec<Fold>,
}

#[derive(Debug, Clone)]
pub struct View {
    pub name: String,
    pub description: String,
    pub fields: Vec<BitField>,
}

impl View {
    pub(crate) fn field(&self, name: &str) -> Option<&BitField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

#[derive(Debug, Clone)]
pub struct Fold {
    pub name: String,
    pub description: String,
    pub args: Vec<String>,
    pub steps: Vec<FoldStep>,
}

#[derive(Debug, Clone)]
pub struct FoldStep {
    pub view: String,
    pub field: BitField,
    pub source: FoldSource,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoldSource {
    Arg(String),
    Const(u64),
}

impl SocAddress {
    pub(crate) fn view(&self, name: &str) -> Option<&View> {
        self.views.iter().find(|v| v.name == name)
    }
    pub(crate) fn fold(&self, name: &str) -> Option<&Fold> {
        self.folds.iter().find(|f| f.name == name)
    }
    /// Field `field` of view `view` (the loader resolves the fields the code uses into
    /// `Views::soc`; everyone else reads those).
    pub(crate) fn field(&self, view: &str, field: &str) -> Option<&BitField> {
        self.view(view)?.field(field)
    }
    /// Mask of all address bits.
    pub fn mask(&self) -> u64 {
        if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }
    /// Apply a fold to arguments given in the order of `fold.args`.
    pub fn apply_fold(&self, fold: &Fold, args: &[u64]) -> u64 {
        let mut addr: u128 = 0;
        for step in &fold.steps {
            let v = match &step.source {
                FoldSource::Const(c) => *c,
                FoldSource::Arg(a) => {
                    let i = fold.args.iter().position(|x| x == a).unwrap_or(0);
                    args.get(i).copied().unwrap_or(0)
                }
            };
            addr = step.field.set(addr, v as u128);
        }
        addr as u64 & self.mask()
    }
}

/// A named parameter of the die map (SBUF geometry, engine count, ...).
#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub value: u64,
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApertureKind {
    Memory,
    Block,
}

/// A range of the die-local address space, possibly repeated `count` times every `stride`.
#[derive(Debug, Clone)]
pub struct Aperture {
    pub name: String,
    pub base: u64,
    pub size: u64,
    pub count: u64,
    pub stride: u64,
    pub kind: ApertureKind,
    /// Index into `Csrs::blocks` for block apertures.
    pub block: Option<usize>,
    pub description: String,
}

impl Aperture {
    /// Base of instance `i`.
    pub fn instance_base(&self, i: u64) -> u64 {
        self.base + i * self.stride
    }
    /// One past the last byte of the last instance.
    pub fn end(&self) -> u64 {
        self.instance_base(self.count - 1) + self.size
    }
    /// The instance and the offset in it of address `a`, if `a` falls in an instance (not in a
    /// gap between two).
    pub fn locate(&self, a: u64) -> Option<(u64, u64)> {
        if a < self.base || a >= self.end() {
            return None;
        }
        let (i, off) = ((a - self.base) / self.stride, (a - self.base) % self.stride);
        (off < self.size).then_some((i, off))
    }
}

#[derive(Debug, Clone)]
pub struct DieMap {
    pub name: String,
    pub local_width: u32,
    pub params: Vec<Param>,
    pub apertures: Vec<Aperture>,
}

impl DieMap {
    pub(crate) fn param(&self, name: &str) -> Option<u64> {
        self.params.iter().find(|p| p.name == name).map(|p| p.value)
    }
    pub(crate) fn aperture(&self, name: &str) -> Option<&Aperture> {
        self.apertures.iter().find(|a| a.name == name)
    }
}

/// Software access of a register field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read/write storage.
    Rw,
    /// Read-only; the value comes from hardware.
    Ro,
    /// Write-only storage (reads return 0).
    Wo,
    /// Increment-on-write doorbell: a write of N adds N to a hardware counter; reads return 0.
    Inc,
    /// Write 1 to pulse an action for one cycle; reads return 0.
    W1p,
    /// Sticky hardware flag; write 1 to clear.
    W1c,
}

impl Access {
    pub fn parse(s: &str) -> Option<Access> {
        Some(match s {
            "RW" => Access::Rw,
            "RO" => Access::Ro,
            "WO" => Access::Wo,
            "INC" => Access::Inc,
            "W1P" => Access::W1p,
            "W1C" => Access::W1c,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Rw => "RW",
            Access::Ro => "RO",
            Access::Wo => "WO",
            Access::Inc => "INC",
            Access::W1p => "W1P",
            Access::W1c => "W1C",
        }
    }
    pub const ALL: &'static str = "RW, RO, WO, INC, W1P, W1C";
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
    pub access: Access,
    pub reset: u64,
    pub description: String,
    pub role: Option<FieldRole>,
}

impl Field {
    pub fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
    /// Mask of the field within its 32-bit register.
    pub fn reg_mask(&self) -> u32 {
        (((1u64 << self.width) - 1) << self.lsb) as u32
    }
}

/// A 32-bit register.
#[derive(Debug, Clone)]
pub struct Register {
    pub name: String,
    /// Byte offset within the block (top-level registers) or within one bundle instance.
    pub offset: u64,
    pub description: String,
    pub role: Option<RegRole>,
    pub fields: Vec<Field>,
}

impl Register {
    pub fn field_by_role(&self, role: FieldRole) -> Option<&Field> {
        self.fields.iter().find(|f| f.role == Some(role))
    }
    /// Reset value of the whole register.
    pub fn reset(&self) -> u32 {
        self.fields
            .iter()
            .fold(0u32, |acc, f| acc | ((f.reset as u32) << f.lsb))
    }
    /// Bits software can read back (everything but write-only kinds).
    pub fn read_mask(&self) -> u32 {
        self.fields
            .iter()
            .filter(|f| matches!(f.access, Access::Rw | Access::Ro | Access::W1c))
            .fold(0, |acc, f| acc | f.reg_mask())
    }
    /// Bits that hold writable storage.
    pub fn write_mask(&self) -> u32 {
        self.fields
            .iter()
            .filter(|f| matches!(f.access, Access::Rw | Access::Wo))
            .fold(0, |acc, f| acc | f.reg_mask())
    }
}

/// `count` copies of a group of registers, every `stride` bytes from `offset`.
#[derive(Debug, Clone)]
pub struct Bundle {
    pub name: String,
    pub role: Option<BundleRole>,
    pub offset: u64,
    pub count: u64,
    pub stride: u64,
    pub registers: Vec<Register>,
}

impl Bundle {
    pub fn reg_by_role(&self, role: RegRole) -> Option<&Register> {
        self.registers.iter().find(|r| r.role == Some(role))
    }
    /// Offset, within the block, of register `reg` of instance `i`.
    pub fn reg_offset(&self, i: u64, reg: &Register) -> u64 {
        self.offset + i * self.stride + reg.offset
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    M2s,
    S2m,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::M2s => "M2S",
            Side::S2m => "S2M",
        }
    }
}

/// What a block does beyond plain registers; selects its template. Each kind carries its
/// typed layout: the registers and fields its behaviour is tied to, resolved by role at load.
#[derive(Debug, Clone)]
pub enum BlockKind {
    EvtSem(EvtSemLayout),
    UdmaQueueGroup(UdmaLayout),
    SdmaBcast(BcastLayout),
    Iatu(IatuLayout),
    RemapWindows(RemapLayout),
    SemSeq(SemSeqLayout),
    RouteTable(RouteLayout),
    LinkHealth(HealthLayout),
    InboundWindows(InboundLayout),
}

impl BlockKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            BlockKind::EvtSem(_) => "evt_sem",
            BlockKind::UdmaQueueGroup(_) => "udma_queue_group",
            BlockKind::SdmaBcast(_) => "sdma_bcast",
            BlockKind::Iatu(_) => "iatu",
            BlockKind::RemapWindows(_) => "remap_windows",
            BlockKind::SemSeq(_) => "sem_seq",
            BlockKind::RouteTable(_) => "route_table",
            BlockKind::LinkHealth(_) => "link_health",
            BlockKind::InboundWindows(_) => "inbound_windows",
        }
    }
}

/// A register block (one JSON file).
#[derive(Debug, Clone)]
pub struct Block {
    pub name: String,
    pub description: String,
    pub kind: BlockKind,
    pub size: u64,
    pub registers: Vec<Register>,
    pub bundles: Vec<Bundle>,
    pub source: PathBuf,
}

impl Block {
    pub fn bundle_by_role(&self, role: BundleRole) -> Option<&Bundle> {
        self.bundles.iter().find(|b| b.role == Some(role))
    }
    pub fn reg_by_role(&self, role: RegRole) -> Option<&Register> {
        self.registers.iter().find(|r| r.role == Some(role))
    }
    pub fn evt_sem(&self) -> Option<&EvtSemLayout> {
        match &self.kind {
            BlockKind::EvtSem(l) => Some(l),
            _ => None,
        }
    }
    pub fn udma(&self) -> Option<&UdmaLayout> {
        match &self.kind {
            BlockKind::UdmaQueueGroup(l) => Some(l),
            _ => None,
        }
    }
    pub fn bcast(&self) -> Option<&BcastLayout> {
        match &self.kind {
            BlockKind::SdmaBcast(l) => Some(l),
            _ => None,
        }
    }
    pub fn iatu(&self) -> Option<&IatuLayout> {
        match &self.kind {
            BlockKind::Iatu(l) => Some(l),
            _ => None,
        }
    }
    pub fn remap(&self) -> Option<&RemapLayout> {
        match &self.kind {
            BlockKind::RemapWindows(l) => Some(l),
            _ => None,
        }
    }
    pub fn sem_seq(&self) -> Option<&SemSeqLayout> {
        match &self.kind {
            BlockKind::SemSeq(l) => Some(l),
            _ => None,
        }
    }
    pub fn route(&self) -> Option<&RouteLayout> {
        match &self.kind {
            BlockKind::RouteTable(l) => Some(l),
            _ => None,
        }
    }
    pub fn health(&self) -> Option<&HealthLayout> {
        match &self.kind {
            BlockKind::LinkHealth(l) => Some(l),
            _ => None,
        }
    }
    pub fn inbound(&self) -> Option<&InboundLayout> {
        match &self.kind {
            BlockKind::InboundWindows(l) => Some(l),
            _ => None,
        }
    }
    /// Address bits the block decodes (log2 of its size, rounded up).
    pub fn addr_bits(&self) -> u32 {
        64 - (self.size - 1).leading_zeros()
    }
}

/// A ring descriptor format.
#[derive(Debug, Clone)]
pub struct DescFormat {
    pub name: String,
    pub description: String,
    pub bytes: u32,
    pub fields: Vec<BitField>,
}

impl DescFormat {
    pub(crate) fn field(&self, name: &str) -> Option<&BitField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

#[derive(Debug, Clone)]
pub struct RingRules {
    pub initial_ring_id: u32,
    pub ring_id_width: u32,
    pub base_align: u64,
    /// LEN = 0 encodes this many bytes.
    pub max_len_code: u64,
}

/// A 64-byte ExtendedInst word.
#[derive(Debug, Clone)]
pub struct ExtWord {
    pub name: String,
    pub sub_opcode: u32,
    pub bytes: u32,
    pub description: String,
    pub fields: Vec<WordField>,
}

impl ExtWord {
    pub(crate) fn field(&self, name: &str) -> Option<&WordField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// A little-endian integer at a byte offset of an ExtendedInst word.
#[derive(Debug, Clone)]
pub struct WordField {
    pub name: String,
    pub offset: u32,
    pub bytes: u32,
    pub description: String,
    /// Named codes (empty when the field is a plain number).
    pub values: Vec<WordValue>,
}

impl WordField {
    /// The code named `name`.
    pub fn value(&self, name: &str) -> Option<u64> {
        self.values.iter().find(|v| v.name == name).map(|v| v.value)
    }
}

/// A named code of an ExtendedInst word field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordValue {
    pub name: String,
    pub value: u64,
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum D2dIp {
    None,
    DwcPcieXsr,
    Ucie,
}

#[derive(Debug, Clone)]
pub struct Profile {
    pub name: String,
    pub sb2sb: bool,
    pub d2d_ip: D2dIp,
    pub d2d_controllers: u32,
    pub description: String,
}

/// A die sizing profile (`sizing.*`), every value resolved (a key left out took the die map's
/// or the default profile's value) and checked. The register map is the same in every profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sizing {
    pub name: String,
    pub description: String,
    /// NeuronCores wired per die (each with its SBUF and EVT_SEM).
    pub cores: u64,
    /// SDMA engines wired.
    pub sdma_engines: u64,
    /// D2D controller register blocks wired.
    pub d2d_controllers: u64,
    /// Bytes backed per SBUF partition.
    pub sbuf_backing_bytes: u64,
    /// Bytes of HBM backed.
    pub hbm_bytes: u64,
    /// Receive buffer depth per link channel.
    pub link_credits: u64,
    /// Requests in flight per crossbar master and slave; writes in flight per engine.
    pub outstanding: u64,
    /// Source beats an engine buffers.
    pub engine_read_beats: u64,
    /// 1: the crossbar shares one request and one response path among its ports; 0: full.
    pub shared_crossbar: u64,
    /// 1: the engines' queue round robin in the arbiter's select form; 0: the word-wide form.
    pub select_arbiters: u64,
    /// 1: register stages for FPGA timing, a cycle of latency each; 0: none.
    pub timing_registers: u64,
}

impl Sizing {
    /// Every value with its key name in `sizing.*`, in file order.
    pub fn values(&self) -> [(&'static str, u64); 11] {
        [
            ("cores", self.cores),
            ("sdma_engines", self.sdma_engines),
            ("d2d_controllers", self.d2d_controllers),
            ("sbuf_backing_bytes", self.sbuf_backing_bytes),
            ("hbm_bytes", self.hbm_bytes),
            ("link_credits", self.link_credits),
            ("outstanding", self.outstanding),
            ("engine_read_beats", self.engine_read_beats),
            ("shared_crossbar", self.shared_crossbar),
            ("select_arbiters", self.select_arbiters),
            ("timing_registers", self.timing_registers),
        ]
    }
}

/// Everything `csrs/` describes.
#[derive(Debug, Clone)]
pub struct Csrs {
    pub soc: SocAddress,
    pub map: DieMap,
    pub blocks: Vec<Block>,
    pub descriptors: Vec<DescFormat>,
    pub ring: RingRules,
    pub words: Vec<ExtWord>,
    pub profiles: Vec<Profile>,
    pub default_profile: usize,
    /// Die sizing profiles; `default_sizing` indexes the one the simulation follows.
    pub sizings: Vec<Sizing>,
    pub default_sizing: usize,
    /// Every file read, in reading order (for drift messages and docs).
    pub sources: Vec<PathBuf>,
    /// The typed views every layer reads: die parameters, apertures, block layouts, descriptor
    /// and word fields, SoC-address fields and folds, resolved and checked at load.
    pub views: Views,
}

impl Csrs {
    pub fn profile(&self) -> &Profile {
        &self.profiles[self.default_profile]
    }
    /// The sizing the simulation and `xdie_die`'s defaults follow.
    pub fn sizing(&self) -> &Sizing {
        &self.sizings[self.default_sizing]
    }
    /// The block an aperture instantiates.
    pub fn aperture_block(&self, ap: &Aperture) -> Option<&Block> {
        ap.block.map(|i| &self.blocks[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(lsb: u32, width: u32) -> BitField {
        BitField {
            name: "F".into(),
            lsb,
            width,
            description: String::new(),
        }
    }

    #[test]
    fn set_is_clear_then_insert_and_lossless() {
        let f = field(48, 6);
        let word = u128::MAX;
        for v in [0u128, 1, 0x12, 0x3f] {
            let w = f.set(word, v);
            assert_eq!(f.get(w), v);
            // Bits outside the field are untouched.
            assert_eq!(w | (f.value_mask() << f.lsb), word);
        }
        // Values wider than the field are truncated, not spilled into neighbours.
        assert_eq!(f.set(0, 0x7f), 0x3f << 48);
    }

    #[test]
    fn fold_sets_exactly_its_steps() {
        let soc = SocAddress {
            name: "t".into(),
            width: 57,
            views: vec![],
            folds: vec![],
        };
        let fold = Fold {
            name: "f".into(),
            description: String::new(),
            args: vec!["a".into()],
            steps: vec![
                FoldStep {
                    view: "v".into(),
                    field: field(0, 8),
                    source: FoldSource::Arg("a".into()),
                },
                FoldStep {
                    view: "v".into(),
                    field: field(54, 1),
                    source: FoldSource::Const(1),
                },
            ],
        };
        assert_eq!(soc.apply_fold(&fold, &[0xab]), 0xab | (1 << 54));
    }
}
