// AXI4-Lite protocol checker: watches one AXI4-Lite link (the ports of its slave) and checks the
// rules of the AXI specification (IHI 0022, sections A3.1-A3.3 and B1) that an AXI4-Lite link
// must keep:
//
//   - reset: the slave's BVALID and RVALID are low in reset and at the first clock edge after it
//     (the master's VALIDs are not checked there: the checker samples reset only asynchronously,
//     as the design does);
//   - handshake: a VALID, once high, stays high until its READY, and the payload it carries
//     (AWADDR, WDATA and WSTRB, ARADDR, BRESP, RDATA and RRESP) does not change meanwhile;
//   - one response per request: BVALID only for a write whose address and data have both been
//     taken and not yet answered, RVALID only for a read address taken and not yet answered, and
//     no more requests taken than the slave may hold (MAX_PENDING per channel);
//   - response codes: never EXOKAY (2'b01), which AXI4-Lite does not have.
//
// The rules on the master's signals are assertions in simulation (the testbench's and the
// bridges' masters are checked too) and assumptions in a formal proof (`FORMAL`, which
// `read_verilog -formal` defines): there the master is free within the rules and the slave must
// keep its rules for every such master, and the pending counts are outputs, for the proof's
// invariants.
//
// Nothing here is synthesized: this file is outside rtl/xdie.f. The simulation models bind it to
// every AXI4-Lite port of the die (rtl/assert/xdie_axil_bind.sv, verilated with --assert by
// tb/build.rs); the host port's formal check instantiates it (rtl/core/xdie_host_port.sv,
// scripts/formal.sh). The checks are immediate assertions in clocked processes, on registered
// copies of the previous cycle, the forms both Verilator and Yosys read.

module xdie_axil_check #(
  parameter int unsigned ADDR_W      = 32,
  // Requests a slave may hold per channel (taken, not yet answered).
  parameter int unsigned MAX_PENDING = 1,
  localparam int unsigned CW = $clog2(MAX_PENDING + 2)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              awvalid_i,
  input  logic              awready_i,
  input  logic [ADDR_W-1:0] awaddr_i,
  input  logic              wvalid_i,
  input  logic              wready_i,
  input  logic [31:0]       wdata_i,
  input  logic [3:0]        wstrb_i,
  input  logic              bvalid_i,
  input  logic              bready_i,
  input  logic [1:0]        bresp_i,
  input  logic              arvalid_i,
  input  logic              arready_i,
  input  logic [ADDR_W-1:0] araddr_i,
  input  logic              rvalid_i,
  input  logic              rready_i,
  input  logic [31:0]       rdata_i,
  input  logic [1:0]        rresp_i
`ifdef FORMAL
  ,
  // For a proof's invariants: requests taken and not yet answered (write addresses, write data,
  // read addresses).
  output logic [CW-1:0]     aw_pending_o,
  output logic [CW-1:0]     w_pending_o,
  output logic [CW-1:0]     ar_pending_o
`endif
);

  localparam logic [1:0] EXOKAY = 2'b01;

  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid_i && awready_i;
  assign w_hs  = wvalid_i && wready_i;
  assign b_hs  = bvalid_i && bready_i;
  assign ar_hs = arvalid_i && arready_i;
  assign r_hs  = rvalid_i && rready_i;

  // The previous cycle: out of reset, which VALIDs waited, and what they carried; and the requests
  // taken and not yet answered (write addresses, write data, read addresses).
  logic              past_q;
  logic              aw_wait_q, w_wait_q, b_wait_q, ar_wait_q, r_wait_q;
  logic [ADDR_W-1:0] awaddr_q, araddr_q;
  logic [31:0]       wdata_q, rdata_q;
  logic [3:0]        wstrb_q;
  logic [1:0]        bresp_q, rresp_q;
  logic [CW-1:0]     aw_pend_q, w_pend_q, ar_pend_q;

`ifdef FORMAL
  assign aw_pending_o = aw_pend_q;
  assign w_pending_o  = w_pend_q;
  assign ar_pending_o = ar_pend_q;
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      past_q    <= 1'b0;
      aw_wait_q <= 1'b0;
      w_wait_q  <= 1'b0;
      b_wait_q  <= 1'b0;
      ar_wait_q <= 1'b0;
      r_wait_q  <= 1'b0;
      aw_pend_q <= '0;
      w_pend_q  <= '0;
      ar_pend_q <= '0;
    end else begin
      past_q    <= 1'b1;
      aw_wait_q <= awvalid_i && !awready_i;
      w_wait_q  <= wvalid_i && !wready_i;
      b_wait_q  <= bvalid_i && !bready_i;
      ar_wait_q <= arvalid_i && !arready_i;
      r_wait_q  <= rvalid_i && !rready_i;
      aw_pend_q <= aw_pend_q + CW'(aw_hs) - CW'(b_hs);
      w_pend_q  <= w_pend_q + CW'(w_hs) - CW'(b_hs);
      ar_pend_q <= ar_pend_q + CW'(ar_hs) - CW'(r_hs);
    end
  end

  always_ff @(posedge clk_i) begin
    awaddr_q <= awaddr_i;
    wdata_q  <= wdata_i;
    wstrb_q  <= wstrb_i;
    bresp_q  <= bresp_i;
    araddr_q <= araddr_i;
    rdata_q  <= rdata_i;
    rresp_q  <= rresp_i;
  end

`ifdef FORMAL
  // A proof: the master's rules constrain the free inputs.
  `define XDIE_AXIL_MASTER(expr, msg) assume (expr);
  `define XDIE_AXIL_SLAVE(expr, msg) assert (expr);
`else
  `define XDIE_AXIL_MASTER(expr, msg) \
    assert (expr) else $error("AXI4-Lite master broke the protocol: %s", msg);
  `define XDIE_AXIL_SLAVE(expr, msg) \
    assert (expr) else $error("AXI4-Lite slave broke the protocol: %s", msg);
`endif

  always @(posedge clk_i) begin
    if (!past_q) begin
      `XDIE_AXIL_SLAVE(!bvalid_i && !rvalid_i, "BVALID or RVALID high in or just after reset")
    end else begin
      if (aw_wait_q) begin
        `XDIE_AXIL_MASTER(awvalid_i, "AWVALID dropped before AWREADY")
        `XDIE_AXIL_MASTER(awaddr_i == awaddr_q, "AWADDR changed while AWVALID waited")
      end
      if (w_wait_q) begin
        `XDIE_AXIL_MASTER(wvalid_i, "WVALID dropped before WREADY")
        `XDIE_AXIL_MASTER(wdata_i == wdata_q && wstrb_i == wstrb_q,
                          "WDATA or WSTRB changed while WVALID waited")
      end
      if (ar_wait_q) begin
        `XDIE_AXIL_MASTER(arvalid_i, "ARVALID dropped before ARREADY")
        `XDIE_AXIL_MASTER(araddr_i == araddr_q, "ARADDR changed while ARVALID waited")
      end
      if (b_wait_q) begin
        `XDIE_AXIL_SLAVE(bvalid_i, "BVALID dropped before BREADY")
        `XDIE_AXIL_SLAVE(bresp_i == bresp_q, "BRESP changed while BVALID waited")
      end
      if (r_wait_q) begin
        `XDIE_AXIL_SLAVE(rvalid_i, "RVALID dropped before RREADY")
        `XDIE_AXIL_SLAVE(rdata_i == rdata_q && rresp_i == rresp_q,
                         "RDATA or RRESP changed while RVALID waited")
      end
      if (bvalid_i) begin
        `XDIE_AXIL_SLAVE(aw_pend_q != '0 && w_pend_q != '0,
                         "BVALID with no write address and data taken and unanswered")
        `XDIE_AXIL_SLAVE(bresp_i != EXOKAY, "BRESP is EXOKAY, which AXI4-Lite does not have")
      end
      if (rvalid_i) begin
        `XDIE_AXIL_SLAVE(ar_pend_q != '0, "RVALID with no read address taken and unanswered")
        `XDIE_AXIL_SLAVE(rresp_i != EXOKAY, "RRESP is EXOKAY, which AXI4-Lite does not have")
      end
      `XDIE_AXIL_SLAVE(aw_pend_q <= CW'(MAX_PENDING) && w_pend_q <= CW'(MAX_PENDING) &&
                       ar_pend_q <= CW'(MAX_PENDING),
                       "more requests taken than the slave may hold")
    end
  end

`undef XDIE_AXIL_MASTER
`undef XDIE_AXIL_SLAVE

endmodule
