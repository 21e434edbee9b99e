// The exploiting decision's random tie-break (docs/rl.md "Exploitation and ties"): the k-th
// (0-based) member of the maximum set (qrl_winner's max_o: the allowed actions holding the row's
// largest value), k = (w[15:0] * n_max) >> 16 with n_max = popcount(set), w the decision's LFSR
// word. Three steps, so that no cycle holds the whole chain (fmax):
//   accept cycle (ld_i): the products (w[15:0] * n) >> 16 for every possible n come from
//     qrl_pick and are registered (kn_q);
//   second cycle (st_i), behind the order-bit RAM and qrl_winner: the set's popcount selects
//     k = kn_q[popcount] (an AND-OR select); the set and k are registered at the response edge
//     (kn_q is the next decision's from this edge on: one decision per cycle);
//   after the response edge: each member's rank (the members below it, qrl_kth, formed from the
//     registered set) is compared with k and the matching index is idx_o, combinational from
//     registers (the decision's action output; it holds until the next response).
// Branch hw-area moved the k select into the second cycle and the ranks behind the edge (area:
// one k register instead of every product again, the popcount and the ranks; rr -36 and -21
// flip-flops); the second cycle's path is again RAM -> maximum set -> popcount -> select (rr
// 14.8 ns, 67.4 MHz at seed 1, docs/rl.md). Before (hw-fmax3): k selected after the edge from
// registered products and popcount, ranks registered, rr 86.4 MHz. The popcount and the ranks
// are qrl_popcnt's XOR/AND logic, not '+' (as '+' they map onto the iCE40 carry chain).
// No multiplier behind the RAM. A set of one (a strict maximum) gives k = 0: its member.
module qrl_tie #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    ld_i,   // accept cycle: register kn_i
  input  logic [Actions*ActW-1:0] kn_i,   // (w[15:0] * n) >> 16 at n - 1, n = 1 .. Actions
  input  logic                    st_i,   // second cycle: register the set and its k
  input  logic [     Actions-1:0] set_i,  // second cycle: the maximum set (not empty)
  output logic [        ActW-1:0] idx_o   // after the response edge
);
  localparam int unsigned CntW = $clog2(Actions + 1);

  logic [Actions*ActW-1:0] kn_q;
  logic [Actions-1:0] set_q;
  logic [CntW-1:0] cnt;
  logic [ActW-1:0] k_d, k_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kn_q <= '0;
      set_q <= '0;
      k_q <= '0;
    end else begin
      if (ld_i) kn_q <= kn_i;
      if (st_i) begin
        set_q <= set_i;
        k_q <= k_d;
      end
    end
  end

  // second cycle: the set's popcount (qrl_kth's, as logic rather than the carry chain) selects
  // k = kn[popcount], an AND-OR select of the registered products, registered at the response
  // edge (area: one k instead of every product and the popcount)
  always_comb begin
    k_d = '0;
    for (int unsigned n = 1; n <= Actions; n++) begin
      k_d = k_d | (kn_q[(n-1)*ActW+:ActW] & {ActW{cnt == CntW'(n)}});
    end
  end

  // after the response edge: the member whose rank is k (qrl_kth: the ranks of the registered
  // set)
  qrl_kth #(
    .Actions(Actions),
    .ActW   (ActW)
  ) u_rank (
    .mask_i  (set_i),
    .mask_q_i(set_q),
    .k_i     (k_q),
    .idx_o   (idx_o),
    .cnt_o   (cnt)
  );
endmodule
