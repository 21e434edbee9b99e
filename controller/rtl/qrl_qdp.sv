// The q-value datapath of qrl_core: the serial update and compare of qrl_qadd, or, in a frozen
// core (Frozen, qrl_core Mode 2), only the compare of a management write (qrl_qcmp: its value is
// loaded in the idle cycle that accepts the write, where qrl_qadd loads it too).
module qrl_qdp #(
  parameter int unsigned StepW = 4,
  parameter bit Frozen = 1'b0
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [      StepW-1:0] step_next_i,
  input  logic [            5:0] ph_i,
  input  logic                   acc_ld_i,
  input  logic                   init_i,
  input  logic                   d_ld_i,
  input  logic [qrl_pkg::QW-1:0] in_val_i,
  input  logic                   j_above_a_i,
  input  logic                   j_above_a_d_i,
  input  logic [qrl_pkg::QW-1:0] wq_rdata_i,
  output logic [qrl_pkg::QW-1:0] acc_o,
  output logic [            1:0] ord_q_o
);
  if (Frozen) begin : g_qcmp
    // ph_i[5]: the next cycle is idle; registered, it marks the idle cycle (qrl_qadd's PhLoad)
    logic idle_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) idle_q <= 1'b0;
      else idle_q <= ph_i[5];
    end
    qrl_qcmp u_qcmp (
      .clk_i,
      .ld_i       (acc_ld_i && idle_q),
      .in_val_i,
      .j_above_a_i,
      .wq_rdata_i,
      .val_o      (acc_o),
      .ord_q_o
    );
    logic unused_upd;
    assign unused_upd = ^{step_next_i, ph_i[4:0], init_i, d_ld_i, j_above_a_d_i};
  end else begin : g_qadd
    qrl_qadd #(
      .StepW(StepW)
    ) u_qadd (
      .clk_i,
      .rst_ni,
      .step_next_i,
      .ph_i,
      .acc_ld_i,
      .init_i,
      .d_ld_i,
      .in_val_i,
      .j_above_a_i,
      .j_above_a_d_i,
      .wq_rdata_i,
      .acc_o,
      .ord_q_o
    );
  end
endmodule
