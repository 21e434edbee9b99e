// The fixed-point Q update (combinational), bit-exact with QCore::update_value:
//   acc = (2^KF - Alpha) * q * 2^KF + Alpha * r * 2^KF + (Alpha * Gamma) * qn
//   q_o = saturate_QW((acc + 2^(2KF-1)) >>> 2KF)          (round half up, one rounding)
// Same integer, factored in two halves so that the caller can register the partial sum:
//   p_o = r * 2^KF + Gamma * qn                      (from r_i, qn_i: known before Q(s, a))
//   acc = q * 2^2KF + Alpha * (p - q * 2^KF)         (from q_i, p_i)
// The constant products are shift-and-add networks over the set bits of the constants.
module qrl_qupdate #(
  parameter int unsigned QW = 16,
  parameter int unsigned KF = 8,
  parameter int unsigned Alpha = 77,
  parameter int unsigned Gamma = 205,
  parameter int unsigned PW = QW + KF + 1  // width of the partial sum p
) (
  input  logic [QW-1:0] r_i,
  input  logic [QW-1:0] qn_i,
  output logic [PW-1:0] p_o,
  input  logic [QW-1:0] q_i,
  input  logic [PW-1:0] p_i,
  output logic [QW-1:0] q_o
);
  localparam int unsigned AccW = QW + 2 * KF + 3;
  localparam int unsigned SatW = AccW - 2 * KF;
  localparam logic [KF:0] AlphaB = (KF + 1)'(Alpha);
  localparam logic [KF:0] GammaB = (KF + 1)'(Gamma);
  localparam logic signed [AccW-1:0] Half = AccW'(1) <<< (2 * KF - 1);
  localparam logic signed [SatW-1:0] QMax = SatW'((1 << (QW - 1)) - 1);
  localparam logic signed [SatW-1:0] QMin = -SatW'(1 << (QW - 1));

  logic signed [PW-1:0] r_ext, qn_ext, p;
  logic signed [AccW-1:0] q_ext, t, acc;
  logic signed [SatW-1:0] res;
  logic unused_acc;

  always_comb begin
    r_ext = {{(PW - QW) {r_i[QW-1]}}, r_i};
    qn_ext = {{(PW - QW) {qn_i[QW-1]}}, qn_i};
    p = r_ext <<< KF;
    for (int unsigned i = 0; i <= KF; i++) begin
      if (GammaB[i]) p = p + (qn_ext <<< i);
    end
    p_o = p;
  end

  always_comb begin
    q_ext = {{(AccW - QW) {q_i[QW-1]}}, q_i};
    t = {{(AccW - PW) {p_i[PW-1]}}, p_i} - (q_ext <<< KF);
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
