/*
 * xdie reference firmware: rdma_desc_gen / rdma_desc_start / wait_ge_and_dec of one Q7 context.
 * See xdie_fw.h for the contract and docs/firmware.md for the protocol.
 */
#include "xdie_fw.h"

/* ---- address views: one system routes in one view (xdie_soc_addr.h) */
#if XDIE_SYSTEM_VIEW == XDIE_VIEW_NEIGHBOR
#define FW_SET_LOCAL(a, v) XDIE_NEIGHBOR_SET_LOCAL(a, v)
#define FW_SET_DIE(a, v)   XDIE_NEIGHBOR_SET_DIE(a, v)
#define FW_GET_DIE(a)      XDIE_NEIGHBOR_GET_DIE(a)
#define FW_LOCAL_MASK      XDIE_NEIGHBOR_LOCAL_MASK
#else
#define FW_SET_LOCAL(a, v) XDIE_LOCAL_SET_LOCAL(a, v)
#define FW_SET_DIE(a, v)   XDIE_LOCAL_SET_DIE(a, v)
#define FW_GET_DIE(a)      XDIE_LOCAL_GET_DIE(a)
#define FW_LOCAL_MASK      XDIE_LOCAL_LOCAL_MASK
#endif

/* A register value: `v` placed in a field given by its _LSB and _MASK macros. */
#define FW_FIELD(v, lsb, mask) ((uint32_t)(((uint64_t)(v) & (mask)) << (lsb)))

#define FW_SEM_BYTES   XDIE_EVT_SEM_SEM_INC_STRIDE
#define FW_SEM_COUNT   XDIE_EVT_SEM_SEM_INC_COUNT
#define FW_DESC_WORDS  (XDIE_MAP_DESC_BYTES / 4u)
/* Rings of one package in the bookkeeping: per die, engine, side and queue. */
#define FW_RINGS_PER_CHIP ((size_t)XDIE_FW_DIES * XDIE_FW_ENGINES * 2u * XDIE_FW_QUEUES)

/* ---- little helpers */

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1u) / a * a;
}

static uint32_t popcount32(uint32_t v)
{
    uint32_t n = 0;
    while (v != 0u) {
        v &= v - 1u;
        n++;
    }
    return n;
}

static uint64_t get_le(const uint8_t *word, uint32_t off, uint32_t size)
{
    uint64_t v = 0;
    for (uint32_t i = size; i > 0u; i--) {
        v = (v << 8) | word[off + i - 1u];
    }
    return v;
}

static void put_le(uint8_t *word, uint32_t off, uint32_t size, uint64_t v)
{
    for (uint32_t i = 0; i < size; i++) {
        word[off + i] = (uint8_t)(v >> (8u * i));
    }
}

/* Insert `v` into a field of a descriptor (absolute bit position, right-aligned mask). */
static void put_field(uint32_t w[FW_DESC_WORDS], uint32_t bit, uint64_t mask, uint64_t v)
{
    v &= mask;
    while (mask != 0u && bit < 32u * FW_DESC_WORDS) {
        uint32_t idx = bit / 32u;
        uint32_t lsb = bit % 32u;
        uint32_t m = (uint32_t)(mask << lsb);
        w[idx] = (w[idx] & ~m) | ((uint32_t)(v << lsb) & m);
        uint32_t took = 32u - lsb;
        mask = took >= 64u ? 0u : mask >> took;
        v = took >= 64u ? 0u : v >> took;
        bit += took;
    }
}

/* ---- system layout (the same placement the golden model uses) */

static uint32_t die_of_core(const struct xdie_fw_system *sys, uint32_t core)
{
    return (core >> sys->core_die_bit) & 1u;
}

/* A core's index among its die's cores (the id without its die bit): the instance of its SBUF,
 * EVT_SEM and accumulate apertures. */
static uint32_t tpb_of_core(const struct xdie_fw_system *sys, uint32_t core)
{
    const uint32_t low = core & ((1u << sys->core_die_bit) - 1u);
    return ((core >> (sys->core_die_bit + 1u)) << sys->core_die_bit) | low;
}

static uint64_t ring_stride(const struct xdie_fw_system *sys)
{
    return align_up((uint64_t)sys->ring_len * XDIE_MAP_DESC_BYTES, XDIE_RING_BASE_ALIGN);
}

uint64_t xdie_fw_ring_base(const struct xdie_fw_system *sys, uint32_t engine, uint32_t side,
                           uint32_t queue)
{
    uint64_t idx = ((uint64_t)engine * 2u + side) * XDIE_FW_QUEUES + queue;
    return align_up(XDIE_AP_HBM_BASE, XDIE_RING_BASE_ALIGN) + idx * ring_stride(sys);
}

uint64_t xdie_fw_const_one_addr(const struct xdie_fw_system *sys)
{
    return xdie_fw_ring_base(sys, XDIE_FW_ENGINES, XDIE_FW_M2S, 0);
}

/* Where the RX side lands byte `offset` of partition `partition` of core `tpb`'s SBUF: SBUF
 * itself, or the core's accumulate aperture of the gen word's lane type, which mirrors it. */
static uint64_t sbuf_dst_addr(uint32_t accumulate, uint32_t tpb, uint32_t partition,
                              uint64_t offset)
{
    uint64_t base = XDIE_AP_SBUF_INST(tpb);
    if (accumulate == XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_INT32) {
        base = XDIE_AP_SBUF_ACC_I32_INST(tpb);
    } else if (accumulate == XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_FP32) {
        base = XDIE_AP_SBUF_ACC_F32_INST(tpb);
    }
    return base + (uint64_t)partition * XDIE_MAP_SBUF_PARTITION_STRIDE + offset;
}

static uint64_t sbuf_addr(uint32_t tpb, uint32_t partition, uint64_t offset)
{
    return XDIE_AP_SBUF_INST(tpb) + (uint64_t)partition * XDIE_MAP_SBUF_PARTITION_STRIDE + offset;
}

/* Semaphore `sem`'s INC window in core `tpb`'s EVT_SEM. */
static uint64_t sem_inc_addr(uint32_t tpb, uint32_t sem)
{
    return XDIE_AP_EVT_SEM_INST(tpb) + XDIE_EVT_SEM_SEM_INC_SEM_INC(sem);
}

static uint64_t soc_local(uint32_t die, uint64_t local)
{
    return FW_SET_DIE(FW_SET_LOCAL(UINT64_C(0), local), die);
}

/* The SoC address die (from_chip, from_die) issues to reach `local` of (to_chip, to_die). */
static int route(uint32_t from_chip, uint32_t from_die, uint32_t to_chip, uint32_t to_die,
                 uint64_t local, uint64_t *out)
{
    if (local > FW_LOCAL_MASK) {
        return XDIE_FW_ERR_UNROUTABLE;
    }
    if (from_chip == to_chip && from_die == to_die) {
        *out = soc_local(to_die, local);
        return XDIE_FW_OK;
    }
#if XDIE_SYSTEM_VIEW == XDIE_VIEW_NEIGHBOR
    if (from_chip != to_chip) {
        return XDIE_FW_ERR_UNROUTABLE; /* a neighbor path to another package: not in this fw */
    }
    *out = xdie_fold_neighbor(local, to_die);
#else
    if (to_chip > XDIE_LOCAL_CAYMAN_ID_MASK) {
        return XDIE_FW_ERR_UNROUTABLE;
    }
    *out = xdie_fold_chip_id(local, to_die, to_chip);
#endif
    return XDIE_FW_OK;
}

/* ---- bus access of one context */

static uint32_t my_die(const struct xdie_fw_ctx *ctx)
{
    return die_of_core(ctx->sys, ctx->core);
}

static uint32_t my_tpb(const struct xdie_fw_ctx *ctx)
{
    return tpb_of_core(ctx->sys, ctx->core);
}

static uint32_t direct(uint64_t local)
{
    return (uint32_t)(XDIE_MAP_HOST_DIRECT_BASE + local);
}

static void write_local(struct xdie_fw_ctx *ctx, uint64_t local, uint32_t v)
{
    xdie_hal_write32(ctx->plat, direct(local), v);
}

static uint32_t read_local(struct xdie_fw_ctx *ctx, uint64_t local)
{
    return xdie_hal_read32(ctx->plat, direct(local));
}

static uint64_t win_reg(uint32_t window, uint32_t offset_in_window)
{
    return XDIE_AP_XT_WINDOW_BASE + XDIE_REMAP_WINDOWS_WIN_BASE +
           (uint64_t)window * XDIE_REMAP_WINDOWS_WIN_STRIDE + offset_in_window;
}

/* Points the context's remap window at the block holding `soc`; returns the xt address. */
static uint32_t window_to(struct xdie_fw_ctx *ctx, uint64_t soc)
{
    const uint64_t low = (UINT64_C(1) << XDIE_FW_WINDOW_BITS) - 1u;
    const uint64_t block = soc & ~low;
    const uint32_t xt_base = ctx->window << XDIE_FW_WINDOW_BITS;
    if (!ctx->window_valid || ctx->window_block != block) {
        uint32_t w = ctx->window;
        write_local(ctx, win_reg(w, XDIE_REMAP_WINDOWS_WIN_SOC_ADDR_LO_OFFSET),
                    FW_FIELD(block, XDIE_REMAP_WINDOWS_WIN_SOC_ADDR_LO_ADDR_LSB,
                             XDIE_REMAP_WINDOWS_WIN_SOC_ADDR_LO_ADDR_MASK));
        write_local(ctx, win_reg(w, XDIE_REMAP_WINDOWS_WIN_SOC_ADDR_HI_OFFSET),
                    FW_FIELD(block >> 32, XDIE_REMAP_WINDOWS_WIN_SOC_ADDR_HI_ADDR_LSB,
                             XDIE_REMAP_WINDOWS_WIN_SOC_ADDR_HI_ADDR_MASK));
        if (!ctx->window_valid) {
            /* Range mode: xt [xt_base, xt_base + low] -> block + (xt & low). */
            write_local(ctx, win_reg(w, XDIE_REMAP_WINDOWS_WIN_XT_ADDR_OFFSET),
                        FW_FIELD(xt_base, XDIE_REMAP_WINDOWS_WIN_XT_ADDR_ADDR_LSB,
                                 XDIE_REMAP_WINDOWS_WIN_XT_ADDR_ADDR_MASK));
            write_local(ctx, win_reg(w, XDIE_REMAP_WINDOWS_WIN_U_MASK_OFFSET),
                        FW_FIELD(~low, XDIE_REMAP_WINDOWS_WIN_U_MASK_MASK_LSB,
                                 XDIE_REMAP_WINDOWS_WIN_U_MASK_MASK_MASK));
            write_local(ctx, win_reg(w, XDIE_REMAP_WINDOWS_WIN_L_MASK_OFFSET),
                        FW_FIELD(low, XDIE_REMAP_WINDOWS_WIN_L_MASK_MASK_LSB,
                                 XDIE_REMAP_WINDOWS_WIN_L_MASK_MASK_MASK));
            write_local(ctx, win_reg(w, XDIE_REMAP_WINDOWS_WIN_CTRL_OFFSET),
                        FW_FIELD(1u, XDIE_REMAP_WINDOWS_WIN_CTRL_VALID_LSB,
                                 XDIE_REMAP_WINDOWS_WIN_CTRL_VALID_MASK));
        }
        ctx->window_block = block;
        ctx->window_valid = 1u;
    }
    return xt_base | (uint32_t)(soc & low);
}

/* A 32-bit store to die-local `local` of die (chip, die): direct when it is this context's die,
 * through the context's remap window (routed like the data) otherwise. */
static int store(struct xdie_fw_ctx *ctx, uint32_t chip, uint32_t die, uint64_t local,
                 uint32_t v)
{
    if (chip == ctx->chip && die == my_die(ctx)) {
        write_local(ctx, local, v);
        return XDIE_FW_OK;
    }
    uint64_t soc;
    int rc = route(ctx->chip, my_die(ctx), chip, die, local, &soc);
    if (rc != XDIE_FW_OK) {
        return rc;
    }
    xdie_hal_write32(ctx->plat, window_to(ctx, soc), v);
    return XDIE_FW_OK;
}

/* A 32-bit load from die-local `local` of die (chip, die), reached as `store` reaches it. */
static int load(struct xdie_fw_ctx *ctx, uint32_t chip, uint32_t die, uint64_t local,
                uint32_t *out)
{
    if (chip == ctx->chip && die == my_die(ctx)) {
        *out = read_local(ctx, local);
        return XDIE_FW_OK;
    }
    uint64_t soc;
    int rc = route(ctx->chip, my_die(ctx), chip, die, local, &soc);
    if (rc != XDIE_FW_OK) {
        return rc;
    }
    *out = xdie_hal_read32(ctx->plat, window_to(ctx, soc));
    return XDIE_FW_OK;
}

/* ---- setup */

int xdie_fw_system_init(struct xdie_fw_system *sys, uint32_t ring_len, uint32_t core_die_bit,
                        const uint32_t *chips, uint32_t n_chips)
{
    sys->ring_len = ring_len;
    sys->core_die_bit = core_die_bit;
    sys->n_chips = 0;
    for (uint32_t c = 0; c < XDIE_FW_MAX_CHIPS; c++) {
        sys->chip_slot[c] = 0;
    }
    if (n_chips == 0u || n_chips > XDIE_FW_MAX_CHIPS) {
        return XDIE_FW_ERR_CHIP;
    }
    for (uint32_t i = 0; i < n_chips; i++) {
        if (chips[i] >= XDIE_FW_MAX_CHIPS || sys->chip_slot[chips[i]] != 0u) {
            return XDIE_FW_ERR_CHIP;
        }
        sys->chip_slot[chips[i]] = (uint8_t)(i + 1u);
    }
    sys->n_chips = n_chips;
    const size_t n = (size_t)n_chips * FW_RINGS_PER_CHIP;
    for (size_t i = 0; i < n; i++) {
        sys->rings[i].written = 0;
        sys->rings[i].claimed = 0;
    }
    return XDIE_FW_OK;
}

/* Index in sys->rings of ring (engine, side, queue) of die (chip, die); 0 if the system has no
 * such ring. */
static int ring_index(const struct xdie_fw_system *sys, uint32_t chip, uint32_t die,
                      uint32_t engine, uint32_t side, uint32_t queue, size_t *out)
{
    if (chip >= XDIE_FW_MAX_CHIPS || sys->chip_slot[chip] == 0u || die >= XDIE_FW_DIES ||
        engine >= XDIE_FW_ENGINES || side > 1u || queue >= XDIE_FW_QUEUES) {
        return 0;
    }
    *out = (size_t)(sys->chip_slot[chip] - 1u) * FW_RINGS_PER_CHIP +
           (((size_t)die * XDIE_FW_ENGINES + engine) * 2u + side) * XDIE_FW_QUEUES + queue;
    return 1;
}

int xdie_fw_ring_position(const struct xdie_fw_system *sys, uint32_t chip, uint32_t die,
                          uint32_t engine, uint32_t side, uint32_t queue, uint32_t *written,
                          uint32_t *claimed)
{
    if (chip >= XDIE_FW_MAX_CHIPS || sys->chip_slot[chip] == 0u) {
        return XDIE_FW_ERR_CHIP;
    }
    size_t i;
    if (!ring_index(sys, chip, die, engine, side, queue, &i)) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    *written = sys->rings[i].written;
    *claimed = sys->rings[i].claimed;
    return XDIE_FW_OK;
}

void xdie_fw_ctx_init(struct xdie_fw_ctx *ctx, struct xdie_fw_system *sys, void *plat,
                      uint32_t chip, uint32_t core, uint32_t prid, uint32_t window)
{
    ctx->plat = plat;
    ctx->sys = sys;
    ctx->chip = chip;
    ctx->core = core;
    ctx->prid = prid;
    ctx->window = window;
    ctx->wait_mode = XDIE_FW_WAIT_POLL;
    ctx->poll_cycles = 64u;
    ctx->max_polls = 0u;
    ctx->window_block = 0u;
    ctx->window_valid = 0u;
    ctx->first_pending = 0u;
    ctx->n_pending = 0u;
    ctx->detail[0] = 0u;
    ctx->detail[1] = 0u;
}

void xdie_fw_ctx_options(struct xdie_fw_ctx *ctx, uint32_t wait_mode, uint32_t poll_cycles,
                         uint32_t max_polls)
{
    ctx->wait_mode = wait_mode;
    ctx->poll_cycles = poll_cycles;
    ctx->max_polls = max_polls;
}

uint32_t xdie_fw_ctx_detail(const struct xdie_fw_ctx *ctx, uint32_t i)
{
    return i < 2u ? ctx->detail[i] : 0u;
}

size_t xdie_fw_ctx_size(void)
{
    return sizeof(struct xdie_fw_ctx);
}

uint32_t xdie_fw_max_pending(void)
{
    return XDIE_FW_MAX_PENDING;
}

size_t xdie_fw_system_size(uint32_t n_chips)
{
    return sizeof(struct xdie_fw_system) + (size_t)n_chips * FW_RINGS_PER_CHIP *
                                                sizeof(struct xdie_fw_ring);
}

/* ---- word codec */

#define GEN(f)   XDIE_EXT_RDMA_DESC_GEN_##f##_OFFSET, XDIE_EXT_RDMA_DESC_GEN_##f##_SIZE
#define START(f) XDIE_EXT_RDMA_DESC_START_##f##_OFFSET, XDIE_EXT_RDMA_DESC_START_##f##_SIZE

int xdie_fw_decode_gen(const uint8_t *word, struct xdie_fw_gen_word *out)
{
    if (get_le(word, GEN(SUB_OPCODE)) != XDIE_EXT_RDMA_DESC_GEN_SUB_OPCODE) {
        return XDIE_FW_ERR_SUB_OPCODE;
    }
    out->role = (uint32_t)get_le(word, GEN(ROLE));
    out->dma_engine_mask = (uint32_t)get_le(word, GEN(DMA_ENGINE_MASK));
    out->free_dim_bytes = (uint32_t)get_le(word, GEN(FREE_DIM_BYTES));
    out->partitions = (uint32_t)get_le(word, GEN(PARTITIONS));
    out->queue = (uint32_t)get_le(word, GEN(QUEUE));
    out->accumulate = (uint32_t)get_le(word, GEN(ACCUMULATE));
    out->local_sem = (uint32_t)get_le(word, GEN(LOCAL_SEM));
    out->remote_sem = (uint32_t)get_le(word, GEN(REMOTE_SEM));
    out->remote_core_id = (uint32_t)get_le(word, GEN(REMOTE_CORE_ID));
    out->remote_routing_id = (uint32_t)get_le(word, GEN(REMOTE_ROUTING_ID));
    out->src_addr = get_le(word, GEN(SRC_ADDR));
    out->dst_addr = get_le(word, GEN(DST_ADDR));
    out->peer_base = get_le(word, GEN(PEER_BASE));
    return XDIE_FW_OK;
}

void xdie_fw_encode_gen(const struct xdie_fw_gen_word *w, uint8_t *word)
{
    for (uint32_t i = 0; i < XDIE_EXT_RDMA_DESC_GEN_BYTES; i++) {
        word[i] = 0;
    }
    put_le(word, GEN(SUB_OPCODE), XDIE_EXT_RDMA_DESC_GEN_SUB_OPCODE);
    put_le(word, GEN(ROLE), w->role);
    put_le(word, GEN(DMA_ENGINE_MASK), w->dma_engine_mask);
    put_le(word, GEN(FREE_DIM_BYTES), w->free_dim_bytes);
    put_le(word, GEN(PARTITIONS), w->partitions);
    put_le(word, GEN(QUEUE), w->queue);
    put_le(word, GEN(ACCUMULATE), w->accumulate);
    put_le(word, GEN(LOCAL_SEM), w->local_sem);
    put_le(word, GEN(REMOTE_SEM), w->remote_sem);
    put_le(word, GEN(REMOTE_CORE_ID), w->remote_core_id);
    put_le(word, GEN(REMOTE_ROUTING_ID), w->remote_routing_id);
    put_le(word, GEN(SRC_ADDR), w->src_addr);
    put_le(word, GEN(DST_ADDR), w->dst_addr);
    put_le(word, GEN(PEER_BASE), w->peer_base);
}

int xdie_fw_decode_start(const uint8_t *word, struct xdie_fw_start_word *out)
{
    if (get_le(word, START(SUB_OPCODE)) != XDIE_EXT_RDMA_DESC_START_SUB_OPCODE) {
        return XDIE_FW_ERR_SUB_OPCODE;
    }
    out->role = (uint32_t)get_le(word, START(ROLE));
    out->dma_engine_mask = (uint32_t)get_le(word, START(DMA_ENGINE_MASK));
    out->num_descriptors = (uint32_t)get_le(word, START(NUM_DESCRIPTORS));
    out->queue = (uint32_t)get_le(word, START(QUEUE));
    out->launch = (uint32_t)get_le(word, START(LAUNCH));
    out->go_sem = (uint32_t)get_le(word, START(GO_SEM));
    out->local_sem = (uint32_t)get_le(word, START(LOCAL_SEM));
    out->remote_sem = (uint32_t)get_le(word, START(REMOTE_SEM));
    out->remote_core_id = (uint32_t)get_le(word, START(REMOTE_CORE_ID));
    out->remote_routing_id = (uint32_t)get_le(word, START(REMOTE_ROUTING_ID));
    out->dst_addr = get_le(word, START(DST_ADDR));
    return XDIE_FW_OK;
}

void xdie_fw_encode_start(const struct xdie_fw_start_word *w, uint8_t *word)
{
    for (uint32_t i = 0; i < XDIE_EXT_RDMA_DESC_START_BYTES; i++) {
        word[i] = 0;
    }
    put_le(word, START(SUB_OPCODE), XDIE_EXT_RDMA_DESC_START_SUB_OPCODE);
    put_le(word, START(ROLE), w->role);
    put_le(word, START(DMA_ENGINE_MASK), w->dma_engine_mask);
    put_le(word, START(NUM_DESCRIPTORS), w->num_descriptors);
    put_le(word, START(QUEUE), w->queue);
    put_le(word, START(LAUNCH), w->launch);
    put_le(word, START(GO_SEM), w->go_sem);
    put_le(word, START(LOCAL_SEM), w->local_sem);
    put_le(word, START(REMOTE_SEM), w->remote_sem);
    put_le(word, START(REMOTE_CORE_ID), w->remote_core_id);
    put_le(word, START(REMOTE_ROUTING_ID), w->remote_routing_id);
    put_le(word, START(DST_ADDR), w->dst_addr);
}

/* ---- rdma_desc_gen */

struct leg_ends {
    uint32_t tx_chip, tx_die, rx_chip, rx_die;
    uint32_t tx_tpb, rx_tpb; /* the TX and RX cores' indices on their dies */
};

static int leg_ends(const struct xdie_fw_ctx *ctx, uint32_t role, uint32_t peer_core,
                    uint32_t peer_chip, struct leg_ends *out)
{
    uint32_t peer_die = die_of_core(ctx->sys, peer_core);
    uint32_t peer_tpb = tpb_of_core(ctx->sys, peer_core);
    if (role > 1u) {
        return XDIE_FW_ERR_ROLE;
    }
    if (peer_tpb >= XDIE_AP_SBUF_COUNT) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    if (role == 1u) {
        out->tx_chip = ctx->chip;
        out->tx_die = my_die(ctx);
        out->tx_tpb = my_tpb(ctx);
        out->rx_chip = peer_chip;
        out->rx_die = peer_die;
        out->rx_tpb = peer_tpb;
    } else {
        out->tx_chip = peer_chip;
        out->tx_die = peer_die;
        out->tx_tpb = peer_tpb;
        out->rx_chip = ctx->chip;
        out->rx_die = my_die(ctx);
        out->rx_tpb = my_tpb(ctx);
    }
    return XDIE_FW_OK;
}

/* One descriptor at the next position of ring (tx die, engine, side, queue). */
static int write_desc(struct xdie_fw_ctx *ctx, const struct leg_ends *ends, uint32_t engine,
                      uint32_t side, uint32_t queue, uint64_t len, uint32_t barrier,
                      uint64_t buf_ptr)
{
    size_t ri;
    if (!ring_index(ctx->sys, ends->tx_chip, ends->tx_die, engine, side, queue, &ri)) {
        return XDIE_FW_ERR_CHIP;
    }
    struct xdie_fw_ring *r = &ctx->sys->rings[ri];
    uint32_t pos = r->written;
    uint32_t ring_id = (XDIE_RING_INITIAL_RING_ID + pos / ctx->sys->ring_len) &
                       ((1u << XDIE_RING_ID_WIDTH) - 1u);
    uint64_t len_code = len == XDIE_RING_MAX_LEN_CODE ? 0u : len;
    uint32_t w[FW_DESC_WORDS];
    for (uint32_t i = 0; i < FW_DESC_WORDS; i++) {
        w[i] = 0u;
    }
    if (side == XDIE_FW_M2S) {
        put_field(w, XDIE_DESC_M2S_LEN_BIT, XDIE_DESC_M2S_LEN_MASK, len_code);
        put_field(w, XDIE_DESC_M2S_RING_ID_BIT, XDIE_DESC_M2S_RING_ID_MASK, ring_id);
        put_field(w, XDIE_DESC_M2S_WRITE_BARRIER_BIT, XDIE_DESC_M2S_WRITE_BARRIER_MASK, barrier);
        put_field(w, XDIE_DESC_M2S_BUF_PTR_BIT, XDIE_DESC_M2S_BUF_PTR_MASK, buf_ptr);
    } else {
        put_field(w, XDIE_DESC_S2M_LEN_BIT, XDIE_DESC_S2M_LEN_MASK, len_code);
        put_field(w, XDIE_DESC_S2M_RING_ID_BIT, XDIE_DESC_S2M_RING_ID_MASK, ring_id);
        put_field(w, XDIE_DESC_S2M_BUF_PTR_BIT, XDIE_DESC_S2M_BUF_PTR_MASK, buf_ptr);
    }
    uint64_t slot = xdie_fw_ring_base(ctx->sys, engine, side, queue) +
                    (uint64_t)(pos % ctx->sys->ring_len) * XDIE_MAP_DESC_BYTES;
    for (uint32_t i = 0; i < FW_DESC_WORDS; i++) {
        int rc = store(ctx, ends->tx_chip, ends->tx_die, slot + 4u * i, w[i]);
        if (rc != XDIE_FW_OK) {
            return rc;
        }
    }
    r->written = pos + 1u;
    return XDIE_FW_OK;
}

int xdie_fw_rdma_desc_gen(struct xdie_fw_ctx *ctx, const uint8_t *word)
{
    struct xdie_fw_gen_word g;
    int rc = xdie_fw_decode_gen(word, &g);
    if (rc != XDIE_FW_OK) {
        return rc;
    }
    struct leg_ends ends;
    rc = leg_ends(ctx, g.role, g.remote_core_id, g.remote_routing_id, &ends);
    if (rc != XDIE_FW_OK) {
        return rc;
    }
    const uint32_t n = popcount32(g.dma_engine_mask);
    if (g.partitions == 0u || g.partitions > XDIE_MAP_SBUF_PARTITIONS || g.free_dim_bytes == 0u ||
        g.src_addr + g.free_dim_bytes > XDIE_MAP_SBUF_BACKING_BYTES ||
        g.dst_addr + g.free_dim_bytes > XDIE_MAP_SBUF_BACKING_BYTES || n == 0u ||
        (g.dma_engine_mask >> XDIE_FW_ENGINES) != 0u || g.queue >= XDIE_FW_QUEUES ||
        g.local_sem >= FW_SEM_COUNT || g.remote_sem >= FW_SEM_COUNT ||
        ends.tx_die >= XDIE_FW_DIES) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    /* An accumulating RX side lands whole 4-byte lanes. */
    if (!(g.accumulate == XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_WRITE ||
          g.accumulate == XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_INT32 ||
          g.accumulate == XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_FP32) ||
        (g.accumulate != XDIE_EXT_RDMA_DESC_GEN_ACCUMULATE_WRITE && g.role == 0u &&
         ((g.dst_addr | g.free_dim_bytes | XDIE_RING_MAX_LEN_CODE) & 3u) != 0u)) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    if (g.peer_base != 0u && FW_GET_DIE(g.peer_base) != die_of_core(ctx->sys, g.remote_core_id)) {
        return XDIE_FW_ERR_GEOMETRY; /* seed 2.4: the peer's base names its die */
    }
    if (g.partitions % n != 0u) {
        ctx->detail[0] = g.partitions;
        ctx->detail[1] = n;
        return XDIE_FW_ERR_UNEVEN;
    }
    if (ctx->n_pending == XDIE_FW_MAX_PENDING) {
        return XDIE_FW_ERR_NO_GEN;
    }
    const uint32_t side = g.role == 1u ? XDIE_FW_M2S : XDIE_FW_S2M;
    const uint32_t share = g.partitions / n;
    const uint32_t chunks = (g.free_dim_bytes + XDIE_RING_MAX_LEN_CODE - 1u) / XDIE_RING_MAX_LEN_CODE;
    const uint32_t per_engine = share * chunks + 2u;

    /* Every engine's ring must take the whole leg before anything is written. */
    for (uint32_t e = 0; e < XDIE_FW_ENGINES; e++) {
        if ((g.dma_engine_mask >> e) & 1u) {
            size_t ri;
            if (!ring_index(ctx->sys, ends.tx_chip, ends.tx_die, e, side, g.queue, &ri)) {
                return XDIE_FW_ERR_CHIP;
            }
            const struct xdie_fw_ring *r = &ctx->sys->rings[ri];
            if (r->written - r->claimed + per_engine > ctx->sys->ring_len) {
                return XDIE_FW_ERR_RING_FULL;
            }
        }
    }

    /* Where the semaphore entries point, per role. */
    uint64_t sem_local, sem_remote;
    if (g.role == 1u) {
        /* TX (M2S): both read the constant 1 in the TX die's HBM. */
        sem_local = soc_local(ends.tx_die, xdie_fw_const_one_addr(ctx->sys));
        sem_remote = sem_local;
    } else {
        /* RX (S2M): TX's local_sem INC window; RX's remote_sem INC window, routed like data. */
        sem_local = soc_local(ends.tx_die, sem_inc_addr(ends.tx_tpb, g.local_sem));
        rc = route(ends.tx_chip, ends.tx_die, ends.rx_chip, ends.rx_die,
                   sem_inc_addr(ends.rx_tpb, g.remote_sem), &sem_remote);
        if (rc != XDIE_FW_OK) {
            return rc;
        }
    }

    uint32_t first = 0;
    for (uint32_t e = 0; e < XDIE_FW_ENGINES; e++) {
        if (((g.dma_engine_mask >> e) & 1u) == 0u) {
            continue;
        }
        for (uint32_t p = first; p < first + share; p++) {
            for (uint32_t c = 0; c < chunks; c++) {
                uint64_t off = (uint64_t)c * XDIE_RING_MAX_LEN_CODE;
                uint64_t len = g.free_dim_bytes - off;
                if (len > XDIE_RING_MAX_LEN_CODE) {
                    len = XDIE_RING_MAX_LEN_CODE;
                }
                uint64_t buf;
                if (g.role == 1u) {
                    buf = soc_local(ends.tx_die, sbuf_addr(ends.tx_tpb, p, g.src_addr + off));
                } else {
                    rc = route(ends.tx_chip, ends.tx_die, ends.rx_chip, ends.rx_die,
                               sbuf_dst_addr(g.accumulate, ends.rx_tpb, p, g.dst_addr + off),
                               &buf);
                    if (rc != XDIE_FW_OK) {
                        return rc;
                    }
                }
                rc = write_desc(ctx, &ends, e, side, g.queue, len, 0u, buf);
                if (rc != XDIE_FW_OK) {
                    return rc;
                }
            }
        }
        /* LOCAL, then REMOTE (write_barrier on the M2S entry: it lands after the data). */
        rc = write_desc(ctx, &ends, e, side, g.queue, FW_SEM_BYTES, 0u, sem_local);
        if (rc == XDIE_FW_OK) {
            rc = write_desc(ctx, &ends, e, side, g.queue, FW_SEM_BYTES, g.role == 1u, sem_remote);
        }
        if (rc != XDIE_FW_OK) {
            return rc;
        }
        first += share;
    }
    struct xdie_fw_pending *pd =
        &ctx->pending[(ctx->first_pending + ctx->n_pending) % XDIE_FW_MAX_PENDING];
    ctx->n_pending++;
    pd->mask = g.dma_engine_mask;
    pd->queue = g.queue;
    pd->tx_chip = ends.tx_chip;
    pd->tx_die = ends.tx_die;
    pd->side = side;
    pd->per_engine = per_engine;
    return XDIE_FW_OK;
}

/* ---- waits and signals */

/* One command on this context's own core's EVT_SEM through the context's sequencer slot on its
 * own die (slot 2 * core index on the die + PRID parity: one per context of the die, so no two
 * contexts of a system share one): VALUE, then CMD, then STATUS polled until the slot is no
 * longer busy. The bus is free meanwhile: the slot keeps an unsatisfied wait and retries it in
 * hardware; only the STATUS polls use the bus, one per back-off. */
static int seq_command(struct xdie_fw_ctx *ctx, uint32_t sem, uint32_t subop, uint32_t value)
{
    const uint32_t chip = ctx->chip, die = my_die(ctx);
    const uint32_t slot = 2u * my_tpb(ctx) + (ctx->prid & 1u);
    if (slot >= XDIE_SEM_SEQ_SLOT_COUNT) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    const uint64_t base = XDIE_AP_SEM_SEQ_BASE;
    int rc = store(ctx, chip, die, base + XDIE_SEM_SEQ_SLOT_VALUE(slot),
                   FW_FIELD(value, XDIE_SEM_SEQ_SLOT_VALUE_VALUE_LSB,
                            XDIE_SEM_SEQ_SLOT_VALUE_VALUE_MASK));
    if (rc == XDIE_FW_OK) {
        rc = store(ctx, chip, die, base + XDIE_SEM_SEQ_SLOT_CMD(slot),
                   FW_FIELD(sem, XDIE_SEM_SEQ_SLOT_CMD_SEM_LSB, XDIE_SEM_SEQ_SLOT_CMD_SEM_MASK) |
                       FW_FIELD(subop, XDIE_SEM_SEQ_SLOT_CMD_SUBOP_LSB,
                                XDIE_SEM_SEQ_SLOT_CMD_SUBOP_MASK));
    }
    for (uint32_t polls = 0; rc == XDIE_FW_OK; polls++) {
        uint32_t st;
        rc = load(ctx, chip, die, base + XDIE_SEM_SEQ_SLOT_STATUS(slot), &st);
        if (rc != XDIE_FW_OK) {
            break;
        }
        if (((st >> XDIE_SEM_SEQ_SLOT_STATUS_ERR_LSB) & XDIE_SEM_SEQ_SLOT_STATUS_ERR_MASK) != 0u) {
            ctx->detail[0] = sem;
            ctx->detail[1] = subop;
            return XDIE_FW_ERR_SEQ;
        }
        if (((st >> XDIE_SEM_SEQ_SLOT_STATUS_BUSY_LSB) & XDIE_SEM_SEQ_SLOT_STATUS_BUSY_MASK) ==
            0u) {
            break;
        }
        if (ctx->max_polls != 0u && polls + 1u >= ctx->max_polls) {
            /* The command stays posted: the slot takes it when the semaphore allows. */
            ctx->detail[0] = sem;
            ctx->detail[1] = value;
            return XDIE_FW_ERR_TIMEOUT;
        }
        xdie_hal_wait(ctx->plat, ctx->poll_cycles);
    }
    return rc;
}

int xdie_fw_sem_inc(struct xdie_fw_ctx *ctx, uint32_t core, uint32_t sem, uint32_t value)
{
    if (sem >= FW_SEM_COUNT) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    const uint32_t die = die_of_core(ctx->sys, core), tpb = tpb_of_core(ctx->sys, core);
    if (die >= XDIE_FW_DIES || tpb >= XDIE_AP_EVT_SEM_COUNT) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    /* The sequencer slot reaches the context's own core only; another core's semaphore takes
     * the increment through its INC window, which is as atomic. */
    if (ctx->wait_mode == XDIE_FW_WAIT_SEQ && core == ctx->core) {
        return seq_command(ctx, sem, XDIE_EVT_SEM_SEQ_SUBOP_INC, value);
    }
    return store(ctx, ctx->chip, die, sem_inc_addr(tpb, sem),
                 FW_FIELD(value, XDIE_EVT_SEM_SEM_INC_SEM_INC_VALUE_LSB,
                          XDIE_EVT_SEM_SEM_INC_SEM_INC_VALUE_MASK));
}

int xdie_fw_wait_ge_and_dec(struct xdie_fw_ctx *ctx, uint32_t sem, uint32_t value)
{
    if (sem >= FW_SEM_COUNT) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    if (ctx->wait_mode == XDIE_FW_WAIT_SEQ) {
        return seq_command(ctx, sem, XDIE_EVT_SEM_SEQ_SUBOP_WAIT_GE_DEC, value);
    }
    if (ctx->wait_mode != XDIE_FW_WAIT_POLL) {
        return XDIE_FW_ERR_UNSUPPORTED;
    }
    for (uint32_t polls = 0;; polls++) {
        int32_t v = (int32_t)read_local(
            ctx, XDIE_AP_EVT_SEM_INST(my_tpb(ctx)) + XDIE_EVT_SEM_SEM_READ_SEM_READ(sem));
        if ((int64_t)v >= (int64_t)value) {
            break;
        }
        if (ctx->max_polls != 0u && polls + 1u >= ctx->max_polls) {
            ctx->detail[0] = (uint32_t)v;
            ctx->detail[1] = value;
            return XDIE_FW_ERR_TIMEOUT;
        }
        xdie_hal_wait(ctx->plat, ctx->poll_cycles);
    }
    write_local(ctx, XDIE_AP_EVT_SEM_INST(my_tpb(ctx)) + XDIE_EVT_SEM_SEM_DEC_SEM_DEC(sem),
                FW_FIELD(value, XDIE_EVT_SEM_SEM_DEC_SEM_DEC_VALUE_LSB,
                         XDIE_EVT_SEM_SEM_DEC_SEM_DEC_VALUE_MASK));
    return XDIE_FW_OK;
}

/* ---- rdma_desc_start */

static int doorbells(struct xdie_fw_ctx *ctx, const struct leg_ends *ends, uint32_t launch,
                     uint32_t side, uint32_t mask, uint32_t queue, uint32_t n)
{
    int rc = XDIE_FW_OK;
    if (launch == XDIE_FW_LAUNCH_BROADCAST) {
        /* Group mask and queue select, then one increment for every engine of the mask. */
        const uint64_t b = XDIE_AP_SDMA_BCAST_BASE;
        rc = store(ctx, ends->tx_chip, ends->tx_die, b + XDIE_SDMA_BCAST_BROADCAST_CFG_GROUP_OFFSET,
                   FW_FIELD(mask, XDIE_SDMA_BCAST_BROADCAST_CFG_GROUP_MASK_LSB,
                            XDIE_SDMA_BCAST_BROADCAST_CFG_GROUP_MASK_MASK));
        if (rc == XDIE_FW_OK) {
            rc = store(ctx, ends->tx_chip, ends->tx_die, b + XDIE_SDMA_BCAST_BROADCAST_QUEUE_OFFSET,
                       FW_FIELD(queue, XDIE_SDMA_BCAST_BROADCAST_QUEUE_QUEUE_LSB,
                                XDIE_SDMA_BCAST_BROADCAST_QUEUE_QUEUE_MASK));
        }
        if (rc == XDIE_FW_OK) {
            rc = side == XDIE_FW_M2S
                     ? store(ctx, ends->tx_chip, ends->tx_die,
                             b + XDIE_SDMA_BCAST_M2S_TDRTP_INC_OFFSET,
                             FW_FIELD(n, XDIE_SDMA_BCAST_M2S_TDRTP_INC_VAL_LSB,
                                      XDIE_SDMA_BCAST_M2S_TDRTP_INC_VAL_MASK))
                     : store(ctx, ends->tx_chip, ends->tx_die,
                             b + XDIE_SDMA_BCAST_S2M_RDRTP_INC_OFFSET,
                             FW_FIELD(n, XDIE_SDMA_BCAST_S2M_RDRTP_INC_VAL_LSB,
                                      XDIE_SDMA_BCAST_S2M_RDRTP_INC_VAL_MASK));
        }
        return rc;
    }
    for (uint32_t e = 0; e < XDIE_FW_ENGINES && rc == XDIE_FW_OK; e++) {
        if (((mask >> e) & 1u) == 0u) {
            continue;
        }
        if (side == XDIE_FW_M2S) {
            rc = store(ctx, ends->tx_chip, ends->tx_die,
                       XDIE_AP_SDMA_M2S_INST(e) + XDIE_UDMA_M2S_M2S_Q_TDRTP_INC(queue),
                       FW_FIELD(n, XDIE_UDMA_M2S_M2S_Q_TDRTP_INC_VAL_LSB,
                                XDIE_UDMA_M2S_M2S_Q_TDRTP_INC_VAL_MASK));
        } else {
            rc = store(ctx, ends->tx_chip, ends->tx_die,
                       XDIE_AP_SDMA_S2M_INST(e) + XDIE_UDMA_S2M_S2M_Q_RDRTP_INC(queue),
                       FW_FIELD(n, XDIE_UDMA_S2M_S2M_Q_RDRTP_INC_VAL_LSB,
                                XDIE_UDMA_S2M_S2M_Q_RDRTP_INC_VAL_MASK));
        }
    }
    return rc;
}

int xdie_fw_rdma_desc_start(struct xdie_fw_ctx *ctx, const uint8_t *word)
{
    struct xdie_fw_start_word s;
    int rc = xdie_fw_decode_start(word, &s);
    if (rc != XDIE_FW_OK) {
        return rc;
    }
    if (s.role > 1u) {
        return XDIE_FW_ERR_ROLE;
    }
    if ((ctx->prid >> 1) != ctx->core || (ctx->prid & 1u) != s.role) {
        return XDIE_FW_ERR_PARITY;
    }
    if (s.go_sem >= FW_SEM_COUNT || s.go_sem == s.local_sem ||
        s.launch > XDIE_FW_LAUNCH_BROADCAST) {
        return XDIE_FW_ERR_GEOMETRY;
    }
    if (ctx->n_pending == 0u) {
        return XDIE_FW_ERR_NO_GEN;
    }
    const struct xdie_fw_pending *pd = &ctx->pending[ctx->first_pending];
    struct leg_ends ends;
    rc = leg_ends(ctx, s.role, s.remote_core_id, s.remote_routing_id, &ends);
    if (rc != XDIE_FW_OK) {
        return rc;
    }
    const uint32_t side = s.role == 1u ? XDIE_FW_M2S : XDIE_FW_S2M;
    if (pd->mask != s.dma_engine_mask || pd->queue != s.queue || pd->tx_chip != ends.tx_chip ||
        pd->tx_die != ends.tx_die || pd->side != side) {
        return XDIE_FW_ERR_MISMATCH;
    }
    /* The DescriptorStream guard: the count the start carries, then what each ring holds: this
     * gen's entries and those of the context's later pending gens on the same ring (a context
     * may gen ahead; its gens queue in ring order and a start posts the oldest one's). */
    const uint32_t mask = pd->mask, queue = pd->queue, tx_chip = pd->tx_chip, tx_die = pd->tx_die;
    const uint32_t per_engine = pd->per_engine;
    if (s.num_descriptors != per_engine) {
        ctx->detail[0] = s.num_descriptors;
        ctx->detail[1] = per_engine;
        return XDIE_FW_ERR_COUNT;
    }
    for (uint32_t e = 0; e < XDIE_FW_ENGINES; e++) {
        if ((mask >> e) & 1u) {
            size_t ri;
            if (!ring_index(ctx->sys, tx_chip, tx_die, e, side, queue, &ri)) {
                return XDIE_FW_ERR_CHIP;
            }
            uint32_t expected = per_engine;
            for (uint32_t i = 1; i < ctx->n_pending; i++) {
                const struct xdie_fw_pending *later =
                    &ctx->pending[(ctx->first_pending + i) % XDIE_FW_MAX_PENDING];
                if (((later->mask >> e) & 1u) != 0u && later->queue == queue &&
                    later->tx_chip == tx_chip && later->tx_die == tx_die && later->side == side) {
                    expected += later->per_engine;
                }
            }
            const struct xdie_fw_ring *r = &ctx->sys->rings[ri];
            if (r->written - r->claimed != expected) {
                ctx->detail[0] = r->written - r->claimed;
                ctx->detail[1] = expected;
                return XDIE_FW_ERR_COUNT;
            }
        }
    }
    ctx->first_pending = (ctx->first_pending + 1u) % XDIE_FW_MAX_PENDING;
    ctx->n_pending--;
    for (uint32_t e = 0; e < XDIE_FW_ENGINES; e++) {
        if ((mask >> e) & 1u) {
            size_t ri = 0;
            (void)ring_index(ctx->sys, tx_chip, tx_die, e, side, queue, &ri); /* checked above */
            ctx->sys->rings[ri].claimed += per_engine;
        }
    }

    if (s.role == 0u) {
        /* RX: arm the S2M rings first, then right_push: INC go_sem in the TX core's EVT_SEM,
         * a store to its INC window (a sequencer slot reaches its own core only). */
        rc = doorbells(ctx, &ends, s.launch, side, mask, queue, per_engine);
        if (rc == XDIE_FW_OK) {
            rc = store(ctx, ends.tx_chip, ends.tx_die, sem_inc_addr(ends.tx_tpb, s.go_sem),
                       FW_FIELD(1u, XDIE_EVT_SEM_SEM_INC_SEM_INC_VALUE_LSB,
                                XDIE_EVT_SEM_SEM_INC_SEM_INC_VALUE_MASK));
        }
        return rc;
    }
    /* TX: left_pop (wait go_sem >= 1 and take it), then the launch. */
    rc = xdie_fw_wait_ge_and_dec(ctx, s.go_sem, 1u);
    if (rc == XDIE_FW_OK) {
        rc = doorbells(ctx, &ends, s.launch, side, mask, queue, per_engine);
    }
    return rc;
}
