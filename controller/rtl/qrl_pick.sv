// Exploration choice among the allowed actions, first half: k = (rnd_i * popcount(mask)) >> 16,
// the rank of the chosen action among the allowed ones (qrl_kth turns it into an index in the
// decision's second cycle). mask_i must not be empty.
module qrl_pick #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic [Actions-1:0] mask_i,
  input  logic [       15:0] rnd_i,
  output logic [   ActW-1:0] k_o
);
  localparam int unsigned CntW = $clog2(Actions + 1);

  logic [CntW-1:0] cnt;
  logic [16+CntW-1:0] prod;
  logic unused_prod;

  always_comb begin
    cnt = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      cnt = cnt + {{(CntW - 1) {1'b0}}, mask_i[i]};
    end
    prod = {{CntW{1'b0}}, rnd_i} * {16'h0, cnt};
    k_o = ActW'(prod[16+:CntW]);
  end
  if (CntW > ActW) begin : g_unused_hi
    assign unused_prod = ^{prod[15:0], prod[16+ActW+:(CntW-ActW)]};
  end else begin : g_unused
    assign unused_prod = ^prod[15:0];
  end
endmodule
