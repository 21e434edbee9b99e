// The q-value address of qrl_core's update, management and copy accesses, and the clear's and
// the copy's address tests (split out of qrl_core.sv; no logic change).
//   addr_o = rb_q + a_col_q: the row's base address row * Actions (rb_q, set a cycle ahead from
//   row_i, so the RAM address is one adder from registers) plus the column (a_col_q, registered
//   from the next state's column selection: no state decode in front of the RAM address).
//   The column of the next cycle's access, by the selection the core's FSM sets with each
//   transition (at most one set; an AND-OR select, no priority chain): col_win_i a* (the
//   winner, into StUpdRdN), col_zero_i 0 (the read of Q(s, 0)), col_one_i 1 (into StLoopRd),
//   col_two_i 2 (into StLoop), col_loop_i the loop's next read column loop_next_i = cnt + 1
//   (from the counter register, not the FSM's next count; a at the loop's last cycle, the
//   write of Q(s, a)), else a.
//   row_q_o = cnt < States (an order-bit row), nrow_q_o = cnt < States - 1 (the copy reads the
//   next one), last_q_o = cnt = States * Actions - 1 (the last q value): registered from the
//   sweep's next address (fmax: no wide comparator in front of the RAMs' write enables).
module qrl_qaddr #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter int unsigned StW = (States > 1) ? $clog2(States) : 1,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned QAW = 9,
  parameter int unsigned CntW = 11
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [ StW-1:0] row_i,       // the next access's row
  input  logic            col_win_i,   // the next access's column selection (else a)
  input  logic            col_zero_i,
  input  logic            col_one_i,
  input  logic            col_two_i,
  input  logic            col_loop_i,
  input  logic [  ActW:0] loop_next_i,  // the loop's counter + 1
  input  logic [ActW-1:0] win_idx_i,
  input  logic [ActW-1:0] a_d_i,       // a (the update's or the write's action), next value
  input  logic            sweep_i,     // the next cycle continues the clear or the copy
  input  logic [CntW-1:0] cnt_inc_i,   // the core's counter + 1 (its value then)
  output logic [ QAW-1:0] addr_o,
  output logic            row_q_o,
  output logic            nrow_q_o,
  output logic            last_q_o
);
  localparam int unsigned QDepth = States * Actions;
  localparam logic [CntW-1:0] QDepthC = CntW'(QDepth);
  localparam logic [CntW-1:0] StatesC = CntW'(States);
  // The compare loop's counter runs 2 .. Actions + 2 (reads column cnt, compares column cnt - 2)
  localparam logic [ActW:0] LastAct = (ActW + 1)'(Actions + 2);

  logic [QAW-1:0] rb_d, rb_q;
  logic [ActW-1:0] a_col_d, a_col_q;

  assign rb_d = QAW'(QAW'(row_i) * QAW'(Actions));

  logic col_a, loop_a;
  assign loop_a = (loop_next_i == LastAct);
  assign col_a = !(col_win_i || col_zero_i || col_one_i || col_two_i || col_loop_i) ||
                 (col_loop_i && loop_a);
  assign a_col_d = (win_idx_i & {ActW{col_win_i}}) | (ActW'(1) & {ActW{col_one_i}}) |
                   (ActW'(2) & {ActW{col_two_i}}) |
                   (loop_next_i[ActW-1:0] & {ActW{col_loop_i && !loop_a}}) |
                   (a_d_i & {ActW{col_a}});

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q_o <= 1'b1;
      nrow_q_o <= (States > 1);
      last_q_o <= (QDepth == 1);
    end else begin
      // a sweep's next address cnt + 1, else 0 (a sweep starts there; the flags matter only in
      // sweeps): no arbitration in front of the comparators
      row_q_o <= !sweep_i || (cnt_inc_i < StatesC);
      nrow_q_o <= sweep_i ? (cnt_inc_i < StatesC - 1'b1) : (States > 1);
      last_q_o <= sweep_i ? (cnt_inc_i == QDepthC - 1'b1) : (QDepth == 1);
    end
  end

  // no reset (area): loaded at every edge, read only by the operation that set them up
  always_ff @(posedge clk_i) begin
    rb_q <= rb_d;
    a_col_q <= a_col_d;
  end

  assign addr_o = rb_q + QAW'(a_col_q);
endmodule
