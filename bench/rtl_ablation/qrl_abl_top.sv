// Area ablation of qrl_core (bench/rtl_area_ablation.sh; not a design, not in qrl.f): the core with
// some inputs tied to constants, which Yosys propagates through the flattened netlist, so the
// logic that serves only those inputs is removed. NoExplore: ε-high = ε-low = 0, the unit never
// explores (the ε test, the exploration rank and the mask popcount go); NoSched: the ε-high
// budget 0; NoMgt: no management requests (no table load/read, no SEED, no COPY); FixedEp: the
// FSP episode length a constant 1000 (a comparator against a constant).
module qrl_abl_top #(
  parameter int unsigned States = 80,
  parameter int unsigned Actions = 9,
  parameter bit Shadow = 1'b0,
  parameter bit NoExplore = 1'b0,   // eps_hi = eps_lo = 0: never explores
  parameter bit NoSched = 1'b0,     // eps_n = 0: no eps-high budget
  parameter bit NoMgt = 1'b0,       // no management port
  parameter bit FixedEp = 1'b0,     // episode length a constant (1000)
  parameter int unsigned StW = qrl_pkg::idx_w(States),
  parameter int unsigned ActW = qrl_pkg::idx_w(Actions)
) (
  input  logic clk_i, rst_ni,
  input  logic [15:0] cfg_eps_hi_i, cfg_eps_lo_i,
  input  logic [23:0] cfg_eps_n_i,
  input  logic [15:0] cfg_episode_len_i,
  input  logic dec_valid_i, output logic dec_ready_o,
  input  logic [StW-1:0] dec_state_i, input logic [Actions-1:0] dec_mask_i,
  output logic dec_rsp_valid_o, output logic [ActW-1:0] dec_action_o, output logic dec_explored_o,
  input  logic upd_valid_i, output logic upd_ready_o,
  input  logic [StW-1:0] upd_state_i, input logic [ActW-1:0] upd_action_i,
  input  logic [15:0] upd_reward_i, input logic [StW-1:0] upd_next_state_i,
  input  logic [ActW-1:0] upd_next_action_i, input logic upd_next_max_i,
  input  logic [Actions-1:0] upd_next_mask_i, input logic upd_rwd_ready_i, output logic upd_done_o,
  input  logic mgt_valid_i, output logic mgt_ready_o, input logic [1:0] mgt_op_i,
  input  logic [StW-1:0] mgt_state_i, input logic [ActW-1:0] mgt_action_i, input logic mgt_shadow_i,
  input  logic [15:0] mgt_value_i, input logic [31:0] mgt_seed_i,
  output logic mgt_rsp_valid_o, output logic [15:0] mgt_value_o, output logic idle_o
);
  qrl_core #(.States(States), .Actions(Actions), .Shadow(Shadow)) u (
    .clk_i, .rst_ni,
    .cfg_eps_hi_i(NoExplore ? 16'h0 : cfg_eps_hi_i),
    .cfg_eps_lo_i(NoExplore ? 16'h0 : cfg_eps_lo_i),
    .cfg_eps_n_i(NoSched ? 24'h0 : cfg_eps_n_i),
    .cfg_episode_len_i(FixedEp ? 16'd1000 : cfg_episode_len_i),
    .dec_valid_i, .dec_ready_o, .dec_state_i, .dec_mask_i, .dec_rsp_valid_o, .dec_action_o,
    .dec_explored_o, .upd_valid_i, .upd_ready_o, .upd_state_i, .upd_action_i, .upd_reward_i,
    .upd_next_state_i, .upd_next_action_i, .upd_next_max_i, .upd_next_mask_i, .upd_rwd_ready_i,
    .upd_done_o,
    .mgt_valid_i(NoMgt ? 1'b0 : mgt_valid_i), .mgt_ready_o, .mgt_op_i, .mgt_state_i, .mgt_action_i,
    .mgt_shadow_i, .mgt_value_i, .mgt_seed_i, .mgt_rsp_valid_o, .mgt_value_o, .idle_o);
endmodule
