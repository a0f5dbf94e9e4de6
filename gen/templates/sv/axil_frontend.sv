{% include "sv/frontend_clock.sv" %}

  xdie_axil_regif #(.AW(AW)) u_regif (
    .clk_i       (fe_clk),
    .rst_ni,
    .s_awvalid_i (s_axil_awvalid_i),
    .s_awready_o (s_axil_awready_o),
    .s_awaddr_i  (s_axil_awaddr_i),
    .s_wvalid_i  (s_axil_wvalid_i),
    .s_wready_o  (s_axil_wready_o),
    .s_wdata_i   (s_axil_wdata_i),
    .s_wstrb_i   (s_axil_wstrb_i),
    .s_bvalid_o  (s_axil_bvalid_o),
    .s_bready_i  (s_axil_bready_i),
    .s_bresp_o   (s_axil_bresp_o),
    .s_arvalid_i (s_axil_arvalid_i),
    .s_arready_o (s_axil_arready_o),
    .s_araddr_i  (s_axil_araddr_i),
    .s_rvalid_o  (s_axil_rvalid_o),
    .s_rready_i  (s_axil_rready_i),
    .s_rdata_o   (s_axil_rdata_o),
    .s_rresp_o   (s_axil_rresp_o),
    .req_o       (req),
    .req_we_o    (req_we),
    .req_addr_o  (req_addr),
    .issue_o     (),
    .issue_addr_o(),
    .req_wdata_o (req_wdata),
    .req_wstrb_o (req_wstrb),
    .req_rdata_i (req_rdata),
    .req_err_i   (req_err)
  );
{#- The AXI4-Lite front-end of a register block that decodes the request in its own cycle (no
    decode ahead: the issue outputs are left open). The including template declares req,
    req_we, req_addr, req_wdata, req_wstrb, req_rdata and req_err, and AW. #}
