//! The names the code relies on, as enums: roles of bundles, registers and fields, and the
//! apertures of the die map. Each enum has one table giving its spelling in `csrs/`, so parsing
//! (in the loader) and printing (docs, error messages) cannot disagree.

/// An enum with one spelling per variant: `as_str`, `parse`, `ALL` and `Display` from one table.
macro_rules! named_enum {
    ($(#[$meta:meta])* $ty:ident { $($(#[$vmeta:meta])* $v:ident = $s:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $ty {
            $($(#[$vmeta])* $v),*
        }

        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$v),*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$v => $s),*
                }
            }

            pub fn parse(s: &str) -> Option<$ty> {
                match s {
                    $($s => Some($ty::$v),)*
                    _ => None,
                }
            }

            /// Every spelling, comma separated (for error messages and docs).
            pub fn spellings() -> String {
                Self::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_enum!(
    /// What a bundle of a block is for.
    BundleRole {
        Event = "event",
        SemRead = "sem_read",
        SemSet = "sem_set",
        SemInc = "sem_inc",
        SemDec = "sem_dec",
        Queue = "queue",
        Region = "region",
        Window = "window",
        Slot = "slot",
        Route = "route",
    }
);

named_enum!(
    /// What a register is for; the block kind's template gives it its behaviour.
    RegRole {
        Cfg = "cfg",
        Status = "status",
        RingBaseLo = "ring_base_lo",
        RingBaseHi = "ring_base_hi",
        RingLen = "ring_len",
        Head = "head",
        TailInc = "tail_inc",
        Tail = "tail",
        SwCtrl = "sw_ctrl",
        ErrLog = "err_log",
        Group = "group",
        Queue = "queue",
        M2sInc = "m2s_inc",
        S2mInc = "s2m_inc",
        Ctrl = "ctrl",
        BaseLo = "base_lo",
        BaseHi = "base_hi",
        LimitLo = "limit_lo",
        LimitHi = "limit_hi",
        TargetLo = "target_lo",
        TargetHi = "target_hi",
        LinkStatus = "link_status",
        XtAddr = "xt_addr",
        SocLo = "soc_lo",
        SocHi = "soc_hi",
        UMask = "u_mask",
        LMask = "l_mask",
        Mask = "mask",
        Match = "match",
        ReplaceLo = "replace_lo",
        ReplaceHi = "replace_hi",
        Value = "value",
        Cmd = "cmd",
        Entry = "entry",
        IntrRaw = "intr_raw",
        IntrMask = "intr_mask",
        IntrStatus = "intr_status",
        CrcThreshold = "crc_threshold",
        CreditTimeout = "credit_timeout",
        FlitCrcCount = "flit_crc_count",
        DllpCrcCount = "dllp_crc_count",
        ReplayCount = "replay_count",
        CounterClear = "counter_clear",
        ErrStatus = "err_status",
        ErrAddrLo = "err_addr_lo",
        ErrAddrHi = "err_addr_hi",
        ErrCount = "err_count",
        ErrCtrl = "err_ctrl",
        MaskLo = "mask_lo",
        MaskHi = "mask_hi",
    }
);

named_enum!(
    /// What a field of a register is for.
    FieldRole {
        Enable = "enable",
        Used = "used",
        Overrun = "overrun",
        Full = "full",
        Addr = "addr",
        Len = "len",
        Offset = "offset",
        RingId = "ring_id",
        Inc = "inc",
        RstTail = "rst_tail",
        RstHead = "rst_head",
        RstQ = "rst_q",
        RingIdErr = "ring_id_err",
        Mask = "mask",
        Queue = "queue",
        LinkUp = "link_up",
        Credits = "credits",
        Valid = "valid",
        Mode = "mode",
        Value = "value",
        Sem = "sem",
        Subop = "subop",
        Busy = "busy",
        Err = "err",
        Port = "port",
        CrcErr = "crc_err",
        Replay = "replay",
        LinkDown = "link_down",
        CreditTimeout = "credit_timeout",
        Count = "count",
        FlitCrc = "flit_crc",
        DllpCrc = "dllp_crc",
        Read = "read",
        Write = "write",
        CountClear = "count_clear",
    }
);

named_enum!(
    /// The apertures of the die map the decoder, the datapath, the model and the testbench
    /// address; the loader requires each one.
    ApertureId {
        Sbuf = "SBUF",
        SbufAccI32 = "SBUF_ACC_I32",
        SbufAccF32 = "SBUF_ACC_F32",
        Hbm = "HBM",
        EvtSem = "EVT_SEM",
        SemSeq = "SEM_SEQ",
        SdmaM2s = "SDMA_M2S",
        SdmaS2m = "SDMA_S2M",
        SdmaBcast = "SDMA_BCAST",
        D2d = "D2D",
        XtWindow = "XT_WINDOW",
        Route = "ROUTE",
        D2dHealth = "D2D_HEALTH",
        Inbound = "INBOUND",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for r in RegRole::ALL {
            assert_eq!(RegRole::parse(r.as_str()), Some(*r));
        }
        for r in FieldRole::ALL {
            assert_eq!(FieldRole::parse(r.as_str()), Some(*r));
        }
        for r in BundleRole::ALL {
            assert_eq!(BundleRole::parse(r.as_str()), Some(*r));
        }
        for a in ApertureId::ALL {
            assert_eq!(ApertureId::parse(a.as_str()), Some(*a));
        }
        assert_eq!(RegRole::parse("soc_high"), None);
    }
}
