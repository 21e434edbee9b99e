// Formal check (tests/rl/CMakeLists.txt, rtl_winner_equiv_*): the choices from the order bits
// (qrl_winner on Q(i) >= Q(j) and Q(j) >= Q(i) for every pair i < j) equal those over the q
// values, for every row and every mask (an empty mask means all actions, as in qrl_core): the
// lowest-index winner is the masked argmax (qrl_argmax), and the maximum set is exactly the
// allowed actions whose value equals the argmax's value.
module winner_equiv #(
  parameter int unsigned Actions = 4,
  parameter bit Direct = 1'b0,  // qrl_winner's idx_o formula (prefix over the set, or direct)
  parameter int unsigned QW = 16,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned PairW = (Actions > 1) ? Actions * (Actions - 1) / 2 : 1
) (
  input  logic [Actions*QW-1:0] row_i,
  input  logic [   Actions-1:0] mask_i,
  output logic                  ok_o
);
  logic [2*PairW-1:0] order;
  logic [Actions-1:0] mask_n;
  logic [ActW-1:0] win_idx, amax_idx;
  logic [Actions-1:0] win_max, ref_max;
  logic [QW-1:0] amax_val;
  always_comb begin
    order = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      for (int unsigned j = i + 1; j < Actions; j++) begin
        order[i*Actions-i*(i+1)/2+(j-i-1)] = $signed(row_i[i*QW+:QW]) >= $signed(row_i[j*QW+:QW]);
        order[PairW+i*Actions-i*(i+1)/2+(j-i-1)] =
            $signed(row_i[j*QW+:QW]) >= $signed(row_i[i*QW+:QW]);
      end
    end
  end
  assign mask_n = (mask_i == '0) ? '1 : mask_i;
  qrl_winner #(.Actions(Actions), .Direct(Direct)) u_win (
    .order_i(order), .mask_i(mask_n), .max_o(win_max), .idx_o(win_idx)
  );
  qrl_argmax #(.Actions(Actions), .QW(QW), .Tree(1'b1)) u_ref (
    .row_i(row_i), .mask_i(mask_i), .idx_o(amax_idx), .val_o(amax_val)
  );
  always_comb begin
    for (int unsigned i = 0; i < Actions; i++) begin
      ref_max[i] = mask_n[i] && (row_i[i*QW+:QW] == amax_val);
    end
  end
  assign ok_o = (win_idx == amax_idx) && (win_max == ref_max);
endmodule
