// Tabular Q-learning core: q-table(s) in RAM, order bits, LFSR exploration, serial fixed-point
// update, optional shadow table with episode copy. Bit- and cycle-exact twin of
// controller/rl/qcore.{h,cpp}; timing and semantics in docs/rl.md.
//
// Storage per table: the q values in a RAM of States * Actions words of QW bits (Q(s, a) at
// s * Actions + a), and the order bits of every row (qrl_winner.sv: ge(i, j) for every ordered
// pair) in a RAM of States words of Actions * (Actions - 1) bits, written pair by pair. A
// decision reads only the order bits; an update reads single q values, computes the new Q(s, a)
// with one adder over several cycles, and refreshes the order bits of action a by comparing the
// new value with the row's other values.
//
// One operation is accepted per clock edge (priority: management > update > decide), valid/ready
// requests, one-cycle response pulses. Cycles (docs/rl.md "Handshake timing", the C++ model's
// QCore::*_cycles): decide 2 (one per cycle; + States * Actions when it closes an episode: the
// shadow -> active copy), update 7 + NSteps + Actions, management COPY States * Actions + 1 (1
// without shadow), WRITE of one q value 4 + Actions, READ 3, SEED 1. The adder's q operands come
// from a read-data register (qrl_qadd; fmax: a deep RAM's bank select and the adder in different
// cycles). After reset the tables are cleared, one q value per cycle (idle_o low meanwhile).
// cfg_eps_n_i is sampled during that clear and at SEED; the other cfg_ inputs are read live.
// Submodules: qrl_tables (RAMs), qrl_decide (ε-greedy, random tie-break; its qrl_winner: maximum
// set, argmax), qrl_qadd (update), qrl_qaddr (q address, clear/copy address tests).
module qrl_core #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter int unsigned QW = 16,
  parameter int unsigned KF = 8,
  parameter int unsigned Alpha = 77,
  parameter int unsigned Gamma = 205,
  parameter bit Shadow = 1'b0,
  parameter int unsigned StW = (States > 1) ? $clog2(States) : 1,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // configuration (quasi-static)
  input  logic [       15:0] cfg_eps_hi_i,
  input  logic [       15:0] cfg_eps_lo_i,
  input  logic [       23:0] cfg_eps_n_i,
  input  logic [       15:0] cfg_episode_len_i,
  // decide
  input  logic               dec_valid_i,
  output logic               dec_ready_o,
  input  logic [    StW-1:0] dec_state_i,
  input  logic [Actions-1:0] dec_mask_i,
  output logic               dec_rsp_valid_o,
  output logic [   ActW-1:0] dec_action_o,
  output logic               dec_explored_o,
  // update
  input  logic               upd_valid_i,
  output logic               upd_ready_o,
  input  logic [    StW-1:0] upd_state_i,
  input  logic [   ActW-1:0] upd_action_i,
  input  logic [     QW-1:0] upd_reward_i,
  input  logic [    StW-1:0] upd_next_state_i,
  input  logic [   ActW-1:0] upd_next_action_i,
  input  logic               upd_next_max_i,
  input  logic [Actions-1:0] upd_next_mask_i,
  input  logic               upd_rwd_ready_i,  // 0: drop the update (warm-up), done next edge
  output logic               upd_done_o,
  // management: 0 COPY shadow->active, 1 WRITE Q(s, a) (both tables), 2 READ Q(s, a), 3 SEED
  input  logic               mgt_valid_i,
  output logic               mgt_ready_o,
  input  logic [        1:0] mgt_op_i,
  input  logic [    StW-1:0] mgt_state_i,
  input  logic [   ActW-1:0] mgt_action_i,
  input  logic               mgt_shadow_i,
  input  logic [     QW-1:0] mgt_value_i,
  input  logic [       31:0] mgt_seed_i,
  output logic               mgt_rsp_valid_o,
  output logic [     QW-1:0] mgt_value_o,
  output logic               idle_o
);
  localparam logic [1:0] OpCopy = 2'd0;
  localparam logic [1:0] OpWrite = 2'd1;
  localparam logic [1:0] OpRead = 2'd2;
  localparam logic [1:0] OpSeed = 2'd3;
  localparam int unsigned PairW = (Actions > 1) ? Actions * (Actions - 1) / 2 : 1;
  localparam int unsigned OrdW = 2 * PairW;  // an order-bit row: both halves (qrl_winner.sv)
  localparam int unsigned QDepth = States * Actions;
  localparam int unsigned QAW = (QDepth > 1) ? $clog2(QDepth) : 1;
  // The update's shift-and-add: acc = floor((Alpha 2^KF (r - q) + Alpha Gamma Q' + 2^(2KF-1))
  // / 2^2KF), one bit position of the two constants per step (LSB first, shifting right).
  localparam int unsigned CD = Alpha << KF;  // coefficient of d = r - q
  localparam int unsigned CN = Alpha * Gamma;  // coefficient of Q'
  localparam int unsigned NSteps = n_steps();
  localparam int unsigned CntA = ($clog2(QDepth + 1) > StW) ? $clog2(QDepth + 1) : StW;
  localparam int unsigned CntW = ((CntA > $clog2(NSteps + 1)) ? CntA : $clog2(NSteps + 1)) + 1;
  // the step index is below 2^StepW during the shift-and-add (only its low bits are decoded)
  localparam int unsigned StepW = (NSteps > 1) ? $clog2(NSteps) : 1;
  localparam logic [StepW-1:0] LastStep = StepW'(NSteps - 1);
  localparam logic [StepW-1:0] PreLastStep = StepW'(NSteps - 2);  // NSteps >= 2
  // The compare loop's counter runs 2 .. Actions + 2 (reads column cnt, compares column cnt - 2)
  localparam logic [ActW:0] LastAct = (ActW + 1)'(Actions + 2);

  // Steps (qrl_qadd.sv): for each bit position p = 0 .. 2KF-1 of the constants, one step per set
  // bit, or one empty step.
  function automatic int unsigned n_steps();
    int unsigned n, t;
    n = 0;
    for (int unsigned p = 0; p < 2 * KF; p++) begin
      t = ((CD >> p) & 1) + ((CN >> p) & 1);
      n = n + ((t == 0) ? 1 : t);
    end
    n_steps = n;
  endfunction

  typedef enum logic [3:0] {
    StClear,
    StIdle,
    StUpdRdQ,  // read Q(s, a); a* = the winner of row s' under the mask (into k_q)
    StUpdRdN,  // read Q(s', a*)
    StUpdD,  // d = r - Q(s, a)
    StUpdAcc,  // NSteps shift-and-add steps; the last but one reads Q(s, a) again
    StUpdFin,  // Q(s, a) + acc; read Q(s, 0)
    StWrRd,  // management write: read Q(s, 0)
    StLoopRd,  // saturate acc (the new value); read Q(s, 1)
    StLoop,  // compare with Q(s, j), write the order bit of (a, j); the last writes Q(s, a)
    StRead,
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
  // a* = active table, s* = shadow table; q = q values, o = order bits
  logic aq_re, aq_we, sq_re, sq_we, ao_re, ao_we, so_re, so_we;
  logic [QAW-1:0] aq_raddr, aq_waddr, sq_raddr, sq_waddr;
  logic [QW-1:0] aq_rdata, aq_wdata, sq_rdata, sq_wdata;
  logic [StW-1:0] ao_raddr, ao_waddr, so_raddr, so_waddr;
  logic [OrdW-1:0] ao_rdata, ao_wdata, so_rdata, so_wdata;

  // The tables the updates work on (w*): the shadow tables, or the only ones.
  logic [QW-1:0] wq_rdata;
  logic [OrdW-1:0] wo_rdata;

  // ---------------------------------------------------------------- counters
  logic seed_clr;
  // Row / address counter of the clear and the copy; s' at an update's accept; the step of the
  // shift-and-add; the column j of the compare loop.
  logic [CntW-1:0] cnt_d, cnt_q;

  // ---------------------------------------------------------------- decide
  // qrl_decide: the accept cycle (LFSR draw, ε test, exploration rank, the mask into mask_q) and
  // the second (a random member of the maximum set of the order bits under the mask, or the k-th
  // allowed action). Its winner (qrl_winner) also gives the update's a*: the order bits of the
  // active table (decide) or of the work table (update, in StUpdRdQ).
  logic d1_valid;
  logic [Actions-1:0] mask_q, mask_d, dec_mask_n, upd_mask_n, upd_next_hot;
  logic [ActW-1:0] win_idx;

  assign upd_next_hot = Actions'(1) << upd_next_action_i;
  assign upd_mask_n = (upd_next_mask_i == '0) ? {Actions{1'b1}} : upd_next_mask_i;

  qrl_decide #(
    .Actions(Actions),
    .Shadow (Shadow),
    .ActW   (ActW),
    .PairW  (PairW)
  ) u_decide (
    .clk_i,
    .rst_ni,
    .cfg_eps_hi_i,
    .cfg_eps_lo_i,
    .cfg_eps_n_i,
    .cfg_episode_len_i,
    .ep_clr_i      (acc_mgt && (mgt_op_i == OpCopy || mgt_op_i == OpSeed)),
    .ep_end_o      (ep_end),
    .acc_i         (acc_dec),
    .eps_load_i    (seed_clr || st_q == StClear),
    .seed_i        (acc_mgt && (mgt_op_i == OpSeed)),
    .seed_val_i    (mgt_seed_i),
    .mask_i        (dec_mask_i),
    .mask_n_o      (dec_mask_n),
    .mask_q_i      (mask_q),
    .order_i       (ao_rdata),
    .work_order_i  (wo_rdata),
    .use_work_i    (Shadow && (st_q == StUpdRdQ)),
    .win_idx_o     (win_idx),
    .busy_o        (d1_valid),
    .rsp_valid_o   (dec_rsp_valid_o),
    .rsp_action_o  (dec_action_o),
    .rsp_explored_o(dec_explored_o)
  );

  // ---------------------------------------------------------------- update datapath
  logic [StW-1:0] u_s_q, u_s_d;
  logic [ActW-1:0] u_a_q, u_a_d;
  logic acc_ld, acc_clr, d_ld;
  logic wboth_q, wboth_d;  // the loop serves a management write (both tables), not an update
  logic [QW-1:0] acc_val;

  // j > a: the pair is (a, j) and a wins on ties (q_new >= Q(s, j), carry-in 1); j < a: the pair
  // is (j, a) and j wins on ties (Q(s, j) >= q_new, i.e. q_new - Q(s, j) - 1 < 0). j_above_a is a
  // flag set in the loop once j has passed a (no comparator in front of the adder).
  // o_hi_q / ao_hi_q: the pair's other bit, Q(s, j) >= q_new for j > a, q_new >= Q(s, j) for
  // j < a (qrl_qadd: the complement of the first, or equal values).
  logic j_above_a, j_above_a_d, o_bit_q, ao_bit_q, o_hi_q, ao_hi_q;
  // in the loop (cnt = c): the column compared (c - 2); its order bit is written a cycle later
  // (the write mask is registered)
  logic [ActW-1:0] jc;
  logic [ActW:0] cl;  // cnt in the loop (<= Actions + 2): its low bits suffice
  assign cl = cnt_q[ActW:0];
  assign jc = cl[ActW-1:0] - ActW'(2);

  // q address row * Actions + column (qrl_qaddr): the row and the column selection of the next
  // access are set with each transition below
  logic [StW-1:0] rb_row;
  logic [QAW-1:0] q_addr;
  logic col_win, col_zero, col_one, col_two, col_loop;

  qrl_tables #(
    .States (States),
    .Actions(Actions),
    .QW     (QW),
    .Shadow (Shadow),
    .StW    (StW),
    .ActW   (ActW),
    .PairW  (PairW),
    .QDepth (QDepth),
    .QAW    (QAW)
  ) u_tables (
    .clk_i,
    .aq_re_i(aq_re),
    .aq_raddr_i(aq_raddr),
    .aq_rdata_o(aq_rdata),
    .aq_we_i(aq_we),
    .aq_waddr_i(aq_waddr),
    .aq_wdata_i(aq_wdata),
    .sq_re_i(sq_re),
    .sq_raddr_i(sq_raddr),
    .sq_rdata_o(sq_rdata),
    .sq_we_i(sq_we),
    .sq_waddr_i(sq_waddr),
    .sq_wdata_i(sq_wdata),
    .ao_re_i(ao_re),
    .ao_raddr_i(ao_raddr),
    .ao_rdata_o(ao_rdata),
    .ao_we_i(ao_we),
    .ao_waddr_i(ao_waddr),
    .ao_wdata_i(ao_wdata),
    .so_re_i(so_re),
    .so_raddr_i(so_raddr),
    .so_rdata_o(so_rdata),
    .so_we_i(so_we),
    .so_waddr_i(so_waddr),
    .so_wdata_i(so_wdata),
    .rst_ni,
    .wm_a_i    (u_a_q),
    .wm_j_i    (jc),
    .wm_all_i  (st_q == StClear || st_q == StCopy),
    .clr_i     (st_q == StClear),
    .clr_addr_i(QAW'(cnt_q)),
    .clr_row_i (c_row_q),
    .wq_rdata_o(wq_rdata),
    .wo_rdata_o(wo_rdata)
  );

  // ---------------------------------------------------------------- control
  // The clear's and the copy's address tests (qrl_qaddr), registered: cnt < States, cnt <
  // States - 1, cnt = States * Actions - 1.
  logic c_row_q, c_nrow_q, c_last_q;
  logic ep_end, m1_valid_d, m1_valid_q, m_sh_d, m_sh_q, upd_done_d, upd_done_q;
  logic loop_last;
  logic [CntW-1:0] cnt_inc;
  assign cnt_inc = cnt_q + 1'b1;
  assign loop_last = (cl == LastAct);

  always_comb begin
    st_d = st_q;
    cnt_d = cnt_q;
    copy_pend_d = copy_pend_q;
    seed_clr = 1'b0;
    mask_d = mask_q;
    u_s_d = u_s_q;
    u_a_d = u_a_q;
    acc_ld = 1'b0;
    acc_clr = 1'b0;
    d_ld = 1'b0;
    wboth_d = wboth_q;
    m1_valid_d = 1'b0;
    m_sh_d = m_sh_q;
    upd_done_d = 1'b0;
    j_above_a_d = 1'b0;
    {col_win, col_zero, col_one, col_two, col_loop} = 5'b0;
    rb_row = u_s_q;  // s (the loop, the final reads and writes)
    aq_re = 1'b0;
    aq_raddr = q_addr;
    aq_we = 1'b0;
    aq_waddr = q_addr;
    aq_wdata = acc_val;
    sq_re = 1'b0;
    sq_raddr = q_addr;
    sq_we = 1'b0;
    sq_waddr = q_addr;
    sq_wdata = acc_val;
    ao_re = 1'b0;
    ao_raddr = dec_state_i;
    ao_we = 1'b0;
    ao_waddr = u_s_q;
    ao_wdata = {{PairW{ao_hi_q}}, {PairW{ao_bit_q}}};
    so_re = 1'b0;
    so_raddr = upd_next_state_i;
    so_we = 1'b0;
    so_waddr = u_s_q;
    so_wdata = {{PairW{o_hi_q}}, {PairW{o_bit_q}}};

    unique case (st_q)
      StClear: begin
        // qrl_tables writes q value 0 at cnt, the order bits all set (all values equal) in row
        // cnt (< States)
        cnt_d = cnt_inc;
        if (c_last_q) begin
          st_d = StIdle;
          cnt_d = '0;
        end
      end
      StIdle: begin
        if (copy_pend_q) begin
          // First step of the episode copy requested by the previous decide.
          copy_pend_d = 1'b0;
          sq_re = 1'b1;
          sq_raddr = '0;
          so_re = 1'b1;
          so_raddr = '0;
          cnt_d = '0;
          st_d = StCopy;
        end else if (acc_mgt) begin
          rb_row = mgt_state_i;
          u_s_d = mgt_state_i;
          u_a_d = mgt_action_i;
          unique case (mgt_op_i)
            OpCopy: begin
              if (Shadow) begin
                sq_re = 1'b1;
                sq_raddr = '0;
                so_re = 1'b1;
                so_raddr = '0;
                cnt_d = '0;
                st_d = StCopy;
              end
            end
            OpWrite: begin
              acc_ld = 1'b1;
              wboth_d = 1'b1;
              st_d = StWrRd;
              col_zero = 1'b1;
            end
            OpRead: begin
              m_sh_d = Shadow && mgt_shadow_i;
              st_d = StRead;
            end
            default: seed_clr = 1'b1;  // OpSeed
          endcase
        end else if (acc_upd && !upd_rwd_ready_i) begin
          // the reward is from the reward unit's warm-up (qrl_unit.sv): dropped, 1 cycle
          upd_done_d = 1'b1;
        end else if (acc_upd) begin
          rb_row = upd_state_i;
          u_s_d = upd_state_i;
          u_a_d = upd_action_i;
          cnt_d = CntW'(upd_next_state_i);
          acc_ld = 1'b1;
          wboth_d = 1'b0;
          mask_d = upd_next_max_i ? upd_mask_n : upd_next_hot;
          if (Shadow) begin
            so_re = 1'b1;
          end else begin
            ao_re = 1'b1;
            ao_raddr = upd_next_state_i;
          end
          st_d = StUpdRdQ;
        end else if (acc_dec) begin
          ao_re = 1'b1;
          mask_d = dec_mask_n;
          if (ep_end) copy_pend_d = 1'b1;  // this decision closes the episode
        end
      end
      StUpdRdQ: begin
        rb_row = StW'(cnt_q);  // s', for the read of Q(s', a*) next
        sq_re = Shadow;
        aq_re = !Shadow;
        st_d = StUpdRdN;
        col_win = 1'b1;
      end
      StUpdRdN: begin
        sq_re = Shadow;
        aq_re = !Shadow;
        st_d = StUpdD;
      end
      StUpdD: begin
        d_ld = 1'b1;  // Q(s, a) is in the read-data register, Q(s', a*) on the RAM's output
        acc_clr = 1'b1;
        cnt_d = '0;
        st_d = StUpdAcc;
      end
      StUpdAcc: begin
        acc_ld = 1'b1;
        cnt_d = cnt_inc;
        if (cnt_q[StepW-1:0] == PreLastStep) begin
          // Q(s, a) reaches the register after the last step (which still adds Q')
          sq_re = Shadow;
          aq_re = !Shadow;
        end
        if (cnt_q[StepW-1:0] == LastStep) begin
          st_d = StUpdFin;
          col_zero = 1'b1;
        end
      end
      StUpdFin: begin
        acc_ld = 1'b1;
        sq_re = Shadow;
        aq_re = !Shadow;
        st_d = StLoopRd;
        col_one = 1'b1;
      end
      StWrRd: begin
        sq_re = Shadow;
        aq_re = 1'b1;
        st_d = StLoopRd;
        col_one = 1'b1;
      end
      StLoopRd: begin
        acc_ld = 1'b1;  // saturated (a management write's value is in range already)
        if (Actions > 1) begin
          sq_re = Shadow;
          aq_re = !Shadow || wboth_q;
        end
        cnt_d = CntW'(2);
        st_d = StLoop;
        col_two = 1'b1;
      end
      StLoop: begin
        // cnt = c = 2 .. Actions + 2: read Q(s, c) while c < Actions; compare the new value with
        // Q(s, c - 2) (in the read-data register; the bit is registered); write the order bit
        // of (a, c - 3), the active table's too on a management write; the last cycle writes
        // Q(s, a)
        if (cl != (ActW + 1)'(2)) begin
          so_we = Shadow;
          ao_we = !Shadow || wboth_q;
        end
        if (cl < (ActW + 1)'(Actions)) begin
          sq_re = Shadow;
          aq_re = !Shadow || wboth_q;
        end
        j_above_a_d = j_above_a || (jc == u_a_q);
        cnt_d = cnt_inc;
        col_loop = 1'b1;
        if (loop_last) begin
          col_loop = 1'b0;  // a: the write of Q(s, a)
          sq_we = Shadow;
          aq_we = !Shadow || wboth_q;
          upd_done_d = !wboth_q;
          st_d = StIdle;
          cnt_d = '0;
        end
      end
      StRead: begin
        if (m_sh_q) begin
          sq_re = 1'b1;
        end else begin
          aq_re = 1'b1;
        end
        m1_valid_d = 1'b1;
        st_d = StIdle;
      end
      StCopy: begin
        // Write active address cnt (read at the previous edge), read shadow address cnt+1; the
        // order bits likewise for the first States addresses.
        aq_we = 1'b1;
        aq_waddr = QAW'(cnt_q);
        aq_wdata = sq_rdata;
        if (c_row_q) begin
          ao_we = 1'b1;
          ao_waddr = StW'(cnt_q);
          ao_wdata = so_rdata;
        end
        if (!c_last_q) begin
          sq_re = 1'b1;
          sq_raddr = QAW'(cnt_inc);
        end
        if (c_nrow_q) begin
          so_re = 1'b1;
          so_raddr = StW'(cnt_inc);
        end
        cnt_d = cnt_inc;
        if (c_last_q) begin
          st_d = StIdle;
          cnt_d = '0;
        end
      end
      default: st_d = StIdle;
    endcase
  end

  qrl_qaddr #(
    .States (States),
    .Actions(Actions),
    .StW    (StW),
    .ActW   (ActW),
    .QAW    (QAW),
    .CntW   (CntW)
  ) u_qaddr (
    .clk_i,
    .rst_ni,
    .row_i     (rb_row),
    .col_win_i (col_win),
    .col_zero_i(col_zero),
    .col_one_i (col_one),
    .col_two_i (col_two),
    .col_loop_i(col_loop),
    .loop_next_i(cnt_inc[ActW:0]),
    .win_idx_i (win_idx),
    .a_d_i     (u_a_d),
    .cnt_d_i   (cnt_d),
    .addr_o    (q_addr),
    .row_q_o   (c_row_q),
    .nrow_q_o  (c_nrow_q),
    .last_q_o  (c_last_q)
  );

  logic [QW-1:0] in_val;
  assign in_val = (st_q == StIdle && mgt_valid_i) ? mgt_value_i : upd_reward_i;

  qrl_qadd #(
    .QW    (QW),
    .KF    (KF),
    .Alpha (Alpha),
    .Gamma (Gamma),
    .Shadow(Shadow),
    .NSteps(NSteps),
    .StepW (StepW)
  ) u_qadd (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .step_next_i(cnt_d[StepW-1:0]),
    .ph_load_i  (st_d == StIdle),
    .ph_d_i     (st_d == StUpdD),
    .ph_acc_i   (st_d == StUpdAcc),
    .ph_fin_i   (st_d == StUpdFin),
    .ph_sat_i   (st_d == StLoopRd),
    .ph_loop_i  (st_d == StLoop),
    .acc_ld_i   (acc_ld),
    .acc_clr_i  (acc_clr),
    .d_ld_i     (d_ld),
    .in_val_i   (in_val),
    .j_above_a_i(j_above_a),
    .wq_rdata_i (wq_rdata),
    .aq_rdata_i (aq_rdata),
    .acc_o      (acc_val),
    .o_bit_q_o  (o_bit_q),
    .ao_bit_q_o (ao_bit_q),
    .o_hi_q_o   (o_hi_q),
    .ao_hi_q_o  (ao_hi_q)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClear;
      cnt_q <= '0;
      copy_pend_q <= 1'b0;
      mask_q <= '0;
      u_s_q <= '0;
      u_a_q <= '0;
      wboth_q <= 1'b0;
      m1_valid_q <= 1'b0;
      m_sh_q <= 1'b0;
      upd_done_q <= 1'b0;
      j_above_a <= 1'b0;
    end else begin
      st_q <= st_d;
      cnt_q <= cnt_d;
      copy_pend_q <= copy_pend_d;
      mask_q <= mask_d;
      u_s_q <= u_s_d;
      u_a_q <= u_a_d;
      wboth_q <= wboth_d;
      m1_valid_q <= m1_valid_d;
      m_sh_q <= m_sh_d;
      upd_done_q <= upd_done_d;
      j_above_a <= j_above_a_d;
    end
  end

  assign upd_done_o = upd_done_q;
  assign mgt_rsp_valid_o = m1_valid_q;
  assign mgt_value_o = m_sh_q ? sq_rdata : aq_rdata;
  assign idle_o = (st_q == StIdle) && !copy_pend_q && !d1_valid && !m1_valid_q;
endmodule
