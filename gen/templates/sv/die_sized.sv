// {{ header }}
//
// One die sized by profile `{{ name }}` of csrs/sizing.*: xdie_die with that profile's constants
// from {{ pkg }}. The ports are xdie_die's (their widths follow the profile); use this module
// as the top of an FPGA build instead of setting xdie_die's parameters by hand. The link ports
// are those of D2D controller 0 (the sibling link of a package); the other controllers are
// registers only here (no link: a request routed to them is answered DECERR).
{%- if !description.is_empty() %}
//
{{ description }}
{%- endif %}

module {{ module }} #(
  localparam int unsigned E       = {{ pkg }}::{{ prefix }}_SDMA_ENGINES,
  localparam int unsigned LINK_CW = $clog2({{ pkg }}::{{ prefix }}_LINK_CREDITS + 1),
  localparam int unsigned DIEW    = xdie_soc_addr_pkg::LOCAL_DIE_WIDTH,
  localparam int unsigned CHIPW   = xdie_soc_addr_pkg::LOCAL_CAYMAN_ID_WIDTH,
  localparam int unsigned ND      = {{ pkg }}::{{ prefix }}_D2D_CONTROLLERS,
  localparam xdie_xbus_pkg::req_t REQ_NONE = '0,
  localparam xdie_xbus_pkg::rsp_t RSP_NONE = '0,
  localparam int unsigned REQ_W   = $bits(REQ_NONE),
  localparam int unsigned RSP_W   = $bits(RSP_NONE),
  localparam xdie_d2d_pkg::health_t HEALTH_NONE = '0,
  localparam int unsigned HW      = $bits(HEALTH_NONE)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [DIEW-1:0]    my_die_i,
  input  logic [CHIPW-1:0]   my_chip_i,
  input  logic               s_axil_awvalid_i,
  output logic               s_axil_awready_o,
  input  logic [31:0]        s_axil_awaddr_i,
  input  logic               s_axil_wvalid_i,
  output logic               s_axil_wready_o,
  input  logic [31:0]        s_axil_wdata_i,
  input  logic [3:0]         s_axil_wstrb_i,
  output logic               s_axil_bvalid_o,
  input  logic               s_axil_bready_i,
  output logic [1:0]         s_axil_bresp_o,
  input  logic               s_axil_arvalid_i,
  output logic               s_axil_arready_o,
  input  logic [31:0]        s_axil_araddr_i,
  output logic               s_axil_rvalid_o,
  input  logic               s_axil_rready_i,
  output logic [31:0]        s_axil_rdata_o,
  output logic [1:0]         s_axil_rresp_o,
  output logic               d2d_req_tx_valid_o,
  output xdie_xbus_pkg::req_t d2d_req_tx_data_o,
  input  logic               d2d_req_tx_credit_i,
  input  logic               d2d_req_rx_valid_i,
  output logic               d2d_req_rx_ready_o,
  input  xdie_xbus_pkg::req_t d2d_req_rx_data_i,
  output logic               d2d_rsp_tx_valid_o,
  output xdie_xbus_pkg::rsp_t d2d_rsp_tx_data_o,
  input  logic               d2d_rsp_tx_credit_i,
  input  logic               d2d_rsp_rx_valid_i,
  output logic               d2d_rsp_rx_ready_o,
  input  xdie_xbus_pkg::rsp_t d2d_rsp_rx_data_i,
  input  logic               d2d_link_up_i,
  input  logic [LINK_CW-1:0] d2d_link_credits_i,
  input  logic [HW-1:0]      d2d_health_i,
  output logic               irq_o,
  output logic [2*E-1:0]     eng_err_o,
  output logic [E-1:0]       eng_idle_o
);

  // Link signals of every controller; only controller 0's leave the module.
  logic [ND-1:0]         req_tx_valid, req_rx_ready, rsp_tx_valid, rsp_rx_ready;
  logic [ND*REQ_W-1:0]   req_tx_data;
  logic [ND*RSP_W-1:0]   rsp_tx_data;

  assign d2d_req_tx_valid_o = req_tx_valid[0];
  assign d2d_req_tx_data_o  = req_tx_data[0 +: REQ_W];
  assign d2d_req_rx_ready_o = req_rx_ready[0];
  assign d2d_rsp_tx_valid_o = rsp_tx_valid[0];
  assign d2d_rsp_tx_data_o  = rsp_tx_data[0 +: RSP_W];
  assign d2d_rsp_rx_ready_o = rsp_rx_ready[0];

  if (ND > 1) begin : g_unlinked
    logic unused_unlinked;
    assign unused_unlinked = ^{req_tx_valid[ND-1:1], req_tx_data[ND*REQ_W-1:REQ_W],
                               req_rx_ready[ND-1:1], rsp_tx_valid[ND-1:1],
                               rsp_tx_data[ND*RSP_W-1:RSP_W], rsp_rx_ready[ND-1:1]};
  end

  xdie_die #(
    .E(E),
    .CORES({{ pkg }}::{{ prefix }}_CORES),
    .D2D_CTRLS(ND),
    .SBUF_BACKING({{ pkg }}::{{ prefix }}_SBUF_BACKING_BYTES),
    .HBM_BYTES({{ pkg }}::{{ prefix }}_HBM_BYTES),
    .LINK_CREDITS({{ pkg }}::{{ prefix }}_LINK_CREDITS),
    .OUTSTANDING({{ pkg }}::{{ prefix }}_OUTSTANDING),
    .ENG_READ_BEATS({{ pkg }}::{{ prefix }}_ENGINE_READ_BEATS),
    .SHARED_XBAR({{ pkg }}::{{ prefix }}_SHARED_CROSSBAR != 0),
    .SELECT_ARBITERS({{ pkg }}::{{ prefix }}_SELECT_ARBITERS != 0),
    .TIMING_REGS({{ pkg }}::{{ prefix }}_TIMING_REGISTERS != 0)
  ) u_die (
    .clk_i, .rst_ni, .my_die_i, .my_chip_i,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .d2d_req_tx_valid_o(req_tx_valid), .d2d_req_tx_data_o(req_tx_data),
    .d2d_req_tx_credit_i(ND'(d2d_req_tx_credit_i)),
    .d2d_req_rx_valid_i(ND'(d2d_req_rx_valid_i)), .d2d_req_rx_ready_o(req_rx_ready),
    .d2d_req_rx_data_i((ND*REQ_W)'(d2d_req_rx_data_i)),
    .d2d_rsp_tx_valid_o(rsp_tx_valid), .d2d_rsp_tx_data_o(rsp_tx_data),
    .d2d_rsp_tx_credit_i(ND'(d2d_rsp_tx_credit_i)),
    .d2d_rsp_rx_valid_i(ND'(d2d_rsp_rx_valid_i)), .d2d_rsp_rx_ready_o(rsp_rx_ready),
    .d2d_rsp_rx_data_i((ND*RSP_W)'(d2d_rsp_rx_data_i)),
    .d2d_linked_i(ND'(1)), .d2d_link_up_i(ND'(d2d_link_up_i)),
    .d2d_link_credits_i((ND*LINK_CW)'(d2d_link_credits_i)),
    .d2d_health_i((ND*HW)'(d2d_health_i)), .irq_o,
    .eng_err_o, .eng_idle_o
  );

endmodule
