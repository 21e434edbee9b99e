// Order bits of a q-table row, and the greedy choices of a decision from them.
//
// Order bits: for every pair of actions i < j two bits, at p = i * Actions - i * (i + 1) / 2 +
// (j - i - 1):
//   bit p         (the low half) set when Q(s, i) >= Q(s, j)
//   bit PairW + p (the high half) set when Q(s, j) >= Q(s, i)
// i.e. ge(i, j) for every ordered pair; both set = equal values. A row's order bits stay next
// to its q values (qrl_core keeps them in a RAM of their own and rewrites the 2 (Actions - 1)
// bits of action a whenever Q(s, a) changes), so the masked argmax of a decision is a few gates
// on the RAM's output instead of Actions - 1 16-bit comparators.
//
// This module, for a mask_i that is not empty:
//   max_o: the maximum set, bit i = i allowed and ge(i, j) for every other allowed j (the
//          exploiting decision picks one of its members at random: qrl_tie);
//   idx_o: its lowest member (the allowed action that wins against every other allowed one,
//          the lower index winning ties: the low half suffices), the a* of a next_max update.
module qrl_winner #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned PairW = (Actions > 1) ? Actions * (Actions - 1) / 2 : 1
) (
  input  logic [2*PairW-1:0] order_i,
  input  logic [Actions-1:0] mask_i,
  output logic [Actions-1:0] max_o,
  output logic [   ActW-1:0] idx_o
);
  logic [PairW-1:0] lo, hi;
  assign lo = order_i[PairW-1:0];
  assign hi = order_i[2*PairW-1:PairW];
  logic [Actions-1:0] win;
  always_comb begin
    for (int unsigned i = 0; i < Actions; i++) begin
      win[i] = mask_i[i];
      max_o[i] = mask_i[i];
      for (int unsigned j = 0; j < Actions; j++) begin
        if (j < i) begin
          // pair (j, i): lo = Q(j) >= Q(i), hi = Q(i) >= Q(j)
          win[i] = win[i] & (~mask_i[j] | ~lo[j*Actions-j*(j+1)/2+(i-j-1)]);
          max_o[i] = max_o[i] & (~mask_i[j] | hi[j*Actions-j*(j+1)/2+(i-j-1)]);
        end else if (j > i) begin
          // pair (i, j): lo = Q(i) >= Q(j)
          win[i] = win[i] & (~mask_i[j] | lo[i*Actions-i*(i+1)/2+(j-i-1)]);
          max_o[i] = max_o[i] & (~mask_i[j] | lo[i*Actions-i*(i+1)/2+(j-i-1)]);
        end
      end
    end
    idx_o = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      idx_o = idx_o | (win[i] ? ActW'(i) : '0);
    end
  end
endmodule
