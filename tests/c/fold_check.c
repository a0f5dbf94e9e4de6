/*
 * Reads lines "DST_LOCAL PEER_DIE CHIP_ID" (hex) from stdin and, for each, prints both folds of
 * the inputs and every field of both views of each folded address, one "name value" per line.
 * tests/c_header.rs compares this output with the Rust model. Both generated headers are included
 * in this one translation unit on purpose: that is part of what is tested.
 */
#include "xdie_soc_addr.h"
#include "xdie_regs.h"

#include <inttypes.h>
#include <stdio.h>

static const char *fold_name;
static uint64_t folded;

#define SHOW_LOCAL(F) \
    printf("%s local.%s 0x%" PRIx64 "\n", fold_name, #F, (uint64_t)XDIE_LOCAL_GET_##F(folded));
#define SHOW_NEIGHBOR(F) \
    printf("%s neighbor.%s 0x%" PRIx64 "\n", fold_name, #F, \
           (uint64_t)XDIE_NEIGHBOR_GET_##F(folded));

static void show(const char *name, uint64_t addr)
{
    fold_name = name;
    folded = addr;
    printf("%s 0x%" PRIx64 "\n", name, addr);
    XDIE_LOCAL_FIELDS(SHOW_LOCAL)
    XDIE_NEIGHBOR_FIELDS(SHOW_NEIGHBOR)
}

int main(void)
{
    uint64_t dst_local, peer_die, chip_id;
    while (scanf("%" SCNx64 " %" SCNx64 " %" SCNx64, &dst_local, &peer_die, &chip_id) == 3) {
        show("fold_neighbor", xdie_fold_neighbor(dst_local, peer_die));
        show("fold_chip_id", xdie_fold_chip_id(dst_local, peer_die, chip_id));
    }
    return 0;
}
