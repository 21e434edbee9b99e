// The GC scheduler as a whole RL unit (docs/rl.md "State encoders"): its configuration registers
// (qrl_cfg), its state encoder and SARSA bookkeeping (qrl_enc_gc), the Q-learning core (qrl_core
// at the design point Mode) and, unless frozen, the percentile reward unit (qrl_reward). The RTL
// backend (controller/rl/rtl_backend.cpp) drives this top: the controller's raw counters in, the
// decisions out. Twin of rl::GcEncoder over rl::QCore and rl::PercentileReward.
// Ports: configuration words (qrl_cfg, set-up), the operation (op_*: qrl_enc_gc, accepted while
// idle_o), the responses (the core's decision pulse, the reward unit's sample pulse and bin, the
// encoder's response registers), the core's management port (table load and save, SEED).
module qrl_unit_gc #(
  parameter int unsigned Mode = 0,
  parameter int unsigned PrevN = 1,
  parameter logic [((PrevN > 0) ? PrevN : 1)*32-1:0] PrevThr = qrl_pkg::GcPrevThr,
  parameter int unsigned CurN = 16,
  parameter logic [((CurN > 0) ? CurN : 1)*32-1:0] CurThr = qrl_pkg::GcCurThr,
  parameter int unsigned ActN = 1,
  parameter logic [((ActN > 0) ? ActN : 1)*3-1:0] ActThr = 3'd4,
  // ε 0.8 (52429) for 1000 decisions then 0.01 (655); rewards +1, +0.5, 0, -0.5
  parameter logic [127:0] CfgInit = {16'hff80, 16'h0000, 16'h0080, 16'h0100, 32'd1000,
                                     16'd655, 16'd52429},
  parameter int unsigned States = (PrevN + 1) * (CurN + 1) * (ActN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // configuration registers
  input  logic                   cfg_we_i,
  input  logic [            1:0] cfg_addr_i,
  input  logic [           31:0] cfg_wdata_i,
  // operation: 0 SAMPLE(latency, interval), 1 DECIDE, 2 COMMIT(action)
  input  logic                   op_valid_i,
  output logic                   op_ready_o,
  input  logic [            1:0] op_code_i,
  input  logic [           31:0] op_latency_i,
  input  logic [           31:0] op_interval_i,
  input  logic [            2:0] op_action_i,
  // responses
  output logic                   dec_rsp_valid_o,
  output logic [            2:0] dec_action_o,
  output logic                   dec_explored_o,
  output logic                   rwd_rsp_valid_o,
  output logic [qrl_pkg::BinW-1:0] rwd_bin_o,
  output logic                   upd_done_o,
  output logic [        StW-1:0] state_o,
  output logic [qrl_pkg::QW-1:0] reward_o,
  output logic                   reward_ready_o,
  output logic                   upd_o,
  output logic [        StW-1:0] upd_state_o,
  output logic [            2:0] upd_action_o,
  // management (qrl_core)
  input  logic                   mgt_valid_i,
  output logic                   mgt_ready_o,
  input  logic [            1:0] mgt_op_i,
  input  logic [        StW-1:0] mgt_state_i,
  input  logic [            2:0] mgt_action_i,
  input  logic                   mgt_shadow_i,
  input  logic [qrl_pkg::QW-1:0] mgt_value_i,
  input  logic [           31:0] mgt_seed_i,
  output logic                   mgt_rsp_valid_o,
  output logic [qrl_pkg::QW-1:0] mgt_value_o,
  output logic                   idle_o
);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned Actions = 8;

  logic [127:0] cfg;
  qrl_cfg #(.Words(4), .Init(CfgInit)) u_cfg (.clk_i, .rst_ni, .we_i(cfg_we_i),
      .addr_i(cfg_addr_i), .wdata_i(cfg_wdata_i), .q_o(cfg));

  logic dec_valid, dec_ready, upd_valid, upd_ready, upd_rwd_ready;
  logic [StW-1:0] dec_state, upd_state, upd_next_state;
  logic [2:0] upd_action, upd_next_action;
  logic [QW-1:0] upd_reward, rwd_value;
  logic rwd_valid, rwd_ready, rwd_scanned, core_idle, rwd_idle;
  logic [31:0] rwd_sample;

  assign op_ready_o = idle_o && !mgt_valid_i;

  qrl_enc_gc #(
    .Mode(Mode), .PrevN(PrevN), .PrevThr(PrevThr), .CurN(CurN), .CurThr(CurThr), .ActN(ActN),
    .ActThr(ActThr), .States(States), .StW(StW)
  ) u_enc (
    .clk_i, .rst_ni,
    .op_valid_i, .op_ready_i(op_ready_o), .op_code_i, .op_latency_i, .op_interval_i, .op_action_i,
    .dec_valid_o(dec_valid), .dec_state_o(dec_state),
    .upd_valid_o(upd_valid), .upd_state_o(upd_state), .upd_action_o(upd_action),
    .upd_reward_o(upd_reward), .upd_next_state_o(upd_next_state),
    .upd_next_action_o(upd_next_action), .upd_rwd_ready_o(upd_rwd_ready),
    .rwd_valid_o(rwd_valid), .rwd_sample_o(rwd_sample), .rwd_rsp_valid_i(rwd_rsp_valid_o),
    .rwd_value_i(rwd_value), .rwd_scanned_i(rwd_scanned),
    .state_o, .reward_o, .reward_ready_o, .upd_o, .upd_entry_state_o(upd_state_o),
    .upd_entry_action_o(upd_action_o)
  );

  qrl_core #(
    .Mode(Mode), .States(States), .Actions(Actions), .Shadow(1'b0)
  ) u_core (
    .clk_i, .rst_ni,
    .cfg_eps_hi_i(cfg[15:0]), .cfg_eps_lo_i(cfg[31:16]), .cfg_eps_n_i(cfg[55:32]),
    .cfg_episode_len_i(16'd0),
    .dec_valid_i(dec_valid), .dec_ready_o(dec_ready), .dec_state_i(dec_state),
    .dec_mask_i({Actions{1'b1}}), .dec_rsp_valid_o, .dec_action_o, .dec_explored_o,
    .upd_valid_i(upd_valid), .upd_ready_o(upd_ready), .upd_state_i(upd_state),
    .upd_action_i(upd_action), .upd_reward_i(upd_reward), .upd_next_state_i(upd_next_state),
    .upd_next_action_i(upd_next_action), .upd_next_max_i(1'b0),
    .upd_next_mask_i({Actions{1'b1}}), .upd_rwd_ready_i(upd_rwd_ready), .upd_done_o,
    .mgt_valid_i, .mgt_ready_o, .mgt_op_i, .mgt_state_i, .mgt_action_i, .mgt_shadow_i,
    .mgt_value_i, .mgt_seed_i, .mgt_rsp_valid_o, .mgt_value_o, .idle_o(core_idle)
  );

  if (Mode != 2) begin : g_reward
    qrl_reward u_reward (
      .clk_i, .rst_ni, .cfg_values_i(cfg[127:64]), .rwd_valid_i(rwd_valid),
      .rwd_ready_o(rwd_ready), .rwd_sample_i(rwd_sample), .rwd_rsp_valid_o, .rwd_scanned_o(rwd_scanned),
      .rwd_value_o(rwd_value), .rwd_bin_o, .idle_o(rwd_idle)
    );
  end else begin : g_no_reward  // a frozen unit learns nothing
    assign rwd_ready = 1'b1;
    assign rwd_rsp_valid_o = 1'b0;
    assign rwd_scanned = 1'b0;
    assign rwd_value = '0;
    assign rwd_bin_o = '0;
    assign rwd_idle = 1'b1;
    logic unused_rwd;
    assign unused_rwd = ^{rwd_valid, rwd_sample, cfg[127:64]};
  end

  // the requests are issued only while the unit is idle, when the core and the reward unit are
  // ready for them
  logic unused_ready;
  assign unused_ready = ^{dec_ready, upd_ready, rwd_ready, cfg[63:56]};
  assign idle_o = core_idle && rwd_idle;
endmodule
