// The q-value and order-bit tables of qrl_core: the active table (decisions) and, with Shadow,
// the shadow table (updates; copied into the active one at an episode's end), each a q-value RAM
// (States * Actions words of QW bits) and an order-bit RAM (States words of 2 * PairW bits, both
// directions of every pair, qrl_winner.sv; written pair by pair through wmask). wq_rdata_o / wo_rdata_o: the tables the updates work on (the shadow
// tables, or the only ones). Without Shadow the shadow ports are unused and read 0.
module qrl_tables #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter int unsigned QW = 16,
  parameter bit Shadow = 1'b0,
  parameter int unsigned StW = (States > 1) ? $clog2(States) : 1,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned PairW = (Actions > 1) ? Actions * (Actions - 1) / 2 : 1,
  parameter int unsigned QDepth = States * Actions,
  parameter int unsigned QAW = (QDepth > 1) ? $clog2(QDepth) : 1
) (
  input  logic             clk_i,
  // a* = active table, s* = shadow table; q = q values, o = order bits
  input  logic             aq_re_i,
  input  logic [  QAW-1:0] aq_raddr_i,
  output logic [   QW-1:0] aq_rdata_o,
  input  logic             aq_we_i,
  input  logic [  QAW-1:0] aq_waddr_i,
  input  logic [   QW-1:0] aq_wdata_i,
  input  logic             sq_re_i,
  input  logic [  QAW-1:0] sq_raddr_i,
  output logic [   QW-1:0] sq_rdata_o,
  input  logic             sq_we_i,
  input  logic [  QAW-1:0] sq_waddr_i,
  input  logic [   QW-1:0] sq_wdata_i,
  input  logic             ao_re_i,
  input  logic [  StW-1:0] ao_raddr_i,
  output logic [2*PairW-1:0] ao_rdata_o,
  input  logic             ao_we_i,
  input  logic [  StW-1:0] ao_waddr_i,
  input  logic [2*PairW-1:0] ao_wdata_i,
  input  logic             so_re_i,
  input  logic [  StW-1:0] so_raddr_i,
  output logic [2*PairW-1:0] so_rdata_o,
  input  logic             so_we_i,
  input  logic [  StW-1:0] so_waddr_i,
  input  logic [2*PairW-1:0] so_wdata_i,
  // the order bits of pair (wm_a_i, wm_j_i) are written alone, the cycle after wm_j_i (the
  // compare loop's column and its write are a cycle apart; wm_a_i holds); wm_all_i: whole rows
  // (clear, copy)
  input  logic             rst_ni,
  input  logic [ ActW-1:0] wm_a_i,
  input  logic [ ActW-1:0] wm_j_i,
  input  logic             wm_all_i,
  // the reset clear: q value 0 at clr_addr_i, order bits all set (all values equal) in row
  // clr_addr_i when clr_row_i (< States); overrides the write ports
  input  logic             clr_i,
  input  logic [  QAW-1:0] clr_addr_i,
  input  logic             clr_row_i,
  output logic [   QW-1:0] wq_rdata_o,
  output logic [2*PairW-1:0] wo_rdata_o
);
  localparam int unsigned OrdW = 2 * PairW;
  // The order bits of pair (a, j) (both halves), written alone (none when j = a): the column j
  // registered (the write is a cycle after the compare), the mask decoded from it and a (which
  // holds during the loop) in the write's cycle.
  logic [ActW-1:0] wm_j_q;
  logic [Actions-1:0] a_hot, j_hot;
  logic [PairW-1:0] o_wmask_pair;
  logic [OrdW-1:0] o_wmask;
  for (genvar i = 0; i < Actions; i++) begin : g_hot
    assign a_hot[i] = (wm_a_i == ActW'(i));
    assign j_hot[i] = (wm_j_q == ActW'(i));
    for (genvar j = i + 1; j < Actions; j++) begin : g_pair
      assign o_wmask_pair[qrl_pkg::pair_idx(Actions, i, j)] = (a_hot[i] & j_hot[j]) |
                                                            (a_hot[j] & j_hot[i]);
    end
  end
  if (Actions < 2) begin : g_no_pair
    assign o_wmask_pair = '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wm_j_q <= '0;
    end else begin
      wm_j_q <= wm_j_i;
    end
  end
  assign o_wmask = wm_all_i ? '1 : {o_wmask_pair, o_wmask_pair};

  logic aq_we, sq_we, ao_we, so_we;
  logic [QAW-1:0] q_waddr, aq_waddr, sq_waddr;
  logic [StW-1:0] o_waddr, ao_waddr, so_waddr;
  logic [QW-1:0] aq_wdata, sq_wdata;
  logic [OrdW-1:0] ao_wdata, so_wdata;
  assign q_waddr = clr_addr_i;
  assign o_waddr = StW'(clr_addr_i);
  assign aq_we = clr_i || aq_we_i;
  assign sq_we = clr_i || sq_we_i;
  assign ao_we = clr_i ? clr_row_i : ao_we_i;
  assign so_we = clr_i ? clr_row_i : so_we_i;
  assign aq_waddr = clr_i ? q_waddr : aq_waddr_i;
  assign sq_waddr = clr_i ? q_waddr : sq_waddr_i;
  assign ao_waddr = clr_i ? o_waddr : ao_waddr_i;
  assign so_waddr = clr_i ? o_waddr : so_waddr_i;
  assign aq_wdata = clr_i ? '0 : aq_wdata_i;
  assign sq_wdata = clr_i ? '0 : sq_wdata_i;
  assign ao_wdata = clr_i ? '1 : ao_wdata_i;
  assign so_wdata = clr_i ? '1 : so_wdata_i;

  qrl_ram_1r1w #(
    .Depth(QDepth),
    .Width(QW),
    .Lanes(1),
    .AddrW(QAW)
  ) u_active_q (
    .clk_i  (clk_i),
    .re_i   (aq_re_i),
    .raddr_i(aq_raddr_i),
    .rdata_o(aq_rdata_o),
    .we_i   (aq_we),
    .wmask_i(1'b1),
    .waddr_i(aq_waddr),
    .wdata_i(aq_wdata)
  );
  qrl_ram_1r1w #(
    .Depth(States),
    .Width(OrdW),
    .Lanes(OrdW),
    .AddrW(StW)
  ) u_active_o (
    .clk_i  (clk_i),
    .re_i   (ao_re_i),
    .raddr_i(ao_raddr_i),
    .rdata_o(ao_rdata_o),
    .we_i   (ao_we),
    .wmask_i(o_wmask),
    .waddr_i(ao_waddr),
    .wdata_i(ao_wdata)
  );

  if (Shadow) begin : g_shadow
    qrl_ram_1r1w #(
      .Depth(QDepth),
      .Width(QW),
      .Lanes(1),
      .AddrW(QAW)
    ) u_shadow_q (
      .clk_i  (clk_i),
      .re_i   (sq_re_i),
      .raddr_i(sq_raddr_i),
      .rdata_o(sq_rdata_o),
      .we_i   (sq_we),
      .wmask_i(1'b1),
      .waddr_i(sq_waddr),
      .wdata_i(sq_wdata)
    );
    qrl_ram_1r1w #(
      .Depth(States),
      .Width(OrdW),
      .Lanes(OrdW),
      .AddrW(StW)
    ) u_shadow_o (
      .clk_i  (clk_i),
      .re_i   (so_re_i),
      .raddr_i(so_raddr_i),
      .rdata_o(so_rdata_o),
      .we_i   (so_we),
      .wmask_i(o_wmask),
      .waddr_i(so_waddr),
      .wdata_i(so_wdata)
    );
    assign wq_rdata_o = sq_rdata_o;
    assign wo_rdata_o = so_rdata_o;
  end else begin : g_no_shadow
    assign sq_rdata_o = '0;
    assign so_rdata_o = '0;
    assign wq_rdata_o = aq_rdata_o;
    assign wo_rdata_o = ao_rdata_o;
    logic unused_sh;
    assign unused_sh = ^{sq_re_i, sq_we, sq_raddr_i, sq_waddr, sq_wdata, so_re_i, so_we,
                         so_raddr_i, so_waddr, so_wdata};
  end
endmodule
