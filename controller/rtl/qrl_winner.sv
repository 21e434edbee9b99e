// Order bits of a q-table row, and the greedy choice of a decision from them.
//
// Order bits: for every pair of actions i < j one bit, set when action i wins against j, i.e.
// Q(s, i) >= Q(s, j) (the lower index wins ties). Pair (i, j) is bit
//   i * Actions - i * (i + 1) / 2 + (j - i - 1)
// A row's order bits stay next to its q values (qrl_core keeps them in a RAM of their own and
// rewrites the Actions - 1 bits of action a whenever Q(s, a) changes), so the masked argmax of a
// decision is a few gates on the RAM's output instead of Actions - 1 16-bit comparators.
//
// This module: the allowed action that wins against every other allowed action (the masked
// argmax, lowest index on ties), as an index. mask_i must not be empty.
module qrl_winner #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned PairW = (Actions > 1) ? Actions * (Actions - 1) / 2 : 1
) (
  input  logic [  PairW-1:0] order_i,
  input  logic [Actions-1:0] mask_i,
  output logic [   ActW-1:0] idx_o
);
  logic [Actions-1:0] win;
  always_comb begin
    for (int unsigned i = 0; i < Actions; i++) begin
      win[i] = mask_i[i];
      for (int unsigned j = 0; j < Actions; j++) begin
        if (j < i) begin
          // pair (j, i): set when j wins
          win[i] = win[i] & (~mask_i[j] | ~order_i[j*Actions-j*(j+1)/2+(i-j-1)]);
        end else if (j > i) begin
          // pair (i, j): set when i wins
          win[i] = win[i] & (~mask_i[j] | order_i[i*Actions-i*(i+1)/2+(j-i-1)]);
        end
      end
    end
    idx_o = '0;
    for (int unsigned i = 0; i < Actions; i++) begin
      idx_o = idx_o | (win[i] ? ActW'(i) : '0);
    end
  end
endmodule

