// {{ header }}
//
// The internal bus (xbus) of a die, and the die-to-die link flits that carry it: one request
// (read or byte-strobed write of one beat) and one response (read data, AXI response code) per
// transfer, responses in request order per master. The hand-written RTL (rtl/core/) takes every
// bus width from here. The widths are the SoC address width and the die map's DATA_BYTES, written
// out as numbers because Yosys 0.23 cannot read another package's constant inside a package.
//
// A link flit is the packed request or response struct; a module that only passes flits along
// takes their width as $bits of a port or signal of that type (Yosys 0.23 cannot take $bits of
// a type name).

package {{ pkg }};

  // Address bits: the routed SoC address (xdie_soc_addr_pkg::SOC_ADDR_W).
  localparam int unsigned ADDR_W = {{ addr_w }};
  // Bytes per beat and per link flit (xdie_soc_addr_pkg::P_DATA_BYTES).
  localparam int unsigned DATA_BYTES = {{ data_bytes }};
  // Bits per beat.
  localparam int unsigned DATA_W = 8 * DATA_BYTES;

  // Response codes: the AXI encoding, so a response passes to and from AXI4-Lite unchanged.
  typedef enum logic [1:0] {
    RESP_OKAY   = 2'b00,
    RESP_EXOKAY = 2'b01,
    RESP_SLVERR = 2'b10,
    RESP_DECERR = 2'b11
  } resp_e;

  // One request; packed MSB first, so a request flit is {write, addr, wdata, wstrb}.
  typedef struct packed {
    logic                  write;
    logic [ADDR_W-1:0]     addr;
    logic [DATA_W-1:0]     wdata;
    logic [DATA_BYTES-1:0] wstrb;
  } req_t;

  // One response; a response flit is {rdata, err}. err holds a resp_e code.
  typedef struct packed {
    logic [DATA_W-1:0] rdata;
    logic [1:0]        err;
  } rsp_t;

endpackage
