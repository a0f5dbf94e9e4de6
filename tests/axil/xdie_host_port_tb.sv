// A standalone simulation of the host port with the AXI4-Lite protocol checker bound to it
// (tests/axil_protocol.rs verilates it with --assert, rtl/assert/ and main.cc). An AXI4-Lite
// master writes and reads direct addresses (no remap window needed) while a bus slave answers
// every code a 2-bit response can hold, 2'b01 included, with varying delays and response
// back-pressure. The port must answer each code the AXI4-Lite way (2'b01 as SLVERR): this
// testbench checks that itself, the bound checker checks the protocol. $finish after ROUNDS
// transactions.
module xdie_host_port_tb #(
  parameter int unsigned ROUNDS = 64
) (
  input logic clk_i
);
  localparam int unsigned DB = xdie_xbus_pkg::DATA_BYTES;
  localparam logic [31:0] DIRECT = 32'(xdie_soc_addr_pkg::P_HOST_DIRECT_BASE) + 32'h100;

  logic        rst_ni;
  logic [7:0]  cycle_q;
  logic [31:0] lfsr_q;
  logic        awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  logic [1:0]  bresp, rresp;
  logic [31:0] rdata;
  logic        req_valid, req_ready, req_write, rsp_valid, rsp_ready;
  logic [1:0]  rsp_code_q;
  logic [31:0] xt_addr;
  int unsigned done_q;
  logic        busy_q, write_q, pending_q;

  xdie_host_port u_dut (
    .clk_i, .rst_ni, .my_die_i('0),
    .s_axil_awvalid_i(awvalid), .s_axil_awready_o(awready), .s_axil_awaddr_i(DIRECT),
    .s_axil_wvalid_i(wvalid), .s_axil_wready_o(wready), .s_axil_wdata_i(32'hC0DE_0000 | done_q),
    .s_axil_wstrb_i(4'hF),
    .s_axil_bvalid_o(bvalid), .s_axil_bready_i(bready), .s_axil_bresp_o(bresp),
    .s_axil_arvalid_i(arvalid), .s_axil_arready_o(arready), .s_axil_araddr_i(DIRECT),
    .s_axil_rvalid_o(rvalid), .s_axil_rready_i(rready), .s_axil_rdata_o(rdata),
    .s_axil_rresp_o(rresp),
    .xt_addr_o(xt_addr), .hit_i(1'b0), .soc_addr_i('0),
    .m_req_valid_o(req_valid), .m_req_ready_i(req_ready), .m_req_write_o(req_write),
    .m_req_addr_o(), .m_req_wdata_o(), .m_req_wstrb_o(),
    .m_rsp_valid_i(rsp_valid), .m_rsp_ready_o(rsp_ready), .m_rsp_rdata_i({DB{8'h5A}}),
    .m_rsp_err_i(rsp_code_q)
  );

  // The master: one transaction at a time, writes and reads alternating, VALID held until READY.
  assign awvalid = busy_q && write_q && !pending_q;
  assign wvalid  = busy_q && write_q && !pending_q;
  assign arvalid = busy_q && !write_q && !pending_q;
  assign bready  = lfsr_q[0];
  assign rready  = lfsr_q[1];
  // The bus slave: takes the request and answers after a few cycles, with the next code.
  assign req_ready = lfsr_q[2];
  assign rsp_valid = lfsr_q[3];

  // The response the port must give for the code the bus answered.
  function automatic logic [1:0] axil_code(input logic [1:0] code);
    axil_code = (code == 2'b01) ? 2'b10 : code;
  endfunction

  always_ff @(posedge clk_i) begin
    cycle_q <= (cycle_q == 8'hFF) ? cycle_q : cycle_q + 8'd1;
    lfsr_q  <= {lfsr_q[30:0], lfsr_q[31] ^ lfsr_q[21] ^ lfsr_q[1] ^ lfsr_q[0]};
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      write_q    <= 1'b1;
      pending_q  <= 1'b0;
      done_q     <= 0;
      rsp_code_q <= 2'b00;
    end else begin
      if (!busy_q) begin
        busy_q <= 1'b1;
      end
      if ((awvalid && awready) || (arvalid && arready)) pending_q <= 1'b1;
      if (rsp_valid && rsp_ready) rsp_code_q <= rsp_code_q + 2'd1;
      if ((bvalid && bready) || (rvalid && rready)) begin
        if ((bvalid ? bresp : rresp) != axil_code(rsp_code_q - 2'd1)) begin
          $display("host port answered %b for bus code %b", bvalid ? bresp : rresp,
                   rsp_code_q - 2'd1);
          $stop;
        end
        busy_q    <= 1'b0;
        pending_q <= 1'b0;
        write_q   <= !write_q;
        done_q    <= done_q + 1;
        if (done_q + 1 == ROUNDS) $finish;
      end
    end
  end

  initial begin
    cycle_q = '0;
    lfsr_q  = 32'h1234_5678;
  end
  assign rst_ni = cycle_q >= 8'd4;

  logic unused;
  assign unused = ^{xt_addr, rdata, req_valid, req_write};
endmodule
