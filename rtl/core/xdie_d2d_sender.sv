// The sending half of one die-to-die link channel (xdie_d2d_channel): sequence numbers, the
// flit CRC, the replay buffer, credits and link-up, at the sender's end of the two wires. It
// drives the flit wire and reads the DLLP wire; xdie_d2d_channel joins it to an
// xdie_d2d_receiver through xdie_d2d_wire stages, and a composed simulation (one verilated die
// per instance, the wires in software) joins the two halves of a channel across two dies.
//
// Each new flit gets the next sequence number and is kept in the replay buffer until
// acknowledged. The receiver acknowledges cumulatively (ack = the next sequence number it
// expects); the sender replays every unacknowledged flit in order when the receiver reports a
// new NAK or when no acknowledgement has made progress for REPLAY_TIMEOUT cycles (a lost NAK, a
// lost last flit, a replay hit by a fault, a quiet link). New flits wait while a replay runs. It
// sends at most CREDITS flits beyond the receiver's cumulative freed count; a new flit takes a
// credit once, its replays none (its FIFO entry is still reserved).
//
// Link up: after reset there are no credits and up_o is 0 until the first good DLLP arrives (as
// a PCIe InitFC); the link goes down again when no good DLLP has arrived for DOWN_AFTER cycles,
// and comes back with the next good one.

module xdie_d2d_sender #(
  parameter int unsigned DATA_W  = 1,
  parameter int unsigned CREDITS = 4,
  // Cycles without acknowledgement progress (while flits are unacknowledged) before a replay.
  parameter int unsigned REPLAY_TIMEOUT = 40,
  // Cycles without a good DLLP before the link is reported down.
  parameter int unsigned DOWN_AFTER = 48,
  localparam int unsigned CW     = $clog2(CREDITS + 1),
  localparam int unsigned SEQ_W  = $clog2(CREDITS) + 1,
  localparam int unsigned FLIT_W = SEQ_W + 32 + DATA_W,
  localparam int unsigned DLLP_W = 2 * SEQ_W + 2 + 16
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              tx_valid_i,
  input  logic [DATA_W-1:0] tx_data_i,
  output logic              tx_credit_o,
  output logic [CW-1:0]     credits_o,
  output logic              up_o,
  // The flit wire (this cycle's word, to the receiver) and the DLLP wire (from it)
  output logic              flit_valid_o,
  output logic [FLIT_W-1:0] flit_o,
  input  logic              dllp_valid_i,
  input  logic [DLLP_W-1:0] dllp_i,
  // Link-health events of this cycle: a DLLP with a bad CRC arrived, a replay started.
  output logic              dllp_err_o,
  output logic              replay_o
);
  if (DATA_W < 1 || CREDITS < 2 || SEQ_W > xdie_xbus_pkg::SEQ_MAX_W
      || SEQ_W + DATA_W > xdie_xbus_pkg::FLIT_CRC_IN) begin : g_bad_param
    $error("xdie_d2d_sender: DATA_W at least 1 and CREDITS 2 .. 2^15; the flit must fit the CRC");
  end

  localparam int unsigned RB_W = SEQ_W - 1;
  localparam int unsigned TW   = $clog2(REPLAY_TIMEOUT + 1);
  localparam int unsigned QW   = $clog2(DOWN_AFTER + 1);

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

  logic [SEQ_W-1:0] next_seq_q, acked_q, freed_seen_q, replay_seq_q;
  logic             replaying_q, up_q;
  logic [1:0]       nak_seen_q;
  logic [TW-1:0]    timer_q;
  logic [QW-1:0]    quiet_q;
  logic [DATA_W-1:0] rb_q [2**RB_W];

  logic [SEQ_W-1:0] outstanding;
  logic [SEQ_W-1:0] credits;
  logic             send_new;
  flit_t            flit;
  dllp_t            dllp;
  logic             dllp_good;

  assign outstanding = next_seq_q - freed_seen_q;
  assign credits     = SEQ_W'(CREDITS) - outstanding;
  assign credits_o   = up_q ? CW'(credits) : '0;
  assign tx_credit_o = up_q && !replaying_q && (credits != '0);
  assign send_new    = tx_valid_i && tx_credit_o;
  assign flit_valid_o = send_new || replaying_q;

  always_ff @(posedge clk_i) begin
    if (send_new) rb_q[next_seq_q[RB_W-1:0]] <= tx_data_i;
  end

  // The CRC is computed only for a flit that is sent.
  always_comb begin
    flit = '0;
    if (flit_valid_o) begin
      flit.seq  = replaying_q ? replay_seq_q : next_seq_q;
      flit.data = replaying_q ? rb_q[replay_seq_q[RB_W-1:0]] : tx_data_i;
      flit.crc  = xdie_xbus_pkg::flit_crc(xdie_xbus_pkg::FLIT_CRC_IN'({flit.seq, flit.data}));
    end
  end
  assign flit_o = flit;

  // A DLLP is believed when its CRC is good and its acknowledgement lies within the flits sent.
  assign dllp = dllp_i;
  assign dllp_good = dllp_valid_i
      && (xdie_xbus_pkg::dllp_crc(xdie_xbus_pkg::DLLP_CRC_IN'({dllp.ack, dllp.nak_id, dllp.freed})) == dllp.crc)
      && (SEQ_W'(dllp.ack - acked_q) <= SEQ_W'(next_seq_q - acked_q));
  assign dllp_err_o = dllp_valid_i && !dllp_good;

  // This cycle's acknowledgement, and whether a replay starts: on a new NAK or a timeout, from
  // the oldest unacknowledged flit, unless every flit sent so far is acknowledged.
  logic [SEQ_W-1:0] acked, seq_after;
  logic             restart;
  always_comb begin
    acked     = dllp_good ? dllp.ack : acked_q;
    seq_after = next_seq_q + SEQ_W'(send_new);
    restart   = ((dllp_good && dllp.nak_id != nak_seen_q) || timer_q == TW'(REPLAY_TIMEOUT))
                && acked != next_seq_q;
  end
  assign replay_o = restart;

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
        freed_seen_q <= dllp.freed;
        nak_seen_q   <= dllp.nak_id;
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
endmodule
