// The learning core of an RL decision unit (qrl_core Mode 0 and 1): q-table(s) in RAM, order bits, LFSR
// exploration, serial fixed-point update, optional shadow table with episode copy. Bit- and
// cycle-exact twin of controller/rl/qcore.{h,cpp}; docs/rl.md. A unit is this core and, where it
// has one, the reward unit qrl_reward (no shared signal: the policy passes the reward).
//
// Storage per table: the q values in a RAM of States * Actions words of QW bits (Q(s, a) at
// s * Actions + a), and the order bits of every row (qrl_winner.sv: ge(i, j) for every ordered
// pair) in a RAM of States words of Actions * (Actions - 1) bits, written pair by pair. A
// decision reads only the order bits; an update reads single q values, computes the new Q(s, a)
// with one adder over several cycles, and refreshes the order bits of action a.
//
// One operation is accepted per clock edge (priority: management > update > decide), valid/ready
// requests, one-cycle response pulses. Cycles (docs/rl.md "Handshake timing", QCore::*_cycles):
// decide 2 (one per cycle; + States * Actions when it closes an episode: the shadow -> active
// copy), update 7 + NSteps + Actions (a warm-up update 1), management COPY States * Actions + 1
// (1 without shadow), WRITE of one q value 4 + Actions, READ 3, SEED 1. After reset the tables
// are cleared, one q value per cycle (idle_o low meanwhile). cfg_eps_n_i is sampled during that
// clear and at SEED; the other cfg_ inputs are read live.
// Submodules: qrl_decide (ε-greedy, random tie-break; qrl_winner: maximum set, argmax),
// qrl_qadd (update), qrl_qaddr (q address, clear/copy address tests), qrl_ram_1r1w (tables).
//
// The warm-up (docs/rl.md "Reward unit"): an update whose percentile reward was classified before
// the reward unit's first threshold scan comes with upd_rwd_ready_i = 0 and is dropped (done at
// the next edge, tables unchanged); rewards not from the percentile unit hold it at 1.
// Mode: 0 online ε-greedy; 1 greedy (no ε logic, no LFSR: the C++ model at ε = 0 with
// random_ties false, the lower index wins ties). The frozen point is qrl_frozen (qrl_core).
module qrl_learn #(
  parameter int unsigned Mode = 0,
  parameter int unsigned EpsPeriodLog2 = 0,  // qrl_core.sv: the decaying ε (0: the schedule)
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter bit Shadow = 1'b0,
  parameter int unsigned StW = qrl_pkg::idx_w(States),
  parameter int unsigned ActW = qrl_pkg::idx_w(Actions)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // configuration (quasi-static)
  input  logic [           15:0] cfg_eps_hi_i,
  input  logic [           15:0] cfg_eps_lo_i,
  input  logic [           23:0] cfg_eps_n_i,
  input  logic [           15:0] cfg_episode_len_i,
  // decide
  input  logic                   dec_valid_i,
  output logic                   dec_ready_o,
  input  logic [        StW-1:0] dec_state_i,
  input  logic [    Actions-1:0] dec_mask_i,
  output logic                   dec_rsp_valid_o,
  output logic [       ActW-1:0] dec_action_o,
  output logic                   dec_explored_o,
  // update
  input  logic                   upd_valid_i,
  output logic                   upd_ready_o,
  input  logic [        StW-1:0] upd_state_i,
  input  logic [       ActW-1:0] upd_action_i,
  input  logic [qrl_pkg::QW-1:0] upd_reward_i,
  input  logic [        StW-1:0] upd_next_state_i,
  input  logic [       ActW-1:0] upd_next_action_i,
  input  logic                   upd_next_max_i,
  input  logic [    Actions-1:0] upd_next_mask_i,
  input  logic                   upd_rwd_ready_i,  // 0: drop the update (warm-up)
  output logic                   upd_done_o,
  // management: 0 COPY shadow->active, 1 WRITE Q(s, a) (both tables; whole rows in action
  // order, see ord_q), 2 READ Q(s, a), 3 SEED
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
  localparam bit Sh = Shadow;
  localparam int unsigned QW = qrl_pkg::QW;
  localparam logic [1:0] OpCopy = 2'd0;
  localparam logic [1:0] OpWrite = 2'd1;
  localparam logic [1:0] OpRead = 2'd2;
  localparam logic [1:0] OpSeed = 2'd3;
  localparam int unsigned PairW = qrl_pkg::pair_w(Actions);
  localparam int unsigned OrdW = 2 * PairW;  // an order-bit row: both halves (qrl_winner.sv)
  localparam int unsigned QDepth = States * Actions;
  localparam int unsigned QAW = qrl_pkg::idx_w(QDepth);
  localparam int unsigned NSteps = qrl_pkg::NSteps;  // the update's shift-and-add steps
  // The counter: the clear's and the copy's sweep (cnt + 1 up to QDepth), s' of an update, the
  // step index, the compare loop (its low ActW + 1 bits). No spare bit.
  localparam int unsigned CntA = ($clog2(QDepth + 1) > StW) ? $clog2(QDepth + 1) : StW;
  localparam int unsigned CntB = (CntA > $clog2(NSteps + 1)) ? CntA : $clog2(NSteps + 1);
  localparam int unsigned CntW = (CntB > ActW + 1) ? CntB : ActW + 1;
  // the step index is below 2^StepW during the shift-and-add (only its low bits are decoded)
  localparam int unsigned StepW = (NSteps > 1) ? $clog2(NSteps) : 1;
  localparam logic [StepW-1:0] LastStep = StepW'(NSteps - 1);
  localparam logic [StepW-1:0] PreLastStep = StepW'(NSteps - 2);  // NSteps >= 2
  // The compare loop's counter runs 2 .. Actions + 2 (reads column cnt, compares column cnt - 2)
  localparam logic [ActW:0] LastAct = (ActW + 1)'(Actions + 2);

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
  // busy_q = (st_q != StIdle) || copy_pend_q, from the next-state values (fmax: no state decode)
  logic busy_q, acc_mgt, acc_upd, acc_dec;
  logic copy_pend_d, copy_pend_q;
  assign mgt_ready_o = !busy_q;
  assign upd_ready_o = !busy_q && !mgt_valid_i;
  assign dec_ready_o = !busy_q && !mgt_valid_i && !upd_valid_i;
  assign acc_mgt = mgt_valid_i && !busy_q;
  assign acc_upd = upd_valid_i && !busy_q && !mgt_valid_i;
  assign acc_dec = dec_valid_i && !busy_q && !mgt_valid_i && !upd_valid_i;

  // ---------------------------------------------------------------- RAMs
  // a* = active table, s* = shadow table; q = q values, o = order bits
  logic aq_re, aq_we, sq_re, sq_we, ao_re, ao_we, so_re, so_we;
  logic [QAW-1:0] aq_raddr, aq_waddr, sq_raddr, sq_waddr;
  logic [QW-1:0] aq_rdata, aq_wdata, sq_rdata, sq_wdata;
  logic [StW-1:0] ao_raddr, ao_waddr, so_raddr, so_waddr;
  logic [OrdW-1:0] ao_rdata, ao_wdata, so_rdata, so_wdata;
  // the tables the updates work on (w*): the shadow tables, or the only ones
  logic [QW-1:0] wq_rdata;
  logic [OrdW-1:0] wo_rdata;

  // ---------------------------------------------------------------- counters
  logic seed_clr;
  // the clear's and copy's address; s' at an update's accept; the step; the loop's column j
  logic [CntW-1:0] cnt_d, cnt_q;

  // ---------------------------------------------------------------- decide
  // qrl_decide: the accept cycle (the mask into mask_q), the second (LFSR draw, ε test, a random
  // member of the maximum set under the mask, or the k-th allowed action). Its qrl_winner also
  // gives the update's a* (the order bits of the work table, in StUpdRdQ).
  logic d1_valid;
  logic [Actions-1:0] mask_q, mask_d, dec_mask_n, upd_mask_n, upd_next_hot;
  logic [ActW-1:0] win_idx;

  assign upd_next_hot = Actions'(1) << upd_next_action_i;
  assign upd_mask_n = (upd_next_mask_i == '0) ? {Actions{1'b1}} : upd_next_mask_i;

  qrl_decide #(
    .Actions      (Actions),
    .Shadow       (Sh),
    .Explore      (Mode == 0),
    .EpsPeriodLog2(EpsPeriodLog2)
  ) u_decide (
    .clk_i,
    .rst_ni,
    .cfg_i         ({cfg_eps_hi_i, cfg_eps_lo_i, cfg_eps_n_i, cfg_episode_len_i}),
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
    .use_work_i    (Sh && (st_q == StUpdRdQ)),
    .win_idx_o     (win_idx),
    .busy_o        (d1_valid),
    .rsp_valid_o   (dec_rsp_valid_o),
    .rsp_action_o  (dec_action_o),
    .rsp_explored_o(dec_explored_o)
  );

  // ---------------------------------------------------------------- update datapath
  logic [StW-1:0] u_s_q, u_s_d;
  logic [ActW-1:0] u_a_q, u_a_d;
  logic acc_ld, acc_init, d_ld;
  logic wboth_q, wboth_d;  // the loop serves a management write (both tables), not an update
  logic [QW-1:0] acc_val;

  // j > a: the pair is (a, j) and a wins on ties (q_new >= Q(s, j), carry-in 1); j < a: the pair
  // is (j, a) and j wins on ties (Q(s, j) >= q_new, i.e. q_new - Q(s, j) - 1 < 0). j_above_a is a
  // flag set in the loop once j has passed a (no comparator in front of the adder).
  // ord_q: the pair's two bits from qrl_qadd, registered, {high, low} (high: Q(s, j) >= q_new
  // for j > a, q_new >= Q(s, j) for j < a), compared with the work table's row. A management
  // write on a unit with a shadow table writes them into both tables (one comparator, not one per
  // table). Management writes come as whole rows, actions 0 .. Actions - 1 in order
  // (the backend's write_row, the only writer): the bits of a pair (i, j), i < j, are written
  // last by the write of j, which compares with Q(s, i) already written with the same value in
  // both tables, so after the row both tables' order bits are those of their own (equal) values.
  // A single value written into a shadow unit's row whose two tables differ would leave the
  // active table's bits of that action computed against the shadow row's values.
  logic j_above_a, j_above_a_d;
  logic [1:0] ord_q;
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

  // The order bits of pair (a, j) (both halves) are written alone (none when j = a): the column
  // j registered (the write is a cycle after the compare), the mask decoded from it and a (which
  // holds during the loop) in the write's cycle; whole rows in the clear and the copy.
  logic [ActW-1:0] jc_q;
  logic [Actions-1:0] a_hot, j_hot;
  logic [PairW-1:0] pair_mask;
  logic [OrdW-1:0] o_wmask;
  // the clear and the copy write whole rows: every a_hot and j_hot bit set; o_sweep is
  // (st_q == StClear || st_q == StCopy), registered from st_d (fmax: no state decode)
  logic o_sweep;
  for (genvar i = 0; i < Actions; i++) begin : g_hot
    assign a_hot[i] = (u_a_q == ActW'(i)) || o_sweep;
    assign j_hot[i] = (jc_q == ActW'(i)) || o_sweep;
    for (genvar j = i + 1; j < Actions; j++) begin : g_pair
      assign pair_mask[qrl_pkg::pair_idx(Actions, i, j)] = (a_hot[i] & j_hot[j]) |
                                                         (a_hot[j] & j_hot[i]);
    end
  end
  if (Actions < 2) begin : g_no_pair
    assign pair_mask = '0;
  end
  assign o_wmask = {pair_mask, pair_mask};

  qrl_ram_1r1w #(.Depth(QDepth), .Width(QW)) u_aq (.clk_i, .re_i(aq_re), .raddr_i(aq_raddr),
      .rdata_o(aq_rdata), .we_i(aq_we), .wmask_i(1'b1), .waddr_i(aq_waddr), .wdata_i(aq_wdata));
  qrl_ram_1r1w #(.Depth(States), .Width(OrdW), .Lanes(OrdW)) u_ao (.clk_i, .re_i(ao_re),
      .raddr_i(ao_raddr), .rdata_o(ao_rdata), .we_i(ao_we), .wmask_i(o_wmask),
      .waddr_i(ao_waddr), .wdata_i(ao_wdata));
  if (Sh) begin : g_shadow
    qrl_ram_1r1w #(.Depth(QDepth), .Width(QW)) u_sq (.clk_i, .re_i(sq_re), .raddr_i(sq_raddr),
        .rdata_o(sq_rdata), .we_i(sq_we), .wmask_i(1'b1), .waddr_i(sq_waddr), .wdata_i(sq_wdata));
    qrl_ram_1r1w #(.Depth(States), .Width(OrdW), .Lanes(OrdW)) u_so (.clk_i, .re_i(so_re),
        .raddr_i(so_raddr), .rdata_o(so_rdata), .we_i(so_we), .wmask_i(o_wmask),
        .waddr_i(so_waddr), .wdata_i(so_wdata));
    assign wq_rdata = sq_rdata;
    assign wo_rdata = so_rdata;
  end else begin : g_no_shadow
    assign sq_rdata = '0;
    assign so_rdata = '0;
    assign wq_rdata = aq_rdata;
    assign wo_rdata = ao_rdata;
    logic unused_sh;
    assign unused_sh = ^{sq_re, sq_we, sq_raddr, sq_waddr, sq_wdata, so_re, so_we, so_raddr,
                         so_waddr, so_wdata};
  end

  // ---------------------------------------------------------------- control
  // The clear's and the copy's address tests (qrl_qaddr), registered: cnt < States, cnt <
  // States - 1, cnt = States * Actions - 1.
  logic c_row_q, c_nrow_q, c_last_q;
  logic ep_end, m1_valid_d, m1_valid_q, m_sh_d, m_sh_q, upd_done_d, upd_done_q;
  logic loop_last;
  logic [CntW-1:0] cnt_inc;
  logic step_last;  // the shift-and-add's last step
  assign cnt_inc = cnt_q + 1'b1;
  assign step_last = (cnt_q[StepW-1:0] == LastStep);
  assign loop_last = (cl == LastAct);

  always_comb begin
    st_d = st_q;
    cnt_d = cnt_q;
    copy_pend_d = copy_pend_q;
    seed_clr = 1'b0;
    // the mask is read only in the cycle after the accept (the decision's second cycle, the
    // update's a* in StUpdRdQ): loaded at every edge, no enable
    mask_d = dec_mask_n;
    u_s_d = u_s_q;
    u_a_d = u_a_q;
    acc_ld = 1'b0;
    acc_init = 1'b0;
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
    ao_wdata = {{PairW{ord_q[1]}}, {PairW{ord_q[0]}}};
    so_re = 1'b0;
    so_raddr = upd_next_state_i;
    so_we = 1'b0;
    so_waddr = u_s_q;
    so_wdata = {{PairW{ord_q[1]}}, {PairW{ord_q[0]}}};

    unique case (st_q)
      StClear: begin
        // q value 0 at cnt, the order bits all set (all values equal) in row cnt (< States)
        aq_we = 1'b1;
        aq_waddr = QAW'(cnt_q);
        aq_wdata = '0;
        sq_we = 1'b1;
        sq_waddr = QAW'(cnt_q);
        sq_wdata = '0;
        ao_we = c_row_q;
        ao_waddr = StW'(cnt_q);
        ao_wdata = '1;
        so_we = c_row_q;
        so_waddr = StW'(cnt_q);
        so_wdata = '1;
      end
      StIdle: begin
        // The reads an accepted operation needs are issued whether or not one is (a read has no
        // effect but the RAM's output, which nothing reads in the next cycle unless that
        // operation started): the read enables and the addresses do not wait for the
        // arbitration (fmax). The order bits: of s' for an update (the winner a*, the work
        // table), else of the decision's state; the shadow q values from address 0 (a copy's
        // first read).
        ao_re = 1'b1;
        ao_raddr = (!Sh && upd_valid_i) ? upd_next_state_i : dec_state_i;
        so_re = Sh;
        so_raddr = (copy_pend_q || mgt_valid_i) ? '0 : upd_next_state_i;
        sq_re = Sh;
        sq_raddr = '0;
        if (copy_pend_q || (acc_mgt && mgt_op_i == OpCopy)) begin
          // The episode copy: requested by the previous decide, or a management COPY (nothing
          // to copy without a shadow table: done at the next edge).
          copy_pend_d = 1'b0;
          if (Sh) begin
            cnt_d = '0;
            st_d = StCopy;
          end
        end else if (acc_mgt) begin
          rb_row = mgt_state_i;
          u_s_d = mgt_state_i;
          u_a_d = mgt_action_i;
          unique case (mgt_op_i)
            OpWrite: begin
              acc_ld = 1'b1;
              wboth_d = 1'b1;
              st_d = StWrRd;
              col_zero = 1'b1;
            end
            OpRead: begin
              m_sh_d = Sh && mgt_shadow_i;
              st_d = StRead;
            end
            default: seed_clr = 1'b1;  // OpSeed
          endcase
        end else if (acc_upd && !upd_rwd_ready_i) begin
          // the reward is from the reward unit's warm-up: dropped, 1 cycle
          upd_done_d = 1'b1;
        end else if (acc_upd) begin
          rb_row = upd_state_i;
          u_s_d = upd_state_i;
          u_a_d = upd_action_i;
          cnt_d = CntW'(upd_next_state_i);
          acc_ld = 1'b1;
          wboth_d = 1'b0;
          mask_d = upd_next_max_i ? upd_mask_n : upd_next_hot;
          st_d = StUpdRdQ;
        end else if (acc_dec) begin
          if (ep_end) copy_pend_d = 1'b1;  // this decision closes the episode
        end
      end
      StUpdRdQ: begin
        rb_row = StW'(cnt_q);  // s', for the read of Q(s', a*) next
        sq_re = Sh;
        aq_re = !Sh;
        st_d = StUpdRdN;
        col_win = 1'b1;
      end
      StUpdRdN: begin
        sq_re = Sh;
        aq_re = !Sh;
        st_d = StUpdD;
      end
      StUpdD: begin
        d_ld = 1'b1;  // Q(s, a) is in the read-data register, Q(s', a*) on the RAM's output
        acc_init = 1'b1;  // the rounding half
        cnt_d = '0;
        st_d = StUpdAcc;
      end
      StUpdAcc: begin
        acc_ld = 1'b1;
        cnt_d = cnt_inc;
        if (cnt_q[StepW-1:0] == PreLastStep) begin
          // Q(s, a) reaches the register after the last step (which still adds Q')
          sq_re = Sh;
          aq_re = !Sh;
        end
        if (step_last) begin
          st_d = StUpdFin;
          col_zero = 1'b1;
        end
      end
      StUpdFin: begin
        acc_ld = 1'b1;
        sq_re = Sh;
        aq_re = !Sh;
        st_d = StLoopRd;
        col_one = 1'b1;
      end
      StWrRd: begin
        sq_re = Sh;
        aq_re = !Sh;
        st_d = StLoopRd;
        col_one = 1'b1;
      end
      StLoopRd: begin
        acc_ld = 1'b1;  // saturated (a management write's value is in range already)
        if (Actions > 1) begin
          sq_re = Sh;
          aq_re = !Sh;
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
          so_we = Sh;
          ao_we = !Sh || wboth_q;
        end
        if (cl < (ActW + 1)'(Actions)) begin
          sq_re = Sh;
          aq_re = !Sh;
        end
        j_above_a_d = j_above_a || (jc == u_a_q);
        cnt_d = cnt_inc;
        col_loop = 1'b1;
        if (loop_last) begin
          col_loop = 1'b0;  // a: the write of Q(s, a)
          sq_we = Sh;
          aq_we = !Sh || wboth_q;
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
      end
      default: st_d = StIdle;
    endcase
    // the clear and the copy sweep cnt over the q values, then return to idle
    if (st_q == StClear || st_q == StCopy) begin
      cnt_d = c_last_q ? '0 : cnt_inc;
      if (c_last_q) st_d = StIdle;
    end
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
    .sweep_i   ((st_q == StClear || st_q == StCopy) && !c_last_q),
    .cnt_inc_i (cnt_inc),
    .addr_o    (q_addr),
    .row_q_o   (c_row_q),
    .nrow_q_o  (c_nrow_q),
    .last_q_o  (c_last_q)
  );

  // The next cycle's adder phase (qrl_qadd), {st_d == StIdle, StUpdD, StUpdAcc, StUpdFin,
  // StLoopRd, StLoop}: all but the first decoded from st_q and the counter (each is entered by a
  // fixed transition; fmax: not behind the arbitration that st_d waits for); the step likewise.
  logic [5:0] ph_next;
  assign ph_next = {st_d == StIdle, st_q == StUpdRdN,
                    st_q == StUpdD || (st_q == StUpdAcc && !step_last),
                    st_q == StUpdAcc && step_last, st_q == StUpdFin || st_q == StWrRd,
                    st_q == StLoopRd || (st_q == StLoop && !loop_last)};
  // a named signal, not an unsized '0 in the port list: Yosys 0.23 re-derives a module that
  // connects an unsized literal to a port, and the renamed top breaks `synth -top qrl_core`
  logic [StepW-1:0] step_next;
  assign step_next = (st_q == StUpdAcc) ? cnt_inc[StepW-1:0] : StepW'(0);
  logic [QW-1:0] in_val;
  assign in_val = (st_q == StIdle && mgt_valid_i) ? mgt_value_i : upd_reward_i;

  qrl_qadd #(
    .StepW(StepW)
  ) u_qadd (
    .clk_i,
    .rst_ni,
    .step_next_i  (step_next),
    .ph_i         (ph_next),
    .acc_ld_i     (acc_ld),
    .init_i       (acc_init),
    .d_ld_i       (d_ld),
    .in_val_i     (in_val),
    .j_above_a_i  (j_above_a),
    .j_above_a_d_i(j_above_a_d),
    .wq_rdata_i   (wq_rdata),
    .acc_o        (acc_val),
    .ord_q_o      (ord_q)
  );

  assign upd_done_o = upd_done_q;
  assign mgt_rsp_valid_o = m1_valid_q;
  assign mgt_value_o = m_sh_q ? sq_rdata : aq_rdata;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClear;
      busy_q <= 1'b1;
      o_sweep <= 1'b1;
      cnt_q <= '0;
      copy_pend_q <= 1'b0;
      wboth_q <= 1'b0;
      m1_valid_q <= 1'b0;
      m_sh_q <= 1'b0;
      upd_done_q <= 1'b0;
      j_above_a <= 1'b0;
    end else begin
      st_q <= st_d;
      busy_q <= (st_d != StIdle) || copy_pend_d;
      o_sweep <= (st_d == StClear || st_d == StCopy);
      cnt_q <= cnt_d;
      copy_pend_q <= copy_pend_d;
      wboth_q <= wboth_d;
      m1_valid_q <= m1_valid_d;
      m_sh_q <= m_sh_d;
      upd_done_q <= upd_done_d;
      j_above_a <= j_above_a_d;
    end
  end

  // no reset (area: a reset flip-flop is 1.8x a plain one): mask_q, jc_q loaded at every edge,
  // u_s_q, u_a_q at the accept of the operation that reads them
  always_ff @(posedge clk_i) {mask_q, u_s_q, u_a_q, jc_q} <= {mask_d, u_s_d, u_a_d, jc};

  assign idle_o = (st_q == StIdle) && !copy_pend_q && !d1_valid && !m1_valid_q;
endmodule
