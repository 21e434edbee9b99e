// A feature of a state encoder: the ratio of two raw counters against N ascending fractions
// K_i / Den, bin = the number of K_i with x * Den >= K_i * y, 0 when y is 0; N = 0 is a
// feature that is off (always bin 0). Twin of rl::RatioFeature::bin (controller/rl/feature.h).
// Combinational: constant multiplications (shifts and adds) and N comparators.
module qrl_ratio #(
  parameter int unsigned N = 1,
  parameter int unsigned W = 32,
  parameter int unsigned Den = 1,
  parameter logic [((N > 0) ? N : 1)*16-1:0] K = 16'd1,  // K_i at bits [16i +: 16]
  parameter int unsigned BW = qrl_pkg::idx_w(N + 1)
) (
  input  logic [ W-1:0] x_i,
  input  logic [ W-1:0] y_i,
  output logic [BW-1:0] bin_o
);
  localparam int unsigned PW = W + 16;  // Den and K_i are below 2^16
  if (N == 0) begin : g_off
    logic unused_xy;
    assign unused_xy = ^{x_i, y_i};
    assign bin_o = '0;
  end else begin : g_on
    logic [PW-1:0] xd;
    logic [N-1:0] ge;  // a thermometer code: the fractions ascend
    assign xd = PW'(x_i) * PW'(Den);
    for (genvar i = 0; i < N; i++) begin : g_cmp
      assign ge[i] = (xd >= PW'(y_i) * PW'(K[i*16+:16]));
    end
    always_comb begin
      bin_o = '0;
      if (y_i != '0) begin
        for (int unsigned i = 0; i < N; i++) begin
          if (ge[i]) bin_o = BW'(i + 1);
        end
      end
    end
  end
endmodule
