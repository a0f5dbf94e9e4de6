// One direction of the die-to-die link with its link layer: credit flow control towards the
// receiver's FIFO of CREDITS flits, and go-back-N retransmission that makes the link lose nothing
// over wires that flip bits, drop words or go quiet (as PCIe's data link layer does).
//
// Wires (xdie_d2d_wire, fault-injectable): the flit wire carries {seq, crc32, flit}; the DLLP wire
// carries, every cycle, {ack, nak_id, freed, crc16} from the receiver back to the sender.
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

  // The flit wire's last stage is the receiver's input register (below) when LATENCY allows one;
  // the DLLP wire has all LATENCY - 1 stages.
  localparam int unsigned RX_STAGE    = (LATENCY >= 2) ? 1 : 0;
  localparam int unsigned FLIT_STAGES = LATENCY - 1 - RX_STAGE;
  localparam int unsigned DLLP_STAGES = LATENCY - 1;
  localparam int unsigned RB_W    = $clog2(CREDITS);
  localparam int unsigned SEQ_W   = RB_W + 1;
  localparam int unsigned PAY_W   = SEQ_W + DATA_W;           // what the flit CRC covers
  localparam int unsigned FLIT_W  = PAY_W + 32;
  localparam int unsigned DLLP_PAY_W = 2 * SEQ_W + 2;         // ack, nak_id, freed
  localparam int unsigned DLLP_W  = DLLP_PAY_W + 16;
  localparam int unsigned TW      = $clog2(REPLAY_TIMEOUT + 1);
  localparam int unsigned QW      = $clog2(DOWN_AFTER + 1);
  localparam logic [SEQ_W-1:0] HALF = SEQ_W'(1) << (SEQ_W - 1);

  // ---- CRC. Both CRCs are MSB first with an all-ones initial value and no final inversion:
  // CRC-32 (polynomial 0x04C11DB7) over {seq, flit}, CRC-16-CCITT (0x1021) over the DLLP. A CRC is
  // linear in its input, so each CRC bit is the parity of a fixed subset of input bits (plus a
  // constant from the initial value); crc_matrix computes those subsets at elaboration by running
  // the shift register on masks instead of bits. Row k of the matrix holds, for CRC bit k, the
  // constant in bit 0 and input bit i in bit i + 1, padded to whole 64-bit chunks (the functions
  // below AND the input with the input bits' part of a row, aligned as it is, so a simulator
  // shifts nothing).
  localparam int unsigned NCH   = (((PAY_W > DLLP_PAY_W) ? PAY_W : DLLP_PAY_W) + 63) / 64;
  localparam int unsigned MAT_W = 64 * NCH + 1;
  typedef logic [32*MAT_W-1:0] crc_matrix_t;

  // (Functions assign to their own name and loops use int: the forms every tool here reads.)
  function automatic crc_matrix_t crc_matrix(input int n, input int cw, input logic [31:0] poly);
    logic [MAT_W-1:0] fb;
    for (int k = 0; k < 32; k++) crc_matrix[k*MAT_W +: MAT_W] = MAT_W'(k < cw);
    for (int i = n - 1; i >= 0; i--) begin
      fb = crc_matrix[(cw-1)*MAT_W +: MAT_W];
      fb[i+1] = !fb[i+1];
      for (int k = cw - 1; k > 0; k--) begin
        crc_matrix[k*MAT_W +: MAT_W] = crc_matrix[(k-1)*MAT_W +: MAT_W] ^ (poly[k] ? fb : '0);
      end
      crc_matrix[0 +: MAT_W] = poly[0] ? fb : '0;
    end
  endfunction

  localparam crc_matrix_t FLIT_CRC = crc_matrix(PAY_W, 32, 32'h04C1_1DB7);
  localparam crc_matrix_t DLLP_CRC = crc_matrix(DLLP_PAY_W, 16, 32'h0000_1021);

  // The flit CRC in 64-bit chunks: each bit is the parity of the XOR of the chunks ANDed with
  // the row's chunks, which is the parity of the row's input bits. The same gates as one wide AND
  // and parity; a simulator works on 64-bit words with the masks as immediates, where a wide AND
  // takes a 32-bit word, a mask load and a merge per word. (Packed slices only: an unpacked
  // local array here becomes a memory with a read port per use in synthesis.)
  function automatic logic [31:0] flit_crc(input logic [PAY_W-1:0] d);
    logic [64*NCH-1:0] dx;
    logic [63:0]       acc;
    dx = '0;
    dx[PAY_W-1:0] = d;
    for (int k = 0; k < 32; k++) begin
      acc = '0;
      for (int c = 0; c < NCH; c++) acc = acc ^ (dx[64*c +: 64] & FLIT_CRC[k*MAT_W + 1 + 64*c +: 64]);
      flit_crc[k] = ^acc ^ FLIT_CRC[k*MAT_W];
    end
  endfunction

  function automatic logic [15:0] dllp_crc(input logic [DLLP_PAY_W-1:0] d);
    for (int k = 0; k < 16; k++) dllp_crc[k] = ^(d & DLLP_CRC[k*MAT_W + 1 +: DLLP_PAY_W]) ^ DLLP_CRC[k*MAT_W];
  endfunction

  typedef struct packed {
    logic [SEQ_W-1:0]  seq;
    logic [31:0]       crc;
    logic [DATA_W-1:0] data;
  } flit_t;

  typedef struct packed {
    logic [SEQ_W-1:0] ack;
    logic [1:0]       nak_id;
    logic [SEQ_W-1:0] freed;
    logic [15:0]      crc;
  } dllp_t;

  // ---- Sender state
  logic [SEQ_W-1:0] next_seq_q, acked_q, freed_seen_q, replay_seq_q;
  logic             replaying_q, up_q;
  logic [1:0]       nak_seen_q;
  logic [TW-1:0]    timer_q;
  logic [QW-1:0]    quiet_q;
  logic [DATA_W-1:0] rb_q [2**RB_W];

  logic [SEQ_W-1:0] outstanding;
  logic [SEQ_W-1:0] credits;
  logic             send_new, flit_v;
  flit_t            flit;

  // ---- Receiver state
  logic [SEQ_W-1:0] expected_q, freed_q;
  logic             nak_pending_q;
  logic [1:0]       nak_id_q;
  logic             wire_v, rx_v, rx_good, rx_push, rx_err, rx_pop;
  flit_t            wire_flit;
  logic [SEQ_W-1:0]  rx_seq;
  logic [DATA_W-1:0] rx_data;
  dllp_t            dllp_tx, dllp_rx;
  logic             dllp_v, dllp_good;
  // The credits guarantee room for every accepted flit, so the FIFO's ready is not needed.
  logic             unused_fifo_ready;

  // ================= Sender
  assign outstanding = next_seq_q - freed_seen_q;
  assign credits     = SEQ_W'(CREDITS) - outstanding;
  assign credits_o   = up_q ? CW'(credits) : '0;
  assign tx_credit_o = up_q && !replaying_q && (credits != '0);
  assign send_new    = tx_valid_i && tx_credit_o;
  assign flit_v      = send_new || replaying_q;

  always_ff @(posedge clk_i) begin
    if (send_new) rb_q[next_seq_q[RB_W-1:0]] <= tx_data_i;
  end

  // The CRC is computed only for a flit that is sent.
  always_comb begin
    flit = '0;
    if (flit_v) begin
      flit.seq  = replaying_q ? replay_seq_q : next_seq_q;
      flit.data = replaying_q ? rb_q[replay_seq_q[RB_W-1:0]] : tx_data_i;
      flit.crc  = flit_crc({flit.seq, flit.data});
    end
  end

  xdie_d2d_wire #(.W(FLIT_W), .STAGES(FLIT_STAGES)) u_flit_wire (
    .clk_i, .rst_ni,
    .valid_i(flit_v), .data_i(flit), .fault_i(fault_i.flit),
    .valid_o(wire_v), .data_o(wire_flit)
  );

  // A DLLP is believed when its CRC is good and its acknowledgement lies within the flits sent.
  assign dllp_good = dllp_v && (dllp_crc({dllp_rx.ack, dllp_rx.nak_id, dllp_rx.freed}) == dllp_rx.crc)
                  && (SEQ_W'(dllp_rx.ack - acked_q) <= SEQ_W'(next_seq_q - acked_q));
  assign tx_dllp_err_o = dllp_v && !dllp_good;

  // This cycle's acknowledgement, and whether a replay starts: on a new NAK or a timeout, from
  // the oldest unacknowledged flit, unless every flit sent so far is acknowledged.
  logic [SEQ_W-1:0] acked, seq_after;
  logic             restart;
  always_comb begin
    acked     = dllp_good ? dllp_rx.ack : acked_q;
    seq_after = next_seq_q + SEQ_W'(send_new);
    restart   = ((dllp_good && dllp_rx.nak_id != nak_seen_q) || timer_q == TW'(REPLAY_TIMEOUT))
                && acked != next_seq_q;
  end
  assign tx_replay_o = restart;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      next_seq_q   <= '0;
      acked_q      <= '0;
      freed_seen_q <= '0;
      replay_seq_q <= '0;
      replaying_q  <= 1'b0;
      up_q         <= 1'b0;
      nak_seen_q   <= '0;
      timer_q      <= '0;
      quiet_q      <= '0;
    end else begin
      next_seq_q <= seq_after;
      acked_q    <= acked;
      if (dllp_good) begin
        freed_seen_q <= dllp_rx.freed;
        nak_seen_q   <= dllp_rx.nak_id;
        up_q         <= 1'b1;
        quiet_q      <= '0;
      end else if (quiet_q == QW'(DOWN_AFTER)) begin
        up_q <= 1'b0;
      end else begin
        quiet_q <= quiet_q + 1'b1;
      end

      if (restart) begin
        replaying_q  <= 1'b1;
        replay_seq_q <= acked;
      end else if (replaying_q) begin
        replay_seq_q <= replay_seq_q + 1'b1;
        if (replay_seq_q + 1'b1 == next_seq_q) replaying_q <= 1'b0;
      end

      // The timer runs while flits are unacknowledged and restarts on progress or a replay.
      if (restart || acked != acked_q || acked == seq_after) timer_q <= '0;
      else timer_q <= timer_q + 1'b1;
    end
  end
  assign up_o = up_q;

  // ================= Receiver
  // A flit leaving the wire enters the receiver's input register, and its CRC is checked on the
  // way in: the register holds the flit and whether it is good, so the check is not in the cycle
  // that decides the FIFO write, and it is computed only for a flit that arrives (a simulator
  // evaluates the clocked process, not combinational logic, on every clock). With LATENCY 1
  // there is no room for the register: the flit is checked as it leaves the wire.
  if (RX_STAGE != 0) begin : g_rx_reg
    logic  rx_v_q, rx_good_q;
    logic [SEQ_W-1:0]  rx_seq_q;
    logic [DATA_W-1:0] rx_data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rx_v_q <= 1'b0;
      else         rx_v_q <= wire_v;
    end
    // The flit (without its CRC) and its check need no reset: they are qualified by rx_v_q.
    always_ff @(posedge clk_i) begin
      if (wire_v) begin
        rx_seq_q  <= wire_flit.seq;
        rx_data_q <= wire_flit.data;
        rx_good_q <= flit_crc({wire_flit.seq, wire_flit.data}) == wire_flit.crc;
      end
    end
    assign rx_v    = rx_v_q;
    assign rx_seq  = rx_seq_q;
    assign rx_data = rx_data_q;
    assign rx_good = rx_v_q && rx_good_q;
  end else begin : g_rx_direct
    assign rx_v    = wire_v;
    assign rx_seq  = wire_flit.seq;
    assign rx_data = wire_flit.data;
    always_comb begin
      rx_good = 1'b0;
      if (wire_v) rx_good = (flit_crc({wire_flit.seq, wire_flit.data}) == wire_flit.crc);
    end
  end
  assign rx_push      = rx_good && rx_seq == expected_q;
  // A bad CRC, or a good flit ahead of the expected one (a gap: something was lost). A good flit
  // behind it is a replayed copy of one already accepted: discarded without a NAK.
  assign rx_err       = rx_v && (!rx_good || SEQ_W'(rx_seq - expected_q) < HALF) && !rx_push;
  assign rx_crc_err_o = rx_v && !rx_good;

  xdie_fifo #(
    .DATA_W(DATA_W),
    .DEPTH (CREDITS)
  ) u_rx_fifo (
    .clk_i,
    .rst_ni,
    .push_valid_i(rx_push),
    .push_ready_o(unused_fifo_ready),
    .push_data_i (rx_data),
    .pop_valid_o (rx_valid_o),
    .pop_ready_i (rx_ready_i),
    .pop_data_o  (rx_data_o)
  );
  assign rx_pop = rx_valid_o && rx_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      expected_q    <= '0;
      freed_q       <= '0;
      nak_pending_q <= 1'b0;
      nak_id_q      <= '0;
    end else begin
      expected_q <= expected_q + SEQ_W'(rx_push);
      freed_q    <= freed_q + SEQ_W'(rx_pop);
      if (rx_push) nak_pending_q <= 1'b0;
      else if (rx_err && !nak_pending_q) begin
        nak_pending_q <= 1'b1;
        nak_id_q      <= nak_id_q + 1'b1;
      end
    end
  end

  // A DLLP every cycle, from registered state.
  always_comb begin
    dllp_tx.ack    = expected_q;
    dllp_tx.nak_id = nak_id_q;
    dllp_tx.freed  = freed_q;
    dllp_tx.crc    = dllp_crc({expected_q, nak_id_q, freed_q});
  end

  xdie_d2d_wire #(.W(DLLP_W), .STAGES(DLLP_STAGES)) u_dllp_wire (
    .clk_i, .rst_ni,
    .valid_i(1'b1), .data_i(dllp_tx), .fault_i(fault_i.dllp),
    .valid_o(dllp_v), .data_o(dllp_rx)
  );
endmodule
