// One die: host port, E SDMA engines with their queue groups, the register blocks, SBUF, HBM and
// the D2D controller, all joined by one xbus crossbar.
//
// Crossbar masters: the host port, the inbound side of each D2D port (one per D2D controller),
// then a read and a write port per engine. Crossbar slaves: SBUF's write side (writes and
// accumulates) and its read side (reads), HBM, the CSR bridge (in front of the AXI4-Lite
// register blocks), the outbound side of each D2D port and an error slave.
// Every master has its own address decoder (built for the system's address view, VIEW); its
// route and aperture pick the slave:
//   LOCAL      -> SBUF (the SBUF aperture and its two accumulate apertures: a write to the
//                 write side, a read to the read side), HBM, or the CSR bridge for every
//                 register-block aperture
//   PEER_DIE,
//   REMOTE_PKG -> the outbound side of the egress D2D port:
//                 chip-id view: the route table's entry of the destination (CAYMAN_ID of the
//                 address, or this package's when the id-valid bit is clear; DIE);
//                 neighbor view: port 0 (the sibling link) for PEER_DIE, port EXIT_SENG for
//                 REMOTE_PKG (docs/mesh.md).
//                 Error slave instead when the entry is not valid, the port is not linked
//                 (d2d_linked_i), or a request arrived on that very port (it would bounce back).
//   DECERR     -> error slave
// A request that arrives on a D2D port for another die therefore leaves through its egress
// port without touching this die's memories (forwarding); its response comes back the same
// way, through the crossbar, to the inbound side it arrived on. Requests and responses use
// separate link channels and the crossbar answers every master in order, so a response never
// waits for a request channel (docs/mesh.md: deadlock freedom).
// Behind the CSR bridge an AXI4-Lite demultiplexer picks the block instance from the die-local
// address with the SoC package's aperture functions; an address in no instance (e.g. an engine
// aperture instance beyond E) is answered DECERR there.
//
// Register-block side channels: the CSR bridge's EVT_SEM increment fast path feeds EVT_SEM
// hardware increment port 0 (requests from the D2D inbound side reach it through the crossbar
// too, so port 1 is unused and tied off; the bridge accepts no request until EVT_SEM's
// init_done says every semaphore has been initialised after reset); the sequencer command
// slots (xdie_sem_seq) drive EVT_SEM's sequencer port; the broadcast doorbell's per-engine
// pulses feed each engine's two queue groups; each D2D controller's iATU serves its D2D port's
// lookup and shows that port's link health; the route table serves one lookup per master; the
// remap windows serve the host port's lookup.
//
// Every size defaults to the default sizing profile (csrs/sizing.*, xdie_sizing_pkg::DEFAULT_*),
// which equals the die map's values; the generated wrapper tops xdie_die_<profile> pass the
// other profiles' values. The register map is the same at any size: an engine or D2D controller
// aperture instance beyond E or D2D_CTRLS is answered DECERR.

module xdie_die #(
  // NeuronCores, each with its own SBUF, EVT_SEM and accumulate apertures (1 .. the SBUF
  // aperture's instance count; a core past CORES answers DECERR)
  parameter int unsigned CORES         = xdie_sizing_pkg::DEFAULT_CORES,
  // SDMA engines (at most the SDMA_M2S aperture's instance count)
  parameter int unsigned E             = xdie_sizing_pkg::DEFAULT_SDMA_ENGINES,
  // D2D controllers, each with its port (1 .. the D2D aperture's instance count)
  parameter int unsigned D2D_CTRLS     = xdie_sizing_pkg::DEFAULT_D2D_CONTROLLERS,
  // Address view of the system (xdie_soc_addr_pkg::VIEW_*), default the package top's
  parameter logic [xdie_soc_addr_pkg::VIEW_W-1:0] VIEW = xdie_soc_addr_pkg::VIEW_NEIGHBOR,
  // SBUF geometry and backing
  parameter int unsigned SBUF_PARTS    = xdie_soc_addr_pkg::P_SBUF_PARTITIONS,
  parameter int unsigned SBUF_STRIDE   = xdie_soc_addr_pkg::P_SBUF_PARTITION_STRIDE,
  parameter int unsigned SBUF_BACKING  = xdie_sizing_pkg::DEFAULT_SBUF_BACKING_BYTES,
  // HBM bytes
  parameter int unsigned HBM_BYTES     = xdie_sizing_pkg::DEFAULT_HBM_BYTES,
  // Link receive buffers per channel
  parameter int unsigned LINK_CREDITS  = xdie_sizing_pkg::DEFAULT_LINK_CREDITS,
  // Requests in flight per crossbar master and per slave, and writes in flight per engine;
  // covers the link round trip so one engine can keep the link busy
  parameter int unsigned OUTSTANDING   = xdie_sizing_pkg::DEFAULT_OUTSTANDING,
  // Source beats each engine buffers (its reads in flight)
  parameter int unsigned ENG_READ_BEATS = xdie_sizing_pkg::DEFAULT_ENGINE_READ_BEATS,
  // One request and one response path shared by all crossbar ports (xdie_xbar_shared) instead
  // of a full crossbar (xdie_xbar): a fraction of the area for an FPGA build, at one request and
  // one response per cycle for the whole die
  parameter bit          SHARED_XBAR   = xdie_sizing_pkg::DEFAULT_SHARED_CROSSBAR != 0,
  // Each engine's queue round robin in xdie_rr_arbiter's select form: no carry chains, so a
  // shorter path on an FPGA (the pick ran into the crossbar's request register in one cycle),
  // but a simulator evaluates the select bit by bit (more instructions per cycle with many
  // engines); the same picks either way
  parameter bit          SELECT_ARBITERS = xdie_sizing_pkg::DEFAULT_SELECT_ARBITERS != 0,
  // Register stages between blocks for FPGA timing, a cycle of latency each (the same results
  // in more cycles): each engine registers its queue pick before it reads its queue groups, the
  // shared crossbar registers every master's request (after this die's address decode) before
  // it arbitrates, the sequencer slots show EVT_SEM a registered slot, SBUF's mappings hand
  // their requests on through a FIFO of two, and SBUF's and HBM's memories register each
  // request before it goes to the array
  parameter bit          TIMING_REGS   = xdie_sizing_pkg::DEFAULT_TIMING_REGISTERS != 0,
  // Clock each engine, and the queue groups, only in cycles where something of theirs can
  // change (xdie_clock_gate, see the engines below): a simulator then skips idle engines and
  // groups, and an ASIC saves their clock power. Off by default: an FPGA build keeps one clock
  // tree.
  parameter bit          CLOCK_GATE    = 1'b0,
  localparam int unsigned DIEW         = xdie_soc_addr_pkg::LOCAL_DIE_WIDTH,
  localparam int unsigned CHIPW        = xdie_soc_addr_pkg::LOCAL_CAYMAN_ID_WIDTH,
  localparam int unsigned LINK_CW      = $clog2(LINK_CREDITS + 1),
  localparam int unsigned DATA_BYTES   = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W       = xdie_xbus_pkg::ADDR_W,
  localparam xdie_xbus_pkg::req_t REQ_NONE = '0,
  localparam xdie_xbus_pkg::rsp_t RSP_NONE = '0,
  localparam int unsigned REQ_W        = $bits(REQ_NONE),
  localparam int unsigned RSP_W        = $bits(RSP_NONE),
  localparam xdie_d2d_pkg::health_t HEALTH_NONE = '0,
  localparam int unsigned HW           = $bits(HEALTH_NONE)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // identity
  input  logic [DIEW-1:0]    my_die_i,
  input  logic [CHIPW-1:0]   my_chip_i,
  // host AXI4-Lite slave (xt addresses)
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
  // D2D links, this die's side: port c in bits [c*W +: W] (flits as flat request/response
  // structs, xdie_xbus_pkg::req_t / rsp_t)
  output logic [D2D_CTRLS-1:0]         d2d_req_tx_valid_o,
  output logic [D2D_CTRLS*REQ_W-1:0]   d2d_req_tx_data_o,
  input  logic [D2D_CTRLS-1:0]         d2d_req_tx_credit_i,
  input  logic [D2D_CTRLS-1:0]         d2d_req_rx_valid_i,
  output logic [D2D_CTRLS-1:0]         d2d_req_rx_ready_o,
  input  logic [D2D_CTRLS*REQ_W-1:0]   d2d_req_rx_data_i,
  output logic [D2D_CTRLS-1:0]         d2d_rsp_tx_valid_o,
  output logic [D2D_CTRLS*RSP_W-1:0]   d2d_rsp_tx_data_o,
  input  logic [D2D_CTRLS-1:0]         d2d_rsp_tx_credit_i,
  input  logic [D2D_CTRLS-1:0]         d2d_rsp_rx_valid_i,
  output logic [D2D_CTRLS-1:0]         d2d_rsp_rx_ready_o,
  input  logic [D2D_CTRLS*RSP_W-1:0]   d2d_rsp_rx_data_i,
  // Ports with a link behind them (bit c: port c; a constant of the system around the die): a
  // request routed to another port is answered DECERR instead of waiting for a link that never
  // comes up
  input  logic [D2D_CTRLS-1:0]         d2d_linked_i,
  input  logic [D2D_CTRLS-1:0]         d2d_link_up_i,
  input  logic [D2D_CTRLS*LINK_CW-1:0] d2d_link_credits_i,
  // Link health per D2D port (xdie_d2d_pkg::health_t, port c in bits [c*HW +: HW]): the only
  // input of that controller's link-health interrupt block; tie a port without a link to zero
  input  logic [D2D_CTRLS*HW-1:0]      d2d_health_i,
  // Link-health interrupt of the die: any D2D controller's unmasked trigger (link health only,
  // never a data-plane event; csrs/blocks/d2d_health.json)
  output logic                         irq_o,
  // engine status: sticky errors ([2e] read, [2e+1] write) and idle per engine
  output logic [2*E-1:0]     eng_err_o,
  output logic [E-1:0]       eng_idle_o
);

  // ---------------------------------------------------------------- sizes from the packages
  localparam int unsigned CAW    = xdie_soc_addr_pkg::LOCAL_W;
  localparam int unsigned ND     = D2D_CTRLS;
  // Register-block slots behind the demultiplexer
  localparam int unsigned B_EVT  = 0;          // one EVT_SEM per core
  localparam int unsigned B_M2S  = B_EVT + CORES;
  localparam int unsigned B_S2M  = B_M2S + E;
  localparam int unsigned B_BC   = B_S2M + E;
  localparam int unsigned B_D2D  = B_BC + 1;
  localparam int unsigned B_XT   = B_D2D + ND;
  localparam int unsigned B_SEQ  = B_XT + 1;
  localparam int unsigned B_RT   = B_SEQ + 1;
  localparam int unsigned B_HL   = B_RT + 1;
  localparam int unsigned B_IN   = B_HL + ND;
  localparam int unsigned NB     = B_IN + 1;
  localparam int unsigned BSELW  = $clog2(NB + 1);
  // Crossbar
  localparam int unsigned M_HOST = 0;
  localparam int unsigned M_D2D  = 1;
  localparam int unsigned M_ENG  = M_D2D + ND;
  localparam int unsigned NM     = M_ENG + 2 * E;
  // The engines' write masters (odd slots from M_ENG) never read: no response data for them.
  localparam logic [NM-1:0] XBAR_READERS = ~(NM'({E{2'b10}}) << M_ENG);
  localparam int unsigned S_SBUF = 0;       // SBUF writes and accumulates
  localparam int unsigned S_SBUF_RD = 1;    // SBUF reads
  localparam int unsigned S_HBM  = 2;
  localparam int unsigned S_CSR  = 3;
  localparam int unsigned S_D2D  = 4;
  localparam int unsigned S_ERR  = S_D2D + ND;
  localparam int unsigned NS     = S_ERR + 1;
  localparam int unsigned SW     = $clog2(NS);
  // SBUF's read side takes no writes: no write data for it.
  localparam logic [NS-1:0] XBAR_WRITTEN = ~(NS'(1) << S_SBUF_RD);
  // Queue groups (both sides have the same shape; the engine checks nothing else)
  localparam int unsigned Q      = xdie_udma_m2s_pkg::M2S_Q_COUNT;
  localparam int unsigned QBW    = xdie_udma_m2s_pkg::RING_BASE_W;
  localparam int unsigned QHW    = xdie_udma_m2s_pkg::M2S_Q_TDRHP_OFFSET_WIDTH;
  localparam int unsigned QIW    = xdie_udma_m2s_pkg::M2S_Q_TDRHP_RING_ID_WIDTH;
  localparam int unsigned BCE    = xdie_sdma_bcast_pkg::BROADCAST_CFG_GROUP_MASK_WIDTH;
  localparam int unsigned BCQW   = xdie_sdma_bcast_pkg::BROADCAST_QUEUE_QUEUE_WIDTH;
  localparam int unsigned BCVW   = xdie_udma_m2s_pkg::M2S_Q_TDRTP_INC_VAL_WIDTH;
  localparam int unsigned SEMW   = $clog2(xdie_evt_sem_pkg::SEM_INC_COUNT);
  // Bits of a core index (the EVT_SEM aperture's instances)
  localparam int unsigned CW     = (xdie_soc_addr_pkg::AP_EVT_SEM_COUNT > 1) ?
                                   $clog2(xdie_soc_addr_pkg::AP_EVT_SEM_COUNT) : 1;
  localparam int unsigned SEQW   = xdie_evt_sem_pkg::SEQ_SUBOP_BITS;
  localparam int unsigned NEVT   = xdie_evt_sem_pkg::EVENT_COUNT;
  localparam int unsigned IATU_W = 2 * xdie_d2d_iatu_pkg::IATU_OUTBOUND_LIMIT_ADDR_WIDTH;
  localparam int unsigned STCW   = xdie_d2d_iatu_pkg::LINK_STATUS_CREDITS_WIDTH;
  localparam int unsigned WINW   = $clog2(xdie_remap_windows_pkg::WIN_COUNT);
  // Queue index bits of the queue groups' broadcast port (the generator sizes it to the count).
  localparam int unsigned QW     = (Q > 1) ? $clog2(Q) : 1;
  // Route table: entry index and port number widths, and the index's die part
  localparam int unsigned RIW    = $clog2(xdie_route_table_pkg::ROUTE_COUNT);
  localparam int unsigned RPW    = xdie_route_table_pkg::ROUTE_ENTRY_PORT_WIDTH;

  if (E < 1 || E > xdie_soc_addr_pkg::AP_SDMA_M2S_COUNT ||
      E > xdie_soc_addr_pkg::AP_SDMA_S2M_COUNT) begin : g_bad_engines
    $error("xdie_die: E must be 1 .. the SDMA_M2S and SDMA_S2M aperture instance counts");
  end
  if (E > BCE) begin : g_bad_bcast
    $error("xdie_die: E exceeds the broadcast doorbell's group mask width");
  end
  if (D2D_CTRLS < 1 || D2D_CTRLS > xdie_soc_addr_pkg::AP_D2D_COUNT) begin : g_bad_d2d
    $error("xdie_die: D2D_CTRLS must be 1 .. the D2D aperture instance count");
  end
  if (CORES < 1 || CORES > xdie_soc_addr_pkg::AP_SBUF_COUNT ||
      CORES > xdie_soc_addr_pkg::AP_EVT_SEM_COUNT ||
      2 * CORES > xdie_sem_seq_pkg::SLOT_COUNT) begin : g_bad_cores
    $error("xdie_die: CORES must be 1 .. the SBUF and EVT_SEM instance counts, with a sequencer slot per context");
  end
  if (ENG_READ_BEATS < 1) begin : g_bad_read_beats
    $error("xdie_die: ENG_READ_BEATS must be at least 1");
  end
  if (SBUF_PARTS < 1 || SBUF_BACKING > SBUF_STRIDE || OUTSTANDING < 1 ||
      LINK_CREDITS < 1) begin : g_bad_param
    $error("xdie_die: SBUF_PARTS, OUTSTANDING and LINK_CREDITS must be at least 1, SBUF_BACKING at most SBUF_STRIDE");
  end

  // ---------------------------------------------------------------- crossbar wiring
  logic [NM-1:0]      m_req_valid, m_req_ready, m_req_write;
  logic [SW*NM-1:0]   m_sel;              // bit planes (see xdie_xbar)
  logic [NM-1:0]      m_rsp_valid, m_rsp_ready;
  logic [NM*2-1:0]    m_rsp_err;
  logic [NS-1:0]      s_req_valid, s_req_ready, s_req_write;
  logic [NS-1:0]      s_rsp_valid, s_rsp_ready;
  // Wide fields, one element per port, flat or unpacked as xdie_xbar's ports (see there).
  `XDIE_PORT_ARRAY(ADDR_W, m_req_addr, NM);
  `XDIE_PORT_ARRAY(DATA_BYTES*8, m_req_wdata, NM);
  `XDIE_PORT_ARRAY(DATA_BYTES, m_req_wstrb, NM);
  `XDIE_PORT_ARRAY(DATA_BYTES*8, m_rsp_rdata, NM);
  `XDIE_PORT_ARRAY(ADDR_W, s_req_addr, NS);
  `XDIE_PORT_ARRAY(DATA_BYTES*8, s_req_wdata, NS);
  `XDIE_PORT_ARRAY(DATA_BYTES, s_req_wstrb, NS);
  `XDIE_PORT_ARRAY(DATA_BYTES*8, s_rsp_rdata, NS);
  logic [NS*2-1:0]    s_rsp_err;

  if (SHARED_XBAR) begin : g_xbar_shared
    xdie_xbar_shared #(
      .NM(NM), .NS(NS), .OUTSTANDING(OUTSTANDING), .READERS(XBAR_READERS), .M_REG(TIMING_REGS)
    ) u_xbar (
      .clk_i, .rst_ni,
      .m_req_valid_i(m_req_valid), .m_req_ready_o(m_req_ready), .m_req_write_i(m_req_write),
      .m_req_addr_i(m_req_addr), .m_req_wdata_i(m_req_wdata), .m_req_wstrb_i(m_req_wstrb),
      .m_sel_i(m_sel),
      .m_rsp_valid_o(m_rsp_valid), .m_rsp_ready_i(m_rsp_ready), .m_rsp_rdata_o(m_rsp_rdata),
      .m_rsp_err_o(m_rsp_err),
      .s_req_valid_o(s_req_valid), .s_req_ready_i(s_req_ready), .s_req_write_o(s_req_write),
      .s_req_addr_o(s_req_addr), .s_req_wdata_o(s_req_wdata), .s_req_wstrb_o(s_req_wstrb),
      .s_rsp_valid_i(s_rsp_valid), .s_rsp_ready_o(s_rsp_ready), .s_rsp_rdata_i(s_rsp_rdata),
      .s_rsp_err_i(s_rsp_err)
    );
  end else begin : g_xbar
    xdie_xbar #(
      .NM(NM), .NS(NS), .OUTSTANDING(OUTSTANDING), .READERS(XBAR_READERS),
      .WRITTEN(XBAR_WRITTEN)
    ) u_xbar (
      .clk_i, .rst_ni,
      .m_req_valid_i(m_req_valid), .m_req_ready_o(m_req_ready), .m_req_write_i(m_req_write),
      .m_req_addr_i(m_req_addr), .m_req_wdata_i(m_req_wdata), .m_req_wstrb_i(m_req_wstrb),
      .m_sel_i(m_sel),
      .m_rsp_valid_o(m_rsp_valid), .m_rsp_ready_i(m_rsp_ready), .m_rsp_rdata_o(m_rsp_rdata),
      .m_rsp_err_o(m_rsp_err),
      .s_req_valid_o(s_req_valid), .s_req_ready_i(s_req_ready), .s_req_write_o(s_req_write),
      .s_req_addr_o(s_req_addr), .s_req_wdata_o(s_req_wdata), .s_req_wstrb_o(s_req_wstrb),
      .s_rsp_valid_i(s_rsp_valid), .s_rsp_ready_o(s_rsp_ready), .s_rsp_rdata_i(s_rsp_rdata),
      .s_rsp_err_i(s_rsp_err)
    );
  end

  // Route-table lookups, one per master (read in the chip-id view only)
  logic [NM*RIW-1:0] rt_idx;
  logic [NM-1:0]     rt_valid;
  logic [NM*RPW-1:0] rt_port;

  // Inbound permission checks, one per D2D port (xdie_d2d_inbound)
  logic [ND*CAW-1:0]    in_local;
  logic [ND*ADDR_W-1:0] in_addr;
  logic [ND-1:0]        in_write, in_ok, in_refuse;
  logic                 in_irq;

  // One decoder per master: route and aperture of its request address pick its slave (decoded
  // only while the master presents a request; the crossbar reads the select only then).
  for (genvar m = 0; m < NM; m++) begin : g_dec
    logic [xdie_soc_addr_pkg::ROUTE_W-1:0] route;
    logic [xdie_soc_addr_pkg::AP_W-1:0]    ap;
    logic [xdie_soc_addr_pkg::INST_W-1:0]  inst;
    logic [xdie_soc_addr_pkg::OFF_W-1:0]   off;
    logic [ADDR_W-1:0]                     a;
    // Egress port of a request that leaves the die, and whether it may take it
    logic [RPW-1:0]                        egress;
    logic                                  egress_ok;

    assign a = `XDIE_PORT(m_req_addr, m, ADDR_W);

    xdie_addr_decoder #(.VIEW(VIEW)) u_dec (
      .valid_i(m_req_valid[m]), .addr_i(a), .my_die_i, .my_chip_i,
      .route_o(route), .aperture_o(ap), .instance_o(inst), .offset_o(off)
    );

    // The destination die in the chip-id view: the address's chip when the id-valid bit is set,
    // else this package's; the entry index is chip * dies + die. The neighbor view routes
    // without the table, so it looks nothing up (a simulator would otherwise compute and keep
    // one lookup per master on every evaluation, for nothing).
    if (VIEW == xdie_soc_addr_pkg::VIEW_CHIP_ID) begin : g_rt_lookup
      assign rt_idx[m*RIW +: RIW] = RIW'({
          (xdie_soc_addr_pkg::local_get_cayman_id_valid(a) != '0) ?
              xdie_soc_addr_pkg::local_get_cayman_id(a) : my_chip_i,
          xdie_soc_addr_pkg::local_get_die(a)});
    end else begin : g_rt_none
      assign rt_idx[m*RIW +: RIW] = '0;
    end

    always_comb begin
      if (VIEW == xdie_soc_addr_pkg::VIEW_CHIP_ID) begin
        egress    = rt_port[m*RPW +: RPW];
        egress_ok = rt_valid[m];
      end else begin
        egress    = (route == xdie_soc_addr_pkg::ROUTE_REMOTE_PKG) ?
                    RPW'(xdie_soc_addr_pkg::neighbor_get_exit_seng(a)) : '0;
        egress_ok = 1'b1;
      end
      // A port the die does not have or that has no link, or the port the request came in on
      if (32'(egress) >= ND) begin
        egress_ok = 1'b0;
      end else if (!d2d_linked_i[egress[$clog2(ND > 1 ? ND : 2)-1:0]]) begin
        egress_ok = 1'b0;
      end
      if (m >= M_D2D && m < M_D2D + ND && 32'(egress) == m - M_D2D) begin
        egress_ok = 1'b0;
      end
    end

    // Inbound permission (D2D masters only): a request that stays on this die (any route but
    // PEER_DIE and REMOTE_PKG: a local one, or one the decoder refuses, such as an address in no
    // aperture) needs a window of the inbound block that grants it; a refused one goes to the
    // error slave (DECERR, nothing touched) and is reported to the block when the crossbar takes
    // it. Forwarded requests (routed on to another die) are the destination's to check.
    logic refused;
    if (m >= M_D2D && m < M_D2D + ND) begin : g_inbound
      assign in_local[(m - M_D2D)*CAW +: CAW] = xdie_soc_addr_pkg::local_get_local(a);
      assign in_write[m - M_D2D]  = m_req_write[m];
      assign in_addr[(m - M_D2D)*ADDR_W +: ADDR_W] = a;
      assign refused = route != xdie_soc_addr_pkg::ROUTE_PEER_DIE &&
                       route != xdie_soc_addr_pkg::ROUTE_REMOTE_PKG && !in_ok[m - M_D2D];
      assign in_refuse[m - M_D2D] = m_req_valid[m] && m_req_ready[m] && refused;
    end else begin : g_own
      assign refused = 1'b0;
    end

    // This master's slave, into the crossbar's bit planes.
    logic [SW-1:0] sel;
    always_comb begin
      sel = SW'(S_ERR);
      if (route == xdie_soc_addr_pkg::ROUTE_LOCAL && !refused) begin
        if (ap == xdie_soc_addr_pkg::AP_SBUF || ap == xdie_soc_addr_pkg::AP_SBUF_ACC_I32 ||
            ap == xdie_soc_addr_pkg::AP_SBUF_ACC_F32) begin
          sel = m_req_write[m] ? SW'(S_SBUF) : SW'(S_SBUF_RD);
        end else if (ap == xdie_soc_addr_pkg::AP_HBM) begin
          sel = SW'(S_HBM);
        end else begin
          sel = SW'(S_CSR);
        end
      end else if ((route == xdie_soc_addr_pkg::ROUTE_PEER_DIE ||
                    route == xdie_soc_addr_pkg::ROUTE_REMOTE_PKG) && egress_ok) begin
        sel = SW'(S_D2D + 32'(egress));
      end
    end
    for (genvar b = 0; b < SW; b++) begin : g_sel_bit
      assign m_sel[b*NM + m] = sel[b];
    end

    // The slaves take the instance and offset from the address themselves.
    logic unused_dec;
    assign unused_dec = ^{inst, off};
  end

  // ---------------------------------------------------------------- register blocks
  // Demultiplexer slot of a die-local address: the block instance it falls in, NB for none.
  // The instance numbers are computed before any condition reads them: yosys 0.70 infers a latch
  // for the loop variable of an aperture function called inside a short-circuit condition.
  function automatic logic [BSELW-1:0] block_sel(input logic [CAW-1:0] a);
    logic [xdie_soc_addr_pkg::INST_W-1:0] evt, m2s, s2m, d2d, hl;
    evt = xdie_soc_addr_pkg::ap_evt_sem_inst(a);
    m2s = xdie_soc_addr_pkg::ap_sdma_m2s_inst(a);
    s2m = xdie_soc_addr_pkg::ap_sdma_s2m_inst(a);
    d2d = xdie_soc_addr_pkg::ap_d2d_inst(a);
    hl  = xdie_soc_addr_pkg::ap_d2d_health_inst(a);
    block_sel = BSELW'(NB);
    if (xdie_soc_addr_pkg::ap_evt_sem_hit(a) && 32'(evt) < CORES) begin
      block_sel = BSELW'(B_EVT + 32'(evt));
    end
    if (xdie_soc_addr_pkg::ap_sdma_m2s_hit(a) && 32'(m2s) < E) begin
      block_sel = BSELW'(B_M2S + 32'(m2s));
    end
    if (xdie_soc_addr_pkg::ap_sdma_s2m_hit(a) && 32'(s2m) < E) begin
      block_sel = BSELW'(B_S2M + 32'(s2m));
    end
    if (xdie_soc_addr_pkg::ap_sdma_bcast_hit(a)) begin
      block_sel = BSELW'(B_BC);
    end
    if (xdie_soc_addr_pkg::ap_d2d_hit(a) && 32'(d2d) < ND) begin
      block_sel = BSELW'(B_D2D + 32'(d2d));
    end
    if (xdie_soc_addr_pkg::ap_xt_window_hit(a)) begin
      block_sel = BSELW'(B_XT);
    end
    if (xdie_soc_addr_pkg::ap_sem_seq_hit(a)) begin
      block_sel = BSELW'(B_SEQ);
    end
    if (xdie_soc_addr_pkg::ap_route_hit(a)) begin
      block_sel = BSELW'(B_RT);
    end
    if (xdie_soc_addr_pkg::ap_d2d_health_hit(a) && 32'(hl) < ND) begin
      block_sel = BSELW'(B_HL + 32'(hl));
    end
    if (xdie_soc_addr_pkg::ap_inbound_hit(a)) begin
      block_sel = BSELW'(B_IN);
    end
  endfunction

  // CSR bridge -> demultiplexer
  logic             c_awvalid, c_awready, c_wvalid, c_wready, c_bvalid, c_bready;
  logic             c_arvalid, c_arready, c_rvalid, c_rready;
  logic [CAW-1:0]   c_awaddr, c_araddr;
  logic [31:0]      c_wdata, c_rdata;
  logic [3:0]       c_wstrb;
  logic [1:0]       c_bresp, c_rresp;
  logic             sem_inc_valid;
  logic [CW-1:0]    sem_inc_core;
  logic [SEMW-1:0]  sem_inc_idx;
  logic [31:0]      sem_inc_val;
  logic             sem_init_done;

  xdie_xbus_csr #(.INC_REG(TIMING_REGS), .CORES(CORES)) u_csr (
    .clk_i, .rst_ni, .hold_i(!sem_init_done),
    .s_req_valid_i(s_req_valid[S_CSR]), .s_req_ready_o(s_req_ready[S_CSR]),
    .s_req_write_i(s_req_write[S_CSR]), .s_req_addr_i(`XDIE_PORT(s_req_addr, S_CSR, ADDR_W)),
    .s_req_wdata_i(`XDIE_PORT(s_req_wdata, S_CSR, DATA_BYTES*8)), .s_req_wstrb_i(`XDIE_PORT(s_req_wstrb, S_CSR, DATA_BYTES)),
    .s_rsp_valid_o(s_rsp_valid[S_CSR]), .s_rsp_ready_i(s_rsp_ready[S_CSR]),
    .s_rsp_rdata_o(`XDIE_PORT(s_rsp_rdata, S_CSR, DATA_BYTES*8)), .s_rsp_err_o(s_rsp_err[S_CSR*2 +: 2]),
    .m_axil_awvalid_o(c_awvalid), .m_axil_awready_i(c_awready), .m_axil_awaddr_o(c_awaddr),
    .m_axil_wvalid_o(c_wvalid), .m_axil_wready_i(c_wready), .m_axil_wdata_o(c_wdata),
    .m_axil_wstrb_o(c_wstrb), .m_axil_bvalid_i(c_bvalid), .m_axil_bready_o(c_bready),
    .m_axil_bresp_i(c_bresp), .m_axil_arvalid_o(c_arvalid), .m_axil_arready_i(c_arready),
    .m_axil_araddr_o(c_araddr), .m_axil_rvalid_i(c_rvalid), .m_axil_rready_o(c_rready),
    .m_axil_rdata_i(c_rdata), .m_axil_rresp_i(c_rresp),
    .inc_valid_o(sem_inc_valid), .inc_core_o(sem_inc_core), .inc_idx_o(sem_inc_idx),
    .inc_val_o(sem_inc_val)
  );

  logic [NB-1:0]    b_awvalid, b_awready, b_wvalid, b_wready, b_bvalid, b_bready;
  logic [NB-1:0]    b_arvalid, b_arready, b_rvalid, b_rready;
  logic [CAW-1:0]   b_awaddr, b_araddr;
  logic [31:0]      b_wdata;
  logic [3:0]       b_wstrb;
  logic [NB*2-1:0]  b_bresp, b_rresp;
  logic [NB*32-1:0] b_rdata;
  // The blocks whose AXI4-Lite port may have a transfer in progress: the demultiplexer's port of
  // a transaction it holds (from its capture to the hand-back of the response, which is after
  // the block's front-end answered). A block's front-end holds state only then (clock gating of
  // the queue groups, slots B_M2S .. B_S2M + E - 1, and of the register-only blocks, see below).
  // Taken from the demultiplexer's registers rather than gathered from every port's handshakes,
  // which a simulator would evaluate on every clock.
  localparam int unsigned NQB = 2 * E;
  logic [NB-1:0]    b_busy;
  logic [NQB-1:0]   q_busy;
  logic             demux_busy;
  assign q_busy = b_busy[B_M2S +: NQB];

  // The demultiplexer is clocked while it holds a transaction and in the cycles the bridge offers
  // one, and so are the bus front-ends of the blocks on the die clock (BUS_CLOCK: EVT_SEM, the
  // sequencer slots, the broadcast doorbells, the inbound windows, the link-health blocks):
  // a front-end holds state only while the demultiplexer holds its transaction. When the
  // register bus is idle (a bulk transfer), a simulator then evaluates neither their processes
  // nor the combinational logic that reads only their registers (the ports' handshakes the
  // demultiplexer takes in).
  logic a_clk;
  xdie_clock_gate #(.ENABLE(CLOCK_GATE)) u_a_gate (
    .clk_i, .rst_ni, .en_i(demux_busy || c_awvalid || c_wvalid || c_arvalid), .clk_o(a_clk)
  );

  // The register-only blocks (the D2D controllers' iATUs, the remap windows, the route table)
  // change state only through their register port: they share a clock enabled while one of
  // those ports has a transfer in progress, so a simulator does not run their clocked processes
  // in the other cycles (their lookups are combinational and stay on every cycle).
  logic r_clk;
  xdie_clock_gate #(.ENABLE(CLOCK_GATE)) u_r_gate (
    .clk_i, .rst_ni, .en_i((|b_busy[B_D2D +: ND]) || b_busy[B_XT] || b_busy[B_RT]), .clk_o(r_clk)
  );

  xdie_axil_demux #(.N(NB), .ADDR_W(CAW)) u_demux (
    .clk_i(a_clk), .rst_ni,
    .s_axil_awvalid_i(c_awvalid), .s_axil_awready_o(c_awready), .s_axil_awaddr_i(c_awaddr),
    .aw_sel_i(block_sel(c_awaddr)),
    .s_axil_wvalid_i(c_wvalid), .s_axil_wready_o(c_wready), .s_axil_wdata_i(c_wdata),
    .s_axil_wstrb_i(c_wstrb), .s_axil_bvalid_o(c_bvalid), .s_axil_bready_i(c_bready),
    .s_axil_bresp_o(c_bresp), .s_axil_arvalid_i(c_arvalid), .s_axil_arready_o(c_arready),
    .s_axil_araddr_i(c_araddr), .ar_sel_i(block_sel(c_araddr)),
    .s_axil_rvalid_o(c_rvalid), .s_axil_rready_i(c_rready), .s_axil_rdata_o(c_rdata),
    .s_axil_rresp_o(c_rresp),
    .m_axil_awvalid_o(b_awvalid), .m_axil_awready_i(b_awready), .m_axil_awaddr_o(b_awaddr),
    .m_axil_wvalid_o(b_wvalid), .m_axil_wready_i(b_wready), .m_axil_wdata_o(b_wdata),
    .m_axil_wstrb_o(b_wstrb), .m_axil_bvalid_i(b_bvalid), .m_axil_bready_o(b_bready),
    .m_axil_bresp_i(b_bresp), .m_axil_arvalid_o(b_arvalid), .m_axil_arready_i(b_arready),
    .m_axil_araddr_o(b_araddr), .m_axil_rvalid_i(b_rvalid), .m_axil_rready_o(b_rready),
    .m_axil_rdata_i(b_rdata), .m_axil_rresp_i(b_rresp),
    .busy_o(demux_busy), .port_busy_o(b_busy)
  );

  // Each block decodes the low bits of the die-local address; its instance base (a multiple of
  // its size) and the bits above it were consumed by block_sel.
  logic unused_baddr;
  assign unused_baddr = ^{b_awaddr, b_araddr};

  // Sequencer command slots: the contexts' commands, round robin onto one port, which the die
  // hands to the EVT_SEM of the slot's core (slot 2 * c + lane is core c's; the lane is PRID
  // parity). A slot of a core past CORES has no EVT_SEM: its command is taken at once and
  // refused (the slot shows ERR).
  localparam int unsigned SLW = $clog2(xdie_sem_seq_pkg::SLOT_COUNT);
  logic             seq_valid, seq_ready, seq_err;
  logic [SLW-1:0]   seq_slot;
  logic [SEQW-1:0]  seq_subop;
  logic [SEMW-1:0]  seq_idx;
  logic [31:0]      seq_val;
  logic [CW-1:0]    seq_core;
  logic             seq_core_ok;

  xdie_sem_seq #(.BUS_CLOCK(CLOCK_GATE), .PORT_REG(TIMING_REGS)) u_sem_seq (
    .clk_i, .rst_ni, .bus_clk_i(a_clk),
    .s_axil_awvalid_i(b_awvalid[B_SEQ]), .s_axil_awready_o(b_awready[B_SEQ]),
    .s_axil_awaddr_i(b_awaddr[xdie_sem_seq_pkg::ADDR_WIDTH-1:0]),
    .s_axil_wvalid_i(b_wvalid[B_SEQ]), .s_axil_wready_o(b_wready[B_SEQ]),
    .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
    .s_axil_bvalid_o(b_bvalid[B_SEQ]), .s_axil_bready_i(b_bready[B_SEQ]),
    .s_axil_bresp_o(b_bresp[B_SEQ*2 +: 2]),
    .s_axil_arvalid_i(b_arvalid[B_SEQ]), .s_axil_arready_o(b_arready[B_SEQ]),
    .s_axil_araddr_i(b_araddr[xdie_sem_seq_pkg::ADDR_WIDTH-1:0]),
    .s_axil_rvalid_o(b_rvalid[B_SEQ]), .s_axil_rready_i(b_rready[B_SEQ]),
    .s_axil_rdata_o(b_rdata[B_SEQ*32 +: 32]), .s_axil_rresp_o(b_rresp[B_SEQ*2 +: 2]),
    .seq_valid_o(seq_valid), .seq_ready_i(seq_ready), .seq_slot_o(seq_slot),
    .seq_subop_o(seq_subop), .seq_idx_o(seq_idx), .seq_val_o(seq_val), .seq_err_i(seq_err)
  );

  assign seq_core    = CW'(seq_slot >> 1);
  assign seq_core_ok = (32'(seq_slot) >> 1) < CORES;

  // EVT_SEM, one per core. The CSR bridge's fast path hands each INC-window write to its core's
  // hardware increment port 0 (port 1 is unused and tied off).
  logic [CORES-1:0] seq_sel, evt_seq_ready, evt_seq_err, evt_init_done;
  logic [CORES*NEVT-1:0] events;

  for (genvar c = 0; c < CORES; c++) begin : g_core
    assign seq_sel[c] = seq_core_ok && seq_core == CW'(c);

    xdie_evt_sem #(.BUS_CLOCK(CLOCK_GATE)) u_evt_sem (
      .clk_i, .rst_ni, .bus_clk_i(a_clk),
      .s_axil_awvalid_i(b_awvalid[B_EVT + c]), .s_axil_awready_o(b_awready[B_EVT + c]),
      .s_axil_awaddr_i(b_awaddr[xdie_evt_sem_pkg::ADDR_WIDTH-1:0]),
      .s_axil_wvalid_i(b_wvalid[B_EVT + c]), .s_axil_wready_o(b_wready[B_EVT + c]),
      .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
      .s_axil_bvalid_o(b_bvalid[B_EVT + c]), .s_axil_bready_i(b_bready[B_EVT + c]),
      .s_axil_bresp_o(b_bresp[(B_EVT + c)*2 +: 2]),
      .s_axil_arvalid_i(b_arvalid[B_EVT + c]), .s_axil_arready_o(b_arready[B_EVT + c]),
      .s_axil_araddr_i(b_araddr[xdie_evt_sem_pkg::ADDR_WIDTH-1:0]),
      .s_axil_rvalid_o(b_rvalid[B_EVT + c]), .s_axil_rready_i(b_rready[B_EVT + c]),
      .s_axil_rdata_o(b_rdata[(B_EVT + c)*32 +: 32]), .s_axil_rresp_o(b_rresp[(B_EVT + c)*2 +: 2]),
      .hw_inc_valid_i({1'b0, sem_inc_valid && sem_inc_core == CW'(c)}),
      .hw_inc_idx_i({SEMW'(0), sem_inc_idx}),
      .hw_inc_val_i({32'h0, sem_inc_val}),
      .seq_valid_i(seq_valid && seq_sel[c]), .seq_ready_o(evt_seq_ready[c]), .seq_subop_i(seq_subop),
      .seq_idx_i(seq_idx), .seq_val_i(seq_val), .seq_err_o(evt_seq_err[c]),
      .event_o(events[c*NEVT +: NEVT]), .init_done_o(evt_init_done[c])
    );
  end

  // A slot of a core that is not there: taken at once, refused a cycle later as EVT_SEM flags an
  // unknown command (the slots expect the error then).
  logic seq_absent_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) seq_absent_q <= 1'b0;
    else         seq_absent_q <= seq_valid && !seq_core_ok;
  end
  assign seq_ready     = !seq_core_ok || (|(evt_seq_ready & seq_sel));
  assign seq_err       = seq_absent_q || (|evt_seq_err);
  assign sem_init_done = &evt_init_done;

`ifdef XDIE_SIM_HOOKS
  // Simulation hook, invisible to synthesis: every increment the CSR bridge hands an EVT_SEM (all
  // full-word INC-window writes: DMA semaphore descriptors and firmware stores alike) is
  // reported to the testbench's write monitor in the cycle it takes effect.
  import "DPI-C" context function void xdie_sem_inc_landed(
    input int unsigned core, input int unsigned sem, input int unsigned value);
  always_ff @(posedge clk_i) begin
    if (sem_inc_valid) begin
      xdie_sem_inc_landed(32'(sem_inc_core), 32'(sem_inc_idx), sem_inc_val);
    end
  end
`endif

  logic unused_evt;
  assign unused_evt = ^events;

  // Broadcast doorbell
  logic [BCE-1:0]  bc_m2s_valid, bc_s2m_valid;
  logic [BCQW-1:0] bc_queue;
  logic [BCVW-1:0] bc_val;

  xdie_sdma_bcast #(.BUS_CLOCK(CLOCK_GATE)) u_bcast (
    .clk_i, .rst_ni, .bus_clk_i(a_clk),
    .s_axil_awvalid_i(b_awvalid[B_BC]), .s_axil_awready_o(b_awready[B_BC]),
    .s_axil_awaddr_i(b_awaddr[xdie_sdma_bcast_pkg::ADDR_WIDTH-1:0]),
    .s_axil_wvalid_i(b_wvalid[B_BC]), .s_axil_wready_o(b_wready[B_BC]),
    .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
    .s_axil_bvalid_o(b_bvalid[B_BC]), .s_axil_bready_i(b_bready[B_BC]),
    .s_axil_bresp_o(b_bresp[B_BC*2 +: 2]),
    .s_axil_arvalid_i(b_arvalid[B_BC]), .s_axil_arready_o(b_arready[B_BC]),
    .s_axil_araddr_i(b_araddr[xdie_sdma_bcast_pkg::ADDR_WIDTH-1:0]),
    .s_axil_rvalid_o(b_rvalid[B_BC]), .s_axil_rready_i(b_rready[B_BC]),
    .s_axil_rdata_o(b_rdata[B_BC*32 +: 32]), .s_axil_rresp_o(b_rresp[B_BC*2 +: 2]),
    .m2s_inc_valid_o(bc_m2s_valid), .s2m_inc_valid_o(bc_s2m_valid),
    .inc_queue_o(bc_queue), .inc_val_o(bc_val)
  );

  // The doorbell's QUEUE field and the queue groups' queue index are sized separately (the field
  // by its register description, the index by the queue count). A queue number the groups do not
  // have rings nothing; a field narrower than the index reaches the low queues only.
  logic            bc_known;
  logic [QW-1:0]   bc_qidx;
  assign bc_known = 32'(bc_queue) < Q;
  assign bc_qidx  = QW'(bc_queue);

  if (E < BCE) begin : g_bc_unused
    logic unused_bc;
    assign unused_bc = ^{bc_m2s_valid[BCE-1:E], bc_s2m_valid[BCE-1:E]};
  end

  // ---------------------------------------------------------------- engines
  // Clock gating (CLOCK_GATE): each engine runs on a clock of its own, enabled while the engine
  // is not quiet; the queue groups of all engines share one clock, enabled in the cycles where
  // a group flop can change: a register port of a group has a transfer in progress, the
  // broadcast doorbell rings a group, a group has a doorbell increment in flight (it lands one
  // cycle after it is presented), or an engine pulses a head or a ring-id error (engine
  // flops, so they hold from one rising edge to the next). A copy keeps its engine busy for
  // thousands of cycles while its queue groups change once per descriptor pair, so the groups
  // are then not clocked at all.
  logic [E-1:0] eng_inc_valid, eng_rid_err, eng_db_pend;
  logic         q_clk, q_wake;

  assign q_wake = (|q_busy) || (|eng_inc_valid) || (|eng_rid_err) || (|eng_db_pend)
               || (bc_known && ((|bc_m2s_valid[E-1:0]) || (|bc_s2m_valid[E-1:0])));

  xdie_clock_gate #(.ENABLE(CLOCK_GATE)) u_q_gate (
    .clk_i, .rst_ni, .en_i(q_wake), .clk_o(q_clk)
  );

  for (genvar e = 0; e < E; e++) begin : g_eng
    logic             t_clk;
    // Kept as a variable for Verilator (the metacomment is ignored by other tools): it then
    // computes the engine's quiet expression when the engine's or the queue groups' registers
    // change, instead of substituting it into the gate's falling-edge process, which runs on
    // every cycle for all engines, busy or not.
    logic             quiet /*verilator public_flat_rd*/;
    logic [QBW-1:0]   m_base, s_base;
    logic [QHW-1:0]   m_head, s_head;
    logic [QIW-1:0]   m_hid, s_hid;
    logic [Q-1:0]     m_en, s_en, m_ne, s_ne;
    logic [QW-1:0]    rd_idx, inc_idx;
    logic             inc_valid, m_rid_err, s_rid_err, m_db_pend, s_db_pend;
    localparam int unsigned BM = B_M2S + e;
    localparam int unsigned BS = B_S2M + e;
    localparam int unsigned MR = M_ENG + 2 * e;
    localparam int unsigned MW = M_ENG + 2 * e + 1;

    assign eng_inc_valid[e] = inc_valid;
    assign eng_rid_err[e]   = m_rid_err || s_rid_err;
    assign eng_db_pend[e]   = m_db_pend || s_db_pend;

    // The engine reads its queue groups only through their outputs, which change only on the
    // groups' clock; a change that gives the engine work makes it not quiet.
    xdie_clock_gate #(.ENABLE(CLOCK_GATE)) u_gate (
      .clk_i, .rst_ni, .en_i(!quiet), .clk_o(t_clk)
    );

    xdie_udma_m2s u_m2s (
      .clk_i(q_clk), .rst_ni,
      .s_axil_awvalid_i(b_awvalid[BM]), .s_axil_awready_o(b_awready[BM]),
      .s_axil_awaddr_i(b_awaddr[xdie_udma_m2s_pkg::ADDR_WIDTH-1:0]),
      .s_axil_wvalid_i(b_wvalid[BM]), .s_axil_wready_o(b_wready[BM]),
      .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
      .s_axil_bvalid_o(b_bvalid[BM]), .s_axil_bready_i(b_bready[BM]),
      .s_axil_bresp_o(b_bresp[BM*2 +: 2]),
      .s_axil_arvalid_i(b_arvalid[BM]), .s_axil_arready_o(b_arready[BM]),
      .s_axil_araddr_i(b_araddr[xdie_udma_m2s_pkg::ADDR_WIDTH-1:0]),
      .s_axil_rvalid_o(b_rvalid[BM]), .s_axil_rready_i(b_rready[BM]),
      .s_axil_rdata_o(b_rdata[BM*32 +: 32]), .s_axil_rresp_o(b_rresp[BM*2 +: 2]),
      .hw_head_inc_valid_i(inc_valid), .hw_head_inc_idx_i(inc_idx),
      .hw_ring_id_err_i(m_rid_err),
      .bcast_inc_valid_i(bc_m2s_valid[e] && bc_known), .bcast_inc_queue_i(bc_qidx),
      .bcast_inc_val_i(bc_val),
      .q_enable_o(m_en), .q_nonempty_o(m_ne), .rd_idx_i(rd_idx),
      .rd_ring_base_o(m_base), .rd_head_o(m_head), .rd_head_ring_id_o(m_hid),
      .db_pend_o(m_db_pend)
    );

    xdie_udma_s2m u_s2m (
      .clk_i(q_clk), .rst_ni,
      .s_axil_awvalid_i(b_awvalid[BS]), .s_axil_awready_o(b_awready[BS]),
      .s_axil_awaddr_i(b_awaddr[xdie_udma_s2m_pkg::ADDR_WIDTH-1:0]),
      .s_axil_wvalid_i(b_wvalid[BS]), .s_axil_wready_o(b_wready[BS]),
      .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
      .s_axil_bvalid_o(b_bvalid[BS]), .s_axil_bready_i(b_bready[BS]),
      .s_axil_bresp_o(b_bresp[BS*2 +: 2]),
      .s_axil_arvalid_i(b_arvalid[BS]), .s_axil_arready_o(b_arready[BS]),
      .s_axil_araddr_i(b_araddr[xdie_udma_s2m_pkg::ADDR_WIDTH-1:0]),
      .s_axil_rvalid_o(b_rvalid[BS]), .s_axil_rready_i(b_rready[BS]),
      .s_axil_rdata_o(b_rdata[BS*32 +: 32]), .s_axil_rresp_o(b_rresp[BS*2 +: 2]),
      .hw_head_inc_valid_i(inc_valid), .hw_head_inc_idx_i(inc_idx),
      .hw_ring_id_err_i(s_rid_err),
      .bcast_inc_valid_i(bc_s2m_valid[e] && bc_known), .bcast_inc_queue_i(bc_qidx),
      .bcast_inc_val_i(bc_val),
      .q_enable_o(s_en), .q_nonempty_o(s_ne), .rd_idx_i(rd_idx),
      .rd_ring_base_o(s_base), .rd_head_o(s_head), .rd_head_ring_id_o(s_hid),
      .db_pend_o(s_db_pend)
    );

    xdie_sdma_engine #(
      .RD_DEPTH(ENG_READ_BEATS), .WR_DEPTH(OUTSTANDING),
      .Q(Q), .BW(QBW), .HW(QHW), .IDW(QIW), .SELECT_RR(SELECT_ARBITERS), .PICK_REG(TIMING_REGS)
    ) u_engine (
      .clk_i(t_clk), .rst_ni,
      .m2s_enable_i(m_en), .m2s_nonempty_i(m_ne), .s2m_enable_i(s_en), .s2m_nonempty_i(s_ne),
      .rd_idx_o(rd_idx),
      .m2s_rd_ring_base_i(m_base), .m2s_rd_head_i(m_head), .m2s_rd_head_ring_id_i(m_hid),
      .s2m_rd_ring_base_i(s_base), .s2m_rd_head_i(s_head), .s2m_rd_head_ring_id_i(s_hid),
      .head_inc_valid_o(inc_valid), .head_inc_idx_o(inc_idx),
      .m2s_ring_id_err_o(m_rid_err), .s2m_ring_id_err_o(s_rid_err),
      .m_rd_req_valid_o(m_req_valid[MR]), .m_rd_req_ready_i(m_req_ready[MR]),
      .m_rd_req_write_o(m_req_write[MR]), .m_rd_req_addr_o(`XDIE_PORT(m_req_addr, MR, ADDR_W)),
      .m_rd_req_wdata_o(`XDIE_PORT(m_req_wdata, MR, DATA_BYTES*8)), .m_rd_req_wstrb_o(`XDIE_PORT(m_req_wstrb, MR, DATA_BYTES)),
      .m_rd_rsp_valid_i(m_rsp_valid[MR]), .m_rd_rsp_ready_o(m_rsp_ready[MR]),
      .m_rd_rsp_rdata_i(`XDIE_PORT(m_rsp_rdata, MR, DATA_BYTES*8)), .m_rd_rsp_err_i(m_rsp_err[MR*2 +: 2]),
      .m_wr_req_valid_o(m_req_valid[MW]), .m_wr_req_ready_i(m_req_ready[MW]),
      .m_wr_req_write_o(m_req_write[MW]), .m_wr_req_addr_o(`XDIE_PORT(m_req_addr, MW, ADDR_W)),
      .m_wr_req_wdata_o(`XDIE_PORT(m_req_wdata, MW, DATA_BYTES*8)), .m_wr_req_wstrb_o(`XDIE_PORT(m_req_wstrb, MW, DATA_BYTES)),
      .m_wr_rsp_valid_i(m_rsp_valid[MW]), .m_wr_rsp_ready_o(m_rsp_ready[MW]),
      .m_wr_rsp_rdata_i(`XDIE_PORT(m_rsp_rdata, MW, DATA_BYTES*8)), .m_wr_rsp_err_i(m_rsp_err[MW*2 +: 2]),
      .err_o(eng_err_o[2*e +: 2]), .idle_o(eng_idle_o[e]), .quiet_o(quiet)
    );
  end

  // ---------------------------------------------------------------- D2D controllers and ports
  logic [ND-1:0] hl_irq;
  // Link health and inbound permission refusals only: no data-plane event reaches irq_o.
  assign irq_o = (|hl_irq) || in_irq;

  // Inbound permission windows of the die (every D2D port's landing requests)
  xdie_d2d_inbound #(.PORTS(ND), .BUS_CLOCK(CLOCK_GATE)) u_inbound (
    .clk_i, .rst_ni, .bus_clk_i(a_clk),
    .s_axil_awvalid_i(b_awvalid[B_IN]), .s_axil_awready_o(b_awready[B_IN]),
    .s_axil_awaddr_i(b_awaddr[xdie_d2d_inbound_pkg::ADDR_WIDTH-1:0]),
    .s_axil_wvalid_i(b_wvalid[B_IN]), .s_axil_wready_o(b_wready[B_IN]),
    .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
    .s_axil_bvalid_o(b_bvalid[B_IN]), .s_axil_bready_i(b_bready[B_IN]),
    .s_axil_bresp_o(b_bresp[B_IN*2 +: 2]),
    .s_axil_arvalid_i(b_arvalid[B_IN]), .s_axil_arready_o(b_arready[B_IN]),
    .s_axil_araddr_i(b_araddr[xdie_d2d_inbound_pkg::ADDR_WIDTH-1:0]),
    .s_axil_rvalid_o(b_rvalid[B_IN]), .s_axil_rready_i(b_rready[B_IN]),
    .s_axil_rdata_o(b_rdata[B_IN*32 +: 32]), .s_axil_rresp_o(b_rresp[B_IN*2 +: 2]),
    .chk_local_i(in_local), .chk_write_i(in_write), .chk_ok_o(in_ok),
    .refuse_i(in_refuse), .refuse_addr_i(in_addr), .refuse_write_i(in_write),
    .irq_o(in_irq)
  );

  // The D2D ports' link-health reports, unpacked field by field into flat vectors (port c's
  // field in [c*HCH +: HCH]) by one module-level struct variable. yosys (0.23 and 0.70) reads a
  // member select of an element of an array of structs (`health[c].up`), and one of a struct
  // declared in a generate or unnamed block, as an implicit wire with no driver, so the health
  // blocks' inputs would be cut in every netlist; a plain struct variable it reads right.
  localparam int unsigned HCH = xdie_d2d_pkg::HEALTH_CH;
  xdie_d2d_pkg::health_t health_c;
  logic [ND-1:0]     hl_up;
  logic [ND*HCH-1:0] hl_flit_crc_err, hl_dllp_crc_err, hl_replay, hl_credit_wait;
  always_comb begin
    health_c = HEALTH_NONE;
    hl_up = '0;
    hl_flit_crc_err = '0;
    hl_dllp_crc_err = '0;
    hl_replay = '0;
    hl_credit_wait = '0;
    for (int unsigned c = 0; c < ND; c++) begin
      health_c = d2d_health_i[c*HW +: HW];
      hl_up[c]                     = health_c.up;
      hl_flit_crc_err[c*HCH +: HCH] = health_c.flit_crc_err;
      hl_dllp_crc_err[c*HCH +: HCH] = health_c.dllp_crc_err;
      hl_replay[c*HCH +: HCH]       = health_c.replay;
      hl_credit_wait[c*HCH +: HCH]  = health_c.credit_wait;
    end
  end

  for (genvar c = 0; c < ND; c++) begin : g_d2d
    localparam int unsigned BD = B_D2D + c;
    localparam int unsigned BH = B_HL + c;

    // Link-health interrupts of this controller: its inputs are the link's health report and
    // nothing else (no data-plane signal of the die is wired here).
    xdie_d2d_health #(.CH(HCH), .BUS_CLOCK(CLOCK_GATE)) u_health (
      .clk_i, .rst_ni, .bus_clk_i(a_clk),
      .s_axil_awvalid_i(b_awvalid[BH]), .s_axil_awready_o(b_awready[BH]),
      .s_axil_awaddr_i(b_awaddr[xdie_d2d_health_pkg::ADDR_WIDTH-1:0]),
      .s_axil_wvalid_i(b_wvalid[BH]), .s_axil_wready_o(b_wready[BH]),
      .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
      .s_axil_bvalid_o(b_bvalid[BH]), .s_axil_bready_i(b_bready[BH]),
      .s_axil_bresp_o(b_bresp[BH*2 +: 2]),
      .s_axil_arvalid_i(b_arvalid[BH]), .s_axil_arready_o(b_arready[BH]),
      .s_axil_araddr_i(b_araddr[xdie_d2d_health_pkg::ADDR_WIDTH-1:0]),
      .s_axil_rvalid_o(b_rvalid[BH]), .s_axil_rready_i(b_rready[BH]),
      .s_axil_rdata_o(b_rdata[BH*32 +: 32]), .s_axil_rresp_o(b_rresp[BH*2 +: 2]),
      .link_up_i(hl_up[c]), .flit_crc_err_i(hl_flit_crc_err[c*HCH +: HCH]),
      .dllp_crc_err_i(hl_dllp_crc_err[c*HCH +: HCH]), .replay_i(hl_replay[c*HCH +: HCH]),
      .credit_wait_i(hl_credit_wait[c*HCH +: HCH]),
      .irq_o(hl_irq[c])
    );

    localparam int unsigned SD = S_D2D + c;
    localparam int unsigned MD = M_D2D + c;
    logic              hit, port_link_up;
    logic [2:0]        region;
    logic [IATU_W-1:0] iatu_in, iatu_out;
    logic [STCW-1:0]   port_credits;

    xdie_d2d_iatu u_iatu (
      .clk_i(r_clk), .rst_ni,
      .s_axil_awvalid_i(b_awvalid[BD]), .s_axil_awready_o(b_awready[BD]),
      .s_axil_awaddr_i(b_awaddr[xdie_d2d_iatu_pkg::ADDR_WIDTH-1:0]),
      .s_axil_wvalid_i(b_wvalid[BD]), .s_axil_wready_o(b_wready[BD]),
      .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
      .s_axil_bvalid_o(b_bvalid[BD]), .s_axil_bready_i(b_bready[BD]),
      .s_axil_bresp_o(b_bresp[BD*2 +: 2]),
      .s_axil_arvalid_i(b_arvalid[BD]), .s_axil_arready_o(b_arready[BD]),
      .s_axil_araddr_i(b_araddr[xdie_d2d_iatu_pkg::ADDR_WIDTH-1:0]),
      .s_axil_rvalid_o(b_rvalid[BD]), .s_axil_rready_i(b_rready[BD]),
      .s_axil_rdata_o(b_rdata[BD*32 +: 32]), .s_axil_rresp_o(b_rresp[BD*2 +: 2]),
      .lookup_addr_i(iatu_in), .lookup_hit_o(hit),
      .lookup_region_o(region), .lookup_addr_o(iatu_out),
      .link_up_i(port_link_up), .credits_i(port_credits)
    );

    logic unused_region;
    assign unused_region = ^region;

    xdie_d2d_port #(
      .CREDITS(LINK_CREDITS), .IATU_AW(IATU_W), .STATUS_CW(STCW)
    ) u_port (
      .clk_i, .rst_ni,
      .s_req_valid_i(s_req_valid[SD]), .s_req_ready_o(s_req_ready[SD]),
      .s_req_write_i(s_req_write[SD]), .s_req_addr_i(`XDIE_PORT(s_req_addr, SD, ADDR_W)),
      .s_req_wdata_i(`XDIE_PORT(s_req_wdata, SD, DATA_BYTES*8)), .s_req_wstrb_i(`XDIE_PORT(s_req_wstrb, SD, DATA_BYTES)),
      .s_rsp_valid_o(s_rsp_valid[SD]), .s_rsp_ready_i(s_rsp_ready[SD]),
      .s_rsp_rdata_o(`XDIE_PORT(s_rsp_rdata, SD, DATA_BYTES*8)), .s_rsp_err_o(s_rsp_err[SD*2 +: 2]),
      .iatu_lookup_addr_o(iatu_in), .iatu_lookup_hit_i(hit), .iatu_lookup_addr_i(iatu_out),
      .m_req_valid_o(m_req_valid[MD]), .m_req_ready_i(m_req_ready[MD]),
      .m_req_write_o(m_req_write[MD]), .m_req_addr_o(`XDIE_PORT(m_req_addr, MD, ADDR_W)),
      .m_req_wdata_o(`XDIE_PORT(m_req_wdata, MD, DATA_BYTES*8)), .m_req_wstrb_o(`XDIE_PORT(m_req_wstrb, MD, DATA_BYTES)),
      .m_rsp_valid_i(m_rsp_valid[MD]), .m_rsp_ready_o(m_rsp_ready[MD]),
      .m_rsp_rdata_i(`XDIE_PORT(m_rsp_rdata, MD, DATA_BYTES*8)), .m_rsp_err_i(m_rsp_err[MD*2 +: 2]),
      .req_tx_valid_o(d2d_req_tx_valid_o[c]), .req_tx_data_o(d2d_req_tx_data_o[c*REQ_W +: REQ_W]),
      .req_tx_credit_i(d2d_req_tx_credit_i[c]),
      .req_rx_valid_i(d2d_req_rx_valid_i[c]), .req_rx_ready_o(d2d_req_rx_ready_o[c]),
      .req_rx_data_i(d2d_req_rx_data_i[c*REQ_W +: REQ_W]),
      .rsp_tx_valid_o(d2d_rsp_tx_valid_o[c]), .rsp_tx_data_o(d2d_rsp_tx_data_o[c*RSP_W +: RSP_W]),
      .rsp_tx_credit_i(d2d_rsp_tx_credit_i[c]),
      .rsp_rx_valid_i(d2d_rsp_rx_valid_i[c]), .rsp_rx_ready_o(d2d_rsp_rx_ready_o[c]),
      .rsp_rx_data_i(d2d_rsp_rx_data_i[c*RSP_W +: RSP_W]),
      .link_up_i(d2d_link_up_i[c]), .link_credits_i(d2d_link_credits_i[c*LINK_CW +: LINK_CW]),
      .link_up_o(port_link_up), .credits_o(port_credits)
    );
  end

  // ---------------------------------------------------------------- route table
  xdie_route_table #(.LOOKUPS(NM)) u_route (
    .clk_i(r_clk), .rst_ni,
    .s_axil_awvalid_i(b_awvalid[B_RT]), .s_axil_awready_o(b_awready[B_RT]),
    .s_axil_awaddr_i(b_awaddr[xdie_route_table_pkg::ADDR_WIDTH-1:0]),
    .s_axil_wvalid_i(b_wvalid[B_RT]), .s_axil_wready_o(b_wready[B_RT]),
    .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
    .s_axil_bvalid_o(b_bvalid[B_RT]), .s_axil_bready_i(b_bready[B_RT]),
    .s_axil_bresp_o(b_bresp[B_RT*2 +: 2]),
    .s_axil_arvalid_i(b_arvalid[B_RT]), .s_axil_arready_o(b_arready[B_RT]),
    .s_axil_araddr_i(b_araddr[xdie_route_table_pkg::ADDR_WIDTH-1:0]),
    .s_axil_rvalid_o(b_rvalid[B_RT]), .s_axil_rready_i(b_rready[B_RT]),
    .s_axil_rdata_o(b_rdata[B_RT*32 +: 32]), .s_axil_rresp_o(b_rresp[B_RT*2 +: 2]),
    .lookup_idx_i(rt_idx), .lookup_valid_o(rt_valid), .lookup_port_o(rt_port)
  );

  // ---------------------------------------------------------------- remap windows, host port
  logic                 xt_hit;
  logic [31:0]          xt_addr;
  logic [WINW-1:0]      xt_win;
  logic [ADDR_W-1:0]        xt_soc;

  xdie_remap_windows u_xt (
    .clk_i(r_clk), .rst_ni,
    .s_axil_awvalid_i(b_awvalid[B_XT]), .s_axil_awready_o(b_awready[B_XT]),
    .s_axil_awaddr_i(b_awaddr[xdie_remap_windows_pkg::ADDR_WIDTH-1:0]),
    .s_axil_wvalid_i(b_wvalid[B_XT]), .s_axil_wready_o(b_wready[B_XT]),
    .s_axil_wdata_i(b_wdata), .s_axil_wstrb_i(b_wstrb),
    .s_axil_bvalid_o(b_bvalid[B_XT]), .s_axil_bready_i(b_bready[B_XT]),
    .s_axil_bresp_o(b_bresp[B_XT*2 +: 2]),
    .s_axil_arvalid_i(b_arvalid[B_XT]), .s_axil_arready_o(b_arready[B_XT]),
    .s_axil_araddr_i(b_araddr[xdie_remap_windows_pkg::ADDR_WIDTH-1:0]),
    .s_axil_rvalid_o(b_rvalid[B_XT]), .s_axil_rready_i(b_rready[B_XT]),
    .s_axil_rdata_o(b_rdata[B_XT*32 +: 32]), .s_axil_rresp_o(b_rresp[B_XT*2 +: 2]),
    .xt_addr_i(xt_addr), .hit_o(xt_hit), .win_o(xt_win), .soc_addr_o(xt_soc)
  );

  logic unused_win;
  assign unused_win = ^xt_win;

  xdie_host_port u_host (
    .clk_i, .rst_ni, .my_die_i,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .xt_addr_o(xt_addr), .hit_i(xt_hit), .soc_addr_i(xt_soc),
    .m_req_valid_o(m_req_valid[M_HOST]), .m_req_ready_i(m_req_ready[M_HOST]),
    .m_req_write_o(m_req_write[M_HOST]), .m_req_addr_o(`XDIE_PORT(m_req_addr, M_HOST, ADDR_W)),
    .m_req_wdata_o(`XDIE_PORT(m_req_wdata, M_HOST, DATA_BYTES*8)), .m_req_wstrb_o(`XDIE_PORT(m_req_wstrb, M_HOST, DATA_BYTES)),
    .m_rsp_valid_i(m_rsp_valid[M_HOST]), .m_rsp_ready_o(m_rsp_ready[M_HOST]),
    .m_rsp_rdata_i(`XDIE_PORT(m_rsp_rdata, M_HOST, DATA_BYTES*8)), .m_rsp_err_i(m_rsp_err[M_HOST*2 +: 2])
  );

  // ---------------------------------------------------------------- memories
  // SBUF has two crossbar slaves, so that a die can receive (a write or an accumulate from a D2D
  // port) and send (an engine's read) a beat in the same cycle, as every die of a ring does: an
  // SBUF mapping for each (xdie_sbuf: the same decode and refusals), one read-modify-write stage
  // (xdie_sbuf_acc) whose hazard both sides meet, and a memory with a read port for the read
  // side (xdie_mem port R) besides port A (writes, accumulate reads) and port B (sums).
  // The shared crossbar presents one request per cycle, so there port R shares port A's array
  // read (READ_PORTS 1) rather than duplicate the block RAM.
  localparam int unsigned SBUF_READ_PORTS = SHARED_XBAR ? 1 : 2;

  logic            sb_req_valid, sb_req_ready, sb_req_write, sb_req_acc, sb_req_fp;
  logic [ADDR_W-1:0]   sb_req_addr;
  logic [DATA_BYTES*8-1:0] sb_req_wdata, sb_rsp_rdata;
  logic [DATA_BYTES-1:0]   sb_req_wstrb;
  logic            sb_rsp_valid, sb_rsp_ready;
  logic [1:0]      sb_rsp_err;

  xdie_sbuf #(
    .CORES(CORES), .PARTITIONS(SBUF_PARTS), .STRIDE(SBUF_STRIDE), .BACKING(SBUF_BACKING)
  ) u_sbuf (
    .clk_i, .rst_ni,
    .s_req_valid_i(s_req_valid[S_SBUF]), .s_req_ready_o(s_req_ready[S_SBUF]),
    .s_req_write_i(s_req_write[S_SBUF]), .s_req_addr_i(`XDIE_PORT(s_req_addr, S_SBUF, ADDR_W)),
    .s_req_wdata_i(`XDIE_PORT(s_req_wdata, S_SBUF, DATA_BYTES*8)), .s_req_wstrb_i(`XDIE_PORT(s_req_wstrb, S_SBUF, DATA_BYTES)),
    .s_rsp_valid_o(s_rsp_valid[S_SBUF]), .s_rsp_ready_i(s_rsp_ready[S_SBUF]),
    .s_rsp_rdata_o(`XDIE_PORT(s_rsp_rdata, S_SBUF, DATA_BYTES*8)), .s_rsp_err_o(s_rsp_err[S_SBUF*2 +: 2]),
    .m_req_valid_o(sb_req_valid), .m_req_ready_i(sb_req_ready), .m_req_write_o(sb_req_write),
    .m_req_addr_o(sb_req_addr), .m_req_wdata_o(sb_req_wdata), .m_req_wstrb_o(sb_req_wstrb),
    .m_req_acc_o(sb_req_acc), .m_req_fp_o(sb_req_fp),
    .m_rsp_valid_i(sb_rsp_valid), .m_rsp_ready_o(sb_rsp_ready), .m_rsp_rdata_i(sb_rsp_rdata),
    .m_rsp_err_i(sb_rsp_err)
  );

  // The read side: only reads arrive here (the decoders send writes to the write side). A beat
  // it refuses (a read of an accumulate aperture, or past the backing) leaves as a write without
  // strobes to beat 0, which port R reads instead: the mapping answers it with the code and zero
  // data, so the read is harmless.
  logic            sr_req_valid, sr_req_ready, sr_req_write, sr_req_acc, sr_req_fp;
  logic [ADDR_W-1:0]   sr_req_addr;
  logic [DATA_BYTES*8-1:0] sr_req_wdata, sr_rsp_rdata;
  logic [DATA_BYTES-1:0]   sr_req_wstrb;
  logic            sr_rsp_valid, sr_rsp_ready;

  xdie_sbuf #(
    .CORES(CORES), .PARTITIONS(SBUF_PARTS), .STRIDE(SBUF_STRIDE), .BACKING(SBUF_BACKING)
  ) u_sbuf_rd (
    .clk_i, .rst_ni,
    .s_req_valid_i(s_req_valid[S_SBUF_RD]), .s_req_ready_o(s_req_ready[S_SBUF_RD]),
    .s_req_write_i(s_req_write[S_SBUF_RD]), .s_req_addr_i(`XDIE_PORT(s_req_addr, S_SBUF_RD, ADDR_W)),
    .s_req_wdata_i(`XDIE_PORT(s_req_wdata, S_SBUF_RD, DATA_BYTES*8)), .s_req_wstrb_i(`XDIE_PORT(s_req_wstrb, S_SBUF_RD, DATA_BYTES)),
    .s_rsp_valid_o(s_rsp_valid[S_SBUF_RD]), .s_rsp_ready_i(s_rsp_ready[S_SBUF_RD]),
    .s_rsp_rdata_o(`XDIE_PORT(s_rsp_rdata, S_SBUF_RD, DATA_BYTES*8)), .s_rsp_err_o(s_rsp_err[S_SBUF_RD*2 +: 2]),
    .m_req_valid_o(sr_req_valid), .m_req_ready_i(sr_req_ready), .m_req_write_o(sr_req_write),
    .m_req_addr_o(sr_req_addr), .m_req_wdata_o(sr_req_wdata), .m_req_wstrb_o(sr_req_wstrb),
    .m_req_acc_o(sr_req_acc), .m_req_fp_o(sr_req_fp),
    .m_rsp_valid_i(sr_rsp_valid), .m_rsp_ready_o(sr_rsp_ready), .m_rsp_rdata_i(sr_rsp_rdata),
    .m_rsp_err_i(2'b00)
  );

  logic unused_sbuf_rd;
  assign unused_sbuf_rd = ^{sr_req_write, sr_req_acc, sr_req_fp, sr_req_wdata, sr_req_wstrb};

  // With TIMING_REGS each mapping hands its requests to the accumulate unit through a FIFO of
  // two (a register stage at full rate whose ready is a decode of flops): the mapping's decode
  // and the crossbar's arbitration, which reads the slave's ready, then end at the FIFO, and the
  // accumulate unit's hazard checks start there, instead of one path from the crossbar's
  // request registers through the decode and the hazard compares back into its arbitration.
  // sb_req / sa_req: the write side's request with its accumulate flags, as the mapping gives it
  // and as the accumulate unit takes it (ra_*: the read side's).
  typedef struct packed {
    logic                    write;
    logic                    acc;
    logic                    fp;
    logic [ADDR_W-1:0]       addr;
    logic [DATA_BYTES*8-1:0] wdata;
    logic [DATA_BYTES-1:0]   wstrb;
  } sbuf_req_t;
  sbuf_req_t           sb_req, sa_req;
  logic                sa_req_valid, sa_req_ready, ra_req_valid, ra_req_ready;
  logic [ADDR_W-1:0]   ra_req_addr;

  assign sb_req.write = sb_req_write;
  assign sb_req.acc   = sb_req_acc;
  assign sb_req.fp    = sb_req_fp;
  assign sb_req.addr  = sb_req_addr;
  assign sb_req.wdata = sb_req_wdata;
  assign sb_req.wstrb = sb_req_wstrb;

  if (TIMING_REGS) begin : g_sbuf_stage
    xdie_fifo #(.DATA_W($bits(sb_req)), .DEPTH(2)) u_write_stage (
      .clk_i, .rst_ni,
      .push_valid_i(sb_req_valid), .push_ready_o(sb_req_ready), .push_data_i(sb_req),
      .pop_valid_o(sa_req_valid), .pop_ready_i(sa_req_ready), .pop_data_o(sa_req)
    );
    xdie_fifo #(.DATA_W(ADDR_W), .DEPTH(2)) u_read_stage (
      .clk_i, .rst_ni,
      .push_valid_i(sr_req_valid), .push_ready_o(sr_req_ready), .push_data_i(sr_req_addr),
      .pop_valid_o(ra_req_valid), .pop_ready_i(ra_req_ready), .pop_data_o(ra_req_addr)
    );
  end else begin : g_sbuf_direct
    assign sa_req       = sb_req;
    assign sa_req_valid = sb_req_valid;
    assign sb_req_ready = sa_req_ready;
    assign ra_req_addr  = sr_req_addr;
    assign ra_req_valid = sr_req_valid;
    assign sr_req_ready = ra_req_ready;
  end

  // Read-modify-write of the accumulate apertures: as many requests in flight as the memory
  // needs for one per cycle (1 at latency 1, 2 with its request register).
  localparam int unsigned SBUF_ACC_DEPTH = TIMING_REGS ? 2 : 1;
  logic            sm_req_valid, sm_req_ready, sm_req_write;
  logic [ADDR_W-1:0]   sm_req_addr;
  logic [DATA_BYTES*8-1:0] sm_req_wdata;
  logic [DATA_BYTES-1:0]   sm_req_wstrb;
  logic            sm_rsp_valid, sm_rsp_ready;
  logic [DATA_BYTES*8-1:0] sm_rsp_rdata;
  logic [1:0]      sm_rsp_err;
  logic            sm_wr_valid;
  logic [ADDR_W-1:0]   sm_wr_addr;
  logic [DATA_BYTES*8-1:0] sm_wr_wdata;
  logic [DATA_BYTES-1:0]   sm_wr_wstrb;
  logic            sm_rd_valid, sm_rd_ready;
  logic [ADDR_W-1:0]   sm_rd_addr;

  xdie_sbuf_acc #(
    .BYTES(CORES * SBUF_PARTS * SBUF_BACKING), .DEPTH(SBUF_ACC_DEPTH), .CLOCK_GATE(CLOCK_GATE)
  ) u_sbuf_acc (
    .clk_i, .rst_ni,
    .s_req_valid_i(sa_req_valid), .s_req_ready_o(sa_req_ready),
    .s_req_write_i(sa_req.write), .s_req_acc_i(sa_req.acc), .s_req_fp_i(sa_req.fp),
    .s_req_addr_i(sa_req.addr), .s_req_wdata_i(sa_req.wdata), .s_req_wstrb_i(sa_req.wstrb),
    .s_rsp_valid_o(sb_rsp_valid), .s_rsp_ready_i(sb_rsp_ready), .s_rsp_rdata_o(sb_rsp_rdata),
    .s_rsp_err_o(sb_rsp_err),
    .m_req_valid_o(sm_req_valid), .m_req_ready_i(sm_req_ready), .m_req_write_o(sm_req_write),
    .m_req_addr_o(sm_req_addr), .m_req_wdata_o(sm_req_wdata), .m_req_wstrb_o(sm_req_wstrb),
    .m_rsp_valid_i(sm_rsp_valid), .m_rsp_ready_o(sm_rsp_ready), .m_rsp_rdata_i(sm_rsp_rdata),
    .m_rsp_err_i(sm_rsp_err),
    .m_wr_valid_o(sm_wr_valid), .m_wr_addr_o(sm_wr_addr), .m_wr_wdata_o(sm_wr_wdata),
    .m_wr_wstrb_o(sm_wr_wstrb),
    .r_req_valid_i(ra_req_valid), .r_req_ready_o(ra_req_ready), .r_req_addr_i(ra_req_addr),
    .m_rd_valid_o(sm_rd_valid), .m_rd_ready_i(sm_rd_ready), .m_rd_addr_o(sm_rd_addr)
  );

  xdie_mem #(
    .BYTES(CORES * SBUF_PARTS * SBUF_BACKING), .READ_PORTS(SBUF_READ_PORTS), .REQ_REG(TIMING_REGS)
  ) u_sbuf_mem (
    .clk_i, .rst_ni,
    .s_req_valid_i(sm_req_valid), .s_req_ready_o(sm_req_ready), .s_req_write_i(sm_req_write),
    .s_req_addr_i(sm_req_addr), .s_req_wdata_i(sm_req_wdata), .s_req_wstrb_i(sm_req_wstrb),
    .s_rsp_valid_o(sm_rsp_valid), .s_rsp_ready_i(sm_rsp_ready), .s_rsp_rdata_o(sm_rsp_rdata),
    .s_rsp_err_o(sm_rsp_err),
    .w_valid_i(sm_wr_valid), .w_addr_i(sm_wr_addr), .w_wdata_i(sm_wr_wdata),
    .w_wstrb_i(sm_wr_wstrb),
    .r_req_valid_i(sm_rd_valid), .r_req_ready_o(sm_rd_ready), .r_req_addr_i(sm_rd_addr),
    .r_rsp_valid_o(sr_rsp_valid), .r_rsp_ready_i(sr_rsp_ready), .r_rsp_rdata_o(sr_rsp_rdata)
  );

  logic                    hbm_r_ready, hbm_r_valid;
  logic [DATA_BYTES*8-1:0] hbm_r_rdata;

  xdie_mem #(.BYTES(HBM_BYTES), .REQ_REG(TIMING_REGS)) u_hbm (
    .clk_i, .rst_ni,
    .s_req_valid_i(s_req_valid[S_HBM]), .s_req_ready_o(s_req_ready[S_HBM]),
    .s_req_write_i(s_req_write[S_HBM]), .s_req_addr_i(`XDIE_PORT(s_req_addr, S_HBM, ADDR_W)),
    .s_req_wdata_i(`XDIE_PORT(s_req_wdata, S_HBM, DATA_BYTES*8)), .s_req_wstrb_i(`XDIE_PORT(s_req_wstrb, S_HBM, DATA_BYTES)),
    .s_rsp_valid_o(s_rsp_valid[S_HBM]), .s_rsp_ready_i(s_rsp_ready[S_HBM]),
    .s_rsp_rdata_o(`XDIE_PORT(s_rsp_rdata, S_HBM, DATA_BYTES*8)), .s_rsp_err_o(s_rsp_err[S_HBM*2 +: 2]),
    .w_valid_i(1'b0), .w_addr_i('0), .w_wdata_i('0), .w_wstrb_i('0),
    .r_req_valid_i(1'b0), .r_req_ready_o(hbm_r_ready), .r_req_addr_i('0),
    .r_rsp_valid_o(hbm_r_valid), .r_rsp_ready_i(1'b1), .r_rsp_rdata_o(hbm_r_rdata)
  );

  // HBM has no reads of its own: its port R is tied off.
  logic unused_hbm_r;
  assign unused_hbm_r = ^{hbm_r_ready, hbm_r_valid, hbm_r_rdata};

  xdie_xbus_err #(.OUTSTANDING(OUTSTANDING)) u_err (
    .clk_i, .rst_ni,
    .s_req_valid_i(s_req_valid[S_ERR]), .s_req_ready_o(s_req_ready[S_ERR]),
    .s_req_write_i(s_req_write[S_ERR]), .s_req_addr_i(`XDIE_PORT(s_req_addr, S_ERR, ADDR_W)),
    .s_req_wdata_i(`XDIE_PORT(s_req_wdata, S_ERR, DATA_BYTES*8)), .s_req_wstrb_i(`XDIE_PORT(s_req_wstrb, S_ERR, DATA_BYTES)),
    .s_rsp_valid_o(s_rsp_valid[S_ERR]), .s_rsp_ready_i(s_rsp_ready[S_ERR]),
    .s_rsp_rdata_o(`XDIE_PORT(s_rsp_rdata, S_ERR, DATA_BYTES*8)), .s_rsp_err_o(s_rsp_err[S_ERR*2 +: 2])
  );

endmodule
