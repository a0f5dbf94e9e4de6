// xbus slave memory: BYTES bytes as BYTES/DATA_BYTES words of one beat, byte-strobed writes, reads
// registered, LATENCY cycles from the array read to the response, one request per cycle per port.
//
// The array is a plain word array written under byte enables and read into a register with an
// enable, so FPGA tools infer block RAM. Further LATENCY-1 stages follow the read register.
// A port's pipeline advances only while its last stage is empty or being taken: when its
// rsp_ready is low the response holds and the port accepts nothing.
//
// The beat is addr / DATA_BYTES modulo the word count (the die tile subtracts the aperture base). A
// write is answered like a read (its response carries the word's old contents) once it has
// landed; every response is OKAY.
//
// Port A (s_*) reads and writes. Port B (w_*) only writes: a beat under byte strobes in the cycle
// w_valid_i is set, with no handshake and no response (the SBUF's accumulate path writes its sums
// there while port A reads the next beats; xdie_sbuf_acc). The array keeps one write port and
// port B has it first: a port-A write waits while port B writes (it is not accepted, or with
// REQ_REG not issued, in such a cycle); a port-A read in that cycle of the same beat returns
// the old word (read-first).
//
// Port R (r_*) only reads (the SBUF's reads, beside port A's writes and accumulate reads). With
// READ_PORTS = 2 it has an array read of its own: one read on each of A and R and one write per
// cycle, which FPGA tools build from two copies of the array (each a simple dual-port block RAM
// written alike). With READ_PORTS = 1 (the default, and an FPGA die with one shared crossbar path,
// which presents one request per cycle anyway) R shares port A's array read: A goes first, R is
// accepted in a cycle A presents nothing, and the two ports' pipelines advance together (they
// share one read register). A memory without reads of its own ties r_req_valid_i low.
//
// REQ_REG (the default; the FPGA profiles' sizing key timing_registers, off in the simulated
// die) takes each port's request into a register of the memory first and issues it to the array
// from there: the array's write enable, byte enables, addresses and read enable then come from
// flops and the response side's readies, not from the logic in front of the memory (on an FPGA
// they fan out to every block RAM of the array: the ecp5_85 die's critical path ended at the
// write enables of its 136). A cycle more latency, the same rate (a register takes the next
// request in the cycle it issues). Without REQ_REG a request goes to the array in the cycle it
// is accepted. With REQ_REG and READ_PORTS 1, an R read issues in a cycle A's register is empty,
// so it returns the beat as A's requests issued before it left it: A's requests accepted after
// it may already have issued.
//
// Simulation hooks, invisible to synthesis: the array is public to Verilator (a testbench loads
// and reads it directly between clock edges, without bus cycles), and with XDIE_SIM_HOOKS
// defined the array's write port reports every write to the testbench's write monitor in the
// cycle it lands.

module xdie_mem #(
  parameter int unsigned BYTES   = 16 * xdie_xbus_pkg::DATA_BYTES,
  parameter int unsigned LATENCY = 1,
  // 2: port R reads the array on its own; 1: it shares port A's read (see above)
  parameter int unsigned READ_PORTS = 1,
  // 1: each port's request is registered before it goes to the array (see above)
  parameter bit          REQ_REG    = 1'b1,
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
  output xdie_xbus_pkg::resp_e s_rsp_err_o,
  input  logic            w_valid_i,
  input  logic [ADDR_W-1:0]   w_addr_i,
  input  logic [DATA_BYTES*8-1:0] w_wdata_i,
  input  logic [DATA_BYTES-1:0]   w_wstrb_i,
  input  logic            r_req_valid_i,
  output logic            r_req_ready_o,
  input  logic [ADDR_W-1:0]   r_req_addr_i,
  output logic            r_rsp_valid_o,
  input  logic            r_rsp_ready_i,
  output logic [DATA_BYTES*8-1:0] r_rsp_rdata_o
);

  if (LATENCY < 1 || BYTES < DATA_BYTES || BYTES % DATA_BYTES != 0 || READ_PORTS < 1 ||
      READ_PORTS > 2) begin : g_bad_param
    $error("xdie_mem: LATENCY at least 1, BYTES a multiple of DATA_BYTES and at least one beat, READ_PORTS 1 or 2");
  end

  localparam int unsigned WORDS = BYTES / DATA_BYTES;
  localparam int unsigned IW    = (WORDS > 1) ? $clog2(WORDS) : 1;
  localparam int unsigned OW    = $clog2(DATA_BYTES);

  localparam int unsigned DW    = DATA_BYTES * 8;

  logic [DW-1:0] mem_q [WORDS] /* verilator public_flat_rw */;

  logic [ADDR_W-OW-1:0] beat, w_beat, r_beat;
  logic [IW-1:0]    idx, w_idx, r_idx;

  assign beat   = s_req_addr_i[ADDR_W-1:OW];
  assign w_beat = w_addr_i[ADDR_W-1:OW];
  assign r_beat = r_req_addr_i[ADDR_W-1:OW];

  // The offset within the beat, and the beat bits above the array, do not select anything.
  logic unused_addr;
  assign unused_addr = ^{s_req_addr_i[OW-1:0], beat, w_addr_i[OW-1:0], w_beat,
                         r_req_addr_i[OW-1:0], r_beat};

  if ((1 << IW) == WORDS) begin : g_pow2
    assign idx   = beat[IW-1:0];
    assign w_idx = w_beat[IW-1:0];
    assign r_idx = r_beat[IW-1:0];
  end else begin : g_mod
    assign idx   = IW'(beat % (ADDR_W-OW)'(WORDS));
    assign w_idx = IW'(w_beat % (ADDR_W-OW)'(WORDS));
    assign r_idx = IW'(r_beat % (ADDR_W-OW)'(WORDS));
  end

  // ---------------------------------------------------------------- issue
  // v_q / rv_q: a response in each stage of port A's / port R's pipeline.
  logic [LATENCY-1:0] v_q, rv_q;
  logic a_free, r_free;  // the port's last stage is empty or is being taken
  logic a_adv, r_adv;    // the port's pipeline advances

  assign a_free = !v_q[LATENCY-1] || s_rsp_ready_i;
  assign r_free = !rv_q[LATENCY-1] || r_rsp_ready_i;
  if (READ_PORTS == 2) begin : g_adv_own
    assign a_adv = a_free;
    assign r_adv = r_free;
  end else begin : g_adv_shared
    // One read register for both ports: both pipelines move together.
    assign a_adv = a_free && r_free;
    assign r_adv = a_adv;
  end

  // The request each port presents to the array (pa / pr_idx, valid while pa_valid / pr_valid):
  // the port's own or, with REQ_REG, its register's; a_go / r_go: it goes to the array in this
  // cycle. A write waits while port B writes; with one shared array read, A goes first.
  typedef struct packed {
    logic                  write;
    logic [IW-1:0]         idx;
    logic [DW-1:0]         wdata;
    logic [DATA_BYTES-1:0] wstrb;
  } a_req_t;
  a_req_t        a_in, pa;
  logic          pa_valid, pr_valid;
  logic [IW-1:0] pr_idx;
  logic          a_go, r_go;

  assign a_in.write = s_req_write_i;
  assign a_in.idx   = idx;
  assign a_in.wdata = s_req_wdata_i;
  assign a_in.wstrb = s_req_wstrb_i;
  assign a_go = pa_valid && a_adv && !(pa.write && w_valid_i);
  if (READ_PORTS == 2) begin : g_go_own
    assign r_go = pr_valid && r_adv;
  end else begin : g_go_shared
    assign r_go = pr_valid && r_adv && !pa_valid;
  end

  if (REQ_REG) begin : g_req_reg
    logic          qa_valid_q, qr_valid_q;
    a_req_t        qa_q;
    logic [IW-1:0] qr_idx_q;
    logic          a_take, r_take;
    // A register takes its port's next request when it is empty or its request goes now.
    assign a_take = !qa_valid_q || a_go;
    assign r_take = !qr_valid_q || r_go;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        qa_valid_q <= 1'b0;
        qr_valid_q <= 1'b0;
      end else begin
        if (a_take) begin
          qa_valid_q <= s_req_valid_i;
        end
        if (r_take) begin
          qr_valid_q <= r_req_valid_i;
        end
      end
    end
    // Data without reset: read only with the valid.
    always_ff @(posedge clk_i) begin
      if (a_take) begin
        qa_q <= a_in;
      end
      if (r_take) begin
        qr_idx_q <= r_idx;
      end
    end
    assign s_req_ready_o = a_take;
    assign r_req_ready_o = r_take;
    assign pa_valid = qa_valid_q;
    assign pa       = qa_q;
    assign pr_valid = qr_valid_q;
    assign pr_idx   = qr_idx_q;
  end else begin : g_req_direct
    assign s_req_ready_o = a_adv && !(s_req_write_i && w_valid_i);
    if (READ_PORTS == 2) begin : g_r_own
      assign r_req_ready_o = r_adv;
    end else begin : g_r_shared
      assign r_req_ready_o = r_adv && !s_req_valid_i;
    end
    assign pa_valid = s_req_valid_i;
    assign pa       = a_in;
    assign pr_valid = r_req_valid_i;
    assign pr_idx   = r_idx;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q  <= '0;
      rv_q <= '0;
    end else begin
      if (a_adv) begin
        v_q <= LATENCY'({v_q, a_go});
      end
      if (r_adv) begin
        rv_q <= LATENCY'({rv_q, r_go});
      end
    end
  end

  // ---------------------------------------------------------------- the array's write port
  // Port B's write, else port A's.
  logic            wr_en;
  logic [IW-1:0]   wr_idx;
  logic [DW-1:0]   wr_data;
  logic [DATA_BYTES-1:0] wr_strb;

  assign wr_en   = w_valid_i || (a_go && pa.write);
  assign wr_idx  = w_valid_i ? w_idx : pa.idx;
  assign wr_data = w_valid_i ? w_wdata_i : pa.wdata;
  assign wr_strb = w_valid_i ? w_wstrb_i : pa.wstrb;

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
    input longint unsigned word, input bit [DW-1:0] data, input bit [DATA_BYTES-1:0] strb);
  always_ff @(posedge clk_i) begin
    if (wr_en && (wr_strb != '0)) begin
      xdie_mem_landed(64'(wr_idx), wr_data, wr_strb);
    end
  end
`endif

  // ---------------------------------------------------------------- the array's read ports
  // Read p (one per READ_PORTS) loads its register when rd_en[p] and leaves through LATENCY-1
  // further stages that move with rd_adv[p]. Read-first: a register takes the word as it was
  // before a same-cycle write.
  logic [READ_PORTS-1:0]    rd_en, rd_adv;
  logic [READ_PORTS*IW-1:0] rd_idx;
  logic [READ_PORTS*DW-1:0] rd_out;

  if (READ_PORTS == 2) begin : g_read_own
    assign rd_en  = {r_go, a_go};
    assign rd_adv = {r_adv, a_adv};
    assign rd_idx = {pr_idx, pa.idx};
    assign s_rsp_rdata_o = rd_out[0 +: DW];
    assign r_rsp_rdata_o = rd_out[DW +: DW];
  end else begin : g_read_shared
    // The read register loads whenever the pipelines advance, a request issued or not (its
    // valid bit says whether the word is wanted): the enable is then a decode of the response
    // side, not of the requests' issue (on an FPGA the enable of every block RAM of a large
    // array, whose routing alone took 11.5 ns in the ecp5_85 die; docs/fpga-fit.md).
    assign rd_en  = a_adv;
    assign rd_adv = a_adv;
    assign rd_idx = pa_valid ? pa.idx : pr_idx;
    assign s_rsp_rdata_o = rd_out;
    assign r_rsp_rdata_o = rd_out;
  end

  for (genvar p = 0; p < READ_PORTS; p++) begin : g_read
    logic [DW-1:0] rd_q;
    always_ff @(posedge clk_i) begin
      if (rd_en[p]) begin
        rd_q <= mem_q[rd_idx[p*IW +: IW]];
      end
    end
    if (LATENCY > 1) begin : g_stages
      localparam int unsigned PIPE_W = (LATENCY - 1) * DW;
      // Stage k (bits [k*DW +: DW]) takes stage k-1; stage 0 takes the read register.
      logic [PIPE_W-1:0] d_q;
      always_ff @(posedge clk_i) begin
        if (rd_adv[p]) begin
          d_q <= PIPE_W'({d_q, rd_q});
        end
      end
      assign rd_out[p*DW +: DW] = d_q[(LATENCY-2)*DW +: DW];
    end else begin : g_one
      logic unused_adv;
      assign unused_adv = rd_adv[p];
      assign rd_out[p*DW +: DW] = rd_q;
    end
  end

  assign s_rsp_valid_o = v_q[LATENCY-1];
  assign r_rsp_valid_o = rv_q[LATENCY-1];
  assign s_rsp_err_o   = xdie_xbus_pkg::RESP_OKAY;

endmodule
