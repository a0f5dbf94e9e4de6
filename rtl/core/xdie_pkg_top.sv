// Package top: the two dies of one package (die ids 0 and 1) joined by the die-to-die link,
// each with its host AXI4-Lite port (h0_ for die 0, h1_ for die 1). It is the single-package
// topology (topologies/package.yaml): neighbor view, the sibling link on C2C port 0 of both dies,
// the other ports without a link.
//
// Every size comes from the generated packages through the defaults of the die and the link:
// engines, beat width, SBUF geometry and backing, HBM size, link latency and credits.

module xdie_pkg_top #(
  // Clock-gate idle engines (xdie_die): on here, where the package is simulated, because a
  // simulator then does no work for an engine that has nothing to do.
  parameter bit CLOCK_GATE = 1'b1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // package (chip) id of both dies
  input  logic [xdie_soc_addr_pkg::LOCAL_CAYMAN_ID_WIDTH-1:0] chip_id_i,
  // die 0 host port
  input  logic        h0_awvalid_i,
  output logic        h0_awready_o,
  input  logic [31:0] h0_awaddr_i,
  input  logic        h0_wvalid_i,
  output logic        h0_wready_o,
  input  logic [31:0] h0_wdata_i,
  input  logic [3:0]  h0_wstrb_i,
  output logic        h0_bvalid_o,
  input  logic        h0_bready_i,
  output logic [1:0]  h0_bresp_o,
  input  logic        h0_arvalid_i,
  output logic        h0_arready_o,
  input  logic [31:0] h0_araddr_i,
  output logic        h0_rvalid_o,
  input  logic        h0_rready_i,
  output logic [31:0] h0_rdata_o,
  output logic [1:0]  h0_rresp_o,
  // die 1 host port
  input  logic        h1_awvalid_i,
  output logic        h1_awready_o,
  input  logic [31:0] h1_awaddr_i,
  input  logic        h1_wvalid_i,
  output logic        h1_wready_o,
  input  logic [31:0] h1_wdata_i,
  input  logic [3:0]  h1_wstrb_i,
  output logic        h1_bvalid_o,
  input  logic        h1_bready_i,
  output logic [1:0]  h1_bresp_o,
  input  logic        h1_arvalid_i,
  output logic        h1_arready_o,
  input  logic [31:0] h1_araddr_i,
  output logic        h1_rvalid_o,
  input  logic        h1_rready_i,
  output logic [31:0] h1_rdata_o,
  output logic [1:0]  h1_rresp_o,
  // engine status per die: all engines idle, any sticky read/write error
  output logic        d0_idle_o,
  output logic [1:0]  d0_err_o,
  output logic        d1_idle_o,
  output logic [1:0]  d1_err_o,
  // link health per die: link up, this cycle's CRC errors detected, replays started and credit
  // waits
  output xdie_d2d_pkg::health_t d0_link_health_o,
  output xdie_d2d_pkg::health_t d1_link_health_o,
  // link-health interrupt per die (its d2d_health blocks: link health only)
  output logic        d0_irq_o,
  output logic        d1_irq_o,
  // fault injection on the link's wires (a testbench's; zero in hardware), applied in the cycle
  // after it is presented
  input  xdie_d2d_pkg::link_fault_t link_fault_i,
  // per die: its send side sees no credit on either channel in the next cycle and offers the
  // link nothing (backpressure a testbench injects; tie to zero otherwise)
  input  logic [1:0]  tx_stall_i
);

  localparam int unsigned E    = xdie_soc_addr_pkg::P_SDMA_ENGINES;
  localparam int unsigned DIEW = xdie_soc_addr_pkg::LOCAL_DIE_WIDTH;
  localparam int unsigned CW   = $clog2(xdie_soc_addr_pkg::P_LINK_CREDITS + 1);
  localparam int unsigned ND   = xdie_sizing_pkg::DEFAULT_D2D_CONTROLLERS;
  // Flit widths, as $bits of a constant of each flit type: Yosys 0.23 takes $bits of neither a
  // type name nor an array of structs, and drops the width of an array of structs on a port.
  localparam xdie_xbus_pkg::req_t REQ_NONE = '0;
  localparam xdie_xbus_pkg::rsp_t RSP_NONE = '0;
  localparam int unsigned REQ_W = $bits(REQ_NONE);
  localparam int unsigned RSP_W = $bits(RSP_NONE);
  localparam xdie_d2d_pkg::health_t HEALTH_NONE = '0;
  localparam int unsigned HW    = $bits(HEALTH_NONE);

  // Per die d: link signals of its side
  logic [1:0]         req_tx_valid, req_tx_credit, req_rx_valid, req_rx_ready;
  // The link's view of the send sides, through the stall: a stalled die sees no credit and
  // offers no flit (a push is valid and credit, so a stall never breaks a handshake)
  logic [1:0]         link_req_tx_valid, link_req_tx_credit, link_rsp_tx_valid, link_rsp_tx_credit;
  logic [2*REQ_W-1:0] req_tx_data, req_rx_data;
  logic [1:0]         rsp_tx_valid, rsp_tx_credit, rsp_rx_valid, rsp_rx_ready;
  logic [2*RSP_W-1:0] rsp_tx_data, rsp_rx_data;
  logic [1:0]         link_up;
  logic [2*CW-1:0]    link_credits;
  logic [2*HW-1:0]    health;
  logic [1:0]         irq;
  logic [2*E-1:0]     idle;
  logic [4*E-1:0]     err;

  // Host ports as flat vectors indexed by die
  logic [1:0]  awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready;
  logic [1:0]  rvalid, rready;
  logic [63:0] awaddr, wdata, araddr, rdata;
  logic [7:0]  wstrb;
  logic [3:0]  bresp, rresp;

  assign awvalid = {h1_awvalid_i, h0_awvalid_i};
  assign awaddr  = {h1_awaddr_i, h0_awaddr_i};
  assign wvalid  = {h1_wvalid_i, h0_wvalid_i};
  assign wdata   = {h1_wdata_i, h0_wdata_i};
  assign wstrb   = {h1_wstrb_i, h0_wstrb_i};
  assign bready  = {h1_bready_i, h0_bready_i};
  assign arvalid = {h1_arvalid_i, h0_arvalid_i};
  assign araddr  = {h1_araddr_i, h0_araddr_i};
  assign rready  = {h1_rready_i, h0_rready_i};
  assign {h1_awready_o, h0_awready_o} = awready;
  assign {h1_wready_o, h0_wready_o}   = wready;
  assign {h1_bvalid_o, h0_bvalid_o}   = bvalid;
  assign {h1_bresp_o, h0_bresp_o}     = bresp;
  assign {h1_arready_o, h0_arready_o} = arready;
  assign {h1_rvalid_o, h0_rvalid_o}   = rvalid;
  assign {h1_rdata_o, h0_rdata_o}     = rdata;
  assign {h1_rresp_o, h0_rresp_o}     = rresp;

  // The testbench's stall and fault inputs are registered before use. Logic that reads a top
  // input is re-evaluated by Verilator on every call of its eval (its input region), and the
  // stall reaches every port's credit, hence the crossbar and the engines, and the fault the
  // link's flit assembly: read directly they put most of both dies into that region, twice per
  // simulated cycle. Random backpressure and scheduled faults lose nothing by a cycle's delay.
  logic [1:0]                tx_stall_q;
  xdie_d2d_pkg::link_fault_t link_fault_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_stall_q   <= '0;
      link_fault_q <= '0;
    end else begin
      tx_stall_q   <= tx_stall_i;
      link_fault_q <= link_fault_i;
    end
  end

  assign req_tx_credit     = link_req_tx_credit & ~tx_stall_q;
  assign rsp_tx_credit     = link_rsp_tx_credit & ~tx_stall_q;
  assign link_req_tx_valid = req_tx_valid & ~tx_stall_q;
  assign link_rsp_tx_valid = rsp_tx_valid & ~tx_stall_q;

  assign d0_link_health_o = health[0 +: HW];
  assign d1_link_health_o = health[HW +: HW];
  assign {d1_irq_o, d0_irq_o} = irq;

  assign d0_idle_o = &idle[0 +: E];
  assign d1_idle_o = &idle[E +: E];
  for (genvar b = 0; b < 2; b++) begin : g_err
    logic [E-1:0] e0, e1;
    for (genvar e = 0; e < E; e++) begin : g_bit
      assign e0[e] = err[2*e + b];
      assign e1[e] = err[2*E + 2*e + b];
    end
    assign d0_err_o[b] = |e0;
    assign d1_err_o[b] = |e1;
  end

  for (genvar d = 0; d < 2; d++) begin : g_die
    // All ports of the die; port 0 is the sibling link, the others have none.
    logic [ND-1:0]       p_req_tx_valid, p_req_rx_ready, p_rsp_tx_valid, p_rsp_rx_ready;
    logic [ND*REQ_W-1:0] p_req_tx_data;
    logic [ND*RSP_W-1:0] p_rsp_tx_data;

    assign req_tx_valid[d]              = p_req_tx_valid[0];
    assign req_tx_data[d*REQ_W +: REQ_W] = p_req_tx_data[0 +: REQ_W];
    assign req_rx_ready[d]              = p_req_rx_ready[0];
    assign rsp_tx_valid[d]              = p_rsp_tx_valid[0];
    assign rsp_tx_data[d*RSP_W +: RSP_W] = p_rsp_tx_data[0 +: RSP_W];
    assign rsp_rx_ready[d]              = p_rsp_rx_ready[0];

    if (ND > 1) begin : g_unlinked
      logic unused_unlinked;
      assign unused_unlinked = ^{p_req_tx_valid[ND-1:1], p_req_tx_data[ND*REQ_W-1:REQ_W],
                                 p_req_rx_ready[ND-1:1], p_rsp_tx_valid[ND-1:1],
                                 p_rsp_tx_data[ND*RSP_W-1:RSP_W], p_rsp_rx_ready[ND-1:1]};
    end

    // Every size is the die's default, which is the die map's value.
    xdie_die #(.CLOCK_GATE(CLOCK_GATE), .D2D_CTRLS(ND),
               .VIEW(xdie_soc_addr_pkg::VIEW_NEIGHBOR)) u_die (
      .clk_i, .rst_ni,
      .my_die_i(DIEW'(d)), .my_chip_i(chip_id_i),
      .s_axil_awvalid_i(awvalid[d]), .s_axil_awready_o(awready[d]),
      .s_axil_awaddr_i(awaddr[d*32 +: 32]),
      .s_axil_wvalid_i(wvalid[d]), .s_axil_wready_o(wready[d]),
      .s_axil_wdata_i(wdata[d*32 +: 32]), .s_axil_wstrb_i(wstrb[d*4 +: 4]),
      .s_axil_bvalid_o(bvalid[d]), .s_axil_bready_i(bready[d]), .s_axil_bresp_o(bresp[d*2 +: 2]),
      .s_axil_arvalid_i(arvalid[d]), .s_axil_arready_o(arready[d]),
      .s_axil_araddr_i(araddr[d*32 +: 32]),
      .s_axil_rvalid_o(rvalid[d]), .s_axil_rready_i(rready[d]),
      .s_axil_rdata_o(rdata[d*32 +: 32]), .s_axil_rresp_o(rresp[d*2 +: 2]),
      .d2d_req_tx_valid_o(p_req_tx_valid), .d2d_req_tx_data_o(p_req_tx_data),
      .d2d_req_tx_credit_i(ND'(req_tx_credit[d])),
      .d2d_req_rx_valid_i(ND'(req_rx_valid[d])), .d2d_req_rx_ready_o(p_req_rx_ready),
      .d2d_req_rx_data_i((ND*REQ_W)'(req_rx_data[d*REQ_W +: REQ_W])),
      .d2d_rsp_tx_valid_o(p_rsp_tx_valid), .d2d_rsp_tx_data_o(p_rsp_tx_data),
      .d2d_rsp_tx_credit_i(ND'(rsp_tx_credit[d])),
      .d2d_rsp_rx_valid_i(ND'(rsp_rx_valid[d])), .d2d_rsp_rx_ready_o(p_rsp_rx_ready),
      .d2d_rsp_rx_data_i((ND*RSP_W)'(rsp_rx_data[d*RSP_W +: RSP_W])),
      .d2d_linked_i(ND'(1)), .d2d_link_up_i(ND'(link_up[d])),
      .d2d_link_credits_i((ND*CW)'(link_credits[d*CW +: CW])),
      .d2d_health_i((ND*HW)'(health[d*HW +: HW])), .irq_o(irq[d]),
      .eng_err_o(err[d*2*E +: 2*E]), .eng_idle_o(idle[d*E +: E])
    );
  end

  xdie_d2d_link u_link (
    .clk_i, .rst_ni,
    .a_req_tx_valid_i(link_req_tx_valid[0]), .a_req_tx_data_i(req_tx_data[0 +: REQ_W]),
    .a_req_tx_credit_o(link_req_tx_credit[0]),
    .a_req_rx_valid_o(req_rx_valid[0]), .a_req_rx_ready_i(req_rx_ready[0]),
    .a_req_rx_data_o(req_rx_data[0 +: REQ_W]),
    .a_rsp_tx_valid_i(link_rsp_tx_valid[0]), .a_rsp_tx_data_i(rsp_tx_data[0 +: RSP_W]),
    .a_rsp_tx_credit_o(link_rsp_tx_credit[0]),
    .a_rsp_rx_valid_o(rsp_rx_valid[0]), .a_rsp_rx_ready_i(rsp_rx_ready[0]),
    .a_rsp_rx_data_o(rsp_rx_data[0 +: RSP_W]),
    .a_link_up_o(link_up[0]), .a_credits_o(link_credits[0 +: CW]),
    .b_req_tx_valid_i(link_req_tx_valid[1]), .b_req_tx_data_i(req_tx_data[REQ_W +: REQ_W]),
    .b_req_tx_credit_o(link_req_tx_credit[1]),
    .b_req_rx_valid_o(req_rx_valid[1]), .b_req_rx_ready_i(req_rx_ready[1]),
    .b_req_rx_data_o(req_rx_data[REQ_W +: REQ_W]),
    .b_rsp_tx_valid_i(link_rsp_tx_valid[1]), .b_rsp_tx_data_i(rsp_tx_data[RSP_W +: RSP_W]),
    .b_rsp_tx_credit_o(link_rsp_tx_credit[1]),
    .b_rsp_rx_valid_o(rsp_rx_valid[1]), .b_rsp_rx_ready_i(rsp_rx_ready[1]),
    .b_rsp_rx_data_o(rsp_rx_data[RSP_W +: RSP_W]),
    .b_link_up_o(link_up[1]), .b_credits_o(link_credits[CW +: CW]),
    .a_health_o(health[0 +: HW]), .b_health_o(health[HW +: HW]),
    .fault_i(link_fault_q)
  );

endmodule
