// One die with its ends of its links: the unit a composed simulation instances once per die of
// any topology (tb/src/system.rs). A simulation top, not a part of the die: it is not in
// rtl/xdie.f (the testbench's build adds it; lint it with `verilator --lint-only -Wall
// rtl/lint.vlt -f rtl/xdie.f rtl/sim/xdie_die_node.sv --top-module xdie_die_node`). The die (xdie_die) and, per D2D port, the sending half
// (xdie_d2d_sender) of the port's outgoing request and response channels and the receiving half
// (xdie_d2d_receiver) of its incoming ones. What is left of a link is its wires, and those leave
// the module: per port and channel, the flit wire towards the peer and the DLLP wire back from it.
// Whoever joins two dies delays each wire word by the wire's stages, as xdie_d2d_wire does: a
// flit word leaving in cycle t enters the peer's receiver in cycle t + LATENCY - 2 (its input
// register is the link's last stage), a DLLP word in cycle t + LATENCY - 1. No wire output
// depends on a wire input in the same cycle, so two dies can run that many cycles apart.
//
// Port c's signals are bits [c*W +: W] of each vector. `req_flit_o` carries the requests this die
// sends, `req_dllp_o` the acknowledgements of the requests it receives (to the peer's request
// sender); `rsp_*` the same for responses. A port without a link: leave its inputs zero (no flit,
// no DLLP: its senders never come up) and its bit of `linked_i` clear (requests routed to it are
// answered DECERR).
// Differences from two dies joined by xdie_d2d_link: a die's link-up is the up of its own two
// senders (the link reports the AND of all four channels' to both dies); both agree except after a
// fault only one direction saw. The link layer's timers are those of the die map's LINK_LATENCY.
// The identity, the linked mask and the stall are registered before use: logic that reads a top
// input is re-evaluated by Verilator on every eval, and these reach every address decoder and the
// engines (see xdie_pkg_top). Identity and mask are straps: set them before reset ends, keep them.
// The address view is `XDIE_NODE_VIEW` (default: the chip-id view); the testbench's build defines
// it to xdie_soc_addr_pkg::VIEW_NEIGHBOR for its second model (tb/build.rs, docs/mesh.md).
`ifndef XDIE_NODE_VIEW
`define XDIE_NODE_VIEW xdie_soc_addr_pkg::VIEW_CHIP_ID
`endif
module xdie_die_node #(
  // Address view of the system (xdie_soc_addr_pkg::VIEW_*, see XDIE_NODE_VIEW above)
  parameter logic [xdie_soc_addr_pkg::VIEW_W-1:0] VIEW = `XDIE_NODE_VIEW,
  // Clock-gate idle engines (xdie_die): on for simulation
  parameter bit CLOCK_GATE = 1'b1,
  localparam int unsigned ND     = xdie_sizing_pkg::DEFAULT_D2D_CONTROLLERS,
  localparam int unsigned E      = xdie_sizing_pkg::DEFAULT_SDMA_ENGINES,
  localparam int unsigned CREDITS = xdie_sizing_pkg::DEFAULT_LINK_CREDITS,
  localparam xdie_xbus_pkg::req_t REQ_NONE = '0,
  localparam xdie_xbus_pkg::rsp_t RSP_NONE = '0,
  localparam int unsigned REQ_W  = $bits(REQ_NONE),
  localparam int unsigned RSP_W  = $bits(RSP_NONE),
  localparam xdie_d2d_pkg::health_t HEALTH_NONE = '0,
  localparam int unsigned HW     = $bits(HEALTH_NONE),
  localparam int unsigned SEQ_W  = $clog2(CREDITS) + 1,
  localparam int unsigned REQ_FLIT_W = SEQ_W + 32 + REQ_W,
  localparam int unsigned RSP_FLIT_W = SEQ_W + 32 + RSP_W,
  localparam int unsigned DLLP_W = 2 * SEQ_W + 2 + 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // straps: identity and the ports with a link
  input  logic [xdie_soc_addr_pkg::LOCAL_DIE_WIDTH-1:0]       my_die_i,
  input  logic [xdie_soc_addr_pkg::LOCAL_CAYMAN_ID_WIDTH-1:0] my_chip_i,
  input  logic [ND-1:0] linked_i,
  // host AXI4-Lite slave (xt addresses)
  input  logic        s_axil_awvalid_i,
  output logic        s_axil_awready_o,
  input  logic [31:0] s_axil_awaddr_i,
  input  logic        s_axil_wvalid_i,
  output logic        s_axil_wready_o,
  input  logic [31:0] s_axil_wdata_i,
  input  logic [3:0]  s_axil_wstrb_i,
  output logic        s_axil_bvalid_o,
  input  logic        s_axil_bready_i,
  output logic [1:0]  s_axil_bresp_o,
  input  logic        s_axil_arvalid_i,
  output logic        s_axil_arready_o,
  input  logic [31:0] s_axil_araddr_i,
  output logic        s_axil_rvalid_o,
  input  logic        s_axil_rready_i,
  output logic [31:0] s_axil_rdata_o,
  output logic [1:0]  s_axil_rresp_o,
  // engine status: all engines idle, any sticky read ([0]) or write ([1]) error
  output logic        idle_o,
  output logic [1:0]  err_o,
  // link-health interrupt and each port's health this cycle
  output logic        irq_o,
  output logic [ND*HW-1:0] health_o,
  // per port: its send side sees no credit in the next cycle and offers the link nothing
  // (backpressure a testbench injects)
  input  logic [ND-1:0] tx_stall_i,
  // link wires, leaving
  output logic [ND-1:0]            req_flit_valid_o,
  output logic [ND*REQ_FLIT_W-1:0] req_flit_o,
  output logic [ND-1:0]            rsp_flit_valid_o,
  output logic [ND*RSP_FLIT_W-1:0] rsp_flit_o,
  output logic [ND-1:0]            req_dllp_valid_o,
  output logic [ND*DLLP_W-1:0]     req_dllp_o,
  output logic [ND-1:0]            rsp_dllp_valid_o,
  output logic [ND*DLLP_W-1:0]     rsp_dllp_o,
  // link wires, arriving
  input  logic [ND-1:0]            req_flit_valid_i,
  input  logic [ND*REQ_FLIT_W-1:0] req_flit_i,
  input  logic [ND-1:0]            rsp_flit_valid_i,
  input  logic [ND*RSP_FLIT_W-1:0] rsp_flit_i,
  input  logic [ND-1:0]            req_dllp_valid_i,
  input  logic [ND*DLLP_W-1:0]     req_dllp_i,
  input  logic [ND-1:0]            rsp_dllp_valid_i,
  input  logic [ND*DLLP_W-1:0]     rsp_dllp_i
);
  localparam int unsigned LATENCY = xdie_soc_addr_pkg::P_LINK_LATENCY;
  localparam int unsigned CW      = $clog2(CREDITS + 1);

  logic [xdie_soc_addr_pkg::LOCAL_DIE_WIDTH-1:0]       my_die_q;
  logic [xdie_soc_addr_pkg::LOCAL_CAYMAN_ID_WIDTH-1:0] my_chip_q;
  logic [ND-1:0] linked_q, tx_stall_q;

  // Straps need no reset: they are held while reset is.
  always_ff @(posedge clk_i) begin
    my_die_q  <= my_die_i;
    my_chip_q <= my_chip_i;
    linked_q  <= linked_i;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tx_stall_q <= '0;
    else         tx_stall_q <= tx_stall_i;
  end

  // The die's side of every port
  logic [ND-1:0]       req_tx_valid, req_tx_credit, req_rx_valid, req_rx_ready;
  logic [ND-1:0]       rsp_tx_valid, rsp_tx_credit, rsp_rx_valid, rsp_rx_ready;
  logic [ND*REQ_W-1:0] req_tx_data, req_rx_data;
  logic [ND*RSP_W-1:0] rsp_tx_data, rsp_rx_data;
  logic [ND-1:0]       link_up;
  logic [ND*CW-1:0]    link_credits;
  // Link-layer events per port ([2c] request channel, [2c+1] response channel)
  logic [2*ND-1:0]     hl_flit_crc_err, hl_dllp_crc_err, hl_replay, hl_credit_wait;
  logic [2*E-1:0]      eng_err;
  logic [E-1:0]        eng_idle;

  assign idle_o = &eng_idle;
  for (genvar b = 0; b < 2; b++) begin : g_err
    logic [E-1:0] e_b;
    for (genvar e = 0; e < E; e++) begin : g_bit
      assign e_b[e] = eng_err[2*e + b];
    end
    assign err_o[b] = |e_b;
  end

  for (genvar c = 0; c < ND; c++) begin : g_port
    // The senders' view of the die's offers, through the stall: a stalled port sees no credit
    // and offers no flit (a push is valid and credit, so a stall never breaks a handshake).
    logic req_valid, rsp_valid, req_credit, rsp_credit;
    logic req_up, rsp_up, unused_rsp_credits;
    logic [CW-1:0] rsp_credits;
    // A port without a link keeps its link ends as reset left them (no DLLP ever arrives, so a
    // sender never comes up and a receiver never takes a flit): their clock stops after reset,
    // and a simulator skips them.
    logic link_clk;
    xdie_clock_gate #(.ENABLE(CLOCK_GATE)) u_link_gate (
      .clk_i, .rst_ni, .en_i(linked_q[c]), .clk_o(link_clk)
    );

    assign req_valid = req_tx_valid[c] && !tx_stall_q[c];
    assign rsp_valid = rsp_tx_valid[c] && !tx_stall_q[c];
    assign req_tx_credit[c] = req_credit && !tx_stall_q[c];
    assign rsp_tx_credit[c] = rsp_credit && !tx_stall_q[c];

    xdie_d2d_sender #(
      .DATA_W(REQ_W), .CREDITS(CREDITS),
      .REPLAY_TIMEOUT(2 * LATENCY + 8), .DOWN_AFTER(2 * LATENCY + 16)
    ) u_req_tx (
      .clk_i(link_clk), .rst_ni,
      .tx_valid_i(req_valid), .tx_data_i(req_tx_data[c*REQ_W +: REQ_W]),
      .tx_credit_o(req_credit), .credits_o(link_credits[c*CW +: CW]), .up_o(req_up),
      .flit_valid_o(req_flit_valid_o[c]), .flit_o(req_flit_o[c*REQ_FLIT_W +: REQ_FLIT_W]),
      .dllp_valid_i(req_dllp_valid_i[c]), .dllp_i(req_dllp_i[c*DLLP_W +: DLLP_W]),
      .dllp_err_o(hl_dllp_crc_err[2*c]), .replay_o(hl_replay[2*c])
    );

    xdie_d2d_sender #(
      .DATA_W(RSP_W), .CREDITS(CREDITS),
      .REPLAY_TIMEOUT(2 * LATENCY + 8), .DOWN_AFTER(2 * LATENCY + 16)
    ) u_rsp_tx (
      .clk_i(link_clk), .rst_ni,
      .tx_valid_i(rsp_valid), .tx_data_i(rsp_tx_data[c*RSP_W +: RSP_W]),
      .tx_credit_o(rsp_credit), .credits_o(rsp_credits), .up_o(rsp_up),
      .flit_valid_o(rsp_flit_valid_o[c]), .flit_o(rsp_flit_o[c*RSP_FLIT_W +: RSP_FLIT_W]),
      .dllp_valid_i(rsp_dllp_valid_i[c]), .dllp_i(rsp_dllp_i[c*DLLP_W +: DLLP_W]),
      .dllp_err_o(hl_dllp_crc_err[2*c+1]), .replay_o(hl_replay[2*c+1])
    );
    // Only the request sender's credits are reported (as the link does).
    assign unused_rsp_credits = ^rsp_credits;

    xdie_d2d_receiver #(.DATA_W(REQ_W), .CREDITS(CREDITS), .RX_REG(1'b1)) u_req_rx (
      .clk_i(link_clk), .rst_ni,
      .flit_valid_i(req_flit_valid_i[c]), .flit_i(req_flit_i[c*REQ_FLIT_W +: REQ_FLIT_W]),
      .dllp_valid_o(req_dllp_valid_o[c]), .dllp_o(req_dllp_o[c*DLLP_W +: DLLP_W]),
      .rx_valid_o(req_rx_valid[c]), .rx_ready_i(req_rx_ready[c]),
      .rx_data_o(req_rx_data[c*REQ_W +: REQ_W]),
      .crc_err_o(hl_flit_crc_err[2*c])
    );

    xdie_d2d_receiver #(.DATA_W(RSP_W), .CREDITS(CREDITS), .RX_REG(1'b1)) u_rsp_rx (
      .clk_i(link_clk), .rst_ni,
      .flit_valid_i(rsp_flit_valid_i[c]), .flit_i(rsp_flit_i[c*RSP_FLIT_W +: RSP_FLIT_W]),
      .dllp_valid_o(rsp_dllp_valid_o[c]), .dllp_o(rsp_dllp_o[c*DLLP_W +: DLLP_W]),
      .rx_valid_o(rsp_rx_valid[c]), .rx_ready_i(rsp_rx_ready[c]),
      .rx_data_o(rsp_rx_data[c*RSP_W +: RSP_W]),
      .crc_err_o(hl_flit_crc_err[2*c+1])
    );

    assign link_up[c] = req_up && rsp_up;
    // A flit offered without a send credit.
    assign hl_credit_wait[2*c +: 2] = {rsp_valid && !rsp_credit, req_valid && !req_credit};
  end

  // Each port's health report, assembled in one module-level struct (Yosys 0.23 misreads members
  // of a struct declared inside a generate block).
  xdie_d2d_pkg::health_t health_c;
  always_comb begin
    health_o = '0;
    for (int c = 0; c < ND; c++) begin
      health_c              = '0;
      health_c.up           = link_up[c];
      health_c.flit_crc_err = hl_flit_crc_err[2*c +: 2];
      health_c.dllp_crc_err = hl_dllp_crc_err[2*c +: 2];
      health_c.replay       = hl_replay[2*c +: 2];
      health_c.credit_wait  = hl_credit_wait[2*c +: 2];
      health_o[c*HW +: HW]  = health_c;
    end
  end

  // Every size is the die's default, which is the die map's value.
  xdie_die #(.CLOCK_GATE(CLOCK_GATE), .D2D_CTRLS(ND), .VIEW(VIEW)) u_die (
    .clk_i, .rst_ni,
    .my_die_i(my_die_q), .my_chip_i(my_chip_q),
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .d2d_req_tx_valid_o(req_tx_valid), .d2d_req_tx_data_o(req_tx_data),
    .d2d_req_tx_credit_i(req_tx_credit),
    .d2d_req_rx_valid_i(req_rx_valid), .d2d_req_rx_ready_o(req_rx_ready),
    .d2d_req_rx_data_i(req_rx_data),
    .d2d_rsp_tx_valid_o(rsp_tx_valid), .d2d_rsp_tx_data_o(rsp_tx_data),
    .d2d_rsp_tx_credit_i(rsp_tx_credit),
    .d2d_rsp_rx_valid_i(rsp_rx_valid), .d2d_rsp_rx_ready_o(rsp_rx_ready),
    .d2d_rsp_rx_data_i(rsp_rx_data),
    .d2d_linked_i(linked_q), .d2d_link_up_i(link_up), .d2d_link_credits_i(link_credits),
    .d2d_health_i(health_o), .irq_o,
    .eng_err_o(eng_err), .eng_idle_o(eng_idle)
  );
endmodule
