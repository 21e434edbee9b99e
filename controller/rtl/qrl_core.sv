// Tabular Q-learning core: q-table(s) behind qrl_ram_1r1w, LFSR exploration, masked argmax,
// fixed-point update, optional shadow table with episode copy. Bit- and cycle-exact twin of
// controller/rl/qcore.{h,cpp}; timing and semantics in docs/rl.md.
//
// One operation is accepted per clock edge (priority: management > update > decide); every port
// uses a valid/ready handshake on the request side and a one-cycle response pulse:
//   decide : accepted at edge X (RAM read), result at edge X+1           -> 2 cycles, pipelined
//            (a new decide can be accepted at X+1: one decision per cycle)
//            an episode-closing decide then copies shadow -> active: + States cycles
//   update : X reads Q(s', .), X+1 reads Q(s, .), X+2 writes Q(s, a)       -> 3 cycles
//   mgmt   : COPY States+1 (1 without shadow), WRITE 1, SEED 1 cycles; READ: row valid with
//            mgt_rsp_valid_o in the cycle after the accept edge (2 cycles until idle)
// After reset the tables are cleared, one row per cycle (idle_o low meanwhile).
module qrl_core #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter int unsigned QW = 16,
  parameter int unsigned KF = 8,
  parameter int unsigned Alpha = 77,
  parameter int unsigned Gamma = 205,
  parameter bit Shadow = 1'b0,
  parameter bit TreeArgmax = 1'b1,  // argmax as a tournament tree (1) or a linear scan (0)
  // Q(s, a) for the update: through the argmax with mask {a} (0, smaller) or a row mux (1,
  // a shorter RAM -> update -> RAM path: higher fmax)
  parameter bit QSelMux = 1'b1,
  parameter int unsigned StW = (States > 1) ? $clog2(States) : 1,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned RowW = Actions * QW
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // configuration (quasi-static)
  input  logic [      15:0] cfg_eps_hi_i,
  input  logic [      15:0] cfg_eps_lo_i,
  input  logic [      23:0] cfg_eps_n_i,
  input  logic [      15:0] cfg_episode_len_i,
  // decide
  input  logic              dec_valid_i,
  output logic              dec_ready_o,
  input  logic [   StW-1:0] dec_state_i,
  input  logic [Actions-1:0] dec_mask_i,
  output logic              dec_rsp_valid_o,
  output logic [  ActW-1:0] dec_action_o,
  output logic              dec_explored_o,
  // update
  input  logic              upd_valid_i,
  output logic              upd_ready_o,
  input  logic [   StW-1:0] upd_state_i,
  input  logic [  ActW-1:0] upd_action_i,
  input  logic [    QW-1:0] upd_reward_i,
  input  logic [   StW-1:0] upd_next_state_i,
  input  logic [  ActW-1:0] upd_next_action_i,
  input  logic              upd_next_max_i,
  input  logic [Actions-1:0] upd_next_mask_i,
  output logic              upd_done_o,
  // management: 0 COPY shadow->active, 1 WRITE row (both tables), 2 READ row, 3 SEED
  input  logic              mgt_valid_i,
  output logic              mgt_ready_o,
  input  logic [       1:0] mgt_op_i,
  input  logic [   StW-1:0] mgt_state_i,
  input  logic              mgt_shadow_i,
  input  logic [  RowW-1:0] mgt_row_i,
  input  logic [      31:0] mgt_seed_i,
  output logic              mgt_rsp_valid_o,
  output logic [  RowW-1:0] mgt_row_o,
  output logic              idle_o
);
  localparam logic [1:0] OpCopy = 2'd0;
  localparam logic [1:0] OpWrite = 2'd1;
  localparam logic [1:0] OpRead = 2'd2;
  localparam logic [1:0] OpSeed = 2'd3;
  localparam logic [StW-1:0] LastState = StW'(States - 1);
  localparam int unsigned CntW = StW + 1;
  localparam logic [CntW-1:0] StatesCnt = CntW'(States);

  typedef enum logic [2:0] {
    StClear,
    StIdle,
    StUpdRdS,
    StUpdWr,
    StCopy
  } state_e;

  state_e st_d, st_q;

  // ---------------------------------------------------------------- arbitration
  logic busy, acc_mgt, acc_upd, acc_dec;
  logic copy_pend_d, copy_pend_q;
  assign busy = (st_q != StIdle) || copy_pend_q;
  assign mgt_ready_o = !busy;
  assign upd_ready_o = !busy && !mgt_valid_i;
  assign dec_ready_o = !busy && !mgt_valid_i && !upd_valid_i;
  assign acc_mgt = mgt_valid_i && mgt_ready_o;
  assign acc_upd = upd_valid_i && upd_ready_o;
  assign acc_dec = dec_valid_i && dec_ready_o;

  // ---------------------------------------------------------------- RAMs
  logic act_re, act_we, sh_re, sh_we;
  logic [Actions-1:0] wmask;  // lanes written: all, or the updated action's
  logic [StW-1:0] act_raddr, act_waddr, sh_raddr, sh_waddr;
  logic [RowW-1:0] act_rdata, act_wdata, sh_rdata, sh_wdata;

  qrl_ram_1r1w #(
    .Depth(States),
    .Width(RowW),
    .Lanes(Actions),
    .AddrW(StW)
  ) u_active (
    .clk_i  (clk_i),
    .re_i   (act_re),
    .raddr_i(act_raddr),
    .rdata_o(act_rdata),
    .we_i   (act_we),
    .wmask_i(wmask),
    .waddr_i(act_waddr),
    .wdata_i(act_wdata)
  );

  // The table the updates work on: the shadow table, or the only table.
  logic [RowW-1:0] upd_rdata;
  if (Shadow) begin : g_shadow
    qrl_ram_1r1w #(
      .Depth(States),
      .Width(RowW),
      .Lanes(Actions),
      .AddrW(StW)
    ) u_shadow (
      .clk_i  (clk_i),
      .re_i   (sh_re),
      .raddr_i(sh_raddr),
      .rdata_o(sh_rdata),
      .we_i   (sh_we),
      .wmask_i(wmask),
      .waddr_i(sh_waddr),
      .wdata_i(sh_wdata)
    );
    assign upd_rdata = sh_rdata;
  end else begin : g_no_shadow
    assign sh_rdata = '0;
    assign upd_rdata = act_rdata;
    logic unused_sh;
    assign unused_sh = ^{sh_re, sh_we, sh_raddr, sh_waddr, sh_wdata};
  end

  // ---------------------------------------------------------------- counters, LFSR
  logic [23:0] dec_cnt_d, dec_cnt_q;
  logic [15:0] ep_cnt_d, ep_cnt_q;
  // Row counter of the reset clear and the episode copy; during an update, the state s.
  logic [CntW-1:0] cnt_d, cnt_q;
  logic [StW-1:0] u_s;
  logic [31:0] lfsr_word;

  qrl_lfsr u_lfsr (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .en_i      (d1_valid_q),
    .load_i    (acc_mgt && (mgt_op_i == OpSeed)),
    .load_val_i(mgt_seed_i),
    .word_o    (lfsr_word)
  );

  // ---------------------------------------------------------------- decide pipeline
  // Stage 2 uses the LFSR word and the decision counter as they are, and advances both at its
  // end; a decide accepted at the same edge sees the advanced values (one decision per cycle).
  logic d1_valid_q;
  // The decide's mask (empty -> all) in its second stage, the update's Q' mask in StUpdRdS.
  logic [Actions-1:0] mask_q;
  logic eps_high;
  logic [ActW-1:0] greedy_idx, pick_idx;
  logic [QW-1:0] best_val;
  logic [RowW-1:0] amax_row;
  logic [Actions-1:0] amax_mask;
  logic rsp_valid_q, rsp_explored_q;
  logic [ActW-1:0] rsp_action_q;
  logic d1_explore;

  // Update registers
  logic [ActW-1:0] u_a_q;
  // The update's reward r from its accept, then r * 2^KF + Gamma * Q' (qrl_qupdate's p).
  localparam int unsigned PW = QW + KF + 1;
  logic [PW-1:0] p_q, p_d;
  logic [QW-1:0] q_new;
  // Q' = the argmax of row s' under this mask: the allowed actions (Q-learning) or a' alone.
  logic [Actions-1:0] u_a_hot, upd_next_hot;

  // Management read: the row is the RAM's registered output in the cycle after the accept edge.
  logic m1_valid_q, m1_shadow_q;

  // The argmax serves the decide stage (active table) and both update read stages: Q' from row
  // s' (allowed actions, or a' alone) and Q(s, a) from row s (a alone), so no row selects.
  always_comb begin
    for (int unsigned i = 0; i < Actions; i++) begin
      u_a_hot[i] = (u_a_q == ActW'(i));
      upd_next_hot[i] = (upd_next_action_i == ActW'(i));
    end
  end
  assign amax_row = (st_q == StUpdRdS || st_q == StUpdWr) ? upd_rdata : act_rdata;
  assign amax_mask = (st_q == StUpdWr) ? u_a_hot : mask_q;
  assign u_s = cnt_q[StW-1:0];

  qrl_argmax #(
    .Actions(Actions),
    .QW     (QW),
    .Tree   (TreeArgmax),
    .ActW   (ActW)
  ) u_argmax (
    .row_i (amax_row),
    .mask_i(amax_mask),
    .idx_o (greedy_idx),
    .val_o (best_val)
  );

  qrl_pick #(
    .Actions(Actions),
    .ActW   (ActW)
  ) u_pick (
    .mask_i(mask_q),
    .rnd_i (lfsr_word[15:0]),
    .idx_o (pick_idx)
  );

  assign eps_high = dec_cnt_q < cfg_eps_n_i;
  assign d1_explore = lfsr_word[31:16] < (eps_high ? cfg_eps_hi_i : cfg_eps_lo_i);

  qrl_qupdate #(
    .QW   (QW),
    .KF   (KF),
    .Alpha(Alpha),
    .Gamma(Gamma),
    .PW   (PW)
  ) u_qupdate (
    .r_i (p_q[QW-1:0]),
    .qn_i(best_val),
    .p_o (p_d),
    .q_i (q_old),
    .p_i (p_q),
    .q_o (q_new)
  );


  logic [QW-1:0] q_old;
  if (QSelMux) begin : g_qsel_mux
    always_comb begin
      q_old = '0;
      for (int unsigned i = 0; i < Actions; i++) begin
        if (u_a_q == ActW'(i)) q_old = upd_rdata[i*QW+:QW];
      end
    end
  end else begin : g_qsel_argmax
    assign q_old = best_val;
  end

  // ---------------------------------------------------------------- control
  logic ep_close;
  assign ep_close = Shadow && (cfg_episode_len_i != 16'h0) && (ep_cnt_q + 16'h1 == cfg_episode_len_i);

  always_comb begin
    st_d = st_q;
    cnt_d = cnt_q;
    copy_pend_d = copy_pend_q;
    dec_cnt_d = (d1_valid_q && eps_high) ? dec_cnt_q + 24'h1 : dec_cnt_q;
    ep_cnt_d = ep_cnt_q;
    wmask = '1;
    act_re = 1'b0;
    act_raddr = dec_state_i;
    act_we = 1'b0;
    act_waddr = mgt_state_i;
    act_wdata = mgt_row_i;
    sh_re = 1'b0;
    sh_raddr = upd_next_state_i;
    sh_we = 1'b0;
    sh_waddr = mgt_state_i;
    sh_wdata = mgt_row_i;

    unique case (st_q)
      StClear: begin
        act_we = 1'b1;
        act_waddr = cnt_q[StW-1:0];
        act_wdata = '0;
        sh_we = Shadow;
        sh_waddr = cnt_q[StW-1:0];
        sh_wdata = '0;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q[StW-1:0] == LastState) begin
          st_d = StIdle;
          cnt_d = '0;
        end
      end
      StIdle: begin
        if (copy_pend_q) begin
          // First step of the episode copy requested by the previous decide.
          copy_pend_d = 1'b0;
          sh_re = 1'b1;
          sh_raddr = '0;
          cnt_d = CntW'(1);
          st_d = StCopy;
        end else if (acc_mgt) begin
          unique case (mgt_op_i)
            OpCopy: begin
              ep_cnt_d = '0;
              if (Shadow) begin
                sh_re = 1'b1;
                sh_raddr = '0;
                cnt_d = CntW'(1);
                st_d = StCopy;
              end
            end
            OpWrite: begin
              act_we = 1'b1;
              sh_we = Shadow;
            end
            OpRead: begin
              if (Shadow && mgt_shadow_i) begin
                sh_re = 1'b1;
                sh_raddr = mgt_state_i;
              end else begin
                act_re = 1'b1;
                act_raddr = mgt_state_i;
              end
            end
            default: begin  // OpSeed
              dec_cnt_d = '0;
              ep_cnt_d = '0;
            end
          endcase
        end else if (acc_upd) begin
          cnt_d = CntW'(upd_state_i);
          if (Shadow) begin
            sh_re = 1'b1;
            sh_raddr = upd_next_state_i;
          end else begin
            act_re = 1'b1;
            act_raddr = upd_next_state_i;
          end
          st_d = StUpdRdS;
        end else if (acc_dec) begin
          act_re = 1'b1;
          act_raddr = dec_state_i;
          if (Shadow && (cfg_episode_len_i != 16'h0)) begin
            if (ep_close) begin
              ep_cnt_d = '0;
              copy_pend_d = 1'b1;
            end else begin
              ep_cnt_d = ep_cnt_q + 16'h1;
            end
          end
        end
      end
      StUpdRdS: begin
        if (Shadow) begin
          sh_re = 1'b1;
          sh_raddr = u_s;
        end else begin
          act_re = 1'b1;
          act_raddr = u_s;
        end
        st_d = StUpdWr;
      end
      StUpdWr: begin
        wmask = u_a_hot;
        if (Shadow) begin
          sh_we = 1'b1;
          sh_waddr = u_s;
          sh_wdata = {Actions{q_new}};
        end else begin
          act_we = 1'b1;
          act_waddr = u_s;
          act_wdata = {Actions{q_new}};
        end
        st_d = StIdle;
      end
      StCopy: begin
        // Read shadow row cnt (while cnt < States), write active row cnt-1.
        if (cnt_q < StatesCnt) begin
          sh_re = 1'b1;
          sh_raddr = cnt_q[StW-1:0];
        end
        act_we = 1'b1;
        act_waddr = StW'(cnt_q - 1'b1);
        act_wdata = sh_rdata;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == StatesCnt) begin
          st_d = StIdle;
          cnt_d = '0;
        end
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClear;
      cnt_q <= '0;
      copy_pend_q <= 1'b0;
      dec_cnt_q <= '0;
      ep_cnt_q <= '0;
      d1_valid_q <= 1'b0;
      mask_q <= '0;
      rsp_valid_q <= 1'b0;
      rsp_explored_q <= 1'b0;
      rsp_action_q <= '0;
      u_a_q <= '0;
      p_q <= '0;
      m1_valid_q <= 1'b0;
      m1_shadow_q <= 1'b0;
    end else begin
      st_q <= st_d;
      cnt_q <= cnt_d;
      copy_pend_q <= copy_pend_d;
      dec_cnt_q <= dec_cnt_d;
      ep_cnt_q <= ep_cnt_d;
      // decide: stage 1 registers the request, stage 2 the result
      d1_valid_q <= acc_dec;
      if (acc_dec) begin
        mask_q <= (dec_mask_i == '0) ? {Actions{1'b1}} : dec_mask_i;
      end
      rsp_valid_q <= d1_valid_q;
      if (d1_valid_q) begin
        rsp_explored_q <= d1_explore;
        rsp_action_q <= d1_explore ? pick_idx : greedy_idx;
      end
      // update
      if (acc_upd) begin
        u_a_q <= upd_action_i;
        p_q <= PW'(upd_reward_i);
        mask_q <= upd_next_max_i ? upd_next_mask_i : upd_next_hot;
      end
      if (st_q == StUpdRdS) begin
        p_q <= p_d;
      end
      // management read
      m1_valid_q <= acc_mgt && (mgt_op_i == OpRead);
      if (acc_mgt) begin
        m1_shadow_q <= Shadow && mgt_shadow_i;
      end
    end
  end

  logic upd_done_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      upd_done_q <= 1'b0;
    end else begin
      upd_done_q <= (st_q == StUpdWr);
    end
  end

  assign dec_rsp_valid_o = rsp_valid_q;
  assign dec_action_o = rsp_action_q;
  assign dec_explored_o = rsp_explored_q;
  assign upd_done_o = upd_done_q;
  assign mgt_rsp_valid_o = m1_valid_q;
  assign mgt_row_o = m1_shadow_q ? sh_rdata : act_rdata;
  assign idle_o = (st_q == StIdle) && !copy_pend_q && !d1_valid_q && !m1_valid_q;
endmodule
