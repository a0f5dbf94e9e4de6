// xbus error slave: answers every request DECERR (read data 0) and writes nothing.
//
// All responses are identical, so keeping them in order needs only a count of the ones owed.
// One request per cycle while fewer than OUTSTANDING responses are owed.

module xdie_xbus_err #(
  parameter int unsigned OUTSTANDING = 4,
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
  output xdie_xbus_pkg::resp_e s_rsp_err_o
);

  if (OUTSTANDING < 1) begin : g_bad_param
    $error("xdie_xbus_err: OUTSTANDING must be at least 1");
  end

  localparam int unsigned CW = $clog2(OUTSTANDING + 1);

  logic [CW-1:0] owed_q, owed_d;
  logic          push, pop;

  assign s_req_ready_o = (owed_q != CW'(OUTSTANDING));
  assign s_rsp_valid_o = (owed_q != '0);
  assign s_rsp_rdata_o = '0;
  assign s_rsp_err_o   = xdie_xbus_pkg::RESP_DECERR;
  assign push          = s_req_valid_i && s_req_ready_o;
  assign pop           = s_rsp_valid_o && s_rsp_ready_i;

  always_comb begin
    owed_d = owed_q;
    if (push && !pop) begin
      owed_d = owed_q + 1'b1;
    end else if (pop && !push) begin
      owed_d = owed_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owed_q <= '0;
    end else begin
      owed_q <= owed_d;
    end
  end

  // The request payload does not matter: every request fails the same way.
  logic unused_req;
  assign unused_req = ^{s_req_write_i, s_req_addr_i, s_req_wdata_i, s_req_wstrb_i};

endmodule
