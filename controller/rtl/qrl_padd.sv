// W-bit adder s = a + b + ci (mod 2^W) as a Kogge-Stone parallel-prefix network (Kogge & Stone,
// IEEE Trans. Computers C-22(8), 1973): log2(W) levels of generate/propagate merges instead of a
// carry chain of W cells, so that a standard-cell mapping does not ripple (docs/rl.md "Signoff
// timing": the update's adder). The same function as `a + b + ci`, which is what an FPGA flow
// reads (QRL_FPGA defined): there `+` maps onto the dedicated carry chain (iCE40 SB_CARRY), faster
// than the prefix network in LUTs.
module qrl_padd #(
  parameter int unsigned W = 19
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  input  logic         ci_i,
  output logic [W-1:0] s_o
);
`ifdef QRL_FPGA
  assign s_o = a_i + b_i + W'(ci_i);
`else
  localparam int unsigned L = (W > 1) ? $clog2(W) : 1;
  // after level l, g[i] and p[i] are the generate and propagate of bits i .. max(0, i - 2^l + 1)
  // (the carry-in folded into bit 0's generate); each level runs from the top bit down, so that
  // g[i - 2^l] is still the previous level's when bit i reads it
  logic [W-1:0] g, p, p0;
  assign p0 = a_i ^ b_i;
  always_comb begin
    g = a_i & b_i;
    g[0] = g[0] | (p0[0] & ci_i);
    p = p0;
    for (int unsigned l = 0; l < L; l++) begin
      for (int i = W - 1; i >= (1 << l); i--) begin
        g[i] = g[i] | (p[i] & g[i-(1<<l)]);
        p[i] = p[i] & p[i-(1<<l)];
      end
    end
  end
  // the carry into bit i is the group generate of bits i - 1 .. 0 (with the carry-in)
  logic unused_p;
  assign unused_p = ^p;
  assign s_o = p0 ^ {g[W-2:0], ci_i};
`endif
endmodule
