// Exploration random source: 32-bit Galois LFSR, polynomial x^32 + x^22 + x^2 + x + 1
// (right-shifting form, feedback mask 32'h80200003), advanced 32 steps per draw (leap-forward).
// Bit-exact twin of controller/rl/lfsr.h. word_o is the current word; en_i consumes it.
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

  logic [31:0] lfsr_d, lfsr_q, leap;

  always_comb begin
    leap = lfsr_q;
    for (int i = 0; i < 32; i++) begin
      leap = {1'b0, leap[31:1]} ^ (leap[0] ? Feedback : 32'h0);
    end
  end

  always_comb begin
    lfsr_d = lfsr_q;
    if (load_i) begin
      lfsr_d = (load_val_i == 32'h0) ? DefaultSeed : load_val_i;
    end else if (en_i) begin
      lfsr_d = leap;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lfsr_q <= DefaultSeed;
    end else begin
      lfsr_q <= lfsr_d;
    end
  end

  assign word_o = lfsr_q;
endmodule
