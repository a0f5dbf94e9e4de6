//! The typed views of the die every layer reads: die-map parameters as named fields, the
//! apertures the code addresses, the layouts of the blocks behind them, the descriptor and
//! ExtendedInst fields, the SoC-address fields and folds. Resolved and checked once by the loader
//! (`load::views`); the helpers below are the one place the address arithmetic lives.

use crate::layouts::{
    BcastLayout, EvtSemLayout, HealthLayout, IatuLayout, InboundDefault, InboundLayout,
    InboundWindow, RemapLayout, RouteLayout, SemOp, SemSeqLayout, UdmaLayout,
};
use crate::model::{
    Aperture, BitField, DescFormat, ExtWord, Fold, Register, RingRules, Side, SocAddress, WordField,
};
use crate::roles::ApertureId;

/// A struct of named `u64` fields, one per die-map parameter, with the table of their names.
macro_rules! die_params {
    ($($(#[$doc:meta])* $field:ident = $name:literal),* $(,)?) => {
        /// The die-map parameters the code uses (`address_map.*` `parameters`), by name once.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct DieParams {
            $($(#[$doc])* pub $field: u64,)*
        }

        impl DieParams {
            /// The parameter names the loader requires, in field order.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// Fill every field from `get(name)`; the first error stops.
            pub(crate) fn resolve<E>(mut get: impl FnMut(&'static str) -> Result<u64, E>) -> Result<DieParams, E> {
                Ok(DieParams { $($field: get($name)?,)* })
            }
        }
    };
}

die_params!(
    /// SBUF partitions.
    sbuf_partitions = "SBUF_PARTITIONS",
    /// Address distance between two SBUF partitions (bytes).
    sbuf_partition_stride = "SBUF_PARTITION_STRIDE",
    /// SDMA engines per die.
    sdma_engines = "SDMA_ENGINES",
    /// Bytes of one ring descriptor.
    desc_bytes = "DESC_BYTES",
    /// Bytes backed per SBUF partition in simulation.
    sbuf_backing_bytes = "SBUF_BACKING_BYTES",
    /// Bytes per beat of the internal bus and per link flit.
    data_bytes = "DATA_BYTES",
    /// Host-port xt addresses at or above this reach die-local (xt - base) directly.
    host_direct_base = "HOST_DIRECT_BASE",
    /// Cycles a flit takes to cross the die-to-die link.
    link_latency = "LINK_LATENCY",
    /// Receive buffer depth per link channel (credits).
    link_credits = "LINK_CREDITS",
);

/// A struct with one `Aperture` per `ApertureId`.
macro_rules! die_apertures {
    ($($field:ident = $id:ident),* $(,)?) => {
        /// The apertures of the die map the code addresses.
        #[derive(Debug, Clone)]
        pub struct DieApertures {
            $(pub $field: Aperture,)*
        }

        impl DieApertures {
            pub fn get(&self, id: ApertureId) -> &Aperture {
                match id {
                    $(ApertureId::$id => &self.$field,)*
                }
            }

            pub(crate) fn resolve<E>(mut get: impl FnMut(ApertureId) -> Result<Aperture, E>) -> Result<DieApertures, E> {
                Ok(DieApertures { $($field: get(ApertureId::$id)?,)* })
            }
        }
    };
}

die_apertures!(
    sbuf = Sbuf,
    sbuf_acc_i32 = SbufAccI32,
    sbuf_acc_f32 = SbufAccF32,
    hbm = Hbm,
    evt_sem = EvtSem,
    sem_seq = SemSeq,
    sdma_m2s = SdmaM2s,
    sdma_s2m = SdmaS2m,
    sdma_bcast = SdmaBcast,
    d2d = D2d,
    xt_window = XtWindow,
    route = Route,
    d2d_health = D2dHealth,
    inbound = Inbound,
);

/// A ring descriptor format with the fields the engines and the model use.
#[derive(Debug, Clone)]
pub struct DescLayout {
    pub format: DescFormat,
    pub len: BitField,
    pub ring_id: BitField,
    pub buf_ptr: BitField,
    /// Only the M2S format has one (the loader requires it there).
    pub write_barrier: Option<BitField>,
}

/// A struct of named `WordField`s of one ExtendedInst word, with the word's name and the table of
/// field names.
macro_rules! word_layout {
    ($(#[$doc:meta])* $ty:ident = $word:literal { $($f:ident),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $ty {
            pub word: ExtWord,
            pub sub_opcode: WordField,
            $(pub $f: WordField,)*
        }

        impl $ty {
            pub const WORD: &'static str = $word;
            /// Every field the code reads, `sub_opcode` first.
            pub const FIELDS: &'static [&'static str] = &["sub_opcode", $(stringify!($f)),*];

            pub(crate) fn resolve<E>(
                word: &ExtWord,
                mut get: impl FnMut(&'static str) -> Result<WordField, E>,
            ) -> Result<$ty, E> {
                Ok($ty { word: word.clone(), sub_opcode: get("sub_opcode")?, $($f: get(stringify!($f))?,)* })
            }
        }
    };
}

word_layout!(
    /// rdma_desc_gen (op 8).
    GenWordLayout = "rdma_desc_gen" {
        role,
        dma_engine_mask,
        free_dim_bytes,
        partitions,
        queue,
        accumulate,
        local_sem,
        remote_sem,
        remote_core_id,
        remote_routing_id,
        src_addr,
        dst_addr,
        peer_base,
    }
);

word_layout!(
    /// rdma_desc_start (op 9).
    StartWordLayout = "rdma_desc_start" {
        role,
        dma_engine_mask,
        num_descriptors,
        queue,
        launch,
        go_sem,
        local_sem,
        remote_sem,
        remote_core_id,
        remote_routing_id,
        dst_addr,
    }
);

/// The chip-id routed view of the SoC address.
#[derive(Debug, Clone)]
pub struct LocalView {
    pub name: String,
    pub local: BitField,
    pub die: BitField,
    pub cayman_id: BitField,
    pub cayman_id_valid: BitField,
}

/// The neighbor-routed view of the SoC address.
#[derive(Debug, Clone)]
pub struct NeighborView {
    pub name: String,
    pub local: BitField,
    pub die: BitField,
    pub exit_seng: BitField,
    pub exit_die: BitField,
    pub neighbor_route: BitField,
    pub id_valid: BitField,
}

/// The SoC-address fields and folds the code uses.
#[derive(Debug, Clone)]
pub struct SocLayout {
    pub address: SocAddress,
    pub local: LocalView,
    pub neighbor: NeighborView,
    /// (dst_local, peer_die): the other die of this package, by neighbor routing.
    pub fold_neighbor: Fold,
    /// (dst_local, peer_die, chip_id): a die of another package, by chip id.
    pub fold_chip_id: Fold,
}

impl SocLayout {
    /// Die-local `local` on die `die` seen from the same package: LOCAL and DIE, no routing bits.
    pub fn soc_local(&self, die: u64, local: u64) -> u64 {
        let a = self.local.local.set(0, u128::from(local));
        self.local.die.set(a, u128::from(die)) as u64
    }
    /// `local` on `peer_die` of this package, reached by neighbor routing.
    pub fn fold_neighbor(&self, local: u64, peer_die: u64) -> u64 {
        self.address
            .apply_fold(&self.fold_neighbor, &[local, peer_die])
    }
    /// `local` on `peer_die` of package `chip`, reached by chip id.
    pub fn fold_chip_id(&self, local: u64, peer_die: u64, chip: u64) -> u64 {
        self.address
            .apply_fold(&self.fold_chip_id, &[local, peer_die, chip])
    }
    /// The die-local part of a SoC address.
    pub fn local_of(&self, addr: u64) -> u64 {
        self.local.local.get(u128::from(addr)) as u64
    }
    /// Dies per package (the DIE field's range).
    pub fn dies_per_package(&self) -> u64 {
        1u64 << self.local.die.width
    }
}

/// One side of the SDMA engines: its aperture and the layout of its queue-group block.
#[derive(Debug, Clone)]
pub struct SideView {
    pub aperture: Aperture,
    pub layout: UdmaLayout,
}

impl SideView {
    /// Die-local address of queue `queue`'s register `reg` on engine `engine`.
    pub fn queue_reg(&self, engine: u64, queue: u64, reg: &Register) -> u64 {
        self.aperture.instance_base(engine) + self.layout.queue_reg(queue, reg)
    }
    /// Die-local address of the tail-increment doorbell of `queue` on `engine`.
    pub fn doorbell(&self, engine: u64, queue: u64) -> u64 {
        self.queue_reg(engine, queue, &self.layout.tail_inc)
    }
}

/// The lane type of an SBUF accumulate aperture; the gen word's `accumulate` field names its code
/// ([`AccCodes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccDtype {
    /// 32-bit two's-complement lanes, wrapping addition.
    I32,
    /// IEEE 754 binary32 lanes.
    F32,
}

impl AccDtype {
    pub const ALL: [AccDtype; 2] = [AccDtype::I32, AccDtype::F32];

    /// Bytes of one lane.
    pub fn lane_bytes(self) -> u64 {
        4
    }

    /// The name used in scenarios and reports.
    pub fn name(self) -> &'static str {
        match self {
            AccDtype::I32 => "int32",
            AccDtype::F32 => "fp32",
        }
    }
}

/// How the RX side of a leg lands its data: the codes of the gen word's `accumulate` field, named
/// in ext_inst by its `values` (`write` and each lane type's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccCodes {
    /// The data is written.
    pub write: u64,
    /// The data is added as int32 lanes.
    pub i32: u64,
    /// The data is added as fp32 lanes.
    pub f32: u64,
}

impl AccCodes {
    /// The value name of the plain write.
    pub const WRITE: &'static str = "write";

    /// The code of a plain write (None) or of an accumulate lane type.
    pub fn code(&self, acc: Option<AccDtype>) -> u64 {
        match acc {
            None => self.write,
            Some(AccDtype::I32) => self.i32,
            Some(AccDtype::F32) => self.f32,
        }
    }

    /// Every way data can land: a plain write (None), then each lane type.
    fn meanings() -> impl Iterator<Item = Option<AccDtype>> {
        std::iter::once(None).chain(AccDtype::ALL.into_iter().map(Some))
    }

    /// What a code means: Some(None) a plain write, Some(Some(d)) an add as `d`, None no code.
    pub fn decode(&self, code: u64) -> Option<Option<AccDtype>> {
        Self::meanings().find(|&acc| self.code(acc) == code)
    }

    /// Every code with its name, for messages.
    pub fn describe(&self) -> String {
        Self::meanings()
            .map(|acc| {
                let name = acc.map_or(Self::WRITE, AccDtype::name);
                format!("{} ({name})", self.code(acc))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What a die-local address selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Byte `offset` of partition `partition` of core `core`'s SBUF.
    Sbuf {
        core: u64,
        partition: u64,
        offset: u64,
    },
    /// An SBUF accumulate aperture: the data is added lane by lane into core `core`'s SBUF
    /// partition `partition` at byte `offset`.
    SbufAcc {
        dtype: AccDtype,
        core: u64,
        partition: u64,
        offset: u64,
    },
    Hbm,
    /// Semaphore `sem` of core `core`'s EVT_SEM, in window `op`.
    Sem {
        core: u64,
        op: SemOp,
        sem: u64,
        aligned: bool,
    },
    /// Another register of an EVT_SEM (events).
    OtherRegister,
}

/// Everything the code knows about one die, typed.
#[derive(Debug, Clone)]
pub struct Views {
    pub params: DieParams,
    pub apertures: DieApertures,
    pub evt_sem: EvtSemLayout,
    /// The sequencer command slots in front of EVT_SEM's sequencer port.
    pub sem_seq: SemSeqLayout,
    pub m2s: SideView,
    pub s2m: SideView,
    pub bcast: BcastLayout,
    pub iatu: IatuLayout,
    pub remap: RemapLayout,
    pub route: RouteLayout,
    /// The link-health interrupt block of every D2D controller (aperture D2D_HEALTH).
    pub health: HealthLayout,
    /// The inbound permission windows of the die (aperture INBOUND).
    pub inbound: InboundLayout,
    /// The windows the inbound block enables at reset (READ and WRITE), in window order.
    pub inbound_defaults: Vec<InboundDefault>,
    pub m2s_desc: DescLayout,
    pub s2m_desc: DescLayout,
    pub ring: RingRules,
    pub gen_word: GenWordLayout,
    /// The codes of the gen word's `accumulate` field.
    pub acc_codes: AccCodes,
    pub start_word: StartWordLayout,
    pub soc: SocLayout,
}

impl Views {
    pub fn side(&self, side: Side) -> &SideView {
        match side {
            Side::M2s => &self.m2s,
            Side::S2m => &self.s2m,
        }
    }
    pub fn desc(&self, side: Side) -> &DescLayout {
        match side {
            Side::M2s => &self.m2s_desc,
            Side::S2m => &self.s2m_desc,
        }
    }
    /// SDMA engines per die.
    pub fn engines(&self) -> u64 {
        self.params.sdma_engines
    }
    /// Queues every engine offers on both sides.
    pub fn queues(&self) -> u64 {
        self.m2s.layout.queues().min(self.s2m.layout.queues())
    }
    /// NeuronCores per die: the SBUF aperture's instances (each core has its own SBUF, EVT_SEM
    /// and accumulate apertures, instance c being core c's).
    pub fn cores(&self) -> u64 {
        self.apertures.sbuf.count
    }
    /// Die-local address of byte `b` of partition `p` of core `core`'s SBUF.
    pub fn sbuf_addr(&self, core: u64, p: u64, b: u64) -> u64 {
        self.apertures.sbuf.instance_base(core) + p * self.params.sbuf_partition_stride + b
    }
    /// The accumulate aperture of a lane type.
    pub fn acc_aperture(&self, dtype: AccDtype) -> &Aperture {
        match dtype {
            AccDtype::I32 => &self.apertures.sbuf_acc_i32,
            AccDtype::F32 => &self.apertures.sbuf_acc_f32,
        }
    }
    /// Die-local address that adds into byte `b` of partition `p` of core `core`'s SBUF as
    /// `dtype` lanes.
    pub fn sbuf_acc_addr(&self, dtype: AccDtype, core: u64, p: u64, b: u64) -> u64 {
        self.acc_aperture(dtype).instance_base(core) + p * self.params.sbuf_partition_stride + b
    }
    /// Die-local address of HBM byte `b`.
    pub fn hbm_addr(&self, b: u64) -> u64 {
        self.apertures.hbm.base + b
    }
    /// Die-local address of semaphore `sem`'s register in window `op` of core `core`'s EVT_SEM.
    pub fn sem_addr(&self, core: u64, op: SemOp, sem: u64) -> u64 {
        self.apertures.evt_sem.instance_base(core) + self.evt_sem.sem_offset(op, sem)
    }
    /// The sequencer command slot of the context of core `core` (of its die) in lane `lane`
    /// (0 or 1, the PRID parity): one per context of the die, so no two contexts of a system
    /// share one.
    pub fn sem_seq_slot(&self, core: u64, lane: u64) -> u64 {
        2 * core + lane
    }
    /// Die-local address of register `reg` of sequencer command slot `slot`.
    pub fn sem_seq_reg(&self, slot: u64, reg: &Register) -> u64 {
        self.apertures.sem_seq.base + self.sem_seq.slot_reg(slot, reg)
    }
    /// Semaphores per EVT_SEM.
    pub fn sem_count(&self) -> u64 {
        self.evt_sem.sem_count()
    }
    /// Die-local address of register `reg` of iATU region `region` of D2D controller `ctrl`.
    pub fn iatu_reg(&self, ctrl: u64, region: u64, reg: &Register) -> u64 {
        self.apertures.d2d.instance_base(ctrl) + self.iatu.region.reg_offset(region, reg)
    }
    /// Die-local address of the top-level register `reg` of D2D controller `ctrl`.
    pub fn iatu_top_reg(&self, ctrl: u64, reg: &Register) -> u64 {
        self.apertures.d2d.instance_base(ctrl) + reg.offset
    }
    /// Die-local address of register `reg` of remap window `w`.
    pub fn remap_reg(&self, w: u64, reg: &Register) -> u64 {
        self.apertures.xt_window.base + self.remap.window.reg_offset(w, reg)
    }
    /// Route-table index of destination die `die` of package `chip`.
    pub fn route_index(&self, chip: u64, die: u64) -> u64 {
        chip * self.soc.dies_per_package() + die
    }
    /// Die-local address of the route-table entry of destination die `die` of package `chip`.
    pub fn route_reg(&self, chip: u64, die: u64) -> u64 {
        self.apertures.route.base
            + self
                .route
                .route
                .reg_offset(self.route_index(chip, die), &self.route.entry)
    }
    /// Die-local address of the inbound block's top-level register `reg`.
    pub fn inbound_reg(&self, reg: &Register) -> u64 {
        self.apertures.inbound.base + reg.offset
    }
    /// Die-local address of register `reg` of inbound window `w`.
    pub fn inbound_win_reg(&self, w: u64, reg: &Register) -> u64 {
        self.apertures.inbound.base + self.inbound.window.reg_offset(w, reg)
    }
    /// The inbound windows at reset: (window, read, write) per window of the block.
    pub fn inbound_reset(&self) -> Vec<(InboundWindow, bool, bool)> {
        (0..self.inbound.windows() as usize)
            .map(|i| match self.inbound_defaults.get(i) {
                Some(d) => (d.window, true, true),
                None => (InboundWindow { base: 0, mask: 0 }, false, false),
            })
            .collect()
    }
    /// Ring id of absolute descriptor position `pos` of a ring of `len` descriptors.
    pub fn ring_id(&self, pos: u64, len: u64) -> u64 {
        (u64::from(self.ring.initial_ring_id) + pos / len) & ((1u64 << self.ring.ring_id_width) - 1)
    }
    /// LEN code of a descriptor moving `bytes` bytes (max_len_code is encoded as 0).
    pub fn len_code(&self, bytes: u64) -> u64 {
        if bytes == self.ring.max_len_code {
            0
        } else {
            bytes
        }
    }
    /// Bytes a LEN code moves.
    pub fn len_bytes(&self, code: u64) -> u64 {
        if code == 0 {
            self.ring.max_len_code
        } else {
            code
        }
    }
    /// Where a die-local address lands.
    pub fn decode_local(&self, local: u64) -> Option<Target> {
        let stride = self.params.sbuf_partition_stride;
        if let Some((core, off)) = self.apertures.sbuf.locate(local) {
            return Some(Target::Sbuf {
                core,
                partition: off / stride,
                offset: off % stride,
            });
        }
        for dtype in AccDtype::ALL {
            if let Some((core, off)) = self.acc_aperture(dtype).locate(local) {
                return Some(Target::SbufAcc {
                    dtype,
                    core,
                    partition: off / stride,
                    offset: off % stride,
                });
            }
        }
        if self.apertures.hbm.locate(local).is_some() {
            return Some(Target::Hbm);
        }
        if let Some((core, off)) = self.apertures.evt_sem.locate(local) {
            return Some(match self.evt_sem.decode(off) {
                Some((op, sem, aligned)) => Target::Sem {
                    core,
                    op,
                    sem,
                    aligned,
                },
                None => Target::OtherRegister,
            });
        }
        None
    }
}
