/*
 * Test harness for the reference firmware's word codec and ring placement (tests/fw_c.rs).
 * Reads one command per line on stdin and answers on stdout:
 *   gen HEX     -> "gen <fields in header order, decimal>" then "hex <re-encoded word>"
 *   start HEX   -> likewise for rdma_desc_start
 *   ring LEN E SIDE Q -> "ring <die-local base, hex>"
 *   one LEN     -> "one <die-local address of the constant 1, hex>"
 *   run CORE PRID HEX -> runs the word (gen or start) on a context of core CORE with PRID PRID
 *                 of chip 0x12 (one context per chip and PRID, one shared system of 512-slot
 *                 rings over chips 0x11, 0x12, 0x13) against a bus that accepts every store
 *                 and reads 1 everywhere; answers "rc <status> <detail0> <detail1> <stores>"
 *   runon CHIP CORE PRID HEX -> likewise on a context of chip CHIP (decimal)
 *   pos CHIP DIE E SIDE Q -> "pos <status> <written> <claimed>" of that ring in the shared system
 * HEX is the 64-byte word, two hex digits per byte, byte 0 first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdie_fw.h"

/* A bus that takes every store (counted) and reads 1 (every wait is satisfied at once). */
static unsigned long stores;
uint32_t xdie_hal_read32(void *plat, uint32_t xt)
{
    (void)plat;
    (void)xt;
    return 1u;
}
void xdie_hal_write32(void *plat, uint32_t xt, uint32_t value)
{
    (void)plat;
    (void)xt;
    (void)value;
    stores++;
}
void xdie_hal_wait(void *plat, uint32_t cycles)
{
    (void)plat;
    (void)cycles;
    abort();
}

static int parse_hex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) {
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    return 0;
}

static void print_hex(const uint8_t *w, size_t n)
{
    printf("hex ");
    for (size_t i = 0; i < n; i++) {
        printf("%02x", w[i]);
    }
    printf("\n");
}

/* "run CORE PRID HEX" (chip 0x12) or "runon CHIP CORE PRID HEX". */
static int parse_run(const char *line, unsigned *chip, unsigned *core, unsigned *prid, char *hex)
{
    if (sscanf(line, "runon %u %u %u %255s", chip, core, prid, hex) == 4) {
        return 1;
    }
    *chip = 0x12;
    return sscanf(line, "run %u %u %255s", core, prid, hex) == 3;
}

/* Memory for a system of up to MAX_CHIPS packages (the platform owns it). */
#define MAX_CHIPS 3u
static uint64_t sys_mem[4096];
static uint64_t run_sys_mem[4096];

int main(void)
{
    static const uint32_t chips[MAX_CHIPS] = {0x11, 0x12, 0x13};
    struct xdie_fw_system *sys = (struct xdie_fw_system *)sys_mem;
    struct xdie_fw_system *run_sys = (struct xdie_fw_system *)run_sys_mem;
    static struct xdie_fw_ctx ctxs[MAX_CHIPS][64];
    static int ctx_ready[MAX_CHIPS][64];
    char line[512];
    unsigned chip, core, prid, die;
    if (xdie_fw_system_size(MAX_CHIPS) > sizeof run_sys_mem ||
        xdie_fw_system_init(run_sys, 512, 1, chips, MAX_CHIPS) != XDIE_FW_OK) {
        printf("error system\n");
        return 1;
    }
    while (fgets(line, sizeof line, stdin) != NULL) {
        uint8_t w[64];
        char hex[256];
        unsigned len, e, side, q;
        if (sscanf(line, "gen %255s", hex) == 1) {
            struct xdie_fw_gen_word g;
            if (parse_hex(hex, w, XDIE_EXT_RDMA_DESC_GEN_BYTES) != 0 ||
                xdie_fw_decode_gen(w, &g) != XDIE_FW_OK) {
                printf("error\n");
                continue;
            }
            printf("gen %u %u %u %u %u %u %u %u %u %u %llu %llu %llu\n", g.role,
                   g.dma_engine_mask, g.free_dim_bytes, g.partitions, g.queue, g.accumulate,
                   g.local_sem, g.remote_sem,
                   g.remote_core_id, g.remote_routing_id, (unsigned long long)g.src_addr,
                   (unsigned long long)g.dst_addr, (unsigned long long)g.peer_base);
            xdie_fw_encode_gen(&g, w);
            print_hex(w, XDIE_EXT_RDMA_DESC_GEN_BYTES);
        } else if (sscanf(line, "start %255s", hex) == 1) {
            struct xdie_fw_start_word s;
            if (parse_hex(hex, w, XDIE_EXT_RDMA_DESC_START_BYTES) != 0 ||
                xdie_fw_decode_start(w, &s) != XDIE_FW_OK) {
                printf("error\n");
                continue;
            }
            printf("start %u %u %u %u %u %u %u %u %u %u %llu\n", s.role, s.dma_engine_mask,
                   s.num_descriptors, s.queue, s.launch, s.go_sem, s.local_sem, s.remote_sem,
                   s.remote_core_id, s.remote_routing_id, (unsigned long long)s.dst_addr);
            xdie_fw_encode_start(&s, w);
            print_hex(w, XDIE_EXT_RDMA_DESC_START_BYTES);
        } else if (parse_run(line, &chip, &core, &prid, hex) && prid < 64) {
            unsigned slot = MAX_CHIPS;
            for (unsigned i = 0; i < MAX_CHIPS; i++) {
                slot = chips[i] == chip ? i : slot;
            }
            if (slot == MAX_CHIPS || parse_hex(hex, w, XDIE_EXT_RDMA_DESC_GEN_BYTES) != 0) {
                printf("error\n");
                continue;
            }
            struct xdie_fw_ctx *ctx = &ctxs[slot][prid];
            if (!ctx_ready[slot][prid]) {
                xdie_fw_ctx_init(ctx, run_sys, NULL, chip, core, prid, prid % 16u);
                ctx_ready[slot][prid] = 1;
            }
            stores = 0;
            int rc = w[XDIE_EXT_RDMA_DESC_GEN_SUB_OPCODE_OFFSET] == XDIE_EXT_RDMA_DESC_GEN_SUB_OPCODE
                         ? xdie_fw_rdma_desc_gen(ctx, w)
                         : xdie_fw_rdma_desc_start(ctx, w);
            printf("rc %d %u %u %lu\n", rc, xdie_fw_ctx_detail(ctx, 0), xdie_fw_ctx_detail(ctx, 1),
                   stores);
        } else if (sscanf(line, "pos %u %u %u %u %u", &chip, &die, &e, &side, &q) == 5) {
            uint32_t written = 0, claimed = 0;
            int rc = xdie_fw_ring_position(run_sys, chip, die, e, side, q, &written, &claimed);
            printf("pos %d %u %u\n", rc, written, claimed);
        } else if (sscanf(line, "ring %u %u %u %u", &len, &e, &side, &q) == 4) {
            (void)xdie_fw_system_init(sys, len, 1, chips, 1);
            printf("ring %llx\n", (unsigned long long)xdie_fw_ring_base(sys, e, side, q));
        } else if (sscanf(line, "one %u", &len) == 1) {
            (void)xdie_fw_system_init(sys, len, 1, chips, 1);
            printf("one %llx\n", (unsigned long long)xdie_fw_const_one_addr(sys));
        } else {
            printf("error\n");
        }
    }
    return 0;
}
