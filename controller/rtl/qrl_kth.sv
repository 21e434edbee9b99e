// The index of the k-th (0-based) set bit of mask_i (k_i < popcount(mask_i)): each bit
// compares its rank (the set bits below it) with k, in parallel.
module qrl_kth #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic [Actions-1:0] mask_i,
  input  logic [   ActW-1:0] k_i,
  output logic [   ActW-1:0] idx_o
);
  localparam int unsigned RankW = $clog2(Actions + 1);
  logic [RankW-1:0] rank;
  always_comb begin
    idx_o = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      rank = '0;
      for (int unsigned j = 0; j < i; j++) begin
        rank = rank + RankW'(mask_i[j]);
      end
      if (mask_i[i] && (rank == RankW'(k_i))) idx_o = idx_o | ActW'(i);
    end
  end
endmodule
