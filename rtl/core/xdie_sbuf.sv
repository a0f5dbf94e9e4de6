// SBUF address mapping between the crossbar and the xdie_mem that backs the SBUF.
//
// Every core of the die has its own SBUF: instance c of the SBUF aperture (and of each
// accumulate aperture) is core c's. An offset in an instance names partition p = offset / STRIDE
// and byte b = offset % STRIDE; only the first BACKING bytes of each partition exist, packed in
// the memory at (c * PARTITIONS + p) * BACKING + b, so the memory needs
// CORES * PARTITIONS * BACKING bytes. A beat at b >= BACKING, in a partition past PARTITIONS or
// of a core past CORES is a decode error: it still goes to the memory, in order, but as a write with no
// byte strobes, so nothing is written, and its response is turned into DECERR. A FIFO of the
// error code each response must carry (depth OUTSTANDING, at least the memory's requests in
// flight) lines them up with the responses. Requests and responses pass through
// combinationally: one beat per cycle.
//
// The core and the offset come from the generated aperture functions of the instance the address
// falls in. The SBUF aperture and the two accumulate apertures (SBUF_ACC_I32, SBUF_ACC_F32: the same
// geometry) all arrive here; the generated aperture functions on the address's LOCAL field say
// which one, and a write into an accumulate aperture leaves with m_req_acc_o set (m_req_fp_o for
// fp32 lanes) for the read-modify-write stage behind (xdie_sbuf_acc). Such a write must strobe
// each 4-byte lane wholly or not at all, and an accumulate aperture is not read: a read there,
// or a write with a partly strobed lane, is answered SLVERR and goes to the memory like a decode
// error (nothing is touched, the whole beat is refused). A decode error in an accumulate
// aperture is DECERR, as in SBUF.
//
// STRIDE must be a power of two and BACKING a multiple of DATA_BYTES. The simulation profile
// backs BACKING = P_SBUF_BACKING_BYTES per partition; an FPGA build passes a smaller BACKING
// (and sizes the memory to PARTITIONS * BACKING).

module xdie_sbuf #(
  parameter int unsigned CORES       = 1,
  parameter int unsigned PARTITIONS  = xdie_soc_addr_pkg::P_SBUF_PARTITIONS,
  parameter int unsigned STRIDE      = xdie_soc_addr_pkg::P_SBUF_PARTITION_STRIDE,
  parameter int unsigned BACKING     = xdie_soc_addr_pkg::P_SBUF_BACKING_BYTES,
  parameter int unsigned OUTSTANDING = 4,
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // from the crossbar
  input  logic            s_req_valid_i,
  output logic            s_req_ready_o,
  input  logic            s_req_write_i,
  input  logic [ADDR_W-1:0]   s_req_addr_i,
  input  logic [DATA_BYTES*8-1:0] s_req_wdata_i,
  input  logic [DATA_BYTES-1:0]   s_req_wstrb_i,
  output logic            s_rsp_valid_o,
  input  logic            s_rsp_ready_i,
  output logic [DATA_BYTES*8-1:0] s_rsp_rdata_o,
  output logic [1:0]      s_rsp_err_o,
  // to the memory
  output logic            m_req_valid_o,
  input  logic            m_req_ready_i,
  output logic            m_req_write_o,
  output logic [ADDR_W-1:0]   m_req_addr_o,
  output logic [DATA_BYTES*8-1:0] m_req_wdata_o,
  output logic [DATA_BYTES-1:0]   m_req_wstrb_o,
  output logic            m_req_acc_o,
  output logic            m_req_fp_o,
  input  logic            m_rsp_valid_i,
  output logic            m_rsp_ready_o,
  input  logic [DATA_BYTES*8-1:0] m_rsp_rdata_i,
  input  logic [1:0]      m_rsp_err_i
);

  localparam int unsigned SHIFT = $clog2(STRIDE);
  localparam int unsigned PW    = (PARTITIONS > 1) ? $clog2(PARTITIONS) : 1;
  localparam int unsigned IW    = xdie_soc_addr_pkg::INST_W;
  localparam int unsigned OW    = xdie_soc_addr_pkg::OFF_W;

  if (CORES < 1 || CORES > xdie_soc_addr_pkg::AP_SBUF_COUNT) begin : g_bad_cores
    $error("xdie_sbuf: CORES must be 1 .. the SBUF aperture's instance count");
  end
  if (PARTITIONS < 1 || OUTSTANDING < 1 || (STRIDE & (STRIDE - 1)) != 0 || BACKING > STRIDE ||
      BACKING % DATA_BYTES != 0) begin : g_bad_param
    $error("xdie_sbuf: PARTITIONS and OUTSTANDING at least 1, STRIDE a power of two, BACKING a multiple of DATA_BYTES and at most STRIDE");
  end

  // A lane of an accumulate aperture: an int32 or binary32 word.
  localparam int unsigned LANE_BYTES = 4;
  localparam int unsigned LANES      = DATA_BYTES / LANE_BYTES;

  logic [PW-1:0]    part;
  logic [SHIFT-1:0] byte_off;
  logic [IW-1:0]    core;
  logic [OW-1:0]    off;
  logic             bad, acc_i32, acc_f32, acc, partial, refused;
  logic [xdie_soc_addr_pkg::LOCAL_W-1:0] local_addr;
  logic [1:0]       code;

  // Which aperture and instance: the crossbar sends only SBUF and the accumulate apertures here.
  assign local_addr = xdie_soc_addr_pkg::local_get_local(s_req_addr_i);
  assign acc_i32    = xdie_soc_addr_pkg::ap_sbuf_acc_i32_hit(local_addr);
  assign acc_f32    = xdie_soc_addr_pkg::ap_sbuf_acc_f32_hit(local_addr);
  assign acc        = acc_i32 || acc_f32;
  always_comb begin
    if (acc_i32) begin
      core = xdie_soc_addr_pkg::ap_sbuf_acc_i32_inst(local_addr);
      off  = xdie_soc_addr_pkg::ap_sbuf_acc_i32_off(local_addr);
    end else if (acc_f32) begin
      core = xdie_soc_addr_pkg::ap_sbuf_acc_f32_inst(local_addr);
      off  = xdie_soc_addr_pkg::ap_sbuf_acc_f32_off(local_addr);
    end else begin
      core = xdie_soc_addr_pkg::ap_sbuf_inst(local_addr);
      off  = xdie_soc_addr_pkg::ap_sbuf_off(local_addr);
    end
  end

  assign part     = PW'(off >> SHIFT);
  assign byte_off = off[SHIFT-1:0];
  // BACKING is a multiple of DATA_BYTES, so comparing the byte compares its beat.
  assign bad      = (byte_off >= SHIFT'(BACKING)) || (32'(off) >> SHIFT >= PARTITIONS) ||
                    (32'(core) >= CORES);

  // Address bits above the LOCAL field are routing bits the decoder already consumed.
  logic unused_addr;
  assign unused_addr = ^s_req_addr_i[ADDR_W-1:xdie_soc_addr_pkg::LOCAL_W];

  always_comb begin
    partial = 1'b0;
    for (int l = 0; l < LANES; l++) begin
      if (s_req_wstrb_i[l*LANE_BYTES +: LANE_BYTES] != '0 &&
          s_req_wstrb_i[l*LANE_BYTES +: LANE_BYTES] != '1) begin
        partial = 1'b1;
      end
    end
  end

  // The response code a refused beat gets (OKAY: served, the memory's answer passes).
  always_comb begin
    if (bad) begin
      code = xdie_xbus_pkg::RESP_DECERR;
    end else if (acc && (!s_req_write_i || partial)) begin
      code = xdie_xbus_pkg::RESP_SLVERR;
    end else begin
      code = xdie_xbus_pkg::RESP_OKAY;
    end
  end
  assign refused = code != xdie_xbus_pkg::RESP_OKAY;

  // ---------------------------------------------------------------- error codes
  // One code per request in flight, in order: the head says whether the next response is
  // refused, and with which code.
  logic       flag_ready, flag_valid, full, push, pop;
  logic [1:0] flag_head;

  xdie_fifo #(.DATA_W(2), .DEPTH(OUTSTANDING)) u_flags (
    .clk_i, .rst_ni,
    .push_valid_i(push), .push_ready_o(flag_ready), .push_data_i(code),
    .pop_valid_o(flag_valid), .pop_ready_i(pop), .pop_data_o(flag_head)
  );

  // Every response answers a request in flight, so the head is valid whenever one arrives.
  logic unused_flag_valid;
  assign unused_flag_valid = flag_valid;

  assign full          = !flag_ready;
  assign m_req_valid_o = s_req_valid_i && !full;
  assign s_req_ready_o = m_req_ready_i && !full;
  assign m_req_write_o = s_req_write_i || refused;
  // A refused beat goes to address 0: a write without strobes touches nothing anywhere.
  assign m_req_addr_o  = refused ? '0 :
      ADDR_W'((64'(core) * PARTITIONS + 64'(part)) * BACKING) + ADDR_W'(byte_off);
  assign m_req_wdata_o = s_req_wdata_i;
  assign m_req_wstrb_o = refused ? '0 : s_req_wstrb_i;
  assign m_req_acc_o   = acc && !refused;
  assign m_req_fp_o    = acc_f32;

  assign s_rsp_valid_o = m_rsp_valid_i;
  assign m_rsp_ready_o = s_rsp_ready_i;
  assign s_rsp_rdata_o = (flag_head != xdie_xbus_pkg::RESP_OKAY) ? '0 : m_rsp_rdata_i;
  assign s_rsp_err_o   = (flag_head != xdie_xbus_pkg::RESP_OKAY) ? flag_head : m_rsp_err_i;

  assign push = s_req_valid_i && s_req_ready_o;
  assign pop  = m_rsp_valid_i && s_rsp_ready_i;

endmodule
