// Formal check (tests/rl/CMakeLists.txt, rtl_padd_equiv_*): the parallel-prefix adder qrl_padd
// equals a + b + ci for every operand and carry-in.
module padd_equiv #(
  parameter int unsigned W = 19
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  input  logic         ci_i,
  output logic         ok_o
);
  logic [W-1:0] s;
  qrl_padd #(.W(W)) u_dut (.a_i, .b_i, .ci_i, .s_o(s));
  assign ok_o = (s == a_i + b_i + W'(ci_i));
endmodule
