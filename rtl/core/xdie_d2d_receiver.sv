// The receiving half of one die-to-die link channel (xdie_d2d_channel): the input register with
// the CRC check, the receive FIFO of CREDITS flits, and the DLLP back to the sender (see
// xdie_d2d_sender for the other half and how the two are joined).
//
// A flit with a good CRC and the expected sequence number enters the FIFO; anything else is
// discarded. A bad CRC or a sequence gap schedules one NAK (nak_id counts them), and no other
// until a good in-order flit arrives (the flits already on the wire behind the bad one would
// otherwise each ask for the same replay). Every cycle it sends a DLLP from registered state:
// the cumulative acknowledgement (the next sequence number it expects), the NAK number and the
// cumulative count of flits popped from its FIFO (the sender's credits).
//
// With RX_REG 1 (a channel of LATENCY 2 or more) a flit leaving the wire enters the input
// register and its CRC is checked on the way in: the register holds the flit and whether it is
// good, so the check is not in the cycle that decides the FIFO write, and it is computed only for
// a flit that arrives (a simulator evaluates the clocked process, not combinational logic, on
// every clock). With RX_REG 0 the flit is checked as it leaves the wire.

module xdie_d2d_receiver #(
  parameter int unsigned DATA_W  = 1,
  parameter int unsigned CREDITS = 4,
  parameter bit          RX_REG  = 1'b1,
  localparam int unsigned SEQ_W  = $clog2(CREDITS) + 1,
  localparam int unsigned FLIT_W = SEQ_W + 32 + DATA_W,
  localparam int unsigned DLLP_W = 2 * SEQ_W + 2 + 16
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // The flit wire (from the sender) and the DLLP wire (this cycle's word, to it)
  input  logic              flit_valid_i,
  input  logic [FLIT_W-1:0] flit_i,
  output logic              dllp_valid_o,
  output logic [DLLP_W-1:0] dllp_o,
  // The received flits, in order, each once
  output logic              rx_valid_o,
  input  logic              rx_ready_i,
  output logic [DATA_W-1:0] rx_data_o,
  // Link-health event of this cycle: a flit with a bad CRC was discarded.
  output logic              crc_err_o
);
  if (DATA_W < 1 || CREDITS < 2 || SEQ_W > xdie_xbus_pkg::SEQ_MAX_W
      || SEQ_W + DATA_W > xdie_xbus_pkg::FLIT_CRC_IN) begin : g_bad_param
    $error("xdie_d2d_receiver: DATA_W at least 1 and CREDITS 2 .. 2^15; the flit must fit the CRC");
  end

  localparam logic [SEQ_W-1:0] HALF = SEQ_W'(1) << (SEQ_W - 1);

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

  logic [SEQ_W-1:0] expected_q, freed_q;
  logic             nak_pending_q;
  logic [1:0]       nak_id_q;
  logic             rx_v, rx_good, rx_push, rx_err, rx_pop;
  flit_t            wire_flit;
  logic [SEQ_W-1:0]  rx_seq;
  logic [DATA_W-1:0] rx_data;
  dllp_t            dllp;
  // The credits guarantee room for every accepted flit, so the FIFO's ready is not needed.
  logic             unused_fifo_ready;

  assign wire_flit = flit_i;

  // The CRC the flit on the wire should carry (evaluated only where a flit arrives).
  logic [xdie_xbus_pkg::FLIT_CRC_IN-1:0] wire_payload;
  assign wire_payload = xdie_xbus_pkg::FLIT_CRC_IN'({wire_flit.seq, wire_flit.data});

  if (RX_REG) begin : g_rx_reg
    logic  rx_v_q, rx_good_q;
    logic [SEQ_W-1:0]  rx_seq_q;
    logic [DATA_W-1:0] rx_data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rx_v_q <= 1'b0;
      else         rx_v_q <= flit_valid_i;
    end
    // The flit (without its CRC) and its check need no reset: they are qualified by rx_v_q.
    always_ff @(posedge clk_i) begin
      if (flit_valid_i) begin
        rx_seq_q  <= wire_flit.seq;
        rx_data_q <= wire_flit.data;
        rx_good_q <= xdie_xbus_pkg::flit_crc(wire_payload) == wire_flit.crc;
      end
    end
    assign rx_v    = rx_v_q;
    assign rx_seq  = rx_seq_q;
    assign rx_data = rx_data_q;
    assign rx_good = rx_v_q && rx_good_q;
  end else begin : g_rx_direct
    assign rx_v    = flit_valid_i;
    assign rx_seq  = wire_flit.seq;
    assign rx_data = wire_flit.data;
    always_comb begin
      rx_good = 1'b0;
      if (flit_valid_i) rx_good = xdie_xbus_pkg::flit_crc(wire_payload) == wire_flit.crc;
    end
  end
  assign rx_push   = rx_good && rx_seq == expected_q;
  // A bad CRC, or a good flit ahead of the expected one (a gap: something was lost). A good flit
  // behind it is a replayed copy of one already accepted: discarded without a NAK.
  assign rx_err    = rx_v && (!rx_good || SEQ_W'(rx_seq - expected_q) < HALF) && !rx_push;
  assign crc_err_o = rx_v && !rx_good;

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
    dllp.ack    = expected_q;
    dllp.nak_id = nak_id_q;
    dllp.freed  = freed_q;
    dllp.crc    = xdie_xbus_pkg::dllp_crc(xdie_xbus_pkg::DLLP_CRC_IN'({expected_q, nak_id_q, freed_q}));
  end
  assign dllp_o       = dllp;
  assign dllp_valid_o = 1'b1;
endmodule
