// RAM wrapper: one synchronous read port (registered data, read-first), one write port.
// Every q-table and histogram goes through this module so that synthesis maps it to RAM
// (iCE40 SB_RAM40_4K) and the ASIC cost flow can black-box it and count its bits separately.
// No reset: contents are cleared by the users' clear sequences after reset.
// The write port has Lanes equal lanes (Width / Lanes bits each), written where wmask_i is set
// (iCE40: the SB_RAM40_4K bit mask; an update writes one q value of a row).
module qrl_ram_1r1w #(
  parameter int unsigned Depth = 128,
  parameter int unsigned Width = 16,
  parameter int unsigned Lanes = 1,
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o,
  input  logic             we_i,
  input  logic [Lanes-1:0] wmask_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i
);
  localparam int unsigned LaneW = Width / Lanes;

  logic [Width-1:0] mem_q[Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (wmask_i[l]) mem_q[waddr_i][l*LaneW+:LaneW] <= wdata_i[l*LaneW+:LaneW];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (re_i) begin
      rdata_o <= mem_q[raddr_i];
    end
  end
endmodule
