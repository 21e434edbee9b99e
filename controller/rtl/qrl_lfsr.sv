// Exploration random source: 32-bit Galois LFSR, polynomial x^32 + x^22 + x^2 + x + 1
// (right-shifting form, feedback mask 32'h80200003), advanced 32 steps per draw (leap-forward).
// Bit-exact twin of controller/rl/lfsr.h. word_o is the current word; en_i consumes it.
//
// The 32-step leap is one matrix: each output bit the XOR of the state bits its row of the 32-step
// matrix selects (computed at elaboration), a shallow XOR tree instead of 32 chained steps or four
// chained 8-step leaps, which synthesis kept 9-10 LUT levels deep (fmax).
module qrl_lfsr (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        load_i,
  input  logic [31:0] load_val_i,
  output logic [31:0] word_o
);
  localparam logic [31:0] Feedback = 32'h80200003;
  localparam logic [31:0] DefaultSeed = 32'h00000001;
  localparam int unsigned Block = 32;

  // The rows of the Block-step matrix: bit i of row j set when state bit i feeds bit j.
  function automatic logic [32*32-1:0] rows();
    logic [32*32-1:0] r;
    logic [31:0] s;
    r = '0;
    for (int unsigned i = 0; i < 32; i++) begin
      s = 32'h1 << i;
      for (int unsigned t = 0; t < Block; t++) s = {1'b0, s[31:1]} ^ (s[0] ? Feedback : 32'h0);
      for (int unsigned j = 0; j < 32; j++) r[32*j+i] = s[j];
    end
    rows = r;
  endfunction
  localparam logic [32*32-1:0] Rows = rows();

  function automatic logic [31:0] leap_block(input logic [31:0] s);
    logic [31:0] n;
    for (int unsigned j = 0; j < 32; j++) n[j] = ^(s & Rows[32*j+:32]);
    leap_block = n;
  endfunction

  logic [31:0] lfsr_q;
  // the leap inside the enabled branch: the Verilated model computes it only on a draw
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lfsr_q <= DefaultSeed;
    end else if (load_i) begin
      lfsr_q <= (load_val_i == 32'h0) ? DefaultSeed : load_val_i;
    end else if (en_i) begin
      lfsr_q <= leap_block(lfsr_q);
    end
  end

  assign word_o = lfsr_q;
endmodule
