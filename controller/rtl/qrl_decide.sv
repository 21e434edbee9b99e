// The ε-greedy decision of qrl_core: the LFSR, the ε schedule, the exploration rank (qrl_pick)
// and index (qrl_kth), the random tie-break among the maximum set (qrl_tie), and the response
// registers. The maximum set comes from the order bits of the active table (qrl_winner, here);
// the winner's argmax is also the core's update a* (win_idx_o, of the work table's order bits
// when use_work_i).
//   accept edge X (acc_i): LFSR draw (the word is the register's value in the accept cycle, the
//   C++ model's draw() order), ε test, exploration rank k, ranks of the mask, the tie-break's
//   products (w[15:0] * n) >> 16 for every n;
//   edge X+1: the explored action (the k-th allowed index, the ranks formed from the registered
//   mask in this cycle) and the explore flag into the response registers; for the exploiting one
//   the maximum set, its popcount and the products (qrl_tie), whose k and member of rank k are
//   found after the edge: rsp_action_o is a mux behind registers, not a register. The latency
//   stays 2 edges. rsp_action_o and rsp_explored_o are valid with rsp_valid_o only (the
//   pipeline's registers load at every edge, no enables).
// dec_cnt counts down the decisions left at eps_hi: loaded with cfg_eps_n_i at eps_load_i (the
// core's reset clear and SEED; no comparator with the configuration).
// Episodes (Shadow): every cfg_episode_len_i-th decision (0: never) closes the episode (ep_end_o
// with its accept; the core then copies the shadow table); ep_clr_i (a management COPY or SEED)
// restarts the count.
module qrl_decide #(
  parameter int unsigned Actions = 4,
  parameter bit Shadow = 1'b0,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned PairW = (Actions > 1) ? Actions * (Actions - 1) / 2 : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [       15:0] cfg_eps_hi_i,
  input  logic [       15:0] cfg_eps_lo_i,
  input  logic [       23:0] cfg_eps_n_i,
  input  logic [       15:0] cfg_episode_len_i,
  input  logic               ep_clr_i,
  output logic               ep_end_o,
  input  logic               acc_i,        // a decide is accepted
  input  logic               eps_load_i,   // reload the ε counter
  input  logic               seed_i,       // SEED: load the LFSR
  input  logic [       31:0] seed_val_i,
  input  logic [Actions-1:0] mask_i,       // the request's mask (empty = all allowed)
  output logic [Actions-1:0] mask_n_o,     // the same, normalised
  input  logic [Actions-1:0] mask_q_i,     // the core's registered mask (second cycle)
  input  logic [2*PairW-1:0] order_i,      // the active table's order bits (second cycle)
  input  logic [2*PairW-1:0] work_order_i, // the work table's (the update's a*)
  input  logic               use_work_i,   // the winner of work_order_i (update), not order_i
  output logic [   ActW-1:0] win_idx_o,    // the winner's argmax under mask_q_i
  output logic               busy_o,       // in the second cycle
  output logic               rsp_valid_o,
  output logic [   ActW-1:0] rsp_action_o,
  output logic               rsp_explored_o
);
  logic [23:0] dec_cnt_q;
  logic [31:0] lfsr_word;
  logic d1_valid_q, explore_q, eps_high, explore_d;
  logic [ActW-1:0] k_q, k_d, kth_idx, kth_q, tie_idx;
  logic [Actions*ActW-1:0] kn;
  logic [$clog2(Actions + 1)-1:0] kth_cnt;  // the mask's popcount: qrl_pick has its own
  logic [Actions-1:0] max_i;  // the maximum set (second cycle)

  qrl_winner #(
    .Actions(Actions),
    .ActW   (ActW),
    .PairW  (PairW)
  ) u_winner (
    .order_i(use_work_i ? work_order_i : order_i),
    .mask_i (mask_q_i),
    .max_o  (max_i),
    .idx_o  (win_idx_o)
  );

  qrl_lfsr u_lfsr (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .en_i      (acc_i),
    .load_i    (seed_i),
    .load_val_i(seed_val_i),
    .word_o    (lfsr_word)
  );

  assign mask_n_o = (mask_i == '0) ? {Actions{1'b1}} : mask_i;
  assign eps_high = (dec_cnt_q != '0);
  assign explore_d = lfsr_word[31:16] < (eps_high ? cfg_eps_hi_i : cfg_eps_lo_i);

  qrl_pick #(
    .Actions(Actions),
    .ActW   (ActW)
  ) u_pick (
    .mask_i(mask_i),
    .rnd_i (lfsr_word[15:0]),
    .k_o   (k_d),
    .kn_o  (kn)
  );

  qrl_tie #(
    .Actions(Actions),
    .ActW   (ActW)
  ) u_tie (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .kn_i  (kn),
    .set_i (max_i),
    .idx_o (tie_idx)
  );

  qrl_kth #(
    .Actions(Actions),
    .ActW   (ActW)
  ) u_kth (
    .mask_i  (mask_n_o),
    .mask_q_i(mask_q_i),
    .k_i     (k_q),
    .idx_o   (kth_idx),
    .cnt_o   (kth_cnt)
  );
  logic unused_kth_cnt;
  assign unused_kth_cnt = ^kth_cnt;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_cnt_q <= '0;
      d1_valid_q <= 1'b0;
      explore_q <= 1'b0;
      k_q <= '0;
      rsp_valid_o <= 1'b0;
      rsp_explored_o <= 1'b0;
      kth_q <= '0;
    end else begin
      if (eps_load_i) begin
        dec_cnt_q <= cfg_eps_n_i;
      end else if (acc_i && eps_high) begin
        dec_cnt_q <= dec_cnt_q - 24'h1;
      end
      d1_valid_q <= acc_i;
      // no enables (area): each is read only in the cycle after its load edge (the second
      // cycle, the response cycle); the response's action and flag are valid with rsp_valid_o
      explore_q <= explore_d;
      k_q <= k_d;
      rsp_valid_o <= d1_valid_q;
      rsp_explored_o <= explore_q;
      kth_q <= kth_idx;
    end
  end

  if (Shadow) begin : g_episode
    logic [15:0] ep_cnt_q;
    logic ep_on;
    assign ep_on = (cfg_episode_len_i != 16'h0);
    assign ep_end_o = acc_i && ep_on && (ep_cnt_q + 16'h1 == cfg_episode_len_i);
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
    assign unused_ep = ^{cfg_episode_len_i, ep_clr_i};
  end

  assign busy_o = d1_valid_q;
  assign rsp_action_o = rsp_explored_o ? kth_q : tie_idx;
endmodule
