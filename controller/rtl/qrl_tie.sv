// The exploiting decision's random tie-break (docs/rl.md "Exploitation and ties"): the k-th
// (0-based) member of the maximum set (qrl_winner's max_o: the allowed actions holding the row's
// largest value), k = (w[15:0] * n_max) >> 16 with n_max = popcount(set), w the decision's LFSR
// word. Three steps, so that no cycle holds the whole chain (fmax):
//   accept cycle: the products (w[15:0] * n) >> 16 for every possible n come from
//     qrl_pick and are registered (kn_q);
//   second cycle, behind the order-bit RAM and qrl_winner: the set's popcount; the set,
//     the popcount and the products (kn_q is the next decision's from this edge on: one
//     decision per cycle, so they are copied into kn2_q) are registered at the response edge;
//   after the response edge: the popcount selects k = kn2_q[popcount] (an AND-OR select), each
//     member's rank (the members below it, qrl_kth, formed from the registered set) is compared
//     with k and the matching index is idx_o, combinational from registers (the decision's
//     action output, valid in the response cycle: the registers load at every edge).
// Branch hw6 (fmax) returned to this split from hw-area's, which selected k in the second cycle
// (one k register instead of the second copy of the products: rr -33 flip-flops) and whose
// second cycle, order-bit RAM -> maximum set -> popcount -> select, was rr's and slc's worst path
// (rr 14.3 ns, 70.2 MHz at seed 1). The popcount and the ranks are qrl_popcnt's XOR/AND logic,
// not '+' (as '+' they map onto the iCE40 carry chain).
// No multiplier behind the RAM. A set of one (a strict maximum) gives k = 0: its member.
module qrl_tie #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [Actions*ActW-1:0] kn_i,   // (w[15:0] * n) >> 16 at n - 1, n = 1 .. Actions
  input  logic [     Actions-1:0] set_i,  // second cycle: the maximum set (not empty)
  output logic [        ActW-1:0] idx_o   // after the response edge
);
  localparam int unsigned CntW = $clog2(Actions + 1);

  logic [Actions*ActW-1:0] kn_q, kn2_q;
  logic [Actions-1:0] set_q;
  logic [CntW-1:0] cnt, cnt_q;
  logic [ActW-1:0] k;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kn_q <= '0;
      kn2_q <= '0;
      set_q <= '0;
      cnt_q <= '0;
    end else begin
      // loaded at every edge, no enable (area): each register is read only in the cycle after
      // its load edge, kn_q in the second cycle, the others in the response cycle
      kn_q <= kn_i;
      set_q <= set_i;
      cnt_q <= cnt;  // second cycle: the set's popcount (qrl_kth's cnt_o)
      kn2_q <= kn_q;
    end
  end

  // after the response edge: k = kn2_q[popcount], an AND-OR select of the registered products
  always_comb begin
    k = '0;
    for (int unsigned n = 1; n <= Actions; n++) begin
      k = k | (kn2_q[(n-1)*ActW+:ActW] & {ActW{cnt_q == CntW'(n)}});
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
    .k_i     (k),
    .idx_o   (idx_o),
    .cnt_o   (cnt)
  );
endmodule
