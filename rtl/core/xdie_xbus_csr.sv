// CSR bridge: an xbus slave in front of the die's AXI4-Lite register fabric.
//
// A request addresses one 32-bit word: for a read its lane in the beat is addr[log2(DATA_BYTES)-1:2];
// for a write it is the lowest lane its byte strobes touch (DMA engines send beat-aligned
// addresses). A write with byte strobes in more than one lane is answered SLVERR with no
// transaction. Otherwise the
// request becomes one AXI4-Lite transaction at the word's die-local address (the LOCAL field of
// the routed address, word aligned); BRESP/RRESP come back as rsp_err and read data comes back
// in its lane (other lanes 0), BRESP/RRESP through xdie_xbus_pkg::to_resp (a code outside the
// bus's resp_e, 2'b01, becomes SLVERR). One transaction at a time.
//
// Fast path: a full-word write into the INC window of a core's EVT_SEM is not sent over AXI; it
// pulses inc_valid_o with the core, the semaphore index and the written word (that EVT_SEM's hardware
// increment port, which never refuses) and is answered OKAY at once, so DMA semaphore
// increments do not queue behind register traffic. Writes to INC with partial strobes take the
// normal AXI path.
//
// While hold_i is high the bridge accepts no request (s_req_ready_o low): the die holds it until
// every EVT_SEM has initialised its semaphores after reset, since the fast path's increments cannot be
// refused once accepted.
//
// INC_REG (the default; the FPGA profiles' sizing key timing_registers, off in the simulated
// die) registers the fast path's increment, so it reaches EVT_SEM a cycle after its request is
// accepted: the request's address decode and EVT_SEM's hardware port then start at flops. An
// AXI access that follows it reaches EVT_SEM later still, so the order is kept.

module xdie_xbus_csr #(
  parameter bit INC_REG = 1'b1,
  // Cores wired (EVT_SEM instances): an INC-window write to a core past them is not taken by
  // the fast path; over AXI it gets the demultiplexer's DECERR
  parameter int unsigned CORES = 1,
  localparam int unsigned CW   = (xdie_soc_addr_pkg::AP_EVT_SEM_COUNT > 1) ?
                                 $clog2(xdie_soc_addr_pkg::AP_EVT_SEM_COUNT) : 1,
  localparam int unsigned CAW  = xdie_soc_addr_pkg::LOCAL_W,
  localparam int unsigned IDXW = $clog2(xdie_evt_sem_pkg::SEM_INC_COUNT),
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            hold_i,
  // xbus slave
  input  logic            s_req_valid_i,
  output logic            s_req_ready_o,
  input  logic            s_req_write_i,
  input  logic [ADDR_W-1:0]   s_req_addr_i,
  input  logic [DATA_BYTES*8-1:0] s_req_wdata_i,
  input  logic [DATA_BYTES-1:0]   s_req_wstrb_i,
  output logic            s_rsp_valid_o,
  input  logic            s_rsp_ready_i,
  output logic [DATA_BYTES*8-1:0] s_rsp_rdata_o,
  output xdie_xbus_pkg::resp_e s_rsp_err_o,
  // AXI4-Lite master
  output logic            m_axil_awvalid_o,
  input  logic            m_axil_awready_i,
  output logic [CAW-1:0]  m_axil_awaddr_o,
  output logic            m_axil_wvalid_o,
  input  logic            m_axil_wready_i,
  output logic [31:0]     m_axil_wdata_o,
  output logic [3:0]      m_axil_wstrb_o,
  input  logic            m_axil_bvalid_i,
  output logic            m_axil_bready_o,
  input  logic [1:0]      m_axil_bresp_i,
  output logic            m_axil_arvalid_o,
  input  logic            m_axil_arready_i,
  output logic [CAW-1:0]  m_axil_araddr_o,
  input  logic            m_axil_rvalid_i,
  output logic            m_axil_rready_o,
  input  logic [31:0]     m_axil_rdata_i,
  input  logic [1:0]      m_axil_rresp_i,
  // EVT_SEM hardware increment
  output logic            inc_valid_o,
  output logic [CW-1:0]   inc_core_o,
  output logic [IDXW-1:0] inc_idx_o,
  output logic [31:0]     inc_val_o
);

  if (DATA_BYTES < 4 || DATA_BYTES % 4 != 0) begin : g_bad_param
    $error("xdie_xbus_csr: the beat (DATA_BYTES) must hold whole 32-bit words");
  end

  localparam int unsigned LANES = DATA_BYTES / 4;
  localparam int unsigned LW    = (LANES > 1) ? $clog2(LANES) : 1;
  localparam int unsigned OFF_W = xdie_soc_addr_pkg::OFF_W;
  localparam logic [OFF_W-1:0] INC_BASE = OFF_W'(xdie_evt_sem_pkg::SEM_INC_BASE);
  localparam logic [OFF_W-1:0] INC_SPAN =
      OFF_W'(xdie_evt_sem_pkg::SEM_INC_COUNT * xdie_evt_sem_pkg::SEM_INC_STRIDE);
  localparam int unsigned INC_SHIFT = $clog2(xdie_evt_sem_pkg::SEM_INC_STRIDE);

  // ---------------------------------------------------------------- request decode
  logic [CAW-1:0]   local_addr;
  logic [LW-1:0]    lane;
  logic [3:0]       lane_strb;
  logic [DATA_BYTES-1:0]    lane_mask;
  logic [31:0]      lane_data;
  logic             stray_strb;
  logic [OFF_W-1:0] inc_off;
  logic [CW-1:0]    inc_core;
  logic             inc_hit;

  logic [LW-1:0]    strb_lane;
  logic [CAW-1:0]   word_addr;

  // A write's word is the lowest 32-bit lane its strobes touch: masters (the SDMA engines) send
  // beat-aligned addresses and place the bytes with the strobes. A read's word comes from the
  // address bits below the beat.
  always_comb begin
    strb_lane = '0;
    for (int i = LANES - 1; i >= 0; i--) begin
      if (|s_req_wstrb_i[i*4 +: 4]) begin
        strb_lane = LW'(i);
      end
    end
  end

  assign local_addr = xdie_soc_addr_pkg::local_get_local(s_req_addr_i);
  assign lane       = s_req_write_i ? strb_lane : LW'(local_addr >> 2);
  assign word_addr  = (local_addr & ~(CAW'(DATA_BYTES) - CAW'(1))) | (CAW'(lane) << 2);
  assign lane_mask  = DATA_BYTES'(4'hf) << (32'(lane) * 4);
  assign lane_strb  = 4'(s_req_wstrb_i >> (32'(lane) * 4));
  assign lane_data  = 32'(s_req_wdata_i >> (32'(lane) * 32));
  assign stray_strb = |(s_req_wstrb_i & ~lane_mask);
  assign inc_off    = xdie_soc_addr_pkg::ap_evt_sem_off(word_addr) - INC_BASE;
  assign inc_core   = CW'(xdie_soc_addr_pkg::ap_evt_sem_inst(word_addr));
  assign inc_hit    = xdie_soc_addr_pkg::ap_evt_sem_hit(word_addr) && (inc_off < INC_SPAN) &&
                      (32'(inc_core) < CORES) && (lane_strb == 4'hf);

  // ---------------------------------------------------------------- state
  logic            busy_q, busy_d;       // an AXI transaction is in flight
  logic            write_q, write_d;
  logic            aw_q, aw_d, w_q, w_d, ar_q, ar_d;  // address/data still to hand over
  logic [CAW-1:0]  addr_q, addr_d;
  logic [LW-1:0]   lane_q, lane_d;
  logic [31:0]     wdata_q, wdata_d;
  logic [3:0]      wstrb_q, wstrb_d;
  logic            rsp_valid_q, rsp_valid_d;
  logic [DATA_BYTES*8-1:0] rsp_rdata_q, rsp_rdata_d;
  xdie_xbus_pkg::resp_e rsp_err_q, rsp_err_d;
  logic            acc;

  assign s_req_ready_o = !hold_i && !busy_q && (!rsp_valid_q || s_rsp_ready_i);
  assign acc           = s_req_valid_i && s_req_ready_o;

  logic            inc_valid;
  logic [IDXW-1:0] inc_idx;
  assign inc_valid = acc && s_req_write_i && !stray_strb && inc_hit;
  assign inc_idx   = IDXW'(inc_off >> INC_SHIFT);
  if (INC_REG) begin : g_inc_reg
    logic            inc_valid_q;
    logic [CW-1:0]   inc_core_q;
    logic [IDXW-1:0] inc_idx_q;
    logic [31:0]     inc_val_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) inc_valid_q <= 1'b0;
      else         inc_valid_q <= inc_valid;
    end
    // Index and value without reset: read only with the valid.
    always_ff @(posedge clk_i) begin
      if (inc_valid) begin
        inc_core_q <= inc_core;
        inc_idx_q <= inc_idx;
        inc_val_q <= lane_data;
      end
    end
    assign inc_valid_o = inc_valid_q;
    assign inc_core_o  = inc_core_q;
    assign inc_idx_o   = inc_idx_q;
    assign inc_val_o   = inc_val_q;
  end else begin : g_inc_direct
    assign inc_valid_o = inc_valid;
    assign inc_core_o  = inc_core;
    assign inc_idx_o   = inc_idx;
    assign inc_val_o   = lane_data;
  end

  assign m_axil_awvalid_o = aw_q;
  assign m_axil_awaddr_o  = addr_q;
  assign m_axil_wvalid_o  = w_q;
  assign m_axil_wdata_o   = wdata_q;
  assign m_axil_wstrb_o   = wstrb_q;
  assign m_axil_bready_o  = busy_q && write_q && !aw_q && !w_q;
  assign m_axil_arvalid_o = ar_q;
  assign m_axil_araddr_o  = addr_q;
  assign m_axil_rready_o  = busy_q && !write_q && !ar_q;

  always_comb begin
    busy_d      = busy_q;
    write_d     = write_q;
    aw_d        = aw_q && !m_axil_awready_i;
    w_d         = w_q && !m_axil_wready_i;
    ar_d        = ar_q && !m_axil_arready_i;
    addr_d      = addr_q;
    lane_d      = lane_q;
    wdata_d     = wdata_q;
    wstrb_d     = wstrb_q;
    rsp_valid_d = rsp_valid_q && !s_rsp_ready_i;
    rsp_rdata_d = rsp_rdata_q;
    rsp_err_d   = rsp_err_q;
    if (acc) begin
      rsp_rdata_d = '0;
      rsp_err_d   = xdie_xbus_pkg::RESP_OKAY;
      if (s_req_write_i && stray_strb) begin
        rsp_valid_d = 1'b1;
        rsp_err_d   = xdie_xbus_pkg::RESP_SLVERR;
      end else if (s_req_write_i && inc_hit) begin
        rsp_valid_d = 1'b1;
      end else begin
        busy_d  = 1'b1;
        write_d = s_req_write_i;
        aw_d    = s_req_write_i;
        w_d     = s_req_write_i;
        ar_d    = !s_req_write_i;
        addr_d  = word_addr;
        lane_d  = lane;
        wdata_d = lane_data;
        wstrb_d = lane_strb;
      end
    end
    if (m_axil_bvalid_i && m_axil_bready_o) begin
      busy_d      = 1'b0;
      rsp_valid_d = 1'b1;
      rsp_err_d   = xdie_xbus_pkg::to_resp(m_axil_bresp_i);
    end
    if (m_axil_rvalid_i && m_axil_rready_o) begin
      busy_d      = 1'b0;
      rsp_valid_d = 1'b1;
      rsp_err_d   = xdie_xbus_pkg::to_resp(m_axil_rresp_i);
      rsp_rdata_d = (DATA_BYTES*8)'(m_axil_rdata_i) << (32'(lane_q) * 32);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      write_q     <= 1'b0;
      aw_q        <= 1'b0;
      w_q         <= 1'b0;
      ar_q        <= 1'b0;
      addr_q      <= '0;
      lane_q      <= '0;
      wdata_q     <= '0;
      wstrb_q     <= '0;
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= '0;
      rsp_err_q   <= xdie_xbus_pkg::RESP_OKAY;
    end else begin
      busy_q      <= busy_d;
      write_q     <= write_d;
      aw_q        <= aw_d;
      w_q         <= w_d;
      ar_q        <= ar_d;
      addr_q      <= addr_d;
      lane_q      <= lane_d;
      wdata_q     <= wdata_d;
      wstrb_q     <= wstrb_d;
      rsp_valid_q <= rsp_valid_d;
      rsp_rdata_q <= rsp_rdata_d;
      rsp_err_q   <= rsp_err_d;
    end
  end

  assign s_rsp_valid_o = rsp_valid_q;
  assign s_rsp_rdata_o = rsp_rdata_q;
  assign s_rsp_err_o   = rsp_err_q;

endmodule
