// Binds the AXI4-Lite protocol checker (xdie_axil_check) to every AXI4-Lite link of the die, for
// the simulation models (tb/build.rs verilates them with --assert and this file; it is outside
// rtl/xdie.f, so synthesis never reads it):
//
//   - the host port's slave (the host, or the testbench in its place, is the master): at most one
//     transaction at a time;
//   - the register demultiplexer's slave, whose master is the CSR bridge (xdie_xbus_csr): one
//     write and one read in flight;
//   - every register block's slave (xdie_axil_regif), whose master is a port of the
//     demultiplexer: one write and one read in flight.
//
// A broken rule stops the model with Verilator's "Assertion failed" message naming the checker's
// instance and the rule; the testbench then fails the run (tb/src/sim.rs).

bind xdie_host_port xdie_axil_check #(.ADDR_W(32), .MAX_PENDING(1)) u_axil_check (
  .clk_i, .rst_ni,
  .awvalid_i(s_axil_awvalid_i), .awready_i(s_axil_awready_o), .awaddr_i(s_axil_awaddr_i),
  .wvalid_i(s_axil_wvalid_i), .wready_i(s_axil_wready_o), .wdata_i(s_axil_wdata_i),
  .wstrb_i(s_axil_wstrb_i),
  .bvalid_i(s_axil_bvalid_o), .bready_i(s_axil_bready_i), .bresp_i(s_axil_bresp_o),
  .arvalid_i(s_axil_arvalid_i), .arready_i(s_axil_arready_o), .araddr_i(s_axil_araddr_i),
  .rvalid_i(s_axil_rvalid_o), .rready_i(s_axil_rready_i), .rdata_i(s_axil_rdata_o),
  .rresp_i(s_axil_rresp_o)
);

bind xdie_axil_demux xdie_axil_check #(.ADDR_W(ADDR_W), .MAX_PENDING(1)) u_axil_check (
  .clk_i, .rst_ni,
  .awvalid_i(s_axil_awvalid_i), .awready_i(s_axil_awready_o), .awaddr_i(s_axil_awaddr_i),
  .wvalid_i(s_axil_wvalid_i), .wready_i(s_axil_wready_o), .wdata_i(s_axil_wdata_i),
  .wstrb_i(s_axil_wstrb_i),
  .bvalid_i(s_axil_bvalid_o), .bready_i(s_axil_bready_i), .bresp_i(s_axil_bresp_o),
  .arvalid_i(s_axil_arvalid_i), .arready_i(s_axil_arready_o), .araddr_i(s_axil_araddr_i),
  .rvalid_i(s_axil_rvalid_o), .rready_i(s_axil_rready_i), .rdata_i(s_axil_rdata_o),
  .rresp_i(s_axil_rresp_o)
);

bind xdie_axil_regif xdie_axil_check #(.ADDR_W(AW), .MAX_PENDING(1)) u_axil_check (
  .clk_i, .rst_ni,
  .awvalid_i(s_awvalid_i), .awready_i(s_awready_o), .awaddr_i(s_awaddr_i),
  .wvalid_i(s_wvalid_i), .wready_i(s_wready_o), .wdata_i(s_wdata_i), .wstrb_i(s_wstrb_i),
  .bvalid_i(s_bvalid_o), .bready_i(s_bready_i), .bresp_i(s_bresp_o),
  .arvalid_i(s_arvalid_i), .arready_i(s_arready_o), .araddr_i(s_araddr_i),
  .rvalid_i(s_rvalid_o), .rready_i(s_rready_i), .rdata_i(s_rdata_o), .rresp_i(s_rresp_o)
);
