// {{ header }}
//
// SoC-address decoder of one die: purely combinational, no clock.
//
// VIEW is the address view of the system the die sits in ({{ pkg }}::VIEW_*): the seed's two
// decoders are alternatives (section 2.2), so one system routes in one view and the overlay
// ({{ f.chip_field.view_lc }}.{{ f.chip_field.name_uc }}'s bits) is never read as a chip id and as a route at once.
// The default is the view of the single-package topology (the package top).
//
// route_o, in the order the checks are made (docs/mesh.md gives the same rule with its reasons):
//   1. The id-valid bit ({{ f.valid_field.view_lc }}.{{ f.valid_field.name_uc }}, shared by both views) is clear: the overlay bits
//      must be 0, else ROUTE_DECERR; DIE differs from my_die_i -> ROUTE_PEER_DIE; otherwise
//      local decode. (The same in both views.)
//   2. VIEW_CHIP_ID, id-valid set: {{ f.chip_field.name_uc }} differs from my_chip_i -> ROUTE_REMOTE_PKG; otherwise
//      DIE differs from my_die_i -> ROUTE_PEER_DIE; otherwise local decode. Every one of the
//      chip ids is reachable.
//   3. VIEW_NEIGHBOR, id-valid set: the overlay is a path from the issuing die, and each hop
//      consumes its field (the D2D port's iATU translation rewrites the address it forwards):
//      a. {{ f.route_field.name_uc }} clear, or a reserved overlay bit (PEB) set -> ROUTE_DECERR;
//      b. {{ f.exit_die_field.name_uc }} set: cross to the sibling die first -> ROUTE_PEER_DIE;
//      c. {{ f.exit_seng_field.name_uc }} nonzero: leave through that C2C port -> ROUTE_REMOTE_PKG when the die
//         has that port ({{ pkg }}::{{ f.ports_param }} ports; port 0 is the sibling link and
//         is never named here), else ROUTE_DECERR;
//      d. otherwise the path is done: DIE differs from my_die_i -> ROUTE_PEER_DIE; otherwise
//         local decode.
//   Local decode: the LOCAL field inside one instance of one aperture -> ROUTE_LOCAL, with
//   aperture_o (index in the die map's order), instance_o and offset_o; anywhere else (no
//   aperture, or the gap between two instances of a strided aperture) -> ROUTE_DECERR.
// aperture_o/instance_o/offset_o describe the LOCAL field whatever the route (for a remote
// route, that is where the address lands on the target die); they are 0 when no aperture hits.
// my_chip_i is read in the chip-id view only. Outside valid_i (no request presented) the outputs
// are ROUTE_DECERR and zeros and nothing is decoded: a die has a decoder per bus master, and a
// simulator then does no work for the idle ones.

module xdie_addr_decoder #(
  parameter logic [{{ pkg }}::VIEW_W-1:0] VIEW = {{ pkg }}::{{ f.default_view }}
) (
  input  logic valid_i,
  input  logic [{{ pkg }}::SOC_ADDR_W-1:0] addr_i,
  input  logic [{{ pkg }}::{{ f.die_field.width_param() }}-1:0] my_die_i,
  input  logic [{{ pkg }}::{{ f.chip_field.width_param() }}-1:0] my_chip_i,
  output logic [{{ pkg }}::ROUTE_W-1:0] route_o,
  output logic [{{ pkg }}::AP_W-1:0] aperture_o,
  output logic [{{ pkg }}::INST_W-1:0] instance_o,
  output logic [{{ pkg }}::OFF_W-1:0] offset_o
);

  if (VIEW != {{ pkg }}::VIEW_CHIP_ID && VIEW != {{ pkg }}::VIEW_NEIGHBOR) begin : g_bad_view
    $error("xdie_addr_decoder: VIEW must be one of {{ pkg }}::VIEW_*");
  end

  // Overlay bits the neighbor view does not name (PEB): reserved.
  localparam logic [{{ pkg }}::SOC_ADDR_W-1:0] RESERVED_OVERLAY = {{ f.reserved_overlay }};

  logic [{{ pkg }}::LOCAL_W-1:0] local_addr;
  logic ap_hit;
  logic [{{ pkg }}::ROUTE_W-1:0] arrived;
  logic [{{ pkg }}::ROUTE_W-1:0] die_route;

  // Aperture decode of the LOCAL field. Apertures never overlap (the loader checks), so at most
  // one branch fires.
  always_comb begin
    local_addr = {{ pkg }}::{{ f.local_field.getter() }}(addr_i);
    ap_hit = 1'b0;
    aperture_o = '0;
    instance_o = '0;
    offset_o = '0;
    if (valid_i) begin
{%- for a in f.apertures %}
      if ({{ pkg }}::{{ a.hit_fn() }}(local_addr)) begin
        ap_hit = 1'b1;
        aperture_o = {{ pkg }}::{{ a.index_param() }};
{%- if a.repeated %}
        instance_o = {{ pkg }}::{{ a.inst_fn() }}(local_addr);
{%- endif %}
        offset_o = {{ pkg }}::{{ a.off_fn() }}(local_addr);
      end
{%- endfor %}
    end
  end

  always_comb begin
    arrived = {{ pkg }}::ROUTE_DECERR;
    die_route = {{ pkg }}::ROUTE_DECERR;
    route_o = {{ pkg }}::ROUTE_DECERR;
    if (valid_i) begin
      arrived = ap_hit ? {{ pkg }}::ROUTE_LOCAL : {{ pkg }}::ROUTE_DECERR;
      // DIE means the same in both views.
      die_route = ({{ pkg }}::{{ f.die_field.getter() }}(addr_i) != my_die_i) ? {{ pkg }}::ROUTE_PEER_DIE : arrived;
      if ({{ pkg }}::{{ f.valid_field.getter() }}(addr_i) == '0) begin
        if ({{ pkg }}::{{ f.chip_field.getter() }}(addr_i) == '0) begin
          route_o = die_route;
        end
      end else if (VIEW == {{ pkg }}::VIEW_CHIP_ID) begin
        route_o = ({{ pkg }}::{{ f.chip_field.getter() }}(addr_i) != my_chip_i) ? {{ pkg }}::ROUTE_REMOTE_PKG : die_route;
      end else if ({{ pkg }}::{{ f.route_field.getter() }}(addr_i) == '0 || (addr_i & RESERVED_OVERLAY) != '0) begin
        route_o = {{ pkg }}::ROUTE_DECERR;
      end else if ({{ pkg }}::{{ f.exit_die_field.getter() }}(addr_i) != '0) begin
        route_o = {{ pkg }}::ROUTE_PEER_DIE;
      end else if ({{ pkg }}::{{ f.exit_seng_field.getter() }}(addr_i) != '0) begin
        route_o = (32'({{ pkg }}::{{ f.exit_seng_field.getter() }}(addr_i)) < {{ pkg }}::{{ f.ports_param }}) ?
                  {{ pkg }}::ROUTE_REMOTE_PKG : {{ pkg }}::ROUTE_DECERR;
      end else begin
        route_o = die_route;
      end
    end
  end

endmodule
