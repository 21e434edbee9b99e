// Place-and-route harness of an RL decision unit (qrl_core and, with HasReward, qrl_reward),
// for the fmax figure of `ssdtlm hwcost` only. Never part of the co-simulation and NOT counted
// in any reported area: the area figures (logic_kge, core_kge, reward_kge, iCE40 LUT4/FF/BRAM)
// come from the bare qrl_core and qrl_reward flows; only ice40.fmax_mhz and ice40.device come
// from this harness.
//
// The unit has several hundred ports (a whole q-table row in and out), far more than a package
// has pins. The harness turns them into internal registers so that placement succeeds and the
// unit's paths are timed register to register, as they would be inside a controller:
//   - every unit input is a bit of one shift register fed from the single pin sin_i (one new bit
//     per clock), so all inputs are registered and independent, none constant;
//   - every unit output is registered, then XOR-folded into OutPins pins (without a reward unit
//     its outputs are constants: the XOR fold drops them).
// Both registers carry (* keep *) so that Yosys removes none of the unit's logic.
module qrl_harness #(
  parameter int unsigned Mode = 0,  // qrl_core's design point (0 online, 1 greedy, 2 frozen)
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter bit Shadow = 1'b0,
  parameter bit HasReward = 1'b1,
  parameter int unsigned OutPins = 8
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               sin_i,
  output logic [OutPins-1:0] fold_o
);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned InW = qrl_pkg::InW;
  localparam int unsigned StW = qrl_pkg::idx_w(States);
  localparam int unsigned ActW = qrl_pkg::idx_w(Actions);
  localparam int unsigned BinW = qrl_pkg::BinW;
  // Sum of the unit's input widths (clock and reset excepted) and of its output widths.
  localparam int unsigned InBits = 16 + 16 + 24 + 16 + 4 * QW  // cfg
                                 + 1 + StW + Actions  // dec
                                 + 1 + StW + ActW + QW + StW + ActW + 1 + Actions + 1  // upd
                                 + 1 + 2 + StW + ActW + 1 + QW + 32  // mgt
                                 + 1 + InW;  // rwd
  localparam int unsigned OutBits = 1 + 1 + ActW + 1  // dec
                                  + 1 + 1  // upd
                                  + 1 + 1 + QW  // mgt
                                  + 1 + 1 + QW + BinW + 1  // rwd
                                  + 1;  // idle
  localparam int unsigned FoldW = (OutBits + OutPins - 1) / OutPins;

  (* keep *) logic [ InBits-1:0] in_q;
  (* keep *) logic [OutBits-1:0] out_q;
  logic [OutBits-1:0] out_d;
  logic [OutPins*FoldW-1:0] out_pad;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_q  <= '0;
      out_q <= '0;
    end else begin
      in_q  <= {in_q[InBits-2:0], sin_i};
      out_q <= out_d;
    end
  end

  logic [       15:0] cfg_eps_hi, cfg_eps_lo, cfg_episode_len;
  logic [       23:0] cfg_eps_n;
  logic [     4*QW-1:0] cfg_values;
  logic               dec_valid, upd_valid, upd_next_max, upd_rwd_ready, mgt_valid, mgt_shadow;
  logic               rwd_valid;
  logic [    StW-1:0] dec_state, upd_state, upd_next_state, mgt_state;
  logic [Actions-1:0] dec_mask, upd_next_mask;
  logic [   ActW-1:0] upd_action, upd_next_action;
  logic [     QW-1:0] upd_reward;
  logic [        1:0] mgt_op;
  logic [   ActW-1:0] mgt_action;
  logic [     QW-1:0] mgt_value;
  logic [       31:0] mgt_seed;
  logic [    InW-1:0] rwd_sample;
  assign {cfg_eps_hi, cfg_eps_lo, cfg_eps_n, cfg_episode_len, cfg_values,
          dec_valid, dec_state, dec_mask,
          upd_valid, upd_state, upd_action, upd_reward, upd_next_state, upd_next_action,
          upd_next_max, upd_next_mask, upd_rwd_ready,
          mgt_valid, mgt_op, mgt_state, mgt_action, mgt_shadow, mgt_value, mgt_seed,
          rwd_valid, rwd_sample} = in_q;

  logic dec_ready, dec_rsp_valid, dec_explored, upd_ready, upd_done, mgt_ready, mgt_rsp_valid;
  logic rwd_ready, rwd_rsp_valid, rwd_scanned, idle;
  logic [ActW-1:0] dec_action;
  logic [QW-1:0] mgt_value_out;
  logic [  QW-1:0] rwd_value;
  logic [BinW-1:0] rwd_bin;

  logic core_idle, rwd_idle;
  qrl_core #(
    .Mode   (Mode),
    .States (States),
    .Actions(Actions),
    .Shadow (Shadow)
  ) u_core (
    .clk_i,
    .rst_ni,
    .cfg_eps_hi_i     (cfg_eps_hi),
    .cfg_eps_lo_i     (cfg_eps_lo),
    .cfg_eps_n_i      (cfg_eps_n),
    .cfg_episode_len_i(cfg_episode_len),
    .dec_valid_i      (dec_valid),
    .dec_ready_o      (dec_ready),
    .dec_state_i      (dec_state),
    .dec_mask_i       (dec_mask),
    .dec_rsp_valid_o  (dec_rsp_valid),
    .dec_action_o     (dec_action),
    .dec_explored_o   (dec_explored),
    .upd_valid_i      (upd_valid),
    .upd_ready_o      (upd_ready),
    .upd_state_i      (upd_state),
    .upd_action_i     (upd_action),
    .upd_reward_i     (upd_reward),
    .upd_next_state_i (upd_next_state),
    .upd_next_action_i(upd_next_action),
    .upd_next_max_i   (upd_next_max),
    .upd_next_mask_i  (upd_next_mask),
    .upd_rwd_ready_i  (upd_rwd_ready),
    .upd_done_o       (upd_done),
    .mgt_valid_i      (mgt_valid),
    .mgt_ready_o      (mgt_ready),
    .mgt_op_i         (mgt_op),
    .mgt_state_i      (mgt_state),
    .mgt_action_i     (mgt_action),
    .mgt_shadow_i     (mgt_shadow),
    .mgt_value_i      (mgt_value),
    .mgt_seed_i       (mgt_seed),
    .mgt_rsp_valid_o  (mgt_rsp_valid),
    .mgt_value_o      (mgt_value_out),
    .idle_o           (core_idle)
  );
  if (HasReward) begin : g_reward
    qrl_reward u_reward (.clk_i, .rst_ni, .cfg_values_i(cfg_values), .rwd_valid_i(rwd_valid),
        .rwd_ready_o(rwd_ready), .rwd_sample_i(rwd_sample), .rwd_rsp_valid_o(rwd_rsp_valid),
        .rwd_scanned_o(rwd_scanned), .rwd_value_o(rwd_value), .rwd_bin_o(rwd_bin),
        .idle_o(rwd_idle));
  end else begin : g_no_reward
    assign {rwd_ready, rwd_rsp_valid, rwd_scanned, rwd_value, rwd_bin, rwd_idle} = '0;
    logic unused_rwd;
    assign unused_rwd = ^{cfg_values, rwd_valid, rwd_sample};
  end
  assign idle = core_idle && rwd_idle;

  assign out_d = {dec_ready, dec_rsp_valid, dec_action, dec_explored,
                  upd_ready, upd_done,
                  mgt_ready, mgt_rsp_valid, mgt_value_out,
                  rwd_ready, rwd_rsp_valid, rwd_value, rwd_bin, rwd_scanned,
                  idle};
  always_comb begin
    out_pad = '0;
    out_pad[OutBits-1:0] = out_q;
    for (int unsigned p = 0; p < OutPins; p++) begin
      fold_o[p] = ^out_pad[p*FoldW+:FoldW];
    end
  end
endmodule
