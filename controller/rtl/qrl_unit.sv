// An RL decision unit's engine: the Q-learning core plus (optionally) the shared percentile
// reward unit. This is the module the co-simulation verilates and hwcost synthesises, once per
// unit size (controller/rtl/CMakeLists.txt, testbench/hwcost_cmd.cpp). A policy issue wraps it
// with its state encoder and action logic.
//
// The warm-up (docs/rl.md "Reward unit"): a percentile reward classified before the reward
// unit's first threshold scan carries rwd_scanned_o = 0 (every sample earns value 0 then); the
// policy passes that flag with the update that uses the reward (upd_rwd_ready_i), and the core
// drops such an update (done at the next edge, tables unchanged). Updates whose reward does not
// come from the percentile unit (SLC, FSP's page-type term alone) hold upd_rwd_ready_i at 1.
module qrl_unit #(
  parameter int unsigned States = 128,
  parameter int unsigned Actions = 4,
  parameter int unsigned QW = qrl_pkg::QW,
  parameter int unsigned KF = qrl_pkg::KF,
  parameter int unsigned Alpha = qrl_pkg::Alpha,
  parameter int unsigned Gamma = qrl_pkg::Gamma,
  parameter bit Shadow = 1'b0,
  parameter bit HasReward = 1'b1,
  parameter int unsigned InW = qrl_pkg::InW,
  parameter int unsigned SubBits = qrl_pkg::SubBits,
  parameter int unsigned Period = qrl_pkg::Period,
  parameter int unsigned P0 = qrl_pkg::P0,
  parameter int unsigned P1 = qrl_pkg::P1,
  parameter int unsigned P2 = qrl_pkg::P2,
  parameter int unsigned AgeLimit = qrl_pkg::AgeLimit,
  parameter int unsigned StW = (States > 1) ? $clog2(States) : 1,
  parameter int unsigned ActW = (Actions > 1) ? $clog2(Actions) : 1,
  parameter int unsigned Bins = qrl_pkg::Bins,
  parameter int unsigned BinW = qrl_pkg::BinW
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [       15:0] cfg_eps_hi_i,
  input  logic [       15:0] cfg_eps_lo_i,
  input  logic [       23:0] cfg_eps_n_i,
  input  logic [       15:0] cfg_episode_len_i,
  input  logic [     4*QW-1:0] cfg_values_i,
  input  logic               dec_valid_i,
  output logic               dec_ready_o,
  input  logic [    StW-1:0] dec_state_i,
  input  logic [Actions-1:0] dec_mask_i,
  output logic               dec_rsp_valid_o,
  output logic [   ActW-1:0] dec_action_o,
  output logic               dec_explored_o,
  input  logic               upd_valid_i,
  output logic               upd_ready_o,
  input  logic [    StW-1:0] upd_state_i,
  input  logic [   ActW-1:0] upd_action_i,
  input  logic [     QW-1:0] upd_reward_i,
  input  logic [    StW-1:0] upd_next_state_i,
  input  logic [   ActW-1:0] upd_next_action_i,
  input  logic               upd_next_max_i,
  input  logic [Actions-1:0] upd_next_mask_i,
  input  logic               upd_rwd_ready_i,  // 0: the reward is from the warm-up: drop
  output logic               upd_done_o,
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
  input  logic               rwd_valid_i,
  output logic               rwd_ready_o,
  input  logic [    InW-1:0] rwd_sample_i,
  output logic               rwd_rsp_valid_o,
  output logic [     QW-1:0] rwd_value_o,
  output logic [   BinW-1:0] rwd_bin_o,
  output logic               rwd_scanned_o,  // with the response: thresholds from a scan
  output logic               idle_o
);
  logic core_idle, rwd_idle;

  qrl_core #(
    .States (States),
    .Actions(Actions),
    .QW     (QW),
    .KF     (KF),
    .Alpha  (Alpha),
    .Gamma  (Gamma),
    .Shadow (Shadow),
    .StW    (StW),
    .ActW   (ActW)
  ) u_core (
    .clk_i,
    .rst_ni,
    .cfg_eps_hi_i,
    .cfg_eps_lo_i,
    .cfg_eps_n_i,
    .cfg_episode_len_i,
    .dec_valid_i,
    .dec_ready_o,
    .dec_state_i,
    .dec_mask_i,
    .dec_rsp_valid_o,
    .dec_action_o,
    .dec_explored_o,
    .upd_valid_i,
    .upd_ready_o,
    .upd_state_i,
    .upd_action_i,
    .upd_reward_i,
    .upd_next_state_i,
    .upd_next_action_i,
    .upd_next_max_i,
    .upd_next_mask_i,
    .upd_rwd_ready_i,
    .upd_done_o,
    .mgt_valid_i,
    .mgt_ready_o,
    .mgt_op_i,
    .mgt_state_i,
    .mgt_action_i,
    .mgt_shadow_i,
    .mgt_value_i,
    .mgt_seed_i,
    .mgt_rsp_valid_o,
    .mgt_value_o,
    .idle_o(core_idle)
  );

  if (HasReward) begin : g_reward
    qrl_reward #(
      .InW     (InW),
      .SubBits (SubBits),
      .Period  (Period),
      .P0      (P0),
      .P1      (P1),
      .P2      (P2),
      .AgeLimit(AgeLimit),
      .QW      (QW),
      .Bins    (Bins),
      .BinW    (BinW)
    ) u_reward (
      .clk_i,
      .rst_ni,
      .cfg_values_i,
      .rwd_valid_i,
      .rwd_ready_o,
      .rwd_sample_i,
      .rwd_rsp_valid_o,
      .rwd_value_o,
      .rwd_bin_o,
      .rwd_scanned_o,
      .idle_o(rwd_idle)
    );
  end else begin : g_no_reward
    assign rwd_ready_o = 1'b0;
    assign rwd_rsp_valid_o = 1'b0;
    assign rwd_value_o = '0;
    assign rwd_bin_o = '0;
    assign rwd_scanned_o = 1'b0;
    assign rwd_idle = 1'b1;
    logic unused_rwd;
    assign unused_rwd = ^{cfg_values_i, rwd_valid_i, rwd_sample_i};
  end

  assign idle_o = core_idle && rwd_idle;
endmodule
