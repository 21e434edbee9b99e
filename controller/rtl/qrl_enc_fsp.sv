// The FSP grouper's state encoder, episode buffer and delayed reward (FSP paper Sec. III,
// Algorithm 1): twin of rl::FspEncoder (controller/rl/enc_fsp.h, docs/rl.md "State encoders").
// Operations (op_code_i), each accepted when the unit is idle (op_ready_i):
//   0 DECIDE(history word, request pages, sector mask): the state to the core;
//   1 PLACE(state, type): the page placed as step g (the ring entry g mod L); unless in episode 0,
//     the step g - L (P) is rewarded (page-type term, + its read's reward if read) and Q(P) is
//     updated with the bootstrap step (N: P + 1, or with cfg_type_i the next of P's type within
//     Scan steps); the step that completes an episode copies the shadow table (core COPY);
//   2 MARK_READ(step): the step was read from flash; 3 SERVED(sample): a reward sample, its class
//     held; 4 MARK_RT(step): the held class, if ready, becomes the step's read reward if it was
//     read (the entry read, then written: two edges).
// P and N are read from the episode buffer ahead of the PLACE that needs them (during the
// previous PLACE's update or copy) and kept in registers that MARK_READ and MARK_RT keep current,
// so a PLACE's update is issued at its accepting edge. A frozen unit (no update: its PLACE takes
// no core cycles) reads P at its PLACE's edge and writes the new entry at the next (two edges).
// The next-of-its-type offsets (cfg_type_i) are a second RAM (nxt): a PLACE writes the offset
// into the entry of the previous step of its type while that step holds its slot (the offset
// below L); an offset counts only with its owner's episode parity, and is cleared once read for P
// (the RAM is cleared after reset, Depth cycles), so a slot's next owner starts without one.
module qrl_enc_fsp #(
  parameter int unsigned Mode = 0,  // 2 (frozen): no reward, no update, no episode copy
  parameter int unsigned Depth = 1024,  // the episode buffer's entries: fsp.episode_steps at most
  parameter int unsigned Scan = 64,  // fsp.bootstrap type's look-ahead (< 128)
  parameter int unsigned CountN = 3,
  parameter logic [((CountN > 0) ? CountN : 1)*3-1:0] CountThr = 9'h1a2,  // 2, 4, 6
  parameter bit ShortOn = 1'b1,
  parameter int unsigned SizeN = 1,
  parameter logic [((SizeN > 0) ? SizeN : 1)*32-1:0] SizeThr = 32'd2,
  parameter bit PartialOn = 1'b1,
  parameter int unsigned TypeN = 3,
  parameter logic [((TypeN > 0) ? TypeN : 1)*2-1:0] TypeThr = 6'h39,  // 1, 2, 3
  parameter int unsigned States = (CountN + 1) * (ShortOn ? 2 : 1) * (SizeN + 1) *
                                  (PartialOn ? 2 : 1) * (TypeN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States),
  parameter int unsigned LW = $clog2(Depth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [           LW-1:0] cfg_len_i,  // fsp.episode_steps, L
  input  logic                     cfg_type_i,  // fsp.bootstrap type
  input  logic [              5:0] cfg_spp_i,  // sectors per page
  input  logic [4*qrl_pkg::QW-1:0] cfg_values_i,  // the reward values (the classes)
  // operation
  input  logic                     op_valid_i,
  input  logic                     op_ready_i,
  input  logic [              2:0] op_code_i,
  input  logic [             15:0] op_history_i,
  input  logic [             31:0] op_pages_i,
  input  logic [             31:0] op_mask_i,
  input  logic [          StW-1:0] op_state_i,
  input  logic [              1:0] op_type_i,
  input  logic [             31:0] op_step_i,
  input  logic [             31:0] op_sample_i,
  // core
  output logic                     dec_valid_o,
  output logic [          StW-1:0] dec_state_o,
  output logic                     upd_valid_o,
  input  logic                     upd_ready_i,
  output logic [          StW-1:0] upd_state_o,
  output logic [              1:0] upd_action_o,
  output logic [  qrl_pkg::QW-1:0] upd_reward_o,
  output logic [          StW-1:0] upd_next_state_o,
  output logic [              1:0] upd_next_action_o,
  output logic                     cop_valid_o,  // the episode copy (the core's COPY)
  input  logic                     cop_ready_i,
  // reward unit
  output logic                     rwd_valid_o,
  output logic [             31:0] rwd_sample_o,
  input  logic                     rwd_rsp_valid_i,
  input  logic [  qrl_pkg::QW-1:0] rwd_value_i,
  input  logic                     rwd_scanned_i,
  // response registers
  output logic [          StW-1:0] state_o,  // the latest decision's
  output logic [  qrl_pkg::QW-1:0] reward_o,  // the held reward (its class's value)
  output logic                     reward_ready_o,
  output logic [             31:0] step_o,  // the last PLACE's step
  output logic [              3:0] flags_o,  // {copied, episode end, read, rewarded}
  output logic [  qrl_pkg::QW-1:0] upd_entry_reward_o,  // the rewarded step's r, state, type
  output logic [          StW-1:0] upd_entry_state_o,
  output logic [              1:0] upd_entry_action_o,
  output logic                     busy_o
);
  localparam bit Learn = (Mode != 2);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned AW = qrl_pkg::idx_w(Depth);
  localparam int unsigned EW = StW + 6;  // an entry {state, type, read, has_rt, class}
  localparam int unsigned XW = 8;  // an offset entry {parity, offset}
  localparam logic [2:0] OpDecide = 3'd0, OpPlace = 3'd1, OpRead = 3'd2, OpServed = 3'd3,
                         OpRt = 3'd4;

  logic acc, acc_dec, acc_place, acc_read, acc_served, acc_rt;
  assign acc = op_valid_i && op_ready_i;
  assign acc_dec = acc && (op_code_i == OpDecide);
  assign acc_place = acc && (op_code_i == OpPlace);
  assign acc_read = acc && (op_code_i == OpRead);
  assign acc_served = acc && (op_code_i == OpServed);
  assign acc_rt = acc && (op_code_i == OpRt);

  // ---------------------------------------------------------------- counters and state
  logic [31:0] g_q;  // the next step
  logic [LW-1:0] t_q;  // its position g mod L
  logic [9:0] tag_q;  // the current episode's tag (episode % 1023 + 1)
  logic epz_q, par_q;  // episode > 0, episode parity
  logic [1:0] cls_q;  // the held reward's class
  logic rdy_q;
  logic [StW-1:0] s_q;

  qrl_enc_fsp_state #(
    .CountN(CountN), .CountThr(CountThr), .ShortOn(ShortOn), .SizeN(SizeN), .SizeThr(SizeThr),
    .PartialOn(PartialOn), .TypeN(TypeN), .TypeThr(TypeThr), .States(States), .StW(StW)
  ) u_state (.history_i(op_history_i), .pages_i(op_pages_i), .mask_i(op_mask_i),
      .spp_i(cfg_spp_i), .tag_i(tag_q), .epz_i(epz_q), .state_o(dec_state_o));
  assign dec_valid_o = acc_dec;

  // ---------------------------------------------------------------- RAMs
  logic e_re, e_we, x_re, x_we;
  logic [AW-1:0] e_raddr, e_waddr, x_raddr, x_waddr;
  logic [EW-1:0] e_rdata, e_wdata, e_wmask;
  logic [XW-1:0] x_rdata, x_wdata;
  qrl_ram_1r1w #(.Depth(Depth), .Width(EW), .Lanes(EW)) u_buf (.clk_i, .re_i(e_re),
      .raddr_i(e_raddr), .rdata_o(e_rdata), .we_i(e_we), .wmask_i(e_wmask), .waddr_i(e_waddr),
      .wdata_i(e_wdata));
  qrl_ram_1r1w #(.Depth(Depth), .Width(XW)) u_nxt (.clk_i, .re_i(x_re), .raddr_i(x_raddr),
      .rdata_o(x_rdata), .we_i(x_we), .wmask_i(1'b1), .waddr_i(x_waddr), .wdata_i(x_wdata));

  // ---------------------------------------------------------------- the marks' entries
  // step s is in the buffer when d = g - 1 - s < L; its position is t - 1 - d (mod L)
  logic [31:0] md;
  logic m_valid;
  logic [AW-1:0] m_addr;
  logic [LW:0] m_back;
  assign md = g_q - 32'd1 - op_step_i;
  assign m_valid = (md < 32'(cfg_len_i));
  assign m_back = (LW + 1)'(md[LW-1:0]) + (LW + 1)'(1);
  assign m_addr = ((LW + 1)'(t_q) >= m_back) ? AW'((LW + 1)'(t_q) - m_back) :
                                              AW'((LW + 1)'(t_q) + (LW + 1)'(cfg_len_i) - m_back);

  // ---------------------------------------------------------------- the prefetched steps
  // P: the step the next PLACE rewards (its entry and position), N: its bootstrap step (the slot
  // after P, or with cfg_type_i the next of P's type: n_found)
  logic [StW-1:0] p_st, n_st;
  logic [1:0] p_a, n_a, p_cls;
  logic p_rd, p_hrt, n_found;
  logic [AW-1:0] p_addr, pa_q;
  typedef enum logic [1:0] {PfIdle, Pf0, Pf1, Pf2} pf_e;
  pf_e pf_q;

  // the reward of P: the page-type term (read: LSB +1, CLSB +0.5, CMSB -0.5, MSB -1; not read:
  // the opposite), plus the reward of its read when it has one
  logic [QW-1:0] term, rval, r_p;
  always_comb begin
    unique case (p_a)
      2'd0: term = QW'(256);
      2'd1: term = QW'(128);
      2'd2: term = -QW'(128);
      default: term = -QW'(256);
    endcase
    if (!p_rd) term = -term;
    rval = cfg_values_i[32'(p_cls)*QW+:QW];
  end
  assign r_p = term + ((p_rd && p_hrt) ? rval : '0);

  // the bootstrap step at a PLACE: the prefetched N, or the step being placed (L = 1; with
  // cfg_type_i, no earlier step of P's type and this one of it within Scan)
  logic len1, use_args;
  assign len1 = (cfg_len_i == LW'(1));
  assign use_args = cfg_type_i ? (!n_found && ((32'(cfg_len_i) <= 32'(Scan) && op_type_i == p_a)
                                               || len1))
                               : len1;

  // ---------------------------------------------------------------- PLACE
  logic epend, upd_now, cop_now, cop_pend_q;
  logic [LW-1:0] t_next;
  assign epend = (LW'(t_q + LW'(1)) == cfg_len_i);
  assign t_next = epend ? '0 : t_q + LW'(1);
  assign upd_now = Learn && acc_place && epz_q;
  assign upd_valid_o = upd_now;
  assign upd_state_o = p_st;
  assign upd_action_o = p_a;
  assign upd_reward_o = r_p;
  assign upd_next_state_o = use_args ? op_state_i : n_st;
  assign upd_next_action_o = use_args ? op_type_i : n_a;
  // the episode copy: at the PLACE's edge, or when its update ends (the core takes a COPY before
  // an update)
  assign cop_now = Learn && acc_place && epend && !epz_q;
  assign cop_valid_o = cop_now || cop_pend_q;

  // the previous step of each type (the next-of-type offsets): its position, episode parity,
  // and the next step's distance from it (saturating above Scan); type a at [a*W +: W]
  logic [4*AW-1:0] l_pos;
  logic [3:0] l_par, l_v;
  logic [4*8-1:0] l_d;
  logic [AW-1:0] l_pos_a;
  logic [7:0] l_d_a;
  assign l_pos_a = l_pos[32'(op_type_i)*AW+:AW];
  assign l_d_a = l_d[32'(op_type_i)*8+:8];

  // ---------------------------------------------------------------- RAM ports
  logic clr_q, mrt_q, mrt_go_q, fpl_q;
  logic [AW-1:0] clr_cnt_q, mrt_addr_q, fpl_addr_q;
  logic [StW-1:0] fpl_st_q;
  logic [1:0] fpl_a_q;
  logic fpl_rew_q;
  logic [AW:0] n_addr;
  logic x_found;
  logic [1:0] cls_new;
  always_comb begin  // the class of the reward unit's value: the first of the values equal to it
    cls_new = 2'd3;
    for (int i = 3; i >= 0; i--) begin
      if (cfg_values_i[i*QW+:QW] == rwd_value_i) cls_new = 2'(i);
    end
  end
  // the offset read with P: its owner is P (its episode parity, the one before the next step's)
  assign x_found = cfg_type_i && (x_rdata[7] == !par_q) && (x_rdata[6:0] != '0);
  assign n_addr = (AW + 1)'(pa_q) + (x_found ? (AW + 1)'(x_rdata[6:0]) : (AW + 1)'(1));
  always_comb begin
    e_re = 1'b0;
    e_raddr = pa_q;
    e_we = 1'b0;
    e_waddr = t_q[AW-1:0];
    e_wdata = {op_state_i, op_type_i, 4'b0};
    e_wmask = '1;
    x_re = 1'b0;
    x_raddr = pa_q;
    x_we = 1'b0;
    x_waddr = l_pos_a;
    x_wdata = {l_par[op_type_i], l_d_a[6:0]};
    if (clr_q) begin
      x_we = 1'b1;
      x_waddr = clr_cnt_q;
      x_wdata = '0;
    end else if (acc_place) begin
      e_we = Learn;  // frozen: P is read first (its entry is the one written)
      e_re = !Learn;
      e_raddr = t_q[AW-1:0];
      // an offset only while its owner holds its slot (below L): a later one is not P's
      x_we = l_v[op_type_i] && (l_d_a <= 8'(Scan)) && (32'(l_d_a) < 32'(cfg_len_i));
    end else if (fpl_q) begin  // frozen: the new entry, a cycle late
      e_we = 1'b1;
      e_waddr = fpl_addr_q;
      e_wdata = {fpl_st_q, fpl_a_q, 4'b0};
    end else if (acc_read) begin  // the read bit
      e_we = m_valid;
      e_waddr = m_addr;
      e_wdata = EW'(4'b1000);
      e_wmask = EW'(4'b1000);
    end else if (acc_rt) begin  // the entry's read bit, for the write in the next cycle
      e_re = m_valid && rdy_q;
      e_raddr = m_addr;
    end else if (mrt_q) begin  // has_rt and the class, if the step was read
      e_we = mrt_go_q && e_rdata[3];
      e_waddr = mrt_addr_q;
      e_wdata = {{(EW - 3){1'b0}}, 1'b1, cls_q};
      e_wmask = {{(EW - 3){1'b0}}, 3'b111};
    end
    unique case (pf_q)
      Pf0: begin  // P's entry and its offset
        e_re = 1'b1;
        x_re = 1'b1;
      end
      Pf1: begin  // N's entry
        e_re = 1'b1;
        e_raddr = (n_addr >= (AW + 1)'(cfg_len_i)) ? AW'(n_addr - (AW + 1)'(cfg_len_i))
                                                   : AW'(n_addr);
      end
      Pf2: begin  // P's offset is used: cleared for the slot's next owner
        x_we = 1'b1;
        x_waddr = pa_q;
        x_wdata = '0;
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      g_q <= '0;
      t_q <= '0;
      tag_q <= 10'd1;
      epz_q <= 1'b0;
      par_q <= 1'b0;
      cls_q <= '0;
      rdy_q <= 1'b0;
      s_q <= '0;
      cop_pend_q <= 1'b0;
      pf_q <= PfIdle;
      clr_q <= 1'b1;
      clr_cnt_q <= '0;
      mrt_q <= 1'b0;
      mrt_go_q <= 1'b0;
      l_v <= '0;
      l_d <= '0;
    end else begin
      if (clr_q) begin  // the offsets cleared after reset
        clr_cnt_q <= clr_cnt_q + AW'(1);
        if (clr_cnt_q == AW'(Depth - 1)) clr_q <= 1'b0;
      end
      if (acc_dec) s_q <= dec_state_o;
      if (acc_place) begin
        g_q <= g_q + 32'd1;
        t_q <= t_next;
        if (epend) begin
          epz_q <= 1'b1;
          par_q <= !par_q;
          tag_q <= (tag_q == 10'd1023) ? 10'd1 : tag_q + 10'd1;
        end
        cop_pend_q <= Learn && epend && epz_q;  // after the update
        if (Learn && (epz_q || epend)) pf_q <= Pf0;  // the next PLACE's P and N
        for (int unsigned a = 0; a < 4; a++) begin
          if (op_type_i == 2'(a)) begin
            l_v[a] <= 1'b1;
            l_d[a*8+:8] <= 8'd1;
          end else if (l_d[a*8+:8] <= 8'(Scan)) begin
            l_d[a*8+:8] <= l_d[a*8+:8] + 8'd1;
          end
        end
      end
      if (cop_pend_q && cop_ready_i) cop_pend_q <= 1'b0;
      unique case (pf_q)
        Pf0: pf_q <= Pf1;
        Pf1: pf_q <= Pf2;
        Pf2: pf_q <= PfIdle;
        default: ;
      endcase
      if (acc_served && !Learn) rdy_q <= 1'b0;  // no reward unit
      if (Learn && rwd_rsp_valid_i) begin
        cls_q <= cls_new;
        rdy_q <= rwd_scanned_i;
      end
      fpl_q <= !Learn && acc_place;
      mrt_q <= acc_rt;
      if (acc_rt) begin
        mrt_go_q <= m_valid && rdy_q;
        mrt_addr_q <= m_addr;
      end
    end
  end

  // the previous step of each type's position and parity, the prefetched P and N, the response
  // (loaded before read: no reset)
  logic [StW-1:0] rs_st;
  logic [1:0] rs_a;
  logic [QW-1:0] rs_r;
  logic [31:0] rs_g;
  logic [3:0] rs_f;
  always_ff @(posedge clk_i) begin
    if (acc_place) begin
      for (int unsigned a = 0; a < 4; a++) begin
        if (op_type_i == 2'(a)) begin
          l_pos[a*AW+:AW] <= t_q[AW-1:0];
          l_par[a] <= par_q;
        end
      end
      pa_q <= t_next[AW-1:0];
      rs_g <= g_q;
      rs_f <= {Learn && epend, epend, epz_q && p_rd, epz_q};
      rs_r <= r_p;
      rs_st <= p_st;
      rs_a <= p_a;
      fpl_addr_q <= t_q[AW-1:0];
      fpl_st_q <= op_state_i;
      fpl_a_q <= op_type_i;
      fpl_rew_q <= epz_q;
    end
    if (fpl_q) begin  // frozen: P (the entry read at the PLACE's edge), its reward
      {p_st, p_a, p_rd, p_hrt, p_cls} <= e_rdata;
      rs_f[1] <= fpl_rew_q && e_rdata[3];
    end
    if (pf_q == Pf1) begin
      {p_st, p_a, p_rd, p_hrt, p_cls} <= e_rdata;
      p_addr <= pa_q;
      n_found <= x_found;
    end
    if (pf_q == Pf2) {n_st, n_a} <= e_rdata[EW-1:4];
    // the marks keep P current
    if (acc_read && m_valid && m_addr == p_addr) p_rd <= 1'b1;
    if (acc_rt && m_valid && rdy_q && m_addr == p_addr && p_rd) begin
      p_hrt <= 1'b1;
      p_cls <= cls_q;
    end
  end

  assign rwd_valid_o = Learn && acc_served;
  assign rwd_sample_o = op_sample_i;
  assign state_o = s_q;
  assign reward_o = Learn ? cfg_values_i[32'(cls_q)*QW+:QW] : '0;
  assign reward_ready_o = rdy_q;
  assign step_o = rs_g;
  assign flags_o = rs_f;
  // frozen: the response from P as read (its registers hold it from the second edge on)
  assign upd_entry_reward_o = Learn ? rs_r : r_p;
  assign upd_entry_state_o = Learn ? rs_st : p_st;
  assign upd_entry_action_o = Learn ? rs_a : p_a;
  assign busy_o = clr_q || mrt_q || fpl_q || cop_pend_q || (pf_q != PfIdle);
  logic unused_ready;  // the update is issued at the PLACE's accept, when the core is idle
  assign unused_ready = upd_ready_i;
endmodule
