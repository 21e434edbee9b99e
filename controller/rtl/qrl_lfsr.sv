// Exploration random source: 32-bit Galois LFSR, polynomial x^32 + x^22 + x^2 + x + 1
// (right-shifting form, feedback mask 32'h80200003), advanced 32 steps per draw (leap-forward).
// Bit-exact twin of controller/rl/lfsr.h. word_o is the current word; en_i consumes it.
//
// The 32-step leap is two chained 16-step matrices: each output bit of a half the XOR of the state
// bits its row of the 16-step matrix selects (computed at elaboration; rows of 1-12 bits, 180
// two-input XORs before sharing against 473 for one 32-step matrix with rows of up to 21 bits).
// Two 16-step halves, ~2 LUT levels each: one 32-step matrix is larger, and four chained 8-step
// leaps were kept 9-10 LUT levels deep by synthesis (fmax).
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
  localparam int unsigned Block = 16;  // steps per matrix; two per draw

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
      lfsr_q <= leap_block(leap_block(lfsr_q));
    end
  end

  assign word_o = lfsr_q;
endmodule
