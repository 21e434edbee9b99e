// Order bits of a q-table row, and the greedy choices of a decision from them.
//
// Order bits: for every pair of actions i < j two bits, at p = qrl_pkg::pair_idx(Actions, i, j):
//   bit p         (the low half) set when Q(s, i) >= Q(s, j)
//   bit PairW + p (the high half) set when Q(s, j) >= Q(s, i)
// i.e. ge(i, j) for every ordered pair; both set = equal values. A row's order bits stay next
// to its q values (qrl_core keeps them in a RAM of their own and rewrites the 2 (Actions - 1)
// bits of action a whenever Q(s, a) changes), so the masked argmax of a decision is a few gates
// on the RAM's output instead of Actions - 1 16-bit comparators.
//
// This module, for a mask_i that is not empty:
//   max_o: the maximum set, bit i = i allowed and ge(i, j) for every other allowed j (the
//          exploiting decision picks one of its members at random: qrl_decide);
//   idx_o: its lowest member (the masked argmax, the lower index winning ties), the a* of a
//          next_max update and the greedy decision; formed from the order bits directly.
// Each action's ge(i, j) bits are gathered by constant indices (a generate loop: plain gates in
// synthesis, word operations in the Verilated model).
module qrl_winner #(
  parameter int unsigned Actions = 4,
  parameter bit Direct = 1'b0,  // idx_o from the order bits directly (below)
  parameter int unsigned ActW = qrl_pkg::idx_w(Actions),
  parameter int unsigned PairW = qrl_pkg::pair_w(Actions)
) (
  input  logic [2*PairW-1:0] order_i,
  input  logic [Actions-1:0] mask_i,
  output logic [Actions-1:0] max_o,
  output logic [   ActW-1:0] idx_o
);
  for (genvar i = 0; i < Actions; i++) begin : g_act
    logic [Actions-1:0] ge;  // ge(i, j) for every j (ge(i, i) = 1)
    for (genvar j = 0; j < Actions; j++) begin : g_j
      if (j < i) begin : g_lo
        // pair (j, i): its high half is Q(i) >= Q(j)
        assign ge[j] = order_i[PairW+qrl_pkg::pair_idx(Actions, j, i)];
      end else if (j > i) begin : g_hi
        // pair (i, j): its low half is Q(i) >= Q(j)
        assign ge[j] = order_i[qrl_pkg::pair_idx(Actions, i, j)];
      end else begin : g_self
        assign ge[j] = 1'b1;
      end
    end
    assign max_o[i] = mask_i[i] && ((ge | ~mask_i) == '1);
  end

  // the lowest member: Direct = 0, no member of the set below it (a prefix OR over max_o, no carry
  // chain); Direct = 1, straight from the order bits (i allowed, Q(s, i) >= Q(s, j) for every
  // allowed j above it and Q(s, i) > Q(s, j), i.e. not ge(j, i), for every allowed j below it):
  // fewer logic levels where max_o is not otherwise needed (the greedy core; iCE40 fmax of the
  // update's a* path), while the online core shares max_o with its random pick
  logic [Actions-1:0] low;
  if (Direct) begin : g_direct
    for (genvar i = 0; i < Actions; i++) begin : g_low
      logic [Actions-1:0] ok;
      for (genvar j = 0; j < Actions; j++) begin : g_j
        if (j < i) begin : g_below
          // pair (j, i): its low half is Q(j) >= Q(i)
          assign ok[j] = !mask_i[j] || !order_i[qrl_pkg::pair_idx(Actions, j, i)];
        end else if (j > i) begin : g_above
          assign ok[j] = !mask_i[j] || order_i[qrl_pkg::pair_idx(Actions, i, j)];
        end else begin : g_self
          assign ok[j] = mask_i[i];
        end
      end
      assign low[i] = (ok == '1);
    end
  end else begin : g_prefix
    assign low[0] = max_o[0];
    for (genvar i = 1; i < Actions; i++) begin : g_low
      assign low[i] = max_o[i] && (max_o[i-1:0] == '0);
    end
  end
  assign idx_o = ActW'(qrl_pkg::onehot_idx(16'(low)));
endmodule
