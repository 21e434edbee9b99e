// The index of the k-th (0-based) set bit of the decision's mask (k_i < popcount(mask)): each
// bit compares its rank (the set bits below it) with k, in parallel. The ranks are formed from
// the mask in the decision's accept cycle (ld_i, in parallel with qrl_pick's popcount) and
// registered, so the second cycle is only a compare and an OR (fmax: the prefix popcounts are
// off the path into the response register). Bit i's rank is at most i: clog2(i + 1) bits.
// The ranks and cnt_o (the whole mask's popcount) are qrl_popcnt's logic, not '+' (fmax: qrl_tie
// forms them behind the order-bit RAM).
module qrl_kth #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned RankW = $clog2(Actions + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               ld_i,      // accept cycle: register the ranks of mask_i
  input  logic [Actions-1:0] mask_i,    // the accept cycle's mask
  input  logic [Actions-1:0] mask_q_i,  // the same mask, registered (second cycle)
  input  logic [   ActW-1:0] k_i,       // second cycle
  output logic [   ActW-1:0] idx_o,
  output logic [  RankW-1:0] cnt_o      // popcount(mask_i), combinational (qrl_tie's n_max)
);

  function automatic int unsigned rw(int unsigned i);
    rw = (i == 0) ? 0 : $clog2(i + 1);
  endfunction
  function automatic int unsigned roff(int unsigned i);
    int unsigned s;
    s = 0;
    for (int unsigned j = 0; j < i; j++) s = s + rw(j);
    roff = s;
  endfunction
  localparam int unsigned RBits = (roff(Actions) > 0) ? roff(Actions) : 1;


  qrl_popcnt #(
    .N(Actions),
    .W(RankW)
  ) u_cnt (
    .v_i  (mask_i),
    .cnt_o(cnt_o)
  );

  logic [RBits-1:0] rank_d, rank_q;
  logic [Actions-1:0] sel;
  assign sel[0] = mask_q_i[0] && (k_i == '0);
  for (genvar i = 1; i < Actions; i++) begin : g_rank
    localparam int unsigned W = rw(i);
    localparam int unsigned Off = roff(i);
    qrl_popcnt #(
      .N(i),
      .W(W)
    ) u_r (
      .v_i  (mask_i[i-1:0]),
      .cnt_o(rank_d[Off+:W])
    );
    assign sel[i] = mask_q_i[i] && (RankW'(rank_q[Off+:W]) == RankW'(k_i));
  end
  if (Actions == 1) begin : g_one
    assign rank_d = '0;
    logic unused_one;
    assign unused_one = ^{mask_i, ld_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rank_q <= '0;
    end else if (ld_i) begin
      rank_q <= rank_d;
    end
  end

  always_comb begin
    idx_o = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      if (sel[i]) idx_o = idx_o | ActW'(i);
    end
  end
endmodule
