// The exploiting decision's random tie-break (docs/rl.md "Exploitation and ties"): the k-th
// (0-based) member of the maximum set (qrl_winner's max_o: the allowed actions holding the row's
// largest value), k = (w[15:0] * n_max) >> 16 with n_max = popcount(set), w the decision's LFSR
// word. The products (w[15:0] * n) >> 16 for every possible n come from qrl_pick in the accept
// cycle and are registered here (ld_i), so the second cycle, behind the order-bit RAM, is the
// set's popcount selecting k, each member's rank (the members below it) compared with k, and an
// OR: no multiplier behind the RAM. A set of one (a strict maximum) gives k = 0: its member.
module qrl_tie #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    ld_i,    // accept cycle: register kn_i
  input  logic [Actions*ActW-1:0] kn_i,    // (w[15:0] * n) >> 16 at n - 1, n = 1 .. Actions
  input  logic [     Actions-1:0] set_i,   // second cycle: the maximum set (not empty)
  output logic [        ActW-1:0] idx_o
);
  localparam int unsigned CntW = $clog2(Actions + 1);

  logic [Actions*ActW-1:0] kn_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kn_q <= '0;
    end else if (ld_i) begin
      kn_q <= kn_i;
    end
  end

  logic [CntW-1:0] cnt;
  logic [ActW-1:0] k;
  logic [Actions*CntW-1:0] rank;  // rank of i at i * CntW (flat: Yosys 0.23)
  logic [Actions-1:0] sel;
  always_comb begin
    cnt = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      rank[i*CntW+:CntW] = cnt;  // the members below i
      cnt = cnt + CntW'(set_i[i]);
    end
    // an AND-OR select of the registered products by the popcount
    k = '0;
    for (int unsigned n = 1; n <= Actions; n++) begin
      k = k | (kn_q[(n-1)*ActW+:ActW] & {ActW{cnt == CntW'(n)}});
    end
    idx_o = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      sel[i] = set_i[i] && (rank[i*CntW+:CntW] == CntW'(k));
      if (sel[i]) idx_o = idx_o | ActW'(i);
    end
  end
endmodule
