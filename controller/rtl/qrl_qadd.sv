// The serial update datapath of qrl_core: one adder, acc + (+-Q | d | 0) + carry-in, for every
// step of the update and the compare loop, the accumulator, d = r - Q(s, a), the step sequence of
// the shift-and-add (qrl_pkg StepSeq, registered), the saturation, and the q values'
// read-data registers. The core's FSM drives it with its next phase (ph_i, one flag per state
// that uses the adder, from the next state; registered here, so no state decode is in front of
// the adder):
//   ph_i[PhD]   (StUpdD)  : r - Q(s, a) -> d; acc <= the rounding half (init_i)
//   ph_i[PhAcc] (StUpdAcc): acc + {Q' | -Q' | d | 0} >>> the step's shift -> acc
//   ph_i[PhFin] (StUpdFin): acc + Q(s, a) -> acc
//   ph_i[PhSat] (StLoopRd): acc saturated to QW bits (off the adder's path)
//   ph_i[PhLoop] (StLoop) : q_new - Q(s, j) (- 1) -> sign = the order bit of the pair's low half
//                           (registered); its high half = the complement, or 1 on equal values
//                           (an equality test of the two registers beside the adder)
//   ph_i[PhLoad] (StIdle) : acc <= in_val_i (the reward, or a management write's value)
// acc = floor((CD d + CN Q' + 2^(2KF-1)) / 2^2KF), CD's binary digits and CN's NAF digits least
// significant first (docs/rl.md "Fixed point"); |acc| stays below 2^18 (checked over the
// extreme operands). A step's shift is applied at the adder's next use (acc_q holds the sum,
// shift_q the pending shift: the shift mux is in front of the adder, beside the operand select,
// not behind it), and the adder's controls are registered from the next cycle's phase and step
// (fmax: registers -> one select level -> the carry chain -> the accumulator's input select).
module qrl_qadd #(
  parameter int unsigned StepW = 4
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [      StepW-1:0] step_next_i,  // the step counter's next value
  input  logic [            5:0] ph_i,         // the next cycle's phase, one-hot (or none)
  input  logic                   acc_ld_i,
  input  logic                   init_i,       // acc <= the rounding half (with d_ld_i)
  input  logic                   d_ld_i,
  input  logic [qrl_pkg::QW-1:0] in_val_i,
  input  logic                   j_above_a_i,  // the loop's column is above a (ties: a wins)
  input  logic                   j_above_a_d_i,  // its next value
  input  logic [qrl_pkg::QW-1:0] wq_rdata_i,   // the work table's RAM output
  output logic [qrl_pkg::QW-1:0] acc_o,
  // registered order bits of the pair compared: {high, low} (both tables' on a management write
  // of a shadow unit: qrl_core.sv)
  output logic [            1:0] ord_q_o
);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned NSteps = qrl_pkg::NSteps;
  localparam int unsigned AW = QW + 3;  // accumulator (bound checked in docs/rl.md)
  localparam int unsigned DW = QW + 1;  // d = r - q
  localparam logic signed [AW-1:0] QMax = AW'((1 << (QW - 1)) - 1);
  localparam logic signed [AW-1:0] QMin = -AW'(1 << (QW - 1));
  localparam int PhLoad = 5, PhD = 4, PhAcc = 3, PhFin = 2, PhSat = 1, PhLoop = 0;

  logic signed [AW-1:0] acc_q, acc_d, acc_in, add_y, add_sum, sat_acc, wq_ext;
  logic signed [DW-1:0] d_q;
  logic [3:0] step_d;  // the next step's {kind: 0 none, 1 Q', 2 d, 3 -Q'; shift}
  logic [1:0] kind_n, shift_q, pend_q, pend_d;
  logic o_bit, o_hi;
  // the adder's controls for this cycle (registered): operand Q' (or Q(s, x)) / inverted / d,
  // carry-in
  logic y_w_q, y_inv_q, y_d_q, cin_q, y_w_d, y_inv_d, y_d_d, cin_d;
  logic [QW-1:0] wq_q;  // the work table's read-data register, loaded every cycle
  logic [5:0] ph_q;  // the current phase

  // The step's controls are registered: decoded from the next value of the step counter.
  logic [4*NSteps-1:0] step_rom;
  for (genvar k = 0; k < NSteps; k++) begin : g_step
    localparam logic [3:0] Info = qrl_pkg::StepSeq[4*k+:4];
    assign step_rom[4*k+:4] = Info;
  end
  always_comb begin
    step_d = '0;
    for (int unsigned k = 0; k < NSteps; k++) begin
      if (step_next_i == StepW'(k)) step_d = step_rom[4*k+:4];
    end
  end
  assign kind_n = step_d[3:2];
  always_comb begin
    y_w_d = ph_i[PhD] || ph_i[PhFin] || ph_i[PhLoop] || (ph_i[PhAcc] && kind_n[0]);
    y_inv_d = ph_i[PhD] || ph_i[PhLoop] || (ph_i[PhAcc] && kind_n == 2'd3);
    y_d_d = ph_i[PhAcc] && (kind_n == 2'd2);
    cin_d = ph_i[PhD] || (ph_i[PhAcc] && kind_n == 2'd3) || (ph_i[PhLoop] && j_above_a_d_i);
  end
  assign wq_ext = AW'($signed(wq_q));

  // the accumulator with the pending shift of the last step (none after any other load)
  always_comb begin
    unique case (pend_q)
      2'd0: acc_in = acc_q;
      2'd1: acc_in = acc_q >>> 1;
      2'd2: acc_in = acc_q >>> 2;
      default: acc_in = acc_q >>> 3;
    endcase
    add_y = ((wq_ext ^ {AW{y_inv_q}}) & {AW{y_w_q}}) | (AW'(d_q) & {AW{y_d_q}});
  end
  // acc_in + add_y + cin_q by a parallel-prefix adder (a ripple-carry mapping is the worst path
  // at the slow corner)
  logic [AW-1:0] add_sum_u;
  qrl_padd #(.W(AW)) u_add (.a_i(acc_in), .b_i(add_y), .ci_i(cin_q), .s_o(add_sum_u));
  assign add_sum = $signed(add_sum_u);
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

  // acc's next value: an input, the rounding half, acc saturated, or the adder's result (a step's
  // shift pending with it)
  always_comb begin
    pend_d = pend_q;
    if (ph_q[PhLoad]) begin
      acc_d = AW'($signed(in_val_i));
    end else if (init_i) begin
      acc_d = AW'(qrl_pkg::AccInit);
    end else if (ph_q[PhSat]) begin
      acc_d = sat_acc;
    end else begin
      acc_d = add_sum;
    end
    if (acc_ld_i || init_i) pend_d = ph_q[PhAcc] ? shift_q : 2'd0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shift_q <= '0;
      pend_q <= '0;
      {y_w_q, y_inv_q, y_d_q, cin_q} <= '0;
      ord_q_o <= '0;
      ph_q <= '0;
    end else begin
      shift_q <= step_d[1:0];
      pend_q <= pend_d;
      {y_w_q, y_inv_q, y_d_q, cin_q} <= {y_w_d, y_inv_d, y_d_d, cin_d};
      ord_q_o <= {o_hi, o_bit};
      ph_q <= ph_i;
    end
  end

  // no reset (area): acc_q and d_q are loaded by the operation that reads them, wq_q (the
  // read-data register) at every edge
  always_ff @(posedge clk_i) begin
    if (acc_ld_i || init_i) acc_q <= acc_d;
    if (d_ld_i) d_q <= DW'(add_sum);
    wq_q <= wq_rdata_i;
  end

  assign acc_o = acc_q[QW-1:0];
endmodule
