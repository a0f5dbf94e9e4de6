// xbus slave memory: BYTES bytes as BYTES/DATA_BYTES words of one beat, byte-strobed writes, reads
// registered, LATENCY cycles from acceptance to response, one request per cycle.
//
// The array is a plain word array written under byte enables and read into a register with an
// enable, so FPGA tools infer block RAM. Further LATENCY-1 stages follow the read register.
// The whole pipeline advances only while its last stage is empty or being taken: when
// rsp_ready is low the response holds and no request is accepted.
//
// The beat is addr / DATA_BYTES modulo the word count (the die tile subtracts the aperture base). A
// write is answered like a read (its response carries the word's old contents) once it has
// landed; every response is OKAY.
//
// A second port (w_*) only writes: a beat under byte strobes in the cycle w_valid_i is set, with
// no handshake and no response (the SBUF's accumulate path writes its sums there while port A
// reads the next beats; xdie_sbuf_acc). The array keeps one write port: the user never presents
// a port-A write in a cycle with a port-B write, and a port-A read in that cycle of the same
// beat returns the old word (read-first). A memory without such a user ties w_valid_i low.
//
// Simulation hooks, invisible to synthesis: the array is public to Verilator (a testbench loads
// and reads it directly between clock edges, without bus cycles), and with XDIE_SIM_HOOKS
// defined the array's write port reports every write to the testbench's write monitor in the
// cycle it lands.

module xdie_mem #(
  parameter int unsigned BYTES   = 16 * xdie_xbus_pkg::DATA_BYTES,
  parameter int unsigned LATENCY = 1,
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic            clk_i,
  input  logic            rst_ni,
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
  input  logic            w_valid_i,
  input  logic [ADDR_W-1:0]   w_addr_i,
  input  logic [DATA_BYTES*8-1:0] w_wdata_i,
  input  logic [DATA_BYTES-1:0]   w_wstrb_i
);

  if (LATENCY < 1 || BYTES < DATA_BYTES || BYTES % DATA_BYTES != 0) begin : g_bad_param
    $error("xdie_mem: LATENCY at least 1, BYTES a multiple of DATA_BYTES and at least one beat");
  end

  localparam int unsigned WORDS = BYTES / DATA_BYTES;
  localparam int unsigned IW    = (WORDS > 1) ? $clog2(WORDS) : 1;
  localparam int unsigned OW    = $clog2(DATA_BYTES);

  logic [DATA_BYTES*8-1:0] mem_q [WORDS] /* verilator public_flat_rw */;

  logic [ADDR_W-OW-1:0] beat, w_beat;
  logic [IW-1:0]    idx, w_idx;
  logic             advance;
  logic             acc;

  assign beat   = s_req_addr_i[ADDR_W-1:OW];
  assign w_beat = w_addr_i[ADDR_W-1:OW];

  // The offset within the beat, and the beat bits above the array, do not select anything.
  logic unused_addr;
  assign unused_addr = ^{s_req_addr_i[OW-1:0], beat, w_addr_i[OW-1:0], w_beat};

  if ((1 << IW) == WORDS) begin : g_pow2
    assign idx   = beat[IW-1:0];
    assign w_idx = w_beat[IW-1:0];
  end else begin : g_mod
    assign idx   = IW'(beat % (ADDR_W-OW)'(WORDS));
    assign w_idx = IW'(w_beat % (ADDR_W-OW)'(WORDS));
  end

  // ---------------------------------------------------------------- pipeline
  logic [LATENCY-1:0] v_q;
  logic [DATA_BYTES*8-1:0]    rd_q;

  assign advance       = !v_q[LATENCY-1] || s_rsp_ready_i;
  assign s_req_ready_o = advance;
  assign acc           = s_req_valid_i && advance;

  // The array's write port: port B's write, else port A's.
  logic            wr_en;
  logic [IW-1:0]   wr_idx;
  logic [DATA_BYTES*8-1:0] wr_data;
  logic [DATA_BYTES-1:0]   wr_strb;

  assign wr_en   = w_valid_i || (acc && s_req_write_i);
  assign wr_idx  = w_valid_i ? w_idx : idx;
  assign wr_data = w_valid_i ? w_wdata_i : s_req_wdata_i;
  assign wr_strb = w_valid_i ? w_wstrb_i : s_req_wstrb_i;

  always_ff @(posedge clk_i) begin
    if (wr_en) begin
      for (int unsigned i = 0; i < DATA_BYTES; i++) begin
        if (wr_strb[i]) begin
          mem_q[wr_idx][8*i +: 8] <= wr_data[8*i +: 8];
        end
      end
    end
  end

`ifdef XDIE_SIM_HOOKS
  import "DPI-C" context function void xdie_mem_landed(
    input longint unsigned word, input bit [DATA_BYTES*8-1:0] data, input bit [DATA_BYTES-1:0] strb);
  always_ff @(posedge clk_i) begin
    if (wr_en && (wr_strb != '0)) begin
      xdie_mem_landed(64'(wr_idx), wr_data, wr_strb);
    end
  end
`endif

  // Read-first: the read register takes the word as it was before a same-cycle write.
  always_ff @(posedge clk_i) begin
    if (acc) begin
      rd_q <= mem_q[idx];
    end
  end

  if (LATENCY > 1) begin : g_stages
    localparam int unsigned PIPE_W = (LATENCY - 1) * DATA_BYTES * 8;
    // Stage k (bits [k*DATA_BYTES*8 +: DATA_BYTES*8]) takes stage k-1; stage 0 takes the read register.
    logic [PIPE_W-1:0] d_q;
    always_ff @(posedge clk_i) begin
      if (advance) begin
        d_q <= PIPE_W'({d_q, rd_q});
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        v_q <= '0;
      end else if (advance) begin
        v_q <= {v_q[LATENCY-2:0], s_req_valid_i};
      end
    end
    assign s_rsp_rdata_o = d_q[(LATENCY-2)*DATA_BYTES*8 +: DATA_BYTES*8];
  end else begin : g_one
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        v_q <= '0;
      end else if (advance) begin
        v_q <= s_req_valid_i;
      end
    end
    assign s_rsp_rdata_o = rd_q;
  end

  assign s_rsp_valid_o = v_q[LATENCY-1];
  assign s_rsp_err_o   = 2'b00;

endmodule
