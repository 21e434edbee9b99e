// The frozen design point of an RL decision unit (qrl_core Mode 2): decisions from a q-table
// loaded through the management port, no update, no exploration, no shadow table, no order bits.
// Bit- and cycle-exact twin of controller/rl/qcore.{h,cpp} with random_ties false and
// scan_decide true (docs/rl.md "Design points").
//
// One RAM of States * Actions q values (Q(s, a) at s * Actions + a). The accept edge registers
// the request's address (s * Actions + a); the RAM's address and the compare's operands are
// registers (fmax). A decision scans the row: one value read per cycle, registered (rd_q), and
// compared two cycles after its read with the best so far (allowed actions only; a later action
// replaces it only when strictly larger, so the lower index wins ties: QCore::argmax). Decide
// Actions + 3 cycles, one at a time (dec_ready_o low while it scans). Management: WRITE one q
// value 4 + Actions cycles (the RAM written in the cycle after the accept; the core then waits as
// the learning core's compare loop does, so that a table load takes the same time at every
// point), READ 3, SEED and COPY 1 (no LFSR, no shadow table: nothing to do). upd_ready_o is low. After reset the table is cleared,
// one q value per cycle (idle_o low meanwhile). The cfg_ inputs, the update inputs, mgt_shadow_i
// and mgt_seed_i are unused (the ports are qrl_core's).
module qrl_frozen #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter int unsigned StW = qrl_pkg::idx_w(States),
  parameter int unsigned ActW = qrl_pkg::idx_w(Actions)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [           15:0] cfg_eps_hi_i,
  input  logic [           15:0] cfg_eps_lo_i,
  input  logic [           23:0] cfg_eps_n_i,
  input  logic [           15:0] cfg_episode_len_i,
  input  logic                   dec_valid_i,
  output logic                   dec_ready_o,
  input  logic [        StW-1:0] dec_state_i,
  input  logic [    Actions-1:0] dec_mask_i,
  output logic                   dec_rsp_valid_o,
  output logic [       ActW-1:0] dec_action_o,
  output logic                   dec_explored_o,
  input  logic                   upd_valid_i,
  output logic                   upd_ready_o,
  input  logic [        StW-1:0] upd_state_i,
  input  logic [       ActW-1:0] upd_action_i,
  input  logic [qrl_pkg::QW-1:0] upd_reward_i,
  input  logic [        StW-1:0] upd_next_state_i,
  input  logic [       ActW-1:0] upd_next_action_i,
  input  logic                   upd_next_max_i,
  input  logic [    Actions-1:0] upd_next_mask_i,
  input  logic                   upd_rwd_ready_i,
  output logic                   upd_done_o,
  input  logic                   mgt_valid_i,
  output logic                   mgt_ready_o,
  input  logic [            1:0] mgt_op_i,
  input  logic [        StW-1:0] mgt_state_i,
  input  logic [       ActW-1:0] mgt_action_i,
  input  logic                   mgt_shadow_i,
  input  logic [qrl_pkg::QW-1:0] mgt_value_i,
  input  logic [           31:0] mgt_seed_i,
  output logic                   mgt_rsp_valid_o,
  output logic [qrl_pkg::QW-1:0] mgt_value_o,
  output logic                   idle_o
);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned QDepth = States * Actions;
  localparam int unsigned QAW = qrl_pkg::idx_w(QDepth);
  localparam int unsigned WaitW = $clog2(Actions + 5);  // counts to a WRITE's Actions + 2
  localparam logic [1:0] OpWrite = 2'd1;
  localparam logic [1:0] OpRead = 2'd2;
  localparam logic [QAW-1:0] LastAddr = QAW'(QDepth - 1);
  localparam logic [WaitW-1:0] LastScan = WaitW'(Actions + 1);
  localparam logic [WaitW-1:0] LastWait = WaitW'(Actions + 2);

  typedef enum logic [2:0] {
    StClear,
    StIdle,
    StScan,  // col_q = k: read column k (k < Actions), compare column k - 2 (k >= 2)
    StWait,  // a WRITE: the RAM written in the first cycle, then the wait
    StRead  // a READ's RAM read
  } state_e;
  state_e st_d, st_q;

  logic busy_q, acc_dec, acc_mgt, rsp_d, rsp_q, m_rsp_d, m_rsp_q;
  logic [QAW-1:0] addr_d, addr_q;  // the clear's address; the next read or the write's address
  logic [WaitW-1:0] col_d, col_q;  // the scan's cycle; a WRITE's wait count
  logic [Actions-1:0] mask_d, mask_q;
  logic [QW-1:0] best_d, best_q, rdata, rd_q, wd_q;  // wd_q: a WRITE's value until its write
  logic [ActW-1:0] idx_d, idx_q, cmp_col;
  logic found_d, found_q;
  logic cmp_d, cmp_q;  // this cycle compares (a scan cycle with col_q >= 2), registered
  logic allow_d, allow_q;  // ... and the compared column is allowed (cmp and the mask's bit 0)
  logic re, we;
  logic [QAW-1:0] row_addr;  // the accepted request's Q(s, a) (a = 0 for a decide)

  assign mgt_ready_o = !busy_q;
  assign dec_ready_o = !busy_q && !mgt_valid_i;
  assign upd_ready_o = 1'b0;
  assign upd_done_o = 1'b0;
  assign acc_mgt = mgt_valid_i && !busy_q;
  assign acc_dec = dec_valid_i && !busy_q && !mgt_valid_i;
  assign row_addr = mgt_valid_i ?
      QAW'(QAW'(mgt_state_i) * QAW'(Actions)) + QAW'(mgt_action_i) :
      QAW'(QAW'(dec_state_i) * QAW'(Actions));

  qrl_ram_1r1w #(.Depth(QDepth), .Width(QW)) u_q (.clk_i, .re_i(re), .raddr_i(addr_q),
      .rdata_o(rdata), .we_i(we), .wmask_i(1'b1), .waddr_i(addr_q),
      .wdata_i((st_q == StClear) ? QW'(0) : wd_q));

  // the scan's compare (fmax: from registers: rd_q, best_q, cmp_q, and the mask shifted right by
  // one per compare, so that its bit 0 is the compared column's): an allowed column replaces the
  // best when none is held yet or when its value is strictly larger (signed)
  logic take;
  assign cmp_col = ActW'(col_q - WaitW'(2));
  assign take = allow_q && (!found_q || ($signed(rd_q) > $signed(best_q)));

  always_comb begin
    st_d = st_q;
    addr_d = addr_q;
    col_d = col_q + 1'b1;
    mask_d = mask_q;
    best_d = best_q;
    idx_d = idx_q;
    found_d = found_q;
    rsp_d = 1'b0;
    m_rsp_d = 1'b0;
    cmp_d = 1'b0;
    allow_d = 1'b0;
    re = 1'b0;
    we = 1'b0;
    unique case (st_q)
      StClear: begin
        we = 1'b1;
        addr_d = addr_q + 1'b1;
        if (addr_q == LastAddr) st_d = StIdle;
      end
      StIdle: begin
        addr_d = row_addr;
        col_d = '0;
        if (acc_mgt && mgt_op_i == OpWrite) begin
          st_d = StWait;
        end else if (acc_mgt && mgt_op_i == OpRead) begin
          st_d = StRead;
        end else if (acc_dec) begin
          mask_d = (dec_mask_i == '0) ? {Actions{1'b1}} : dec_mask_i;
          found_d = 1'b0;
          st_d = StScan;
        end
      end
      StScan: begin
        re = (col_q < WaitW'(Actions));
        addr_d = addr_q + 1'b1;
        cmp_d = (col_q != '0) && (col_q != LastScan);
        if (cmp_q) mask_d = mask_q >> 1;
        allow_d = cmp_d && mask_d[0];
        if (take) begin
          best_d = rd_q;
          idx_d = cmp_col;
          found_d = 1'b1;
        end
        if (col_q == LastScan) begin
          rsp_d = 1'b1;
          st_d = StIdle;
        end
      end
      StWait: begin
        we = (col_q == '0);
        if (col_q == LastWait) st_d = StIdle;
      end
      StRead: begin
        re = 1'b1;
        m_rsp_d = 1'b1;
        st_d = StIdle;
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClear;
      busy_q <= 1'b1;
      addr_q <= '0;
      rsp_q <= 1'b0;
      m_rsp_q <= 1'b0;
      cmp_q <= 1'b0;
      allow_q <= 1'b0;
    end else begin
      st_q <= st_d;
      busy_q <= (st_d != StIdle);
      addr_q <= addr_d;
      rsp_q <= rsp_d;
      m_rsp_q <= m_rsp_d;
      cmp_q <= cmp_d;
      allow_q <= allow_d;
    end
  end

  // no reset (area): loaded at the accept of the operation that reads them (rd_q, col_q: every
  // edge)
  always_ff @(posedge clk_i) begin
    col_q <= col_d;
    mask_q <= mask_d;
    best_q <= best_d;
    idx_q <= idx_d;
    found_q <= found_d;
    rd_q <= rdata;
    if (acc_mgt) wd_q <= mgt_value_i;
  end

  assign dec_rsp_valid_o = rsp_q;
  assign dec_action_o = idx_q;
  assign dec_explored_o = 1'b0;
  assign mgt_rsp_valid_o = m_rsp_q;
  assign mgt_value_o = rdata;
  assign idle_o = (st_q == StIdle) && !m_rsp_q;

  logic unused;
  assign unused = ^{cfg_eps_hi_i, cfg_eps_lo_i, cfg_eps_n_i, cfg_episode_len_i, upd_valid_i,
                    upd_state_i, upd_action_i, upd_reward_i, upd_next_state_i, upd_next_action_i,
                    upd_next_max_i, upd_next_mask_i, upd_rwd_ready_i, mgt_shadow_i, mgt_seed_i};
endmodule
