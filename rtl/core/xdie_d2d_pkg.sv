// Types of the die-to-die link layer (xdie_d2d_channel, xdie_d2d_link, xdie_die_node) that cross
// module boundaries: the fault-injection controls of the link's wires and the health report. The
// link-layer CRCs are in xdie_xbus_pkg, beside the flits they cover.
//
// A link channel has two wires: the flit wire (sender to receiver: sequence number, CRC-32 and
// the flit) and the DLLP wire (receiver to sender, every cycle: cumulative acknowledgement, NAK
// number, cumulative freed-buffer count, CRC-16). Each wire takes one wire_fault_t per cycle,
// applied to the word entering the wire in that cycle: `drop` loses it, `flip` inverts bit
// `flip_bit` of it (counted from the LSB of the whole wire word; a bit number past the word's end
// flips nothing). Tops expose these as inputs so a testbench can inject faults; hardware ties them
// to zero.

package xdie_d2d_pkg;
  // Bits of a flip position: enough for any wire word of the link (a flit is a few hundred bits).
  localparam int unsigned FLIP_BIT_W = 16;

  typedef struct packed {
    logic                  drop;
    logic                  flip;
    logic [FLIP_BIT_W-1:0] flip_bit;
  } wire_fault_t;

  // One channel's two wires.
  typedef struct packed {
    wire_fault_t flit;
    wire_fault_t dllp;
  } chan_fault_t;

  // The link's four channels, named by direction (a: the link's die A side, b: die B side).
  typedef struct packed {
    chan_fault_t a2b_req;
    chan_fault_t b2a_req;
    chan_fault_t a2b_rsp;
    chan_fault_t b2a_rsp;
  } link_fault_t;

  // Link health of one die in one cycle: whether the link is up, and this cycle's events per
  // channel the die receives flits on (req, rsp) and per channel it sends flits on: CRC errors it
  // detected (a bad flit it received, a bad DLLP about a channel it sends on), replays it
  // started, and whether its port offers a flit the channel has no send credit for (the link is
  // up: a credit wait; the d2d health block times these). This is everything the die's link-health
  // interrupt block sees: link-layer state only, no data-plane event.
  // Channels a die's health report has events for: the request and the response channel.
  localparam int unsigned HEALTH_CH = 2;

  typedef struct packed {
    logic                 up;
    logic [HEALTH_CH-1:0] flit_crc_err;  // [0] request flits, [1] response flits received
    logic [HEALTH_CH-1:0] dllp_crc_err;  // [0] request channel, [1] response channel sent
    logic [HEALTH_CH-1:0] replay;        // [0] request channel, [1] response channel sent
    logic [HEALTH_CH-1:0] credit_wait;   // [0] request channel, [1] response channel sent
  } health_t;

endpackage
