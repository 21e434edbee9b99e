// Tabular Q-learning core of an RL decision unit, the top of its RTL: the design point selects
// the implementation. Mode 0 (online ε-greedy) and 1 (greedy: updates, no exploration, the lower
// index winning ties) are qrl_learn: q values and order bits in RAM, serial fixed-point update,
// optional shadow table. Mode 2 (frozen: decisions from a loaded table) is qrl_frozen: the q
// values alone, a decision scans its row, no update, no shadow table. Each is the bit- and
// cycle-exact twin of controller/rl/qcore.{h,cpp} at that point (docs/rl.md "Design points").
// A unit is this core and, where it has one and learns, the reward unit qrl_reward.
//
// Ports: decide, update and management (0 COPY shadow->active, 1 WRITE Q(s, a), 2 READ Q(s, a),
// 3 SEED) requests with valid/ready, one-cycle response pulses; idle_o when no operation is in
// flight (and after the reset clear). Cycles: qrl_learn.sv and qrl_frozen.sv.
// Design knobs of the learning core (docs/rl.md "Design knobs"; 0 = the papers' design, no logic):
// EpsPeriodLog2 P > 0, ε = max(cfg_eps_hi >> floor(t / 2^P), cfg_eps_lo) over the decisions t
// since the reset clear or SEED (cfg_eps_n unused); BaselineShift m > 0, an update uses the
// reward minus its exponential mean of weight 2^-m (an advantage).
module qrl_core #(
  parameter int unsigned Mode = 0,
  parameter int unsigned EpsPeriodLog2 = 0,
  parameter int unsigned BaselineShift = 0,
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
  if (Mode == 2) begin : g_frozen
    logic unused_shadow;
    assign unused_shadow = Shadow;  // and the learning core's knobs
    qrl_frozen #(
      .States (States),
      .Actions(Actions)
    ) u_core (.*);
  end else begin : g_learn
    // the reward an update uses: as given, or minus its running mean (BaselineShift)
    logic [qrl_pkg::QW-1:0] upd_rwd;
    if (BaselineShift > 0) begin : g_baseline
      qrl_baseline #(
        .Shift(BaselineShift)
      ) u_baseline (
        .clk_i,
        .rst_ni,
        .reward_i(upd_reward_i),
        .apply_i (upd_valid_i && upd_ready_o && upd_rwd_ready_i),  // accepted, not dropped
        .reward_o(upd_rwd)
      );
    end else begin : g_no_baseline
      assign upd_rwd = upd_reward_i;
    end
    qrl_learn #(
      .Mode         (Mode),
      .EpsPeriodLog2(EpsPeriodLog2),
      .States       (States),
      .Actions      (Actions),
      .Shadow       (Shadow)
    ) u_core (
      .*,
      .upd_reward_i(upd_rwd)
    );
  end
endmodule
