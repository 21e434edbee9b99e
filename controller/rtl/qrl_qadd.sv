// The serial update datapath of qrl_core: one adder, acc + (+-Q | d | 0) + carry-in, for every
// step of the update and the compare loop, the accumulator, d = r - Q(s, a), the step sequence of
// the shift-and-add (a constant table, its entry registered), the saturation, and the q values'
// read-data registers. The core's FSM drives it with its next phase (one flag per state that
// uses it, from the next state; registered here, so no state decode is in front of the adder).
//   ph_d   (StUpdD)  : r - Q(s, a)           -> d     ph_fin (StUpdFin) : acc + Q(s, a) -> acc
//   ph_acc (StUpdAcc): acc + {Q' | d | 0}    -> acc (>>> 1 at a position's last step)
//   ph_sat (StLoopRd): acc saturated to QW bits (off the adder's path)
//   ph_loop (StLoop) : q_new - Q(s, j) (- 1) -> sign = the order bit of the pair's low half
//                      (registered); its high half = the complement, or 1 on equal values (an
//                      equality test of the two registers beside the adder)
//   ph_load (StIdle) : acc <= in_val_i (the reward, or a management write's value)
// acc = floor((Alpha 2^KF (r - q) + Alpha Gamma Q' + 2^(2KF-1)) / 2^2KF): one bit position of the
// two constants per step (LSB first, shifting right); docs/rl.md "Fixed point".
module qrl_qadd #(
  parameter int unsigned QW = 16,
  parameter int unsigned KF = 8,
  parameter int unsigned Alpha = 77,
  parameter int unsigned Gamma = 205,
  parameter bit Shadow = 1'b0,
  parameter int unsigned NSteps = 19,  // qrl_core's n_steps()
  parameter int unsigned StepW = (NSteps > 1) ? $clog2(NSteps) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [StepW-1:0] step_next_i,  // the step counter's next value
  input  logic             ph_load_i,  // next-cycle phases (registered here)
  input  logic             ph_d_i,
  input  logic             ph_acc_i,
  input  logic             ph_fin_i,
  input  logic             ph_sat_i,
  input  logic             ph_loop_i,
  input  logic             acc_ld_i,
  input  logic             acc_clr_i,
  input  logic             d_ld_i,
  input  logic [   QW-1:0] in_val_i,
  input  logic             j_above_a_i,  // the loop's column is above a (ties: a wins)
  input  logic [   QW-1:0] wq_rdata_i,   // the work table's RAM output
  input  logic [   QW-1:0] aq_rdata_i,   // the active table's (Shadow: management writes)
  output logic [   QW-1:0] acc_o,
  output logic             o_bit_q_o,    // the work table's order bit, registered
  output logic             ao_bit_q_o,   // the active table's
  output logic             o_hi_q_o,     // the pair's other bit (work table), registered
  output logic             ao_hi_q_o     // the active table's
);
  localparam int unsigned CD = Alpha << KF;  // coefficient of d = r - q
  localparam int unsigned CN = Alpha * Gamma;  // coefficient of Q'
  localparam int unsigned AW = QW + 3;  // accumulator (bound checked in docs/rl.md)
  localparam int unsigned DW = QW + 1;  // d = r - q
  localparam logic signed [AW-1:0] QMax = AW'((1 << (QW - 1)) - 1);
  localparam logic signed [AW-1:0] QMin = -AW'(1 << (QW - 1));

  // {carry-in, shift, operand (0 none, 1 Q', 2 d)} of step k: for each bit position p = 0 ..
  // 2KF-1 of the constants, one step per set bit (d first, then Q'), or one empty step; the last
  // step of a position shifts right, the last one of all adds the rounding half as a carry-in.
  function automatic logic [3:0] step_info(int unsigned k);
    int unsigned n, t;
    logic [3:0] r;
    logic last_pos;
    n = 0;
    r = 4'b0;
    for (int unsigned p = 0; p < 2 * KF; p++) begin
      t = ((CD >> p) & 1) + ((CN >> p) & 1);
      last_pos = (p == 2 * KF - 1);
      if (t == 0) begin
        if (n == k) r = {last_pos, 1'b1, 2'd0};
        n = n + 1;
      end else begin
        if (((CD >> p) & 1) != 0) begin
          if (n == k) r = {last_pos && (t == 1), t == 1, 2'd2};
          n = n + 1;
        end
        if (((CN >> p) & 1) != 0) begin
          if (n == k) r = {last_pos, 1'b1, 2'd1};
          n = n + 1;
        end
      end
    end
    step_info = r;
  endfunction

  logic signed [AW-1:0] acc_q, acc_d, add_y, add_sum, sat_acc, act_sum, wq_ext;
  logic signed [DW-1:0] d_q;
  logic [3:0] step_q, step_d;
  logic step_cin, step_shift;
  logic [1:0] step_op;
  logic add_cin, y_w, y_inv, y_d, o_bit, ao_bit, o_hi, ao_hi;
  logic [QW-1:0] wq_q;  // the work table's read-data register, loaded every cycle
  logic ph_load_q, ph_d_q, ph_acc_q, ph_fin_q, ph_sat_q, ph_loop_q;  // the current phase

  logic [4*NSteps-1:0] step_rom;
  for (genvar k = 0; k < NSteps; k++) begin : g_step
    localparam logic [3:0] Info = step_info(k);
    assign step_rom[4*k+:4] = Info;
  end
  // The step's controls are registered: decoded from the next value of the step counter.
  always_comb begin
    step_d = '0;
    for (int unsigned k = 0; k < NSteps; k++) begin
      if (step_next_i == StepW'(k)) step_d = step_rom[4*k+:4];
    end
  end
  assign {step_cin, step_shift, step_op} = step_q;
  assign wq_ext = AW'($signed(wq_q));

  always_comb begin
    y_w = ph_d_q || ph_fin_q || ph_loop_q || (ph_acc_q && step_op == 2'd1);
    y_inv = ph_d_q || ph_loop_q;
    y_d = ph_acc_q && (step_op == 2'd2);
    add_cin = ph_d_q || (ph_acc_q && step_cin) || (ph_loop_q && j_above_a_i);
    add_y = ((wq_ext ^ {AW{y_inv}}) & {AW{y_w}}) | (AW'(d_q) & {AW{y_d}});
    add_sum = acc_q + add_y + AW'(add_cin);
  end
  // acc saturated to QW bits: the bits above the sign must all equal it
  always_comb begin
    if (acc_q[AW-1:QW-1] == '0 || acc_q[AW-1:QW-1] == '1) begin
      sat_acc = acc_q;
    end else begin
      sat_acc = acc_q[AW-1] ? QMin : QMax;
    end
  end
  assign o_bit = add_sum[AW-1] ^ j_above_a_i;
  // The pair's other direction: j > a: o_bit = q_new >= Q(s, j), the other Q(s, j) >= q_new =
  // !o_bit | equal; j < a: o_bit = Q(s, j) >= q_new, the other likewise. In the loop acc_q holds
  // the new value, saturated to QW bits, and wq_q Q(s, j).
  assign o_hi = ~o_bit | (acc_q[QW-1:0] == wq_q);

  // Management write on a unit with a shadow table: the active table's row has its own values.
  if (Shadow) begin : g_act_cmp
    logic signed [AW-1:0] aq_ext;
    logic [QW-1:0] aq_q;  // the active table's read-data register
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        aq_q <= '0;
      end else begin
        aq_q <= aq_rdata_i;
      end
    end
    assign aq_ext = AW'($signed(aq_q));
    assign act_sum = acc_q + ~aq_ext + AW'(j_above_a_i);
    assign ao_bit = act_sum[AW-1] ^ j_above_a_i;
    assign ao_hi = ~ao_bit | (acc_q[QW-1:0] == aq_q);
  end else begin : g_no_act_cmp
    assign act_sum = '0;
    assign ao_bit = o_bit;
    assign ao_hi = o_hi;
    logic unused_act;
    assign unused_act = ^{act_sum, aq_rdata_i};
  end

  // acc's next value: an input, 0, acc saturated, or the adder's (shifted) result.
  always_comb begin
    if (ph_load_q) begin
      acc_d = AW'($signed(in_val_i));
    end else if (acc_clr_i) begin
      acc_d = '0;
    end else if (ph_sat_q) begin
      acc_d = sat_acc;
    end else begin
      acc_d = (ph_acc_q && step_shift) ? (add_sum >>> 1) : add_sum;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q <= '0;
      d_q <= '0;
      step_q <= '0;
      wq_q <= '0;
      o_bit_q_o <= 1'b0;
      ao_bit_q_o <= 1'b0;
      o_hi_q_o <= 1'b0;
      ao_hi_q_o <= 1'b0;
      {ph_load_q, ph_d_q, ph_acc_q, ph_fin_q, ph_sat_q, ph_loop_q} <= '0;
    end else begin
      if (acc_ld_i || acc_clr_i) acc_q <= acc_d;
      if (d_ld_i) d_q <= DW'(add_sum);
      step_q <= step_d;
      wq_q <= wq_rdata_i;
      o_bit_q_o <= o_bit;
      ao_bit_q_o <= ao_bit;
      o_hi_q_o <= o_hi;
      ao_hi_q_o <= ao_hi;
      {ph_load_q, ph_d_q, ph_acc_q, ph_fin_q, ph_sat_q, ph_loop_q} <=
          {ph_load_i, ph_d_i, ph_acc_i, ph_fin_i, ph_sat_i, ph_loop_i};
    end
  end

  assign acc_o = acc_q[QW-1:0];
endmodule
