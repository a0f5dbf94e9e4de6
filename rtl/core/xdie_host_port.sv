// Host port: the AXI4-Lite slave the host (Q7) reaches the die through, 32-bit xt address and
// data, as an xbus master.
//
// An xt address at or above HOST_DIRECT_BASE is direct: it names die-local address
// xt - HOST_DIRECT_BASE on this die, so firmware reaches the remap-window CSRs before any window
// is programmed. Any other xt address is looked up in the remap windows (xt_addr_o -> hit_i,
// soc_addr_i, combinational); a miss is answered DECERR without a bus request. The 32-bit word
// travels in lane addr[log2(DATA_BYTES)-1:2] of the beat (the write data repeated in every lane, the
// strobes in its lane only). One transaction at a time; when a write and a read are both
// offered they take turns.
//
// The bus address is registered one cycle after the AXI address is taken (LOOKUP), so the
// request the crossbar sees never changes while it waits, and the remap lookup is not in the
// crossbar's combinational path.
//
// BRESP and RRESP are OKAY, SLVERR or DECERR by construction: the response register holds an
// xdie_xbus_pkg::resp_e, loaded only with the port's own DECERR or with the bus's code passed
// through xdie_xbus_pkg::to_resp, which turns a code outside resp_e (2'b01, EXOKAY, which
// AXI4-Lite does not allow) into SLVERR. The port makes no assumption about what the bus
// answers: scripts/formal.sh proves its AXI4-Lite slave compliant with every input free (the
// `ifdef FORMAL` section at the end; docs/axi-lite-checks.md).

module xdie_host_port #(
  localparam int unsigned DIEW = xdie_soc_addr_pkg::LOCAL_DIE_WIDTH,
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // this die's id within the package (the DIE field of direct addresses)
  input  logic [DIEW-1:0] my_die_i,
  // AXI4-Lite slave
  input  logic            s_axil_awvalid_i,
  output logic            s_axil_awready_o,
  input  logic [31:0]     s_axil_awaddr_i,
  input  logic            s_axil_wvalid_i,
  output logic            s_axil_wready_o,
  input  logic [31:0]     s_axil_wdata_i,
  input  logic [3:0]      s_axil_wstrb_i,
  output logic            s_axil_bvalid_o,
  input  logic            s_axil_bready_i,
  output logic [1:0]      s_axil_bresp_o,
  input  logic            s_axil_arvalid_i,
  output logic            s_axil_arready_o,
  input  logic [31:0]     s_axil_araddr_i,
  output logic            s_axil_rvalid_o,
  input  logic            s_axil_rready_i,
  output logic [31:0]     s_axil_rdata_o,
  output logic [1:0]      s_axil_rresp_o,
  // remap window lookup
  output logic [31:0]     xt_addr_o,
  input  logic            hit_i,
  input  logic [ADDR_W-1:0]   soc_addr_i,
  // xbus master
  output logic            m_req_valid_o,
  input  logic            m_req_ready_i,
  output logic            m_req_write_o,
  output logic [ADDR_W-1:0]   m_req_addr_o,
  output logic [DATA_BYTES*8-1:0] m_req_wdata_o,
  output logic [DATA_BYTES-1:0]   m_req_wstrb_o,
  input  logic            m_rsp_valid_i,
  output logic            m_rsp_ready_o,
  input  logic [DATA_BYTES*8-1:0] m_rsp_rdata_i,
  input  xdie_xbus_pkg::resp_e m_rsp_err_i
);

  if (DATA_BYTES < 4 || DATA_BYTES % 4 != 0) begin : g_bad_param
    $error("xdie_host_port: the beat (DATA_BYTES) must hold whole 32-bit words");
  end

  localparam int unsigned LANES = DATA_BYTES / 4;
  localparam int unsigned LW    = (LANES > 1) ? $clog2(LANES) : 1;
  localparam logic [31:0] DIRECT_BASE = 32'(xdie_soc_addr_pkg::P_HOST_DIRECT_BASE);
  localparam int unsigned LOCAL_W = xdie_soc_addr_pkg::LOCAL_W;

  typedef enum logic [2:0] {
    IDLE,
    LOOKUP,
    REQ,
    RSP,
    ANSWER
  } state_e;

  state_e          state_q, state_d;
  logic            write_q, write_d;
  logic            rd_first_q, rd_first_d;  // a read goes first when both are offered
  logic [31:0]     xt_q, xt_d;
  logic [31:0]     wdata_q, wdata_d;
  logic [3:0]      wstrb_q, wstrb_d;
  logic [ADDR_W-1:0]   addr_q, addr_d;
  logic [31:0]     rdata_q, rdata_d;
  xdie_xbus_pkg::resp_e err_q, err_d;

  logic            take_w, take_r;
  logic            direct;
  logic [ADDR_W-1:0]   direct_addr;
  logic [LW-1:0]   lane;
  logic [31:0]     direct_off;

  assign take_w = (state_q == IDLE) && s_axil_awvalid_i && s_axil_wvalid_i &&
                  !(rd_first_q && s_axil_arvalid_i);
  assign take_r = (state_q == IDLE) && s_axil_arvalid_i && !take_w;

  assign s_axil_awready_o = take_w;
  assign s_axil_wready_o  = take_w;
  assign s_axil_arready_o = take_r;

  assign xt_addr_o   = xt_q;
  assign direct      = (xt_q >= DIRECT_BASE);
  assign direct_off  = xt_q - DIRECT_BASE;
  assign direct_addr = xdie_soc_addr_pkg::local_set_die(
      xdie_soc_addr_pkg::local_set_local('0, LOCAL_W'(direct_off)), my_die_i);
  assign lane        = LW'(addr_q >> 2);

  assign m_req_valid_o = (state_q == REQ);
  assign m_req_write_o = write_q;
  assign m_req_addr_o  = addr_q;
  assign m_req_wdata_o = {LANES{wdata_q}};
  assign m_req_wstrb_o = DATA_BYTES'(wstrb_q) << (32'(lane) * 4);
  assign m_rsp_ready_o = (state_q == RSP);

  assign s_axil_bvalid_o = (state_q == ANSWER) && write_q;
  assign s_axil_bresp_o  = err_q;
  assign s_axil_rvalid_o = (state_q == ANSWER) && !write_q;
  assign s_axil_rdata_o  = rdata_q;
  assign s_axil_rresp_o  = err_q;

  always_comb begin
    state_d    = state_q;
    write_d    = write_q;
    rd_first_d = rd_first_q;
    xt_d       = xt_q;
    wdata_d    = wdata_q;
    wstrb_d    = wstrb_q;
    addr_d     = addr_q;
    rdata_d    = rdata_q;
    err_d      = err_q;
    unique case (state_q)
      IDLE: begin
        if (take_w) begin
          state_d    = LOOKUP;
          write_d    = 1'b1;
          rd_first_d = 1'b1;
          xt_d       = s_axil_awaddr_i;
          wdata_d    = s_axil_wdata_i;
          wstrb_d    = s_axil_wstrb_i;
        end else if (take_r) begin
          state_d    = LOOKUP;
          write_d    = 1'b0;
          rd_first_d = 1'b0;
          xt_d       = s_axil_araddr_i;
        end
      end
      LOOKUP: begin
        addr_d  = direct ? direct_addr : soc_addr_i;
        rdata_d = '0;
        err_d   = xdie_xbus_pkg::RESP_OKAY;
        if (direct || hit_i) begin
          state_d = REQ;
        end else begin
          state_d = ANSWER;
          err_d   = xdie_xbus_pkg::RESP_DECERR;
        end
      end
      REQ: begin
        if (m_req_ready_i) begin
          state_d = RSP;
        end
      end
      RSP: begin
        if (m_rsp_valid_i) begin
          state_d = ANSWER;
          rdata_d = 32'(m_rsp_rdata_i >> (32'(lane) * 32));
          // Never forwarded as is: a 2-bit code can hold 2'b01 whatever its type (see above).
          err_d   = xdie_xbus_pkg::to_resp(m_rsp_err_i);
        end
      end
      ANSWER: begin
        if (write_q ? s_axil_bready_i : s_axil_rready_i) begin
          state_d = IDLE;
        end
      end
      default: state_d = IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= IDLE;
      write_q    <= 1'b0;
      rd_first_q <= 1'b0;
      xt_q       <= '0;
      wdata_q    <= '0;
      wstrb_q    <= '0;
      addr_q     <= '0;
      rdata_q    <= '0;
      err_q      <= xdie_xbus_pkg::RESP_OKAY;
    end else begin
      state_q    <= state_d;
      write_q    <= write_d;
      rd_first_q <= rd_first_d;
      xt_q       <= xt_d;
      wdata_q    <= wdata_d;
      wstrb_q    <= wstrb_d;
      addr_q     <= addr_d;
      rdata_q    <= rdata_d;
      err_q      <= err_d;
    end
  end

`ifdef FORMAL
  // ---------------------------------------------------------------- formal check
  // The AXI4-Lite slave's proof (scripts/formal.sh, BMC and k-induction): every input is free
  // after reset, the AXI master's within the AXI rules (xdie_axil_check assumes them), the remap
  // lookup's and the bus's entirely (any code on m_rsp_err_i, any handshake timing). The checker
  // asserts the slave's rules; the invariants below tie its count of the transactions taken and
  // not yet answered to this port's state, which k-induction needs (they are facts of the design,
  // proved with it).
  localparam int unsigned F_CW = 2;
  logic [F_CW-1:0] f_aw_pend, f_w_pend, f_ar_pend;

  xdie_axil_check #(.ADDR_W(32), .MAX_PENDING(1)) u_f_axil (
    .clk_i, .rst_ni,
    .awvalid_i(s_axil_awvalid_i), .awready_i(s_axil_awready_o), .awaddr_i(s_axil_awaddr_i),
    .wvalid_i(s_axil_wvalid_i), .wready_i(s_axil_wready_o), .wdata_i(s_axil_wdata_i),
    .wstrb_i(s_axil_wstrb_i),
    .bvalid_i(s_axil_bvalid_o), .bready_i(s_axil_bready_i), .bresp_i(s_axil_bresp_o),
    .arvalid_i(s_axil_arvalid_i), .arready_i(s_axil_arready_o), .araddr_i(s_axil_araddr_i),
    .rvalid_i(s_axil_rvalid_o), .rready_i(s_axil_rready_i), .rdata_i(s_axil_rdata_o),
    .rresp_i(s_axil_rresp_o),
    .aw_pending_o(f_aw_pend), .w_pending_o(f_w_pend), .ar_pending_o(f_ar_pend)
  );

  // The proof starts in reset.
  initial assume (!rst_ni);

  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (state_q == IDLE || state_q == LOOKUP || state_q == REQ || state_q == RSP ||
              state_q == ANSWER);
      // Address and data are taken together, one transaction at a time.
      assert (f_aw_pend == f_w_pend);
      assert ((state_q == IDLE) == (f_aw_pend == '0 && f_ar_pend == '0));
      if (state_q != IDLE) begin
        assert (write_q ? (f_aw_pend == F_CW'(1) && f_ar_pend == '0)
                        : (f_ar_pend == F_CW'(1) && f_aw_pend == '0));
      end
    end
  end
`endif

endmodule
