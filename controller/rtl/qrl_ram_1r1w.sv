// RAM wrapper: one synchronous read port (registered data, read-first), one write port.
// Every q-table and histogram goes through this module so that synthesis maps it to RAM
// (iCE40 SB_RAM40_4K) and the ASIC cost flow can black-box it and count its bits separately.
// No reset: contents are cleared by the users' clear sequences after reset. A read and a write of
// the same address in one cycle never happen (a simulation check stops the model if they do).
// The write port has Lanes equal lanes (Width / Lanes bits each), written where wmask_i is set
// (iCE40: the SB_RAM40_4K bit mask; an update writes one q value of a row).
module qrl_ram_1r1w #(
  parameter int unsigned Depth = 128,
  parameter int unsigned Width = 16,
  parameter int unsigned Lanes = 1,
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic clk_i,
  // read port: enable, address; the data registered
  input  logic re_i, input logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o,
  // write port: enable, lane mask, address, data
  input  logic we_i, input logic [Lanes-1:0] wmask_i,
  input  logic [AddrW-1:0] waddr_i, input logic [Width-1:0] wdata_i
);
  localparam int unsigned LaneW = Width / Lanes;

  // no_rw_check: the units never read and write one address in the same cycle (checked in
  // simulation below), so synthesis adds no read-during-write bypass (iCE40: a comparator of
  // the two addresses and a register on the read data, which were on fsp's and gc's worst path)
  (* no_rw_check *) logic [Width-1:0] mem_q[Depth];

`ifdef VERILATOR
  // The co-simulation's model of the masked write: one word operation per write (Verilator turns
  // the lane loop below into a delayed assignment per lane, the largest part of a 9-action unit's
  // clock edge). The same function as the loop: lane l's bits written where wmask_i[l] is set.
  logic [Width-1:0] bit_mask;
  for (genvar l = 0; l < Lanes; l++) begin : g_bit_mask
    assign bit_mask[l*LaneW+:LaneW] = {LaneW{wmask_i[l]}};
  end
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= (mem_q[waddr_i] & ~bit_mask) | (wdata_i & bit_mask);
  end
`else
  // synthesis: the lane loop, which Yosys maps onto the RAM's bit-write mask (SB_RAM40_4K MASK)
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (wmask_i[l]) mem_q[waddr_i][l*LaneW+:LaneW] <= wdata_i[l*LaneW+:LaneW];
      end
    end
  end
`endif

  always_ff @(posedge clk_i) begin
    if (re_i) begin
      rdata_o <= mem_q[raddr_i];
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (re_i && we_i && (raddr_i == waddr_i) && (wmask_i != '0)) begin
      // $display + $stop, not $fatal: Verilator 5.006 gives $fatal a VerilatedScope per
      // instance, and a model with scopes deadlocks in its destructor once another model's
      // VerilatedContext is gone (RlCosim.TraceOnlyForSelectedUnits)
      $display("qrl_ram_1r1w: a read and a write of one address in one cycle");
      $stop;
    end
  end
`endif
endmodule
