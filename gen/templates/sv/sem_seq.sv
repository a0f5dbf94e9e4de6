{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
// Sequencer command slots `{{ block.name }}`: {{ n_slot }} slots in front of the EVT_SEM sequencer
// ports of the die's cores (xdie_evt_sem seq_*), one per Q7 context, so that inc and
// wait_ge_and_dec are atomic in the hardware instead of a read and a write of the bus. The port
// names the slot it shows (seq_slot_o): the die hands the command to that slot's core's EVT_SEM
// (slot 2 * c + lane belongs to core c) and returns that EVT_SEM's ready and error.
//
// A slot holds VALUE (RW) and the CMD fields SEM and SUBOP (RW). A write to CMD posts one command:
// the slot becomes busy with (SEM, SUBOP, VALUE) unless it already is, in which case the write is
// dropped and ERR set. Every bus access completes at once (OKAY); nothing on the bus waits for a
// semaphore.
//
// Port: the busy slots take turns, round robin (xdie_rr_arbiter): the next busy slot after the
// one presented last presents its command. EVT_SEM takes it (ready) or not: a wait_ge_and_dec
// whose semaphore is still below VALUE, a wait in its first cycle on the port (EVT_SEM decides a
// wait from the value it read in the cycle before, so a wait is taken at the earliest in its
// second cycle), or any command in a cycle where the bus holds EVT_SEM's value port, is not
// taken. A command not taken stays on the port for a second cycle; after that the port goes to
// the next busy slot, and the slot keeps its command and retries when its turn comes again. So
// an unsatisfied wait neither blocks the bus nor the other slots, and a wait is granted one cycle
// after a cycle in which its semaphore allows it (EVT_SEM takes it only if nothing updated the
// semaphore in between, and subtracts as it takes it: no two waits can take the same units). A CMD naming a semaphore past the last is refused at once (ERR, nothing
// posted); EVT_SEM flags a command it took but does not know (subop) one cycle later: the slot
// stays busy for that cycle and then shows ERR.
//
// STATUS: BUSY from the posting write until EVT_SEM took the command and its error flag was
// seen; ERR as above, cleared by the next command the slot posts. The value and command fields
// are stored without reset (LUT-RAM); a slot not written since reset reads its reset values,
// which come with every offset and field position from {{ pkg }}.

module xdie_{{ block.name }} #(
{%- call regs::bus_clock_param() %}{% endcall %},
  // 1: the port shows a registered slot (FPGA timing, the sizing key timing_registers): the
  // round robin picks the next slot a cycle ahead, so EVT_SEM's port logic starts at a flop and
  // the slot storage's read; a command posted to an idle port reaches it a cycle later. The
  // port's protocol is the same.
  parameter bit PORT_REG = 1'b0
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      bus_clk_i,
{%- call regs::axil_ports(aw, 20) %}{% endcall %}
  // EVT_SEM sequencer port
  output logic                      seq_valid_o,
  input  logic                      seq_ready_i,
  output logic [{{ slot_iw - 1 }}:0]                seq_slot_o,
  output logic [{{ subop.width - 1 }}:0]                seq_subop_o,
  output logic [{{ evt_iw - 1 }}:0]                seq_idx_o,
  output logic [{{ value.width - 1 }}:0]               seq_val_o,
  input  logic                      seq_err_i
);
  localparam int unsigned AW    = {{ aw }};
  localparam int unsigned N     = {{ n_slot }};
  localparam int unsigned IW    = {{ slot_iw }};
  localparam int unsigned SHIFT = {{ shift }};
  localparam int unsigned VW    = {{ value.width }};
  localparam int unsigned SW    = {{ sem.width }};
  localparam int unsigned UW    = {{ subop.width }};
  // Bits of EVT_SEM's sequencer index{% if sem_check %}, and its semaphores{% endif %}
  localparam int unsigned EIW   = {{ evt_iw }};
{%- if sem_check %}
  localparam int unsigned N_SEM = {{ n_sem }};
{%- endif %}

  localparam logic [AW-1:0] SLOT_BASE  = {{ slot_base }};
{%- if check_hi %}
  localparam logic [AW-1:0] SLOT_LAST  = {{ slot_last }};
{%- endif %}
  localparam logic [AW-1:0] VALUE_OFF  = {{ value.offset }};
  localparam logic [AW-1:0] CMD_OFF    = {{ sem.offset }};
  localparam logic [AW-1:0] STATUS_OFF = {{ status }};
  localparam int unsigned   VALUE_LSB  = {{ value.lsb }};
  localparam int unsigned   SEM_LSB    = {{ sem.lsb }};
  localparam int unsigned   SUBOP_LSB  = {{ subop.lsb }};
  localparam int unsigned   BUSY_LSB   = {{ busy_lsb }};
  localparam int unsigned   ERR_LSB    = {{ err_lsb }};

  // ------------------------------------------------------------------ bus front-end
  logic          req, req_we, req_err;
  logic [AW-1:0] req_addr;
  logic [31:0]   req_wdata, req_rdata;
  logic [3:0]    req_wstrb;

{% include "sv/axil_frontend.sv" %}

  // Byte strobes select which bits a write carries.
  logic [31:0] strb_mask;
  always_comb begin
    for (int b = 0; b < 4; b++) strb_mask[8*b +: 8] = {8{req_wstrb[b]}};
  end

  // ------------------------------------------------------------------ slot decode
  // Slots start stride-aligned, so the register's offset within a slot is in the low bits.
  logic          hit_slot;
  logic [AW-1:0] rel;
  logic [IW-1:0] b_idx;
  logic [SHIFT-1:0] b_off;
  assign rel      = req_addr - SLOT_BASE;
  assign hit_slot = {{ hit }};
  assign b_idx    = IW'(rel >> SHIFT);
  assign b_off    = rel[SHIFT-1:0];

  // Address bits above the slot index and write bits no field uses.
  logic unused_bits;
  assign unused_bits = ^{rel, req_wdata, strb_mask};

  // ------------------------------------------------------------------ storage
  // VALUE and the command fields: memories without reset (one write port each); wr_q says
  // whether a slot's entry was written since reset, else it reads the reset value.
  logic [VW-1:0] value_m [N];
  logic [SW-1:0] sem_m   [N];
  logic [UW-1:0] subop_m [N];
  logic [N-1:0]  value_ok_q, cmd_ok_q;
  // Per slot: a command waits for the port (pend), the command EVT_SEM took last cycle (acc),
  // sticky error.
  logic [N-1:0]  pend_q, err_q;
  logic          acc_q;
  logic [IW-1:0] acc_idx_q;

  function automatic logic [VW-1:0] value_of(input logic [IW-1:0] i);
    value_of = value_ok_q[i] ? value_m[i] : VW'({{ value.reset }});
  endfunction
  function automatic logic [SW-1:0] sem_of(input logic [IW-1:0] i);
    sem_of = cmd_ok_q[i] ? sem_m[i] : SW'({{ sem.reset }});
  endfunction
  function automatic logic [UW-1:0] subop_of(input logic [IW-1:0] i);
    subop_of = cmd_ok_q[i] ? subop_m[i] : UW'({{ subop.reset }});
  endfunction

  logic [N-1:0] busy;
  assign busy = pend_q | (acc_q ? (N'(1) << acc_idx_q) : '0);

  // ------------------------------------------------------------------ bus registers
  logic wr_value, wr_cmd, post;
  logic [VW-1:0] new_value;
  logic [SW-1:0] new_sem;
  logic [UW-1:0] new_subop;

  always_comb begin
    req_rdata = 32'h0;
    req_err   = 1'b0;
    wr_value  = 1'b0;
    wr_cmd    = 1'b0;
    if (!hit_slot) begin
      req_err = 1'b1;
    end else begin
      unique case (b_off)
        VALUE_OFF[SHIFT-1:0]: begin
          req_rdata[VALUE_LSB +: VW] = value_of(b_idx);
          wr_value = req && req_we;
        end
        CMD_OFF[SHIFT-1:0]: begin
          req_rdata[SEM_LSB +: SW]   = sem_of(b_idx);
          req_rdata[SUBOP_LSB +: UW] = subop_of(b_idx);
          wr_cmd = req && req_we;
        end
        STATUS_OFF[SHIFT-1:0]: begin
          req_rdata[BUSY_LSB] = busy[b_idx];
          req_rdata[ERR_LSB]  = err_q[b_idx];
        end
        default: req_err = 1'b1;
      endcase
    end
  end

  assign new_value = (value_of(b_idx) & ~strb_mask[VALUE_LSB +: VW]) |
                     (req_wdata[VALUE_LSB +: VW] & strb_mask[VALUE_LSB +: VW]);
  assign new_sem   = (sem_of(b_idx) & ~strb_mask[SEM_LSB +: SW]) |
                     (req_wdata[SEM_LSB +: SW] & strb_mask[SEM_LSB +: SW]);
  assign new_subop = (subop_of(b_idx) & ~strb_mask[SUBOP_LSB +: UW]) |
                     (req_wdata[SUBOP_LSB +: UW] & strb_mask[SUBOP_LSB +: UW]);
  // A command is posted only into a slot that is not busy{% if sem_check %}, and only when it names a
  // semaphore EVT_SEM has{% endif %}.
{%- if sem_check %}
  assign post = wr_cmd && !busy[b_idx] && (32'(new_sem) < N_SEM);
{%- else %}
  assign post = wr_cmd && !busy[b_idx];
{%- endif %}

  always_ff @(posedge clk_i) begin
    if (wr_value) value_m[b_idx] <= new_value;
    if (post) begin
      sem_m[b_idx]   <= new_sem;
      subop_m[b_idx] <= new_subop;
    end
  end

  // ------------------------------------------------------------------ port arbitration
  // `port` is the slot the port shows. Without PORT_REG it is the round robin's pick itself;
  // with it, a register the pick loads whenever the port moves on, the pick then leaving out
  // the slot whose command is taken at that edge.
  logic          p_valid, again_q, port_valid, taken, moving;
  logic [IW-1:0] pick, last_q, port;
  logic [N-1:0]  arb_req;

  assign taken  = port_valid && seq_ready_i;
  // The port goes on to the next busy slot at this edge (see the state below) or shows none.
  assign moving = !port_valid || taken || again_q;

  xdie_rr_arbiter #(.N(N)) u_arb (
    .req_i(arb_req), .last_i(last_q), .valid_o(p_valid), .idx_o(pick)
  );

  if (PORT_REG) begin : g_port_reg
    logic          cur_v_q;
    logic [IW-1:0] cur_q;
    assign arb_req = pend_q & ~(taken ? (N'(1) << port) : '0);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cur_v_q <= 1'b0;
        cur_q   <= '0;
      end else if (moving) begin
        cur_v_q <= p_valid;
        cur_q   <= pick;
      end
    end
    assign port_valid = cur_v_q;
    assign port       = cur_q;
  end else begin : g_port_direct
    assign arb_req    = pend_q;
    assign port_valid = p_valid;
    assign port       = pick;
  end

  assign seq_valid_o = port_valid;
  assign seq_slot_o  = port;
  assign seq_idx_o   = EIW'(sem_of(port));
  assign seq_subop_o = subop_of(port);
  assign seq_val_o   = value_of(port);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      value_ok_q <= '0;
      cmd_ok_q   <= '0;
      pend_q     <= '0;
      err_q      <= '0;
      acc_q      <= 1'b0;
      acc_idx_q  <= '0;
      last_q     <= IW'(N - 1);
      again_q    <= 1'b0;
    end else begin
      if (wr_value) value_ok_q[b_idx] <= 1'b1;
      if (post)     cmd_ok_q[b_idx]   <= 1'b1;
      // Whoever presented gives the port to the next busy slot once taken, or after its second
      // cycle on the port (EVT_SEM decides a wait from the value it read in the cycle before).
      // last_q is the slot shown last, set as the port moves on to a pick: without PORT_REG the
      // pick is the slot leaving the port, with it the slot loaded onto the port (the pick a
      // cycle ahead then starts after the slot on the port).
      if (moving && p_valid) last_q <= pick;
      again_q   <= port_valid && !taken && !again_q;
      if (taken)   pend_q[port] <= 1'b0;
      acc_q     <= taken;
      acc_idx_q <= port;
      // EVT_SEM's error flag follows its acceptance by one cycle.
      if (acc_q && seq_err_i) err_q[acc_idx_q] <= 1'b1;
      if (wr_cmd) begin
        if (post) begin
          pend_q[b_idx] <= 1'b1;
          err_q[b_idx]  <= 1'b0;
        end else begin
          err_q[b_idx]  <= 1'b1;
        end
      end
    end
  end
endmodule
