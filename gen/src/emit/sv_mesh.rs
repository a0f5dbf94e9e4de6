//! `xdie_mesh_<topology>`: the top of a system of packages, generated from a topology file
//! (topologies/*.yaml, loaded and checked by the golden model's mesh loader): one xdie_die per
//! die with its identity (CAYMAN_ID, DIE), the system's address view and the mask of its linked
//! C2C ports, and one xdie_d2d_link per link with the link's latency. A new system is a YAML
//! file, not hand-written RTL.
//!
//! The emitter takes a plain description ([`MeshTop`]) so that this crate needs only the CSR
//! model; the command line builds it from the loaded topology.

use super::{finish, OutFile, DO_NOT_EDIT};
use std::fmt::Write;
use xdie_csr::{Csrs, Views};

/// One C2C link between port `a.1` of die `a.0` and port `b.1` of die `b.0` (dies by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshLink {
    pub a: (usize, u32),
    pub b: (usize, u32),
    /// Cycles a flit takes to cross.
    pub latency: u64,
    /// Bytes per cycle.
    pub width: u64,
}

/// A system as the mesh top needs it.
#[derive(Debug, Clone)]
pub struct MeshTop {
    /// Topology name (the file stem): the module is `xdie_mesh_<name>`.
    pub name: String,
    /// The topology file, as given in the header.
    pub source: String,
    pub description: String,
    /// The chip-id view (else the neighbor view).
    pub chip_id_view: bool,
    /// Every die as (CAYMAN_ID, DIE), in the topology's order.
    pub dies: Vec<(u64, u64)>,
    pub links: Vec<MeshLink>,
}

/// Why a topology has no mesh top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshTopError(pub String);

impl std::fmt::Display for MeshTopError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The module name of a topology's mesh top.
pub fn module_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("xdie_mesh_{clean}")
}

pub fn render(csrs: &Csrs, m: &MeshTop) -> Result<OutFile, MeshTopError> {
    let v: &Views = &csrs.views;
    let nd = v.apertures.d2d.count as usize;
    let n = m.dies.len();
    let bad = |msg: String| Err(MeshTopError(format!("{}: {msg}", m.source)));
    if n == 0 {
        return bad("no dies".into());
    }
    for l in &m.links {
        if l.width != v.params.data_bytes {
            return bad(format!(
                "link {}.{} <-> {}.{} is {} bytes wide; the RTL link carries one {}-byte flit \
                 per cycle (the width is modelled by the golden model only)",
                l.a.0, l.a.1, l.b.0, l.b.1, l.width, v.params.data_bytes
            ));
        }
        for (d, p) in [l.a, l.b] {
            if d >= n || p as usize >= nd {
                return bad(format!("link end {d}.{p} names no die port"));
            }
        }
    }
    let module = module_name(&m.name);
    // Linked ports, as a mask per die (bit p of die d at d * ND + p).
    let mut linked = vec![false; n * nd];
    for l in &m.links {
        linked[l.a.0 * nd + l.a.1 as usize] = true;
        linked[l.b.0 * nd + l.b.1 as usize] = true;
    }
    let chip_w = v.soc.local.cayman_id.width;
    let die_w = v.soc.local.die.width;
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "// {DO_NOT_EDIT}");
    let _ = writeln!(w, "//");
    let _ = writeln!(
        w,
        "// Mesh top of topology `{}` ({}): {}.",
        m.name, m.source, m.description
    );
    let _ = writeln!(
        w,
        "// {n} dies, each an xdie_die in the {} view; {} C2C links (xdie_d2d_link).",
        if m.chip_id_view {
            "chip-id"
        } else {
            "neighbor"
        },
        m.links.len()
    );
    let _ = writeln!(
        w,
        "// Die d (index below) has host port d: h_*[d] and its slice of the wide vectors."
    );
    for (i, (chip, die)) in m.dies.iter().enumerate() {
        let ports: Vec<String> = (0..nd)
            .filter(|p| linked[i * nd + p])
            .map(|p| p.to_string())
            .collect();
        let _ = writeln!(
            w,
            "//   die {i:>3}: CAYMAN_ID {chip:#04x}, DIE {die}, linked ports [{}]",
            ports.join(", ")
        );
    }
    let _ = writeln!(w, "// Links (die.port <-> die.port, latency):");
    for l in &m.links {
        let _ = writeln!(
            w,
            "//   {}.{} <-> {}.{}, {} cycles",
            l.a.0, l.a.1, l.b.0, l.b.1, l.latency
        );
    }
    let _ = writeln!(
        w,
        "// A port without a link sees no credits and no flits; the die answers a request routed"
    );
    let _ = writeln!(w, "// to it DECERR (xdie_die d2d_linked_i).");
    let _ = writeln!(w);
    let _ = writeln!(w, "module {module} #(");
    let _ = writeln!(
        w,
        "  // Clock-gate idle engines (xdie_die): a simulator then skips them."
    );
    let _ = writeln!(w, "  parameter bit CLOCK_GATE = 1'b1,");
    let _ = writeln!(w, "  localparam int unsigned N     = {n},");
    let _ = writeln!(
        w,
        "  localparam int unsigned L     = {},",
        m.links.len().max(1)
    );
    let _ = writeln!(
        w,
        "  localparam int unsigned FW    = $bits(xdie_d2d_pkg::link_fault_t),"
    );
    let _ = writeln!(
        w,
        "  localparam int unsigned HW    = $bits(xdie_d2d_pkg::health_t),"
    );
    let _ = writeln!(
        w,
        "  localparam int unsigned ND    = xdie_sizing_pkg::DEFAULT_D2D_CONTROLLERS,"
    );
    let _ = writeln!(
        w,
        "  localparam int unsigned E     = xdie_soc_addr_pkg::P_SDMA_ENGINES"
    );
    let _ = writeln!(w, ") (");
    let _ = writeln!(w, "  input  logic          clk_i,");
    let _ = writeln!(w, "  input  logic          rst_ni,");
    for (dir, name, wd) in [
        ("input ", "h_awvalid_i", 1),
        ("output", "h_awready_o", 1),
        ("input ", "h_awaddr_i", 32),
        ("input ", "h_wvalid_i", 1),
        ("output", "h_wready_o", 1),
        ("input ", "h_wdata_i", 32),
        ("input ", "h_wstrb_i", 4),
        ("output", "h_bvalid_o", 1),
        ("input ", "h_bready_i", 1),
        ("output", "h_bresp_o", 2),
        ("input ", "h_arvalid_i", 1),
        ("output", "h_arready_o", 1),
        ("input ", "h_araddr_i", 32),
        ("output", "h_rvalid_o", 1),
        ("input ", "h_rready_i", 1),
        ("output", "h_rdata_o", 32),
        ("output", "h_rresp_o", 2),
    ] {
        let range = if wd == 1 {
            "[N-1:0]".to_string()
        } else {
            format!("[N*{wd}-1:0]")
        };
        let _ = writeln!(w, "  {dir} logic {range:<10} {name},");
    }
    let _ = writeln!(
        w,
        "  // per die: all engines idle, any sticky read/write error"
    );
    let _ = writeln!(w, "  output logic [N-1:0]   idle_o,");
    let _ = writeln!(w, "  output logic [N*2-1:0] err_o,");
    let _ = writeln!(
        w,
        "  // per die: link-health interrupt (its d2d_health blocks: link health only)"
    );
    let _ = writeln!(w, "  output logic [N-1:0]   irq_o,");
    let _ = writeln!(
        w,
        "  // per C2C port (port p of die d at d * ND + p): link health (up, this cycle's events)"
    );
    let _ = writeln!(w, "  output logic [N*ND*HW-1:0] link_health_o,");
    let _ = writeln!(
        w,
        "  // per link (file order): fault injection on its wires (a testbench's; zero in hardware), next cycle"
    );
    let _ = writeln!(w, "  input  logic [L*FW-1:0]    link_fault_i,");
    let _ = writeln!(
        w,
        "  // per port (die d port p at d * ND + p): the port's send side sees no credit on either"
    );
    let _ = writeln!(
        w,
        "  // channel in the next cycle and sends nothing: backpressure a testbench injects; tie to 0 otherwise"
    );
    let _ = writeln!(w, "  input  logic [N*ND-1:0] tx_stall_i");
    let _ = writeln!(w, ");");
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "  localparam int unsigned CW    = $clog2(xdie_soc_addr_pkg::P_LINK_CREDITS + 1);"
    );
    let _ = writeln!(
        w,
        "  localparam int unsigned CHIPW = xdie_soc_addr_pkg::LOCAL_CAYMAN_ID_WIDTH;"
    );
    let _ = writeln!(
        w,
        "  localparam int unsigned DIEW  = xdie_soc_addr_pkg::LOCAL_DIE_WIDTH;"
    );
    let _ = writeln!(w, "  localparam xdie_xbus_pkg::req_t REQ_NONE = '0;");
    let _ = writeln!(w, "  localparam xdie_xbus_pkg::rsp_t RSP_NONE = '0;");
    let _ = writeln!(w, "  localparam int unsigned REQ_W = $bits(REQ_NONE);");
    let _ = writeln!(w, "  localparam int unsigned RSP_W = $bits(RSP_NONE);");
    let _ = writeln!(
        w,
        "  localparam logic [xdie_soc_addr_pkg::VIEW_W-1:0] VIEW = xdie_soc_addr_pkg::{};",
        if m.chip_id_view {
            "VIEW_CHIP_ID"
        } else {
            "VIEW_NEIGHBOR"
        }
    );
    // Identities and linked masks, die 0 in the low bits.
    // Concatenation of per-die constants, die 0 last (in the low bits).
    let hex = |vals: &[u64], width: u32| -> String {
        let parts: Vec<String> = vals
            .iter()
            .rev()
            .map(|v| format!("{width}'h{v:x}"))
            .collect();
        format!("{{{}}}", parts.join(", "))
    };
    let chips: Vec<u64> = m.dies.iter().map(|d| d.0).collect();
    let dies: Vec<u64> = m.dies.iter().map(|d| d.1).collect();
    let masks: Vec<u64> = (0..n)
        .map(|i| {
            (0..nd)
                .filter(|p| linked[i * nd + p])
                .map(|p| 1u64 << p)
                .sum()
        })
        .collect();
    let _ = writeln!(
        w,
        "  // Per die (die 0 in the low bits): CAYMAN_ID, DIE and the linked ports"
    );
    let _ = writeln!(
        w,
        "  localparam logic [N*CHIPW-1:0] CHIP = {};",
        hex(&chips, chip_w)
    );
    let _ = writeln!(
        w,
        "  localparam logic [N*DIEW-1:0]  DIE  = {};",
        hex(&dies, die_w)
    );
    let _ = writeln!(
        w,
        "  localparam logic [N*ND-1:0]    LINKED = {};",
        hex(&masks, nd as u32)
    );
    let _ = writeln!(w);
    let _ = writeln!(w, "  if (ND != {nd}) begin : g_bad_ports");
    let _ = writeln!(
        w,
        "    $error(\"{module}: generated for {nd} C2C ports per die; regenerate\");"
    );
    let _ = writeln!(w, "  end");
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "  // Link signals of every port: port p of die d at index d * ND + p"
    );
    let _ = writeln!(
        w,
        "  logic [N*ND-1:0]       req_tx_valid, req_tx_credit, req_rx_valid, req_rx_ready;"
    );
    let _ = writeln!(w, "  logic [N*ND*REQ_W-1:0] req_tx_data, req_rx_data;");
    let _ = writeln!(
        w,
        "  logic [N*ND-1:0]       rsp_tx_valid, rsp_tx_credit, rsp_rx_valid, rsp_rx_ready;"
    );
    let _ = writeln!(w, "  logic [N*ND*RSP_W-1:0] rsp_tx_data, rsp_rx_data;");
    let _ = writeln!(
        w,
        "  // The links' credit outputs to each port's send side, before the stall"
    );
    let _ = writeln!(
        w,
        "  logic [N*ND-1:0]       link_req_tx_credit, link_rsp_tx_credit;"
    );
    let _ = writeln!(
        w,
        "  // Each port's offered flits to its link, after the stall"
    );
    let _ = writeln!(
        w,
        "  logic [N*ND-1:0]       link_req_tx_valid, link_rsp_tx_valid;"
    );
    let _ = writeln!(w, "  logic [N*ND-1:0]       link_up;");
    let _ = writeln!(w, "  logic [N*ND*CW-1:0]    link_credits;");
    let _ = writeln!(w);
    let _ = writeln!(w, "  for (genvar d = 0; d < N; d++) begin : g_die");
    let _ = writeln!(w, "    logic [2*E-1:0] err;");
    let _ = writeln!(w, "    logic [E-1:0]   idle;");
    let _ = writeln!(w);
    let _ = writeln!(w, "    xdie_die #(");
    let _ = writeln!(
        w,
        "      .CLOCK_GATE(CLOCK_GATE), .D2D_CTRLS(ND), .VIEW(VIEW)"
    );
    let _ = writeln!(w, "    ) u_die (");
    let _ = writeln!(w, "      .clk_i, .rst_ni,");
    let _ = writeln!(
        w,
        "      .my_die_i(DIE[d*DIEW +: DIEW]), .my_chip_i(CHIP[d*CHIPW +: CHIPW]),"
    );
    let _ = writeln!(w, "      .d2d_linked_i(LINKED[d*ND +: ND]),");
    for (port, name, wd) in [
        ("s_axil_awvalid_i", "h_awvalid_i", 1),
        ("s_axil_awready_o", "h_awready_o", 1),
        ("s_axil_awaddr_i", "h_awaddr_i", 32),
        ("s_axil_wvalid_i", "h_wvalid_i", 1),
        ("s_axil_wready_o", "h_wready_o", 1),
        ("s_axil_wdata_i", "h_wdata_i", 32),
        ("s_axil_wstrb_i", "h_wstrb_i", 4),
        ("s_axil_bvalid_o", "h_bvalid_o", 1),
        ("s_axil_bready_i", "h_bready_i", 1),
        ("s_axil_bresp_o", "h_bresp_o", 2),
        ("s_axil_arvalid_i", "h_arvalid_i", 1),
        ("s_axil_arready_o", "h_arready_o", 1),
        ("s_axil_araddr_i", "h_araddr_i", 32),
        ("s_axil_rvalid_o", "h_rvalid_o", 1),
        ("s_axil_rready_i", "h_rready_i", 1),
        ("s_axil_rdata_o", "h_rdata_o", 32),
        ("s_axil_rresp_o", "h_rresp_o", 2),
    ] {
        let sel = if wd == 1 {
            "[d]".to_string()
        } else {
            format!("[d*{wd} +: {wd}]")
        };
        let _ = writeln!(w, "      .{port}({name}{sel}),");
    }
    for (port, sig, wd) in [
        ("d2d_req_tx_valid_o", "req_tx_valid", "1"),
        ("d2d_req_tx_data_o", "req_tx_data", "REQ_W"),
        ("d2d_req_tx_credit_i", "req_tx_credit", "1"),
        ("d2d_req_rx_valid_i", "req_rx_valid", "1"),
        ("d2d_req_rx_ready_o", "req_rx_ready", "1"),
        ("d2d_req_rx_data_i", "req_rx_data", "REQ_W"),
        ("d2d_rsp_tx_valid_o", "rsp_tx_valid", "1"),
        ("d2d_rsp_tx_data_o", "rsp_tx_data", "RSP_W"),
        ("d2d_rsp_tx_credit_i", "rsp_tx_credit", "1"),
        ("d2d_rsp_rx_valid_i", "rsp_rx_valid", "1"),
        ("d2d_rsp_rx_ready_o", "rsp_rx_ready", "1"),
        ("d2d_rsp_rx_data_i", "rsp_rx_data", "RSP_W"),
        ("d2d_link_up_i", "link_up", "1"),
        ("d2d_link_credits_i", "link_credits", "CW"),
    ] {
        let sel = if wd == "1" {
            "[d*ND +: ND]".to_string()
        } else {
            format!("[d*ND*{wd} +: ND*{wd}]")
        };
        let _ = writeln!(w, "      .{port}({sig}{sel}),");
    }
    let _ = writeln!(
        w,
        "      .d2d_health_i(link_health_o[d*ND*HW +: ND*HW]), .irq_o(irq_o[d]),"
    );
    let _ = writeln!(w, "      .eng_err_o(err), .eng_idle_o(idle)");
    let _ = writeln!(w, "    );");
    let _ = writeln!(w);
    let _ = writeln!(w, "    assign idle_o[d] = &idle;");
    let _ = writeln!(w, "    for (genvar b = 0; b < 2; b++) begin : g_err");
    let _ = writeln!(w, "      logic [E-1:0] eb;");
    let _ = writeln!(w, "      for (genvar e = 0; e < E; e++) begin : g_bit");
    let _ = writeln!(w, "        assign eb[e] = err[2*e + b];");
    let _ = writeln!(w, "      end");
    let _ = writeln!(w, "      assign err_o[d*2 + b] = |eb;");
    let _ = writeln!(w, "    end");
    let _ = writeln!(w, "  end");
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "  // Ports without a link: no credits, no flits, link down; their outputs are not read."
    );
    let _ = writeln!(
        w,
        "  // A stalled port holds its flits: it sees no credit and its link sees no flit offered"
    );
    let _ = writeln!(
        w,
        "  // (a push is valid and credit), so the stall never breaks a handshake and is not a credit wait."
    );
    for line in [
        "  // The testbench's stall and fault inputs are registered before use (as in xdie_pkg_top):",
        "  // logic that reads a top input is re-evaluated by Verilator on every call of its eval, and",
        "  // the stall reaches every port's credit, hence the crossbars and engines of every die.",
        "  logic [N*ND-1:0] tx_stall_q;",
        "  logic [L*FW-1:0] link_fault_q;",
        "  always_ff @(posedge clk_i or negedge rst_ni) begin",
        "    if (!rst_ni) begin",
        "      tx_stall_q   <= '0;",
        "      link_fault_q <= '0;",
        "    end else begin",
        "      tx_stall_q   <= tx_stall_i;",
        "      link_fault_q <= link_fault_i;",
        "    end",
        "  end",
        "",
    ] {
        let _ = writeln!(w, "{line}");
    }
    let _ = writeln!(w, "  for (genvar p = 0; p < N*ND; p++) begin : g_port");
    let _ = writeln!(
        w,
        "    assign req_tx_credit[p] = link_req_tx_credit[p] & ~tx_stall_q[p];"
    );
    let _ = writeln!(
        w,
        "    assign rsp_tx_credit[p] = link_rsp_tx_credit[p] & ~tx_stall_q[p];"
    );
    let _ = writeln!(
        w,
        "    assign link_req_tx_valid[p] = req_tx_valid[p] & ~tx_stall_q[p];"
    );
    let _ = writeln!(
        w,
        "    assign link_rsp_tx_valid[p] = rsp_tx_valid[p] & ~tx_stall_q[p];"
    );
    let _ = writeln!(w, "    if (!LINKED[p]) begin : g_unlinked");
    let _ = writeln!(w, "      assign link_req_tx_credit[p] = 1'b0;");
    let _ = writeln!(w, "      assign req_rx_valid[p]  = 1'b0;");
    let _ = writeln!(w, "      assign req_rx_data[p*REQ_W +: REQ_W] = '0;");
    let _ = writeln!(w, "      assign link_rsp_tx_credit[p] = 1'b0;");
    let _ = writeln!(w, "      assign rsp_rx_valid[p]  = 1'b0;");
    let _ = writeln!(w, "      assign rsp_rx_data[p*RSP_W +: RSP_W] = '0;");
    let _ = writeln!(w, "      assign link_up[p]       = 1'b0;");
    let _ = writeln!(w, "      assign link_credits[p*CW +: CW] = '0;");
    let _ = writeln!(w, "      assign link_health_o[p*HW +: HW] = '0;");
    let _ = writeln!(w, "      logic unused_port;");
    let _ = writeln!(w, "      assign unused_port = ^{{link_req_tx_valid[p], req_tx_data[p*REQ_W +: REQ_W], req_rx_ready[p],");
    let _ = writeln!(w, "                             link_rsp_tx_valid[p], rsp_tx_data[p*RSP_W +: RSP_W], rsp_rx_ready[p]}};");
    let _ = writeln!(w, "    end");
    let _ = writeln!(w, "  end");
    for (k, l) in m.links.iter().enumerate() {
        let pa = l.a.0 * nd + l.a.1 as usize;
        let pb = l.b.0 * nd + l.b.1 as usize;
        let _ = writeln!(w);
        let _ = writeln!(
            w,
            "  // link {k}: die {} port {} <-> die {} port {}",
            l.a.0, l.a.1, l.b.0, l.b.1
        );
        let _ = writeln!(w, "  xdie_d2d_link #(.LATENCY({})) u_link_{k} (", l.latency);
        let _ = writeln!(w, "    .clk_i, .rst_ni,");
        for (side, p) in [("a", pa), ("b", pb)] {
            let _ = writeln!(w, "    .{side}_req_tx_valid_i(link_req_tx_valid[{p}]), .{side}_req_tx_data_i(req_tx_data[{p}*REQ_W +: REQ_W]),");
            let _ = writeln!(w, "    .{side}_req_tx_credit_o(link_req_tx_credit[{p}]),");
            let _ = writeln!(w, "    .{side}_req_rx_valid_o(req_rx_valid[{p}]), .{side}_req_rx_ready_i(req_rx_ready[{p}]),");
            let _ = writeln!(
                w,
                "    .{side}_req_rx_data_o(req_rx_data[{p}*REQ_W +: REQ_W]),"
            );
            let _ = writeln!(w, "    .{side}_rsp_tx_valid_i(link_rsp_tx_valid[{p}]), .{side}_rsp_tx_data_i(rsp_tx_data[{p}*RSP_W +: RSP_W]),");
            let _ = writeln!(w, "    .{side}_rsp_tx_credit_o(link_rsp_tx_credit[{p}]),");
            let _ = writeln!(w, "    .{side}_rsp_rx_valid_o(rsp_rx_valid[{p}]), .{side}_rsp_rx_ready_i(rsp_rx_ready[{p}]),");
            let _ = writeln!(
                w,
                "    .{side}_rsp_rx_data_o(rsp_rx_data[{p}*RSP_W +: RSP_W]),"
            );
            let _ = writeln!(w, "    .{side}_link_up_o(link_up[{p}]), .{side}_credits_o(link_credits[{p}*CW +: CW]),");
            let _ = writeln!(w, "    .{side}_health_o(link_health_o[{p}*HW +: HW]),");
        }
        let _ = writeln!(w, "    .fault_i(link_fault_q[{k}*FW +: FW])");
        let _ = writeln!(w, "  );");
    }
    let _ = writeln!(w);
    let _ = writeln!(w, "endmodule");
    Ok(OutFile::new(format!("rtl/gen/{module}.sv"), finish(s)))
}
