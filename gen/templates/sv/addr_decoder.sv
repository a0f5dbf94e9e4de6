// {{ header }}
//
// SoC-address decoder of one die: purely combinational, no clock.
//
// route_o, in the order the checks are made (the same rule as in {{ pkg }}):
//   1. The id-valid bit ({{ f.valid_field.view_lc }}.{{ f.valid_field.name_uc }}, shared by both views) is set:
//      a. {{ f.route_field.view_lc }}.{{ f.route_field.name_uc }} set: the address is a neighbor-view address. Its DIE
//         differs from my_die_i -> ROUTE_PEER_DIE; otherwise it has arrived -> local decode.
//      b. otherwise it is a chip-id-view address: {{ f.chip_field.name_uc }} differs from my_chip_i ->
//         ROUTE_REMOTE_PKG; otherwise DIE differs from my_die_i -> ROUTE_PEER_DIE; otherwise
//         local decode.
//   2. The id-valid bit is clear: the routing overlay ({{ f.chip_field.view_lc }}.{{ f.chip_field.name_uc }}'s bits) must be 0,
//      else ROUTE_DECERR; DIE differs from my_die_i -> ROUTE_PEER_DIE; otherwise local decode.
//   Local decode: the LOCAL field inside one instance of one aperture -> ROUTE_LOCAL, with
//   aperture_o (index in the die map's order), instance_o and offset_o; anywhere else (no
//   aperture, or the gap between two instances of a strided aperture) -> ROUTE_DECERR.
// aperture_o/instance_o/offset_o describe the LOCAL field whatever the route (for a remote
// route, that is where the address lands on the target die); they are 0 when no aperture hits.
{%- for l in f.alias_note %}
// {{ l }}
{%- endfor %}

module xdie_addr_decoder (
  input  logic [{{ pkg }}::SOC_ADDR_W-1:0] addr_i,
  input  logic [{{ pkg }}::{{ f.die_field.width_param() }}-1:0] my_die_i,
  input  logic [{{ pkg }}::{{ f.chip_field.width_param() }}-1:0] my_chip_i,
  output logic [{{ pkg }}::ROUTE_W-1:0] route_o,
  output logic [{{ pkg }}::AP_W-1:0] aperture_o,
  output logic [{{ pkg }}::INST_W-1:0] instance_o,
  output logic [{{ pkg }}::OFF_W-1:0] offset_o
);

  logic [{{ pkg }}::LOCAL_W-1:0] local_addr;
  logic ap_hit;
  logic [{{ pkg }}::ROUTE_W-1:0] arrived;

  // Aperture decode of the LOCAL field. Apertures never overlap (the loader checks), so at most
  // one branch fires.
  always_comb begin
    local_addr = {{ pkg }}::{{ f.local_field.getter() }}(addr_i);
    ap_hit = 1'b0;
    aperture_o = '0;
    instance_o = '0;
    offset_o = '0;
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

  always_comb begin
    arrived = ap_hit ? {{ pkg }}::ROUTE_LOCAL : {{ pkg }}::ROUTE_DECERR;
    route_o = {{ pkg }}::ROUTE_DECERR;
    if ({{ pkg }}::{{ f.valid_field.getter() }}(addr_i) != '0) begin
      if ({{ pkg }}::{{ f.route_field.getter() }}(addr_i) != '0) begin
        route_o = ({{ pkg }}::{{ f.n_die_field.getter() }}(addr_i) != my_die_i) ? {{ pkg }}::ROUTE_PEER_DIE : arrived;
      end else if ({{ pkg }}::{{ f.chip_field.getter() }}(addr_i) != my_chip_i) begin
        route_o = {{ pkg }}::ROUTE_REMOTE_PKG;
      end else begin
        route_o = ({{ pkg }}::{{ f.die_field.getter() }}(addr_i) != my_die_i) ? {{ pkg }}::ROUTE_PEER_DIE : arrived;
      end
    end else if ({{ pkg }}::{{ f.chip_field.getter() }}(addr_i) == '0) begin
      route_o = ({{ pkg }}::{{ f.die_field.getter() }}(addr_i) != my_die_i) ? {{ pkg }}::ROUTE_PEER_DIE : arrived;
    end
  end

endmodule
