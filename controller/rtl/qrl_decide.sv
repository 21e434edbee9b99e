// The ε-greedy decision of qrl_core: the LFSR, the ε schedule, the episode count, the maximum
// set (qrl_winner) and the random pick among a set (docs/rl.md "ε-greedy decision"). Three
// steps, one decision per cycle, latency 2:
//   accept edge E0 (acc_i): the order-bit RAM is read (qrl_core), the mask registered (mask_q_i);
//   second cycle (busy_o): the LFSR word w is the register's value; ε test on w[31:16]; the set
//     the action is drawn from: the allowed actions when exploring, else the maximum set of the
//     order bits under the mask; its popcount n; the top bits of w[15:0] * o for every odd
//     o <= Actions (qrl_kprod). Edge E1 registers them, advances the LFSR by its 32-step leap
//     and counts the decision down from the ε-high budget;
//   after E1 (the response cycle): k = (w[15:0] * n) >> 16 selected from the registered bits by
//     n, and the member of the set whose rank is k (qrl_kth): rsp_action_o is logic behind
//     registers, valid with rsp_valid_o only (the registers load at every edge, no enables).
// One rank formula for both branches: exploring, the set is the allowed actions; exploiting, the
// maximum set (ties broken uniformly at random, a strict maximum always wins).
// dec_cnt counts down the decisions left at eps_hi: loaded with cfg_i.eps_n at eps_load_i (the
// core's reset clear and SEED; a load wins over the count of a decision in its second cycle, as
// the C++ model's seed() after decide()).
// Explore = 0 (the greedy and frozen design points, qrl_core Mode 1 and 2): no LFSR, no ε test,
// no ε schedule, no random pick; every decision takes the lowest member of the maximum set
// (qrl_winner's idx_o, the lower index winning ties), registered at E1: the C++ model with
// random_ties false (eps_high = eps_low = 0). SEED loads nothing.
// Episodes (Shadow): every cfg_i.episode_len-th decision (0: never) closes the episode (ep_end_o
// with its accept; the core then copies the shadow table); ep_clr_i (a management COPY or SEED)
// restarts the count.
// EpsPeriodLog2 P > 0 (the design knob rl_eps_period = 2^P): ε = max(eps_hi >> floor(t / 2^P),
// eps_lo), t the decisions since eps_load_i in a 24-bit saturating counter (eps_n unused); the ε
// of the next decision registered with the count (fmax: no shifter in front of the ε test).
module qrl_decide #(
  parameter int unsigned Actions = 4,
  parameter bit Shadow = 1'b0,
  parameter bit Explore = 1'b1,
  parameter int unsigned EpsPeriodLog2 = 0
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  qrl_pkg::eps_cfg_t                     cfg_i,
  input  logic                                  ep_clr_i,
  output logic                                  ep_end_o,
  input  logic                                  acc_i,       // a decide is accepted
  input  logic                                  eps_load_i,  // reload the ε counter
  input  logic                                  seed_i,      // SEED: load the LFSR
  input  logic [                          31:0] seed_val_i,
  input  logic [                   Actions-1:0] mask_i,      // the request's (empty = all)
  output logic [                   Actions-1:0] mask_n_o,    // the same, normalised
  input  logic [                   Actions-1:0] mask_q_i,    // the core's registered mask
  // the active table's order bits (second cycle), the work table's (the update's a*)
  input  logic [2*qrl_pkg::pair_w(Actions)-1:0] order_i,
  input  logic [2*qrl_pkg::pair_w(Actions)-1:0] work_order_i,
  input  logic                                  use_work_i,  // the winner of work_order_i
  output logic [   qrl_pkg::idx_w(Actions)-1:0] win_idx_o,   // argmax under mask_q_i
  output logic                                  busy_o,      // in the second cycle
  output logic                                  rsp_valid_o,
  output logic [   qrl_pkg::idx_w(Actions)-1:0] rsp_action_o,
  output logic                                  rsp_explored_o
);
  localparam int unsigned ActW = qrl_pkg::idx_w(Actions);
  localparam int unsigned PairW = qrl_pkg::pair_w(Actions);

  logic d1_q;
  logic [Actions-1:0] max_set;

  qrl_winner #(
    .Actions(Actions),
    .Direct (!Explore),
    .ActW   (ActW),
    .PairW  (PairW)
  ) u_winner (
    .order_i(use_work_i ? work_order_i : order_i),
    .mask_i (mask_q_i),
    .max_o  (max_set),
    .idx_o  (win_idx_o)
  );

  assign mask_n_o = (mask_i == '0) ? {Actions{1'b1}} : mask_i;

  if (Explore) begin : g_eps
    localparam int unsigned CntW = $clog2(Actions + 1);
    localparam int unsigned KbW = qrl_pkg::kp_width(Actions);
    logic [31:0] w;
    logic explore;
    logic [Actions-1:0] set, set_q;
    logic [CntW-1:0] cnt_max, cnt_mask, cnt, cnt_q;
    logic [KbW-1:0] kb, kb_q;
    logic [ActW-1:0] k;
    logic [15:0] eps_cur;  // the ε of a decision in its second cycle

    qrl_lfsr u_lfsr (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .en_i      (d1_q),
      .load_i    (seed_i),
      .load_val_i(seed_val_i),
      .word_o    (w)
    );

    // second cycle: ε test, the set, its popcount, the products' bits; both popcounts in
    // parallel, selected by the ε test at the end (fmax: the 16-bit compare is not in front of
    // the popcount)
    assign explore = w[31:16] < eps_cur;
    qrl_popcnt #(
      .N(Actions),
      .W(CntW)
    ) u_cnt_max (
      .v_i  (max_set),
      .cnt_o(cnt_max)
    );
    qrl_popcnt #(
      .N(Actions),
      .W(CntW)
    ) u_cnt_mask (
      .v_i  (mask_q_i),
      .cnt_o(cnt_mask)
    );
    assign set = explore ? mask_q_i : max_set;
    assign cnt = explore ? cnt_mask : cnt_max;
    if (EpsPeriodLog2 == 0) begin : g_sched
      logic [23:0] dec_cnt_q;
      logic eps_high;  // dec_cnt_q != 0, registered (fmax)
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          dec_cnt_q <= '0;
          eps_high <= 1'b0;
        end else if (eps_load_i) begin
          dec_cnt_q <= cfg_i.eps_n;
          eps_high <= (cfg_i.eps_n != '0);
        end else if (d1_q && eps_high) begin
          dec_cnt_q <= dec_cnt_q - 24'h1;
          eps_high <= (dec_cnt_q != 24'h1);
        end
      end
      assign eps_cur = eps_high ? cfg_i.eps_hi : cfg_i.eps_lo;
    end else begin : g_decay
      localparam int unsigned EW = 24 - EpsPeriodLog2;  // the halvings: the count's top bits
      logic [23:0] t_q, t_d;
      logic [15:0] eps_q, eps_d, hi_sh;
      logic [EW-1:0] e;
      assign t_d = eps_load_i ? 24'h0 : (t_q + {23'h0, t_q != 24'hFFFFFF});
      assign e = t_d[23:EpsPeriodLog2];
      assign hi_sh = (32'(e) >= 32'd16) ? 16'h0 : (cfg_i.eps_hi >> e);
      assign eps_d = (hi_sh > cfg_i.eps_lo) ? hi_sh : cfg_i.eps_lo;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          t_q <= '0;
          eps_q <= '0;
        end else if (eps_load_i || d1_q) begin
          t_q <= t_d;
          eps_q <= eps_d;
        end
      end
      assign eps_cur = eps_q;
      logic unused_n;
      assign unused_n = ^cfg_i.eps_n;
    end

    qrl_kprod #(
      .Actions(Actions),
      .KbW    (KbW)
    ) u_kprod (
      .rnd_i(w[15:0]),
      .kb_i (kb_q),
      .cnt_i(cnt_q),
      .kb_o (kb),
      .k_o  (k)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rsp_explored_o <= 1'b0;
        set_q <= '0;
        cnt_q <= '0;
        kb_q <= '0;
      end else begin
        // no enables (area): read only in the response cycle after their load edge
        rsp_explored_o <= explore;
        set_q <= set;
        cnt_q <= cnt;
        kb_q <= kb;
      end
    end

    // response cycle: the member of set_q whose rank is k
    qrl_kth #(
      .Actions(Actions),
      .ActW   (ActW)
    ) u_kth (
      .mask_q_i(set_q),
      .k_i     (k),
      .idx_o   (rsp_action_o)
    );
  end else begin : g_greedy
    // the lowest member of the maximum set, registered at E1 (no reset: read only in the
    // response cycle after its load edge)
    logic [ActW-1:0] idx_q;
    always_ff @(posedge clk_i) idx_q <= win_idx_o;
    assign rsp_action_o = idx_q;
    assign rsp_explored_o = 1'b0;
    logic unused_eps;
    assign unused_eps = ^{cfg_i.eps_hi, cfg_i.eps_lo, cfg_i.eps_n, eps_load_i, seed_i, seed_val_i,
                          max_set};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d1_q <= 1'b0;
      rsp_valid_o <= 1'b0;
    end else begin
      d1_q <= acc_i;
      rsp_valid_o <= d1_q;
    end
  end

  if (Shadow) begin : g_episode
    logic [15:0] ep_cnt_q;
    logic ep_on;
    assign ep_on = (cfg_i.episode_len != 16'h0);
    assign ep_end_o = acc_i && ep_on && (ep_cnt_q + 16'h1 == cfg_i.episode_len);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ep_cnt_q <= '0;
      end else if (ep_clr_i || ep_end_o) begin
        ep_cnt_q <= '0;
      end else if (acc_i && ep_on) begin
        ep_cnt_q <= ep_cnt_q + 16'h1;
      end
    end
  end else begin : g_no_episode
    assign ep_end_o = 1'b0;
    logic unused_ep;
    assign unused_ep = ^{cfg_i.episode_len, ep_clr_i};
  end

  assign busy_o = d1_q;
endmodule
