// The index of the k-th (0-based) set bit of a registered mask (k_i < popcount(mask)): each
// bit compares its rank (the set bits below it) with k, in parallel. The ranks are formed from
// the registered mask in the cycle that uses them (area: no rank registers; qrl_tie's come after
// the response edge, the exploration's in the decision's second cycle). Bit i's rank is at most
// i: clog2(i + 1) bits. The ranks and cnt_o (the popcount of the unregistered mask_i) are
// qrl_popcnt's logic, not '+' (fmax: qrl_tie forms the popcount behind the order-bit RAM).
module qrl_kth #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned RankW = $clog2(Actions + 1)
) (
  input  logic [Actions-1:0] mask_i,    // the mask before its register (for cnt_o)
  input  logic [Actions-1:0] mask_q_i,  // the registered mask
  input  logic [   ActW-1:0] k_i,
  output logic [   ActW-1:0] idx_o,
  output logic [  RankW-1:0] cnt_o      // popcount(mask_i), combinational (qrl_tie's n_max)
);

  function automatic int unsigned rw(int unsigned i);
    rw = (i == 0) ? 0 : $clog2(i + 1);
  endfunction

  qrl_popcnt #(
    .N(Actions),
    .W(RankW)
  ) u_cnt (
    .v_i  (mask_i),
    .cnt_o(cnt_o)
  );

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

  always_comb begin
    idx_o = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      if (sel[i]) idx_o = idx_o | ActW'(i);
    end
  end
endmodule
