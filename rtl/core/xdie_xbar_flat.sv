// xdie_xbar with packed ports: each wide per-port field is one vector with port i at
// [i*W +: W], for integrations (and testbenches) that carry ports as flat vectors. The die uses
// xdie_xbar directly: its masters drive array elements, which a simulator does not have to
// reassemble into one vector every cycle.

module xdie_xbar_flat #(
  parameter int unsigned NM          = 3,
  parameter int unsigned NS          = 3,
  parameter int unsigned OUTSTANDING = 4,
  parameter logic [NM-1:0] READERS   = '1,
  localparam int unsigned SW         = (NS > 1) ? $clog2(NS) : 1,
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W,
  localparam int unsigned DW         = DATA_BYTES * 8
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // masters
  input  logic [NM-1:0]          m_req_valid_i,
  output logic [NM-1:0]          m_req_ready_o,
  input  logic [NM-1:0]          m_req_write_i,
  input  logic [NM*ADDR_W-1:0]   m_req_addr_i,
  input  logic [NM*DW-1:0]       m_req_wdata_i,
  input  logic [NM*DATA_BYTES-1:0] m_req_wstrb_i,
  input  logic [NM*SW-1:0]       m_sel_i,
  output logic [NM-1:0]          m_rsp_valid_o,
  input  logic [NM-1:0]          m_rsp_ready_i,
  output logic [NM*DW-1:0]       m_rsp_rdata_o,
  output logic [NM*2-1:0]        m_rsp_err_o,
  // slaves
  output logic [NS-1:0]          s_req_valid_o,
  input  logic [NS-1:0]          s_req_ready_i,
  output logic [NS-1:0]          s_req_write_o,
  output logic [NS*ADDR_W-1:0]   s_req_addr_o,
  output logic [NS*DW-1:0]       s_req_wdata_o,
  output logic [NS*DATA_BYTES-1:0] s_req_wstrb_o,
  input  logic [NS-1:0]          s_rsp_valid_i,
  output logic [NS-1:0]          s_rsp_ready_o,
  input  logic [NS*DW-1:0]       s_rsp_rdata_i,
  input  logic [NS*2-1:0]        s_rsp_err_i
);

  logic [ADDR_W-1:0]     m_addr  [NM];
  logic [DW-1:0]         m_wdata [NM];
  logic [DATA_BYTES-1:0] m_wstrb [NM];
  logic [DW-1:0]         m_rdata [NM];
  logic [ADDR_W-1:0]     s_addr  [NS];
  logic [DW-1:0]         s_wdata [NS];
  logic [DATA_BYTES-1:0] s_wstrb [NS];
  logic [DW-1:0]         s_rdata [NS];

  for (genvar m = 0; m < NM; m++) begin : g_m
    assign m_addr[m]                  = m_req_addr_i[m*ADDR_W +: ADDR_W];
    assign m_wdata[m]                 = m_req_wdata_i[m*DW +: DW];
    assign m_wstrb[m]                 = m_req_wstrb_i[m*DATA_BYTES +: DATA_BYTES];
    assign m_rsp_rdata_o[m*DW +: DW]  = m_rdata[m];
  end
  for (genvar s = 0; s < NS; s++) begin : g_s
    assign s_req_addr_o[s*ADDR_W +: ADDR_W]          = s_addr[s];
    assign s_req_wdata_o[s*DW +: DW]                 = s_wdata[s];
    assign s_req_wstrb_o[s*DATA_BYTES +: DATA_BYTES] = s_wstrb[s];
    assign s_rdata[s]                                = s_rsp_rdata_i[s*DW +: DW];
  end

  xdie_xbar #(
    .NM(NM), .NS(NS), .OUTSTANDING(OUTSTANDING), .READERS(READERS)
  ) u_xbar (
    .clk_i, .rst_ni,
    .m_req_valid_i, .m_req_ready_o, .m_req_write_i,
    .m_req_addr_i(m_addr), .m_req_wdata_i(m_wdata), .m_req_wstrb_i(m_wstrb), .m_sel_i,
    .m_rsp_valid_o, .m_rsp_ready_i, .m_rsp_rdata_o(m_rdata), .m_rsp_err_o,
    .s_req_valid_o, .s_req_ready_i, .s_req_write_o,
    .s_req_addr_o(s_addr), .s_req_wdata_o(s_wdata), .s_req_wstrb_o(s_wstrb),
    .s_rsp_valid_i, .s_rsp_ready_o, .s_rsp_rdata_i(s_rdata), .s_rsp_err_i
  );

endmodule
