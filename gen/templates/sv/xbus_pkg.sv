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
// a type name). The link layer's CRCs are here too, because their input width follows the flits'.

package {{ pkg }};

  // Address bits: the routed SoC address (xdie_soc_addr_pkg::SOC_ADDR_W).
  localparam int unsigned ADDR_W = {{ addr_w }};
  // Bytes per beat and per link flit (xdie_soc_addr_pkg::P_DATA_BYTES).
  localparam int unsigned DATA_BYTES = {{ data_bytes }};
  // Bits per beat.
  localparam int unsigned DATA_W = 8 * DATA_BYTES;

  // Response codes: the AXI encoding of the three codes the die answers, so a response passes to
  // and from AXI4-Lite unchanged. EXOKAY (2'b01) is not one of them: nothing in the die takes
  // exclusive accesses, and AXI4-Lite, which carries every response to the host, has no EXOKAY.
  // Every master and slave of the bus takes its response code as this type.
  typedef enum logic [1:0] {
    RESP_OKAY   = 2'b00,
    RESP_SLVERR = 2'b10,
    RESP_DECERR = 2'b11
  } resp_e;

  // The response code a 2-bit value names: the value itself when it is one of resp_e, SLVERR for
  // 2'b01 (no code of this bus). A 2-bit signal can hold 2'b01 whatever its type (a packed
  // vector of responses, a field of a flit), so the ends that hand a response to AXI4-Lite (the
  // host port) or take one from it (the CSR bridge) pass it through here: an AXI4-Lite port of
  // the die then answers OKAY, SLVERR or DECERR by construction, whatever a slave returns.
  // (Qualified names: Yosys 0.23 resolves an enum's names inside a package function only so.)
  function automatic resp_e to_resp(input logic [1:0] code);
    unique case (code)
      {{ pkg }}::RESP_OKAY:   to_resp = {{ pkg }}::RESP_OKAY;
      {{ pkg }}::RESP_SLVERR: to_resp = {{ pkg }}::RESP_SLVERR;
      {{ pkg }}::RESP_DECERR: to_resp = {{ pkg }}::RESP_DECERR;
      default:                to_resp = {{ pkg }}::RESP_SLVERR;
    endcase
  endfunction

  // One request; packed MSB first, so a request flit is {write, addr, wdata, wstrb}.
  typedef struct packed {
    logic                  write;
    logic [ADDR_W-1:0]     addr;
    logic [DATA_W-1:0]     wdata;
    logic [DATA_BYTES-1:0] wstrb;
  } req_t;

  // One response; a response flit is {rdata, err}.
  typedef struct packed {
    logic [DATA_W-1:0] rdata;
    resp_e             err;
  } rsp_t;

  // ---- The link layer's CRCs (xdie_d2d_sender and xdie_d2d_receiver compute and check them).
  // Both are MSB first with an all-ones initial value and no final inversion: CRC-32 (polynomial
  // 0x04C11DB7) over {seq, flit} zero-extended to FLIT_CRC_IN bits, CRC-16-CCITT (0x1021) over
  // the DLLP's fields zero-extended to DLLP_CRC_IN bits (the widest DLLP). One input width per CRC
  // for every channel keeps the matrices (and the functions) here, once: both halves of a channel
  // then agree by construction, and each half checks at elaboration that its payload fits.
  //
  // A CRC is linear in its input, so each CRC bit is the parity of a fixed subset of input bits
  // (plus a constant from the initial value); crc_matrix computes those subsets at elaboration by
  // running the shift register on masks instead of bits. Row k holds, for CRC bit k, the constant
  // in bit 0 and input bit i in bit i + 1. The functions AND the input with a row in 64-bit chunks
  // and take the parity: the same gates as one wide AND, but a simulator works on 64-bit words
  // with the masks as immediates.
  //
  // The widest sequence number a channel may use (CREDITS below 2^15), and the CRCs' input
  // widths: the wider flit ({{ flit_max_w }} bits) with such a number, in whole 64-bit chunks,
  // and the widest DLLP's fields.
  localparam int unsigned SEQ_MAX_W   = {{ seq_max_w }};
  localparam int unsigned FLIT_CRC_IN = {{ flit_crc_in }};
  localparam int unsigned DLLP_CRC_IN = 2 * SEQ_MAX_W + 2;
  localparam int unsigned CRC_CHUNKS  = FLIT_CRC_IN / 64;
  localparam int unsigned CRC_MAT_W   = FLIT_CRC_IN + 1;
  typedef logic [32*CRC_MAT_W-1:0] crc_matrix_t;

  // (Functions assign to their own name and loops use int: the forms every tool here reads.)
  function automatic crc_matrix_t crc_matrix(input int n, input int cw, input logic [31:0] poly);
    logic [CRC_MAT_W-1:0] fb;
    for (int k = 0; k < 32; k++) crc_matrix[k*CRC_MAT_W +: CRC_MAT_W] = CRC_MAT_W'(k < cw);
    for (int i = n - 1; i >= 0; i--) begin
      fb = crc_matrix[(cw-1)*CRC_MAT_W +: CRC_MAT_W];
      fb[i+1] = !fb[i+1];
      for (int k = cw - 1; k > 0; k--) begin
        crc_matrix[k*CRC_MAT_W +: CRC_MAT_W] =
            crc_matrix[(k-1)*CRC_MAT_W +: CRC_MAT_W] ^ (poly[k] ? fb : '0);
      end
      crc_matrix[0 +: CRC_MAT_W] = poly[0] ? fb : '0;
    end
  endfunction

  localparam crc_matrix_t FLIT_CRC = crc_matrix(FLIT_CRC_IN, 32, 32'h04C1_1DB7);
  localparam crc_matrix_t DLLP_CRC = crc_matrix(DLLP_CRC_IN, 16, 32'h0000_1021);

  function automatic logic [31:0] flit_crc(input logic [FLIT_CRC_IN-1:0] d);
    logic [63:0] acc;
    for (int k = 0; k < 32; k++) begin
      acc = '0;
      for (int c = 0; c < CRC_CHUNKS; c++) acc = acc ^ (d[64*c +: 64] & FLIT_CRC[k*CRC_MAT_W + 1 + 64*c +: 64]);
      flit_crc[k] = ^acc ^ FLIT_CRC[k*CRC_MAT_W];
    end
  endfunction

  function automatic logic [15:0] dllp_crc(input logic [DLLP_CRC_IN-1:0] d);
    for (int k = 0; k < 16; k++) dllp_crc[k] = ^(d & DLLP_CRC[k*CRC_MAT_W + 1 +: DLLP_CRC_IN]) ^ DLLP_CRC[k*CRC_MAT_W];
  endfunction

endpackage
