// The number of set bits of v_i (N <= 31), as XOR/AND logic rather than a '+': Yosys maps a '+'
// onto the iCE40's carry chain, which ripples, and behind the order-bit RAM the ranks and the
// popcount of the maximum set rippled through it (qrl_decide's random pick; docs/rl.md).
// Counts of 4-bit groups (each bit a function of 4 inputs), summed by XOR/AND logic that the
// LUT mapper restructures; with N = 4m + 1 >= 9 (9 actions) the last bit is the carry-in of the
// second group's sum (no third addition). W bits of the count are returned (W >= clog2(N + 1)).
module qrl_popcnt #(
  parameter int unsigned N = 4,
  parameter int unsigned W = $clog2(N + 1)
) (
  input  logic [N-1:0] v_i,
  output logic [W-1:0] cnt_o
);
  localparam int unsigned PadW = 4 * ((N + 3) / 4);
  localparam bit OneIn = (N >= 9) && (N % 4 == 1);  // the last bit is a carry-in
  localparam int NGroups = N / 4;
  localparam int NBits = N;

  localparam int unsigned GrpW = (NGroups > 0) ? 3 * NGroups : 3;

  logic [PadW-1:0] p;
  always_comb begin
    p = '0;
    p[N-1:0] = v_i;
  end

  // each group's count, a function of its 4 bits: kept as a net of its own (a LUT boundary for
  // the mapper), so the sum below maps onto a shallow tree behind one level of LUTs
  (* keep *) logic [GrpW-1:0] grp;
  for (genvar q = 0; q < NGroups; q++) begin : g_grp
    logic a, b, c, d;
    assign {d, c, b, a} = p[4*q+:4];
    assign grp[3*q+:3] = {a & b & c & d, (a & b) ^ (c & d) ^ ((a ^ b) & (c ^ d)), a ^ b ^ c ^ d};
  end
  if (NGroups == 0) begin : g_no_grp
    assign grp = '0;
  end

  logic [4:0] s;
  always_comb begin
    logic [4:0] g;
    logic cy, cy_n, t;
    s = '0;
    for (int q = 0; q < NGroups; q++) begin
      g = {2'b00, grp[3*q+:3]};
      cy = (q == 1 && OneIn) ? p[N-1] : 1'b0;
      for (int unsigned k = 0; k < 5; k++) begin
        t = s[k] ^ g[k];
        cy_n = (s[k] & g[k]) | (cy & t);
        s[k] = t ^ cy;
        cy = cy_n;
      end
    end
    // the bits after the last group of 4 (unless it was the carry-in), one at a time
    if (!OneIn) begin
      for (int i = NGroups * 4; i < NBits; i++) begin
        cy = p[i];
        for (int unsigned k = 0; k < 5; k++) begin
          t = s[k] ^ cy;
          cy_n = s[k] & cy;
          s[k] = t;
          cy = cy_n;
        end
      end
    end
  end
  assign cnt_o = W'(s);
  if (W < 5) begin : g_unused
    logic unused_s;
    assign unused_s = ^s[4:W];
  end
endmodule
