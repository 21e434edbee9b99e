// Area ablation (bench/rtl_area_ablation.sh; not a design, not in qrl.f): qrl_lfsr without a
// random source. Its word is 0: with ε = 0 the unit never explores, and the tie-break's rank
// k = (0 * n) >> 16 = 0 picks the lowest index of the maximum set, so the decision is a
// deterministic masked argmax and every random-pick structure is removed by synthesis.
module qrl_lfsr (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        load_i,
  input  logic [31:0] load_val_i,
  output logic [31:0] word_o
);
  assign word_o = 32'h0;
  logic unused;
  assign unused = ^{clk_i, rst_ni, en_i, load_i, load_val_i};
endmodule
