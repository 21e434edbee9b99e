// The compare datapath of a frozen qrl_core (Mode 2), in place of qrl_qadd: no update, so no
// shift-and-add, no d register, no saturation; a management write's value is held (val_o, the
// value written into Q(s, a)) and compared with the row's other values for the order bits, as
// qrl_qadd's loop phase does: val - Q(s, j) - 1 + cin, cin = j_above_a_i (j > a: a wins ties),
// the sign XOR j_above_a_i the pair's low bit, its complement or equality the high bit, both
// registered ({high, low}, one cycle after the compare, as qrl_qadd's ord_q_o).
module qrl_qcmp (
  input  logic                   clk_i,
  input  logic                   ld_i,          // val <= in_val_i
  input  logic [qrl_pkg::QW-1:0] in_val_i,
  input  logic                   j_above_a_i,
  input  logic [qrl_pkg::QW-1:0] wq_rdata_i,    // the table's RAM output
  output logic [qrl_pkg::QW-1:0] val_o,
  output logic [            1:0] ord_q_o
);
  localparam int unsigned QW = qrl_pkg::QW;
  logic [QW-1:0] val_q, wq_q;  // wq_q: the read-data register, loaded every cycle
  logic [QW:0] diff;
  logic o_bit, o_hi;
  assign diff = {val_q[QW-1], val_q} + ~{wq_q[QW-1], wq_q} + (QW + 1)'(j_above_a_i);
  assign o_bit = diff[QW] ^ j_above_a_i;
  assign o_hi = ~o_bit | (val_q == wq_q);

  // no reset (area): val_q is loaded at the write's accept, the others at every edge; all are
  // read only in the write's compare loop
  always_ff @(posedge clk_i) begin
    if (ld_i) val_q <= in_val_i;
    wq_q <= wq_rdata_i;
    ord_q_o <= {o_hi, o_bit};
  end

  assign val_o = val_q;
endmodule
