// {{ header }}
//
// AXI4-Lite slave front-end shared by every generated register block. It turns the five AXI
// channels into one register request (req_o with we/addr/wdata/wstrb), valid for one cycle, and
// captures the block's combinational rdata/err at the end of that cycle as the response.
//
// The request is registered: a read or write is picked (issued) in one cycle and presented to
// the block from flops in the next, so the block's decode, storage read and update start at a
// flop and the front-end's arbitration and alignment check are not on that path (timing). A read
// therefore answers two cycles after its AR handshake, a write two cycles after both its address
// and data are in. One write and one read may be outstanding; when both are ready in the same
// cycle they take turns. issue_o and issue_addr_o show the request being taken into the
// register (the address req_addr_o will hold from the next cycle on), so that a block can decode
// it one cycle ahead into flops of its own, loaded when issue_o is high, and start its request
// cycle from the decoded flops. A word address that is not 4-byte aligned is answered SLVERR without
// reaching the block; a block that sets err_i on an unmapped offset gets SLVERR too. Write data
// and address may arrive in either order.
//
// RD_WAIT = 1 (a per-block choice; default 0): the front-end waits one more cycle for the
// block's answer. req_o still pulses in the request's first cycle only; req_we_o, req_addr_o,
// req_wdata_o and req_wstrb_o hold for a second cycle, and rdata_i/err_i are captured at the end
// of that second cycle, so a block may register its storage read in the first cycle and answer
// from flops in the second. No request is presented in the second cycle (a block may finish an
// update there), so a request occupies the block for two cycles: a read answers three cycles
// after its AR handshake, a write three cycles after its address and data are in.

module xdie_axil_regif #(
  parameter int unsigned AW = 12,
  parameter bit          RD_WAIT = 1'b0
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // AXI4-Lite slave
  input  logic          s_awvalid_i,
  output logic          s_awready_o,
  input  logic [AW-1:0] s_awaddr_i,
  input  logic          s_wvalid_i,
  output logic          s_wready_o,
  input  logic [31:0]   s_wdata_i,
  input  logic [3:0]    s_wstrb_i,
  output logic          s_bvalid_o,
  input  logic          s_bready_i,
  output logic [1:0]    s_bresp_o,
  input  logic          s_arvalid_i,
  output logic          s_arready_o,
  input  logic [AW-1:0] s_araddr_i,
  output logic          s_rvalid_o,
  input  logic          s_rready_i,
  output logic [31:0]   s_rdata_o,
  output logic [1:0]    s_rresp_o,
  // Register request, valid for exactly one cycle
  output logic          req_o,
  output logic          req_we_o,
  output logic [AW-1:0] req_addr_o,
  output logic          issue_o,
  output logic [AW-1:0] issue_addr_o,
  output logic [31:0]   req_wdata_o,
  output logic [3:0]    req_wstrb_o,
  input  logic [31:0]   req_rdata_i,
  input  logic          req_err_i
);
  localparam logic [1:0] RESP_OKAY   = 2'b00;
  localparam logic [1:0] RESP_SLVERR = 2'b10;

  // Captured write address and data (either may come first). They stay full until the write has
  // been presented, so the data flops feed the request directly (no copy).
  logic          aw_full_q, w_full_q;
  logic [AW-1:0] aw_addr_q;
  logic [31:0]   w_data_q;
  logic [3:0]    w_strb_q;
  // The registered request: valid, direction, address, and whether it is misaligned.
  logic          req_q, req_we_q, req_bad_q;
  logic [AW-1:0] req_addr_q;
  // RD_WAIT: the request's second cycle (its response is captured at the end of it).
  logic          req2_q;
  // Pending responses.
  logic          b_valid_q, r_valid_q;
  logic [1:0]    b_resp_q, r_resp_q;
  logic [31:0]   r_data_q;
  // Round-robin between a ready write and a ready read.
  logic          read_turn_q;

  logic wr_now, rd_now, wr_busy, rd_busy, hold, write_ready, read_ready, issue_w, issue_r, err;
  logic done;
  logic [AW-1:0] issue_addr;

  // A request completes at the end of its last cycle (the first, or with RD_WAIT the second);
  // until then its channel takes no new one (its response register is not yet free). With
  // RD_WAIT nothing is issued in a request's first cycle, so none is presented in its second.
  assign done        = RD_WAIT ? req2_q : req_q;
  assign wr_now      = done && req_we_q;
  assign rd_now      = done && !req_we_q;
  assign hold        = RD_WAIT && req_q;
  assign wr_busy     = (req_q || done) && req_we_q;
  assign rd_busy     = (req_q || done) && !req_we_q;

  assign write_ready = aw_full_q && w_full_q && !b_valid_q && !wr_busy && !hold;
  assign read_ready  = s_arvalid_i && !r_valid_q && !rd_busy && !hold;
  assign issue_w     = write_ready && (!read_ready || !read_turn_q);
  assign issue_r     = read_ready && !issue_w;
  assign issue_addr  = issue_w ? aw_addr_q : s_araddr_i;

  assign s_awready_o = !aw_full_q;
  assign s_wready_o  = !w_full_q;
  assign s_arready_o = !r_valid_q && !rd_busy && !hold && (!write_ready || read_turn_q);

  assign issue_o      = issue_w || issue_r;
  assign issue_addr_o = issue_addr;

  assign req_o       = req_q && !req_bad_q;
  assign req_we_o    = req_we_q;
  assign req_addr_o  = req_addr_q;
  assign req_wdata_o = w_data_q;
  assign req_wstrb_o = w_strb_q;
  assign err         = req_bad_q || req_err_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q   <= 1'b0;
      w_full_q    <= 1'b0;
      aw_addr_q   <= '0;
      w_data_q    <= '0;
      w_strb_q    <= '0;
      req_q       <= 1'b0;
      req_we_q    <= 1'b0;
      req_bad_q   <= 1'b0;
      req_addr_q  <= '0;
      req2_q      <= 1'b0;
      b_valid_q   <= 1'b0;
      b_resp_q    <= RESP_OKAY;
      r_valid_q   <= 1'b0;
      r_resp_q    <= RESP_OKAY;
      r_data_q    <= '0;
      read_turn_q <= 1'b0;
    end else begin
      if (s_awvalid_i && s_awready_o) begin
        aw_full_q <= 1'b1;
        aw_addr_q <= s_awaddr_i;
      end
      if (s_wvalid_i && s_wready_o) begin
        w_full_q <= 1'b1;
        w_data_q <= s_wdata_i;
        w_strb_q <= s_wstrb_i;
      end
      req_q  <= issue_w || issue_r;
      req2_q <= RD_WAIT && req_q;
      if (issue_w || issue_r) begin
        req_we_q   <= issue_w;
        req_addr_q <= issue_addr;
        req_bad_q  <= issue_addr[1:0] != 2'b00;
      end
      if (wr_now) begin
        aw_full_q <= 1'b0;
        w_full_q  <= 1'b0;
        b_valid_q <= 1'b1;
        b_resp_q  <= err ? RESP_SLVERR : RESP_OKAY;
      end else if (b_valid_q && s_bready_i) begin
        b_valid_q <= 1'b0;
      end
      if (rd_now) begin
        r_valid_q <= 1'b1;
        r_resp_q  <= err ? RESP_SLVERR : RESP_OKAY;
        r_data_q  <= err ? 32'h0 : req_rdata_i;
      end else if (r_valid_q && s_rready_i) begin
        r_valid_q <= 1'b0;
      end
      if (write_ready && read_ready) begin
        read_turn_q <= !read_turn_q;
      end
    end
  end

  assign s_bvalid_o = b_valid_q;
  assign s_bresp_o  = b_resp_q;
  assign s_rvalid_o = r_valid_q;
  assign s_rdata_o  = r_data_q;
  assign s_rresp_o  = r_resp_q;
endmodule
