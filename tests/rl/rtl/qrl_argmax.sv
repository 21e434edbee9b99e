// Reference for the formal test rtl_winner_equiv_* (tests/rl/CMakeLists.txt): the masked argmax
// over the q values, which qrl_core computed before it kept order bits (qrl_winner.sv).
// Masked argmax over one q-table row: the largest allowed value, lowest index on ties.
// An all-zero mask means all actions allowed (the caller normalises; kept here for safety).
//   Tree = 1: a balanced tournament, ceil(log2 Actions) comparator levels (the right operand
//             holds the higher indices and wins only when strictly larger: lowest index on ties)
//   Tree = 0: a linear scan, Actions - 1 comparator levels
// Both have Actions - 1 comparators and give the same result.
module qrl_argmax #(
  parameter int unsigned Actions = 4,
  parameter int unsigned QW = 16,
  parameter bit Tree = 1'b1,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic [Actions*QW-1:0] row_i,
  input  logic [   Actions-1:0] mask_i,
  output logic [      ActW-1:0] idx_o,
  output logic [        QW-1:0] val_o
);
  logic [Actions-1:0] m;
  assign m = (mask_i == '0) ? {Actions{1'b1}} : mask_i;

  if (Tree) begin : g_tree
    // Node n of level l covers leaves [n * 2^l, (n + 1) * 2^l); level 0 are the leaves.
    localparam int unsigned Levels = (Actions > 1) ? $clog2(Actions) : 1;
    localparam int unsigned Leaves = 1 << Levels;
    logic [Leaves-1:0] vld[Levels+1];
    logic [QW-1:0] val[Levels+1][Leaves];
    logic [ActW-1:0] idx[Levels+1][Leaves];

    always_comb begin
      for (int unsigned n = 0; n < Leaves; n++) begin
        vld[0][n] = (n < Actions) ? m[n] : 1'b0;
        val[0][n] = (n < Actions) ? row_i[n*QW+:QW] : '0;
        idx[0][n] = ActW'(n);
      end
      for (int unsigned l = 1; l <= Levels; l++) begin
        for (int unsigned n = 0; n < Leaves; n++) begin
          if (n < (Leaves >> l)) begin
            if (vld[l-1][2*n+1] && (!vld[l-1][2*n] ||
                                    ($signed(val[l-1][2*n+1]) > $signed(val[l-1][2*n])))) begin
              val[l][n] = val[l-1][2*n+1];
              idx[l][n] = idx[l-1][2*n+1];
            end else begin
              val[l][n] = val[l-1][2*n];
              idx[l][n] = idx[l-1][2*n];
            end
            vld[l][n] = vld[l-1][2*n] | vld[l-1][2*n+1];
          end else begin
            val[l][n] = '0;
            idx[l][n] = '0;
            vld[l][n] = 1'b0;
          end
        end
      end
      idx_o = vld[Levels][0] ? idx[Levels][0] : '0;
      val_o = vld[Levels][0] ? val[Levels][0] : row_i[QW-1:0];
    end
  end else begin : g_linear
    logic have;
    always_comb begin
      idx_o = '0;
      val_o = row_i[QW-1:0];
      have = 1'b0;
      for (int unsigned i = 0; i < Actions; i++) begin
        if (m[i] && (!have || ($signed(row_i[i*QW+:QW]) > $signed(val_o)))) begin
          idx_o = i[ActW-1:0];
          val_o = row_i[i*QW+:QW];
        end
        have = have | m[i];
      end
    end
  end
endmodule
