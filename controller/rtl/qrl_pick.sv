// Exploration choice among the allowed actions, first half: k = (rnd_i * popcount(mask)) >> 16,
// the rank of the chosen action among the allowed ones (qrl_kth turns it into an index in the
// decision's second cycle). An empty mask_i means all actions (popcount Actions), detected in
// parallel with the popcount.
//
// No multiplier after the popcount: rnd * o for every odd o <= Actions is formed from rnd alone
// (in parallel with the popcount), rnd * n = (rnd * o) << e for n = o * 2^e, and the popcount
// selects k from these products' top bits (the path is popcount + a mux, not popcount + multiply).
module qrl_pick #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic [Actions-1:0] mask_i,
  input  logic [       15:0] rnd_i,
  output logic [   ActW-1:0] k_o,
  // (rnd_i * n) >> 16 for every count n = 1 .. Actions (at n - 1): the exploiting decision's
  // rank in its maximum set (qrl_tie), whose size is known only in the second cycle
  output logic [Actions*ActW-1:0] kn_o
);
  localparam int unsigned CntW = $clog2(Actions + 1);
  localparam int unsigned PW = 16 + CntW;

  logic [CntW-1:0] cnt;
  logic [PW-1:0] prod[Actions+1];  // prod[o] = rnd * o for odd o
  logic [ActW-1:0] kn[Actions+1];  // k for a popcount of n

  for (genvar o = 1; o <= Actions; o += 2) begin : g_odd
    assign prod[o] = PW'(rnd_i) * PW'(o);
  end
  for (genvar o = 0; o <= Actions; o += 2) begin : g_even
    assign prod[o] = '0;
  end

  // n = o * 2^e: k = (rnd * o * 2^e) >> 16 = bits [16 - e +: ActW] of rnd * o
  function automatic int unsigned odd_part(int unsigned n);
    int unsigned m;
    m = n;
    for (int i = 0; i < 8; i++) begin
      if (m % 2 == 0 && m != 0) m = m / 2;
    end
    odd_part = m;
  endfunction
  function automatic int unsigned two_exp(int unsigned n);
    int unsigned m, e;
    m = n;
    e = 0;
    for (int i = 0; i < 8; i++) begin
      if (m % 2 == 0 && m != 0) begin
        m = m / 2;
        e = e + 1;
      end
    end
    two_exp = e;
  endfunction
  assign kn[0] = '0;
  for (genvar n = 1; n <= Actions; n++) begin : g_k
    localparam int unsigned O = odd_part(n);
    localparam int unsigned E = two_exp(n);
    assign kn[n] = prod[O][16-E+:ActW];
    assign kn_o[(n-1)*ActW+:ActW] = kn[n];
  end

  // the popcount as logic, not the carry chain (qrl_popcnt)
  qrl_popcnt #(
    .N(Actions),
    .W(CntW)
  ) u_cnt (
    .v_i  (mask_i),
    .cnt_o(cnt)
  );

  logic empty;
  always_comb begin
    empty = (mask_i == '0);
    // an AND-OR select, not a mux: a mux would let synthesis share one multiplier behind it
    k_o = kn[Actions] & {ActW{empty}};
    for (int unsigned n = 1; n <= Actions; n++) begin
      k_o = k_o | (kn[n] & {ActW{cnt == CntW'(n)}});
    end
  end
endmodule
