// IEEE 754 binary32 addition for the SBUF accumulate aperture (docs/collectives.md, Arithmetic):
// round to nearest, ties to even; subnormal inputs and results kept (no flush to zero);
// inf + x = inf for finite x, inf + inf = inf, inf + (-inf) invalid; every NaN result (invalid
// operation or a NaN input of any kind and payload) is the canonical quiet NaN 0x7fc00000;
// exact cancellation gives +0, -0 + -0 = -0; no exception flags.
//
// The same steps as model/src/reduce.rs (f32_add), on the same bit patterns, one register
// stage each, so that no stage holds more than a carry chain or a shifter (the accumulate path
// runs at the die's clock on an FPGA; docs/fpga-fit.md):
//
//   1 order      classify the operands (NaN, infinity, zeros decide the result outright), the
//                larger magnitude first, the exponent difference
//   2 align      the smaller significand shifted right by it, the bits shifted out kept as sticky
//   3 add        add or subtract, one place right on a carry out; exact cancellation is +0
//   4 count      the leading zeros, limited so the exponent stays at least 1 (a subnormal
//                result stays subnormal)
//   5 shift      the significand shifted left by that count, the exponent lowered by it
//   6 round      to nearest even on guard/round/sticky; an exponent of all ones is infinity
//
// LATENCY (= 6) cycles: a_i + b_i presented with en_i at a rising edge is on y_o, with valid_o,
// LATENCY edges later; one addition per cycle. A stage loads only when the stage before it holds
// an addition, so y_o holds between results, and a simulator computes each stage only in the
// cycles that load it (the die adds in a few of its cycles). The instantiating module states the
// latency it was written for as the LATENCY parameter; any other value is an elaboration error.

module xdie_fp32_add #(
  parameter int unsigned LATENCY = 6
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        valid_o,
  output logic [31:0] y_o
);

  localparam int unsigned STAGES = 6;
  if (LATENCY != STAGES) begin : g_bad_param
    $error("xdie_fp32_add: the adder has six stages; the instance expects another LATENCY");
  end

  // binary32: sign, 8 exponent bits, 23 fraction bits; three bits below the significand
  // (guard, round, sticky) while adding.
  localparam int unsigned MW  = 23;
  localparam int unsigned EW  = 8;
  localparam int unsigned GRS = 3;
  // Aligned significand: hidden bit, fraction, guard/round/sticky.
  localparam int unsigned AW  = MW + 1 + GRS;
  localparam logic [31:0] CANONICAL_NAN = {1'b0, {EW{1'b1}}, 1'b1, {(MW - 1){1'b0}}};

  // A result the operands decide without the arithmetic, carried down the stages beside it.
  localparam logic [1:0] FIXED_NONE = 2'd0;
  localparam logic [1:0] FIXED_NAN  = 2'd1;  // canonical NaN
  localparam logic [1:0] FIXED_INF  = 2'd2;  // infinity of fixed_sign
  localparam logic [1:0] FIXED_ZERO = 2'd3;  // zero of fixed_sign

  logic [STAGES-1:0] v_q;

  // ---------------------------------------------------------------- 1 order
  logic [1:0]    o_fixed_q;
  logic          o_fixed_sign_q, o_sign_q, o_sub_q;
  logic [EW-1:0] o_exp_q, o_diff_q;
  logic [MW:0]   o_big_q, o_little_q;

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      o_fixed_q      <= order_fixed(a_i, b_i);
      o_fixed_sign_q <= order_fixed_sign(a_i, b_i);
      o_sub_q        <= a_i[31] != b_i[31];
      {o_sign_q, o_exp_q, o_diff_q, o_big_q, o_little_q} <= order(a_i, b_i);
    end
  end

  // The larger magnitude (a's on a tie) first: its sign, exponent and significand, the exponent
  // difference, the other significand. Magnitude bits order like the values they encode,
  // subnormals included, so one compare picks it; both exponent differences are formed beside
  // the compare, not after its select (timing: one carry chain in the stage, not two in a row).
  // Every step of a stage is in a function its clocked process calls, so a simulator computes
  // it only in cycles that load the stage.
  function automatic logic [1+EW+EW+2*(MW+1)-1:0] order(input logic [31:0] a, input logic [31:0] b);
    logic          swap;
    logic [EW-1:0] diff_ab, diff_ba;
    swap    = b[30:0] > a[30:0];
    diff_ab = exp_of(a[30:MW]) - exp_of(b[30:MW]);
    diff_ba = exp_of(b[30:MW]) - exp_of(a[30:MW]);
    order   = swap ? {b[31], exp_of(b[30:MW]), diff_ba, sig_of(b[30:0]), sig_of(a[30:0])}
                   : {a[31], exp_of(a[30:MW]), diff_ab, sig_of(a[30:0]), sig_of(b[30:0])};
  endfunction

  // Of a magnitude (the bits below the sign): the significand with its hidden bit and the classes;
  // of an exponent field, the exponent (a subnormal shares the smallest normal's).
  function automatic logic [MW:0] sig_of(input logic [30:0] x);
    sig_of = {x[30:MW] != '0, x[MW-1:0]};
  endfunction

  function automatic logic [EW-1:0] exp_of(input logic [EW-1:0] field);
    exp_of = (field == '0) ? EW'(1) : field;
  endfunction

  function automatic logic is_nan(input logic [30:0] x);
    is_nan = (x[30:MW] == '1) && (x[MW-1:0] != '0);
  endfunction

  function automatic logic is_inf(input logic [30:0] x);
    is_inf = (x[30:MW] == '1) && (x[MW-1:0] == '0);
  endfunction

  function automatic logic is_zero(input logic [30:0] x);
    is_zero = x[30:0] == '0;
  endfunction

  function automatic logic [1:0] order_fixed(input logic [31:0] a, input logic [31:0] b);
    if (is_nan(a[30:0]) || is_nan(b[30:0]) || (is_inf(a[30:0]) && is_inf(b[30:0]) && a[31] != b[31])) begin
      order_fixed = FIXED_NAN;
    end else if (is_inf(a[30:0]) || is_inf(b[30:0])) begin
      order_fixed = FIXED_INF;
    end else if (is_zero(a[30:0]) && is_zero(b[30:0])) begin
      order_fixed = FIXED_ZERO;
    end else begin
      order_fixed = FIXED_NONE;
    end
  endfunction

  // inf + x takes the infinity's sign (a's when both are); -0 + -0 = -0, other zero sums +0.
  function automatic logic order_fixed_sign(input logic [31:0] a, input logic [31:0] b);
    if (is_inf(a[30:0])) begin
      order_fixed_sign = a[31];
    end else if (is_inf(b[30:0])) begin
      order_fixed_sign = b[31];
    end else begin
      order_fixed_sign = a[31] && b[31];
    end
  endfunction

  // ---------------------------------------------------------------- 2 align
  logic [1:0]    a_fixed_q;
  logic          a_fixed_sign_q, a_sign_q, a_sub_q;
  logic [EW-1:0] a_exp_q;
  logic [MW:0]   a_big_q;
  logic [AW-1:0] a_little_q;

  always_ff @(posedge clk_i) begin
    if (v_q[0]) begin
      a_fixed_q      <= o_fixed_q;
      a_fixed_sign_q <= o_fixed_sign_q;
      a_sign_q       <= o_sign_q;
      a_sub_q        <= o_sub_q;
      a_exp_q        <= o_exp_q;
      a_big_q        <= o_big_q;
      a_little_q     <= align(o_little_q, o_diff_q);
    end
  end

  // The smaller significand (with zero guard/round/sticky bits) shifted right by d; every bit
  // shifted out is ORed into the sticky bit.
  function automatic logic [AW-1:0] align(input logic [MW:0] m, input logic [EW-1:0] d);
    logic [AW-1:0] x;
    logic          sticky;
    x = {m, GRS'(0)};
    if (d >= EW'(AW)) begin
      sticky = x != '0;
      x      = '0;
    end else begin
      sticky = (x & ~({AW{1'b1}} << d)) != '0;
      x      = x >> d;
    end
    align = {x[AW-1:1], x[0] | sticky};
  endfunction

  // ---------------------------------------------------------------- 3 add
  logic [1:0]    s_fixed_q;
  logic          s_fixed_sign_q, s_sign_q;
  logic [EW:0]   s_exp_q, s_room_q;
  logic [AW-1:0] s_sig_q;

  always_ff @(posedge clk_i) begin
    if (v_q[1]) begin
      {s_fixed_q, s_fixed_sign_q, s_exp_q, s_room_q, s_sig_q} <=
          add(a_fixed_q, a_fixed_sign_q, a_sub_q, a_exp_q, a_big_q, a_little_q);
      s_sign_q <= a_sign_q;
    end
  end

  // The sum (difference for unlike signs) of the aligned significands. Exact cancellation is +0.
  // A carry out moves the sum one place right, keeping the bit shifted out as sticky, and raises
  // the exponent; the room is how far normalizing may lower the exponent (to 1 at least).
  function automatic logic [2+1+2*(EW+1)+AW-1:0] add(input logic [1:0] fixed,
                                                    input logic fixed_sign, input logic sub,
                                                    input logic [EW-1:0] e,
                                                    input logic [MW:0] big,
                                                    input logic [AW-1:0] little);
    logic [AW:0]   sum;
    logic [1:0]    fixed_out;
    logic          sign_out;
    logic [EW:0]   e_out, room;
    logic [AW-1:0] sig;
    sum = sub ? ({1'b0, big, GRS'(0)} - {1'b0, little}) : ({1'b0, big, GRS'(0)} + {1'b0, little});
    fixed_out = (fixed == FIXED_NONE && sum == '0) ? FIXED_ZERO : fixed;
    sign_out  = (fixed == FIXED_NONE) ? 1'b0 : fixed_sign;
    e_out     = sum[AW] ? {1'b0, e} + 1'b1 : {1'b0, e};
    room      = sum[AW] ? {1'b0, e} : {1'b0, e} - 1'b1;
    sig       = sum[AW] ? {sum[AW:2], sum[1] | sum[0]} : sum[AW-1:0];
    add = {fixed_out, sign_out, e_out, room, sig};
  endfunction

  // ---------------------------------------------------------------- 4 count
  logic [1:0]    c_fixed_q;
  logic          c_fixed_sign_q, c_sign_q;
  logic [EW:0]   c_exp_q;
  logic [AW-1:0] c_sig_q;
  logic [4:0]    c_shift_q;

  always_ff @(posedge clk_i) begin
    if (v_q[2]) begin
      c_fixed_q      <= s_fixed_q;
      c_fixed_sign_q <= s_fixed_sign_q;
      c_sign_q       <= s_sign_q;
      c_exp_q        <= s_exp_q;
      c_sig_q        <= s_sig_q;
      c_shift_q      <= norm_shift(s_sig_q, s_room_q);
    end
  end

  // The left shift that brings the leading one to the top, but at most room places.
  function automatic logic [4:0] norm_shift(input logic [AW-1:0] n, input logic [EW:0] room);
    logic [4:0] lz;
    lz = 5'(AW);
    for (int i = 0; i < AW; i++) begin
      if (n[i]) begin
        lz = 5'(AW - 1 - i);
      end
    end
    norm_shift = ({4'b0, lz} < room) ? lz : room[4:0];
  endfunction

  // ---------------------------------------------------------------- 5 shift
  logic [1:0]    n_fixed_q;
  logic          n_fixed_sign_q, n_sign_q;
  logic [EW:0]   n_exp_q;
  logic [AW-1:0] n_sig_q;

  always_ff @(posedge clk_i) begin
    if (v_q[3]) begin
      n_fixed_q      <= c_fixed_q;
      n_fixed_sign_q <= c_fixed_sign_q;
      n_sign_q       <= c_sign_q;
      n_exp_q        <= c_exp_q - (EW + 1)'(c_shift_q);
      n_sig_q        <= c_sig_q << c_shift_q;
    end
  end

  // ---------------------------------------------------------------- 6 round
  logic [31:0] y_q;

  always_ff @(posedge clk_i) begin
    if (v_q[4]) begin
      y_q <= round(n_fixed_q, n_fixed_sign_q, n_sign_q, n_exp_q, n_sig_q);
    end
  end

  // Round to nearest, ties to even, on the guard/round/sticky bits; the fixed results last. A
  // carry out of the rounding (significand 2^24) adds one to the exponent; the exponent's
  // increment and both overflow compares are formed beside the significand's carry chain and
  // picked by its carry (timing: one carry chain in the stage).
  function automatic logic [31:0] round(input logic [1:0] fixed, input logic fixed_sign,
                                        input logic s, input logic [EW:0] e,
                                        input logic [AW-1:0] n);
    logic [2:0]    rest;
    logic          up, over;
    logic [MW+1:0] r;
    logic [EW:0]   e_up;
    rest = n[GRS-1:0];
    up   = rest > 3'b100 || (rest == 3'b100 && n[GRS]);
    r    = {1'b0, n[AW-1:GRS]} + (MW + 2)'(up);
    e_up = e + 1'b1;
    over = r[MW+1] ? (e_up >= {1'b0, {EW{1'b1}}}) : (e >= {1'b0, {EW{1'b1}}});
    if (fixed == FIXED_NAN) begin
      round = CANONICAL_NAN;
    end else if (fixed == FIXED_INF) begin
      round = {fixed_sign, {EW{1'b1}}, MW'(0)};
    end else if (fixed == FIXED_ZERO) begin
      round = {fixed_sign, 31'(0)};
    end else if (over) begin
      round = {s, {EW{1'b1}}, MW'(0)};
    end else if (r[MW+1]) begin
      // 2^24 after rounding: 1.0 times two to the next exponent.
      round = {s, e_up[EW-1:0], MW'(0)};
    end else begin
      // Without the hidden bit the result is subnormal (exponent field 0).
      round = {s, r[MW] ? e[EW-1:0] : EW'(0), r[MW-1:0]};
    end
  endfunction

  // ---------------------------------------------------------------- valid
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= '0;
    end else begin
      v_q <= {v_q[STAGES-2:0], en_i};
    end
  end

  assign valid_o = v_q[STAGES-1];
  assign y_o     = y_q;

endmodule
