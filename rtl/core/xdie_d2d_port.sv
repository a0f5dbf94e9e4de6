// D2D controller datapath: the die's end of the die-to-die link.
//
// Outbound (xbus slave; the crossbar sends it requests whose route is PEER_DIE): a request's
// routed address goes through the iATU lookup as it is offered, the request is registered with
// the translation, and
//   - on a hit it leaves as a request flit {write, translated addr, wdata, wstrb} (one credit);
//   - on a miss (or a translation above the ADDR_W address bits) nothing is sent and the request is
//     answered DECERR here.
// One order bit per accepted request (miss or sent) keeps the local DECERRs in their place among
// the responses coming back, which arrive in order as response flits {rdata, err}. The order
// FIFO holds OUTSTANDING requests, so requests keep streaming across the link round trip
// without waiting for responses.
// Inbound (xbus master): request flits from the link are issued on the local xbus as they are;
// each xbus response becomes a response flit, accepted only while a response credit is free.
// Health: link_up_o and the request sender's credits (saturated to the status field) go to the
// iATU block's link_status.
//
// Parameter defaults are the die map's LINK_CREDITS and the iATU block's lookup and link_status
// credits widths; bus and flit widths follow the xbus package.

module xdie_d2d_port #(
  // The link's credits per channel.
  parameter int unsigned CREDITS     = xdie_soc_addr_pkg::P_LINK_CREDITS,
  // Address bits of the iATU lookup (the die passes its iATU block's translated width).
  parameter int unsigned IATU_AW     = 2 * xdie_d2d_iatu_pkg::IATU_OUTBOUND_LIMIT_ADDR_WIDTH,
  // Bits of the credit count shown in the iATU block's link status.
  parameter int unsigned STATUS_CW   = xdie_d2d_iatu_pkg::LINK_STATUS_CREDITS_WIDTH,
  parameter int unsigned OUTSTANDING = 2 * CREDITS,
  localparam int unsigned LINK_CW    = $clog2(CREDITS + 1),
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Outbound: xbus slave
  input  logic                 s_req_valid_i,
  output logic                 s_req_ready_o,
  input  logic                 s_req_write_i,
  input  logic [ADDR_W-1:0]        s_req_addr_i,
  input  logic [8*DATA_BYTES-1:0]      s_req_wdata_i,
  input  logic [DATA_BYTES-1:0]        s_req_wstrb_i,
  output logic                 s_rsp_valid_o,
  input  logic                 s_rsp_ready_i,
  output logic [8*DATA_BYTES-1:0]      s_rsp_rdata_o,
  output xdie_xbus_pkg::resp_e  s_rsp_err_o,
  // iATU lookup (combinational, in the iATU register block)
  output logic [IATU_AW-1:0]   iatu_lookup_addr_o,
  input  logic                 iatu_lookup_hit_i,
  input  logic [IATU_AW-1:0]   iatu_lookup_addr_i,
  // Inbound: xbus master
  output logic                 m_req_valid_o,
  input  logic                 m_req_ready_i,
  output logic                 m_req_write_o,
  output logic [ADDR_W-1:0]        m_req_addr_o,
  output logic [8*DATA_BYTES-1:0]      m_req_wdata_o,
  output logic [DATA_BYTES-1:0]        m_req_wstrb_o,
  input  logic                 m_rsp_valid_i,
  output logic                 m_rsp_ready_o,
  input  logic [8*DATA_BYTES-1:0]      m_rsp_rdata_i,
  input  xdie_xbus_pkg::resp_e  m_rsp_err_i,
  // Link (xdie_d2d_link, this die's side)
  output logic                 req_tx_valid_o,
  output xdie_xbus_pkg::req_t req_tx_data_o,
  input  logic                 req_tx_credit_i,
  input  logic                 req_rx_valid_i,
  output logic                 req_rx_ready_o,
  input  xdie_xbus_pkg::req_t req_rx_data_i,
  output logic                 rsp_tx_valid_o,
  output xdie_xbus_pkg::rsp_t rsp_tx_data_o,
  input  logic                 rsp_tx_credit_i,
  input  logic                 rsp_rx_valid_i,
  output logic                 rsp_rx_ready_o,
  input  xdie_xbus_pkg::rsp_t rsp_rx_data_i,
  input  logic                 link_up_i,
  input  logic [LINK_CW-1:0]   link_credits_i,
  // Link health (to the iATU block's link_status)
  output logic                 link_up_o,
  output logic [STATUS_CW-1:0] credits_o
);
  if (CREDITS < 1 || OUTSTANDING < 1 || STATUS_CW < 1 || STATUS_CW > 31 ||
      IATU_AW < ADDR_W) begin : g_bad_param
    $error("xdie_d2d_port: CREDITS and OUTSTANDING must be at least 1, STATUS_CW 1..31, IATU_AW at least ADDR_W");
  end
  localparam int unsigned STATUS_MAX = (1 << STATUS_CW) - 1;

  // ---- Outbound request register
  logic            ob_valid_d, ob_valid_q;
  logic            ob_write_q, ob_hit_q;
  logic [ADDR_W-1:0]   ob_xaddr_q;
  logic [8*DATA_BYTES-1:0] ob_wdata_q;
  logic [DATA_BYTES-1:0]   ob_wstrb_q;
  logic            ob_load, ob_fire, ob_hit;

  // ---- Response order: 1 = answered here with DECERR, 0 = a response flit will come
  logic            ord_ready, ord_valid, ord_miss, ord_pop;

  // ---- Outbound requests
  assign s_req_ready_o = !ob_valid_q || ob_fire;
  assign ob_load       = s_req_valid_i && s_req_ready_o;

  // The translation is looked up for the request being offered and kept with it when it is
  // accepted, so the port's readiness and the flit come from flops: the iATU's compare and
  // offset chains are not on the path from the crossbar's request register back into its
  // arbitration (timing; the request register holds a steady address while it is valid).
  // A translation that does not fit the routed address cannot name anything on the peer.
  assign iatu_lookup_addr_o = IATU_AW'(s_req_addr_i);
  assign ob_hit = iatu_lookup_hit_i && ((iatu_lookup_addr_i >> ADDR_W) == '0);

  assign ob_fire = ob_valid_q && ord_ready && (!ob_hit_q || (req_tx_credit_i && link_up_i));
  // The flit is offered whenever it is ready and the link is up; the channel takes it with a
  // credit (valid and credit: exactly ob_fire && ob_hit_q), and reports an offer without one as a
  // credit wait.
  assign req_tx_valid_o = ob_valid_q && ord_ready && ob_hit_q && link_up_i;
  assign req_tx_data_o.write = ob_write_q;
  assign req_tx_data_o.addr  = ob_xaddr_q;
  assign req_tx_data_o.wdata = ob_wdata_q;
  assign req_tx_data_o.wstrb = ob_wstrb_q;

  always_comb begin
    ob_valid_d = ob_valid_q;
    if (ob_load) begin
      ob_valid_d = 1'b1;
    end else if (ob_fire) begin
      ob_valid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ob_valid_q <= 1'b0;
    end else begin
      ob_valid_q <= ob_valid_d;
    end
  end

  // Payload needs no reset: it is qualified by ob_valid_q.
  always_ff @(posedge clk_i) begin
    if (ob_load) begin
      ob_write_q <= s_req_write_i;
      ob_hit_q   <= ob_hit;
      ob_xaddr_q <= ADDR_W'(iatu_lookup_addr_i);
      ob_wdata_q <= s_req_wdata_i;
      ob_wstrb_q <= s_req_wstrb_i;
    end
  end

  // ---- Outbound responses, in request order
  xdie_fifo #(
    .DATA_W(1),
    .DEPTH(OUTSTANDING)
  ) u_order (
    .clk_i,
    .rst_ni,
    .push_valid_i(ob_fire),
    .push_ready_o(ord_ready),
    .push_data_i (!ob_hit_q),
    .pop_valid_o (ord_valid),
    .pop_ready_i (ord_pop),
    .pop_data_o  (ord_miss)
  );

  assign s_rsp_valid_o  = ord_valid && (ord_miss || rsp_rx_valid_i);
  assign ord_pop        = s_rsp_valid_o && s_rsp_ready_i;
  assign rsp_rx_ready_o = ord_valid && !ord_miss && s_rsp_ready_i;
  assign s_rsp_rdata_o  = ord_miss ? '0 : rsp_rx_data_i.rdata;
  assign s_rsp_err_o    = ord_miss ? xdie_xbus_pkg::RESP_DECERR : rsp_rx_data_i.err;

  // ---- Inbound: request flits straight onto the local xbus (the FIFO head is stable)
  assign m_req_valid_o = req_rx_valid_i;
  assign req_rx_ready_o = m_req_ready_i;
  assign m_req_write_o = req_rx_data_i.write;
  assign m_req_addr_o  = req_rx_data_i.addr;
  assign m_req_wdata_o = req_rx_data_i.wdata;
  assign m_req_wstrb_o = req_rx_data_i.wstrb;

  // Offered as soon as the response is there; taken with a credit (valid and credit).
  assign rsp_tx_valid_o = m_rsp_valid_i;
  assign m_rsp_ready_o  = rsp_tx_credit_i;
  assign rsp_tx_data_o.rdata = m_rsp_rdata_i;
  assign rsp_tx_data_o.err   = m_rsp_err_i;

  // ---- Health
  assign link_up_o = link_up_i;
  always_comb begin
    credits_o = STATUS_CW'(link_credits_i);
    if (32'(link_credits_i) > STATUS_MAX) begin
      credits_o = STATUS_CW'(STATUS_MAX);
    end
  end
endmodule
