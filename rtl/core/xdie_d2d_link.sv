// The die-to-die link between die A's and die B's D2D ports: per direction a request channel and
// a response channel, each an in-order, lossless, credit-flow-controlled xdie_d2d_channel with
// LATENCY cycles each way, CREDITS flits of receive buffer and a link layer (CRC, acknowledgements,
// replay) that delivers every flit exactly once over wires with faults (fault_i, see
// xdie_d2d_pkg; tie to zero in hardware).
//
// The receive FIFOs live here, in the link, not in the ports: a port then sees a plain
// valid/ready flit source on its receive side, and CREDITS (the FIFO depth) and the credit
// counters sit in one module, so they cannot disagree. On its send side a port offers a flit
// (valid) and the channel takes it in a cycle where its credit output is 1; a flit offered
// without a credit is a credit wait in the health report.
//
// Flits (packed by the D2D port, carried here as opaque bits): xdie_xbus_pkg's request struct
//   {write, addr, wdata, wstrb} and response struct {rdata, err}, one flit per channel beat.
//
// Link health per die: link_up (every channel has finished its credit bring-up and none has gone
// quiet), the current credits of that die's request sender, and its health (xdie_d2d_pkg::health_t:
// link up, this cycle's CRC errors detected, replays started and credit waits at that die). Parameter defaults are the die map's LINK_LATENCY and
// LINK_CREDITS; the flit widths follow the xbus package.

module xdie_d2d_link #(
  // Cycles a flit takes across the link.
  parameter int unsigned LATENCY = xdie_soc_addr_pkg::P_LINK_LATENCY,
  // Receive buffer entries per channel (the sender's credits).
  parameter int unsigned CREDITS = xdie_soc_addr_pkg::P_LINK_CREDITS,
  localparam int unsigned CW     = $clog2(CREDITS + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Die A: request send / receive, response send / receive, health
  input  logic             a_req_tx_valid_i,
  input  xdie_xbus_pkg::req_t a_req_tx_data_i,
  output logic             a_req_tx_credit_o,
  output logic             a_req_rx_valid_o,
  input  logic             a_req_rx_ready_i,
  output xdie_xbus_pkg::req_t a_req_rx_data_o,
  input  logic             a_rsp_tx_valid_i,
  input  xdie_xbus_pkg::rsp_t a_rsp_tx_data_i,
  output logic             a_rsp_tx_credit_o,
  output logic             a_rsp_rx_valid_o,
  input  logic             a_rsp_rx_ready_i,
  output xdie_xbus_pkg::rsp_t a_rsp_rx_data_o,
  output logic             a_link_up_o,
  output logic [CW-1:0]    a_credits_o,
  output xdie_d2d_pkg::health_t a_health_o,
  // Die B: the same
  input  logic             b_req_tx_valid_i,
  input  xdie_xbus_pkg::req_t b_req_tx_data_i,
  output logic             b_req_tx_credit_o,
  output logic             b_req_rx_valid_o,
  input  logic             b_req_rx_ready_i,
  output xdie_xbus_pkg::req_t b_req_rx_data_o,
  input  logic             b_rsp_tx_valid_i,
  input  xdie_xbus_pkg::rsp_t b_rsp_tx_data_i,
  output logic             b_rsp_tx_credit_o,
  output logic             b_rsp_rx_valid_o,
  input  logic             b_rsp_rx_ready_i,
  output xdie_xbus_pkg::rsp_t b_rsp_rx_data_o,
  output logic             b_link_up_o,
  output logic [CW-1:0]    b_credits_o,
  output xdie_d2d_pkg::health_t b_health_o,
  // Fault injection per channel (zero in hardware)
  input  xdie_d2d_pkg::link_fault_t fault_i
);
  if (LATENCY < 1 || CREDITS < 1) begin : g_bad_param
    $error("xdie_d2d_link: LATENCY and CREDITS must be at least 1");
  end

  // Channels by index: the up bits and the per-channel link-layer events.
  localparam int unsigned A2B_REQ = 0, B2A_RSP = 1, B2A_REQ = 2, A2B_RSP = 3;
  logic [3:0] up, ev_rx_crc, ev_dllp, ev_replay;
  logic [CW-1:0] a_rsp_credits, b_rsp_credits;
  // Only the request senders' credits are reported.
  logic unused_rsp_credits;
  assign unused_rsp_credits = ^{a_rsp_credits, b_rsp_credits};

  xdie_d2d_channel #(.DATA_W($bits(a_req_tx_data_i)), .LATENCY(LATENCY), .CREDITS(CREDITS)) u_a2b_req (
    .clk_i,
    .rst_ni,
    .tx_valid_i (a_req_tx_valid_i),
    .tx_data_i  (a_req_tx_data_i),
    .tx_credit_o(a_req_tx_credit_o),
    .credits_o  (a_credits_o),
    .up_o       (up[A2B_REQ]),
    .rx_valid_o (b_req_rx_valid_o),
    .rx_ready_i (b_req_rx_ready_i),
    .rx_data_o  (b_req_rx_data_o),
    .fault_i      (fault_i.a2b_req),
    .rx_crc_err_o (ev_rx_crc[A2B_REQ]),
    .tx_dllp_err_o(ev_dllp[A2B_REQ]),
    .tx_replay_o  (ev_replay[A2B_REQ])
  );

  xdie_d2d_channel #(.DATA_W($bits(a_rsp_tx_data_i)), .LATENCY(LATENCY), .CREDITS(CREDITS)) u_b2a_rsp (
    .clk_i,
    .rst_ni,
    .tx_valid_i (b_rsp_tx_valid_i),
    .tx_data_i  (b_rsp_tx_data_i),
    .tx_credit_o(b_rsp_tx_credit_o),
    .credits_o  (b_rsp_credits),
    .up_o       (up[B2A_RSP]),
    .rx_valid_o (a_rsp_rx_valid_o),
    .rx_ready_i (a_rsp_rx_ready_i),
    .rx_data_o  (a_rsp_rx_data_o),
    .fault_i      (fault_i.b2a_rsp),
    .rx_crc_err_o (ev_rx_crc[B2A_RSP]),
    .tx_dllp_err_o(ev_dllp[B2A_RSP]),
    .tx_replay_o  (ev_replay[B2A_RSP])
  );

  xdie_d2d_channel #(.DATA_W($bits(a_req_tx_data_i)), .LATENCY(LATENCY), .CREDITS(CREDITS)) u_b2a_req (
    .clk_i,
    .rst_ni,
    .tx_valid_i (b_req_tx_valid_i),
    .tx_data_i  (b_req_tx_data_i),
    .tx_credit_o(b_req_tx_credit_o),
    .credits_o  (b_credits_o),
    .up_o       (up[B2A_REQ]),
    .rx_valid_o (a_req_rx_valid_o),
    .rx_ready_i (a_req_rx_ready_i),
    .rx_data_o  (a_req_rx_data_o),
    .fault_i      (fault_i.b2a_req),
    .rx_crc_err_o (ev_rx_crc[B2A_REQ]),
    .tx_dllp_err_o(ev_dllp[B2A_REQ]),
    .tx_replay_o  (ev_replay[B2A_REQ])
  );

  xdie_d2d_channel #(.DATA_W($bits(a_rsp_tx_data_i)), .LATENCY(LATENCY), .CREDITS(CREDITS)) u_a2b_rsp (
    .clk_i,
    .rst_ni,
    .tx_valid_i (a_rsp_tx_valid_i),
    .tx_data_i  (a_rsp_tx_data_i),
    .tx_credit_o(a_rsp_tx_credit_o),
    .credits_o  (a_rsp_credits),
    .up_o       (up[A2B_RSP]),
    .rx_valid_o (b_rsp_rx_valid_o),
    .rx_ready_i (b_rsp_rx_ready_i),
    .rx_data_o  (b_rsp_rx_data_o),
    .fault_i      (fault_i.a2b_rsp),
    .rx_crc_err_o (ev_rx_crc[A2B_RSP]),
    .tx_dllp_err_o(ev_dllp[A2B_RSP]),
    .tx_replay_o  (ev_replay[A2B_RSP])
  );

  // Events at each die: bad flits it received, bad DLLPs about channels it sends on, replays of
  // channels it sends on ([0] request channel, [1] response channel).
  assign a_health_o.up           = a_link_up_o;
  assign b_health_o.up           = b_link_up_o;
  assign a_health_o.flit_crc_err = {ev_rx_crc[B2A_RSP], ev_rx_crc[B2A_REQ]};
  assign a_health_o.dllp_crc_err = {ev_dllp[A2B_RSP], ev_dllp[A2B_REQ]};
  assign a_health_o.replay       = {ev_replay[A2B_RSP], ev_replay[A2B_REQ]};
  assign b_health_o.flit_crc_err = {ev_rx_crc[A2B_RSP], ev_rx_crc[A2B_REQ]};
  assign b_health_o.dllp_crc_err = {ev_dllp[B2A_RSP], ev_dllp[B2A_REQ]};
  assign b_health_o.replay       = {ev_replay[B2A_RSP], ev_replay[B2A_REQ]};
  // A flit offered without a send credit (the ports offer flits only while the link is up).
  assign a_health_o.credit_wait  = {a_rsp_tx_valid_i && !a_rsp_tx_credit_o,
                                    a_req_tx_valid_i && !a_req_tx_credit_o};
  assign b_health_o.credit_wait  = {b_rsp_tx_valid_i && !b_rsp_tx_credit_o,
                                    b_req_tx_valid_i && !b_req_tx_credit_o};

  // The link is up for both dies only when all four channels are.
  assign a_link_up_o = &up;
  assign b_link_up_o = &up;
endmodule
