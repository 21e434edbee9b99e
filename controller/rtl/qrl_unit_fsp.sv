// The FSP grouper as a whole RL unit (docs/rl.md "State encoders"): its configuration registers
// (qrl_cfg; word 4: fsp.episode_steps, word 5: {fsp.bootstrap type at bit 8, sectors per page at
// [5:0]}), its state encoder, episode buffer and delayed reward (qrl_enc_fsp), the Q-learning
// core with its shadow table (qrl_core at the design point Mode) and, unless frozen, the
// percentile reward unit (qrl_reward). The RTL backend (controller/rl/rtl_backend.cpp) drives
// this top. Twin of rl::FspEncoder over rl::QCore and rl::PercentileReward.
// Operations (op_*, accepted while idle_o): 0 DECIDE, 1 PLACE, 2 MARK_READ, 3 SERVED, 4 MARK_RT.
module qrl_unit_fsp #(
  parameter int unsigned Mode = 0,
  parameter int unsigned Depth = 1024,
  parameter int unsigned Scan = 64,
  parameter int unsigned CountN = 3,
  parameter logic [((CountN > 0) ? CountN : 1)*3-1:0] CountThr = 9'h1a2,
  parameter bit ShortOn = 1'b1,
  parameter int unsigned SizeN = 1,
  parameter logic [((SizeN > 0) ? SizeN : 1)*32-1:0] SizeThr = 32'd2,
  parameter bit PartialOn = 1'b1,
  parameter int unsigned TypeN = 3,
  parameter logic [((TypeN > 0) ? TypeN : 1)*2-1:0] TypeThr = 6'h39,
  // ε 0.8 (52429) for 4000 decisions then 0.01 (655); rewards +1, +0.5, 0, -1; 1000 steps per
  // episode; 2 sectors per page, the slot bootstrap
  parameter logic [191:0] CfgInit = {32'd2, 32'd1000, 16'hff00, 16'h0000, 16'h0080, 16'h0100,
                                     32'd4000, 16'd655, 16'd52429},
  parameter int unsigned States = (CountN + 1) * (ShortOn ? 2 : 1) * (SizeN + 1) *
                                  (PartialOn ? 2 : 1) * (TypeN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // configuration registers
  input  logic                     cfg_we_i,
  input  logic [              2:0] cfg_addr_i,
  input  logic [             31:0] cfg_wdata_i,
  // operation
  input  logic                     op_valid_i,
  output logic                     op_ready_o,
  input  logic [              2:0] op_code_i,
  input  logic [             15:0] op_history_i,
  input  logic [             31:0] op_pages_i,
  input  logic [             31:0] op_mask_i,
  input  logic [          StW-1:0] op_state_i,
  input  logic [              1:0] op_type_i,
  input  logic [             31:0] op_step_i,
  input  logic [             31:0] op_sample_i,
  // responses
  output logic                     dec_rsp_valid_o,
  output logic [              1:0] dec_action_o,
  output logic                     dec_explored_o,
  output logic                     rwd_rsp_valid_o,
  output logic [qrl_pkg::BinW-1:0] rwd_bin_o,
  output logic                     upd_done_o,
  output logic [          StW-1:0] state_o,
  output logic [qrl_pkg::QW-1:0]   reward_o,
  output logic                     reward_ready_o,
  output logic [             31:0] step_o,
  output logic [              3:0] flags_o,
  output logic [qrl_pkg::QW-1:0]   upd_reward_o,
  output logic [          StW-1:0] upd_state_o,
  output logic [              1:0] upd_action_o,
  // management (qrl_core)
  input  logic                     mgt_valid_i,
  output logic                     mgt_ready_o,
  input  logic [              1:0] mgt_op_i,
  input  logic [          StW-1:0] mgt_state_i,
  input  logic [              1:0] mgt_action_i,
  input  logic                     mgt_shadow_i,
  input  logic [qrl_pkg::QW-1:0]   mgt_value_i,
  input  logic [             31:0] mgt_seed_i,
  output logic                     mgt_rsp_valid_o,
  output logic [qrl_pkg::QW-1:0]   mgt_value_o,
  output logic                     idle_o
);
  localparam int unsigned QW = qrl_pkg::QW;
  localparam int unsigned Actions = 4;
  localparam int unsigned LW = $clog2(Depth + 1);

  logic [191:0] cfg;
  qrl_cfg #(.Words(6), .Init(CfgInit)) u_cfg (.clk_i, .rst_ni, .we_i(cfg_we_i),
      .addr_i(cfg_addr_i), .wdata_i(cfg_wdata_i), .q_o(cfg));

  logic dec_valid, dec_ready, upd_valid, upd_ready, cop_valid, core_mgt_ready;
  logic [StW-1:0] dec_state, upd_state, upd_next_state;
  logic [1:0] upd_action, upd_next_action;
  logic [QW-1:0] upd_reward, rwd_value;
  logic rwd_valid, rwd_ready, rwd_scanned, core_idle, rwd_idle, enc_busy;
  logic [31:0] rwd_sample;

  assign op_ready_o = idle_o && !mgt_valid_i;

  qrl_enc_fsp #(
    .Mode(Mode), .Depth(Depth), .Scan(Scan), .CountN(CountN), .CountThr(CountThr),
    .ShortOn(ShortOn), .SizeN(SizeN), .SizeThr(SizeThr), .PartialOn(PartialOn), .TypeN(TypeN),
    .TypeThr(TypeThr), .States(States), .StW(StW), .LW(LW)
  ) u_enc (
    .clk_i, .rst_ni, .cfg_len_i(cfg[128+:LW]), .cfg_type_i(cfg[168]), .cfg_spp_i(cfg[165:160]),
    .cfg_values_i(cfg[127:64]),
    .op_valid_i, .op_ready_i(op_ready_o), .op_code_i, .op_history_i, .op_pages_i, .op_mask_i,
    .op_state_i, .op_type_i, .op_step_i, .op_sample_i,
    .dec_valid_o(dec_valid), .dec_state_o(dec_state),
    .upd_valid_o(upd_valid), .upd_ready_i(upd_ready), .upd_state_o(upd_state),
    .upd_action_o(upd_action), .upd_reward_o(upd_reward), .upd_next_state_o(upd_next_state),
    .upd_next_action_o(upd_next_action), .cop_valid_o(cop_valid), .cop_ready_i(core_mgt_ready),
    .rwd_valid_o(rwd_valid), .rwd_sample_o(rwd_sample), .rwd_rsp_valid_i(rwd_rsp_valid_o),
    .rwd_value_i(rwd_value), .rwd_scanned_i(rwd_scanned),
    .state_o, .reward_o, .reward_ready_o, .step_o, .flags_o,
    .upd_entry_reward_o(upd_reward_o), .upd_entry_state_o(upd_state_o),
    .upd_entry_action_o(upd_action_o), .busy_o(enc_busy)
  );

  // the core's management port: the controller's, or the encoder's episode copy (COPY, 0)
  qrl_core #(
    .Mode(Mode), .States(States), .Actions(Actions), .Shadow(1'b1)
  ) u_core (
    .clk_i, .rst_ni,
    .cfg_eps_hi_i(cfg[15:0]), .cfg_eps_lo_i(cfg[31:16]), .cfg_eps_n_i(cfg[55:32]),
    .cfg_episode_len_i(16'd0),
    .dec_valid_i(dec_valid), .dec_ready_o(dec_ready), .dec_state_i(dec_state),
    .dec_mask_i({Actions{1'b1}}), .dec_rsp_valid_o, .dec_action_o, .dec_explored_o,
    .upd_valid_i(upd_valid), .upd_ready_o(upd_ready), .upd_state_i(upd_state),
    .upd_action_i(upd_action), .upd_reward_i(upd_reward), .upd_next_state_i(upd_next_state),
    .upd_next_action_i(upd_next_action), .upd_next_max_i(1'b0),
    .upd_next_mask_i({Actions{1'b1}}), .upd_rwd_ready_i(1'b1), .upd_done_o,
    .mgt_valid_i(mgt_valid_i || cop_valid), .mgt_ready_o(core_mgt_ready),
    .mgt_op_i(cop_valid ? 2'd0 : mgt_op_i), .mgt_state_i, .mgt_action_i, .mgt_shadow_i,
    .mgt_value_i, .mgt_seed_i, .mgt_rsp_valid_o, .mgt_value_o, .idle_o(core_idle)
  );
  assign mgt_ready_o = core_mgt_ready && !cop_valid;

  if (Mode != 2) begin : g_reward
    qrl_reward u_reward (
      .clk_i, .rst_ni, .cfg_values_i(cfg[127:64]), .rwd_valid_i(rwd_valid),
      .rwd_ready_o(rwd_ready), .rwd_sample_i(rwd_sample), .rwd_rsp_valid_o,
      .rwd_scanned_o(rwd_scanned), .rwd_value_o(rwd_value), .rwd_bin_o, .idle_o(rwd_idle)
    );
  end else begin : g_no_reward  // a frozen unit learns nothing
    assign rwd_ready = 1'b1;
    assign rwd_rsp_valid_o = 1'b0;
    assign rwd_scanned = 1'b0;
    assign rwd_value = '0;
    assign rwd_bin_o = '0;
    assign rwd_idle = 1'b1;
    logic unused_rwd;
    assign unused_rwd = ^{rwd_valid, rwd_sample};
  end

  // the requests are issued only while the core and the reward unit are ready for them
  logic unused;
  assign unused = ^{dec_ready, rwd_ready, cfg[63:56], cfg[191:169], cfg[167:166],
                    cfg[159:128+LW]};
  assign idle_o = core_idle && rwd_idle && !enc_busy;
endmodule
