// IEEE 754 binary32 addition for the SBUF accumulate aperture (docs/collectives.md, Arithmetic):
// round to nearest, ties to even; subnormal inputs and results kept (no flush to zero);
// inf + x = inf for finite x, inf + inf = inf, inf + (-inf) invalid; every NaN result (invalid
// operation or a NaN input of any kind and payload) is the canonical quiet NaN 0x7fc00000;
// exact cancellation gives +0, -0 + -0 = -0; no exception flags.
//
// The same steps as model/src/reduce.rs (f32_add), on the same bit patterns: the larger
// magnitude first, the smaller aligned to it with guard, round and sticky bits, add or subtract,
// one place right on a carry out, normalize left (never below the smallest normal exponent, so
// a subnormal result stays subnormal), round, and an exponent of all ones is infinity.
//
// One register stage: y_o takes a_i + b_i at a rising edge with en_i set and holds otherwise.
// The sum is computed inside the clocked process, so a simulator evaluates it only in cycles
// that load it (the SBUF's read-modify-write path adds in a few of the die's cycles).

module xdie_fp32_add (
  input  logic        clk_i,
  input  logic        en_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  // binary32: sign, 8 exponent bits, 23 fraction bits; three bits below the significand
  // (guard, round, sticky) while adding.
  localparam int unsigned MW  = 23;
  localparam int unsigned EW  = 8;
  localparam int unsigned GRS = 3;
  // Aligned significand: hidden bit, fraction, guard/round/sticky.
  localparam int unsigned AW  = MW + 1 + GRS;
  localparam logic [31:0] CANONICAL_NAN = {1'b0, {EW{1'b1}}, 1'b1, {(MW - 1){1'b0}}};

  function automatic logic [31:0] fp32_add(input logic [31:0] a, input logic [31:0] b);
    logic          sa, sb, s1, s2, a_nan, b_nan, a_inf, b_inf, b_larger, sticky;
    logic [EW-1:0] ea, eb, xea, xeb, e1, e2, d;
    logic [MW:0]   xa, xb, m1, m2;
    logic [AW-1:0] big, little, lost_mask, n;
    logic [AW:0]   m;
    logic [EW:0]   e, room;
    logic [4:0]    lz, sh;
    logic [2:0]    rest;
    logic [MW+1:0] r;

    sa = a[31];
    sb = b[31];
    ea = a[30:MW];
    eb = b[30:MW];
    a_nan = (ea == '1) && (a[MW-1:0] != '0);
    b_nan = (eb == '1) && (b[MW-1:0] != '0);
    a_inf = (ea == '1) && (a[MW-1:0] == '0);
    b_inf = (eb == '1) && (b[MW-1:0] == '0);
    // Significand with its hidden bit; a subnormal shares the smallest normal exponent.
    xa  = {ea != '0, a[MW-1:0]};
    xb  = {eb != '0, b[MW-1:0]};
    xea = (ea == '0) ? EW'(1) : ea;
    xeb = (eb == '0) ? EW'(1) : eb;

    // The larger magnitude first; the result takes its sign.
    b_larger = {xeb, xb} > {xea, xa};
    s1 = b_larger ? sb : sa;
    s2 = b_larger ? sa : sb;
    e1 = b_larger ? xeb : xea;
    e2 = b_larger ? xea : xeb;
    m1 = b_larger ? xb : xa;
    m2 = b_larger ? xa : xb;
    d  = e1 - e2;

    // Align the smaller operand; every bit shifted out is kept as the sticky bit.
    big   = {m1, GRS'(0)};
    little = {m2, GRS'(0)};
    if (d >= EW'(AW)) begin
      sticky = (little != '0);
      little  = '0;
    end else begin
      lost_mask = ~({AW{1'b1}} << d);
      sticky    = (little & lost_mask) != '0;
      little     = little >> d;
    end
    little[0] = little[0] | sticky;

    m = (s1 == s2) ? ({1'b0, big} + {1'b0, little}) : ({1'b0, big} - {1'b0, little});

    // Carry out: one place right, keeping the sticky bit.
    e = {1'b0, e1};
    if (m[AW]) begin
      n = {m[AW:2], m[1] | m[0]};
      e = e + 1'b1;
    end else begin
      n = m[AW-1:0];
    end

    // Normalize: shift left by the leading zeros, but never below exponent 1.
    lz = 5'(AW);
    for (int i = 0; i < AW; i++) begin
      if (n[i]) begin
        lz = 5'(AW - 1 - i);
      end
    end
    room = e - 1'b1;
    sh = ({4'b0, lz} < room) ? lz : room[4:0];
    n = n << sh;
    e = e - {4'b0, sh};

    // Round to nearest, ties to even, on the guard/round/sticky bits.
    rest = n[GRS-1:0];
    r    = {1'b0, n[AW-1:GRS]};
    if (rest > 3'b100 || (rest == 3'b100 && r[0])) begin
      r = r + 1'b1;
    end
    if (r[MW+1]) begin
      r = r >> 1;
      e = e + 1'b1;
    end

    if (a_nan || b_nan || (a_inf && b_inf && sa != sb)) begin
      fp32_add = CANONICAL_NAN;
    end else if (a_inf) begin
      fp32_add = a;
    end else if (b_inf) begin
      fp32_add = b;
    end else if (xa == '0 && xb == '0) begin
      // Zeros: -0 + -0 = -0; every other sum of zeros is +0.
      fp32_add = (sa == sb) ? a : '0;
    end else if (m == '0) begin
      // Exact cancellation.
      fp32_add = '0;
    end else if (e >= {1'b0, {EW{1'b1}}}) begin
      fp32_add = {s1, {EW{1'b1}}, MW'(0)};
    end else begin
      // Without the hidden bit the result is subnormal (exponent field 0).
      fp32_add = {s1, r[MW] ? e[EW-1:0] : EW'(0), r[MW-1:0]};
    end
  endfunction

  logic [31:0] y_q;

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      y_q <= fp32_add(a_i, b_i);
    end
  end

  assign y_o = y_q;

endmodule
