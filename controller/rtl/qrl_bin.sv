// A feature of a state encoder: a raw counter quantised against N ascending constant thresholds,
// bin = the number of thresholds <= x (0 .. N); N = 0 is a feature that is off (always bin 0).
// Twin of rl::Feature::bin (controller/rl/feature.h). Combinational: N comparators against
// constants and the count of the thermometer code they form.
module qrl_bin #(
  parameter int unsigned N = 1,
  parameter int unsigned W = 32,
  parameter logic [((N > 0) ? N : 1)*W-1:0] Thr = '0,  // threshold i at bits [i*W +: W]
  parameter int unsigned BW = qrl_pkg::idx_w(N + 1)
) (
  input  logic [ W-1:0] x_i,
  output logic [BW-1:0] bin_o
);
  if (N == 0) begin : g_off
    logic unused_x;
    assign unused_x = ^x_i;
    assign bin_o = '0;
  end else begin : g_on
    logic [N-1:0] ge;  // a thermometer code: the thresholds ascend
    for (genvar i = 0; i < N; i++) begin : g_cmp
      assign ge[i] = (x_i >= Thr[i*W+:W]);
    end
    always_comb begin
      bin_o = '0;
      for (int unsigned i = 0; i < N; i++) begin
        if (ge[i]) bin_o = BW'(i + 1);
      end
    end
  end
endmodule
