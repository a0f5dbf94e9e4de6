// One direction of the die-to-die link with its link layer: credit flow control towards the
// receiver's FIFO of CREDITS flits, and go-back-N retransmission that makes the link lose nothing
// over wires that flip bits, drop words or go quiet (as PCIe's data link layer does).
//
// Wires (xdie_d2d_wire, fault-injectable): the flit wire carries {seq, crc32, flit}; the DLLP wire
// carries, every cycle, {ack, nak_id, freed, crc16} from the receiver back to the sender. The two
// ends are modules of their own, xdie_d2d_sender and xdie_d2d_receiver, so that a die can carry
// its ends of its links and a simulation can put the wires between dies (xdie_die_node); this
// module is the channel in one piece: sender, wires, receiver.
//
// Sender: each new flit gets the next sequence number and is kept in the replay buffer until
// acknowledged. The receiver acknowledges cumulatively (ack = the next sequence number it
// expects); the sender replays every unacknowledged flit in order when the receiver reports a new
// NAK (a bad CRC or a gap in the sequence) or when no acknowledgement has made progress for
// REPLAY_TIMEOUT cycles (a lost NAK, a lost last flit, a replay hit by a fault, a quiet link).
// New flits wait while a replay runs.
//
// Credits: the receiver reports the cumulative number of flits popped from its FIFO (`freed`),
// the sender sends at most CREDITS flits beyond that. Both counts are cumulative, so a lost or
// corrupted DLLP costs nothing but time: the next one carries the same information, newer. A new
// flit takes a credit once; its replays take none (its FIFO entry is still reserved), and since
// the receiver accepts a flit before it frees its entry, at most CREDITS flits are ever
// unacknowledged: the replay buffer has 2^ceil(log2(CREDITS)) entries and the sequence numbers
// one bit more, so the receiver tells old (replayed, dropped silently) from new (a gap) flits.
//
// Receiver: a flit with a good CRC and the expected sequence number enters the FIFO; anything else
// is discarded. A bad CRC or a sequence gap schedules one NAK (nak_id counts them), and no other
// until a good in-order flit arrives (the flits already on the wire behind the bad one would
// otherwise each ask for the same replay).
//
// Link up: after reset the sender has no credits and up_o is 0 until the first good DLLP arrives
// (like a PCIe InitFC); the link goes down again (up_o 0, no new flits) when no good DLLP has
// arrived for DOWN_AFTER cycles, and comes back with the next good one. Flits already sent are
// replayed by the timer until they get through.
//
// Timing without faults: a flit pushed in cycle t is at the receive FIFO head in cycle t + LATENCY
// (LATENCY - 2 wire stages, the receiver's input register, which checks the CRC, then the FIFO
// write; with LATENCY 1 no wire stage and no register). A pop in cycle t is a credit
// the sender can spend again in cycle t + LATENCY + 1 (the freed count is registered, crosses
// LATENCY - 1 wire stages and updates the sender's count). A credit is out for 2 * LATENCY + 1
// cycles, so CREDITS >= 2 * LATENCY + 1 keeps one flit per cycle going: the CRC and the
// acknowledgements ride beside the flit and cost no flit slots, only a replay does.
//
// Costs: wire bits SEQ_W + 32 per flit, a DLLP wire of 2 * SEQ_W + 2 + 16 bits, the replay buffer
// (LUT-RAM on an FPGA), two CRC-32 trees over the flit and two small CRC-16 trees, and the
// receiver's input register (SEQ_W + DATA_W + 2 flops, in place of the flit wire's last stage).

module xdie_d2d_channel #(
  // Flit bits.
  parameter int unsigned DATA_W  = 1,
  parameter int unsigned LATENCY = 1,
  parameter int unsigned CREDITS = 4,
  // Cycles without acknowledgement progress (while flits are unacknowledged) before a replay.
  parameter int unsigned REPLAY_TIMEOUT = 2 * LATENCY + 8,
  // Cycles without a good DLLP before the link is reported down.
  parameter int unsigned DOWN_AFTER = 2 * LATENCY + 16,
  localparam int unsigned CW     = $clog2(CREDITS + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Sender
  input  logic          tx_valid_i,
  input  logic [DATA_W-1:0] tx_data_i,
  output logic          tx_credit_o,
  output logic [CW-1:0] credits_o,
  output logic          up_o,
  // Receiver
  output logic          rx_valid_o,
  input  logic          rx_ready_i,
  output logic [DATA_W-1:0] rx_data_o,
  // Fault injection on the two wires (tie to zero in hardware)
  input  xdie_d2d_pkg::chan_fault_t fault_i,
  // Link-health events of this cycle: the receiver discarded a flit with a bad CRC, the sender
  // discarded a DLLP with a bad CRC, the sender started a replay.
  output logic          rx_crc_err_o,
  output logic          tx_dllp_err_o,
  output logic          tx_replay_o
);
  if (DATA_W < 1 || LATENCY < 1 || CREDITS < 2) begin : g_bad_param
    $error("xdie_d2d_channel: DATA_W and LATENCY must be at least 1, CREDITS at least 2");
  end

  // The flit wire's last stage is the receiver's input register when LATENCY allows one; the
  // DLLP wire has all LATENCY - 1 stages.
  localparam bit          RX_REG      = LATENCY >= 2;
  localparam int unsigned FLIT_STAGES = LATENCY - 1 - 32'(RX_REG);
  localparam int unsigned DLLP_STAGES = LATENCY - 1;
  localparam int unsigned SEQ_W  = $clog2(CREDITS) + 1;
  localparam int unsigned FLIT_W = SEQ_W + 32 + DATA_W;
  localparam int unsigned DLLP_W = 2 * SEQ_W + 2 + 16;

  logic              flit_v, wire_v, dllp_tx_v, dllp_v;
  logic [FLIT_W-1:0] flit, wire_flit;
  logic [DLLP_W-1:0] dllp_tx, dllp_rx;

  xdie_d2d_sender #(
    .DATA_W(DATA_W), .CREDITS(CREDITS), .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .DOWN_AFTER(DOWN_AFTER)
  ) u_tx (
    .clk_i, .rst_ni,
    .tx_valid_i, .tx_data_i, .tx_credit_o, .credits_o, .up_o,
    .flit_valid_o(flit_v), .flit_o(flit),
    .dllp_valid_i(dllp_v), .dllp_i(dllp_rx),
    .dllp_err_o(tx_dllp_err_o), .replay_o(tx_replay_o)
  );

  xdie_d2d_wire #(.W(FLIT_W), .STAGES(FLIT_STAGES)) u_flit_wire (
    .clk_i, .rst_ni,
    .valid_i(flit_v), .data_i(flit), .fault_i(fault_i.flit),
    .valid_o(wire_v), .data_o(wire_flit)
  );

  xdie_d2d_receiver #(.DATA_W(DATA_W), .CREDITS(CREDITS), .RX_REG(RX_REG)) u_rx (
    .clk_i, .rst_ni,
    .flit_valid_i(wire_v), .flit_i(wire_flit),
    .dllp_valid_o(dllp_tx_v), .dllp_o(dllp_tx),
    .rx_valid_o, .rx_ready_i, .rx_data_o,
    .crc_err_o(rx_crc_err_o)
  );

  xdie_d2d_wire #(.W(DLLP_W), .STAGES(DLLP_STAGES)) u_dllp_wire (
    .clk_i, .rst_ni,
    .valid_i(dllp_tx_v), .data_i(dllp_tx), .fault_i(fault_i.dllp),
    .valid_o(dllp_v), .data_o(dllp_rx)
  );
endmodule
