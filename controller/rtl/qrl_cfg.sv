// The configuration registers of an RL unit (its CSRs), written by the controller at set-up
// through a 32-bit word port and reset to the unit's defaults (Init). Word w is q_o[32w +: 32].
// Every unit's words 0-3 (qrl_pkg::cfg_*): the core's ε schedule and the reward unit's values
//   0: {ε low[15:0], ε high[15:0]} (of 65536)   1: {8'b0, ε-high budget[23:0]} (decisions)
//   2: {v1, v0}   3: {v3, v2} (Q8.8 rewards of the classes below t70, t90, t99, above)
// then the unit's own (its qrl_unit_<unit>.sv). A register bit nothing reads (the greedy and
// frozen cores have no ε logic, the frozen unit no reward unit) is removed by synthesis.
module qrl_cfg #(
  parameter int unsigned Words = 4,
  parameter logic [32*Words-1:0] Init = '0,
  parameter int unsigned AW = qrl_pkg::idx_w(Words)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  we_i,
  input  logic [        AW-1:0] addr_i,
  input  logic [          31:0] wdata_i,
  output logic [32*Words-1:0] q_o
);
  logic [32*Words-1:0] q_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q <= Init;
    end else if (we_i) begin
      for (int unsigned w = 0; w < Words; w++) begin
        if (addr_i == AW'(w)) q_q[32*w+:32] <= wdata_i;
      end
    end
  end
  assign q_o = q_q;
endmodule
