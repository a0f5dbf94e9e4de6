// AXI4-Lite demultiplexer: one slave port fanned out to N master ports.
//
// The caller computes the target of each address (aw_sel_i from awaddr, ar_sel_i from araddr,
// combinationally, valid with the address) so this module holds no address map. A select of N
// or above means "no target": the transaction is answered DECERR here and no master port moves.
//
// Write and read paths are independent, each with one transaction in flight: the slave's AW and
// W are captured (in either order), offered to the selected master until both handshake, its B
// is captured and handed back. Address, write data and strobes are shared by all master ports
// (only the selected port's valid rises), which keeps the fan-out to one register per field.
//
// busy_o is high while a transaction is anywhere between its capture here and the hand-back of
// its response, and port_busy_o names the master port it was selected for: a master port's
// AXI4-Lite slave can hold state (an address or data taken, a response waiting) only then. The
// die clocks this demultiplexer and the register ports behind it only in such cycles, and
// cycles with a new request (see xdie_die).

module xdie_axil_demux #(
  parameter int unsigned N  = 2,
  // Address bits of the AXI4-Lite ports.
  parameter int unsigned ADDR_W = 32,
  localparam int unsigned SELW = $clog2(N + 1),
  // Port index bits (a select below N, which is what issues)
  localparam int unsigned IW   = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // AXI4-Lite slave
  input  logic            s_axil_awvalid_i,
  output logic            s_axil_awready_o,
  input  logic [ADDR_W-1:0]   s_axil_awaddr_i,
  input  logic [SELW-1:0] aw_sel_i,
  input  logic            s_axil_wvalid_i,
  output logic            s_axil_wready_o,
  input  logic [31:0]     s_axil_wdata_i,
  input  logic [3:0]      s_axil_wstrb_i,
  output logic            s_axil_bvalid_o,
  input  logic            s_axil_bready_i,
  output logic [1:0]      s_axil_bresp_o,
  input  logic            s_axil_arvalid_i,
  output logic            s_axil_arready_o,
  input  logic [ADDR_W-1:0]   s_axil_araddr_i,
  input  logic [SELW-1:0] ar_sel_i,
  output logic            s_axil_rvalid_o,
  input  logic            s_axil_rready_i,
  output logic [31:0]     s_axil_rdata_o,
  output logic [1:0]      s_axil_rresp_o,
  // AXI4-Lite masters: per-port handshakes, shared payload
  output logic [N-1:0]    m_axil_awvalid_o,
  input  logic [N-1:0]    m_axil_awready_i,
  output logic [ADDR_W-1:0]   m_axil_awaddr_o,
  output logic [N-1:0]    m_axil_wvalid_o,
  input  logic [N-1:0]    m_axil_wready_i,
  output logic [31:0]     m_axil_wdata_o,
  output logic [3:0]      m_axil_wstrb_o,
  input  logic [N-1:0]    m_axil_bvalid_i,
  output logic [N-1:0]    m_axil_bready_o,
  input  logic [N*2-1:0]  m_axil_bresp_i,
  output logic [N-1:0]    m_axil_arvalid_o,
  input  logic [N-1:0]    m_axil_arready_i,
  output logic [ADDR_W-1:0]   m_axil_araddr_o,
  input  logic [N-1:0]    m_axil_rvalid_i,
  output logic [N-1:0]    m_axil_rready_o,
  input  logic [N*32-1:0] m_axil_rdata_i,
  input  logic [N*2-1:0]  m_axil_rresp_i,
  // Transactions in progress (see above)
  output logic            busy_o,
  output logic [N-1:0]    port_busy_o
);

  if (N < 1 || ADDR_W < 1) begin : g_bad_param
    $error("xdie_axil_demux: N and ADDR_W must be at least 1");
  end


  // ---------------------------------------------------------------- write path
  logic            aw_full_q, aw_full_d, w_full_q, w_full_d;
  logic            aw_sent_q, aw_sent_d, w_sent_q, w_sent_d;
  logic            b_full_q, b_full_d;
  logic [ADDR_W-1:0]   awaddr_q, awaddr_d;
  logic [SELW-1:0] aw_sel_q, aw_sel_d;
  logic [31:0]     wdata_q, wdata_d;
  logic [3:0]      wstrb_q, wstrb_d;
  logic [1:0]      bresp_q, bresp_d;
  logic            aw_none, w_issue, aw_hs, w_hs, b_hs;
  logic [IW-1:0]   aw_idx;

  assign aw_none          = (32'(aw_sel_q) >= N);
  assign aw_idx           = IW'(aw_sel_q);
  // A captured pair goes out until both its handshakes happened, then waits for B.
  assign w_issue          = aw_full_q && w_full_q && !b_full_q && !aw_none;
  assign s_axil_awready_o = !aw_full_q;
  assign s_axil_wready_o  = !w_full_q;
  assign s_axil_bvalid_o  = b_full_q;
  assign s_axil_bresp_o   = bresp_q;
  assign m_axil_awaddr_o  = awaddr_q;
  assign m_axil_wdata_o   = wdata_q;
  assign m_axil_wstrb_o   = wstrb_q;

  always_comb begin
    m_axil_awvalid_o = '0;
    m_axil_wvalid_o  = '0;
    m_axil_bready_o  = '0;
    aw_hs            = 1'b0;
    w_hs             = 1'b0;
    b_hs             = 1'b0;
    // w_issue implies aw_sel_q < N: the select indexes the ports directly.
    if (w_issue) begin
      m_axil_awvalid_o[aw_idx] = !aw_sent_q;
      m_axil_wvalid_o[aw_idx]  = !w_sent_q;
      m_axil_bready_o[aw_idx]  = 1'b1;
      aw_hs = !aw_sent_q && m_axil_awready_i[aw_idx];
      w_hs  = !w_sent_q && m_axil_wready_i[aw_idx];
      b_hs  = m_axil_bvalid_i[aw_idx];
    end
  end

  always_comb begin
    aw_full_d = aw_full_q;
    w_full_d  = w_full_q;
    aw_sent_d = aw_sent_q || aw_hs;
    w_sent_d  = w_sent_q || w_hs;
    b_full_d  = b_full_q;
    awaddr_d  = awaddr_q;
    aw_sel_d  = aw_sel_q;
    wdata_d   = wdata_q;
    wstrb_d   = wstrb_q;
    bresp_d   = bresp_q;
    if (s_axil_awvalid_i && !aw_full_q) begin
      aw_full_d = 1'b1;
      awaddr_d  = s_axil_awaddr_i;
      aw_sel_d  = aw_sel_i;
    end
    if (s_axil_wvalid_i && !w_full_q) begin
      w_full_d = 1'b1;
      wdata_d  = s_axil_wdata_i;
      wstrb_d  = s_axil_wstrb_i;
    end
    if (aw_full_q && w_full_q && !b_full_q && aw_none) begin
      b_full_d = 1'b1;
      bresp_d  = xdie_xbus_pkg::RESP_DECERR;
    end
    if (b_hs) begin
      b_full_d = 1'b1;
      bresp_d  = m_axil_bresp_i[aw_idx*2 +: 2];
    end
    if (b_full_q && s_axil_bready_i) begin
      aw_full_d = 1'b0;
      w_full_d  = 1'b0;
      aw_sent_d = 1'b0;
      w_sent_d  = 1'b0;
      b_full_d  = 1'b0;
    end
  end

  // ---------------------------------------------------------------- read path
  logic            ar_full_q, ar_full_d, ar_sent_q, ar_sent_d, r_full_q, r_full_d;
  logic [ADDR_W-1:0]   araddr_q, araddr_d;
  logic [SELW-1:0] ar_sel_q, ar_sel_d;
  logic [31:0]     rdata_q, rdata_d;
  logic [1:0]      rresp_q, rresp_d;
  logic            ar_none, r_issue, ar_hs, r_hs;
  logic [IW-1:0]   ar_idx;

  assign ar_none          = (32'(ar_sel_q) >= N);
  assign ar_idx           = IW'(ar_sel_q);
  assign r_issue          = ar_full_q && !r_full_q && !ar_none;
  assign s_axil_arready_o = !ar_full_q;
  assign s_axil_rvalid_o  = r_full_q;
  assign s_axil_rdata_o   = rdata_q;
  assign s_axil_rresp_o   = rresp_q;
  assign m_axil_araddr_o  = araddr_q;

  always_comb begin
    m_axil_arvalid_o = '0;
    m_axil_rready_o  = '0;
    ar_hs            = 1'b0;
    r_hs             = 1'b0;
    // r_issue implies ar_sel_q < N.
    if (r_issue) begin
      m_axil_arvalid_o[ar_idx] = !ar_sent_q;
      m_axil_rready_o[ar_idx]  = 1'b1;
      ar_hs = !ar_sent_q && m_axil_arready_i[ar_idx];
      r_hs  = m_axil_rvalid_i[ar_idx];
    end
  end

  always_comb begin
    ar_full_d = ar_full_q;
    ar_sent_d = ar_sent_q || ar_hs;
    r_full_d  = r_full_q;
    araddr_d  = araddr_q;
    ar_sel_d  = ar_sel_q;
    rdata_d   = rdata_q;
    rresp_d   = rresp_q;
    if (s_axil_arvalid_i && !ar_full_q) begin
      ar_full_d = 1'b1;
      araddr_d  = s_axil_araddr_i;
      ar_sel_d  = ar_sel_i;
    end
    if (ar_full_q && !r_full_q && ar_none) begin
      r_full_d = 1'b1;
      rdata_d  = '0;
      rresp_d  = xdie_xbus_pkg::RESP_DECERR;
    end
    if (r_hs) begin
      r_full_d = 1'b1;
      rdata_d  = m_axil_rdata_i[ar_idx*32 +: 32];
      rresp_d  = m_axil_rresp_i[ar_idx*2 +: 2];
    end
    if (r_full_q && s_axil_rready_i) begin
      ar_full_d = 1'b0;
      ar_sent_d = 1'b0;
      r_full_d  = 1'b0;
    end
  end

  // ---------------------------------------------------------------- transactions in progress
  // A write holds aw_full_q from its capture until its response is handed back, a read
  // ar_full_q (w_full_q alone is data waiting for its address: no port selected yet).
  assign busy_o = aw_full_q || w_full_q || ar_full_q;
  always_comb begin
    port_busy_o = '0;
    if (aw_full_q && !aw_none) port_busy_o[aw_idx] = 1'b1;
    if (ar_full_q && !ar_none) port_busy_o[ar_idx] = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q <= 1'b0;
      w_full_q  <= 1'b0;
      aw_sent_q <= 1'b0;
      w_sent_q  <= 1'b0;
      b_full_q  <= 1'b0;
      awaddr_q  <= '0;
      aw_sel_q  <= '0;
      wdata_q   <= '0;
      wstrb_q   <= '0;
      bresp_q   <= '0;
      ar_full_q <= 1'b0;
      ar_sent_q <= 1'b0;
      r_full_q  <= 1'b0;
      araddr_q  <= '0;
      ar_sel_q  <= '0;
      rdata_q   <= '0;
      rresp_q   <= '0;
    end else begin
      aw_full_q <= aw_full_d;
      w_full_q  <= w_full_d;
      aw_sent_q <= aw_sent_d;
      w_sent_q  <= w_sent_d;
      b_full_q  <= b_full_d;
      awaddr_q  <= awaddr_d;
      aw_sel_q  <= aw_sel_d;
      wdata_q   <= wdata_d;
      wstrb_q   <= wstrb_d;
      bresp_q   <= bresp_d;
      ar_full_q <= ar_full_d;
      ar_sent_q <= ar_sent_d;
      r_full_q  <= r_full_d;
      araddr_q  <= araddr_d;
      ar_sel_q  <= ar_sel_d;
      rdata_q   <= rdata_d;
      rresp_q   <= rresp_d;
    end
  end

endmodule
