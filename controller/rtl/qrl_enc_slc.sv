// The SLC-cache agent's state encoder and Q-learning bookkeeping (Yoo & Shin's SLC-RL, Algorithm
// 1): twin of rl::SlcEncoder (controller/rl/enc_slc.h, docs/rl.md "State encoders"). One
// operation, EPOCH, accepted when the unit is idle (op_ready_i): the end of an epoch with its raw
// counters (the SLC size level, mapped and logical sectors, host pages written, demand pages of
// requests up to theta and up to the largest theta (cfg_theta_i selects), SLC pages written and
// updated) and the sign of its reward (the controller's cost model). Unless it is the first epoch
// or the unit is frozen, Q(s_prev, a_prev) is updated first (Q-learning: the reward and the
// largest Q of the new state), then the core decides in the new state; the decision becomes
// (s_prev, a_prev). The decide request is issued at the edge the update ends, so the operation
// takes the core's cycles. The action is taken from the core's response at the edge after it
// (the next operation's first edge) and forwarded until then.
module qrl_enc_slc #(
  parameter int unsigned Mode = 0,  // the unit's design point; 2 (frozen): no update
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
  parameter int unsigned States = (LevelN + 1) * (UtilN + 1) * (PrevN + 1) * (DemN + 1) *
                                  (UpdN + 1),
  parameter int unsigned StW = qrl_pkg::idx_w(States)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   cfg_theta_i,  // the demand counter: theta's (1), 1 MiB's (0)
  // operation
  input  logic                   op_valid_i,
  input  logic                   op_ready_i,
  input  logic [            3:0] op_level_i,
  input  logic                   op_negative_i,
  input  logic [           31:0] op_mapped_i,
  input  logic [           31:0] op_logical_i,
  input  logic [           31:0] op_write_i,
  input  logic [           31:0] op_theta_i,
  input  logic [           31:0] op_small_i,
  input  logic [           31:0] op_slc_write_i,
  input  logic [           31:0] op_slc_update_i,
  // core
  output logic                   dec_valid_o,
  input  logic                   dec_ready_i,
  output logic [        StW-1:0] dec_state_o,
  input  logic                   dec_rsp_valid_i,
  input  logic [            3:0] dec_action_i,
  output logic                   upd_valid_o,
  output logic [        StW-1:0] upd_state_o,
  output logic [            3:0] upd_action_o,
  output logic [qrl_pkg::QW-1:0] upd_reward_o,
  output logic [        StW-1:0] upd_next_state_o,
  // response registers: the latest decision's state, the last update's entry
  output logic [        StW-1:0] state_o,
  output logic [        StW-1:0] upd_entry_state_o,
  output logic [            3:0] upd_entry_action_o,
  output logic                   busy_o
);
  localparam bit Learn = (Mode != 2);
  localparam int unsigned LB = qrl_pkg::idx_w(LevelN + 1);
  localparam int unsigned UB = qrl_pkg::idx_w(UtilN + 1);
  localparam int unsigned PB = qrl_pkg::idx_w(PrevN + 1);
  localparam int unsigned DB = qrl_pkg::idx_w(DemN + 1);
  localparam int unsigned QB = qrl_pkg::idx_w(UpdN + 1);

  logic acc;
  assign acc = op_valid_i && op_ready_i;

  // the pending action: the latest decision's, on the core's response until the next edge
  logic pv_q, hp_q, dpend_q;
  logic [3:0] ap_q, ap_eff;
  logic [StW-1:0] s_q, s_new, us_q;
  logic [3:0] ua_q;
  logic take;
  assign take = pv_q && dec_rsp_valid_i;
  assign ap_eff = take ? dec_action_i : ap_q;

  logic [LB-1:0] level_bin;
  logic [UB-1:0] util_bin;
  logic [PB-1:0] prev_bin;
  logic [DB-1:0] dem_bin;
  logic [QB-1:0] upd_bin;
  qrl_bin #(.N(LevelN), .W(4), .Thr(LevelThr)) u_level (.x_i(op_level_i), .bin_o(level_bin));
  qrl_ratio #(.N(UtilN), .W(32), .Den(UtilDen), .K(UtilK)) u_util (.x_i(op_mapped_i),
      .y_i(op_logical_i), .bin_o(util_bin));
  qrl_bin #(.N(PrevN), .W(4), .Thr(PrevThr)) u_prev (.x_i(ap_eff), .bin_o(prev_bin));
  qrl_ratio #(.N(DemN), .W(32), .Den(DemDen), .K(DemK)) u_dem (
      .x_i(cfg_theta_i ? op_theta_i : op_small_i), .y_i(op_write_i), .bin_o(dem_bin));
  qrl_ratio #(.N(UpdN), .W(32), .Den(UpdDen), .K(UpdK)) u_upd (.x_i(op_slc_update_i),
      .y_i(op_slc_write_i), .bin_o(upd_bin));
  // index = (((level * UtilBins + util) * PrevBins + prev) * DemBins + demand) * UpdBins + update
  assign s_new = StW'((((StW'(level_bin) * StW'(UtilN + 1) + StW'(util_bin)) * StW'(PrevN + 1) +
                        StW'(prev_bin)) * StW'(DemN + 1) + StW'(dem_bin)) * StW'(UpdN + 1)) +
                 StW'(upd_bin);

  // the update first (at the accept), then the decision (at once, or when the update ends)
  logic upd_now;
  assign upd_now = Learn && acc && hp_q;
  assign upd_valid_o = upd_now;
  assign upd_state_o = s_q;
  assign upd_action_o = ap_eff;
  assign upd_reward_o = op_negative_i ? -qrl_pkg::QW'(256) : qrl_pkg::QW'(256);
  assign upd_next_state_o = s_new;
  assign dec_valid_o = (acc && !upd_now) || dpend_q;
  assign dec_state_o = dpend_q ? s_q : s_new;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pv_q <= 1'b0;
      hp_q <= 1'b0;
      dpend_q <= 1'b0;
      ap_q <= '0;
      s_q <= '0;
      us_q <= '0;
      ua_q <= '0;
    end else begin
      if (take) begin
        pv_q <= 1'b0;
        ap_q <= dec_action_i;
      end
      if (acc) begin
        s_q <= s_new;
        hp_q <= 1'b1;
        dpend_q <= upd_now;  // decide when the update ends
      end
      if (upd_now) begin
        us_q <= s_q;
        ua_q <= ap_eff;
      end
      if (dec_valid_o && dec_ready_i) begin
        dpend_q <= 1'b0;
        pv_q <= 1'b1;
      end
    end
  end

  assign state_o = s_q;
  assign upd_entry_state_o = us_q;
  assign upd_entry_action_o = ua_q;
  assign busy_o = dpend_q;
endmodule
