// The random pick's rank k = (w * n) >> 16 (docs/rl.md "ε-greedy decision"), w the decision's
// 16-bit random word, n the size of the set it picks from (1 .. Actions), in two halves a
// register apart (qrl_decide.sv):
//   kb_o, before the register: the bits of w * o that any k can need, for every odd o <=
//     Actions (qrl_pkg kp_*: n = o * 2^e takes bits [16 - e +: clog2(n)] of w * o); each product
//     from w alone, in parallel with the set's popcount (no multiplier behind it);
//   k_o, after it: the registered bits of n = cnt_i, an AND-OR select (n = 1: k = 0).
module qrl_kprod #(
  parameter int unsigned Actions = 4,
  parameter int unsigned ActW = qrl_pkg::idx_w(Actions),
  parameter int unsigned KbW = qrl_pkg::kp_width(Actions),
  parameter int unsigned CntW = $clog2(Actions + 1)
) (
  input  logic [    15:0] rnd_i,
  output logic [ KbW-1:0] kb_o,
  input  logic [ KbW-1:0] kb_i,   // kb_o registered
  input  logic [CntW-1:0] cnt_i,  // n, registered with it
  output logic [ActW-1:0] k_o
);
  for (genvar o = 1; o <= Actions; o += 2) begin : g_odd
    localparam int unsigned Bits = qrl_pkg::kp_bits(Actions, o);
    localparam int unsigned Lo = 16 - qrl_pkg::kp_emax(Actions, o);
    logic [19:0] prod;
    assign prod = 20'(rnd_i) * 20'(o);
    if (Bits > 0) begin : g_bits
      assign kb_o[qrl_pkg::kp_off(Actions, o)+:Bits] = prod[Lo+:Bits];
    end
    logic unused_prod;
    assign unused_prod = ^prod;
  end
  if (Actions < 2) begin : g_one
    assign kb_o = '0;
  end

  // the term of n = o * 2^e: bits [emax(o) - e +: clog2(n)] of o's field
  logic [(Actions+1)*ActW-1:0] term;
  assign term[2*ActW-1:0] = '0;
  for (genvar n = 2; n <= Actions; n++) begin : g_n
    localparam int unsigned O = qrl_pkg::odd_part(n);
    localparam int unsigned At = qrl_pkg::kp_off(Actions, O) + qrl_pkg::kp_emax(Actions, O) -
                                 $clog2(n / O);
    assign term[n*ActW+:ActW] = ActW'(kb_i[At+:$clog2(n)]) & {ActW{cnt_i == CntW'(n)}};
  end
  always_comb begin
    k_o = '0;
    for (int unsigned n = 2; n <= Actions; n++) k_o = k_o | term[n*ActW+:ActW];
  end
endmodule
