/*
 * xdie reference firmware: rdma_desc_gen (ExtendedInst op 8) and rdma_desc_start (op 9) of one
 * Q7 context, on a small memory-mapped HAL.
 *
 * C11, freestanding: only <stdint.h> and <stddef.h>, no allocation, no globals. Every offset,
 * count and field position comes from the generated headers (include/xdie_regs.h and
 * include/xdie_soc_addr.h, built with XDIE_SYSTEM_VIEW set to the system's address view).
 *
 * The platform provides three functions (the HAL) and the memory of two structures:
 *   - xdie_fw_system: what every context of the system shares: the ring bookkeeping of every
 *     die, since a leg's two contexts (on different packages in a mesh) both write rings of its
 *     TX die, and two legs with one TX die may be run from different packages. Its size depends
 *     on the number of packages (xdie_fw_system_size);
 *   - xdie_fw_ctx: one Q7 context (PRID), with its queue of gens awaiting their start.
 * A context reaches its own die through the host port's direct window and every other die
 * through one remap window it owns (programmed on demand).
 */
#ifndef XDIE_FW_H
#define XDIE_FW_H

#include <stddef.h>
#include <stdint.h>

#include "xdie_regs.h"
#include "xdie_soc_addr.h"

/* ---- HAL: provided by the platform. `plat` is the context's `plat` pointer. xt addresses are
 * the Q7-visible 32-bit space of the context's die (direct window and remap windows). */
uint32_t xdie_hal_read32(void *plat, uint32_t xt);
void xdie_hal_write32(void *plat, uint32_t xt, uint32_t value);
/* Let about `cycles` clock cycles pass without a bus access (poll back-off). */
void xdie_hal_wait(void *plat, uint32_t cycles);

/* ---- results */
enum xdie_fw_status {
    XDIE_FW_OK = 0,
    XDIE_FW_ERR_SUB_OPCODE,  /* the word is not this op */
    XDIE_FW_ERR_ROLE,        /* role is neither RX (0) nor TX (1) */
    XDIE_FW_ERR_PARITY,      /* role differs from PRID parity (hard error) */
    XDIE_FW_ERR_GEOMETRY,    /* partitions, lengths, engines, queue or semaphores out of range */
    XDIE_FW_ERR_UNEVEN,      /* partitions do not split evenly over the engines */
    XDIE_FW_ERR_UNROUTABLE,  /* the peer cannot be reached in this address view */
    XDIE_FW_ERR_RING_FULL,   /* a ring has no room for this leg */
    XDIE_FW_ERR_NO_GEN,      /* start without a pending gen, or too many pending gens */
    XDIE_FW_ERR_MISMATCH,    /* start names another mask, queue, side or peer than its gen */
    XDIE_FW_ERR_COUNT,       /* DescriptorStream wrote `detail[0]`, expected `detail[1]` */
    XDIE_FW_ERR_TIMEOUT,     /* a wait exceeded the context's poll budget */
    XDIE_FW_ERR_UNSUPPORTED, /* an option this build does not implement */
    XDIE_FW_ERR_SEQ,         /* a sequencer slot refused the command (STATUS.ERR) */
    XDIE_FW_ERR_CHIP         /* a chip id is not in the system (or listed twice, or too large) */
};

/* ---- limits of the bookkeeping (the platform owns the memory) */
#if XDIE_SYSTEM_VIEW == XDIE_VIEW_NEIGHBOR
#define XDIE_FW_DIES        (1u << XDIE_NEIGHBOR_DIE_WIDTH) /* dies of one package */
#else
#define XDIE_FW_DIES        (1u << XDIE_LOCAL_DIE_WIDTH)
#endif
#define XDIE_FW_ENGINES     XDIE_MAP_SDMA_ENGINES
#define XDIE_FW_QUEUES      XDIE_UDMA_M2S_M2S_Q_COUNT
#define XDIE_FW_MAX_CHIPS   XDIE_SOC_CHIP_IDS
/* Gens awaiting their start, per context: enough for a context to write the descriptors of
 * every leg of an 8-rank ring all-reduce (14 steps of 4 legs) before it starts the first. */
#define XDIE_FW_MAX_PENDING 64u
#define XDIE_FW_WINDOW_BITS 24u                         /* xt bytes one remap window covers */
_Static_assert(((uint64_t)XDIE_REMAP_WINDOWS_WIN_COUNT << XDIE_FW_WINDOW_BITS) <=
                   XDIE_MAP_HOST_DIRECT_BASE,
               "every remap window's xt range lies below the direct window");

/* How a start announces its descriptors (the start word's `launch` field): one tail increment
 * per engine, or one write to the die's broadcast doorbell (seed 4.4) for every engine of the
 * mask. The broadcast mask and queue registers are shared by the die: one broadcast start at a
 * time per die. */
enum xdie_fw_launch { XDIE_FW_LAUNCH_PER_ENGINE = 0, XDIE_FW_LAUNCH_BROADCAST = 1 };

/* How a context waits (left_pop, chain waits) and signals (right_push) semaphores.
 * XDIE_FW_WAIT_SEQ uses the die's sequencer command slots (block sem_seq): the context owns slot
 * PRID on every die, posts (semaphore, subop, value) there and polls the slot's STATUS until the
 * hardware has taken the command; wait_ge_and_dec is then atomic against every other waiter. */
enum xdie_fw_wait_mode {
    XDIE_FW_WAIT_POLL = 0, /* poll READ, then write DEC: not atomic (one waiter per semaphore);
                              signals are stores to the INC window */
    XDIE_FW_WAIT_SEQ = 1   /* the sequencer command slots: atomic waits, sequencer incs */
};

/* Software position of one ring: absolute descriptor counts since reset. */
struct xdie_fw_ring {
    uint32_t written; /* descriptors written by software */
    uint32_t claimed; /* descriptors handed to a start */
};

struct xdie_fw_system {
    uint32_t ring_len;     /* descriptors per ring (every engine, side and queue) */
    uint32_t core_die_bit; /* bit of a core id that names its die (seed 7.2: peer = s ^ 2) */
    uint32_t n_chips;      /* packages of the system */
    uint8_t chip_slot[XDIE_FW_MAX_CHIPS]; /* per chip id: 1 + its index in `rings`, 0 if absent */
    /* [n_chips][XDIE_FW_DIES][XDIE_FW_ENGINES][2][XDIE_FW_QUEUES], chips in the order given */
    struct xdie_fw_ring rings[];
};

struct xdie_fw_pending {
    uint32_t mask;
    uint32_t queue;
    uint32_t tx_chip;
    uint32_t tx_die;
    uint32_t side;       /* XDIE_FW_M2S (a TX gen) or XDIE_FW_S2M (RX) */
    uint32_t per_engine; /* descriptors each engine's ring got */
};

struct xdie_fw_ctx {
    void *plat;                  /* handed to every HAL call */
    struct xdie_fw_system *sys;
    uint32_t chip;               /* chip id (CAYMAN_ID) of this core's package */
    uint32_t core;               /* core id in the package */
    uint32_t prid;               /* 2 * core + lane */
    uint32_t window;             /* remap window this context owns on its die */
    uint32_t wait_mode;          /* enum xdie_fw_wait_mode */
    uint32_t poll_cycles;        /* back-off between two polls */
    uint32_t max_polls;          /* 0: wait forever */
    uint64_t window_block;       /* SoC block the window maps now */
    uint32_t window_valid;
    uint32_t first_pending;      /* oldest pending gen: pending[] is a FIFO of this origin */
    uint32_t n_pending;
    struct xdie_fw_pending pending[XDIE_FW_MAX_PENDING];
    uint32_t detail[2];          /* numbers of the last error (XDIE_FW_ERR_COUNT: wrote, expected) */
};

/* Decoded op 8 / op 9 words (field offsets from csrs/ext_inst.yaml). */
struct xdie_fw_gen_word {
    /* accumulate: one of the XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_* codes of xdie_regs.h: the RX
     * side writes the data, or adds it into its SBUF through that lane type's accumulate
     * aperture (docs/collectives.md). */
    uint32_t role, dma_engine_mask, free_dim_bytes, partitions, queue, accumulate, local_sem,
        remote_sem;
    uint32_t remote_core_id, remote_routing_id;
    uint64_t src_addr, dst_addr, peer_base;
};

struct xdie_fw_start_word {
    uint32_t role, dma_engine_mask, num_descriptors, queue, launch, go_sem, local_sem, remote_sem;
    uint32_t remote_core_id, remote_routing_id;
    uint64_t dst_addr;
};

/* ---- setup */
/* The system of the `n_chips` packages `chips` (CAYMAN_IDs, each once): the platform provides
 * xdie_fw_system_size(n_chips) bytes, aligned for uint32_t. XDIE_FW_ERR_CHIP for an empty,
 * too long or repeating list or an id above XDIE_FW_MAX_CHIPS - 1; the memory is then unusable. */
int xdie_fw_system_init(struct xdie_fw_system *sys, uint32_t ring_len, uint32_t core_die_bit,
                        const uint32_t *chips, uint32_t n_chips);
void xdie_fw_ctx_init(struct xdie_fw_ctx *ctx, struct xdie_fw_system *sys, void *plat,
                      uint32_t chip, uint32_t core, uint32_t prid, uint32_t window);

/* Options of a context (defaults: polled waits, 64-cycle back-off, no poll budget), and
 * accessors for platforms that treat the structures as opaque memory. */
void xdie_fw_ctx_options(struct xdie_fw_ctx *ctx, uint32_t wait_mode, uint32_t poll_cycles,
                         uint32_t max_polls);
uint32_t xdie_fw_ctx_detail(const struct xdie_fw_ctx *ctx, uint32_t i);
size_t xdie_fw_ctx_size(void);
size_t xdie_fw_system_size(uint32_t n_chips);
/* How many gens a context may hold before their starts (XDIE_FW_MAX_PENDING). */
uint32_t xdie_fw_max_pending(void);

/* ---- the two primitives; `word` is the 64-byte ExtendedInst word */
int xdie_fw_rdma_desc_gen(struct xdie_fw_ctx *ctx, const uint8_t *word);
int xdie_fw_rdma_desc_start(struct xdie_fw_ctx *ctx, const uint8_t *word);
/* Sequencer wait on this context's own EVT_SEM: wait until sem >= value, then subtract value. */
int xdie_fw_wait_ge_and_dec(struct xdie_fw_ctx *ctx, uint32_t sem, uint32_t value);
/* Signal: add `value` to semaphore `sem` of the die of core `core` of this package (right_push
 * is one). */
int xdie_fw_sem_inc(struct xdie_fw_ctx *ctx, uint32_t core, uint32_t sem, uint32_t value);

/* ---- word codec (also used by tests to check the layouts against the model) */
int xdie_fw_decode_gen(const uint8_t *word, struct xdie_fw_gen_word *out);
int xdie_fw_decode_start(const uint8_t *word, struct xdie_fw_start_word *out);
void xdie_fw_encode_gen(const struct xdie_fw_gen_word *w, uint8_t *word);
void xdie_fw_encode_start(const struct xdie_fw_start_word *w, uint8_t *word);

/* ---- where rings live (die-local addresses; the same placement on every die) */
uint64_t xdie_fw_ring_base(const struct xdie_fw_system *sys, uint32_t engine, uint32_t side,
                           uint32_t queue);
uint64_t xdie_fw_const_one_addr(const struct xdie_fw_system *sys);
/* Software position of ring (engine, side, queue) of die (chip, die): descriptors written and
 * handed to a start since reset. XDIE_FW_ERR_CHIP / XDIE_FW_ERR_GEOMETRY if there is no such
 * ring. */
int xdie_fw_ring_position(const struct xdie_fw_system *sys, uint32_t chip, uint32_t die,
                          uint32_t engine, uint32_t side, uint32_t queue, uint32_t *written,
                          uint32_t *claimed);

/* Sides of an engine, as indices. */
#define XDIE_FW_M2S 0u
#define XDIE_FW_S2M 1u

#endif /* XDIE_FW_H */
