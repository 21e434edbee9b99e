// The SLC-cache agent as a whole RL unit (docs/rl.md "State encoders"): its configuration
// registers (qrl_cfg; word 4 bit 0: slc.rl_demand theta), its state encoder and Q-learning
// bookkeeping (qrl_enc_slc) and the Q-learning core (qrl_core at the design point Mode). No
// reward unit: the reward's sign is the controller's (its cost model). The RTL backend
// (controller/rl/rtl_backend.cpp) drives this top. Twin of rl::SlcEncoder over rl::QCore.
// Operation (op_*, accepted while idle_o): EPOCH(level, negative, the epoch's counters).
module qrl_unit_slc #(
  parameter int unsigned Mode = 0,
  parameter int unsigned LevelN = 8,
  parameter logic [((LevelN > 0) ? LevelN : 1)*4-1:0] LevelThr = qrl_pkg::Thr1to8,
  parameter int unsigned UtilN = 3,
  parameter int unsigned UtilDen = 4,
  parameter logic [((UtilN > 0) ? UtilN : 1)*16-1:0] UtilK = {16'd3, 16'd2, 16'd1},
  parameter int unsigned PrevN = 8,
  parameter logic [((PrevN > 0) ? PrevN : 1)*4-1:0] PrevThr = qrl_pkg::Thr1to8,
  parameter int unsigned DemN = 1,
  parameter int unsigned DemDen = 2,
  parameter logic [((DemN > 0) ? DemN : 1)*16-1:0] DemK = 16'd1,
  parameter int unsigned UpdN = 1,
  parameter int unsigned UpdDen = 4,
  parameter logic [((UpdN > 0) ? UpdN : 1)*16-1:0] UpdK = 16'd1,
  // ε 0.07 (4588) throughout; demand from theta's pages
  parameter logic [159:0] CfgInit = {32'd1, 64'd0, 32'd0, 16'd4588, 16'd4588},
  parameter int unsigned States = (LevelN + 1) * (UtilN + 1) * (PrevN + 1) * (DemN + 1) *
                                  (UpdN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // configuration registers
  input  logic                   cfg_we_i,
  input  logic [            2:0] cfg_addr_i,
  input  logic [           31:0] cfg_wdata_i,
  // operation
  input  logic                   op_valid_i,
  output logic                   op_ready_o,
  input  logic [            3:0] op_level_i,
  input  logic                   op_negative_i,
  input  logic [           31:0] op_mapped_i,
  input  logic [           31:0] op_logical_i,
  input  logic [           31:0] op_write_i,
  input  logic [           31:0] op_theta_i,
  input  logic [           31:0] op_small_i,
  input  logic [           31:0] op_slc_write_i,
  input  logic [           31:0] op_slc_update_i,
  // responses
  output logic                   dec_rsp_valid_o,
  output logic [            3:0] dec_action_o,
  output logic                   dec_explored_o,
  output logic                   upd_done_o,
  output logic [        StW-1:0] state_o,
  output logic [        StW-1:0] upd_state_o,
  output logic [            3:0] upd_action_o,
  // management (qrl_core)
  input  logic                   mgt_valid_i,
  output logic                   mgt_ready_o,
  input  logic [            1:0] mgt_op_i,
  input  logic [        StW-1:0] mgt_state_i,
  input  logic [            3:0] mgt_action_i,
  input  logic                   mgt_shadow_i,
  input  logic [qrl_pkg::QW-1:0] mgt_value_i,
  input  logic [           31:0] mgt_seed_i,
  output logic                   mgt_rsp_valid_o,
  output logic [qrl_pkg::QW-1:0] mgt_value_o,
  output logic                   idle_o
);
  localparam int unsigned Actions = 9;

  logic [159:0] cfg;
  qrl_cfg #(.Words(5), .Init(CfgInit)) u_cfg (.clk_i, .rst_ni, .we_i(cfg_we_i),
      .addr_i(cfg_addr_i), .wdata_i(cfg_wdata_i), .q_o(cfg));

  logic dec_valid, dec_ready, upd_valid, upd_ready, core_idle, enc_busy;
  logic [StW-1:0] dec_state, upd_state, upd_next_state;
  logic [3:0] upd_action;
  logic [qrl_pkg::QW-1:0] upd_reward;

  assign op_ready_o = idle_o && !mgt_valid_i;

  qrl_enc_slc #(
    .Mode(Mode), .LevelN(LevelN), .LevelThr(LevelThr), .UtilN(UtilN), .UtilDen(UtilDen),
    .UtilK(UtilK), .PrevN(PrevN), .PrevThr(PrevThr), .DemN(DemN), .DemDen(DemDen), .DemK(DemK),
    .UpdN(UpdN), .UpdDen(UpdDen), .UpdK(UpdK), .States(States), .StW(StW)
  ) u_enc (
    .clk_i, .rst_ni, .cfg_theta_i(cfg[128]),
    .op_valid_i, .op_ready_i(op_ready_o), .op_level_i, .op_negative_i, .op_mapped_i,
    .op_logical_i, .op_write_i, .op_theta_i, .op_small_i, .op_slc_write_i, .op_slc_update_i,
    .dec_valid_o(dec_valid), .dec_ready_i(dec_ready), .dec_state_o(dec_state),
    .dec_rsp_valid_i(dec_rsp_valid_o), .dec_action_i(dec_action_o),
    .upd_valid_o(upd_valid), .upd_state_o(upd_state), .upd_action_o(upd_action),
    .upd_reward_o(upd_reward), .upd_next_state_o(upd_next_state),
    .state_o, .upd_entry_state_o(upd_state_o), .upd_entry_action_o(upd_action_o),
    .busy_o(enc_busy)
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
    .upd_next_action_i(4'd0), .upd_next_max_i(1'b1), .upd_next_mask_i({Actions{1'b1}}),
    .upd_rwd_ready_i(1'b1), .upd_done_o,
    .mgt_valid_i, .mgt_ready_o, .mgt_op_i, .mgt_state_i, .mgt_action_i, .mgt_shadow_i,
    .mgt_value_i, .mgt_seed_i, .mgt_rsp_valid_o, .mgt_value_o, .idle_o(core_idle)
  );

  // the update is issued only while the core is idle; no reward unit reads the values
  logic unused;
  assign unused = ^{upd_ready, cfg[159:129], cfg[127:56]};
  assign idle_o = core_idle && !enc_busy;
endmodule
