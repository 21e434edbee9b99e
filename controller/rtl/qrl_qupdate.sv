// The fixed-point Q update (combinational), bit-exact with QCore::update_value:
//   acc = (2^KF - Alpha) * q * 2^KF + Alpha * r * 2^KF + (Alpha * Gamma) * qn
//   q_o = saturate_QW((acc + 2^(2KF-1)) >>> 2KF)          (round half up, one rounding)
// The three constant multipliers reduce to shift-and-add networks in synthesis.
module qrl_qupdate #(
  parameter int unsigned QW = 16,
  parameter int unsigned KF = 8,
  parameter int unsigned Alpha = 77,
  parameter int unsigned Gamma = 205
) (
  input  logic [QW-1:0] q_i,
  input  logic [QW-1:0] r_i,
  input  logic [QW-1:0] qn_i,
  output logic [QW-1:0] q_o
);
  // Same integer as above, factored to need fewer adders:
  //   acc = q * 2^2KF + Alpha * ((r - q) * 2^KF + Gamma * qn)
  // with the constant products written as shift-and-add over the set bits of the constants.
  localparam int unsigned AccW = QW + 2 * KF + 3;
  localparam int unsigned SatW = AccW - 2 * KF;
  localparam logic [KF:0] AlphaB = (KF + 1)'(Alpha);
  localparam logic [KF:0] GammaB = (KF + 1)'(Gamma);
  localparam logic signed [AccW-1:0] Half = AccW'(1) <<< (2 * KF - 1);
  localparam logic signed [SatW-1:0] QMax = SatW'((1 << (QW - 1)) - 1);
  localparam logic signed [SatW-1:0] QMin = -SatW'(1 << (QW - 1));

  logic signed [AccW-1:0] q_ext, r_ext, qn_ext, t, acc;
  logic signed [SatW-1:0] res;
  logic unused_acc;

  always_comb begin
    q_ext = {{(AccW - QW) {q_i[QW-1]}}, q_i};
    r_ext = {{(AccW - QW) {r_i[QW-1]}}, r_i};
    qn_ext = {{(AccW - QW) {qn_i[QW-1]}}, qn_i};
    t = (r_ext - q_ext) <<< KF;
    for (int unsigned i = 0; i <= KF; i++) begin
      if (GammaB[i]) t = t + (qn_ext <<< i);
    end
    acc = (q_ext <<< (2 * KF)) + Half;
    for (int unsigned i = 0; i <= KF; i++) begin
      if (AlphaB[i]) acc = acc + (t <<< i);
    end
    res = acc[AccW-1:2*KF];
    unused_acc = ^acc[2*KF-1:0];
    if (res > QMax) begin
      q_o = QMax[QW-1:0];
    end else if (res < QMin) begin
      q_o = QMin[QW-1:0];
    end else begin
      q_o = res[QW-1:0];
    end
  end
endmodule
