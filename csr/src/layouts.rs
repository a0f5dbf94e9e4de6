//! Typed layouts of each block kind: the bundles, registers and fields its behaviour is tied to,
//! picked by role once at load (`load::layouts`). Emitters, the golden model and the testbench
//! read these fields instead of looking roles up.

use crate::model::{Bundle, Field, Register, Side};
use crate::roles::{BundleRole, FieldRole};

/// Parameters of an EVT_SEM block that its registers do not carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvtSemParams {
    /// Hardware increment ports (DMA semaphore writes arriving beside the bus).
    pub hw_inc_ports: u32,
    /// Width of the sequencer port's subop code.
    pub seq_subop_bits: u32,
    /// Sequencer subop: wait until sem >= val, then subtract val atomically.
    pub seq_subop_wait_ge_dec: u64,
    /// Sequencer subop: add val.
    pub seq_subop_inc: u64,
}

/// One of the four windows of EVT_SEM over the one semaphore array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SemOp {
    Read,
    Set,
    Inc,
    Dec,
}

impl SemOp {
    /// In the order of `EvtSemLayout::windows`.
    pub const ALL: [SemOp; 4] = [SemOp::Read, SemOp::Set, SemOp::Inc, SemOp::Dec];

    /// The bundle role of this window.
    pub fn role(self) -> BundleRole {
        match self {
            SemOp::Read => BundleRole::SemRead,
            SemOp::Set => BundleRole::SemSet,
            SemOp::Inc => BundleRole::SemInc,
            SemOp::Dec => BundleRole::SemDec,
        }
    }

    fn index(self) -> usize {
        match self {
            SemOp::Read => 0,
            SemOp::Set => 1,
            SemOp::Inc => 2,
            SemOp::Dec => 3,
        }
    }
}

/// A window of EVT_SEM: `bundle.count` one-register entries every `bundle.stride` bytes.
#[derive(Debug, Clone)]
pub struct SemWindow {
    pub op: SemOp,
    pub bundle: Bundle,
    /// The window's only register and its only field (the semaphore value or event flag).
    pub reg: Register,
    pub value: Field,
}

impl SemWindow {
    /// Offset within the block of entry `i`'s register.
    pub fn entry_offset(&self, i: u64) -> u64 {
        self.bundle.reg_offset(i, &self.reg)
    }
    /// One past the window's last byte, relative to the block.
    pub fn end(&self) -> u64 {
        self.bundle.offset + self.bundle.count * self.bundle.stride
    }
}

#[derive(Debug, Clone)]
pub struct EvtSemLayout {
    pub params: EvtSemParams,
    /// The event flags (one register of one 1-bit field per event).
    pub events: Bundle,
    pub event_reg: Register,
    pub event_flag: Field,
    /// READ, SET, INC, DEC in that order (`SemOp::ALL`); the loader checked they agree on count
    /// and value bits.
    pub windows: [SemWindow; 4],
}

impl EvtSemLayout {
    pub fn window(&self, op: SemOp) -> &SemWindow {
        &self.windows[op.index()]
    }
    /// Semaphores behind the windows.
    pub fn sem_count(&self) -> u64 {
        self.window(SemOp::Read).bundle.count
    }
    /// Bytes of one semaphore register of the INC window (a DMA semaphore increment moves this
    /// many bytes).
    pub fn sem_bytes(&self) -> u64 {
        self.window(SemOp::Inc).bundle.stride
    }
    /// Offset within the block of semaphore `sem`'s register in window `op`.
    pub fn sem_offset(&self, op: SemOp, sem: u64) -> u64 {
        self.window(op).entry_offset(sem)
    }
    /// The window holding block offset `off`, with the semaphore and whether `off` is the start
    /// of its register.
    pub fn decode(&self, off: u64) -> Option<(SemOp, u64, bool)> {
        self.windows.iter().find_map(|w| {
            let b = &w.bundle;
            (off >= b.offset && off < w.end()).then(|| {
                let rel = off - b.offset;
                (w.op, rel / b.stride, rel.is_multiple_of(b.stride))
            })
        })
    }
}

/// A UDMA queue group: one bundle per queue with the ring registers, plus the error log.
#[derive(Debug, Clone)]
pub struct UdmaLayout {
    pub side: Side,
    pub queue: Bundle,
    pub cfg: Register,
    pub enable: Field,
    pub status: Register,
    pub used: Field,
    pub overrun: Field,
    pub full: Field,
    pub ring_base_lo: Register,
    pub ring_base_lo_addr: Field,
    pub ring_base_hi: Register,
    pub ring_base_hi_addr: Field,
    pub ring_len: Register,
    pub len: Field,
    pub head: Register,
    pub head_offset: Field,
    pub head_ring_id: Field,
    /// The tail-increment doorbell.
    pub tail_inc: Register,
    pub inc: Field,
    pub tail: Register,
    pub tail_offset: Field,
    pub tail_ring_id: Field,
    pub sw_ctrl: Register,
    pub rst_tail: Field,
    pub rst_head: Field,
    pub rst_q: Field,
    /// Top-level sticky error log.
    pub err_log: Register,
    pub err_overrun: Field,
    pub err_ring_id_err: Field,
}

impl UdmaLayout {
    /// Queues of the group.
    pub fn queues(&self) -> u64 {
        self.queue.count
    }
    /// Offset within the block of queue `q`'s register `reg` (one of this layout's registers).
    pub fn queue_reg(&self, q: u64, reg: &Register) -> u64 {
        self.queue.reg_offset(q, reg)
    }
}

/// The broadcast doorbell: engine mask, queue, and one increment register per side.
#[derive(Debug, Clone)]
pub struct BcastLayout {
    pub group: Register,
    pub mask: Field,
    pub queue_reg: Register,
    pub queue: Field,
    pub m2s_inc: Register,
    pub s2m_inc: Register,
    /// The INC field of `m2s_inc`; the loader checked `s2m_inc`'s sits on the same bits.
    pub inc: Field,
    /// The INC field of `s2m_inc`.
    pub s2m_inc_field: Field,
}

/// DWC-PCIe style iATU: outbound regions plus the link status.
#[derive(Debug, Clone)]
pub struct IatuLayout {
    pub region: Bundle,
    pub ctrl: Register,
    pub enable: Field,
    pub base_lo: Register,
    pub base_hi: Register,
    pub limit_lo: Register,
    pub limit_hi: Register,
    pub target_lo: Register,
    pub target_hi: Register,
    pub link_status: Register,
    pub link_up: Field,
    pub credits: Field,
}

/// The xt-to-SoC remap windows.
#[derive(Debug, Clone)]
pub struct RemapLayout {
    pub window: Bundle,
    pub ctrl: Register,
    pub valid: Field,
    pub mode: Field,
    pub xt_addr: Register,
    pub soc_lo: Register,
    pub soc_hi: Register,
    pub u_mask: Register,
    pub l_mask: Register,
    pub mask: Register,
    pub match_: Register,
    pub replace_lo: Register,
    pub replace_hi: Register,
}

/// The sequencer command slots in front of EVT_SEM's sequencer port: per slot a VALUE, a CMD
/// (semaphore and subop) that posts the command, and a STATUS (busy, err).
#[derive(Debug, Clone)]
pub struct SemSeqLayout {
    pub slot: Bundle,
    pub value_reg: Register,
    pub value: Field,
    pub cmd: Register,
    pub sem: Field,
    pub subop: Field,
    pub status: Register,
    pub busy: Field,
    pub err: Field,
}

impl SemSeqLayout {
    /// Command slots of the block.
    pub fn slots(&self) -> u64 {
        self.slot.count
    }
    /// Offset within the block of slot `i`'s register `reg` (one of this layout's registers).
    pub fn slot_reg(&self, i: u64, reg: &Register) -> u64 {
        self.slot.reg_offset(i, reg)
    }
}

/// The route table: per destination die (CAYMAN_ID, DIE), the egress C2C port.
#[derive(Debug, Clone)]
pub struct RouteLayout {
    /// One bundle instance per destination, at index CAYMAN_ID * dies + DIE.
    pub route: Bundle,
    pub entry: Register,
    pub valid: Field,
    pub port: Field,
}

impl RouteLayout {
    /// Destinations the table holds.
    pub fn entries(&self) -> u64 {
        self.route.count
    }
    /// The entry register value routing a destination through `port`.
    pub fn entry_value(&self, port: u64) -> u32 {
        self.valid.reg_mask() | ((port << self.port.lsb) as u32 & self.port.reg_mask())
    }
}

/// A trigger of the link-health interrupt block: one bit in each of its raw, mask and status
/// registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HealthTrigger {
    /// A CRC error counter went above the threshold.
    CrcErr,
    /// A replay started.
    Replay,
    /// The link went down.
    LinkDown,
    /// The link came up.
    LinkUp,
    /// A flit waited too long for a send credit.
    CreditTimeout,
}

impl HealthTrigger {
    /// In the order of `HealthLayout::triggers`.
    pub const ALL: [HealthTrigger; 5] = [
        HealthTrigger::CrcErr,
        HealthTrigger::Replay,
        HealthTrigger::LinkDown,
        HealthTrigger::LinkUp,
        HealthTrigger::CreditTimeout,
    ];

    /// The field role of this trigger's bit.
    pub fn role(self) -> FieldRole {
        match self {
            HealthTrigger::CrcErr => FieldRole::CrcErr,
            HealthTrigger::Replay => FieldRole::Replay,
            HealthTrigger::LinkDown => FieldRole::LinkDown,
            HealthTrigger::LinkUp => FieldRole::LinkUp,
            HealthTrigger::CreditTimeout => FieldRole::CreditTimeout,
        }
    }

    fn index(self) -> usize {
        match self {
            HealthTrigger::CrcErr => 0,
            HealthTrigger::Replay => 1,
            HealthTrigger::LinkDown => 2,
            HealthTrigger::LinkUp => 3,
            HealthTrigger::CreditTimeout => 4,
        }
    }
}

/// Link-health interrupts of one D2D controller: raw/mask/status registers with one bit per
/// trigger, the CRC threshold and credit timeout, three saturating counters and their clears.
#[derive(Debug, Clone)]
pub struct HealthLayout {
    /// Sticky triggers, masked or not (RO).
    pub intr_raw: Register,
    /// A set bit keeps its trigger off the interrupt (RW).
    pub intr_mask: Register,
    /// raw AND NOT mask; write 1 clears (W1C).
    pub intr_status: Register,
    /// The trigger bits of intr_raw in `HealthTrigger::ALL` order; the loader checked that
    /// intr_mask and intr_status hold each at the same position.
    pub triggers: [Field; 5],
    pub crc_threshold: Register,
    pub threshold: Field,
    pub credit_timeout: Register,
    pub timeout: Field,
    pub flit_crc_count: Register,
    pub flit_crc: Field,
    pub dllp_crc_count: Register,
    pub dllp_crc: Field,
    pub replay_count: Register,
    pub replays: Field,
    /// Write-1 clears of the three counters.
    pub counter_clear: Register,
    pub clear_flit_crc: Field,
    pub clear_dllp_crc: Field,
    pub clear_replay: Field,
}

impl HealthLayout {
    /// The bit of trigger `t` (the same in raw, mask and status).
    pub fn trigger(&self, t: HealthTrigger) -> &Field {
        &self.triggers[t.index()]
    }
    /// The register mask of trigger `t`.
    pub fn bit(&self, t: HealthTrigger) -> u32 {
        self.trigger(t).reg_mask()
    }
    /// Every trigger bit.
    pub fn all_bits(&self) -> u32 {
        HealthTrigger::ALL.iter().fold(0, |m, &t| m | self.bit(t))
    }
}

/// The inbound permission windows of a die (`inbound_windows` block): a window matches a
/// die-local address `a` when it is enabled and `(a ^ base) & mask == 0`; the first-refusal
/// capture and the refusal counter.
#[derive(Debug, Clone)]
pub struct InboundLayout {
    /// First refusal: VALID (W1C), WRITE and PORT (RO).
    pub err_status: Register,
    pub err_valid: Field,
    pub err_write: Field,
    pub err_port: Field,
    /// The captured routed address, low and high word (one RO field each).
    pub err_addr_lo: Register,
    pub err_addr_hi: Register,
    /// Saturating refusal counter (RO).
    pub err_count: Register,
    pub count: Field,
    /// Interrupt enable (RW) and the counter's clear (W1P).
    pub err_ctrl: Register,
    pub irq_enable: Field,
    pub count_clear: Field,
    /// The windows.
    pub window: Bundle,
    pub ctrl: Register,
    pub enable: Field,
    pub read: Field,
    pub write: Field,
    pub base_lo: Register,
    pub base_hi: Register,
    pub mask_lo: Register,
    pub mask_hi: Register,
    /// `Parameters.DefaultWindows` as written (resolved against the die map into
    /// `Views::inbound_defaults`).
    pub default_names: Vec<String>,
}

impl InboundLayout {
    /// Windows the block has.
    pub fn windows(&self) -> u64 {
        self.window.count
    }
    /// The ctrl word of a window with the given permissions.
    pub fn ctrl_value(&self, enable: bool, read: bool, write: bool) -> u32 {
        let bit = |f: &Field, on: bool| if on { f.reg_mask() } else { 0 };
        bit(&self.enable, enable) | bit(&self.read, read) | bit(&self.write, write)
    }
    /// Bits of a window's base and mask (lo and hi words together).
    pub fn addr_width(&self) -> u32 {
        [&self.base_lo, &self.base_hi]
            .iter()
            .flat_map(|r| &r.fields)
            .map(|f| f.width)
            .sum()
    }
}

/// One inbound window: base and mask over the die-local address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InboundWindow {
    pub base: u64,
    pub mask: u64,
}

impl InboundWindow {
    /// Whether die-local `local` matches the window.
    pub fn covers(&self, local: u64) -> bool {
        (local ^ self.base) & self.mask == 0
    }
}

/// A window the inbound block enables at reset, with the name it was given by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundDefault {
    pub name: String,
    pub window: InboundWindow,
}
