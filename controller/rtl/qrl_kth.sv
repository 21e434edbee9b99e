// The index of the k-th (0-based) set bit of a registered set (k_i < popcount(set)): each bit
// compares its rank (the set bits below it) with k, in parallel. The ranks are formed from the
// registered set in the cycle that uses them (no rank registers). Bit i's rank is at most i:
// clog2(i + 1) bits, qrl_popcnt's logic, not '+' (fmax: '+' maps onto the iCE40 carry chain).
module qrl_kth #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = qrl_pkg::idx_w(Actions),
  parameter int unsigned RankW = $clog2(Actions + 1)
) (
  input  logic [Actions-1:0] mask_q_i,  // the registered set
  input  logic [   ActW-1:0] k_i,
  output logic [   ActW-1:0] idx_o
);
  function automatic int unsigned rw(int unsigned i);
    rw = (i == 0) ? 0 : $clog2(i + 1);
  endfunction

  logic [Actions-1:0] sel;
  assign sel[0] = mask_q_i[0] && (k_i == '0);
  for (genvar i = 1; i < Actions; i++) begin : g_rank
    localparam int unsigned W = rw(i);
    logic [W-1:0] rank;
    qrl_popcnt #(
      .N(i),
      .W(W)
    ) u_r (
      .v_i  (mask_q_i[i-1:0]),
      .cnt_o(rank)
    );
    assign sel[i] = mask_q_i[i] && (RankW'(rank) == RankW'(k_i));
  end

  assign idx_o = ActW'(qrl_pkg::onehot_idx(16'(sel)));
endmodule
