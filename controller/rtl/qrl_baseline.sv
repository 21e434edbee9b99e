// The reward baseline of qrl_core (parameter BaselineShift; docs/rl.md "Design knobs"): an
// update uses its reward minus the exponential mean of the rewards, r - b with b = B >>> Shift
// (floor), saturated to QW bits, and an applied update (apply_i: accepted, not dropped in the
// warm-up) adds r - b to B, which holds b with Shift more fraction bits and starts at 0. The
// twin of controller/rl/qcore.cpp QCore::reward_used. reward_o is combinational from reward_i
// and the register.
module qrl_baseline #(
  parameter int unsigned Shift = 4,
  parameter int unsigned QW = qrl_pkg::QW
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [QW-1:0] reward_i,
  input  logic          apply_i,
  output logic [QW-1:0] reward_o
);
  localparam int unsigned BW = QW + Shift + 1;  // |B| < 2^(QW - 1 + Shift) + 2^Shift
  logic signed [BW-1:0] b_q;
  logic signed [QW+1:0] adv;  // r - b
  assign adv = (QW + 2)'($signed(reward_i)) - (QW + 2)'(b_q >>> Shift);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) b_q <= '0;
    else if (apply_i) b_q <= b_q + BW'(adv);
  end
  always_comb begin
    if (adv[QW+1:QW-1] == '0 || adv[QW+1:QW-1] == '1) reward_o = adv[QW-1:0];
    else reward_o = adv[QW+1] ? {1'b1, {(QW - 1) {1'b0}}} : {1'b0, {(QW - 1) {1'b1}}};
  end
endmodule
