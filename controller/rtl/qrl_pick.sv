// Exploration choice among the allowed actions: k = (rnd_i * popcount(mask)) >> 16, and the
// result is the index of the k-th (0-based) set bit of the mask.
module qrl_pick #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic [Actions-1:0] mask_i,
  input  logic [       15:0] rnd_i,
  output logic [   ActW-1:0] idx_o
);
  localparam int unsigned CntW = $clog2(Actions + 1);

  logic [CntW-1:0] cnt, seen, k;
  logic [16+CntW-1:0] prod;
  logic unused_prod;

  always_comb begin
    cnt = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      cnt = cnt + {{(CntW - 1) {1'b0}}, mask_i[i]};
    end
    prod = {{CntW{1'b0}}, rnd_i} * {16'h0, cnt};
    k = prod[16+:CntW];
    unused_prod = ^prod[15:0];
    idx_o = '0;
    seen = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      if (mask_i[i]) begin
        if (seen == k) begin
          idx_o = i[ActW-1:0];
        end
        seen = seen + 1'b1;
      end
    end
  end
endmodule
