// {{ header }}
//
// The routed SoC address, its views, its folds, the die-local map and the die decode.
//
// Views: one set of GET/SET functions per view; SET is clear-then-insert and truncates the value
// to the field, so GET(SET(a, v)) == v for every v that fits. The views overlap: the id-valid
// bit is the same bit in both, and the chip-id field of the chip-id view is the routing overlay
// of the neighbor view. An address is built with exactly one view.
//
// Address views: a system routes in ONE view, the decoder is built for it (its VIEW parameter,
// one of the VIEW_* codes below) and never reads [53:48] as a chip id and as a route at once
// (seed section 2.2). The routing rule of each view is written in xdie_addr_decoder.sv and in
// docs/mesh.md. Address bits no view defines are ignored.
//
// Functions assign to their own name instead of using `return`, and every field read is a
// sized cast of a shift: that is the form both Verilator 5.006 (-Wall) and Yosys 0.23 accept.

package {{ pkg }};

  localparam int unsigned SOC_ADDR_W = {{ f.addr_w }};
  localparam int unsigned LOCAL_W = {{ f.local_w }};

  // ---------------------------------------------------------------- die-map parameters
  // Use them qualified: {{ pkg }}::P_NAME. A module reads only a few of the package's
  // constants; rtl/lint.vlt says why Verilator's UNUSEDPARAM is waived for generated packages.
{% for p in f.params %}
{%- for l in p.description %}
  // {{ l }}
{%- endfor %}
  localparam {{ p.ty }} {{ p.name }} = {{ p.value }};
{%- endfor %}

  // ---------------------------------------------------------------- fields
{% for x in f.fields %}
  // {{ x.view_lc }}.{{ x.name_uc }} [{{ x.lsb + x.width - 1 }}:{{ x.lsb }}]: {{ x.description }}
  localparam int unsigned {{ x.view_uc }}_{{ x.name_uc }}_LSB = {{ x.lsb }};
  localparam int unsigned {{ x.view_uc }}_{{ x.name_uc }}_WIDTH = {{ x.width }};

  function automatic logic [{{ x.width - 1 }}:0] {{ x.getter() }}(input logic [SOC_ADDR_W-1:0] addr);
    {{ x.getter() }} = {{ x.width }}'(addr >> {{ x.view_uc }}_{{ x.name_uc }}_LSB);
  endfunction

  function automatic logic [SOC_ADDR_W-1:0] {{ x.setter() }}(input logic [SOC_ADDR_W-1:0] addr,
      input logic [{{ x.width - 1 }}:0] value);
    {{ x.setter() }} = addr;
    {{ x.setter() }}[{{ x.view_uc }}_{{ x.name_uc }}_LSB +: {{ x.view_uc }}_{{ x.name_uc }}_WIDTH] = value;
  endfunction
{% endfor %}
  // ---------------------------------------------------------------- folds
{% for fo in f.folds %}
  // {{ fo.description }}
  function automatic logic [SOC_ADDR_W-1:0] {{ fo.name }}(
{%- for a in fo.args %}input logic [{{ a.width - 1 }}:0] {{ a.name }}{% if !loop.last %}, {% endif %}{% endfor -%}
);
    {{ fo.name }} = '0;
{%- for s in fo.steps %}
    {{ fo.name }} = {{ s.setter }}({{ fo.name }}, {{ s.value }});
{%- endfor %}
  endfunction
{% endfor %}
  // ---------------------------------------------------------------- die-local map
  // Aperture index (aperture_o of the decoder), base, size, instance count and stride.
  // Instance i of an aperture covers [BASE + i*STRIDE, BASE + i*STRIDE + SIZE). Sizes are powers
  // of two and every instance base is a multiple of the size (the loader checks), so an instance
  // matches when the address bits above the size equal its base's.

  localparam int unsigned AP_W = {{ f.ap_w }};
  localparam int unsigned INST_W = {{ f.inst_w }};
  localparam int unsigned OFF_W = {{ f.off_w }};
{% for a in f.apertures %}
  // {{ a.name }}: {{ a.description }}
  localparam logic [AP_W-1:0] {{ a.index_param() }} = {{ a.index_lit }};
  localparam logic [LOCAL_W-1:0] AP_{{ a.name_uc }}_BASE = {{ a.base }};
  localparam logic [LOCAL_W-1:0] AP_{{ a.name_uc }}_SIZE = {{ a.size }};
  localparam int unsigned AP_{{ a.name_uc }}_COUNT = {{ a.count }};
  localparam logic [LOCAL_W-1:0] AP_{{ a.name_uc }}_STRIDE = {{ a.stride }};
  localparam int unsigned AP_{{ a.name_uc }}_SHIFT = $clog2(AP_{{ a.name_uc }}_SIZE);

  function automatic logic {{ a.hit_fn() }}(input logic [LOCAL_W-1:0] a);
    {{ a.hit_fn() }} = 1'b0;
    for (int unsigned i = 0; i < AP_{{ a.name_uc }}_COUNT; i++) begin
      if ((a >> AP_{{ a.name_uc }}_SHIFT) ==
          ((AP_{{ a.name_uc }}_BASE + LOCAL_W'(i) * AP_{{ a.name_uc }}_STRIDE) >> AP_{{ a.name_uc }}_SHIFT)) begin
        {{ a.hit_fn() }} = 1'b1;
      end
    end
  endfunction

  function automatic logic [INST_W-1:0] {{ a.inst_fn() }}(input logic [LOCAL_W-1:0] a);
    {{ a.inst_fn() }} = '0;
    for (int unsigned i = 0; i < AP_{{ a.name_uc }}_COUNT; i++) begin
      if ((a >> AP_{{ a.name_uc }}_SHIFT) ==
          ((AP_{{ a.name_uc }}_BASE + LOCAL_W'(i) * AP_{{ a.name_uc }}_STRIDE) >> AP_{{ a.name_uc }}_SHIFT)) begin
        {{ a.inst_fn() }} = INST_W'(i);
      end
    end
  endfunction

  function automatic logic [OFF_W-1:0] {{ a.off_fn() }}(input logic [LOCAL_W-1:0] a);
    {{ a.off_fn() }} = OFF_W'(a & (AP_{{ a.name_uc }}_SIZE - 1'b1));
  endfunction
{% endfor %}
  // ---------------------------------------------------------------- die decode
  // The device-side classification of a peer base address: which die, whether it is a TPB
  // address ({% for h in f.tpb_hits %}{{ h }}{% if !loop.last %}, {% endif %}{% endfor %}), and which SDMA engine's queue-group
  // aperture it falls in (0 when it falls in none; engine_hit says whether it does).

  function automatic logic is_die_0(input logic [SOC_ADDR_W-1:0] addr);
    is_die_0 = ({{ f.die_field.getter() }}(addr) == '0);
  endfunction

  function automatic logic is_tpb(input logic [SOC_ADDR_W-1:0] addr);
    logic [LOCAL_W-1:0] a;
    a = {{ f.local_field.getter() }}(addr);
    is_tpb = 1'b0
{%- for h in f.tpb_hits %} | {{ h }}(a){% endfor %};
  endfunction

  function automatic logic engine_hit(input logic [SOC_ADDR_W-1:0] addr);
    logic [LOCAL_W-1:0] a;
    a = {{ f.local_field.getter() }}(addr);
    engine_hit = 1'b0
{%- for e in f.engine_aps %} | {{ e.0 }}(a){% endfor %};
  endfunction

  function automatic logic [INST_W-1:0] engine_idx(input logic [SOC_ADDR_W-1:0] addr);
    logic [LOCAL_W-1:0] a;
    a = {{ f.local_field.getter() }}(addr);
    engine_idx = '0;
{%- for e in f.engine_aps %}
    if ({{ e.0 }}(a)) engine_idx = {{ e.1 }}(a);
{%- endfor %}
  endfunction

  // ---------------------------------------------------------------- address views
  // The view a system routes in: the decoder's VIEW parameter.

  localparam int unsigned VIEW_W = {{ f.view_w }};
{%- for r in f.views %}
  // {{ r.description }}
  localparam logic [VIEW_W-1:0] {{ r.name }} = {{ r.code }};
{%- endfor %}

  // ---------------------------------------------------------------- decoder route codes

  localparam int unsigned ROUTE_W = {{ f.route_w }};
{%- for r in f.routes %}
  // {{ r.description }}
  localparam logic [ROUTE_W-1:0] {{ r.name }} = {{ r.code }};
{%- endfor %}

endpackage
