/*
 * Reads lines "DST_LOCAL PEER_DIE CHIP_ID" (hex) from stdin and, for each, prints every fold of
 * the system's address view and every field of that view of each folded address, one
 * "name value" per line. tests/c_header.rs compiles it once per view (-DXDIE_SYSTEM_VIEW=...)
 * and compares the output with the Rust model. Both generated headers are included in this one
 * translation unit on purpose: that is part of what is tested.
 */
#include "xdie_soc_addr.h"
#include "xdie_regs.h"

#include <inttypes.h>
#include <stdio.h>

static const char *fold_name;
static uint64_t folded;

#if XDIE_SYSTEM_VIEW == XDIE_VIEW_CHIP_ID
#define SHOW_FIELD(F) \
    printf("%s local.%s 0x%" PRIx64 "\n", fold_name, #F, (uint64_t)XDIE_LOCAL_GET_##F(folded));
#define VIEW_FIELDS XDIE_LOCAL_FIELDS
#else
#define SHOW_FIELD(F) \
    printf("%s neighbor.%s 0x%" PRIx64 "\n", fold_name, #F, \
           (uint64_t)XDIE_NEIGHBOR_GET_##F(folded));
#define VIEW_FIELDS XDIE_NEIGHBOR_FIELDS
#endif

static void show(const char *name, uint64_t addr)
{
    fold_name = name;
    folded = addr;
    printf("%s 0x%" PRIx64 "\n", name, addr);
    VIEW_FIELDS(SHOW_FIELD)
}

int main(void)
{
    uint64_t dst_local, peer_die, chip_id;
    while (scanf("%" SCNx64 " %" SCNx64 " %" SCNx64, &dst_local, &peer_die, &chip_id) == 3) {
#if XDIE_SYSTEM_VIEW == XDIE_VIEW_CHIP_ID
        show("fold_chip_id", xdie_fold_chip_id(dst_local, peer_die, chip_id));
#else
        (void)chip_id;
        show("fold_neighbor", xdie_fold_neighbor(dst_local, peer_die));
#endif
    }
    return 0;
}
