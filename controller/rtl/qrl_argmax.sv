// Masked argmax over one q-table row: the largest allowed value, lowest index on ties.
// An all-zero mask means all actions allowed (the caller normalises; kept here for safety).
module qrl_argmax #(
  parameter int unsigned Actions = 4,
  parameter int unsigned QW = 16,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic [Actions*QW-1:0] row_i,
  input  logic [   Actions-1:0] mask_i,
  output logic [      ActW-1:0] idx_o,
  output logic [        QW-1:0] val_o
);
  logic [Actions-1:0] m;
  logic have;

  always_comb begin
    m = (mask_i == '0) ? {Actions{1'b1}} : mask_i;
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
endmodule
